/* progress: the live lines on stderr (progress.h). */
#include "client/progress.h"

#include <stdio.h>

/* Set between compare's rounds, read by the engine's interval hook, both
 * on the one thread that runs. */
static char progress_prefix[96];

void progress_set_prefix(const char *prefix)
{
    snprintf(progress_prefix, sizeof progress_prefix, "%s", prefix ? prefix : "");
}

void progress_line(const struct run_config *cfg, const struct interval_rec *rec, int warmup,
                   double total_s)
{
    double ival = (double)cfg->interval_ns / 1e9;
    char cpu[32] = "";
    if (fig_known(rec->server_cpu_pct))
        snprintf(cpu, sizeof cpu, "  srv-cpu %5.1f%%", rec->server_cpu_pct);
    char when[32];
    if (warmup)
        snprintf(when, sizeof when, "[warmup %6.1fs]", rec->t);
    else
        snprintf(when, sizeof when, "[%6.1fs/%.1fs]", rec->t, total_s);
    char p50[24] = "       n/a", p99[24] = "       n/a"; /* no answer: no latency, never 0 */
    if (rec->ok > 0) {
        snprintf(p50, sizeof p50, "%8.3fms", rec->p50_ms);
        snprintf(p99, sizeof p99, "%8.3fms", rec->p99_ms);
    }
    char offered[32] = ""; /* --stages: what the schedule asked beside what went */
    if (cfg->nstages)
        snprintf(offered, sizeof offered, " (offered %7.1f/s)", rec->offered);
    fprintf(stderr, "%s%s%s rate %7.1f/s%s  ok %6lld  err %4lld  p50 %s  p99 %s%s\n",
            progress_prefix, progress_prefix[0] ? " " : "", when, (double)rec->sent / ival,
            offered, (long long)rec->ok, (long long)rec->errors, p50, p99, cpu);
}
