/* option_table: getopt's tables, parsing and defaults, all from the rows
 * (option_table.h). */
#include "cli/option_table.h"

#include <stdint.h>
#include <string.h>

#include "base/units.h"
#include "cli/options.h"
#include "cli/sweep_args.h"
#include "model/config_keys.h"

const struct opt_row *opt_find(const char *name)
{
    for (size_t i = 0; i < opt_nrows; i++)
        if (!strcmp(opt_rows[i].name, name))
            return &opt_rows[i];
    return NULL;
}

/* The rows getopt knows for cmd: its own and, but for the commands with
 * options of their own, run's and compare's (refused by name). */
static unsigned known_rows(enum opt_cmd cmd)
{
    return cmd == CMD_SERVE    ? IN_SERVE
           : cmd == CMD_AGENT  ? IN_AGENT
           : cmd == CMD_RECORD ? IN_RECORD
                               : (1u << cmd) | IN_RUN | IN_COMPARE;
}

const struct opt_row *opt_from_getopt(int ch, enum opt_cmd cmd)
{
    if (ch >= 256 && (size_t)(ch - 256) < opt_nrows)
        return &opt_rows[ch - 256];
    /* a letter two commands' rows share (-d): the row of cmd's */
    for (size_t i = 0; i < opt_nrows && ch > 0 && ch < 256; i++)
        if (opt_rows[i].short_opt == ch && (opt_rows[i].cmds & known_rows(cmd)))
            return &opt_rows[i];
    return NULL;
}

static int takes_value(const struct opt_row *r)
{
    return r->type != OT_FLAG && r->type != OT_HELP && r->type != OT_VERSION;
}

void opt_getopt_tables(enum opt_cmd cmd, struct option *longs, char *shorts)
{
    size_t n = 0, ns = 0;
    shorts[ns++] = ':'; /* a missing value is ':', not '?' */
    unsigned known = known_rows(cmd);
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!(r->cmds & known))
            continue; /* another command's alone: unknown here, as before */
        int arg = takes_value(r) ? required_argument : no_argument;
        longs[n++] = (struct option){r->name, arg, NULL, r->short_opt ? r->short_opt
                                                                       : (int)(256 + i)};
        if (r->short_opt && ns < 62) {
            shorts[ns++] = r->short_opt;
            if (arg == required_argument)
                shorts[ns++] = ':';
        }
    }
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[ns] = '\0';
}

/* The struct r's value lives in. */
static char *home(const struct opt_row *r, struct options *o)
{
    switch (r->home) {
    case HOME_CFG: return (char *)&o->cfg; /* opt_at adds its key's offset */
    case HOME_SWEEP: return (char *)o->sweep;
    case HOME_SERVE: return (char *)o->serve;
    case HOME_AGENT: return (char *)o->agent;
    case HOME_RECORD: return (char *)o->record;
    default: return (char *)o;
    }
}

char *opt_at(const struct opt_row *r, struct options *o)
{
    if (r->home != HOME_CFG)
        return r->type == OT_CUSTOM ? NULL : home(r, o) + r->off;
    const struct config_key *k = r->cfg_key ? config_key_find(r->cfg_key) : NULL;
    return k ? (char *)config_key_at(k, &o->cfg) : NULL;
}

size_t opt_size(const struct opt_row *r)
{
    if (r->home != HOME_CFG)
        return r->size;
    const struct config_key *k = r->cfg_key ? config_key_find(r->cfg_key) : NULL;
    return k ? k->size : 0;
}

static int parse_int(const struct opt_row *r, char *at, const char *arg, char *err)
{
    char name[64];
    long long v;
    snprintf(name, sizeof name, "--%s", r->name);
    if (cli_parse_int(name, arg, r->min, r->max, &v, err))
        return -1;
    if (opt_size(r) == sizeof(uint64_t)) {
        uint64_t u = (uint64_t)v;
        memcpy(at, &u, sizeof u);
    } else {
        int i = (int)v;
        memcpy(at, &i, sizeof i);
    }
    return 0;
}

