#include "cli/options.h"
#include "dist/dist.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/sweep_args.h"
#include "encoders/encoder.h"
#include "agent/agent.h"
#include "server/server.h"

/* OT_CHOICE rows store an int into these. */
_Static_assert(sizeof(enum arrival) == sizeof(int) && sizeof(enum validate) == sizeof(int) &&
               sizeof(enum out_format) == sizeof(int), "a choice is stored as an int");

/* An option of one value given twice with two values is a contradiction,
 * not an override: which one the user meant is not ours to guess. The
 * same value twice, flags, repeatable rows (--threshold, --gate) and
 * sweep's lists (a later list replaces the one before) are fine. seen[i]
 * holds the value row i had (pointers into argv). */
static int given_twice(const char **seen, const struct opt_row *r, enum opt_cmd cmd,
                       const char *arg, char *err)
{
    size_t i = (size_t)(r - opt_rows);
    if (!arg || r->repeatable || (r->lists & (1u << cmd)))
        return 0;
    if (seen[i] && strcmp(seen[i], arg)) {
        snprintf(err, ERR_LEN, "--%s: given twice ('%.60s', then '%.60s'): give it once",
                 r->name, seen[i], arg);
        return -1;
    }
    seen[i] = arg;
    return 0;
}

/* The profile's options: the server it samples is known here (perf
 * needs pids), and the lesser options go with --profile. Whether perf can
 * run is profile_check's, once options are whole. */
static int check_profile(const struct options *o, char *err)
{
    const struct profile_opts *p = &o->profile;
    static const char *const needs[] = {"profile-out", "profile-top", "profile-saturated",
                                        "profile-call-graph", "profile-freq", "profile-mode"};
    for (size_t i = 0; i < 6 && !p->on; i++)
        if (options_given(o, needs[i]) && !p->saved) {
            snprintf(err, ERR_LEN, "--%s: needs --profile (or --profiler CMD)", needs[i]);
            return -1;
        }
    if (!p->on)
        return 0;
    for (size_t i = 3; i < 6 && p->cmd[0]; i++)
        if (options_given(o, needs[i])) {
            snprintf(err, ERR_LEN, "--%s: the built-in profilers', not --profiler's (CMD "
                     "sets its own)", needs[i]);
            return -1;
        }
    if (o->cfg.agent_url[0]) {
        snprintf(err, ERR_LEN, "--profile: the profiler runs on this host, the server on "
                 "--server-agent's: profile it there");
        return -1;
    }
    if (o->url[0] && !o->server_pid[0] && !o->cfg.server_name[0]) {
        snprintf(err, ERR_LEN, "--profile: needs --server-pid P or --server-name NAME (the "
                 "server to profile), or no --url (the built-in simulator)");
        return -1;
    }
    return 0;
}

/* What needs more than one option (a value's own range is its row's). */
static int check(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    for (size_t i = 0; i < c->nverbs && !c->custom_method; i++)
        if (!strcmp(c->verbs[i].name, "getVmStats") && !c->vm_id[0]) {
            snprintf(err, ERR_LEN, "getVmStats needs --vm-id UUID (the vmId of a VM, see verb list)");
            return -1;
        }
    if ((c->nexpects || o->workload_checks) && c->validate != VALIDATE_FULL) {
        snprintf(err, ERR_LEN, "%s needs the full decode: --validate full (what it sets), not "
                 "another --validate", c->nexpects ? "--expect" : "--workload's \"expect\"");
        return -1;
    }
    if (options_check_workload(o, err))
        return -1;
    if (c->method_params[0] && !c->custom_method) {
        snprintf(err, ERR_LEN, "--params needs --method");
        return -1;
    }
    if ((o->rounds_auto || o->bisect) && o->ngates == 0) {
        snprintf(err, ERR_LEN, "%s: needs at least one --gate METRIC:+TOL%% (e.g. p99:+10%%)",
                 o->bisect ? "--bisect" : "--rounds auto");
        return -1;
    }
    return check_profile(o, err) ? -1 : options_check(o, err);
}

/* Fills o with the defaults of the table, from the rows' own parsers. */
static int defaults(struct options *o, enum opt_cmd cmd, struct sweep_args *sweep,
                    struct server_config *serve, struct agent_config *agent, char *err)
{
    memset(o, 0, sizeof *o);
    o->compare = cmd == CMD_COMPARE;
    o->sweep = sweep;
    if (sweep)
        memset(sweep, 0, sizeof *sweep);
    o->serve = serve;
    if (serve)
        memset(serve, 0, sizeof *serve);
    o->agent = agent;
    if (agent)
        memset(agent, 0, sizeof *agent);
    o->cfg.idle_baseline_ns = -1; /* no value says it: server_cpu_idle_ns decides */
    if (opt_defaults(o, cmd, err))
        return -1;
    o->encoding_given = o->verb_given = 0; /* the defaults' parsers set them */
    return 0;
}

/* After the first usage error the rest of argv is still read, for the
 * flags alone: --bisect anywhere on a line that did not parse is known
 * (compare then stops git bisect run). */
