#include "cli/options.h"
#include "dist/dist.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "encoders/encoder.h"
#include "server/vmsim.h"

enum {
    OPT_VERB = 256, OPT_METHOD, OPT_PARAMS, OPT_WARMUP, OPT_ARRIVAL, OPT_SEED, OPT_TIMEOUT,
    OPT_INTERVAL, OPT_BUCKETS, OPT_PCTS, OPT_OUTPUT, OPT_FORMAT, OPT_VMS, OPT_VALIDATE,
    OPT_QUIET, OPT_SERVER_PID, OPT_SERVER_NAME, OPT_CPU_SAT, OPT_MAX_RESPONSE, OPT_LABEL,
    OPT_ROUNDS, OPT_PLOT, OPT_HDR_LOG, OPT_PCT_DIST, OPT_VM_ID, OPT_CACERT, OPT_CERT, OPT_KEY,
    OPT_INSECURE, OPT_STOMP_DEST, OPT_BUSY_POLL, OPT_PLOT_KEEP, OPT_THRESHOLD, OPT_JUNIT,
    OPT_GATE, OPT_BISECT, OPT_RANK_OUTPUT, OPT_SERVER_HOST, OPT_HTML,
    OPT_IDLE_BASELINE, OPT_PACER_WINDOW,
    OPT_LAST /* keep last: the size of options_parse's table of values seen */
};

static const struct option long_opts[] = {
    {"url", required_argument, NULL, 'u'},
    {"proto", required_argument, NULL, 'p'},
    {"verb", required_argument, NULL, OPT_VERB},
    {"method", required_argument, NULL, OPT_METHOD},
    {"params", required_argument, NULL, OPT_PARAMS},
    {"rate", required_argument, NULL, 'R'},
    {"duration", required_argument, NULL, 'd'},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"connections", required_argument, NULL, 'c'},
    {"arrival", required_argument, NULL, OPT_ARRIVAL},
    {"busy-poll", no_argument, NULL, OPT_BUSY_POLL},
    {"pacer-window", required_argument, NULL, OPT_PACER_WINDOW},
    {"seed", required_argument, NULL, OPT_SEED},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"buckets", required_argument, NULL, OPT_BUCKETS},
    {"percentiles", required_argument, NULL, OPT_PCTS},
    {"output", required_argument, NULL, OPT_OUTPUT},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"vms", required_argument, NULL, OPT_VMS},
    {"validate", required_argument, NULL, OPT_VALIDATE},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"server-pid", required_argument, NULL, OPT_SERVER_PID},
    {"server-name", required_argument, NULL, OPT_SERVER_NAME},
    {"idle-baseline", required_argument, NULL, OPT_IDLE_BASELINE},
    {"cpu-saturation", required_argument, NULL, OPT_CPU_SAT},
    {"max-response", required_argument, NULL, OPT_MAX_RESPONSE},
    {"label", required_argument, NULL, OPT_LABEL},
    {"rounds", required_argument, NULL, OPT_ROUNDS},
    {"gate", required_argument, NULL, OPT_GATE},
    {"bisect", no_argument, NULL, OPT_BISECT},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"html", required_argument, NULL, OPT_HTML},
    {"plot-keep", no_argument, NULL, OPT_PLOT_KEEP},
    {"hdr-log", required_argument, NULL, OPT_HDR_LOG},
    {"percentile-dist", required_argument, NULL, OPT_PCT_DIST},
    {"vm-id", required_argument, NULL, OPT_VM_ID},
    {"cacert", required_argument, NULL, OPT_CACERT},
    {"cert", required_argument, NULL, OPT_CERT},
    {"key", required_argument, NULL, OPT_KEY},
    {"insecure", no_argument, NULL, OPT_INSECURE},
    {"stomp-destination", required_argument, NULL, OPT_STOMP_DEST},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"rank-output", required_argument, NULL, OPT_RANK_OUTPUT},
    {"server-host", required_argument, NULL, OPT_SERVER_HOST},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

