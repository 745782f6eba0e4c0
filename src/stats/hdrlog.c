/* hdrlog: HdrHistogram's V2 encoding, interval log and percentile table.
 *
 * Byte layout of an encoded histogram (all integers big-endian):
 *   compressed envelope: cookie 0x1c849314, int32 length, zlib stream
 *   (zlib's deflate writes it, inflate.h reads it) of
 *   V2 payload: cookie 0x1c849313, int32 payload length,
 *               int32 normalizingIndexOffset (0), int32 significant digits,
 *               int64 lowest, int64 highest, double int-to-double ratio (1.0),
 *               counts as ZigZag LEB128 varints (9 bytes at most), a run of
 *               n > 1 zero counts written as the single count -n.
 * The 0x10 in both cookies is what the Java and C writers add ("word size"
 * bits); readers mask the 0xf0 nibble off, so we do the same. */
#include "stats/hdrlog.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "base/units.h"
#include "stats/inflate.h"

#define V2_ENCODING_COOKIE 0x1c849313u
#define V2_COMPRESSED_COOKIE 0x1c849314u
#define COOKIE_BASE(c) ((c) & ~0xf0u)
#define V2_HEADER_LEN 40

/* ---- byte helpers --------------------------------------------------- */

static void set_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static int put_be32(struct buf *b, uint32_t v)
{
    unsigned char p[4];
    set_be32(p, v);
    return buf_append(b, p, 4);
}

static int put_be64(struct buf *b, uint64_t v)
{
    return put_be32(b, (uint32_t)(v >> 32)) < 0 ? -1 : put_be32(b, (uint32_t)v);
}

static uint32_t get_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const unsigned char *p)
{
    return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* ZigZag then LEB128 as Java's ZigZagEncoding.putLong: 7 bits a byte for
 * eight bytes, and a ninth byte holding the top 8 bits whole. */
static int put_varint(struct buf *b, int64_t value)
{
    uint64_t v = ((uint64_t)value << 1) ^ (uint64_t)(value >> 63);
    unsigned char tmp[9];
    int n = 0;
    while (n < 8 && v >> 7) {
        tmp[n++] = (unsigned char)((v & 0x7f) | 0x80);
        v >>= 7;
    }
    tmp[n++] = (unsigned char)v; /* at n == 8 this is the whole top byte */
    return buf_append(b, tmp, (size_t)n);
}

/* @return bytes read, or 0 when the input ends mid-varint. */
static size_t get_varint(const unsigned char *p, size_t n, int64_t *out)
{
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < 9; i++) {
        if (i >= n)
            return 0;
        if (i == 8) {
            v |= (uint64_t)p[i] << 56;
            break;
        }
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80))
            break;
    }
    *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
    return i + 1;
}

/* ---- base64 --------------------------------------------------------- */

/* Appends p[0..n) as base64 to out (NUL-terminated, the NUL not counted).
 * @return 0, or -1 when memory cannot be had or n is past what
 * EVP_EncodeBlock's int lengths hold. */
static int base64_encode(const unsigned char *p, size_t n, struct buf *out)
{
    if (n > INT_MAX / 4 * 3 || buf_reserve(out, (n + 2) / 3 * 4) < 0)
        return -1;
    out->len += (size_t)EVP_EncodeBlock((unsigned char *)out->data + out->len, p, (int)n);
    return 0;
}

/* Appends the bytes that s[0..n) encodes to out. Strict where
 * EVP_DecodeBlock is lax: it skips blanks and line ends around the text and
 * reads '=' anywhere as 'A', where rpcbench takes only the standard
 * alphabet, length a multiple of 4, '=' as the last one or two characters.
 * EVP_DecodeBlock also counts the padding as decoded (zero) bytes.
 * @return 0, or -1 on bad input or no memory (out->len unchanged). */
static int base64_decode(const char *s, size_t n, struct buf *out)
{
    size_t pad = 0;
    while (pad < 2 && pad < n && s[n - 1 - pad] == '=')
        pad++;
    if (n % 4 != 0 || n > INT_MAX || memchr(s, '=', n - pad) || buf_reserve(out, n / 4 * 3) < 0)
        return -1;
    int got = EVP_DecodeBlock((unsigned char *)out->data + out->len, (const unsigned char *)s,
                              (int)n);
    if (got != (int)(n / 4 * 3))
        return -1; /* a bad character (-1), or blanks it trimmed (fewer) */
    out->len += (size_t)got - pad;
    out->data[out->len] = '\0';
    return 0;
}

