/* cli_targets: --targets FILE for run, compare and sweep (cli_targets.h). */
#include "cli/cli_targets.h"

#include <stdio.h>
#include <string.h>

#include "encoders/encoder.h"

/* @return 1 when every call of the run has its own period ("every"). */
static int all_periodic(const struct run_config *cfg)
{
    for (size_t i = 0; i < cfg->nverbs; i++)
        if (!cfg->verbs[i].every_ns)
            return 0;
    return cfg->nverbs > 0;
}

int cli_targets_stomp(const char *path)
{
    char line[512];
    FILE *f = fopen(path, "r");
    int stomp = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        stomp = !strncmp(p, "stomp", 5);
        break;
    }
    if (f)
        fclose(f);
    return stomp;
}

int cli_targets_load(struct run_config *cfg, int url_given, int dur_given, int conns_given,
                     struct targets_file *tf, char *err)
{
    memset(tf, 0, sizeof *tf);
    if (!cfg->targets_file[0])
        return 0;
    if (url_given || cfg->nstages || cfg->replay[0]) {
        snprintf(err, ERR_LEN, "--targets: not with %s (each target's URL and rate are "
                 "its line's)", url_given ? "--url" : cfg->nstages ? "--stages" : "--replay");
        return -1;
    }
    const struct encoder *enc = enc_find(cfg->encoding);
    if (targets_file_read(cfg->targets_file, cfg->rate, enc->default_path, tf, err))
        return -1;
    if (cfg->rate <= 0) {
        snprintf(err, ERR_LEN, "--targets: --rate max (closed loop) has no schedule to give "
                 "each host: give a rate");
        return -1;
    }
    if (all_periodic(cfg))
        for (size_t i = 0; i < tf->n; i++)
            if (tf->t[i].own_rate) {
                snprintf(err, ERR_LEN, "--targets: %.60s:%d: every call of %.60s has its own "
                         "period (\"every\"): a line's rate= or stages= would set nothing",
                         cfg->targets_file, tf->t[i].line, cfg->workload);
                return -1;
            }
    snprintf(cfg->url, sizeof cfg->url, "%s", tf->t[0].url);
    /* a host's own stages: without -d the window is the longest ramp */
    if (targets_file_stages_ns(tf) && !dur_given)
        cfg->duration_ns = targets_file_stages_ns(tf);
    if (!conns_given) /* as oVirt's engine: one per host */
        cfg->connections = 1;
    return 0;
}

