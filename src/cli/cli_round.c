/* cli_round: one run among many (cli_round.h). */
#include "cli/cli_round.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "results/progress.h"

static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig)
{
    (void)sig;
    sigint_seen = 1;
}

void cli_round_catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

int cli_round_sigint_seen(void)
{
    return sigint_seen;
}

int cli_round(const struct run_config *cfg, const struct child_server *cs, const char *line,
              const char *prefix, struct hdrlog_sink *hdr, struct run_result *res, char *err)
{
    if (!cfg->quiet && line[0])
        fprintf(stderr, "%s\n", line);
    progress_set_prefix(prefix);
    if (hdr)
        hdrlog_sink_next_run(hdr);
    int rc = measured_run(cfg, cs, res, err);
    progress_set_prefix(NULL);
    if (rc)
        return -1;
    return res->interrupted ? 1 : 0;
}
