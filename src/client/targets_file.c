/* targets_file: the parser of --targets files (targets_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "client/targets_file.h"

#define LINE_MAX_LEN 1024

/* "stages=..." into ft: its own stages, its rate their mean. @return 0,
 * or -1 with why. */
static int parse_stages(const char *arg, struct fleet_target *ft, char *why)
{
    struct run_stage st[RUN_MAX_STAGES];
    char serr[ERR_LEN];
    if (result_stages_parse(arg, st, &ft->nstages, serr)) {
        snprintf(why, ERR_LEN / 2, "stages=: %.110s", serr);
        return -1;
    }
    double offered = 0, len_s = 0;
    for (size_t i = 0; i < ft->nstages; i++) {
        offered += result_stage_offered(&st[i]);
        len_s += (double)st[i].duration_ns / 1e9;
    }
    if (offered <= 0) {
        snprintf(why, ERR_LEN / 2, "stages=: every rate is 0: nothing would be sent");
        return -1;
    }
    ft->stages = malloc(ft->nstages * sizeof *ft->stages);
    if (!ft->stages) {
        snprintf(why, ERR_LEN / 2, "out of memory");
        return -1;
    }
    memcpy(ft->stages, st, ft->nstages * sizeof *st);
    ft->rate = offered / len_s;
    return 0;
}

/* One option after the URL: "rate=R" or "stages=...". @return 0, or -1
 * with why. */
static int parse_key(char *tok, struct fleet_target *ft, int *keys, char *why)
{
    char *eq = strchr(tok, '=');
    if (!eq) {
        snprintf(why, ERR_LEN / 2, "'%.60s' is not KEY=VALUE (e.g. rate=1/15s)", tok);
        return -1;
    }
    *eq = '\0';
    int stages = !strcmp(tok, "stages");
    if (!stages && strcmp(tok, "rate") != 0) {
        snprintf(why, ERR_LEN / 2, "unknown key '%.60s' (a line is URL [rate=R | stages=S])",
                 tok);
        return -1;
    }
    if ((*keys)++) {
        snprintf(why, ERR_LEN / 2, "%s=: a line takes one rate= or one stages=", tok);
        return -1;
    }
    if (stages)
        return parse_stages(eq + 1, ft, why);
    char rerr[ERR_LEN];
    if (units_parse_rate(eq + 1, &ft->rate, rerr) || ft->rate <= 0) {
        snprintf(why, ERR_LEN / 2, "rate=%.60s: a rate per second above 0 (5, 4/m, 1/15s)", eq + 1);
        return -1;
    }
    return 0;
}

/* One line's URL and keys into ft. @return 0, or -1 with why. */
static int parse_line(char *line, double rate, const char *default_path,
                      struct fleet_target *ft, char *why)
{
    char *save = NULL, *url = strtok_r(line, " \t", &save), *tok;
    int keys = 0;
    ft->rate = rate;
    if (strlen(url) >= sizeof ft->url) {
        snprintf(why, ERR_LEN / 2, "the URL is longer than %zu bytes", sizeof ft->url - 1);
        return -1;
    }
    snprintf(ft->url, sizeof ft->url, "%s", url);
    while ((tok = strtok_r(NULL, " \t", &save)) != NULL)
        if (parse_key(tok, ft, &keys, why))
            return -1;
    ft->own_rate = keys > 0;
    char terr[ERR_LEN];
    if (target_parse(ft->url, default_path, &ft->target, terr)) {
        snprintf(why, ERR_LEN / 2, "%.120s", terr);
        return -1;
    }

    return 0;
}

/* Adds a line to tf. @return 0, or -1 with why. */
static int add_line(struct targets_file *tf, char *line, double rate, const char *default_path,
                    char *why)
{
    if (tf->n == TARGETS_MAX) {
        snprintf(why, ERR_LEN / 2, "more than %d targets", TARGETS_MAX);
        return -1;
    }
    struct fleet_target *t = realloc(tf->t, (tf->n + 1) * sizeof *t);
    if (!t) {
        snprintf(why, ERR_LEN / 2, "out of memory");
        return -1;
    }
    tf->t = t;
    memset(&t[tf->n], 0, sizeof t[tf->n]);
    int rc = parse_line(line, rate, default_path, &t[tf->n], why);
    if (rc == 0 && tf->n && t[tf->n].target.scheme != t[0].target.scheme) {
        snprintf(why, ERR_LEN / 2, "%.60s: every target needs the first one's scheme",
                 t[tf->n].url);
        rc = -1;
    }
    if (rc) {
        free(t[tf->n].stages); /* the line is not kept: nor what it made */
        return -1;
    }
    tf->n++;
    return 0;
}

int targets_file_read(const char *path, double rate, const char *default_path,
                      struct targets_file *tf, char *err)
{
    memset(tf, 0, sizeof *tf);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_LEN, "--targets: cannot read %.200s", path);
        return -1;
    }
    char line[LINE_MAX_LEN + 2], why[ERR_LEN / 2];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len > LINE_MAX_LEN) {
            snprintf(why, sizeof why, "a line longer than %d bytes", LINE_MAX_LEN);
            rc = -1;
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line + strspn(line, " \t");
        if (*p == '\0' || *p == '#')
            continue;
        rc = add_line(tf, p, rate, default_path, why);
        if (rc == 0)
            tf->t[tf->n - 1].line = lineno;
    }
    fclose(f);
    if (rc) {
        snprintf(err, ERR_LEN, "--targets: %.100s:%d: %s", path, lineno, why);
        return -1;
    }
    if (tf->n == 0) {
        snprintf(err, ERR_LEN, "--targets: %.200s has no target (one URL a line)", path);
        return -1;
    }
    return 0;
}

void targets_file_free(struct targets_file *tf)
{
    for (size_t i = 0; i < tf->n; i++)
        free(tf->t[i].stages);
    free(tf->t);
    tf->t = NULL;
    tf->n = 0;
}

int64_t targets_file_stages_ns(const struct targets_file *tf)
{
    int64_t longest = 0;
    for (size_t i = 0; i < tf->n; i++) {
        int64_t sum = 0;
        for (size_t k = 0; k < tf->t[i].nstages; k++)
            sum += tf->t[i].stages[k].duration_ns;
        longest = sum > longest ? sum : longest;
    }
    return longest;
}
