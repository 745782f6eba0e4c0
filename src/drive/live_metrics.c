/* live_metrics: the endpoint, fed from the runs' live views
 * (live_metrics.h). The load loop renders once per interval; the endpoint's
 * thread only copies bytes out. */
#include "drive/live_metrics.h"

#include <stdio.h>

#include "dist/dist.h"
#include "net/metrics_endpoint.h"

static struct live {
    struct metrics_endpoint *ep;
    struct om_state om;
    struct buf text, openmetrics;
} live;

/* Renders both formats and hands them to the endpoint. A failure (no
 * memory) keeps the last figures: a scrape then reads them a little old. */
static void publish(void)
{
    if (om_render(&live.om, 0, &live.text) || om_render(&live.om, 1, &live.openmetrics))
        return;
    metrics_endpoint_publish(live.ep, live.text.data, live.text.len, OM_TEXT_CONTENT_TYPE,
                             live.openmetrics.data, live.openmetrics.len, OM_CONTENT_TYPE);
}

static void on_snapshot(void *ctx, const struct live_view *v)
{
    (void)ctx;
    om_take_view(&live.om, v);
    publish();
}

int live_metrics_start(const char *listen, const struct run_config *cfg, char *err)
{
    if (!listen[0] || !dist_is_root())
        return 0; /* under mpirun rank 0 serves the job's figures */
    if (om_init(&live.om, cfg->buckets, err))
        return -1;
    live.ep = metrics_endpoint_start(listen, err);
    if (!live.ep)
        return -1;
    publish();
    if (!cfg->quiet)
        fprintf(stderr, "metrics: http://%s/metrics\n", metrics_endpoint_address(live.ep));
    return 0;
}

struct run_hooks live_metrics_hooks(struct run_hooks h, const struct run_config *cfg,
                                    const struct om_labels *labels)
{
    if (!live.ep)
        return h;
    struct om_labels none = {.cell = -1};
    om_begin_run(&live.om, cfg, labels ? labels : &none);
    publish();
    h.on_snapshot = on_snapshot;
    h.snapshot_ctx = &live;
    return h;
}

void live_metrics_run_done(const struct run_result *res)
{
    if (!live.ep)
        return;
    om_run_done(&live.om, res);
    publish();
}

void live_metrics_stop(int64_t linger_ns)
{
    if (!live.ep)
        return;
    if (linger_ns > 0)
        metrics_endpoint_wait_scrape(live.ep, linger_ns / 1000000);
    metrics_endpoint_stop(live.ep);
    live.ep = NULL;
    buf_free(&live.text);
    buf_free(&live.openmetrics);
}
