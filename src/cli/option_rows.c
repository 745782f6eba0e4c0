/* option_rows: the table of every option of run, compare, sweep and report, one
 * row each (option_table.h says what a row holds and what is made from
 * it). The order is --help's. */
#include "cli/option_table.h"

#include <stddef.h>

#include "cli/options.h"
#include "cli/sweep_args.h"
#include "agent/agent.h"
#include "record/proxy.h"
#include "server/server.h"
#include "server/serve_fleet.h"
#include "server/vmsim.h"

/* Where a row's value lives: the field f of struct options, of sweep's
 * struct sweep_args, serve's or agent's config. */
#define AT(type, h, f) .home = h, .off = offsetof(type, f), .size = sizeof(((type *)0)->f)
#define O_AT(f) AT(struct options, HOME_OPTIONS, f)
/* A run_config field: named by its row in model/config_keys.c, which
 * alone says where it is (opt_at) */
#define C_KEY(k) .home = HOME_CFG, .cfg_key = k
#define S_AT(f) AT(struct sweep_args, HOME_SWEEP, f)
#define V_AT(f) AT(struct server_config, HOME_SERVE, f)
#define A_AT(f) AT(struct agent_config, HOME_AGENT, f)
#define R_AT(f) AT(struct record_config, HOME_RECORD, f)

#define RUNS (IN_RUN | IN_COMPARE)
/* sweep's and serve's own rows: the last one given counts, as it always
 * did (run's refuse two values: which was meant is not ours to guess) */
#define SWEEP_ONLY .cmds = IN_SWEEP, .repeatable = 1
#define SERVE_ONLY .cmds = IN_SERVE, .repeatable = 1
#define AGENT_ONLY .cmds = IN_AGENT, .repeatable = 1
#define RECORD_ONLY .cmds = IN_RECORD, .repeatable = 1

static const char *const call_graphs[] = {"auto", "fp", "dwarf"}; /* enum profile_call_graph */
static const char *const profile_modes[] = {"auto", "perf", "python", "mixed"}; /* enum profile_mode */

/* Each value's line of help (option_table.h: struct opt_value), in the
 * order of the row's choices or complete words. */
#define VALUES(a) .values = a, .nvalues = (int)(sizeof a / sizeof a[0])
static const struct opt_value proto_values[] = {
    {"xmlrpc", "XML-RPC over HTTP(S), POST to /RPC2 by default"},
    {"jsonrpc", "JSON-RPC 2.0 over HTTP(S) (/jsonrpc) or STOMP"},
};
static const struct opt_value verb_values[] = {
    {"ping", "VDSM's ping (Host.ping): the cheapest call"},
    {"list", "the short VM list: id, status, statusTime"},
    {"fullList", "full VM definitions (Host.getVMFullList)"},
    {"getAllVmStats", "every VM's stats, about 50 fields each"},
    {"getVmStats", "one VM's stats (needs --vm-id)"},
};
static const struct opt_value arrival_values[] = {
    {"constant", "evenly spaced sends, 1/R apart"},
    {"poisson", "exponential gaps of mean 1/R, seeded by --seed"},
};
static const struct opt_value validate_values[] = {
    {"none", "frame the answer only (cheapest)"},
    {"cheap", "find a fault, an error or a VDSM status code"},
    {"full", "decode the whole answer (and count VMs)"},
};
static const struct opt_value call_graph_values[] = {
    {"auto", "dwarf for the built-in simulator, fp for a\nserver of yours"},
    {"fp", "frame pointers: cheap, breaks in code built\nwithout them"},
    {"dwarf", "unwinds from an 8 KB copy of each sample's stack"},
};
static const struct opt_value profile_mode_values[] = {
    {"auto", "python when the server runs CPython, else perf"},
    {"perf", "Linux perf: the server's C functions"},
    {"python", "a CPython 3.11 server's Python functions"},
    {"mixed", "refused: needs CPython 3.12's perf trampolines"},
};
static const struct opt_value format_values[] = {
    {"text", "the report, for a person"},
    {"json", "the result, as --output writes it"},
    {"csv", "the timeline, one row per --interval"},
    {"csv-summary", "a header and one row of the run's figures"},
    {"csv-buckets", "the bucket table"},
    {"csv-targets", "one row per host of a --targets fleet"},
};

