/* options_diff: the fields compare compares, from the option table
 * (option_table.h), so that an option added to the table is compared
 * without a second list to remember; a run_config field is read where its
 * row of model/config_keys.c says. */
#include "cli/option_table.h"

#include <stdio.h>
#include <stdint.h>

#include "base/err.h"
#include "model/config_keys.h"

/* The kind a typed value in run_config is read as; CK_BY_TYPE when its
 * type says nothing (a custom parser, a value elsewhere). */
static enum config_kind kind_of(const struct opt_row *r)
{
    if (r->home != HOME_CFG)
        return CK_BY_TYPE;
    switch (r->type) {
    case OT_INT: return opt_size(r) == sizeof(uint64_t) ? CK_U64 : CK_INT;
    case OT_DURATION: return CK_DURATION;
    case OT_RATE: return CK_RATE;
    case OT_SIZE: return CK_SIZE;
    case OT_CHOICE: return CK_CHOICE;
    case OT_FLAG: return CK_FLAG;
    case OT_STRING: return CK_TEXT;
    default: return CK_BY_TYPE;
    }
}

/* @return 1 when a field of kind k that reads the result (not one value
 * of run_config) is in out[0..n) already: --verb, --method and --workload
 * are one verb mix. */
static int have_kind(const struct config_field *out, size_t n, enum config_kind k)
{
    for (size_t i = 0; k > CK_TEXT && i < n; i++)
        if (out[i].kind == k)
            return 1;
    return 0;
}

/* compare's kind of a config_keys row's kind (CK_BY_TYPE: none). */
static enum config_kind kind_of_key(const struct config_key *k)
{
    switch (k->kind) {
    case CFK_BOOL: return CK_FLAG;
    case CFK_INT: return CK_INT;
    case CFK_U64: return CK_U64;
    case CFK_SECONDS: case CFK_SECONDS_OR_NULL: case CFK_WINDOW_US: return CK_DURATION;
    case CFK_SIZE: return CK_SIZE;
    case CFK_CHOICE: return CK_CHOICE;
    case CFK_TEXT: return CK_TEXT;
    default: return CK_BY_TYPE;
    }
}

/* The CFK_SHOWN rows that no option's field in out[0..n) compares
 * already, after them: a field is compared by its one row. */
static int shown_fields(struct config_field *out, int n, char *err)
{
    for (size_t i = 0; i < config_keys_n(); i++) {
        const struct config_key *k = config_key_i(i);
        enum config_kind kind = kind_of_key(k);
        int have = 0;
        for (int j = 0; j < n; j++)
            have |= out[j].kind <= CK_TEXT && out[j].off == k->off;
        if (!(k->flags & CFK_SHOWN) || have || kind == CK_BY_TYPE)
            continue;
        if (n == CONFIG_FIELDS_MAX) {
            snprintf(err, ERR_LEN, "more than %d fields to compare", CONFIG_FIELDS_MAX);
            return -1;
        }
        out[n++] = (struct config_field){.name = k->key, .kind = kind, .off = k->off,
                                         .size = k->size, .choices = k->choices,
                                         .nchoices = k->nchoices};
    }
    return n;
}

int options_diff_fields(struct config_field *out, char *err)
{
    size_t n = 0;
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!(r->cmds & (IN_RUN | IN_COMPARE)) || r->no_diff)
            continue;
        enum config_kind k = r->diff != CK_BY_TYPE ? r->diff : kind_of(r);
        if (k == CK_BY_TYPE) {
            snprintf(err, ERR_LEN, "--%s changes a run, and its row says neither how compare "
                     "compares it (.diff) nor that it need not (.no_diff)", r->name);
            return -1;
        }
        if (have_kind(out, n, k))
            continue;
        if (n == CONFIG_FIELDS_MAX) {
            snprintf(err, ERR_LEN, "more than %d fields to compare", CONFIG_FIELDS_MAX);
            return -1;
        }
        /* a run_config field is where its config_keys row says */
        const struct config_key *key = r->cfg_key ? config_key_find(r->cfg_key) : NULL;
        out[n++] = (struct config_field){.name = r->name, .kind = k,
                                         .off = key ? key->off : 0, .size = key ? key->size : 0,
                                         .choices = r->choices, .nchoices = r->nchoices};
    }
    return shown_fields(out, (int)n, err);
}
