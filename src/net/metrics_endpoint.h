/* metrics_endpoint: a small read-only HTTP endpoint that serves the last
 * body it was given at GET /metrics (--metrics-listen), from a thread of
 * its own, so that a scrape never waits on the load loop and the load
 * loop never waits on a scrape: the loop only swaps the body in under a
 * mutex, once per interval.
 *
 * It answers one connection at a time (a listen backlog of 16 waits),
 * reads at most 8 KiB of request for at most 2 s, answers GET /metrics
 * with the body of the content type the scraper's Accept asks for (the
 * second body when it names application/openmetrics-text, else the
 * first), 404 to any other path, 405 to any other method, 400 to what
 * does not parse, and closes. It never reads the body of a request. */
#ifndef RPCBENCH_METRICS_ENDPOINT_H
#define RPCBENCH_METRICS_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

struct metrics_endpoint;

/* Binds listen ("HOST:PORT", "[V6]:PORT"; a HOST of "" or no colon at
 * all is refused: the endpoint binds only where told, loopback being
 * 127.0.0.1:PORT) and starts the thread. @return the endpoint (the
 * caller's: metrics_endpoint_stop), or NULL with err (ERR_LEN,
 * caller-owned: a bad address, the port taken). */
struct metrics_endpoint *metrics_endpoint_start(const char *listen, char *err);

/* The address bound, "127.0.0.1:40123" (a port 0 resolved): the
 * endpoint's own string. */
const char *metrics_endpoint_address(const struct metrics_endpoint *ep);

/* Serves text (len bytes, type its Content-Type) to scrapers that do not
 * ask for OpenMetrics and om (om_len bytes) to those that do, from now
 * on. Both are copied. @return 0, or -1 when memory cannot be had (the
 * last bodies stay). */
int metrics_endpoint_publish(struct metrics_endpoint *ep, const char *text, size_t len,
                             const char *type, const char *om, size_t om_len,
                             const char *om_type);

/* Waits until a scrape has been answered with what was published last,
 * or timeout_ms passed. @return 1 when it was scraped, 0 on timeout. */
int metrics_endpoint_wait_scrape(struct metrics_endpoint *ep, int64_t timeout_ms);


/* Stops the thread, closes the socket and frees ep (NULL: nothing). */
void metrics_endpoint_stop(struct metrics_endpoint *ep);

#endif