/* ---- encode --------------------------------------------------------- */

/* The V2 payload: header then counts up to the max value's index. */
static int encode_payload(const struct hist *h, struct buf *b)
{
    union { double d; uint64_t u; } ratio = {.d = 1.0};
    if (put_be32(b, V2_ENCODING_COOKIE) < 0 || put_be32(b, 0) < 0 || put_be32(b, 0) < 0 ||
        put_be32(b, (uint32_t)h->sigfigs) < 0 || put_be64(b, (uint64_t)h->lowest) < 0 ||
        put_be64(b, (uint64_t)h->highest) < 0 || put_be64(b, ratio.u) < 0)
        return -1;
    int32_t limit = hist_index_for(h, h->max) + 1;
    for (int32_t i = 0; i < limit;) {
        int64_t count = h->counts[i++];
        int64_t zeros = 0;
        if (count == 0) {
            zeros = 1;
            while (i < limit && h->counts[i] == 0) {
                zeros++;
                i++;
            }
        }
        if (put_varint(b, zeros > 1 ? -zeros : count) < 0)
            return -1;
    }
    set_be32((unsigned char *)b->data + 4, (uint32_t)(b->len - V2_HEADER_LEN));
    return 0;
}

/* The deflate level of every encoding, the writer's and the one-shot's:
 * the fastest. The interval log compresses inside the load loop, where
 * the default level's lazy match search takes much longer, most of all on
 * a histogram with many distinct buckets, for output at most a few percent
 * smaller. Every inflater reads any level, Java's included. */
#define DEFLATE_LEVEL Z_BEST_SPEED

/* @return 0 with z ready to compress, or -1 when zlib cannot have the
 * memory for its state (z then holds nothing to free). */
static int deflate_open(z_stream *z)
{
    memset(z, 0, sizeof(*z)); /* zalloc, zfree, opaque: zlib's malloc and free */
    return deflateInit(z, DEFLATE_LEVEL) == Z_OK ? 0 : -1;
}

/* The envelope: cookie, length, then the payload as a zlib stream that z
 * (deflate_open'd; reset here, so a stream an earlier call left half done
 * is fine) compresses. @return 0, or -1 when memory cannot be had. */
static int encode_envelope(z_stream *z, const struct buf *payload, struct buf *env)
{
    uLong bound = deflateBound(z, payload->len); /* room for all in one deflate */
    if (payload->len > UINT_MAX || bound > UINT_MAX || deflateReset(z) != Z_OK ||
        put_be32(env, V2_COMPRESSED_COOKIE) < 0 || put_be32(env, 0) < 0 ||
        buf_reserve(env, bound) < 0)
        return -1;
    z->next_in = (Bytef *)payload->data;
    z->avail_in = (uInt)payload->len;
    z->next_out = (Bytef *)env->data + env->len;
    z->avail_out = (uInt)bound;
    if (deflate(z, Z_FINISH) != Z_STREAM_END)
        return -1;
    size_t zlen = bound - z->avail_out;
    env->len += zlen;
    set_be32((unsigned char *)env->data + 4, (uint32_t)zlen);
    return 0;
}

/* The whole encoding of h, appended to out, compressed by z; payload and
 * env are scratch (emptied here, their memory kept). */
static int encode_with(const struct hist *h, z_stream *z, struct buf *payload, struct buf *env,
                       struct buf *out)
{
    buf_reset(payload);
    buf_reset(env);
    if (encode_payload(h, payload) < 0 || encode_envelope(z, payload, env) < 0)
        return -1;
    return base64_encode((const unsigned char *)env->data, env->len, out);
}

int hdrlog_encode(const struct hist *h, struct buf *out)
{
    z_stream z;
    struct buf payload = {0}, env = {0};
    if (deflate_open(&z) < 0)
        return -1;
    int rc = encode_with(h, &z, &payload, &env, out);
    deflateEnd(&z);
    buf_free(&payload);
    buf_free(&env);
    return rc;
}

/* ---- decode --------------------------------------------------------- */

/* min, max, total and the sums, from the buckets (bucket midpoints stand
 * in for the values, as HdrHistogram's mean does). */
