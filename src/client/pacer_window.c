/* pacer_window: the adaptive --pacer-window (pacer_window.h says why). */
#include "client/pacer_window.h"
#include "client/pacer_window_testing.h"

#include <string.h>

/* The window is chosen again every this many wakes, once at least
 * CHOOSE_AFTER have been seen (before that, the auto window is its least). */
#define CHOOSE_EVERY 64
#define CHOOSE_AFTER 128
/* The counts halve when they reach this: the p99 is over the last ~1,000-
 * 2,000 wakes, so a burst of steal ages out within seconds. */
#define DECAY_AT 2048

void pacer_window_init(struct pacer_window *w, int is_auto, int64_t fixed_ns)
{
    memset(w, 0, sizeof *w);
    w->is_auto = is_auto;
    w->window_ns = is_auto ? PACER_AUTO_MIN_NS : fixed_ns;
}

int64_t pacer_window_late_p99(const struct pacer_window *w)
{
    if (w->n == 0)
        return 0;
    /* the smallest bucket with at least 99 % of the wakes at or below it */
    uint64_t need = ((uint64_t)w->n * 99 + 99) / 100, seen = 0;
    for (int i = 0; i < PACER_LATE_BUCKETS; i++) {
        seen += w->late[i];
        if (seen >= need)
            return (i + 1) * PACER_LATE_BUCKET_NS;
    }
    return PACER_LATE_BUCKETS * PACER_LATE_BUCKET_NS;
}

static void decay(struct pacer_window *w)
{
    w->n = 0;
    for (int i = 0; i < PACER_LATE_BUCKETS; i++) {
        w->late[i] /= 2;
        w->n += w->late[i];
    }
}

static void choose(struct pacer_window *w)
{
    int64_t half = pacer_window_late_p99(w) / 2;
    w->window_ns = half < PACER_AUTO_MIN_NS ? PACER_AUTO_MIN_NS
                   : half > PACER_AUTO_MAX_NS ? PACER_AUTO_MAX_NS : half;
}

void pacer_window_wake(struct pacer_window *w, int64_t late_ns)
{
    if (!w->is_auto)
        return;
    int64_t b = late_ns > 0 ? late_ns / PACER_LATE_BUCKET_NS : 0;
    w->late[b < PACER_LATE_BUCKETS ? b : PACER_LATE_BUCKETS - 1]++;
    if (++w->n >= DECAY_AT)
        decay(w);
    if (++w->since_choice >= CHOOSE_EVERY && w->n >= CHOOSE_AFTER) {
        w->since_choice = 0;
        choose(w);
    }
}
