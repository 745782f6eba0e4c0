/* bench_codec: plain loops (picohttpparser's way) over both encoders, on
 * both sides of a call, for the documents rpcbench really moves: ping, list
 * and getAllVmStats answers built by the simulator (vmsim) at 1..1000 VMs.
 *
 * Operations, per (verb, VMs, encoding):
 *   render_request   client, once per run (each send only stamps the id)
 *   parse_call       server, every request
 *   render_result    server, every answer
 *   check_response   client, --validate cheap (no tree)
 *   decode_response  client, --validate full (tree built and walked)
 *   check_status_last  XML-RPC only: cheap check with VDSM's status member
 *                      moved after the list, so the scan cannot stop early
 *
 * Every operation is warmed up by one call, then runs for budget_ms (at
 * least one call); the whole grid is
 * repeated reps times, interleaved, so a noisy neighbour hurts every row
 * alike. One tab-separated line per measurement on stdout:
 *   rep verb vms encoding op bytes us_per_call
 * bench/bench.py takes the medians.
 *
 * usage: bench_codec [budget_ms=200] [reps=3] [vms,...=1,150,1000] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "encoders/encoder.h"
#include "server/vmsim.h"

#define MAX_SIZES 8

enum op { OP_RENDER_REQ, OP_PARSE_CALL, OP_RENDER_RESULT, OP_CHECK, OP_DECODE, OP_STATUS_LAST,
          NOPS };
static const char *const op_names[NOPS] = {"render_request",  "parse_call",
                                           "render_result",   "check_response",
                                           "decode_response", "check_status_last"};

/* One document pair: the request a client sends and the answer a server
 * renders, in one encoding. */
struct bcase {
    const char *verb;
    int vms;
    const struct encoder *enc;
    const char *method;
    json_object *params;
    struct buf req;      /* request body, id stamped */
    struct enc_call call; /* req parsed, for render_result's id */
    struct enc_answer ans;
    json_object *value;  /* owned answer value */
    struct buf resp;     /* render_result(ans) */
    struct buf moved;    /* resp with the status member last (XML-RPC) */
    struct buf scratch;
};

/* The same document with the status member moved after the list, as a
 * Python 2 dict may order it. */
static int status_last(const struct buf *in, struct buf *out)
{
    const char *s = strstr(in->data, "<member><name>status</name>");
    const char *e = s ? strstr(s, "</struct></value></member>") : NULL;
    const char *t = strstr(in->data, "</struct></value></param>");
    if (!s || !e || !t || t < e)
        return -1;
    e += strlen("</struct></value></member>");
    buf_append(out, in->data, (size_t)(s - in->data));
    buf_append(out, e, (size_t)(t - e));
    buf_append(out, s, (size_t)(e - s));
    return buf_append_str(out, t);
}

static json_object *answer_value(struct vmsim *sim, const char *verb, const char **key)
{
    *key = NULL;
    if (!strcmp(verb, "ping"))
        return json_object_new_boolean(1);
    if (!strcmp(verb, "list")) {
        *key = "vmList";
        return vmsim_list(sim);
    }
    *key = "statsList";
    return vmsim_stats_all(sim);
}

static int case_init(struct bcase *c, struct vmsim *sim, char *err)
{
    struct enc_request r = {0};
    if (c->enc->verb_call(c->verb, NULL, &c->method, &c->params, err) ||
        c->enc->render_request(c->method, c->params, &r, err))
        return -1;
    enc_stamp_id(&r, 1);
    buf_append(&c->req, r.body.data, r.body.len);
    enc_request_free(&r);
    if (c->enc->parse_call(c->req.data, c->req.len, &c->call, err)) {
        enc_call_clear(&c->call);
        return -1;
    }
    c->value = answer_value(sim, c->verb, &c->ans.xml_key);
    c->ans.value = c->value;
    if (!c->value || c->enc->render_result(&c->call, &c->ans, &c->resp)) {
        snprintf(err, ERR_LEN, "cannot render the %s answer", c->verb);
        return -1;
    }
    if (c->enc == &enc_xmlrpc && c->ans.xml_key)
        status_last(&c->resp, &c->moved);
    return 0;
}

static void case_free(struct bcase *c)
{
    json_object_put(c->params);
    json_object_put(c->value);
    enc_call_clear(&c->call);
    buf_free(&c->req);
    buf_free(&c->resp);
    buf_free(&c->moved);
    buf_free(&c->scratch);
}