void options_usage(FILE *out, int compare)
{
    fprintf(out,
            "usage: rpcbench %s [options]%s\n"
            "  -u, --url URL          http[s]://host:port[/path], stomp[s]://host:port\n"
            "                         (default: start the built-in simulator)\n"
            "  -p, --proto P          xmlrpc | jsonrpc%s\n"
            "      --verb V[:W],...   ping, list, fullList, getAllVmStats, getVmStats; weighted mix\n"
            "                         e.g. list:4,getAllVmStats:1 (default getAllVmStats)\n"
            "      --vm-id UUID       the VM of getVmStats\n"
            "      --method M --params JSON   call any other method\n"
            "  -R, --rate R           50, 50/s, 4/m, 1/15s, max (closed loop); default 10/s\n"
            "  -d, --duration D       measured time, default 30s (units ms s m h;\n"
            "                         a bare number is seconds)\n"
            "      --warmup D         excluded from every figure, default 0\n"
            "  -c, --connections N    keep-alive connections, default 4\n"
            "      --arrival A        constant | poisson (seeded by --seed)\n"
            "      --seed N           seed of the poisson arrivals, 0..2147483647 (default 1)\n"
            "      --busy-poll        the pacer polls instead of sleeping: sends on time\n"
            "                         on a VM that is slow to wake (costs a core)\n"
            "      --pacer-window W   auto | D: sends due within D go out on one wake,\n"
            "                         each timed from its own intended time; auto (the\n"
            "                         default) is half the timer's p99 lateness, 50us-1ms\n"
            "      --timeout D        per request, default 10s\n"
            "      --interval D       progress and timeline step, default 1s\n"
            "      --buckets SPEC     auto | START:END:STEP (ms) | 1,2,5,10 (ms); 64 edges at most\n"
            "      --percentiles L    increasing, each 0..100; default 50,90,99,99.9\n"
            "      --validate V       none | cheap (default) | full\n"
            "      --server-pid P[,P] --server-name NAME   server processes to sample\n"
            "                         (NAME: the executable's, or an interpreter's script's)\n"
            "      --idle-baseline D  sample the server idle for D before the load, for\n"
            "                         CPU-ms/call net of its background; default 3s with\n"
            "                         --server-pid/--server-name under 5/s, else 0 (none)\n"
            "      --cpu-saturation P[%%]|off   server CPU %% of one core called saturated\n"
            "                         (warned; stops --find-max), default 95%%\n"
            "      --max-response SZ  default 64MiB\n"
            "      --output FILE      JSON result\n"
            "      --format F         stdout: text | json | csv (timeline) | csv-summary |\n"
            "                         csv-buckets%s\n"
            "      --plot FILE.svg    plots with gnuplot (one SVG); --plot-keep also keeps\n"
            "                         FILE.gp and its .dat files\n"
            "      --html FILE.html   one self-contained page: headline, tables, charts\n"
            "      --hdr-log FILE     HdrHistogram interval log%s\n"
            "      --percentile-dist FILE   HdrHistogram percentile table%s\n"
            "      --label NAME       the run's name in reports and plots%s\n"
            "      --vms N            size of the built-in simulator, default 150\n"
            "      --cacert F --cert F --key F   TLS: verify the server; client certificate\n"
            "      --insecure         TLS without verifying the server (said in the report)\n"
            "      --stomp-destination D   default jms.topic.vdsm_requests\n"
            "      --quiet            no progress lines\n"
            "      --server-host H    under mpirun: the ranks on host H sample the server\n"
            "      --rank-output P    under mpirun: each rank's own share to P.<rank>.json\n"
            "%s%s"
            "  -V, --version          the version;  -h, --help  this text\n"
            USAGE_EXIT_CODES,
            compare ? "compare" : "run", compare ? " | rpcbench compare A.json B.json" : "",
            compare ? "; A,B gives each arm its own\n"
                      "                         (also --url, --server-pid, --label); one value\n"
                      "                         is both arms' (default: xmlrpc,jsonrpc on the\n"
                      "                         built-in simulator, xmlrpc on a --url)"
                    : "",
            compare ? " (text or json for compare)" : "", compare ? " (FILE.A, FILE.B)" : "",
            compare ? " (FILE.A, FILE.B)" : "", compare ? " (A,B)" : "",
            compare ? "      --rounds K         interleaved rounds A B A B ..., default 3\n"
                      "                         (fewer than 3 cannot show most differences)\n"
                      "      --rounds auto[:MAX]   add rounds (3 at least, MAX default 12) until\n"
                      "                         the outcome is decided (every --gate, or a regression)\n"
                      "      --gate METRIC:+TOL%   fail when B/A is surely above 1+TOL: p50, p90,\n"
                      "                         p99, mean, cpu_ms_per_call, server_cpu, bytes,\n"
                      "                         errors; rate:-TOL% (below 1-TOL); repeatable\n"
                      "      --bisect           exit codes for git bisect run: 0 pass, 1\n"
                      "                         regression, 125 inconclusive or could not run\n"
                    : "",
            RUN_THRESHOLD_HELP);
    fprintf(out, "             3 %s130 interrupted by SIGINT, 143 by SIGTERM (128 + the signal;\n"
                 "             figures still reported)\n",
            compare ? "no request succeeded in an arm, a --threshold condition failed in an\n"
                      "             arm, or a --gate regression; 4 a --gate inconclusive after the\n"
                      "             last round; "
                    : "a --threshold condition failed, or no request succeeded;\n             ");
}

