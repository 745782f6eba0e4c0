/* dist_mpi: ranks, messages, clock offsets and the common start (see
 * dist.h, dist_int.h). Every message is point to point with a deadline,
 * never a collective, so a rank that dies mid-run (mpirun
 * --enable-recovery keeps the job) is found out and reported by rank 0
 * instead of hanging the others. MPI_Init and MPI_Finalize wait for every
 * rank with no deadline of their own: a watchdog bounds them, and no rank
 * finalizes once any rank is known lost. */
#ifdef RPCBENCH_MPI
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/exit_code.h"
#include "client/measured_run.h"
#include "dist/dist_int.h"

struct dist dist_g;

/* Pings per rank; the exchange with the least round trip is kept. */
#define SYNC_PINGS 8
/* The common start is this far ahead of rank 0's decision: time for the
 * GO messages to reach every rank. */
#define START_AHEAD_NS (150 * NS_PER_MS)

const char *dist_build(void)
{
#ifdef OMPI_MAJOR_VERSION
    static char v[48];
    snprintf(v, sizeof v, "with MPI, Open MPI %d.%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
             OMPI_RELEASE_VERSION);
    return v;
#else
    return "with MPI";
#endif
}

const char *dist_foreign_launch(void)
{
    return NULL;
}

int dist_rank(void)
{
    return dist_g.rank;
}

int dist_size(void)
{
    return dist_g.size ? dist_g.size : 1;
}

void dist_set_rank_output(const char *prefix)
{
    snprintf(dist_g.rank_output, sizeof dist_g.rank_output, "%s", prefix);
}

void dist_set_server_host(const char *host)
{
    snprintf(dist_g.server_host, sizeof dist_g.server_host, "%s", host);
}

/* How long MPI_Init and MPI_Finalize may take: they wait for every rank,
 * and a lost one never comes. */
#define MPI_WAIT_S 60

/* The watchdog's line, written before it is armed (the handler may only
 * write). */
static char watchdog_line[160];
static size_t watchdog_len;

static void watchdog_fired(int sig)
{
    (void)sig;
    if (write(dist_g.report_fd, watchdog_line, watchdog_len) < 0) {
        /* nothing left to tell it to */
    }
    _exit(EXIT_RUN_FAILED);
}

/* Past seconds, what (an MPI call that waits for every rank) is given up:
 * this rank says so on its real stderr and exits EXIT_RUN_FAILED. seconds
 * 0 disarms. */
static void watchdog(unsigned seconds, const char *what)
{
    if (!seconds) {
        alarm(0);
        return;
    }
    snprintf(watchdog_line, sizeof watchdog_line, "rpcbench: rank %d: %s did not return within "
             "%u s (a rank lost?): exiting\n", dist_g.rank, what, seconds);
    watchdog_len = strlen(watchdog_line);
    signal(SIGALRM, watchdog_fired);
    alarm(seconds);
}