static void rest_flags(int argc, char **argv, enum opt_cmd cmd, const char *shorts,
                       const struct option *longs, struct options *o)
{
    int opt;
    char ignored[ERR_LEN];
    while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const struct opt_row *r = opt_from_getopt(opt);
        if (r && r->type == OT_FLAG)
            (void)opt_apply(r, o, cmd, NULL, ignored);
    }
}

/* --help, or --help TOPIC when the next word is one (a group, or all; a
 * word that is no file name and no group is a mistake). @return 1 once
 * written, or -1 with err. */
static int help(int argc, char **argv, enum opt_cmd cmd, char *err)
{
    const char *topic = optind < argc ? argv[optind] : NULL;
    if (topic && (topic[0] == '-' || strpbrk(topic, "./")))
        topic = NULL; /* an option or a file (report's): plain --help */
    if (!topic) {
        opt_usage(stdout, cmd);
        return 1;
    }
    return opt_usage_topic(stdout, cmd, topic, err) ? -1 : 1;
}

/* One getopt_long pass over argv. @return 0, 1 after --help or
 * --version, or -1 with err. */
static int parse_argv(int argc, char **argv, enum opt_cmd cmd, struct options *o, char *err)
{
    static struct option longs[OPT_ROWS_MAX + 1];
    char shorts[64];
    const char *seen[OPT_ROWS_MAX] = {NULL};
    opt_getopt_tables(cmd, longs, shorts);
    optind = 1;
    opterr = 0;
    int opt, rc = 0;
    while (rc == 0 && (opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const struct opt_row *r = opt_from_getopt(opt);
        if (r && r->type == OT_HELP)
            return help(argc, argv, cmd, err);
        if (r && r->type == OT_VERSION) {
            cli_print_version();
            return 1;
        }
        if (!r) {
            cli_getopt_error(opt, argv, optind, err);
            rc = -1;
        } else if (given_twice(seen, r, cmd, optarg, err) || opt_apply(r, o, cmd, optarg, err)) {
            rc = -1;
        } else {
            o->given[r - opt_rows] = 1;
            if (r->parse != opt_parse_config)
                options_note_given(o, r, optarg);
        }
    }
    if (rc)
        rest_flags(argc, argv, cmd, shorts, longs, o);
    else if (o->config[0]) /* the job file after: the command line wins */
        rc = options_apply_job(o, cmd, o->config, err);
    return rc;
}

/* serve's and agent's: their own rows only, none of run's checks. */
static int parse_own(int argc, char **argv, enum opt_cmd cmd, struct server_config *sc,
                     struct agent_config *ac, char *err)
{
    static struct options o; /* large: off the stack */
    if (defaults(&o, cmd, NULL, sc, ac, err))
        return -1;
    int rc = parse_argv(argc, argv, cmd, &o, err);
    if (rc == 0 && optind < argc) {
        snprintf(err, ERR_LEN, "unexpected argument '%s'", argv[optind]);
        rc = -1;
    }
    return rc;
}

int options_parse_serve(int argc, char **argv, struct server_config *sc, char *err)
{
    return parse_own(argc, argv, CMD_SERVE, sc, NULL, err);
}

int options_parse_agent(int argc, char **argv, struct agent_config *ac, char *err)
{
    return parse_own(argc, argv, CMD_AGENT, NULL, ac, err);
}

int options_parse(int argc, char **argv, enum opt_cmd cmd, struct sweep_args *sweep,
                  struct options *o, char *err)
{
    if (defaults(o, cmd, sweep, NULL, NULL, err))
        return -1;
    int rc = parse_argv(argc, argv, cmd, o, err);
    if (rc)
        return rc;
    o->positional = argv + optind;
    o->npositional = argc - optind;
    if (o->npositional && cmd != CMD_COMPARE && cmd != CMD_REPORT) {
        snprintf(err, ERR_LEN, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (o->profile.cmd[0])
        o->profile.on = 1; /* --profiler is a --profile by another tool */
    o->profile.saved = cmd == CMD_REPORT;
    return options_stages_finish(o, err) ? -1 : check(o, err);
}

int options_given(const struct options *o, const char *name)
{
    const struct opt_row *r = opt_find(name);
    return r && o->given[r - opt_rows];
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
    /* compare: the same connections in both arms unless told otherwise.
     * Not run's 4: HTTP opens a connection only when a request needs one,
     * STOMP all at once (each a login, a TLS handshake), so 4 would be 1
     * against 4 at a low rate, charged to the STOMP arm. */
    if (o->compare)
        cfg->connections = o->conns[arm] ? o->conns[arm] : 1;
    return options_check_arm(cfg, err);
}

void options_distribute(struct options *o)
{
    dist_set_rank_output(o->rank_output);
    dist_set_server_host(o->server_host);
    if (dist_is_root())
        return;
    o->output[0] = o->plot[0] = o->hdr_log[0] = o->pct_dist[0] = o->requests_log[0] = o->junit[0] = o->html[0] = '\0';
}
