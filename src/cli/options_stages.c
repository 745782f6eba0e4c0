/* options_stages: --stages D:R[-R2],... (issue 26): the stages of the
 * measured window, each checked before anything is sent, and what they
 * make of the window's duration and mean rate. */
#include "cli/option_table.h"
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

int opt_parse_stages(struct options *o, const char *arg, char *err)
{
    char why[ERR_LEN];
    if (result_stages_parse(arg, o->cfg.stages, &o->cfg.nstages, why)) {
        snprintf(err, ERR_LEN, "--stages: %.200s", why);
        return -1;
    }
    return 0;
}

/* @return whether the option named name was on the command line (as
 * options_given says, read here from the table: options.c calls this file). */
static int given(const struct options *o, const char *name)
{
    const struct opt_row *r = opt_find(name);
    return r && o->given[r - opt_rows];
}

int options_stages_finish(struct options *o, char *err)
{
    struct run_config *c = &o->cfg;
    if (!c->nstages)
        return 0;
    const char *other = given(o, "rate") ? "--rate" : given(o, "duration") ? "--duration" : NULL;
    if (other) {
        snprintf(err, ERR_LEN, "--stages and %s: give one of them (the stages set the %s)", other,
                 other[2] == 'r' ? "rates" : "measured window");
        return -1;
    }
    double offered = 0;
    c->duration_ns = 0;
    for (size_t i = 0; i < c->nstages; i++) {
        c->duration_ns += c->stages[i].duration_ns;
        offered += result_stage_offered(&c->stages[i]);
    }
    if (offered <= 0) {
        snprintf(err, ERR_LEN, "--stages: every rate is 0: nothing would be sent");
        return -1;
    }
    c->rate = offered / ((double)c->duration_ns / 1e9);
    return 0;
}