static void defaults(struct options *o)
{
    memset(o, 0, sizeof *o);
    struct run_config *c = &o->cfg;
    snprintf(o->encoding, sizeof o->encoding, "xmlrpc");
    c->rate = 10;
    c->duration_ns = 30 * 1000000000LL;
    c->timeout_ns = 10 * 1000000000LL;
    c->interval_ns = 1000000000LL;
    c->connections = 4;
    c->pacer_window_auto = 1;
    c->seed = 1;
    c->validate = VALIDATE_CHEAP;
    c->vms = 150;
    snprintf(c->buckets, sizeof c->buckets, "auto");
    double pcts[] = {50, 90, 99, 99.9};
    memcpy(c->pcts, pcts, sizeof pcts);
    c->npcts = 4;
    c->cpu_saturation = 95;
    c->idle_baseline_ns = -1; /* server_cpu_idle_ns decides */
    c->max_response = 64u << 20;
    o->rounds = 3;
    snprintf(c->verbs[0].name, sizeof c->verbs[0].name, "getAllVmStats");
    c->verbs[0].weight = 1;
    c->nverbs = 1;
}

int options_parse_verbs(const char *s, struct run_config *cfg, char *err)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", s);
    cfg->nverbs = 0;
    for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (cfg->nverbs == RUN_MAX_VERBS) {
            snprintf(err, ERR_LEN, "--verb: at most %d verbs", RUN_MAX_VERBS);
            return -1;
        }
        struct verb_spec *v = &cfg->verbs[cfg->nverbs++];
        char *colon = strchr(tok, ':');
        v->weight = 1;
        if (colon) {
            *colon = '\0';
            char *end;
            long w = strtol(colon + 1, &end, 10);
            if (*end || w < 1 || w > 1000) {
                snprintf(err, ERR_LEN, "--verb: bad weight '%s' (1..1000)", colon + 1);
                return -1;
            }
            v->weight = (unsigned)w;
        }
        if (!*tok || strlen(tok) >= sizeof v->name) {
            snprintf(err, ERR_LEN, "--verb: bad verb in '%.64s'", s);
            return -1;
        }
        snprintf(v->name, sizeof v->name, "%s", tok);
    }
    if (!cfg->nverbs) {
        snprintf(err, ERR_LEN, "--verb: empty");
        return -1;
    }
    return 0;
}

/* --verb names built-in verbs, --method one raw method: one of them, never
 * both (the last would silently replace the other). */
static int conflict(const struct options *o, const char *other, char *err)
{
    if (!o->verb_given || !o->cfg.custom_method)
        return 0;
    snprintf(err, ERR_LEN, "not with %s: give one (--verb for the built-in verbs, --method "
             "for any other method)", other);
    return -1;
}

/* One method name: a weighted list ("a:3,b:1") would go out literally as
 * a name no server has. */
static int check_method(const char *arg, char *err)
{
    const char *colon = strrchr(arg, ':');
    int weight = colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1);
    if (!strchr(arg, ',') && !weight && !strpbrk(arg, " \t"))
        return 0;
    snprintf(err, ERR_LEN, "'%.100s': one method name (weighted mixes are --verb's)", arg);
    return -1;
}