static void rebuild_stats(struct hist *h)
{
    for (int32_t i = 0; i < h->counts_len; i++) {
        int64_t c = h->counts[i];
        if (c == 0)
            continue;
        int64_t lo = hist_value_at_index(h, i);
        int64_t hi = hist_highest_equivalent(h, lo);
        double mid = (double)(lo + ((hi - lo + 1) >> 1)); /* medianEquivalentValue */
        if (h->total_count == 0)
            h->min = lo;
        h->max = hi;
        h->total_count += c;
        h->sum += mid * (double)c;
        h->sum_sq += mid * mid * (double)c;
    }
}

static int decode_counts(const unsigned char *p, size_t n, struct hist *h, char *err)
{
    int32_t idx = 0;
    size_t off = 0;
    while (off < n) {
        int64_t v;
        size_t used = get_varint(p + off, n - off, &v);
        if (used == 0) {
            snprintf(err, ERR_LEN, "hdr histogram: counts end mid-number");
            return -1;
        }
        off += used;
        int64_t span = v < 0 ? -v : 1;
        if (v == INT64_MIN || span > h->counts_len - idx) {
            snprintf(err, ERR_LEN, "hdr histogram: counts overflow the bucket layout");
            return -1;
        }
        if (v > 0)
            h->counts[idx] = v;
        idx += (int32_t)span;
    }
    rebuild_stats(h);
    return 0;
}

static int decode_payload(const unsigned char *p, size_t n, struct hist *out, char *err)
{
    if (n < V2_HEADER_LEN || COOKIE_BASE(get_be32(p)) != COOKIE_BASE(V2_ENCODING_COOKIE)) {
        snprintf(err, ERR_LEN, "hdr histogram: not a V2 histogram payload");
        return -1;
    }
    uint32_t payload_len = get_be32(p + 4);
    uint32_t norm = get_be32(p + 8);
    int32_t sigfigs = (int32_t)get_be32(p + 12);
    int64_t lowest = (int64_t)get_be64(p + 16);
    int64_t highest = (int64_t)get_be64(p + 24);
    if (payload_len > n - V2_HEADER_LEN || norm != 0) {
        snprintf(err, ERR_LEN, "hdr histogram: %s",
                 norm ? "normalizing index offset is not supported" : "payload length too long");
        return -1;
    }
    if (hist_init(out, lowest, highest, sigfigs) < 0) {
        snprintf(err, ERR_LEN, "hdr histogram: bad layout (lowest %lld, highest %lld, %d digits)",
                 (long long)lowest, (long long)highest, (int)sigfigs);
        return -1;
    }
    if (decode_counts(p + V2_HEADER_LEN, payload_len, out, err) < 0) {
        hist_close(out);
        return -1;
    }
    return 0;
}

int hdrlog_decode(const char *base64, size_t len, struct hist *out, char *err)
{
    struct buf raw = {0}, plain = {0};
    int rc = -1;
    memset(out, 0, sizeof(*out));
    if (base64_decode(base64, len, &raw) < 0) {
        snprintf(err, ERR_LEN, "hdr histogram: bad base64");
        goto done;
    }
    const unsigned char *p = (const unsigned char *)raw.data;
    if (raw.len < 8 || COOKIE_BASE(get_be32(p)) != COOKIE_BASE(V2_COMPRESSED_COOKIE)) {
        snprintf(err, ERR_LEN, "hdr histogram: not a compressed V2 histogram");
        goto done;
    }
    uint32_t zlen = get_be32(p + 4);
    if (zlen > raw.len - 8) {
        snprintf(err, ERR_LEN, "hdr histogram: compressed length past the end");
        goto done;
    }
    if (inflate_zlib(p + 8, zlen, &plain, err) < 0)
        goto done;
    rc = decode_payload((const unsigned char *)plain.data, plain.len, out, err);
done:
    buf_free(&raw);
    buf_free(&plain);
    return rc;
}

/* ---- interval log --------------------------------------------------- */

static int stream_status(FILE *f, const char *what, char *err)
{
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, ERR_LEN, "hdr log: write error (%s)", what);
        return -1;
    }
    return 0;
}

/* Frees what the writer holds and forgets its FILE (never closed here). */
static void release(struct hdrlog_writer *w)
{
    if (w->z) {
        deflateEnd(w->z);
        free(w->z);
        w->z = NULL;
    }
    buf_free(&w->payload);
    buf_free(&w->env);
    buf_free(&w->scratch);
    w->f = NULL;
}

