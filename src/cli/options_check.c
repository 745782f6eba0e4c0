/* options_check: everything about the command line that can be known
 * before the first byte is sent, so a mistake costs a second, not the
 * run: ranges, URLs, verbs, readable inputs and writable outputs (the
 * checks of a single value, shared with other subcommands, are
 * cli_args.c's and run as each option is parsed). Each failure is one line naming the option and what it takes. */
#include "cli/option_table.h"
#include "cli/options.h"

#include <string.h>

#include "dist/dist.h"
#include "encoders/encoder.h"
#include "net/sock.h"
#include "proc/proctree.h"

static int check_files(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (c->key[0] && !c->cert[0]) {
        snprintf(err, ERR_LEN, "--key: needs --cert (the client certificate it goes with)");
        return -1;
    }
    return cli_check_plot_keep(o->plot_keep, o->plot, err) ||
           cli_check_readable("--cacert", c->cacert, err) ||
           cli_check_readable("--cert", c->cert, err) ||
           cli_check_readable("--key", c->key, err) ||
           cli_check_out_path("--output", o->output, err) ||
           cli_check_out_path("--plot", o->plot, err) ||
           cli_check_out_path("--html", o->html, err) ||
           cli_check_out_path("--hdr-log", o->hdr_log, err) ||
           cli_check_out_path("--percentile-dist", o->pct_dist, err) ||
           cli_check_junit(o->junit, o->thresholds.n + o->ngates, err)
               ? -1 : 0;
}

static int check_params(const struct run_config *c, char *err)
{
    if (!c->method_params[0])
        return 0;
    json_object *p = json_tokener_parse(c->method_params);
    int ok = p && (json_object_is_type(p, json_type_array) ||
                   json_object_is_type(p, json_type_object));
    json_object_put(p);
    if (ok)
        return 0;
    snprintf(err, ERR_LEN, "--params: '%.100s' is not a JSON array or object (e.g. '[1, \"x\"]' "
             "or '{\"vmID\": \"...\"}')", c->method_params);
    return -1;
}

/* One descriptor per connection: beyond the hard limit no run can have
 * them (the soft limit is raised when the run starts). */
static int check_connections(const struct run_config *c, char *err)
{
    long want = (long)c->connections + 64, max = sock_fd_limit_max();
    if (max < 0 || max >= want)
        return 0;
    snprintf(err, ERR_LEN, "--connections: %d needs %ld open files; the hard limit is %ld "
             "(ulimit -Hn)", c->connections, want, max);
    return -1;
}

int options_check(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (o->compare && o->format != FORMAT_TEXT && o->format != FORMAT_JSON) {
        snprintf(err, ERR_LEN, "--format: compare writes text or json ('%s' is for run and "
                 "report)", out_format_names[o->format]);
        return -1;
    }
    return check_params(c, err) || check_connections(c, err) || check_files(o, err) ? -1 : 0;
}

/* http[s]://host:port[/path] or stomp[s]://host:port: the form only; the
 * name is resolved when the run starts. */
static int check_url(const char *url, char *err)
{
    static const char *const schemes[] = {"http://", "https://", "stomp://", "stomps://"};
    const char *rest = NULL;
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0] && !rest; i++)
        if (!strncmp(url, schemes[i], strlen(schemes[i])))
            rest = url + strlen(schemes[i]);
    char hostport[300], host[256];
    int port;
    size_t n = rest ? strcspn(rest, "/") : 0;
    if (rest && n > 0 && n < sizeof hostport) {
        snprintf(hostport, sizeof hostport, "%.*s", (int)n, rest);
        if (units_parse_hostport(hostport, host, sizeof host, &port, err) == 0)
            return 0;
    }
    snprintf(err, ERR_LEN, "--url: '%.150s' is not http[s]://HOST:PORT[/path] or "
             "stomp[s]://HOST:PORT", url);
    return -1;
}

/* --vm-id is getVmStats' argument: with no verb to take it, it would be
 * ignored without a word. */
static int check_vm_id(const struct run_config *cfg, char *err)
{
    for (size_t i = 0; i < cfg->nverbs && !cfg->custom_method; i++)
        if (!strcmp(cfg->verbs[i].name, "getVmStats"))
            return 0;
    if (!cfg->vm_id[0])
        return 0;
    snprintf(err, ERR_LEN, "--vm-id: only --verb getVmStats takes a VM (%s%.60s takes none)",
             cfg->custom_method ? "--method " : "", cfg->custom_method ? cfg->verbs[0].name
             : cfg->nverbs == 1 ? cfg->verbs[0].name : "this mix");
    return -1;
}

