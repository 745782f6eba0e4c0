/* serve_broker: the STOMP subscriptions of every serve connection, and the
 * delivery of MESSAGE frames to them, as VDSM's stompserver does it.
 *
 * A reply goes to every subscription of its reply-to destination, on any
 * connection; a SEND is forwarded to the subscribers of its destination
 * and of that destination's dot-separated parents. Subscriptions sit in one
 * chained hash table keyed by destination, so a delivery costs a lookup,
 * not a walk over every connection.
 *
 * Bounds: a connection holds at most a few subscriptions (serve_stomp.c),
 * and a subscriber that does not read gets no further copies of others'
 * messages while BROKER_BACKLOG bytes already wait for it: its copy is
 * dropped and counted. The requester's own replies are never dropped; they
 * are bounded by its own flow control (reading pauses while they wait). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/serve_conn_int.h"
#include "net/stomp.h"

#define FIRST_BUCKETS 64
#define MAX_KV 24 /* header slots of one MESSAGE (pairs plus NULL) */

static uint32_t hash_of(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void link_sub(struct broker *b, struct sub *s)
{
    struct sub **head = &b->buckets[s->hash & (b->nbuckets - 1)];
    s->next = *head;
    *head = s;
}

/* Doubles the table when chains would grow long; on no memory keeps it. */
static void grow(struct broker *b)
{
    size_t n = b->nbuckets ? b->nbuckets * 2 : FIRST_BUCKETS;
    struct sub **nb = calloc(n, sizeof *nb), **old = b->buckets;
    size_t oldn = b->nbuckets;
    if (!nb)
        return;
    b->buckets = nb;
    b->nbuckets = n;
    for (size_t i = 0; i < oldn; i++) {
        while (old[i]) {
            struct sub *s = old[i];
            old[i] = s->next;
            link_sub(b, s);
        }
    }
    free(old);
}

void broker_subscribe(struct serve_ctx *ctx, struct sub *s)
{
    struct broker *b = &ctx->broker;
    s->hash = hash_of(s->dest, strlen(s->dest));
    if (b->nsubs >= b->nbuckets)
        grow(b);
    if (!b->nbuckets) { /* not even the first table: keep s out of reach */
        s->next = NULL;
        return;
    }
    link_sub(b, s);
    b->nsubs++;
}

void broker_unsubscribe(struct serve_ctx *ctx, struct sub *s)
{
    struct broker *b = &ctx->broker;
    if (b->nbuckets) {
        for (struct sub **p = &b->buckets[s->hash & (b->nbuckets - 1)]; *p; p = &(*p)->next) {
            if (*p == s) {
                *p = s->next;
                b->nsubs--;
                break;
            }
        }
    }
    free(s);
}

void broker_free(struct serve_ctx *ctx)
{
    free(ctx->broker.buckets); /* the subscriptions went with their connections */
    ctx->broker.buckets = NULL;
    ctx->broker.nbuckets = ctx->broker.nsubs = 0;
}

/* Queues one MESSAGE for s. @return 0, 1 skipped, -1 out of memory. */
static int deliver_one(struct sconn *from, const struct sub *s, const char *dest,
                       const char *ctype, const char *const *extra, const char *body, size_t len)
{
    struct sconn *t = s->c;
    struct broker *b = &from->ctx->broker;
    if (t != from && t->out.len - t->out_off > BROKER_BACKLOG) {
        b->dropped_copies++;
        return 1;
    }
    const char *kv[MAX_KV];
    size_t k = 0;
    char mid[32];
    kv[k++] = "destination", kv[k++] = dest, kv[k++] = "subscription", kv[k++] = s->id;
    if (ctype)
        kv[k++] = "content-type", kv[k++] = ctype;
    for (size_t i = 0; extra && extra[i] && k + 6 < MAX_KV; i += 2)
        kv[k++] = extra[i], kv[k++] = extra[i + 1];
    if (s->ack) { /* STOMP 1.2: the client ACKs by the ack header's value */
        snprintf(mid, sizeof mid, "%llu", (unsigned long long)++b->message_id);
        kv[k++] = "message-id", kv[k++] = mid, kv[k++] = "ack", kv[k++] = mid;
    }
    kv[k] = NULL;
    if (stomp_render(&t->out, "MESSAGE", kv, body, len) < 0) {
        if (t == from)
            return -1;
        b->dropped_copies++;
        return 1;
    }
    if (t != from)
        t->wire->queued(t);
    return 0;
}

/* Delivers to the subscriptions of exactly key[0..n). */
static int deliver_key(struct sconn *from, const char *key, size_t n, const char *dest,
                       const char *ctype, const char *const *extra, const char *body,
                       size_t len)
{
    struct broker *b = &from->ctx->broker;
    if (!b->nbuckets)
        return 0;
    uint32_t h = hash_of(key, n);
    int reached = 0;
    for (const struct sub *s = b->buckets[h & (b->nbuckets - 1)]; s; s = s->next) {
        if (s->hash != h || strncmp(s->dest, key, n) || s->dest[n] || s->c->close_after)
            continue;
        int r = deliver_one(from, s, dest, ctype, extra, body, len);
        if (r < 0)
            return -1;
        reached++; /* matched, even when its copy was dropped */
    }
    return reached;
}

int broker_deliver(struct sconn *from, const char *dest, int parents, const char *ctype,
                   const char *const *extra, const char *body, size_t len)
{
    size_t n = strlen(dest);
    int reached = 0;
    for (size_t i = 0; parents && i < n; i++) {
        if (dest[i] != '.')
            continue;
        int r = deliver_key(from, dest, i, dest, ctype, extra, body, len);
        if (r < 0)
            return -1;
        reached += r;
    }
    int r = deliver_key(from, dest, n, dest, ctype, extra, body, len);
    if (r < 0)
        return -1;
    return reached + r;
}
