/* options_check: everything about the command line that can be known
 * before the first byte is sent, so a mistake costs a second, not the
 * run: ranges, bucket specs, URLs, verbs, readable inputs and writable
 * outputs. Each failure is one line naming the option and what it takes. */
#include "cli/options.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/buckets.h"
#include "encoders/encoder.h"
#include "net/sock.h"

void options_name_error(const char *opt, char *err)
{
    if (!strncmp(err, opt, strlen(opt)))
        return;
    char why[ERR_LEN];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, ERR_LEN, "%.30s: %.200s", opt, why);
}

static int check_pcts(const struct run_config *c, char *err)
{
    for (size_t i = 0; i < c->npcts; i++)
        if (c->pcts[i] < 0 || c->pcts[i] > 100) {
            snprintf(err, ERR_LEN, "--percentiles: %g is not in 0..100 (e.g. 50,90,99,99.9)",
                     c->pcts[i]);
            return -1;
        }
    return 0;
}

static int check_readable(const char *opt, const char *path, char *err)
{
    if (!path[0] || access(path, R_OK) == 0)
        return 0;
    snprintf(err, ERR_LEN, "%s: cannot read '%.200s': %s", opt, path, strerror(errno));
    return -1;
}

int options_check_out_path(const char *opt, const char *path, char *err)
{
    if (!path[0])
        return 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, ERR_LEN, "%s: '%.200s' is a directory (give a file name)", opt, path);
        return -1;
    }
    char dir[600];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK | X_OK)) {
        snprintf(err, ERR_LEN, "%s: cannot write in '%.200s': %s", opt, dir, strerror(errno));
        return -1;
    }
    if (access(path, F_OK) == 0 && access(path, W_OK)) {
        snprintf(err, ERR_LEN, "%s: cannot write '%.200s': %s", opt, path, strerror(errno));
        return -1;
    }
    return 0;
}

static int check_files(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (c->key[0] && !c->cert[0]) {
        snprintf(err, ERR_LEN, "--key: needs --cert (the client certificate it goes with)");
        return -1;
    }
    if (o->plot_keep && !o->plot[0]) {
        snprintf(err, ERR_LEN, "--plot-keep: needs --plot FILE.svg");
        return -1;
    }
    return check_readable("--cacert", c->cacert, err) || check_readable("--cert", c->cert, err) ||
           check_readable("--key", c->key, err) ||
           options_check_out_path("--output", o->output, err) ||
           options_check_out_path("--plot", o->plot, err) ||
           options_check_out_path("--hdr-log", o->hdr_log, err) ||
           options_check_out_path("--percentile-dist", o->pct_dist, err)
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
    double edges[BUCKETS_MAX];
    if (check_pcts(c, err))
        return -1;
    if (buckets_edges(c->buckets, NULL, 0, edges, err) < 0) {
        options_name_error("--buckets", err);
        return -1;
    }
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

static int check_verbs(const struct run_config *cfg, const struct encoder *enc, char *err)
{
    if (cfg->custom_method)
        return 0;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        const char *method;
        json_object *params = NULL;
        char why[ENC_ERR_LEN] = "";
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

int options_check_arm(const struct run_config *cfg, char *err)
{
    int stomp = !strncmp(cfg->url, "stomp", 5);
    if (cfg->url[0] && check_url(cfg->url, err))
        return -1;
    if (stomp && strcmp(cfg->proto, "jsonrpc")) {
        snprintf(err, ERR_LEN, "--proto: STOMP carries JSON-RPC only: use -p jsonrpc (the "
                 "default) with stomp://");
        return -1;
    }
    if (stomp && cfg->rate <= 0) {
        snprintf(err, ERR_LEN, "--rate: max (closed loop) is for HTTP; give STOMP a rate "
                 "(e.g. 100/s)");
        return -1;
    }
    return check_verbs(cfg, enc_find(cfg->proto), err);
}