static int check_verbs(const struct run_config *cfg, const struct encoder *enc, char *err)
{
    if (check_vm_id(cfg, err) || options_workload_arm(cfg, err))
        return -1;
    if (cfg->custom_method)
        return 0;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        const char *method;
        json_object *params = NULL;
        char why[ERR_LEN] = "";
        int rc = enc->verb_call(cfg->verbs[i].name, cfg->vm_id[0] ? cfg->vm_id : "vm",
                                &method, &params, why);
        json_object_put(params);
        if (rc != ENC_OK) {
            snprintf(err, ERR_LEN, "--verb: %.200s", why);
            return -1;
        }
    }
    return 0;
}

/* --server-agent and its --token-file, together; the pids and the name
 * are the agent's host's, which the agent checks. */
static int check_agent(const struct run_config *cfg, char *err)
{
    if (!cfg->agent_url[0]) {
        snprintf(err, ERR_LEN, "--token-file: only with --server-agent");
        return -1;
    }
    if (strncmp(cfg->agent_url, "http://", 7) && strncmp(cfg->agent_url, "https://", 8)) {
        snprintf(err, ERR_LEN, "--server-agent: '%.100s' is not http://HOST:PORT or "
                 "https://HOST:PORT", cfg->agent_url);
        return -1;
    }
    if (!cfg->agent_token_file[0]) {
        snprintf(err, ERR_LEN, "--server-agent needs --token-file: the agent answers only "
                 "with the token");
        return -1;
    }
    /* the idle baseline samples this host's /proc before the agent's
     * stream starts: given with an agent it would be silently skipped */
    if (cfg->idle_baseline_ns > 0) {
        snprintf(err, ERR_LEN, "--idle-baseline: not with --server-agent (the agent samples "
                 "only the measured run); measure the idle server with a run at a low rate");
        return -1;
    }
    /* what the agent's request parser takes, so that it cannot refuse later */
    size_t n = strlen(cfg->server_name);
    if (strspn(cfg->server_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789._-+") != n) {
        snprintf(err, ERR_LEN, "--server-name: with --server-agent, letters, digits and "
                 "._-+ only");
        return -1;
    }
    return 0;
}

/* The server to sample is there, and is one server: a pid that does not
 * exist or a name that matches nothing would measure nothing, and a name
 * that matches separate process trees would sum strangers. Under mpirun
 * the server is on one host only: each rank finds it there (dist). */
static int check_server(const struct run_config *cfg, char *err)
{
    if (dist_size() > 1)
        return 0;
    if (cfg->nserver_pids && cfg->server_name[0]) {
        snprintf(err, ERR_LEN, "--server-pid and --server-name: give one of them");
        return -1;
    }
    if (cfg->agent_url[0] || cfg->agent_token_file[0])
        return check_agent(cfg, err); /* the server is on the agent's host */
    int rc = proctree_check_server(cfg->server_pids, cfg->nserver_pids, cfg->server_name, err);
    if (rc == 0)
        return 0;
    if (rc == -1) { /* a pid's */
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "--server-pid: %.200s (nothing was sent)", why);
    } else {
        cli_name_error("--server-name", err);
    }
    return -1;
}

int options_check_arm(const struct run_config *cfg, char *err)
{
    if (check_server(cfg, err))
        return -1;
    int stomp = !strncmp(cfg->url, "stomp", 5);
    if (cfg->url[0] && check_url(cfg->url, err))
        return -1;
    if (stomp && strcmp(cfg->encoding, "jsonrpc")) {
        snprintf(err, ERR_LEN, "--proto: STOMP carries JSON-RPC only: use -p jsonrpc (the "
                 "default) with stomp://");
        return -1;
    }
    if (stomp && cfg->rate <= 0) {
        snprintf(err, ERR_LEN, "--rate: max (closed loop) is for HTTP; give STOMP a rate "
                 "(e.g. 100/s)");
        return -1;
    }
    if (options_check_auth(cfg, err))
        return -1;
    return check_verbs(cfg, enc_find(cfg->encoding), err);
}
