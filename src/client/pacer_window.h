/* pacer_window: how long the pacer's wake may wait for the sends due after
 * the first (--pacer-window).
 *
 * On a virtual machine a wake-up is the client's main cost per request
 * (bench/RESULTS.md), so the sends due within the window of the next one
 * share its wake. The window is fixed (--pacer-window D, 50 us by
 * default) or chosen from the machine's own timer (auto): half the p99 of
 * how late the last ~1,000 wakes came, at least 50 us and at most 1 ms. A
 * send's pacer lag is about its wake's lateness plus its place in the
 * window, so the lag's p99 is about the timer's p99 plus the window: the
 * bound the pacer is held to, max(1.5 x p99, p99 + 50 us) of the bare
 * timer's (issue 29, bench/README.md), leaves 50 us for it. Auto gives a
 * machine whose timer comes late anyway the longer window and the fewer
 * wakes; but the loop's own busy spells count as lateness too, which the
 * bare timer has not, and so it is not the default (bench/RESULTS.md). */
#ifndef RPCBENCH_PACER_WINDOW_H
#define RPCBENCH_PACER_WINDOW_H

#include <stdint.h>

#define PACER_AUTO_MIN_NS (50 * 1000LL)
#define PACER_AUTO_MAX_NS (1000 * 1000LL)
#define PACER_LATE_BUCKET_NS (10 * 1000LL) /* lateness kept in 10 us steps */
#define PACER_LATE_BUCKETS 256             /* the last one holds 2.55 ms and over */

struct pacer_window {
    int is_auto;
    int64_t window_ns;        /* the window in use */
    uint32_t late[PACER_LATE_BUCKETS]; /* recent wakes by lateness, decaying */
    uint32_t n;               /* their sum */
    uint32_t since_choice;    /* wakes since window_ns was chosen */
};

/* Readies w (the caller's; nothing allocated): auto, or fixed at
 * fixed_ns (0: every send has a wake of its own). */
void pacer_window_init(struct pacer_window *w, int is_auto, int64_t fixed_ns);
/* One pacer wake came late_ns after its deadline (< 0 counts as 0). In
 * auto, every 64th wake chooses the window again from the recent ones. */
void pacer_window_wake(struct pacer_window *w, int64_t late_ns);
/* @return the window in use, in ns. */
static inline int64_t pacer_window_ns(const struct pacer_window *w) { return w->window_ns; }

#endif