int dist_init(int *argc, char ***argv)
{
    int n = 1;
    /* main silences the other ranks' stderr; the loss of rank 0 is still
     * theirs to tell. */
    dist_g.report_fd = dup(STDERR_FILENO);
    if (dist_g.report_fd < 0)
        dist_g.report_fd = STDERR_FILENO;
    watchdog(MPI_WAIT_S, "MPI_Init");
    int rc = MPI_Init(argc, argv);
    watchdog(0, NULL);
    if (rc != MPI_SUCCESS)
        return -1;
    /* Errors come back as codes: a dead rank must not abort rank 0. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &dist_g.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    dist_g.size = n;
    gethostname(dist_g.host, sizeof dist_g.host - 1);
    size_t sz = (size_t)n;
    dist_g.lost = calloc(sz, 1);
    dist_g.done = calloc(sz, 1);
    dist_g.offset_ns = calloc(sz, sizeof *dist_g.offset_ns);
    dist_g.error_ns = calloc(sz, sizeof *dist_g.error_ns);
    dist_g.sent = calloc(sz, sizeof *dist_g.sent);
    dist_g.ok = calloc(sz, sizeof *dist_g.ok);
    dist_g.errors = calloc(sz, sizeof *dist_g.errors);
    dist_g.cpu_sum = calloc(sz, sizeof *dist_g.cpu_sum);
    dist_g.cpu_n = calloc(sz, sizeof *dist_g.cpu_n);
    if (!dist_g.lost || !dist_g.done || !dist_g.offset_ns || !dist_g.error_ns || !dist_g.sent ||
        !dist_g.ok || !dist_g.errors || !dist_g.cpu_sum || !dist_g.cpu_n)
        return -1;
    return 0;
}

static int any_lost(void)
{
    for (int r = 0; r < dist_g.size; r++)
        if (dist_g.lost[r])
            return 1;
    return 0;
}

/* EXIT: rank 0's code, and whether any rank was lost (then nobody
 * finalizes: MPI_Finalize would wait for the lost rank). */
struct exit_msg {
    int32_t code, lost;
};

/* A rank other than 0 that lost rank 0 says so (rank 0 would have, but is
 * gone). */
static void report_root_lost(void)
{
    char line[160];
    int n = snprintf(line, sizeof line, "rpcbench: rank %d (%.60s): rank 0 was lost (no answer "
                     "by the run's deadline): exiting\n", dist_g.rank, dist_g.host);
    if (n > 0 && write(dist_g.report_fd, line, (size_t)n) < 0) {
        /* nothing left to tell it to */
    }
}

int dist_finish(int code)
{
    struct exit_msg m = {.code = code};
    int64_t deadline = clock_now_ns() + 30 * NS_PER_S;
    if (dist_g.size > 1 && dist_g.rank == 0) {
        m.lost = any_lost();
        for (int r = 1; r < dist_g.size; r++)
            if (!dist_g.lost[r])
                dist_send(r, DK_EXIT, &m, sizeof m, deadline);
    } else if (dist_g.size > 1 && !dist_g.lost[0] && dist_recv(0, DK_EXIT, deadline) == 0 &&
               dist_g.rx.len == sizeof m) {
        memcpy(&m, dist_g.rx.data, sizeof m);
    }
    fflush(NULL);
    if (dist_g.size > 1 && dist_g.rank != 0 && dist_g.lost[0]) {
        report_root_lost();
        return EXIT_RUN_FAILED;
    }
    if (m.lost || any_lost())
        return m.code;
    watchdog(MPI_WAIT_S, "MPI_Finalize");
    MPI_Finalize();
    watchdog(0, NULL);
    return m.code;
}

int dist_tag(int kind)
{
    return ((dist_g.seq & 1023) << 4) | kind;
}

/* Between two looks at a message not there yet: 20 us while the wait is
 * young (clock ping-pongs want short round trips), 1 ms once it has lasted
 * 2 ms (a rank waited for at length must not cost a core). */
static void pause_briefly(int64_t since_ns)
{
    struct timespec ts = {0, clock_now_ns() - since_ns > 2 * NS_PER_MS ? 1000000 : 20000};
    nanosleep(&ts, NULL);
}

int dist_send(int dst, int kind, const void *data, size_t len, int64_t deadline_ns)
{
    MPI_Request req;
    int done = 0;
    int64_t since = clock_now_ns();
    if (MPI_Isend(data, (int)len, MPI_BYTE, dst, dist_tag(kind), MPI_COMM_WORLD, &req) !=
        MPI_SUCCESS)
        goto lost;
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
        if (clock_now_ns() > deadline_ns) {
            MPI_Cancel(&req);
            MPI_Request_free(&req);
            goto lost;
        }
        pause_briefly(since);
    }
    if (done)
        return 0;
lost:
    dist_g.lost[dst] = 1;
    return -1;
}

