/* sweep_row: a cell's figures over its repeats, which parameters vary,
 * and the selector that names one cell (--baseline, compare S.json#SEL). */
#include "model/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/metric.h"

const char *const sweep_param_names[5] = {"rate", "connections", "vms", "proto", "verb"};

/* ---- parameters ------------------------------------------------------------ */

/* @return 1 when a and b differ in parameter bit. */
static int param_differs(const struct sweep_params *a, const struct sweep_params *b,
                         unsigned bit)
{
    switch (bit) {
    case SWEEP_P_RATE: return a->rate != b->rate;
    case SWEEP_P_CONNECTIONS: return a->connections != b->connections;
    case SWEEP_P_VMS: return a->vms != b->vms;
    case SWEEP_P_PROTO: return strcmp(a->proto, b->proto) != 0;
    default: return strcmp(a->verb, b->verb) != 0;
    }
}

unsigned sweep_varying(const struct sweep *s)
{
    unsigned v = 0;
    for (size_t i = 1; i < s->ncells; i++)
        for (unsigned bit = 1; bit <= SWEEP_P_VERB; bit <<= 1)
            if (param_differs(&s->cells[0].p, &s->cells[i].p, bit))
                v |= bit;
    return v;
}

void sweep_param_value(const struct sweep_params *p, unsigned bit, char *out, size_t len)
{
    switch (bit) {
    case SWEEP_P_RATE: snprintf(out, len, "%g", p->rate); break;
    case SWEEP_P_CONNECTIONS: snprintf(out, len, "%d", p->connections); break;
    case SWEEP_P_VMS: snprintf(out, len, "%d", p->vms); break;
    case SWEEP_P_PROTO: snprintf(out, len, "%s", p->proto); break;
    default: snprintf(out, len, "%s", p->verb); break;
    }
}

void sweep_params_text(const struct sweep_params *p, unsigned which, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < 5; k++) {
        if (!(which & (1u << k)) || used >= len)
            continue;
        char v[160];
        sweep_param_value(p, 1u << k, v, sizeof v);
        int n = snprintf(out + used, len - used, "%s%s=%s", used ? "," : "",
                         sweep_param_names[k], v);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* ---- a row ----------------------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of the n known values v (sorted here). */
static void spread(double *v, size_t n, double *med, double *mn, double *mx)
{
    if (n == 0) {
        *med = *mn = *mx = FIG_UNKNOWN;
        return;
    }
    qsort(v, n, sizeof *v, by_value);
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *mn = v[0];
    *mx = v[n - 1];
}

/* A repeat's result_limits as a row's flags: a rate not held goes to the
 * side that held it back, and is a flag of its own only when neither did. */
static unsigned limit_flags(unsigned lim)
{
    unsigned f = 0;
    const char *holder = result_rate_holder(lim);
    if (lim & RESULT_SATURATED)
        f |= SWEEP_SATURATED;
    if (lim & RESULT_CLIENT_BOUND)
        f |= SWEEP_CLIENT_BOUND;
    else if (lim & RESULT_LATE_PACER)
        f |= SWEEP_LATE_PACER;
    if (lim & RESULT_SERVER_BOUND ||
        (lim & RESULT_RATE_NOT_HELD && !(lim & RESULT_SATURATED) && !strcmp(holder, "the server")))
        f |= SWEEP_SERVER_BOUND;
    if (lim & RESULT_RATE_NOT_HELD && !strcmp(holder, "neither side measurably"))
        f |= SWEEP_RATE_NOT_HELD;
    return f;
}

int sweep_cell_row(const struct sweep_cell *c, struct sweep_row *row)
{
    memset(row, 0, sizeof *row);
    row->nreps = c->nreps;
    double *v = malloc((c->nreps ? c->nreps : 1) * sizeof *v);
    for (int f = 0; f < METRIC_N; f++) {
        size_t n = 0;
        for (size_t k = 0; v && k < c->nreps; k++) {
            double x = metric_defs[f].value(&c->reps[k]);
            if (fig_known(x))
                v[n++] = x;
        }
        spread(v, n, &row->med[f], &row->min[f], &row->max[f]);
    }
    for (size_t k = 0; k < c->nreps; k++) {
        row->flags |= limit_flags(result_limits(&c->reps[k]));
        if (c->reps[k].interrupted)
            row->flags |= SWEEP_CUT_SHORT;
        if (c->reps[k].unfinished + c->reps[k].unsent > 0)
            row->flags |= SWEEP_UNFINISHED;
    }
    free(v);
    return v ? 0 : -1;
}

/* ---- the selector ------------------------------------------------------------ */

#define SEL_MAX 5

struct sel {
    unsigned bit[SEL_MAX];
    char val[SEL_MAX][160];
    size_t n;
};

/* @return the bit of key (len bytes), or 0 when it is no key. */
static unsigned key_bit(const char *key, size_t len)
{
    for (unsigned k = 0; k < 5; k++)
        if (strlen(sweep_param_names[k]) == len && !strncmp(key, sweep_param_names[k], len))
            return 1u << k;
    return 0;
}

/* Appends ",tok" (a verb mix's own comma) to the last value. */
static int extend_last(struct sel *sel, const char *tok, size_t len, char *err)
{
    if (sel->n == 0 || sel->bit[sel->n - 1] != SWEEP_P_VERB) {
        snprintf(err, ERR_LEN, "'%.*s': want key=value (keys: rate, connections, vms, proto, "
                 "verb) or a cell number", (int)(len > 60 ? 60 : len), tok);
        return -1;
    }
    char *v = sel->val[sel->n - 1];
    size_t used = strlen(v);
    snprintf(v + used, sizeof sel->val[0] - used, ",%.*s", (int)len, tok);
    return 0;
}

static int parse_sel(const char *spec, struct sel *sel, char *err)
{
    memset(sel, 0, sizeof *sel);
    for (const char *p = spec; *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            if (extend_last(sel, p, len, err))
                return -1;
        } else {
            unsigned bit = key_bit(p, (size_t)(eq - p));
            if (!bit || sel->n == SEL_MAX) {
                snprintf(err, ERR_LEN, "unknown key '%.*s' (keys: rate, connections, vms, "
                         "proto, verb)", (int)((eq - p) > 40 ? 40 : eq - p), p);
                return -1;
            }
            sel->bit[sel->n] = bit;
            snprintf(sel->val[sel->n++], sizeof sel->val[0], "%.*s", (int)(p + len - eq - 1),
                     eq + 1);
        }
        p += len + (p[len] == ',');
    }
    if (sel->n == 0) {
        snprintf(err, ERR_LEN, "empty: name a cell number or key=value");
        return -1;
    }
    return 0;
}

