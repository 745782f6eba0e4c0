/* compare_text: a comparison's text report (compare_report.h): who was
 * compared and how, the figures with their intervals, the gates, the
 * buckets, the per-verb tables (compare_verbs.c), the rounds, the
 * thresholds and the rounds' warnings. */
#include "report/compare_report.h"

#include <math.h>
#include <string.h>

#include "base/units.h"
#include "base/version.h"
#include "model/config_diff.h"

/* The table build makes of c, as text. @return 0, or -1 with build's err. */
static int table(FILE *out, const struct comparison *c, compare_doc_builder build, char *err)
{
    struct doc_table t;
    if (build(c, &t, err))
        return -1;
    doc_table_text(out, &t);
    doc_table_free(&t);
    return 0;
}

void compare_thresholds_text(FILE *out, const struct comparison *c)
{
    if (!c->plan.thresholds.n)
        return;
    static struct doc_verdicts d;
    compare_verdicts_doc(&d, c);
    for (int a = 0; a < 2; a++) {
        char group[96];
        snprintf(group, sizeof group, "arm %c (%s)", c->arm[a].letter,
                 compare_arm_name(&c->arm[a]));
        fprintf(out, "\nthresholds, %s\n", group);
        doc_verdicts_text(out, &d, group);
    }
}

int compare_write_text(FILE *out, const struct comparison *c, char *err)
{
    const struct run_config *cfg = &c->arm[0].merged.cfg;
    char dur[32], warm[32];
    units_format_duration(cfg->duration_ns, dur, sizeof dur);
    units_format_duration(cfg->warmup_ns, warm, sizeof warm);
    fprintf(out, "rpcbench %s compare\n", rpcbench_version());
    for (int a = 0; a < 2; a++) {
        char arm[DOC_CARD_VALUE]; /* the page's card of the arm */
        compare_arm_text(c, a, arm, sizeof arm);
        fprintf(out, "%c           %s\n", c->arm[a].letter, arm);
    }
    for (int a = 0; a < 2; a++)
        if (!c->arm[a].merged.cfg.url[0]) { /* make demo's, and any run without --url */
            fprintf(out, "simulator   %s the built-in simulator, not VDSM: its costs are not "
                         "VDSM's (--url measures a host)\n", a || !c->arm[1].merged.cfg.url[0]
                         ? (a ? "B measured" : "A and B measured") : "A measured");
            break;
        }
    struct config_diff d[CONFIG_DIFF_MAX];
    size_t nd = compare_config_diff(c, d);
    char diff[1024];
    config_diff_text(d, nd, diff, sizeof diff);
    if (nd == 0)
        fprintf(out, "A/A         A and B are the same configuration (A/A): their differences "
                     "are the noise of the setup\n");
    else
        fprintf(out, "differ      A and B differ in: %s\n", diff);
    char rate[32];
    units_format_rate(cfg->rate, rate, sizeof rate); /* as the user wrote it */
    if (c->saved && c->plan.ninputs == 1)
        fprintf(out, "saved       %s, %zu rounds per arm; rate %s, verbs ",
                c->plan.inputs[0], c->pairs, rate);
    else if (c->saved)
        fprintf(out, "saved       A %s, B %s; rate %s, verbs ", c->plan.inputs[0],
                c->plan.inputs[1], rate);
    else
        fprintf(out, "rounds      %zu x (%s measured + %s warmup) per arm, interleaved A B A B; "
                     "rate %s, verbs ", c->pairs, dur, warm, rate);
    for (size_t i = 0; i < cfg->nverbs; i++)
        fprintf(out, "%s%s:%u", i ? "," : "", cfg->verbs[i].name, cfg->verbs[i].weight);
    fprintf(out, "\n");
    if (table(out, c, compare_summary_doc, err))
        return -1;
    if (c->plan.ngates && table(out, c, compare_gates_doc, err))
        return -1;
    if (table(out, c, compare_bucket_doc, err) || compare_verbs_text(out, c, err))
        return -1;
    if (table(out, c, compare_rounds_doc, err)) /* per round, with the steal */
        return -1;
    compare_thresholds_text(out, c);
    int header = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->pairs; i++)
            for (size_t w = 0; w < c->arm[a].rounds[i].nwarnings; w++) {
                char pre[32];
                compare_warning_prefix(c, a, i, pre, sizeof pre);
                fprintf(out, "%s  ! %s%s\n", header++ ? "" : "\nwarnings\n", pre,
                        c->arm[a].rounds[i].warnings[w]);
            }
    return 0;
}