int dist_recv(int src, int kind, int64_t deadline_ns)
{
    MPI_Status st;
    int flag = 0, n = 0;
    int64_t since = clock_now_ns();
    for (;;) {
        if (MPI_Iprobe(src < 0 ? MPI_ANY_SOURCE : src, dist_tag(kind), MPI_COMM_WORLD, &flag,
                       &st) != MPI_SUCCESS)
            return -1;
        if (flag)
            break;
        if (clock_now_ns() > deadline_ns) {
            if (src >= 0)
                dist_g.lost[src] = 1;
            return -1;
        }
        pause_briefly(since);
    }
    MPI_Get_count(&st, MPI_BYTE, &n);
    buf_reset(&dist_g.rx);
    if (n < 0 || buf_reserve(&dist_g.rx, (size_t)n + 1))
        return -1;
    if (MPI_Recv(dist_g.rx.data, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    dist_g.rx.len = (size_t)n;
    return st.MPI_SOURCE;
}

/* Rank 0's side of one rank's ping-pongs. */
static void sync_one(int r)
{
    int64_t best = INT64_MAX;
    for (int i = 0; i < SYNC_PINGS && !dist_g.lost[r]; i++) {
        int64_t a = clock_now_ns(), b;
        if (dist_send(r, DK_PING, &a, sizeof a, a + 2 * NS_PER_S) ||
            dist_recv(r, DK_PONG, a + 2 * NS_PER_S) != r || dist_g.rx.len != sizeof b) {
            dist_g.lost[r] = 1;
            return;
        }
        int64_t c = clock_now_ns();
        memcpy(&b, dist_g.rx.data, sizeof b);
        if (c - a < best) {
            best = c - a;
            dist_g.offset_ns[r] = b - (a + (c - a) / 2);
            dist_g.error_ns[r] = (c - a + 1) / 2;
        }
    }
}

void dist_sync_clocks(void)
{
    if (dist_g.rank == 0) {
        for (int r = 1; r < dist_g.size; r++)
            if (!dist_g.lost[r])
                sync_one(r);
        return;
    }
    for (int i = 0; i < SYNC_PINGS; i++) {
        if (dist_recv(0, DK_PING, dist_g.deadline_ns) != 0)
            return;
        int64_t b = clock_now_ns();
        dist_send(0, DK_PONG, &b, sizeof b, dist_g.deadline_ns);
    }
}

/* START (to rank 0) and GO (from it). */
struct start_msg {
    int32_t ok;
    int64_t t0_ns;
    char why[2 * ERR_LEN];
};

/* Rank 0: every rank's status in; the verdict (or the start) out. */
static int start_root(const struct start_msg *mine, int64_t *t0_ns, char *err)
{
    struct start_msg go = {.ok = 1};
    if (!mine->ok)
        snprintf(go.why, sizeof go.why, "rank 0 (%.60s): %.180s", dist_g.host, mine->why);
    go.ok = mine->ok;
    int64_t deadline = clock_now_ns() + dist_g.timeout_ns + 10 * NS_PER_S;
    for (int r = 1; r < dist_g.size; r++) {
        struct start_msg m;
        if (dist_g.lost[r])
            continue;
        if (dist_recv(r, DK_START, deadline) != r || dist_g.rx.len != sizeof m) {
            m.ok = 0;
            snprintf(m.why, sizeof m.why, "did not answer");
            dist_g.lost[r] = 1;
        } else {
            memcpy(&m, dist_g.rx.data, sizeof m);
        }
        if (!m.ok && go.ok) {
            go.ok = 0;
            snprintf(go.why, sizeof go.why, "rank %d: %.180s", r, m.why);
        }
    }
    int64_t start = clock_now_ns() + START_AHEAD_NS;
    for (int r = 1; r < dist_g.size; r++) {
        if (dist_g.lost[r])
            continue;
        go.t0_ns = start + dist_g.offset_ns[r];
        dist_send(r, DK_GO, &go, sizeof go, start);
    }
    *t0_ns = start;
    if (!go.ok)
        snprintf(err, ERR_LEN, "%.250s", go.why);
    return go.ok ? 0 : -1;
}

int dist_start_exchange(int ok, const char *why, int64_t *t0_ns, char *err)
{
    struct start_msg m = {.ok = ok};
    snprintf(m.why, sizeof m.why, "%s", why ? why : "");
    dist_g.started = 1;
    if (dist_g.rank == 0)
        return (dist_g.start_failed = start_root(&m, t0_ns, err) != 0) ? -1 : 0;
    if (ok)
        snprintf(m.why, sizeof m.why, "%s", dist_g.host);
    else
        snprintf(m.why, sizeof m.why, "%.60s: %.180s", dist_g.host, why);
    int64_t deadline = dist_g.deadline_ns;
    struct start_msg go;
    if (dist_send(0, DK_START, &m, sizeof m, deadline) || dist_recv(0, DK_GO, deadline) != 0 ||
        dist_g.rx.len != sizeof go) {
        snprintf(err, ERR_LEN, "rank 0 did not answer at the start");
        dist_g.start_failed = 1;
        return -1;
    }
    memcpy(&go, dist_g.rx.data, sizeof go);
    *t0_ns = go.t0_ns;
    dist_g.start_failed = !go.ok;
    if (!go.ok)
        snprintf(err, ERR_LEN, "%.250s", go.why);
    return go.ok ? 0 : -1;
}

int dist_on_start(void *ctx, int64_t *t0_ns, char *err)
{
    (void)ctx;
    return dist_start_exchange(1, NULL, t0_ns, err);
}

/* SPAWN: rank 0's simulator, or why it did not start. */
struct spawn_msg {
    int32_t ok;
    char hostport[64];
    char why[2 * ERR_LEN];
};

int dist_spawn_server(const struct run_config *cfg, struct child_server *cs, char *err)
{
    struct spawn_msg m = {.ok = 1};
    int64_t deadline = clock_now_ns() + 60 * NS_PER_S;
    if (dist_size() == 1)
        return measured_run_spawn_server(cfg, cs, err);
    if (dist_g.rank == 0) {
        if (measured_run_spawn_server(cfg, cs, m.why))
            m.ok = 0;
        snprintf(m.hostport, sizeof m.hostport, "%s", cs->hostport);
        for (int r = 1; r < dist_g.size; r++)
            if (!dist_g.lost[r])
                dist_send(r, DK_SPAWN, &m, sizeof m, deadline);
    } else if (dist_recv(0, DK_SPAWN, deadline) == 0 && dist_g.rx.len == sizeof m) {
        memcpy(&m, dist_g.rx.data, sizeof m);
        cs->pid = 0;
        snprintf(cs->hostport, sizeof cs->hostport, "%s", m.hostport);
    } else {
        snprintf(m.why, sizeof m.why, "rank 0 did not say where its simulator is");
        m.ok = 0;
    }
    if (!m.ok)
        snprintf(err, ERR_LEN, "%.250s", m.why);
    return m.ok ? 0 : -1;
}
#else
typedef int dist_mpi_unused;
#endif
