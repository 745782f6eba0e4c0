/* perf: see perf.h. */
#include "profile/perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/figure.h"
#include "base/child.h"

/* perf's default copy of a sample's stack for DWARF unwinding: deep enough
 * for a server's event loop down to its libraries' leaves. */
#define PERF_DWARF_STACK "dwarf,8192"

/* @return kernel.perf_event_paranoid, or 2 (Debian's default) unreadable. */
static int paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 2;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 2;
        fclose(f);
    }
    return v;
}

/* The syscall perf needs, tried on ourselves: a sandbox refuses it. */
static int try_event_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CPU_CLOCK;
    a.disabled = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0)
        return -1;
    close((int)fd);
    return 0;
}

int perf_check(char *err)
{
    int par = paranoid();
    if (!child_in_path("perf")) {
        snprintf(err, ERR_LEN, "--profile needs Linux perf: apt-get install linux-perf "
                 "(or give --profiler 'CMD')");
        return -1;
    }
    if (geteuid() != 0 && par > 1) {
        snprintf(err, ERR_LEN, "--profile: kernel.perf_event_paranoid is %d: run as root, or "
                 "sysctl kernel.perf_event_paranoid=1 to profile your own processes", par);
        return -1;
    }
    if (try_event_open()) {
        snprintf(err, ERR_LEN, "--profile: perf_event_open refused (%s): a container or "
                 "sandbox without perf events (seccomp, --privileged, CAP_PERFMON)",
                 strerror(errno));
        return -1;
    }
    return 0;
}

void perf_message(const struct perf_rec *p, const char *what, char *err)
{
    char line[256] = "", last[256] = "no message";
    FILE *f = fopen(p->log, "r");
    while (f && fgets(line, sizeof line, f))
        if (line[strspn(line, " \t\r\n")])
            snprintf(last, sizeof last, "%.*s", (int)strcspn(line, "\r\n"), line);
    if (f)
        fclose(f);
    snprintf(err, ERR_LEN, "%s: %s", what, last);
}

/* perf record starts with its events off (-D -1) and a control fifo:
 * "enable" is acknowledged once it samples, so its start (a few hundred
 * ms) is over before the run's window can begin. Both fifos are opened
 * O_RDWR, which never blocks, so a perf that died cannot hang us.
 * @return 0, or -1 with err. */
static int enable_and_wait(const struct perf_rec *p, const char *ctl, const char *ack, char *err)
{
    int c = open(ctl, O_RDWR | O_CLOEXEC), a = open(ack, O_RDWR | O_CLOEXEC | O_NONBLOCK);
    int rc = -1;
    if (c >= 0 && a >= 0 && write(c, "enable\n", 7) == 7) {
        struct pollfd pf = {.fd = a, .events = POLLIN};
        char buf[16];
        for (int waited = 0; waited < 10000 && rc; waited += 100) {
            if (poll(&pf, 1, 100) == 1 && read(a, buf, sizeof buf) > 0)
                rc = 0;
            else if (child_exited(p->pid))
                break;
        }
    }
    if (rc)
        perf_message(p, "perf record did not start", err);
    if (c >= 0)
        close(c);
    if (a >= 0)
        close(a);
    return rc;
}

int perf_start(struct perf_rec *p, const char *dir, const pid_t *pids, size_t n, int hz,
               int dwarf, char *err)
{
    char ctl[300], ack[300], list[PERF_MAX_PIDS * 12], freq[16], control[620];
    memset(p, 0, sizeof *p);
    p->hz = hz;
    p->dwarf = dwarf;
    snprintf(p->data, sizeof p->data, "%s/perf.data", dir);
    snprintf(p->log, sizeof p->log, "%s/perf.log", dir);
    snprintf(ctl, sizeof ctl, "%s/perf.ctl", dir);
    snprintf(ack, sizeof ack, "%s/perf.ack", dir);
    snprintf(control, sizeof control, "fifo:%s,%s", ctl, ack);
    snprintf(freq, sizeof freq, "%d", hz);
    list[0] = '\0';
    for (size_t i = 0; i < n && i < PERF_MAX_PIDS; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? "," : "",
                 (int)pids[i]);
    if (mkfifo(ctl, 0600) || mkfifo(ack, 0600)) {
        snprintf(err, ERR_LEN, "--profile: mkfifo in %s: %s", dir, strerror(errno));
        return -1;
    }
    const char *argv[] = {"perf", "record", "-q", "--no-buildid", "-D", "-1", "--control",
                          control, "-k", "mono", "-F", freq, "-e", "cpu-clock", "--call-graph",
                          dwarf ? PERF_DWARF_STACK : "fp", "-p",
                          list, "-o", p->data, NULL};
    struct child_spec c = {.argv = argv, .log = p->log};
    if ((p->pid = child_spawn(&c, NULL, err)) < 0) {
        p->pid = 0;
        return -1;
    }
    if (enable_and_wait(p, ctl, ack, err)) {
        child_stop(p->pid, SIGKILL, 2000, NULL);
        p->pid = 0;
        return -1;
    }
    return 0;
}

int perf_stop(struct perf_rec *p, double *cpu_ms, char *err)
{
    *cpu_ms = FIG_UNKNOWN;
    if (p->pid <= 0)
        return 0;
    int rc = child_stop(p->pid, SIGINT, 30000, cpu_ms);
    p->pid = 0;
    if (rc != 0 && rc != 128 + SIGINT) {
        perf_message(p, "perf record failed", err);
        return -1;
    }
    return 0;
}