/* --cpu-saturation P[%] (1..100000, % of one core), or off (stored as 0:
 * no run is then called saturated, and --find-max does not stop on it). */
static int parse_saturation(const char *arg, double *out, char *err)
{
    char num[32];
    long long v;
    if (!strcmp(arg, "off")) {
        *out = 0;
        return 0;
    }
    size_t n = strlen(arg);
    if (n && arg[n - 1] == '%')
        n--;
    snprintf(num, sizeof num, "%.*s", (int)(n < 31 ? n : 31), arg);
    if (cli_parse_int("--cpu-saturation", num, 1, 100000, &v, err)) {
        snprintf(err, ERR_LEN, "--cpu-saturation: '%.40s': want a %% of one core, 1..100000 "
                 "(95%% by default), or off", arg);
        return -1;
    }
    *out = (double)v;
    return 0;
}

/* --rounds K, or auto[:MAX] (MAX 3..1000, default GATE_AUTO_MAX). */
static int parse_rounds(struct options *o, const char *arg, char *err)
{
    long long v = GATE_AUTO_MAX;
    o->rounds_auto = !strncmp(arg, "auto", 4) && (arg[4] == 0 || arg[4] == ':');
    if (!o->rounds_auto)
        return cli_parse_int("--rounds", arg, 1, 1000, &v, err) ? -1 : (o->rounds = (int)v, 0);
    if (arg[4] == ':' &&
        cli_parse_int("--rounds auto:MAX", arg + 5, GATE_MIN_ROUNDS, 1000, &v, err))
        return -1;
    o->rounds = (int)v;
    return 0;
}

