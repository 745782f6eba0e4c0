/* cli_args: the shared command-line helpers (cli_args.h). */
#include "cli/cli_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/units.h"
#include "base/version.h"
#include "dist/dist.h"
#include "stats/buckets.h"

const char *const out_format_names[OUT_FORMATS] = {"text", "json", "csv", "csv-summary",
                                                   "csv-buckets", "csv-targets"};

int cli_parse_int(const char *opt, const char *s, long long lo, long long hi, long long *out,
                  char *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        snprintf(err, ERR_LEN, "%s: '%.64s' is not an integer in %lld..%lld", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_copy(char *dst, size_t len, const char *opt, const char *s, char *err)
{
    size_t n = strlen(s);
    if (n >= len) {
        snprintf(err, ERR_LEN, "%s: value too long", opt);
        return -1;
    }
    memcpy(dst, s, n + 1);
    return 0;
}

int cli_parse_choice(const char *opt, const char *s, const char *const *names, int n, int *out,
                     char *err)
{
    char list[160] = "";
    for (int i = 0; i < n; i++) {
        if (!strcmp(s, names[i])) {
            *out = i;
            return 0;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    }
    snprintf(err, ERR_LEN, "%s: unknown value '%.64s' (%s)", opt, s, list);
    return -1;
}

int cli_parse_percentiles(const char *s, double *pcts, size_t max, size_t *n, char *err)
{
    if (units_parse_list(s, pcts, max, n, err)) {
        cli_name_error("--percentiles", err);
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        if (pcts[i] < 0 || pcts[i] > 100) {
            snprintf(err, ERR_LEN, "--percentiles: %g is not in 0..100 (e.g. 50,90,99,99.9)",
                     pcts[i]);
            return -1;
        }
    return 0;
}

int cli_parse_buckets(const char *spec, char *dst, size_t len, char *err)
{
    double edges[BUCKETS_MAX];
    if (cli_copy(dst, len, "--buckets", spec, err))
        return -1;
    if (buckets_edges(spec, NULL, 0, edges, err) >= 0)
        return 0;
    cli_name_error("--buckets", err);
    return -1;
}

void cli_name_error(const char *opt, char *err)
{
    if (!strncmp(err, opt, strlen(opt)))
        return;
    char why[ERR_LEN];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, ERR_LEN, "%.30s: %.200s", opt, why);
}

int cli_check_readable(const char *opt, const char *path, char *err)
{
    if (!path[0] || access(path, R_OK) == 0)
        return 0;
    if (opt)
        snprintf(err, ERR_LEN, "%s: cannot read '%.200s': %s", opt, path, strerror(errno));
    else
        snprintf(err, ERR_LEN, "%.200s: cannot read: %s", path, strerror(errno));
    return -1;
}

int cli_check_tls_files(const char *cert, const char *key, const char *ca, char *err)
{
    if (!cert && (key || ca)) {
        snprintf(err, ERR_LEN, "--tls-key and --tls-ca need --tls-cert");
        return -1;
    }
    const char *files[][2] = {{"--tls-cert", cert}, {"--tls-key", key}, {"--tls-ca", ca}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i][1] && cli_check_readable(files[i][0], files[i][1], err))
            return -1;
    return 0;
}

int cli_check_out_path(const char *opt, const char *path, char *err)
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

int cli_check_plot_keep(int keep, const char *plot, char *err)
{
    if (!keep || plot[0])
        return 0;
    snprintf(err, ERR_LEN, "--plot-keep: needs --plot FILE.svg");
    return -1;
}

void cli_getopt_error(int ch, char *const *argv, int optind_now, char *err)
{
    const char *arg = optind_now > 0 && argv[optind_now - 1] ? argv[optind_now - 1] : "?";
    snprintf(err, ERR_LEN, "%s option '%.100s' (see --help)",
             ch == ':' ? "missing value for" : "unknown", arg);
}

int cli_parse_threshold(const char *s, struct cond_list *l, char *err)
{
    char why[ERR_LEN];
    if (condition_parse_list(s, l, why) == 0)
        return 0;
    snprintf(err, ERR_LEN, "--threshold: %.240s", why);
    return -1;
}

int cli_check_junit(const char *junit, size_t nconds, char *err)
{
    if (!junit[0] || nconds)
        return cli_check_out_path("--junit", junit, err);
    snprintf(err, ERR_LEN, "--junit: needs --threshold COND (one testcase per condition; compare: or --gate)");
    return -1;
}

void cli_print_version(void)
{
    printf("rpcbench %s (%s)\n", rpcbench_version(), dist_build());
}
