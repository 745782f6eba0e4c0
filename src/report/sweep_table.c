/* sweep_table: the sweep's documents (sweep_doc.c) as text, with what
 * only the text says around them: the line of what every cell shares and
 * the notes on the flags. */
#include "report/sweep_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define SWEEP_PROFILE_ROWS 3 /* functions named per cell */

/* "6 cells x 3 repeats; the same in every cell: connections=1, ...". */
static void preamble(FILE *out, const struct sweep *s, unsigned vary)
{
    char same[400];
    sweep_params_text(&s->cells[0].p, SWEEP_P_ALL & ~vary, same, sizeof same);
    fprintf(out, "sweep: %zu cell%s x %zu repeat%s%s%s%s\n", s->ncells,
            s->ncells == 1 ? "" : "s", s->repeats, s->repeats == 1 ? "" : "s",
            same[0] ? "; in every cell: " : "", same, s->interrupted ? "; INTERRUPTED" : "");
}

/* --profile: a line per cell of its profile's top rows (its last repeat
 * with a profile), with its caveat when taken under saturation. */
static void profile_notes(FILE *out, const struct sweep *s)
{
    for (size_t i = 0; i < s->ncells; i++) {
        const struct profile_summary *p = NULL;
        for (size_t r = 0; r < s->cells[i].nreps; r++)
            if (s->cells[i].reps[r].profile.taken)
                p = &s->cells[i].reps[r].profile;
        if (!p)
            continue;
        fprintf(out, "profile, cell %zu: %lld samples", i + 1, (long long)p->samples);
        for (int k = 0; k < p->nrows && k < SWEEP_PROFILE_ROWS; k++) {
            const struct profile_row *w = &p->rows[k];
            fprintf(out, "%s %.60s ", k ? "," : ";", w->func);
            if (isfinite(w->self_ms))
                fprintf(out, "%.3f ms/call self (%.1f%%)", w->self_ms, w->self_pct);
            else
                fprintf(out, "%.1f%% self", w->self_pct);
        }
        fprintf(out, "%s\n", p->saturated ? "; " PROFILE_SATURATED_TEXT : "");
    }
}

static void notes(FILE *out, const struct sweep *s, long baseline)
{
    unsigned any = 0;
    for (size_t i = 0; i < s->ncells; i++) {
        struct sweep_row r;
        if (sweep_cell_row(&s->cells[i], &r) == 0)
            any |= r.flags;
    }
    if (s->ncells && s->cells[0].nreps > 1)
        fprintf(out, "figures: the median of the repeats [min-max]\n");
    if (baseline >= 0) {
        char p[300];
        sweep_params_text(&s->cells[baseline].p, SWEEP_P_ALL, p, sizeof p);
        fprintf(out, "*: the baseline, cell %ld (%s); each %% column is the figure before it "
                     "as a percentage of the baseline's\n", baseline + 1, p);
    }
    if (any & SWEEP_SATURATED)
        fprintf(out, "saturated: the server reached --cpu-saturation\n");
    if (any & SWEEP_SERVER_BOUND)
        fprintf(out, "server-bound: every connection was busy for %g%% of the sends or more: "
                     "the server answers slower than the rate (or raise --connections)\n",
                RESULT_QUEUED_PCT);
    if (any & SWEEP_CLIENT_BOUND)
        fprintf(out, "client-bound: the client used over %d%% of a core; such a cell measures "
                     "the client too\n", RESULT_CLIENT_BUSY_PCT);
    if (any & SWEEP_LATE_PACER)
        fprintf(out, "late pacer: the client, idle, sent late (send lag p99 over 1ms): the "
                     "machine held it back; the latencies include it\n");
    if (any & SWEEP_RATE_NOT_HELD)
        fprintf(out, "rate not held: under 99%% of the rate, with neither side measurably "
                     "the cause\n");
    if (any & SWEEP_CUT_SHORT)
        fprintf(out, "cut short: SIGINT ended a run early; its figures cover what it measured\n");
    if (any & SWEEP_UNFINISHED)
        fprintf(out, "unfinished: a run left requests unanswered; its latencies count their "
                     "waits, lower bounds (see run's report)\n");
    if (s->interrupted)
        fprintf(out, "interrupted: SIGINT ended the sweep; the cells show what was measured\n");
    profile_notes(out, s);
}

int sweep_table_text(FILE *out, const struct sweep *s, long baseline, char *err)
{
    if (s->ncells == 0 && baseline == -1) {
        fprintf(out, "sweep: no cell was measured\n");
        return 0;
    }
    struct doc_table t;
    struct doc_table_style st;
    if (sweep_table_doc(&t, &st, s, baseline, err))
        return -1;
    preamble(out, s, sweep_varying(s));
    doc_table_text(out, &t, &st.text);
    notes(out, s, baseline);
    doc_table_free(&t);
    return 0;
}

/* ---- capacity ------------------------------------------------------------------ */

void sweep_capacity_text(FILE *out, const struct sweep *s)
{
    for (size_t i = 0; i < s->ncaps; i++) {
        struct doc_table t;
        struct doc_table_style st;
        char err[ERR_LEN];
        if (sweep_probes_doc(&t, &st, s, i, err)) {
            fprintf(out, "\ncapacity: %s\n", err);
            continue;
        }
        doc_table_text(out, &t, &st.text);
        doc_table_free(&t);
    }
}
