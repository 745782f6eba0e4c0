/* options_job: --config FILE, a job file in the option table's own
 * grammar (as fio's job files are its options): one option a line,
 * "name = value" (the long name, with or without "--"; the value as the
 * command line takes it), a flag alone or "= true/false", '#' and ';'
 * start a comment line, "[section]" lines are ignored. Command-line
 * options win: a key the command line gives is skipped, so a list
 * option (--header, --gate, --threshold) takes the command line's values
 * only. Every error names the file and the line. */
#include "cli/option_table.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_args.h"
#include "cli/options.h"

#define JOB_MAX_BYTES (64 * 1024)

/* s with its blanks cut at both ends (in place). */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A flag's value: NULL for true, "" for false, else -1 through *bad. */
static const char *flag_value(const char *v, int *bad)
{
    if (!*v || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1"))
        return NULL;
    if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0"))
        return "";
    *bad = 1;
    return NULL;
}

/* One "name = value" line of path (line no) applied to o, unless the
 * command line gave it. @return 0, or -1 with err naming path:no. */
static int job_line(struct options *o, enum opt_cmd cmd, const char *path, int no, char *line,
                    char *err)
{
    char *eq = strchr(line, '='), *name = line, *value = (char *)"";
    if (eq) {
        *eq = '\0';
        value = trim(eq + 1);
    }
    name = trim(name);
    if (!strncmp(name, "--", 2))
        name += 2;
    size_t vn = strlen(value); /* "a value" keeps its blanks */
    if (vn >= 2 && value[0] == '"' && value[vn - 1] == '"') {
        value[vn - 1] = '\0';
        value++;
    }
    const struct opt_row *r = opt_find(name);
    if (r && !(r->cmds & (1u << cmd)) && cmd == CMD_SERVE)
        r = NULL;
    int bad = 0;
    const char *arg = r && r->type == OT_FLAG ? flag_value(value, &bad) : value;
    if (!r || r->type == OT_HELP || r->type == OT_VERSION || !strcmp(r->name, "config"))
        snprintf(err, ERR_LEN, "%.100s:%d: '%.60s' is no option of %s", path, no, name,
                 opt_cmd_name(cmd));
    else if (bad || (r->type != OT_FLAG && !eq))
        snprintf(err, ERR_LEN, "%.100s:%d: --%s %s", path, no, r->name,
                 bad ? "is a flag: true or false" : "needs '= value'");
    else if (o->given[r - opt_rows] || (r->type == OT_FLAG && arg && !*arg))
        return 0; /* the command line's, or a flag left off */
    else if (opt_apply(r, o, cmd, arg, err) == 0) {
        options_note_given(o, r, arg);
        return 0;
    } else {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "%.60s:%d: %.180s", path, no, why);
    }
    return -1;
}

int options_apply_job(struct options *o, enum opt_cmd cmd, const char *path, char *err)
{
    static char text[JOB_MAX_BYTES + 1];
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_LEN, "--config %.200s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fread(text, 1, sizeof text, f);
    int rd = ferror(f);
    fclose(f);
    if (rd || n > JOB_MAX_BYTES || memchr(text, '\0', n)) {
        snprintf(err, ERR_LEN, "--config %.200s: %s", path,
                 rd ? "cannot be read" : n > JOB_MAX_BYTES ? "over 64 KiB" : "not text");
        return -1;
    }
    text[n] = '\0';
    o->in_job = 1;
    snprintf(o->cfg.job_file, sizeof o->cfg.job_file, "%s", path);
    int no = 0, rc = 0;
    for (char *l = text, *next; l && *l && rc == 0; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = '\0';
        no++;
        char *t = trim(l);
        if (*t && *t != '#' && *t != ';' && *t != '[')
            rc = job_line(o, cmd, path, no, t, err);
    }
    o->in_job = 0;
    return rc;
}

void options_note_given(struct options *o, const struct opt_row *r, const char *arg)
{
    char *to = o->in_job ? o->cfg.options_from_job : o->cfg.options_given;
    size_t cap = sizeof o->cfg.options_given, used = strlen(to);
    const char *v = !arg ? "" : r->secret ? "***" : arg;
    int quote = strpbrk(v, " \t'\"") != NULL;
    if (used < cap)
        snprintf(to + used, cap - used, "%s--%s%s%s%s%s",
             used ? " " : "", r->name, arg ? " " : "", quote ? "'" : "", v, quote ? "'" : "");
}

/* --config FILE: noted here, read once the command line is parsed. */
int opt_parse_config(struct options *o, const char *arg, char *err)
{
    return cli_copy(o->config, sizeof o->config, "--config", arg, err);
}