/* One call of op; returns the bytes it handled (0: op not applicable). */
static size_t run_op(struct bcase *c, enum op op)
{
    char err[ERR_LEN];
    struct enc_result res;
    switch (op) {
    case OP_RENDER_REQ: {
        struct enc_request r = {0};
        c->enc->render_request(c->method, c->params, &r, err);
        size_t n = r.body.len;
        enc_request_free(&r);
        return n;
    }
    case OP_PARSE_CALL: {
        struct enc_call call;
        c->enc->parse_call(c->req.data, c->req.len, &call, err);
        enc_call_clear(&call);
        return c->req.len;
    }
    case OP_RENDER_RESULT:
        buf_reset(&c->scratch);
        c->enc->render_result(&c->call, &c->ans, &c->scratch);
        return c->scratch.len;
    case OP_CHECK:
        c->enc->check_response(c->resp.data, c->resp.len, &res);
        return c->resp.len;
    case OP_DECODE:
        c->enc->decode_response(c->resp.data, c->resp.len, &res);
        return c->resp.len;
    case OP_STATUS_LAST:
        if (!c->moved.len)
            return 0;
        c->enc->check_response(c->moved.data, c->moved.len, &res);
        return c->moved.len;
    default:
        return 0;
    }
}

/* Runs op once to warm up (buffers grown, pages touched), then for about
 * budget_ns: at least one call, at most 10M; prints one line. A 1000-VM
 * XML-RPC decode takes most of a second, so one call may be the sample. */
static void time_op(struct bcase *c, enum op op, int rep, int64_t budget_ns)
{
    size_t bytes = run_op(c, op); /* also tells if op applies to c */
    if (!bytes)
        return;
    int64_t start = clock_now_ns(), now = start;
    long n = 0;
    while (n < 10000000 && (n < 1 || now - start < budget_ns)) {
        run_op(c, op);
        n++;
        if (n < 64 || (n & 63) == 0)
            now = clock_now_ns();
    }
    now = clock_now_ns();
    printf("%d\t%s\t%d\t%s\t%s\t%zu\t%.4f\n", rep, c->verb, c->vms, c->enc->name, op_names[op],
           bytes, (double)(now - start) / 1e3 / (double)n);
    fflush(stdout);
}

static int parse_sizes(const char *s, int *sizes)
{
    int n = 0;
    for (char *end; *s && n < MAX_SIZES; s = *end ? end + 1 : end) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > VMSIM_MAX_VMS || (*end && *end != ','))
            return -1;
        sizes[n++] = (int)v;
    }
    return n;
}

/* Cases: ping (no VMs), then list and getAllVmStats at every size. */
static int build_cases(const int *sizes, int nsizes, struct bcase *cases, struct vmsim **sims,
                       char *err)
{
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    int n = 0;
    for (int s = -1; s < nsizes; s++) {
        int vms = s < 0 ? 0 : sizes[s];
        struct vmsim *sim = vmsim_new(vms, 1, err);
        if (!sim)
            return -1;
        vmsim_set_time(sim, 60 * NS_PER_S);
        sims[s + 1] = sim;
        static const char *const verbs[] = {"list", "getAllVmStats"};
        for (int v = 0; v < (s < 0 ? 1 : 2); v++) {
            for (int e = 0; e < 2; e++) {
                struct bcase *c = &cases[n++];
                c->verb = s < 0 ? "ping" : verbs[v];
                c->vms = vms;
                c->enc = encs[e];
                if (case_init(c, sim, err))
                    return -1;
            }
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int64_t budget_ns = (argc > 1 ? atol(argv[1]) : 200) * NS_PER_MS;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int sizes[MAX_SIZES];
    int nsizes = parse_sizes(argc > 3 ? argv[3] : "1,150,1000", sizes);
    if (budget_ns <= 0 || reps <= 0 || nsizes <= 0) {
        fprintf(stderr, "usage: bench_codec [budget_ms] [reps] [vms,...]\n");
        return 2;
    }
    struct bcase cases[2 + 4 * MAX_SIZES] = {{0}};
    struct vmsim *sims[MAX_SIZES + 1] = {0};
    char err[ERR_LEN] = "";
    int ncases = build_cases(sizes, nsizes, cases, sims, err);
    int rc = 0;
    if (ncases < 0) {
        fprintf(stderr, "bench_codec: %s\n", err);
        rc = 1;
        ncases = 2 + 4 * MAX_SIZES;
    }
    printf("rep\tverb\tvms\tencoding\top\tbytes\tus_per_call\n");
    for (int r = 0; !rc && r < reps; r++)
        for (int i = 0; i < ncases; i++)
            for (int op = 0; op < NOPS; op++)
                time_op(&cases[i], (enum op)op, r, budget_ns);
    for (int i = 0; i < ncases; i++)
        case_free(&cases[i]);
    for (int s = 0; s <= nsizes; s++)
        vmsim_free(sims[s]);
    return rc;
}