static int apply(struct options *o, int opt, const char *arg, int compare, char *err)
{
    struct run_config *c = &o->cfg;
    long long v;
    int choice;
    static const char *const arrivals[] = {"constant", "poisson"};
    static const char *const validates[] = {"none", "cheap", "full"};
    switch (opt) {
    case 'u': return cli_copy(o->url, sizeof o->url, "--url", arg, err);
    case 'p':
        o->encoding_given = 1;
        return cli_copy(o->encoding, sizeof o->encoding, "--proto", arg, err);
    case OPT_VERB:
        o->verb_given = 1;
        return conflict(o, "--method", err) || options_parse_verbs(arg, c, err) ? -1 : 0;
    case OPT_METHOD:
        c->custom_method = 1;
        if (conflict(o, "--verb", err) || check_method(arg, err))
            return -1;
        c->nverbs = 1;
        c->verbs[0].weight = 1;
        return cli_copy(c->verbs[0].name, sizeof c->verbs[0].name, "--method", arg, err);
    case OPT_VM_ID: return cli_copy(c->vm_id, sizeof c->vm_id, "--vm-id", arg, err);
    case OPT_CACERT: return cli_copy(c->cacert, sizeof c->cacert, "--cacert", arg, err);
    case OPT_CERT: return cli_copy(c->cert, sizeof c->cert, "--cert", arg, err);
    case OPT_KEY: return cli_copy(c->key, sizeof c->key, "--key", arg, err);
    case OPT_INSECURE: c->tls_insecure = 1; return 0;
    case OPT_STOMP_DEST:
        return cli_copy(c->stomp_destination, sizeof c->stomp_destination,
                        "--stomp-destination", arg, err);
    case OPT_PARAMS: return cli_copy(c->method_params, sizeof c->method_params, "--params", arg, err);
    case 'R': return units_parse_rate(arg, &c->rate, err);
    case 'd': return units_parse_duration(arg, &c->duration_ns, err);
    case OPT_WARMUP: return units_parse_duration(arg, &c->warmup_ns, err);
    case 'c':
        if (cli_parse_int("--connections", arg, 1, 10000, &v, err)) return -1;
        c->connections = (int)v;
        return 0;
    case OPT_ARRIVAL:
        if (cli_parse_choice("--arrival", arg, arrivals, 2, &choice, err)) return -1;
        c->arrival = (enum arrival)choice;
        return 0;
    case OPT_BUSY_POLL: c->busy_poll = 1; return 0;
    case OPT_PACER_WINDOW:
        c->pacer_window_auto = !strcmp(arg, "auto");
        c->pacer_window_ns = 0;
        if (c->pacer_window_auto)
            return 0;
        if (units_parse_duration(arg, &c->pacer_window_ns, err)) {
            snprintf(err, ERR_LEN, "--pacer-window: \"%s\" is neither auto nor a duration "
                     "(e.g. 50us, 1ms)", arg);
            return -1;
        }
        if (c->pacer_window_ns > PACER_WINDOW_MAX_NS) {
            snprintf(err, ERR_LEN, "--pacer-window: %s is over 10ms (a window that long "
                     "is a burst, not a rate)", arg);
            return -1;
        }
        return 0;
    case OPT_SEED:
        if (cli_parse_int("--seed", arg, 0, 0x7fffffffL, &v, err)) return -1;
        c->seed = (uint64_t)v;
        return 0;
    case OPT_TIMEOUT: return units_parse_duration(arg, &c->timeout_ns, err);
    case OPT_INTERVAL: return units_parse_duration(arg, &c->interval_ns, err);
    case OPT_BUCKETS: return cli_parse_buckets(arg, c->buckets, sizeof c->buckets, err);
    case OPT_PCTS: return cli_parse_percentiles(arg, c->pcts, RUN_MAX_PCTS, &c->npcts, err);
    case OPT_OUTPUT: return cli_copy(o->output, sizeof o->output, "--output", arg, err);
    case OPT_FORMAT:
        return cli_parse_format(arg, &o->format, err);
    case OPT_VMS:
        if (cli_parse_int("--vms", arg, 0, VMSIM_MAX_VMS, &v, err)) return -1; /* as serve */
        c->vms = (int)v;
        return 0;
    case OPT_VALIDATE:
        if (cli_parse_choice("--validate", arg, validates, 3, &choice, err)) return -1;
        c->validate = (enum validate)choice;
        return 0;
    case OPT_QUIET: c->quiet = 1; return 0;
    case OPT_SERVER_PID: return cli_copy(o->server_pid, sizeof o->server_pid, "--server-pid", arg, err);
    case OPT_SERVER_NAME: return cli_copy(c->server_name, sizeof c->server_name, "--server-name", arg, err);
    case OPT_IDLE_BASELINE: return units_parse_duration(arg, &c->idle_baseline_ns, err);
    case OPT_CPU_SAT: return parse_saturation(arg, &c->cpu_saturation, err);
    case OPT_MAX_RESPONSE: return units_parse_size(arg, &c->max_response, err);
    case OPT_LABEL: return cli_copy(o->label, sizeof o->label, "--label", arg, err);
    case OPT_ROUNDS:
        if (!compare) {
            snprintf(err, ERR_LEN, "--rounds: only for compare (run makes one run)");
            return -1;
        }
        return parse_rounds(o, arg, err);
    case OPT_GATE:
        if (!compare || o->ngates == GATES_MAX) {
            snprintf(err, ERR_LEN, "--gate: %s", compare ? "16 gates at most" : "only for compare");
            return -1;
        }
        return gate_parse(arg, &o->gates[o->ngates++], err);
    case OPT_BISECT:
        if (!compare) {
            snprintf(err, ERR_LEN, "--bisect: only for compare (with --gate)");
            return -1;
        }
        o->bisect = 1;
        return 0;
    case OPT_THRESHOLD: case OPT_JUNIT:
        return opt == OPT_JUNIT ? cli_copy(o->junit, sizeof o->junit, "--junit", arg, err)
                                : cli_parse_threshold(arg, &o->thresholds, err);
    case OPT_PLOT: return cli_copy(o->plot, sizeof o->plot, "--plot", arg, err);
    case OPT_HTML: return cli_copy(o->html, sizeof o->html, "--html", arg, err);
    case OPT_PLOT_KEEP: o->plot_keep = 1; return 0;
    case OPT_HDR_LOG: return cli_copy(o->hdr_log, sizeof o->hdr_log, "--hdr-log", arg, err);
    case OPT_PCT_DIST: return cli_copy(o->pct_dist, sizeof o->pct_dist, "--percentile-dist", arg, err);
    case OPT_RANK_OUTPUT:
        return cli_copy(o->rank_output, sizeof o->rank_output, "--rank-output", arg, err);
    case OPT_SERVER_HOST:
        return cli_copy(o->server_host, sizeof o->server_host, "--server-host", arg, err);
    default: break;
    }
    snprintf(err, ERR_LEN, "unknown option (see --help)");
    return -1;
}

