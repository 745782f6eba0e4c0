/* progress: the live lines on stderr (progress.h). */
#include "results/progress.h"

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
    if (rec->server_cpu_pct >= 0)
        snprintf(cpu, sizeof cpu, "  srv-cpu %5.1f%%", rec->server_cpu_pct);
    char when[32];
    if (warmup)
        snprintf(when, sizeof when, "[warmup %6.1fs]", rec->t);
    else
        snprintf(when, sizeof when, "[%6.1fs/%.1fs]", rec->t, total_s);
    fprintf(stderr, "%s%s%s rate %7.1f/s  ok %6lld  err %4lld  p50 %8.3fms  p99 %8.3fms%s\n",
            progress_prefix, progress_prefix[0] ? " " : "", when, (double)rec->sent / ival,
            (long long)rec->ok, (long long)rec->errors, rec->p50_ms, rec->p99_ms, cpu);
}