static int parse_choice(const struct opt_row *r, char *at, const char *arg, char *err)
{
    char name[64];
    int choice;
    snprintf(name, sizeof name, "--%s", r->name);
    if (cli_parse_choice(name, arg, r->choices, r->nchoices, &choice, err))
        return -1;
    memcpy(at, &choice, sizeof choice); /* an enum: int-sized (checked in options.c) */
    return 0;
}

/* A duration of r->min ns at least: "--interval: 10ms at least (e.g.
 * 1s)", "--duration: must be more than 0 (e.g. 30s)". */
static int parse_duration(const struct opt_row *r, char *at, const char *arg, char *err)
{
    int64_t v;
    if (units_parse_duration(arg, &v, err))
        return -1;
    if (v < r->min) {
        char least[32] = "must be more than 0";
        if (r->min > 1) {
            units_format_duration(r->min, least, sizeof least);
            snprintf(least + strlen(least), sizeof least - strlen(least), " at least");
        }
        snprintf(err, ERR_LEN, "--%s: %s (e.g. %s)", r->name, least, r->def ? r->def : "1s");
        return -1;
    }
    memcpy(at, &v, sizeof v);
    return 0;
}

/* One value by the row's type. */
static int parse_value(const struct opt_row *r, struct options *o, const char *arg, char *err)
{
    char *at = r->type == OT_CUSTOM ? NULL : opt_at(r, o);
    if (!at && r->type != OT_CUSTOM) {
        snprintf(err, ERR_LEN, "--%s: its row names no field", r->name); /* test_option_table */
        return -1;
    }
    int one = 1;
    switch (r->type) {
    case OT_FLAG: memcpy(at, &one, sizeof one); return 0;
    case OT_INT: return parse_int(r, at, arg, err);
    case OT_DURATION: return parse_duration(r, at, arg, err);
    case OT_RATE: return units_parse_rate(arg, (double *)(void *)at, err);
    case OT_SIZE: return units_parse_size(arg, (size_t *)(void *)at, err);
    case OT_CHOICE: return parse_choice(r, at, arg, err);
    case OT_STRING: return cli_copy(at, opt_size(r), "", arg, err);
    case OT_ARGV: memcpy(at, &arg, sizeof arg); return 0;
    case OT_CUSTOM: return r->parse(o, arg, err);
    default: break;
    }
    snprintf(err, ERR_LEN, "not an option with a value");
    return -1;
}

/* "compare", "run and compare": the commands of bits. */
static void commands_text(unsigned bits, char *out, size_t len)
{
    static const char *const names[CMD_N] = {"run", "compare", "sweep", "report", "serve",
                                             "agent", "record"};
    size_t used = 0;
    int k = 0, total = __builtin_popcount(bits);
    out[0] = '\0';
    for (int c = 0; c < CMD_N && used < len; c++)
        if (bits & (1u << c)) {
            int w = snprintf(out + used, len - used, "%s%s", k == 0 ? ""
                             : k == total - 1 ? " and " : ", ", names[c]);
            used += w > 0 ? (size_t)w : 0;
            k++;
        }
}

int opt_apply(const struct opt_row *r, struct options *o, enum opt_cmd cmd, const char *arg,
              char *err)
{
    char name[64];
    snprintf(name, sizeof name, "--%s", r->name);
    if (!(r->cmds & (1u << cmd))) {
        char cmds[64];
        commands_text(r->cmds, cmds, sizeof cmds);
        snprintf(err, ERR_LEN, "%s: only for %s%s%s%s", name, cmds, r->why_only ? " (" : "",
                 r->why_only ? r->why_only : "", r->why_only ? ")" : "");
        return -1;
    }
    int rc = r->lists & (1u << cmd) ? r->parse_list(o, arg, err) : parse_value(r, o, arg, err);
    if (rc == 0)
        return 0;
    if (!strncmp(err, ": ", 2)) /* cli_copy's, with no name */
        memmove(err, err + 2, strlen(err + 2) + 1);
    cli_name_error(name, err);
    return -1;
}

int opt_defaults(struct options *o, enum opt_cmd cmd, char *err)
{
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!r->def || !(r->cmds & (1u << cmd)))
            continue;
        if (parse_value(r, o, r->def, err)) {
            cli_name_error("default of the option table", err);
            return -1;
        }
    }
    return 0;
}