int options_takes_value(const char *tok)
{
    if (tok[0] == '-' && tok[1] && tok[1] != '-')
        return !tok[2] && strchr("upRdc", tok[1]) != NULL; /* "-d" alone; "-d5s" holds it */
    if (strncmp(tok, "--", 2) || strchr(tok, '='))
        return 0;
    size_t n = strlen(tok + 2), hits = 0;
    int arg = 0;
    for (const struct option *l = long_opts; l->name; l++) {
        if (!strcmp(l->name, tok + 2))
            return l->has_arg == required_argument;
        if (n && !strncmp(l->name, tok + 2, n)) { /* getopt takes a unique prefix */
            hits++;
            arg = l->has_arg == required_argument;
        }
    }
    return hits == 1 && arg;
}

/* The option opt as the user may write it: "--duration". */
static const char *opt_name(int opt)
{
    for (const struct option *l = long_opts; l->name; l++)
        if (l->val == opt)
            return l->name;
    return "?";
}

/* Applies one option; an error that does not name it yet gets its name:
 * "--duration: duration '1x': unknown unit". */
static int apply_named(struct options *o, int opt, const char *arg, int compare, char *err)
{
    if (apply(o, opt, arg, compare, err) == 0)
        return 0;
    char name[64];
    snprintf(name, sizeof name, "--%s", opt_name(opt));
    cli_name_error(name, err);
    return -1;
}

/* An option of one value given twice with two values is a contradiction,
 * not an override: which one the user meant is not ours to guess. The
 * same value twice, flags, and the repeatable --threshold and --gate are
 * fine. seen[opt] holds the value opt had (pointers into argv). */
static int given_twice(const char **seen, int opt, const char *arg, char *err)
{
    if (!arg || opt < 0 || opt >= OPT_LAST || opt == OPT_THRESHOLD || opt == OPT_GATE)
        return 0;
    if (seen[opt] && strcmp(seen[opt], arg)) {
        snprintf(err, ERR_LEN, "--%s: given twice ('%.60s', then '%.60s'): give it once",
                 opt_name(opt), seen[opt], arg);
        return -1;
    }
    seen[opt] = arg;
    return 0;
}

static int check(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (c->duration_ns <= 0) {
        snprintf(err, ERR_LEN, "--duration: must be more than 0 (e.g. 30s)");
        return -1;
    }
    if (c->interval_ns < 10000000LL) {
        snprintf(err, ERR_LEN, "--interval: 10ms at least (e.g. 1s)");
        return -1;
    }
    if (c->timeout_ns <= 0) {
        snprintf(err, ERR_LEN, "--timeout: must be more than 0 (e.g. 10s)");
        return -1;
    }
    for (size_t i = 0; i < c->nverbs && !c->custom_method; i++)
        if (!strcmp(c->verbs[i].name, "getVmStats") && !c->vm_id[0]) {
            snprintf(err, ERR_LEN, "getVmStats needs --vm-id UUID (the vmId of a VM, see verb list)");
            return -1;
        }
    if (c->method_params[0] && !c->custom_method) {
        snprintf(err, ERR_LEN, "--params needs --method");
        return -1;
    }
    if ((o->rounds_auto || o->bisect) && o->ngates == 0) {
        snprintf(err, ERR_LEN, "%s: needs at least one --gate METRIC:+TOL%% (e.g. p99:+10%%)",
                 o->bisect ? "--bisect" : "--rounds auto");
        return -1;
    }
    return options_check(o, err);
}