int hdrlog_writer_open(struct hdrlog_writer *w, FILE *f, double start_epoch_s,
                       double max_ratio, const char *comment, char *err)
{
    memset(w, 0, sizeof(*w));
    /* The one deflate state of the writer's life (hdrlog.h says why). */
    z_stream *z = malloc(sizeof(*z));
    if (!z || deflate_open(z) < 0) {
        free(z);
        snprintf(err, ERR_LEN, "hdr log: out of memory (deflate state)");
        return -1;
    }
    w->z = z;
    w->f = f;
    w->start_epoch_s = start_epoch_s;
    w->max_ratio = max_ratio > 0 ? max_ratio : 1.0;
    /* Date.toString()'s layout, as the Java writer prints it. */
    char date[64] = "";
    struct tm tm;
    time_t t = (time_t)start_epoch_s;
    if (localtime_r(&t, &tm))
        strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Z %Y", &tm);
    fprintf(f, "#[Histogram log format version 1.3]\n");
    fprintf(f, "#[StartTime: %.3f (seconds since epoch), %s]\n", start_epoch_s, date);
    fprintf(f, "#[BaseTime: %.3f (seconds since epoch)]\n", start_epoch_s);
    fprintf(f, "#%s\n", comment ? comment
                                : "[rpcbench: values are microseconds of latency, measured from "
                                  "the intended send time; a line \"" HDRLOG_CENSORED_MARK
                                  "N ...\" says N values of the next interval are lower "
                                  "bounds]");
    fprintf(f, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
               "\"Interval_Compressed_Histogram\"\n");
    if (stream_status(f, "header", err) < 0) {
        release(w);
        return -1;
    }
    return 0;
}

int hdrlog_write_interval(struct hdrlog_writer *w, double start_s, double len_s,
                          const struct hist *h, char *err)
{
    if (!w->z) {
        snprintf(err, ERR_LEN, "hdr log: writer not open");
        return -1;
    }
    buf_reset(&w->scratch);
    if (encode_with(h, w->z, &w->payload, &w->env, &w->scratch) < 0) {
        snprintf(err, ERR_LEN, "hdr log: out of memory");
        return -1;
    }
    double max = h->total_count ? (double)hist_highest_equivalent(h, h->max) : 0.0;
    fprintf(w->f, "%.3f,%.3f,%.3f,%s\n", start_s, len_s, max / w->max_ratio, w->scratch.data);
    return stream_status(w->f, "interval", err);
}

int hdrlog_close(struct hdrlog_writer *w, char *err)
{
    int rc = w->f ? stream_status(w->f, "close", err) : 0;
    release(w);
    return rc;
}

/* ---- percentile table ----------------------------------------------- */

/* Formats v as Java's Formatter does "%<width>.<decimals>f": it takes the
 * shortest decimal that reads back as v and rounds that half-up, where C
 * rounds the exact binary value. They differ on ties such as 0.9997802734375
 * or 1.2345, and the table should match the Java tools' to the digit. */