const struct opt_row opt_rows[] = {
    {.name = "config", .group = G_WORKLOAD, .no_diff = 1, .type = OT_CUSTOM, .parse = opt_parse_config, .arg = "FILE",
     .cmds = IN_LOAD,
     .help = "a job file: 'name = value' a line (long option\nnames); the command line wins"},
    {.name = "url", .group = G_TARGET, .essential = IN_LOAD, .diff = CK_URL, .short_opt = 'u', .type = OT_STRING, O_AT(url), .arg = "URL",
     .def_doc = "the built-in simulator", .cmds = IN_LOAD,
     .help = "http[s]://host:port[/path], stomp[s]://host:port",
     .help_in[CMD_COMPARE] = "http[s]://host:port[/path], stomp[s]://host:port;\n"
                             "A,B gives each arm its own",
     .help_in[CMD_SWEEP] = "http[s]://host:port[/path], stomp[s]://host:port;\n"
                           "URL1,URL2 pairs one with each --proto, in order"},
    {.name = "proto", VALUES(proto_values), .group = G_TARGET, .essential = IN_LOAD, .diff = CK_ENCODING,
     .short_opt = 'p', .type = OT_CUSTOM, .parse = opt_parse_proto,
     .complete = "xmlrpc jsonrpc",
     .arg = "P", .def = "xmlrpc", .def_not_in = IN_COMPARE, .cmds = IN_LOAD, .lists = IN_SWEEP,
     .parse_list = sweep_list_proto,
     .help = "xmlrpc | jsonrpc (jsonrpc with a stomp:// URL)",
     .help_in[CMD_COMPARE] = "xmlrpc | jsonrpc; A,B gives each arm its own\n"
                             "(also --url, --server-pid, --label); one value\n"
                             "is both arms' (default: xmlrpc,jsonrpc on the\n"
                             "built-in simulator, xmlrpc on a --url)",
     .help_in[CMD_SWEEP] = "xmlrpc,jsonrpc"},
    {.name = "verb", VALUES(verb_values), .group = G_WORKLOAD, .essential = IN_LOAD, .diff = CK_VERBS,
     .type = OT_CUSTOM, .parse = opt_parse_verb, .arg = "V[:W],...",
     .complete = "ping list fullList getAllVmStats getVmStats",
     .def = "getAllVmStats", .cmds = IN_LOAD, .lists = IN_SWEEP, .parse_list = sweep_list_verb,
     .help = "ping, list, fullList, getAllVmStats, getVmStats;\n"
             "a weighted mix, e.g. list:4,getAllVmStats:1",
     .help_in[CMD_SWEEP] = "ping,getAllVmStats; a mix within one cell joins\n"
                           "its verbs with '+': list:4+getAllVmStats:1,ping\n"
                           "is 2 cells"},
    {.name = "vm-id", .group = G_WORKLOAD, .type = OT_STRING, C_KEY("vm_id"), .arg = "UUID", .cmds = IN_LOAD,
     .help = "the VM of getVmStats"},
    {.name = "method", .group = G_WORKLOAD, .essential = IN_LOAD, .diff = CK_VERBS, .type = OT_CUSTOM, .parse = opt_parse_method, .arg = "M",
     .cmds = IN_LOAD, .help = "call any other method (not with --verb)"},
    {.name = "workload", .group = G_WORKLOAD, .diff = CK_VERBS,
     .type = OT_CUSTOM, .parse = opt_parse_workload, .arg = "FILE",
     .cmds = IN_LOAD,
     .help = "calls from FILE, one JSON object a line: name,\nmethod, params (with templates), "
             "weight or\nevery, and expect: checks on that call's\nanswers only (not with --verb, "
             "--method)"},
    {.name = "replay", .group = G_WORKLOAD, .type = OT_STRING, C_KEY("replay"), .arg = "FILE", .cmds = RUNS,
     .why_only = "a sweep's cells set their own rates",
     .help = "send the calls of a recording (rpcbench record)\n"
             "at their recorded times, each recorded\n"
             "connection's on one connection (not with --verb,\n"
             "--method, --workload, --rate, -c, --targets)"},
    {.name = "as", .group = G_WORKLOAD, .type = OT_STRING, C_KEY("replay_as"), .arg = "P", .cmds = RUNS,
     .complete = "xmlrpc jsonrpc", .why_only = "it goes with --replay",
     .help = "--replay's calls sent as xmlrpc | jsonrpc, VDSM's\n"
             "verbs translated (default: as recorded; compare:\n"
             "each arm's --proto)"},
    {.name = "speed", .group = G_WORKLOAD, .type = OT_CUSTOM, .parse = opt_parse_speed, .arg = "N", .def = "1",
     .cmds = RUNS, .no_diff = 1, .why_only = "it goes with --replay",
     .help = "--replay: the recording's time compressed N-fold\n"
             "(compare's arms share it)"},
    {.name = "loop", .group = G_WORKLOAD, .type = OT_FLAG, C_KEY("replay_loop"), .cmds = RUNS,
     .why_only = "it goes with --replay",
     .help = "--replay: the recording repeats until -d is over\n"
             "(without it the run ends with the recording)"},
    {.name = "params", .group = G_WORKLOAD, .essential = IN_LOAD, .type = OT_STRING, C_KEY("params"), .arg = "JSON", .cmds = IN_LOAD,
     .help = "--method's params: a JSON array or object"},
    {.name = "rate", .group = G_RATE, .essential = IN_LOAD, .short_opt = 'R', .type = OT_RATE, C_KEY("rate"), .arg = "R", .def = "10/s",
     .cmds = IN_LOAD, .lists = IN_SWEEP, .parse_list = sweep_list_rate,
     .help = "50, 50/s, 4/m, 1/15s, max (closed loop)",
     .help_in[CMD_SWEEP] = "5,10,20,40 or START:END:STEP (per second), or\n"
                           "both (5,10:40:10); max is a closed loop"},
    {.name = "duration", .group = G_RATE, .essential = IN_LOAD, .short_opt = 'd', .type = OT_DURATION, C_KEY("duration_s"), .arg = "D",
     .def = "30s", .min = 1, .cmds = IN_LOAD,
     .help = "measured time (units us ms s m h; a bare number\nis seconds)"},
    {.name = "warmup", .group = G_RATE, .type = OT_DURATION, C_KEY("warmup_s"), .arg = "D", .def = "0",
     .cmds = IN_LOAD, .help = "excluded from every figure"},
    {.name = "targets", .group = G_TARGET, .type = OT_STRING, C_KEY("targets_file"), .arg = "FILE", .cmds = IN_LOAD,
     .help = "a fleet of hosts, one a line: URL [rate=R |\n"
             "stages=S] (R as --rate's, default --rate; S as\n"
             "--stages'); each host has its own connections\n"
             "and schedule (not with --url)"},
    {.name = "stages", .group = G_RATE, .diff = CK_STAGES,
     .type = OT_CUSTOM, .parse = opt_parse_stages, .arg = "D:R[-R2],...",
     .cmds = IN_RUN, .why_only = "run measures the stages of one run",
     .help = "the measured window as stages end to end (16 at\n"
             "most; not with --rate or --duration): D:R holds\n"
             "R for D, D:R1-R2 ramps linearly, e.g.\n"
             "30s:10/s,60s:10/s-100/s,120s:100/s; --warmup\n"
             "runs at the first stage's rate"},
    {.name = "connections", .group = G_CONN, .essential = IN_LOAD, .short_opt = 'c', .type = OT_INT, C_KEY("connections"), .arg = "N",
     .def = "4", .def_not_in = IN_COMPARE, .min = 1, .max = 10000, .cmds = IN_LOAD,
     .lists = IN_SWEEP | IN_COMPARE, .parse_list = opt_list_conns,
     .help = "keep-alive connections (with --targets: per\nhost, default 1)",
     .help_in[CMD_COMPARE] = "keep-alive connections of each arm (default 1:\n"
                             "both arms the same); A,B gives each its own",
     .help_in[CMD_SWEEP] = "4,16"},
    {.name = "arrival", VALUES(arrival_values), .group = G_RATE, .type = OT_CHOICE, C_KEY("arrival"), .arg = "A", .def = "constant",
     .choices = arrival_names, .nchoices = ARRIVAL_N, .cmds = IN_LOAD, .help = "poisson: seeded by --seed"},
    {.name = "seed", .group = G_RATE, .type = OT_INT, C_KEY("seed"), .arg = "N", .def = "1", .min = 0,
     .max = 0x7fffffffL, .cmds = IN_LOAD, .help = "seed of the poisson arrivals"},
    {.name = "busy-poll", .group = G_RATE, .type = OT_FLAG, C_KEY("busy_poll"), .cmds = IN_LOAD,
     .help = "the pacer polls instead of sleeping: sends on\n"
             "time on a VM that is slow to wake (costs a core)"},
    {.name = "pacer-window", .group = G_RATE, .diff = CK_PACER_WINDOW,
     .type = OT_CUSTOM, .parse = opt_parse_pacer_window, .arg = "W",
     .def = "50us", .cmds = IN_LOAD,
     .help = "D (at most 10ms) | auto: sends due within D go\n"
             "out on one wake, each timed from its own intended\n"
             "time; auto is half the timer's p99 lateness,\n50us-1ms"},
    {.name = "timeout", .group = G_RATE, .type = OT_DURATION, C_KEY("timeout_s"), .arg = "D", .def = "10s",
     .min = 1, .cmds = IN_LOAD, .help = "per request"},
    {.name = "interval", .group = G_MEASURE, .type = OT_DURATION, C_KEY("interval_s"), .arg = "D", .def = "1s",
     .min = 10000000, .cmds = IN_LOAD, .help = "progress and timeline step"},
    {.name = "buckets", .group = G_MEASURE, .no_diff = 1, .type = OT_CUSTOM, .parse = opt_parse_buckets, .arg = "SPEC",
     .def = "auto", .cmds = IN_LOAD | IN_REPORT, .def_not_in = IN_REPORT,
     .help = "auto | START:END:STEP (ms) | 1,2,5,10 (ms);\n64 edges at most",
     .help_in[CMD_REPORT] = "re-bucket the saved histograms: auto |\n"
                            "START:END:STEP (ms) | 1,2,5,10 (ms); 64 edges at\n"
                            "most (default: as saved)"},
    {.name = "percentiles", .group = G_MEASURE, .no_diff = 1,
     .type = OT_CUSTOM, .parse = opt_parse_percentiles, .arg = "L",
     .def = "50,90,99,99.9", .cmds = IN_LOAD | IN_REPORT,
     .def_not_in = IN_REPORT, .help = "increasing, each 0..100",
     .help_in[CMD_REPORT] = "increasing, each 0..100 (default: as saved)"},
    {.name = "validate", VALUES(validate_values), .group = G_WORKLOAD, .type = OT_CHOICE, C_KEY("validate"), .arg = "V", .def = "cheap",
     .choices = validate_names, .nchoices = VALIDATE_N, .cmds = IN_LOAD,
     .help = "none: frame only; cheap: fault, error, status;\nfull: decode"},
    {.name = "expect", .group = G_WORKLOAD, .diff = CK_EXPECTS,
     .type = OT_CUSTOM, .parse = opt_parse_expect, .arg = "CHECK",
     .cmds = IN_LOAD, .repeatable = 1,
     .help = "a check on every call's answers, repeatable:\n'status.code=0' (= or ==), "
             "'len(vmList)>=150',\n'version exists'; needs the full decode\n(sets --validate full); "
             "a broken one is the\nerror kind check; one that does not parse is\na usage error. "
             "A --workload line's expect\nadds checks for its call alone"},
    {.name = "server-pid", .group = G_MEASURE, .essential = IN_LOAD, .diff = CK_SERVER, .type = OT_STRING, O_AT(server_pid), .arg = "P[,P]",
     .cmds = IN_LOAD, .help = "server processes to sample (pids summed)",
     .help_in[CMD_COMPARE] = "server processes to sample: P+P summed\n"
                             "within an arm; A,B gives each arm its own"},
    {.name = "server-name", .group = G_MEASURE, .essential = IN_LOAD, .diff = CK_SERVER, .type = OT_STRING, C_KEY("server_name"), .arg = "NAME",
     .cmds = IN_LOAD, .help = "the server to sample: the executable's name,\n"
                             "or an interpreter's script's"},
    {.name = "server-agent", .group = G_MEASURE, .type = OT_STRING, C_KEY("server_agent"), .arg = "URL", .cmds = IN_LOAD,
     .help = "sample the server on its host: the rpcbench\n"
             "agent at http[s]://HOST:PORT (with --token-file;\n"
             "https: --cacert, --cert, --key as for --url)"},
    {.name = "token-file", .group = G_MEASURE, .no_diff = 1, .type = OT_STRING, C_KEY("token_file"), .arg = "FILE",
     .cmds = IN_LOAD, .help = "--server-agent's token: the file's first line"},
    {.name = "idle-baseline", .group = G_MEASURE, .type = OT_DURATION, C_KEY("idle_baseline_s"), .arg = "D",
     .def_doc = "3s with --server-pid/--server-name under 5/s, else 0", .cmds = IN_LOAD,
     .help = "sample the server idle for D before the load,\n"
             "for CPU-ms/call net of its background; 0: none"},
    {.name = "cpu-saturation", .group = G_MEASURE, .no_diff = 1, .type = OT_CUSTOM, .parse = opt_parse_cpu_sat,
     .arg = "P[%]|off", .def = "95%", .cmds = IN_LOAD,
     .help = "server CPU % of one core called saturated,\n"
             "1..100000 (warned; stops --find-max)"},
    {.name = "profile", .group = G_PROFILE, .diff = CK_PROFILE,
     .type = OT_FLAG, O_AT(profile.on), .cmds = RUNS | IN_SWEEP,
     .help = "profile the server over the measured window with\n"
             "Linux perf, or its Python functions on CPython\n"
             "(--profile-mode; needs --server-pid, --server-name,\n"
             "or the built-in simulator): its top functions in\n"
             "CPU-ms per call",
     .help_in[CMD_COMPARE] = "profile the server in each arm's rounds (perf)\n"
                             "and diff them: CPU-ms per call per function",
     .help_in[CMD_SWEEP] = "profile the server in each cell (perf): its top\n"
                           "functions in the JSON, a line per cell in the text"},
    {.name = "profiler", .group = G_PROFILE, .diff = CK_PROFILE, .type = OT_STRING, O_AT(profile.cmd), .arg = "CMD",
     .cmds = RUNS | IN_SWEEP,
     .help = "profile with CMD instead of perf: it writes\n"
             "folded stacks to {out}, given {pid} and {seconds}\n"
             "(sets --profile)"},
    {.name = "profile-out", .group = G_PROFILE, .no_diff = 1, .type = OT_STRING, O_AT(profile.out_dir), .arg = "DIR",
     .cmds = RUNS | IN_SWEEP,
     .help = "write the folded stacks into DIR (run.folded)",
     .help_in[CMD_COMPARE] = "write the folded stacks into DIR, one file per\n"
                             "arm and round (A.r1.folded ...)",
     .help_in[CMD_SWEEP] = "write the folded stacks into DIR, one file per\n"
                           "cell and repeat (cell1.r1.folded ...)"},
    {.name = "profile-top", .group = G_PROFILE, .no_diff = 1,
     .type = OT_INT, O_AT(profile.top), .arg = "N", .def = "15",
     .min = 1, .max = PROFILE_MAX_ROWS, .cmds = RUNS | IN_SWEEP | IN_REPORT,
     .help = "rows of the profile's table"},
    {.name = "profile-saturated", .group = G_PROFILE, .no_diff = 1,
     .type = OT_FLAG, O_AT(profile.saturated_ok), .cmds = IN_COMPARE,
     .why_only = "only compare diffs profiles",
     .help = "diff profiles taken under saturation (they show\n"
             "overload, not cost)"},
    {.name = "profile-call-graph", VALUES(call_graph_values), .group = G_PROFILE, .diff = CK_PROFILE,
     .type = OT_CHOICE, O_AT(profile.call_graph), .arg = "G",
     .def = "auto", .choices = call_graphs, .nchoices = 3, .cmds = RUNS | IN_SWEEP,
     .help = "perf's call graphs: fp (frame pointers) or dwarf\n"
             "(unwinds libraries built without them, 8 KB of\n"
             "stack per sample); auto: dwarf for the simulator"},
    {.name = "profile-freq", .group = G_PROFILE, .diff = CK_PROFILE,
     .type = OT_INT, O_AT(profile.hz), .arg = "HZ", .def = "99",
     .min = 1, .max = 10000, .cmds = RUNS | IN_SWEEP,
     .help = "perf's samples per second of the server's CPU\n"
             "(python: the sampler's ticks per second)"},
    {.name = "profile-mode", VALUES(profile_mode_values), .group = G_PROFILE, .diff = CK_PROFILE,
     .type = OT_CHOICE, O_AT(profile.mode), .arg = "M",
     .def = "auto", .choices = profile_modes, .nchoices = 4, .cmds = RUNS | IN_SWEEP,
     .help = "the sampler: perf (C functions), or python (a\n"
             "CPython 3.11 server's Python functions, read from\n"
             "its memory); auto: python when the server runs\n"
             "CPython, else perf; mixed is refused (see\n"
             "docs/profiles.md)"},
    {.name = "max-response", .group = G_CONN, .type = OT_SIZE, C_KEY("max_response"), .arg = "SZ",
     .def = "64MiB", .cmds = IN_LOAD, .help = "larger responses are errors"},
    {.name = "output", .group = G_OUTPUT, .essential = IN_LOAD, .no_diff = 1,
     .type = OT_STRING, O_AT(output), .arg = "FILE", .cmds = IN_LOAD | IN_REPORT,
     .help = "the JSON result",
     .help_in[CMD_SWEEP] = "the sweep as JSON (every cell's full result)",
     .help_in[CMD_REPORT] = "the (merged) result as JSON"},
    {.name = "format", VALUES(format_values), .group = G_OUTPUT, .no_diff = 1, .type = OT_CHOICE, O_AT(format), .arg = "F", .def = "text",
     .choices = out_format_names, .nchoices = OUT_FORMATS, .cmds = IN_LOAD | IN_REPORT,
     .help = "stdout; csv: the timeline, csv-summary: one\n"
             "row, csv-buckets: the bucket table, csv-targets:\n"
             "a row per --targets host",
     .help_in[CMD_COMPARE] = "stdout: text or json for compare",
     .help_in[CMD_SWEEP] = "stdout: text, json or csv (the table)",
     .help_in[CMD_REPORT] = "text | json | csv (one row per interval) |\n"
                            "csv-summary (one row of figures) | csv-buckets |\n"
                            "csv-targets (a row per host of a fleet)"},
    {.name = "plot", .group = G_OUTPUT, .no_diff = 1,
     .type = OT_STRING, O_AT(plot), .arg = "FILE.svg", .cmds = IN_LOAD | IN_REPORT,
     .help = "the page's charts as one SVG file",
     .help_in[CMD_SWEEP] = "latency, CPU and achieved rate against the\n"
                           "offered rate"},
    {.name = "plot-keep", .group = G_OUTPUT, .no_diff = 1,
     .type = OT_FLAG, O_AT(plot_keep), .cmds = IN_LOAD | IN_REPORT,
     .help = "no effect (once: keep gnuplot's script and data;\n"
             "--plot now writes the SVG itself)"},
    {.name = "html", .group = G_OUTPUT, .essential = IN_LOAD, .no_diff = 1,
     .type = OT_STRING, O_AT(html), .arg = "FILE.html", .cmds = IN_LOAD | IN_REPORT,
     .help = "one self-contained page: headline, tables, charts",
     .help_in[CMD_SWEEP] = "one self-contained page: capacity, charts,\nevery table",
     .help_in[CMD_REPORT] = "the (merged) result, or a saved sweep, as one\n"
                            "self-contained page"},
    {.name = "hdr-log", .group = G_OUTPUT, .no_diff = 1, .type = OT_STRING, O_AT(hdr_log), .arg = "FILE",
     .cmds = IN_LOAD | IN_REPORT,
     .help = "HdrHistogram interval log",
     .help_in[CMD_COMPARE] = "HdrHistogram interval log (FILE.A, FILE.B)",
     .help_in[CMD_REPORT] = "with .hlog inputs: the merged interval log"},
    {.name = "percentile-dist", .group = G_OUTPUT, .no_diff = 1, .type = OT_STRING, O_AT(pct_dist), .arg = "FILE",
     .cmds = RUNS, .why_only = "sweep makes many runs",
     .help = "HdrHistogram percentile table",
     .help_in[CMD_COMPARE] = "HdrHistogram percentile table (FILE.A, FILE.B)"},
    {.name = "requests-log", .group = G_OUTPUT, .no_diff = 1, .type = OT_STRING, O_AT(requests_log), .arg = "FILE",
     .cmds = IN_RUN | IN_REPORT, .why_only = "one file for one run's requests",
     .help = "one CSV row per measured request (FILE.gz:\n"
             "gzip); see the README, Per-request log",
     .help_in[CMD_REPORT] = "rebuild a result from a run's --requests-log"},
    {.name = "metrics-listen", .group = G_DIST, .no_diff = 1,
     .type = OT_STRING, O_AT(metrics_listen), .arg = "HOST:PORT",
     .cmds = IN_LOAD,
     .help = "live figures for Prometheus at\nhttp://HOST:PORT/metrics (127.0.0.1:9464)"},
    {.name = "metrics-linger", .group = G_DIST, .no_diff = 1,
     .type = OT_DURATION, O_AT(metrics_linger_ns), .arg = "D",
     .def = "0", .cmds = IN_LOAD,
     .help = "at the end, wait up to D for a scrape of the\nfinal figures"},
    {.name = "label", .group = G_MEASURE, .no_diff = 1, .type = OT_STRING, O_AT(label), .arg = "NAME", .cmds = IN_LOAD,
     .def_doc = "the protocol", .help = "the run's name in reports and plots",
     .help_in[CMD_COMPARE] = "the arms' names in reports and plots (A,B)"},
    {.name = "vms", .group = G_TARGET, .diff = CK_VMS, .type = OT_INT, C_KEY("vms"), .arg = "N", .def = "150", .min = 0,
     .max = VMSIM_MAX_VMS, .cmds = IN_LOAD, .lists = IN_SWEEP, .parse_list = sweep_list_vms,
     .help = "size of the built-in simulator",
     .help_in[CMD_SWEEP] = "50,150,300: the built-in simulator (one per\n"
                           "size, kept for the whole sweep); not with --url"},
    {.name = "cacert", .group = G_CONN, .type = OT_STRING, C_KEY("cacert"), .arg = "F", .cmds = IN_LOAD,
     .help = "TLS: verify the server against this CA"},
    {.name = "cert", .group = G_CONN, .type = OT_STRING, C_KEY("cert"), .arg = "F", .cmds = IN_LOAD,
     .help = "TLS: the client certificate"},
    {.name = "key", .group = G_CONN, .type = OT_STRING, C_KEY("key"), .arg = "F", .cmds = IN_LOAD,
     .help = "TLS: the client certificate's key"},
    {.name = "insecure", .group = G_CONN, .type = OT_FLAG, C_KEY("insecure"), .cmds = IN_LOAD,
     .help = "TLS without verifying the server (said in the\nreport)"},
    {.name = "header", .group = G_CONN, .diff = CK_AUTH,
     .short_opt = 'H', .type = OT_CUSTOM, .secret = 1, .parse = opt_parse_header,
     .arg = "'N: V'", .cmds = IN_LOAD, .repeatable = 1,
     .help = "an HTTP header on every request (repeatable);\nshown as 'N: ***' where N names a secret"},
    {.name = "user", .group = G_CONN, .diff = CK_AUTH,
     .type = OT_CUSTOM, .secret = 1, .parse = opt_parse_user, .arg = "USER:PASS",
     .cmds = IN_LOAD, .help = "HTTP basic auth (shown as USER:***)"},
    {.name = "bearer", .group = G_CONN, .diff = CK_AUTH,
     .type = OT_CUSTOM, .secret = 1, .parse = opt_parse_bearer, .arg = "TOKEN",
     .cmds = IN_LOAD, .help = "Authorization: Bearer TOKEN (shown as ***)"},
    {.name = "stomp-login", .group = G_CONN, .diff = CK_AUTH,
     .type = OT_CUSTOM, .secret = 1, .parse = opt_parse_stomp_login,
     .arg = "USER:PASS", .cmds = IN_LOAD,
     .help = "STOMP CONNECT's login and passcode"},
    {.name = "stomp-destination", .group = G_CONN, .type = OT_STRING, C_KEY("stomp_destination"), .arg = "D",
     .def_doc = "jms.topic.vdsm_requests", .cmds = IN_LOAD, .help = "where SEND frames go"},
    {.name = "quiet", .group = G_OUTPUT, .no_diff = 1,
     .type = OT_FLAG, C_KEY("quiet"), .cmds = IN_LOAD, .help = "no progress lines"},
    {.name = "server-host", .group = G_DIST, .no_diff = 1,
     .type = OT_STRING, O_AT(server_host), .arg = "H", .cmds = IN_LOAD,
     .help = "under mpirun: the ranks on host H sample the\nserver"},
    {.name = "rank-output", .group = G_DIST, .no_diff = 1,
     .type = OT_STRING, O_AT(rank_output), .arg = "P", .cmds = IN_LOAD,
     .help = "under mpirun: each rank's own share to\nP.<rank>.json"},
    {.name = "rounds", .group = G_RATE, .essential = IN_COMPARE, .no_diff = 1,
     .type = OT_CUSTOM, .parse = opt_parse_rounds, .arg = "K|auto[:MAX]",
     .def = "3", .cmds = IN_COMPARE, .why_only = "run makes one run",
     .help = "K rounds in blocks A B, B A ... (1..1000;\n"
             "fewer than 3 cannot show most differences), or\n"
             "auto: add rounds (4 at least, MAX default 12),\n"
             "looking after each block, until every --gate\n"
             "is decided; with a --gate\n"
             "and no --rounds: auto"},
    {.name = "longest-round", .group = G_RATE, .no_diff = 1,
     .type = OT_DURATION, O_AT(longest_round_ns), .arg = "D", .def = "0",
     .def_doc = "4 x -d", .cmds = IN_COMPARE, .why_only = "run makes one run",
     .help = "--rounds auto with a cpu_ms_per_call gate:\n"
             "rounds holding fewer than 30 answered calls\n"
             "or 1 s of server CPU are doubled in length,\n"
             "up to D"},
    {.name = "gate", .group = G_VERDICT, .essential = IN_COMPARE, .no_diff = 1,
     .type = OT_CUSTOM, .parse = opt_parse_gate, .arg = "METRIC:+TOL%",
     .cmds = IN_COMPARE, .repeatable = 1,
     .help = "fail when B/A is surely above 1+TOL: p50, p90,\n"
             "p99, mean, cpu_ms_per_call, server_cpu, bytes;\n"
             "rate:-TOL% (below 1-TOL); errors:+TOL%: B's\n"
             "failure share surely TOL points above A's;\n"
             "CALL.METRIC:+TOL% one call's p50, p90, p99 or\n"
             "mean (add.p99:+10%, calls named as in\n"
             "--threshold); repeatable"},
    {.name = "bisect", .group = G_VERDICT, .no_diff = 1, .type = OT_FLAG, O_AT(bisect), .cmds = IN_COMPARE,
     .why_only = "with --gate",
     .help = "exit codes for git bisect run: 0 pass, 1\n"
             "regression (or B stopped answering), 125\n"
             "inconclusive or could not run"},
    {.name = "threshold", .group = G_VERDICT, .essential = IN_RUN, .no_diff = 1,
     .type = OT_CUSTOM, .parse = opt_parse_threshold, .arg = "COND",
     .cmds = IN_LOAD | IN_REPORT, .repeatable = 1,
     .help = "judge the result, e.g. p99<100ms, errors<0.1%,\n"
             "rate>=99%, getAllVmStats.p99<200ms, a stage's\n"
             "stage2.p99<100ms; a comma list; repeatable\n"
             "(exit 3 when one fails);\n"
             "unfinished requests fail errors and latency\n"
             "conditions unless allowed: unfinished<1%",
     .help_in[CMD_SWEEP] = "judged on every run of every cell (exit 3 if\none fails)"},
    {.name = "junit", .group = G_VERDICT, .no_diff = 1,
     .type = OT_STRING, O_AT(junit), .arg = "FILE", .cmds = RUNS | IN_REPORT,
     .why_only = "sweep makes many runs",
     .help = "the --threshold verdicts as JUnit XML"},
    {.name = "repeat", .group = G_RATE, .essential = IN_SWEEP, .type = OT_INT, S_AT(repeat), .arg = "N", .def = "1", .min = 1,
     .max = SWEEP_MAX_RUNS, SWEEP_ONLY,
     .help = "run every cell N times, interleaved: all cells\n"
             "once, then again (the table shows medians and\nmin-max)"},
    {.name = "baseline", .group = G_VERDICT, .type = OT_STRING, O_AT(baseline), .arg = "SPEC",
     .cmds = IN_SWEEP | IN_REPORT, .repeatable = 1,
     .help = "a cell (its number, or rate=5,proto=xmlrpc):\n"
             "every figure also as % of that cell's",
     .help_in[CMD_REPORT] = "a saved sweep's table in % of this cell: its\n"
                            "number (3) or rate=5,proto=xmlrpc (keys rate,\n"
                            "connections, vms, proto, verb); with a sweep\n"
                            "--buckets gives one column per cell, --format\n"
                            "text | csv | json"},
    {.name = "csv", .group = G_OUTPUT, .type = OT_CUSTOM, .parse = sweep_opt_csv, .arg = "FILE",
     SWEEP_ONLY, .help = "the table as CSV, one row per cell"},
    {.name = "find-max", .group = G_VERDICT, .essential = IN_SWEEP, .type = OT_CUSTOM, .parse = sweep_opt_find_max, .arg = "COND",
     SWEEP_ONLY,
     .help = "capacity search, once per --proto x --verb:\n"
             "e.g. 'p99<100ms,errors=0' (run's --threshold\n"
             "grammar): double the rate from --rate-min until\n"
             "a run breaks COND (or the server saturates, or\n"
             "the client cannot hold the rate), then bisect\n"
             "down to --resolution"},
    {.name = "rate-min", .group = G_VERDICT, .type = OT_CUSTOM, .parse = sweep_opt_rate_min, .arg = "R",
     .def_doc = "1/s", SWEEP_ONLY, .help = "--find-max's first rate"},
    {.name = "rate-max", .group = G_VERDICT, .type = OT_CUSTOM, .parse = sweep_opt_rate_max, .arg = "R",
     .def_doc = "100000/s", SWEEP_ONLY, .help = "--find-max's highest rate"},
    {.name = "resolution", .group = G_VERDICT, .type = OT_CUSTOM, .parse = sweep_opt_resolution, .arg = "P%",
     .def_doc = "5%", SWEEP_ONLY,
     .help = "--find-max: (bad - good) / good at the end,\n0.1%..100%"},
    /* serve's: the server's own (its --vms and --seed are not run's) */
    {.name = "listen", .group = G_TARGET, .type = OT_CUSTOM, .parse = serve_opt_listen, .arg = "HOST:PORT",
     .def = "127.0.0.1:54321", SERVE_ONLY, .help = "address (port 0 picks one)"},
    {.name = "vms", .group = G_TARGET, .type = OT_INT, V_AT(vms), .arg = "N", .def = "150", .min = 0,
     .max = VMSIM_MAX_VMS, SERVE_ONLY, .help = "simulated running VMs"},
    {.name = "seed", .group = G_RATE, .type = OT_INT, V_AT(seed), .arg = "S", .def = "1", .min = 0,
     .max = INT64_MAX, SERVE_ONLY, .help = "seed of the VMs and the delays"},
    {.name = "delay", .group = G_WORKLOAD, .type = OT_CUSTOM, .parse = serve_opt_delay, .arg = "SPEC",
     SERVE_ONLY, .help = "service delay: 5ms, uniform:1ms:10ms, exp:5ms\n(mean)"},
    {.name = "workers", .group = G_WORKLOAD, .type = OT_INT, V_AT(workers), .arg = "N", .def = "0", .min = 0,
     .max = 100000, SERVE_ONLY,
     .help = "the delay is served by N workers, first come\n"
             "first served: a call waits for a free worker,\n"
             "then holds it for its delay (capacity N/delay\n"
             "per second); 0: delays run concurrently,\n"
             "however many calls"},
    {.name = "work-us-per-vm", .group = G_WORKLOAD, .type = OT_INT, V_AT(work_us_per_vm), .arg = "N", .def = "0",
     .min = 0, .max = 10 * 1000 * 1000, SERVE_ONLY,
     .help = "CPU burnt per VM per stats call, microseconds"},
    {.name = "max-body", .group = G_CONN, .type = OT_SIZE, V_AT(max_body), .arg = "SIZE", .def = "16MiB",
     SERVE_ONLY, .help = "largest request body (beyond: 413)"},
    {.name = "idle-timeout", .group = G_CONN, .type = OT_DURATION, V_AT(idle_ns), .arg = "D", .def = "60s",
     .min = 1, SERVE_ONLY,
     .help = "drop HTTP clients without a complete request,\n"
             "and STOMP clients that never CONNECTed, after D"},
    {.name = "max-connections", .group = G_CONN, .type = OT_INT, V_AT(max_conns), .arg = "N", .def = "10000",
     .min = 1, .max = 10 * 1000 * 1000, SERVE_ONLY, .help = "open connections at most"},
    {.name = "hosts", .group = G_TARGET, .type = OT_INT, V_AT(hosts), .arg = "N", .def = "1", .min = 1,
     .max = SERVE_FLEET_MAX, SERVE_ONLY,
     .help = "simulate N hosts on N ports (--listen's port and\n"
             "the next ones; port 0: free ones), each with its\n"
             "own VMs seeded --seed + its index"},
    {.name = "targets-out", .group = G_OUTPUT, .type = OT_ARGV, V_AT(targets_out), .arg = "FILE", SERVE_ONLY,
     .help = "write the hosts' URLs there, one a line, for\n`run --targets`"},
    {.name = "stats-out", .group = G_OUTPUT, .type = OT_ARGV, V_AT(stats_out), .arg = "FILE", SERVE_ONLY,
     .help = "at the end, each host's counts as CSV\n(host,url,connections,requests,bad)"},
    {.name = "tls-cert", .group = G_CONN, .type = OT_ARGV, V_AT(tls_cert), .arg = "FILE", SERVE_ONLY,
     .help = "serve everything over TLS with this certificate\n(PEM)"},
    {.name = "tls-key", .group = G_CONN, .type = OT_ARGV, V_AT(tls_key), .arg = "FILE", SERVE_ONLY,
     .def_doc = "in --tls-cert's file", .help = "its private key"},
    {.name = "tls-ca", .group = G_CONN, .type = OT_ARGV, V_AT(tls_ca), .arg = "FILE", SERVE_ONLY,
     .help = "require client certificates signed by this CA"},
    /* agent's: the sampler on the server's host (agent.h) */
    {.name = "listen", .group = G_TARGET, .type = OT_CUSTOM, .parse = agent_opt_listen, .arg = "HOST:PORT",
     .def = "127.0.0.1:9465", AGENT_ONLY,
     .help = "address; loopback unless told (port 0 picks one)"},
    {.name = "token-file", .group = G_MEASURE, .type = OT_STRING, A_AT(token_file), .arg = "FILE", AGENT_ONLY,
     .help = "the shared token (required): its first line"},
    {.name = "max-connections", .group = G_CONN, .type = OT_INT, A_AT(max_conns), .arg = "N", .def = "8",
     .min = 1, .max = 64, AGENT_ONLY, .help = "open connections at most (beyond: closed)"},
    {.name = "tls-cert", .group = G_CONN, .type = OT_ARGV, A_AT(tls_cert), .arg = "FILE", AGENT_ONLY,
     .help = "answer over TLS with this certificate (PEM)"},
    {.name = "tls-key", .group = G_CONN, .type = OT_ARGV, A_AT(tls_key), .arg = "FILE", AGENT_ONLY,
     .def_doc = "in --tls-cert's file", .help = "its private key"},
    {.name = "tls-ca", .group = G_CONN, .type = OT_ARGV, A_AT(tls_ca), .arg = "FILE", AGENT_ONLY,
     .help = "require client certificates signed by this CA"},
    /* record's: the proxy between a client and its server (record/proxy.h) */
    {.name = "listen", .group = G_TARGET, .essential = IN_RECORD, .type = OT_STRING, R_AT(listen), .arg = "HOST:PORT", RECORD_ONLY,
     .help = "where the clients connect (required; port 0\npicks one; HTTP and STOMP on one port)"},
    {.name = "to", .group = G_TARGET, .essential = IN_RECORD, .type = OT_STRING, R_AT(to), .arg = "URL", RECORD_ONLY,
     .help = "the real server (required): http[s]://H:P or\nstomp[s]://H:P; https/stomps: TLS to it"},
    {.name = "out", .group = G_OUTPUT, .essential = IN_RECORD, .type = OT_STRING, R_AT(out), .arg = "FILE", .def = "recording.jsonl",
     RECORD_ONLY, .help = "the recording (JSON Lines, docs/record.md)"},
    {.name = "duration", .group = G_RATE, .essential = IN_RECORD, .short_opt = 'd', .type = OT_DURATION, R_AT(duration_ns), .arg = "D",
     .def_doc = "until SIGINT/SIGTERM", RECORD_ONLY, .help = "stop after D"},
    {.name = "max-body", .group = G_MEASURE, .type = OT_SIZE, R_AT(max_msg), .arg = "SIZE", .def = "16MiB",
     RECORD_ONLY,
     .help = "largest message recorded (a longer one is\nforwarded whole, not parsed: counted)"},
    {.name = "idle-timeout", .group = G_CONN, .type = OT_DURATION, R_AT(idle_ns), .arg = "D", .def = "60s",
     RECORD_ONLY,
     .help = "close a client connection and its server's\n"
             "after D without a byte either way (counted;\n0: never)"},
    {.name = "tls-cert", .group = G_CONN, .type = OT_ARGV, R_AT(tls_cert), .arg = "FILE", RECORD_ONLY,
     .help = "end the clients' TLS with this certificate\n(PEM); without it clients speak plain"},
    {.name = "tls-key", .group = G_CONN, .type = OT_ARGV, R_AT(tls_key), .arg = "FILE", RECORD_ONLY,
     .def_doc = "in --tls-cert's file", .help = "its private key"},
    {.name = "tls-ca", .group = G_CONN, .type = OT_ARGV, R_AT(tls_ca), .arg = "FILE", RECORD_ONLY,
     .help = "require client certificates signed by this CA\n(as VDSM does)"},
    {.name = "cacert", .group = G_CONN, .type = OT_STRING, R_AT(cacert), .arg = "F", RECORD_ONLY,
     .help = "TLS to the server: verify it against this CA"},
    {.name = "cert", .group = G_CONN, .type = OT_STRING, R_AT(cert), .arg = "F", RECORD_ONLY,
     .help = "TLS to the server: the client certificate"},
    {.name = "key", .group = G_CONN, .type = OT_STRING, R_AT(key), .arg = "F", RECORD_ONLY,
     .help = "TLS to the server: the certificate's key"},
    {.name = "insecure", .group = G_CONN, .type = OT_FLAG, R_AT(insecure), RECORD_ONLY,
     .help = "TLS to the server without verifying it"},
    {.name = "version", .no_diff = 1, .short_opt = 'V', .type = OT_VERSION,
     .cmds = IN_LOAD | IN_REPORT | IN_SERVE | IN_AGENT | IN_RECORD,
     .help = "the version"},
    {.name = "help", .no_diff = 1, .short_opt = 'h', .type = OT_HELP,
     .cmds = IN_LOAD | IN_REPORT | IN_SERVE | IN_AGENT | IN_RECORD,
     .help = "this text"},
};

const size_t opt_nrows = sizeof opt_rows / sizeof opt_rows[0];

_Static_assert(sizeof opt_rows / sizeof opt_rows[0] <= OPT_ROWS_MAX, "raise OPT_ROWS_MAX");