int options_parse(int argc, char **argv, int compare, struct options *o, char *err)
{
    defaults(o);
    o->compare = compare;
    optind = 1;
    opterr = 0;
    int opt;
    const char *seen[OPT_LAST] = {NULL};
    while ((opt = getopt_long(argc, argv, ":u:p:R:d:c:hV", long_opts, NULL)) != -1) {
        if (opt == 'h') {
            options_usage(stdout, compare);
            return 1;
        }
        if (opt == 'V') {
            cli_print_version();
            return 1;
        }
        if (opt == '?' || opt == ':') {
            cli_getopt_error(opt, argv, optind, err);
            return -1;
        }
        if (given_twice(seen, opt, optarg, err) || apply_named(o, opt, optarg, compare, err))
            return -1;
    }
    o->positional = argv + optind;
    o->npositional = argc - optind;
    if (o->npositional && !compare) {
        snprintf(err, ERR_LEN, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return check(o, err);
}

/* Copies field `arm` (0 or 1) of "A" or "A,B" into out. */
static int pick_arm(const char *opt, const char *s, int arm, char *out, size_t len, char *err)
{
    const char *comma = strchr(s, ',');
    const char *from = s;
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    if (comma && strchr(comma + 1, ',')) {
        snprintf(err, ERR_LEN, "%s: at most two values, A,B", opt);
        return -1;
    }
    if (arm == 1 && comma) {
        from = comma + 1;
        n = strlen(from);
    }
    if (n >= len) {
        snprintf(err, ERR_LEN, "%s: value too long", opt);
        return -1;
    }
    memcpy(out, from, n);
    out[n] = '\0';
    return 0;
}

static int parse_pids(const char *s, struct run_config *cfg, char *err)
{
    cfg->nserver_pids = 0;
    for (const char *p = s; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v <= 0 || (*end && *end != '+' && *end != ',') ||
            cfg->nserver_pids == RUN_MAX_PIDS) {
            snprintf(err, ERR_LEN, "--server-pid: '%.64s' is not a pid list (P, P+P or P,P)", s);
            return -1;
        }
        cfg->server_pids[cfg->nserver_pids++] = (pid_t)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int options_arm(const struct options *o, int arm, struct run_config *cfg, char *err)
{
    *cfg = o->cfg;
    char pids[256];
    static const char *const pairable[3] = {"--url", "--proto", "--label"};
    const char *vals[3] = {o->url, o->encoding, o->label};
    for (int i = 0; i < 3 && !o->compare; i++)
        if (strchr(vals[i], ',')) { /* run has one arm: a list would lose all but one */
            snprintf(err, ERR_LEN, "%s: one value for run ('%.64s' is a list; A,B pairs are "
                     "for compare)", pairable[i], vals[i]);
            return -1;
        }
    if (pick_arm("--url", o->url, arm, cfg->url, sizeof cfg->url, err) ||
        pick_arm("--proto", o->encoding, arm, cfg->encoding, sizeof cfg->encoding, err) ||
        pick_arm("--label", o->label, arm, cfg->label, sizeof cfg->label, err))
        return -1;
    /* run sums every pid of a comma list; compare gives each arm its own
     * (A,B), summed within an arm with '+'. */
    if (!o->compare)
        snprintf(pids, sizeof pids, "%s", o->server_pid);
    else if (pick_arm("--server-pid", o->server_pid, arm, pids, sizeof pids, err))
        return -1;
    /* STOMP carries JSON-RPC only: without --proto, that is the default */
    if (!o->encoding_given && !strncmp(cfg->url, "stomp", 5))
        snprintf(cfg->encoding, sizeof cfg->encoding, "jsonrpc");
    if (!enc_find(cfg->encoding)) {
        snprintf(err, ERR_LEN, "--proto: unknown protocol '%s' (xmlrpc or jsonrpc)", cfg->encoding);
        return -1;
    }
    if (!cfg->label[0])
        snprintf(cfg->label, sizeof cfg->label, "%s", cfg->encoding);
    if (pids[0] && parse_pids(pids, cfg, err))
        return -1;
    return options_check_arm(cfg, err);
}

void options_distribute(struct options *o)
{
    dist_set_rank_output(o->rank_output);
    dist_set_server_host(o->server_host);
    if (dist_is_root())
        return;
    o->output[0] = o->plot[0] = o->hdr_log[0] = o->pct_dist[0] = o->junit[0] = o->html[0] = '\0';
}