static void java_fixed(char *out, size_t outlen, int width, int decimals, double v)
{
    if (!isfinite(v)) {
        snprintf(out, outlen, "%*s", width, isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    char sci[48];
    for (int p = 0; p <= 17; p++) {
        snprintf(sci, sizeof(sci), "%.*e", p, fabs(v));
        if (strtod(sci, NULL) == fabs(v))
            break;
    }
    char digits[24];
    int nd = 0;
    char *e = strchr(sci, 'e');
    for (char *q = sci; q < e && nd < (int)sizeof(digits); q++)
        if (*q != '.')
            digits[nd++] = *q;
    int exp10 = atoi(e + 1);
    /* Keep the digits down to 10^-decimals: an integer n of `keep` digits. */
    int keep = exp10 + decimals + 1;
    char n[96];
    if (keep > (int)sizeof(n) - 2 || decimals > 40) { /* beyond any table value */
        snprintf(out, outlen, "%*.*f", width, decimals, v);
        return;
    }
    int len = 0;
    for (int i = 0; i < keep && len < (int)sizeof(n) - 2; i++)
        n[len++] = i < nd ? digits[i] : '0';
    if (keep >= 0 && keep < nd && digits[keep] >= '5') {
        int i = len - 1;
        for (; i >= 0 && n[i] == '9'; i--)
            n[i] = '0';
        if (i >= 0) {
            n[i]++;
        } else {
            memmove(n + 1, n, (size_t)len++);
            n[0] = '1';
        }
    }
    while (len < decimals + 1) { /* at least one integer digit */
        memmove(n + 1, n, (size_t)len++);
        n[0] = '0';
    }
    n[len] = '\0';
    int int_len = len - decimals;
    snprintf(out, outlen, "%s%.*s%s%s", v < 0 ? "-" : "", int_len, n, decimals ? "." : "",
             n + int_len);
    size_t w = strlen(out);
    if ((int)w < width && (size_t)width < outlen) {
        memmove(out + (width - (int)w), out, w + 1);
        memset(out, ' ', (size_t)width - w);
    }
}

/* Java PercentileIterator's next level: steps of 100/ticks where ticks
 * doubles each time the distance to 100 % halves. The exponent is capped so
 * the conversion stays defined when the level rounds to 100. */
static double next_level(double level, int ticks_per_half)
{
    double e = log(100.0 / (100.0 - level)) / log(2.0);
    int64_t k = (e >= 0 && e < 60) ? (int64_t)e + 1 : 61;
    int64_t ticks = (int64_t)ticks_per_half * ((int64_t)1 << k);
    return level + 100.0 / (double)ticks;
}

static void percentile_row(FILE *f, const struct hist *h, int32_t idx, double scale,
                           double level, int64_t running, int last)
{
    char val[64], pct[64], inv[64];
    int64_t v = hist_highest_equivalent(h, hist_value_at_index(h, idx));
    v = v > h->max ? h->max : v < h->min ? h->min : v; /* never past the exact extremes */
    java_fixed(val, sizeof(val), 12, h->sigfigs, (double)v / scale);
    java_fixed(pct, sizeof(pct), 2, 12, level / 100.0);
    if (last) {
        fprintf(f, "%s %s %10lld\n", val, pct, (long long)running);
    } else {
        java_fixed(inv, sizeof(inv), 14, 2, 1.0 / (1.0 - level / 100.0));
        fprintf(f, "%s %s %10lld %s\n", val, pct, (long long)running, inv);
    }
}

/* Walks the counts the way AbstractHistogramIterator + PercentileIterator
 * do: one index may print several rows, and a final row at 100 % repeats
 * the last non-empty bucket. */
static void percentile_rows(FILE *f, const struct hist *h, double scale, int ticks)
{
    int64_t total = h->total_count, running = 0;
    double level = 0.0;
    int32_t idx = 0;
    int32_t last_idx = 0;
    while (running < total && idx < h->counts_len) {
        int64_t c = h->counts[idx];
        running += c;
        while (c != 0 && 100.0 * (double)running / (double)total >= level) {
            percentile_row(f, h, idx, scale, level, running, 0);
            level = next_level(level, ticks);
            last_idx = idx;
            if (running >= total)
                break;
        }
        idx++;
    }
    if (total > 0)
        percentile_row(f, h, last_idx, scale, 100.0, running, 1);
}

int hdrlog_write_percentiles(FILE *f, const struct hist *h, double value_scale,
                             int ticks_per_half_distance)
{
    if (!(value_scale > 0))
        value_scale = 1.0;
    if (ticks_per_half_distance < 1)
        ticks_per_half_distance = 1;
    fprintf(f, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)");
    percentile_rows(f, h, value_scale, ticks_per_half_distance);
    double max = (double)h->max; /* exact; Java knows only the bucket's top */
    char a[64], b[64];
    java_fixed(a, sizeof(a), 12, h->sigfigs, hist_mean(h) / value_scale);
    java_fixed(b, sizeof(b), 12, h->sigfigs, hist_stddev(h) / value_scale);
    fprintf(f, "#[Mean    = %s, StdDeviation   = %s]\n", a, b);
    java_fixed(a, sizeof(a), 12, h->sigfigs, max / value_scale);
    fprintf(f, "#[Max     = %s, Total count    = %12lld]\n", a, (long long)h->total_count);
    fprintf(f, "#[Buckets = %12d, SubBuckets     = %12d]\n", h->bucket_count, h->sub_bucket_count);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
