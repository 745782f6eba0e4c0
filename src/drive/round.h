/* round: one measured run inside a command that makes many (compare's
 * rounds, sweep's cells and probes): its announcement line and progress
 * prefix on stderr, its --hdr-log section and intervals, the run itself (measured_run),
 * and SIGINT between runs. */
#ifndef RPCBENCH_DRIVE_ROUND_H
#define RPCBENCH_DRIVE_ROUND_H

#include "client/measured_run.h"
#include "report/hdrlog_sink.h"
#include "report/openmetrics.h"
#include "model/run_result.h"
#include "profile/session.h"

/* What a run is called: its announcement line on stderr ("" none), the
 * prefix of its progress lines, and its labels for --metrics-listen. */
struct round_tag {
    const char *line, *prefix;
    struct om_labels labels;
    /* --profile (NULL or off: none): the run is profiled, its stacks
     * written as --profile-out's profile_name.folded and kept in *fold
     * (the caller's to fold_free; NULL when none was taken) */
    const struct profile_opts *profile;
    const char *profile_name;
    struct fold **fold;
};

/* Announces the run with tag->line (stderr, unless cfg->quiet), prefixes
 * its progress lines with tag->prefix (copied), feeds --metrics-listen
 * under tag->labels, starts a --hdr-log section in hdr (NULL: none) and
 * writes the run's intervals to it, and runs cfg against cfg->url or cs.
 * res is initialised here and is the caller's (result_free, even on
 * failure). SIGINT and SIGTERM are caught (drive_catch_sigint) before
 * the run and again after it, so one that comes between runs is noted: a
 * caller checks drive_sigint_seen before it starts another.
 * @return 0, the signal number (> 0) when SIGINT or SIGTERM ended it (stop),
 * or -1 with err (measured_run's). */
int drive_round(const struct run_config *cfg, const struct child_server *cs,
              const struct round_tag *tag, struct hdrlog_sink *hdr, struct run_result *res,
              char *err);

/* Between runs (a server starting, results moving), SIGINT or SIGTERM would
 * kill the process and lose what was measured; this catches them into a
 * flag instead.
 * The engine takes SIGINT over while a run goes and lets it go after;
 * drive_round catches it again on both sides of its run. */
void drive_catch_sigint(void);
/* @return the signal (SIGINT, SIGTERM) once one came while caught (between
 * runs), else 0. */
int drive_sigint_seen(void);
/* Notes sig (SIGINT, SIGTERM) as drive_sigint_seen's, for a run made
 * outside drive_round (compare's call to each arm before round 1) that the
 * signal ended: the engine took it, so no handler here saw it. */
void drive_note_signal(int sig);

#endif