/* @return 1 when parameter bit of p has the value text (rates as numbers). */
static int value_matches(const struct sweep_params *p, unsigned bit, const char *text)
{
    if (bit == SWEEP_P_RATE) {
        char *end;
        double r = strtod(text, &end);
        return end != text && *end == '\0' && r == p->rate;
    }
    char v[160];
    sweep_param_value(p, bit, v, sizeof v);
    return strcmp(v, text) == 0;
}

/* Appends text to out (len bytes, terminated), cut where it is full. */
static void append(char *out, size_t len, const char *text)
{
    size_t used = strlen(out), n = strlen(text);
    if (used + n >= len)
        n = len - used - 1;
    memcpy(out + used, text, n);
    out[used + n] = '\0';
}

/* The values parameter bit takes in s, "2, 4, 8" (each once), into out. */
static void values_of(const struct sweep *s, unsigned bit, char *out, size_t len)
{
    out[0] = '\0';
    for (size_t i = 0; i < s->ncells; i++) {
        size_t j = 0;
        while (j < i && param_differs(&s->cells[i].p, &s->cells[j].p, bit))
            j++;
        if (j < i)
            continue; /* seen */
        char v[160];
        sweep_param_value(&s->cells[i].p, bit, v, sizeof v);
        if (out[0])
            append(out, len, ", ");
        append(out, len, v);
    }
}

/* Counts the cells matching the selector's terms in mask (bit i: term i),
 * the last match's index in *last. */
static size_t count_matches(const struct sweep *s, const struct sel *sel, unsigned mask,
                            size_t *last)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ncells; i++) {
        int ok = 1;
        for (size_t t = 0; ok && t < sel->n; t++)
            if (mask & (1u << t))
                ok = value_matches(&s->cells[i].p, sel->bit[t], sel->val[t]);
        if (ok) {
            n++;
            *last = i;
        }
    }
    return n;
}

static int select_number(const struct sweep *s, const char *spec, size_t *cell, char *err)
{
    char *end;
    unsigned long n = strtoul(spec, &end, 10);
    if (*end || n < 1 || n > s->ncells) {
        snprintf(err, ERR_LEN, "no cell %.20s: the sweep has %zu cell%s (1..%zu)", spec,
                 s->ncells, s->ncells == 1 ? "" : "s", s->ncells);
        return -1;
    }
    *cell = n - 1;
    return 0;
}

int sweep_select(const struct sweep *s, const char *spec, size_t *cell, char *err)
{
    if (spec[0] >= '0' && spec[0] <= '9' && !strchr(spec, '='))
        return select_number(s, spec, cell, err);
    static struct sel sel; /* sweep_select is not reentrant: it is for option parsing */
    if (parse_sel(spec, &sel, err))
        return -1;
    size_t n = count_matches(s, &sel, (1u << sel.n) - 1, cell);
    if (n == 1)
        return 0;
    if (n > 1) {
        snprintf(err, ERR_LEN, "%.100s matches %zu cells; name more of rate, connections, vms, "
                 "proto, verb", spec, n);
        return -1;
    }
    for (size_t t = 0; t < sel.n; t++) {
        size_t last;
        if (count_matches(s, &sel, 1u << t, &last) == 0) {
            char vals[160];
            values_of(s, sel.bit[t], vals, sizeof vals);
            unsigned k = 0;
            while ((1u << k) != sel.bit[t])
                k++;
            snprintf(err, ERR_LEN, "no cell has %s=%.60s (%s: %.120s)", sweep_param_names[k],
                     sel.val[t], sweep_param_names[k], vals[0] ? vals : "no cells");
            return -1;
        }
    }
    snprintf(err, ERR_LEN, "no cell has %.150s (each holds alone, not together)", spec);
    return -1;
}
