/* test_hdrlog: V2 encoding round trips, the compressed payload's bytes,
 * strict base64 and the decode errors, the interval log and percentile
 * table layouts, the writer's one deflate state.
 *
 * With HDRLOG_OUT=path set it also writes, for tests/it_hdrlog_java.sh, an
 * interval log at path, the numbers the Java reader must report at
 * path.expect, and rpcbench's percentile table at path.pct. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "base/buf.h"
#include "stats/hdrlog.h"
#include "stats/hist.h"
#include "stats/hist_testing.h"
#include "stats/inflate.h"
#include "base/units.h"

#define START_EPOCH 1700000000.0

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void assert_same_hist(const struct hist *a, const struct hist *b)
{
    assert_int_equal(a->lowest, b->lowest);
    assert_int_equal(a->highest, b->highest);
    assert_int_equal(a->sigfigs, b->sigfigs);
    assert_int_equal(a->counts_len, b->counts_len);
    assert_int_equal(a->total_count, b->total_count);
    assert_memory_equal(a->counts, b->counts, (size_t)a->counts_len * sizeof(int64_t));
}

/* Encode, decode, compare counts, and check re-encoding is byte-identical. */
static void round_trip(const struct hist *h)
{
    struct buf enc = {0}, again = {0};
    struct hist back;
    char err[ERR_LEN] = "";
    assert_int_equal(hdrlog_encode(h, &enc), 0);
    assert_int_equal(strncmp(enc.data, "HISTF", 5), 0); /* 0x1c849314, as Java writes */
    int rc = hdrlog_decode(enc.data, enc.len, &back, err);
    if (rc != 0)
        fail_msg("decode: %s", err);
    assert_same_hist(h, &back);
    if (h->total_count) {
        assert_int_equal(hist_lowest_equivalent(h, back.min), hist_lowest_equivalent(h, h->min));
        assert_int_equal(hist_index_for(h, back.max), hist_index_for(h, h->max));
    }
    assert_int_equal(hdrlog_encode(&back, &again), 0);
    assert_int_equal(again.len, enc.len);
    assert_string_equal(again.data, enc.data);
    hist_close(&back);
    buf_free(&enc);
    buf_free(&again);
}

/* The envelope bytes behind an encoding: EVP_DecodeBlock's output less
 * the zero bytes it decodes the '=' padding to. */
static void unbase64(const struct buf *enc, struct buf *raw)
{
    size_t pad = 0;
    while (pad < 2 && pad < enc->len && enc->data[enc->len - 1 - pad] == '=')
        pad++;
    assert_int_equal(buf_reserve(raw, enc->len / 4 * 3), 0);
    int n = EVP_DecodeBlock((unsigned char *)raw->data, (const unsigned char *)enc->data,
                            (int)enc->len);
    assert_int_equal(n, (int)(enc->len / 4 * 3));
    raw->len = (size_t)n - pad;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The V2 payload inside an encoding (into plain), via the envelope's zlib
 * stream. @return the stream's length. */
static size_t payload_of(const struct buf *enc, struct buf *plain)
{
    struct buf raw = {0};
    char err[ERR_LEN] = "";
    unbase64(enc, &raw);
    const unsigned char *p = (const unsigned char *)raw.data;
    size_t zlen = be32(p + 4);
    assert_int_equal(zlen, raw.len - 8);
    if (inflate_zlib(p + 8, zlen, plain, err) != 0)
        fail_msg("inflate: %s", err);
    buf_free(&raw);
    return zlen;
}

/* Appends to env the compressed V2 envelope around payload p[0..n), as
 * Java writes it: cookie, zlib length, zlib stream. */
static void envelope(const unsigned char *p, size_t n, struct buf *env)
{
    uLongf zlen = compressBound(n);
    unsigned char head[8] = {0x1c, 0x84, 0x93, 0x14};
    assert_int_equal(buf_reserve(env, 8 + zlen), 0);
    assert_int_equal(compress2((Bytef *)env->data + env->len + 8, &zlen, p, n, 9), Z_OK);
    for (int i = 0; i < 4; i++)
        head[4 + i] = (unsigned char)(zlen >> (24 - 8 * i));
    memcpy(env->data + env->len, head, 8);
    env->len += 8 + zlen;
}

/* Expects decode of s[0..n) to fail with a message containing `needle`. */
static void expect_text_error(const char *s, size_t n, const char *needle)
{
    struct hist h;
    char err[ERR_LEN] = "";
    assert_int_equal(hdrlog_decode(s, n, &h, err), -1);
    if (!strstr(err, needle))
        fail_msg("\"%.*s\": error \"%s\" lacks \"%s\"", (int)n, s, err, needle);
    assert_null(h.counts);
}

/* Wraps raw envelope bytes as base64 and expects decode to fail with a
 * message containing `needle`. */
static void expect_decode_error(const unsigned char *p, size_t n, const char *needle)
{
    struct buf b64 = {0};
    assert_int_equal(buf_reserve(&b64, (n + 2) / 3 * 4), 0);
    b64.len = (size_t)EVP_EncodeBlock((unsigned char *)b64.data, p, (int)n);
    expect_text_error(b64.data, b64.len, needle);
    buf_free(&b64);
}

/* Base64 is read strictly, though EVP_DecodeBlock alone would take blanks
 * around the text and '=' anywhere; the padding is not counted as bytes,
 * whichever of 0, 1 or 2 '=' an encoding ends in. */
static void test_base64(void **state)
{
    (void)state;
    static const char *bad[] = {"Zm9",  "Zm=v", "Zm9v====",   "Z!9v",     "Zg==Zg==",
                                "=Zg=", "Zg=A", "Zm9v\n\n\n\n", "    Zm9v", "Zm9vZm\r\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        expect_text_error(bad[i], strlen(bad[i]), "bad base64");
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    int seen = 0; /* bit k: an encoding with k '=' */
    for (int64_t v = 1; seen != 7 && v < 1000; v++) {
        struct buf enc = {0}, raw = {0};
        hist_record(&h, v * v);
        assert_int_equal(hdrlog_encode(&h, &enc), 0);
        const char *end = enc.data + enc.len;
        seen |= 1 << (end[-1] != '=' ? 0 : end[-2] != '=' ? 1 : 2);
        round_trip(&h);
        unbase64(&enc, &raw);
        /* 1 to 3 bytes short, ending in each padding: none of it counts */
        for (size_t cut = 1; cut <= 3; cut++)
            expect_decode_error((unsigned char *)raw.data, raw.len - cut, "past the end");
        buf_free(&enc);
        buf_free(&raw);
    }
    assert_int_equal(seen, 7);
    hist_close(&h);
}

/* The exact payload for a histogram holding one value 3, in a zlib stream
 * that is compressed (not stored) and says its length right. */
static void test_known_bytes(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record(&h, 3);
    struct buf enc = {0}, raw = {0}, plain = {0};
    assert_int_equal(hdrlog_encode(&h, &enc), 0);
    static const unsigned char want[] = {
        0x1c, 0x84, 0x93, 0x13, 0, 0, 0, 2,        /* payload cookie, payload length */
        0, 0, 0, 0, 0, 0, 0, 3,                    /* normalizing offset, sigfigs */
        0, 0, 0, 0, 0, 0, 0, 1,                    /* lowest */
        0, 0, 0, 0, 0xd6, 0x93, 0xa4, 0,           /* highest 3600000000 */
        0x3f, 0xf0, 0, 0, 0, 0, 0, 0,              /* ratio 1.0 */
        0x05, 0x02,                                /* -3 (three zeros), then 1 */
    };
    size_t zlen = payload_of(&enc, &plain);
    assert_int_equal(plain.len, sizeof(want));
    assert_memory_equal(plain.data, want, sizeof(want));
    unbase64(&enc, &raw);
    const unsigned char *p = (const unsigned char *)raw.data;
    assert_int_equal(be32(p), 0x1c849314); /* envelope cookie, as Java writes it */
    assert_int_equal(raw.len, 8 + zlen);
    assert_int_equal(p[8], 0x78);           /* zlib header: DEFLATE, 32 KiB window */
    assert_int_not_equal(p[10] >> 1 & 3, 0); /* first block's BTYPE: not stored */
    buf_free(&enc);
    buf_free(&raw);
    buf_free(&plain);
    hist_close(&h);
}

/* What rpcbench wrote before zlib compressed for it (one value 3, the
 * payload in a DEFLATE stored block): saved results and logs of those
 * versions still read. */
static void test_stored_encoding(void **state)
{
    (void)state;
    static const char old[] =
        "HISTFAAAADV4AQEqANX/HISTEwAAAAIAAAAAAAAAAwAAAAAAAAABAAAAANaTpAA/8AAAAAAAAAUCWjoEkA==";
    struct hist h;
    char err[ERR_LEN] = "";
    if (hdrlog_decode(old, strlen(old), &h, err) != 0)
        fail_msg("decode: %s", err);
    assert_int_equal(h.total_count, 1);
    assert_int_equal(h.counts[hist_index_for(&h, 3)], 1);
    assert_int_equal(h.min, 3);
    hist_close(&h);
}

static void test_round_trip(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    round_trip(&h); /* empty */
    hist_record(&h, 0);
    round_trip(&h);
    uint64_t seed = 7;
    for (int i = 0; i < 50000; i++)
        hist_record(&h, (int64_t)(lcg(&seed) % 100000) * (i % 10 == 0 ? 1000 : 1));
    hist_record_n(&h, INT64_C(1) << 40, INT64_C(1) << 50); /* counts needing 8+ varint bytes */
    hist_record(&h, INT64_MAX);                         /* clamped to highest */
    round_trip(&h);
    hist_close(&h);

    /* Every bucket non-empty with large counts: a payload over 64 KiB,
     * inflated a chunk at a time, that its equal counts let zlib shrink to
     * a small fraction. */
    assert_int_equal(hist_init_latency(&h), 0);
    for (int32_t i = 0; i < h.counts_len; i++)
        hist_record_n(&h, hist_value_at_index(&h, i) > h.highest ? h.highest
                                                                  : hist_value_at_index(&h, i),
                      INT64_C(1) << 45);
    struct buf enc = {0}, plain = {0};
    assert_int_equal(hdrlog_encode(&h, &enc), 0);
    size_t zlen = payload_of(&enc, &plain);
    assert_true(plain.len > 65536);
    assert_true(zlen < plain.len / 20);
    buf_free(&enc);
    buf_free(&plain);
    round_trip(&h);
    hist_close(&h);

    /* Another layout: unit magnitude and sigfigs survive. */
    assert_int_equal(hist_init(&h, 1000, INT64_C(1000000000000), 2), 0);
    for (int64_t v = 1000; v < INT64_C(1000000000000); v = v * 3 + 7)
        hist_record(&h, v);
    round_trip(&h);
    hist_close(&h);
}

static void test_decode_errors(void **state)
{
    (void)state;
    expect_text_error("not base64!", 11, "bad base64");

    struct hist src;
    struct buf enc = {0}, raw = {0}, plain = {0};
    assert_int_equal(hist_init_latency(&src), 0);
    hist_record(&src, 3);
    assert_int_equal(hdrlog_encode(&src, &enc), 0);
    unbase64(&enc, &raw);
    unsigned char *p = (unsigned char *)raw.data;
    size_t n = raw.len;

    p[0] ^= 0x01; /* cookie */
    expect_decode_error(p, n, "not a compressed V2");
    p[0] ^= 0x01;
    p[n - 1] ^= 0xff; /* adler32 */
    expect_decode_error(p, n, "checksum");
    p[n - 1] ^= 0xff;
    expect_decode_error(p, n - 6, "past the end");
    p[7] -= 6; /* truncated, and the envelope says so: the zlib data ends early */
    expect_decode_error(p, n - 6, "ends early");
    p[7] += 6;
    p[10] |= 0x07; /* first block final, BTYPE 11: reserved */
    expect_decode_error(p, n, "bad block type");
    p[10] &= ~0x06; /* stored: the compressed bytes read as lengths go wrong */
    expect_decode_error(p, n, "hdr histogram: ");

    /* Significant digits 9: a layout hist_init refuses, in a stream that
     * inflates well, so the payload check is what fails. */
    payload_of(&enc, &plain);
    plain.data[15] = 9;
    buf_reset(&raw);
    envelope((unsigned char *)plain.data, plain.len, &raw);
    expect_decode_error((unsigned char *)raw.data, raw.len, "bad layout");
    buf_free(&enc);
    buf_free(&plain);

    /* Counts past the layout: lowest 1, highest 2, 1 digit gives 20 slots;
     * a payload of 40 ones overflows them. */
    struct hist tiny;
    assert_int_equal(hist_init(&tiny, 1, 2, 1), 0);
    hist_record(&tiny, 2);
    assert_int_equal(hdrlog_encode(&tiny, &enc), 0);
    payload_of(&enc, &plain);
    unsigned char payload[40 + 40];
    memcpy(payload, plain.data, 40);
    memset(payload + 40, 0x02, 40);
    payload[7] = 40; /* payload length */
    buf_reset(&raw);
    envelope(payload, sizeof(payload), &raw);
    expect_decode_error((unsigned char *)raw.data, raw.len, "overflow");
    buf_free(&raw);
    buf_free(&enc);
    buf_free(&plain);
    hist_close(&tiny);
    hist_close(&src);
}

/* Three intervals with known contents (also what the Java check reads). */
static void fill_interval(struct hist *h, int which)
{
    hist_reset(h);
    if (which == 0) {
        for (int v = 1; v <= 1000; v++)
            hist_record(h, v);
    } else if (which == 1) {
        hist_record_n(h, 5000, 1000);
        hist_record_n(h, 200000, 10);
    } else {
        uint64_t seed = 99;
        for (int i = 0; i < 5000; i++)
            hist_record(h, (int64_t)(lcg(&seed) % 10000000));
        hist_record(h, INT64_C(10000000000)); /* clamped to 1 h */
    }
}

static void write_log(FILE *f, struct hist *merged)
{
    struct hdrlog_writer w;
    struct hist h;
    char err[ERR_LEN] = "";
    assert_int_equal(hist_init_latency(&h), 0);
    assert_int_equal(hdrlog_writer_open(&w, f, START_EPOCH, 1000.0, NULL, err), 0);
    for (int i = 0; i < 3; i++) {
        fill_interval(&h, i);
        assert_int_equal(hdrlog_write_interval(&w, i, 1.0, &h, err), 0);
        if (merged)
            assert_int_equal(hist_merge(merged, &h), 0);
    }
    assert_int_equal(hdrlog_close(&w, err), 0);
    hist_close(&h);
}

static void test_log_shape(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    write_log(f, NULL);
    fclose(f);

    char *save = NULL, *line = strtok_r(text, "\n", &save);
    assert_string_equal(line, "#[Histogram log format version 1.3]");
    line = strtok_r(NULL, "\n", &save);
    assert_int_equal(strncmp(line, "#[StartTime: 1700000000.000 (seconds since epoch), ", 51), 0);
    assert_int_equal(line[strlen(line) - 1], ']');
    line = strtok_r(NULL, "\n", &save);
    assert_string_equal(line, "#[BaseTime: 1700000000.000 (seconds since epoch)]");
    line = strtok_r(NULL, "\n", &save);
    assert_true(line[0] == '#' && strstr(line, "microseconds") && strstr(line, "intended"));
    line = strtok_r(NULL, "\n", &save);
    assert_string_equal(line, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                              "\"Interval_Compressed_Histogram\"");
    static const char *prefix[3] = {"0.000,1.000,1.000,HISTF", "1.000,1.000,200.063,HISTF",
                                    "2.000,1.000,3600809.983,HISTF"};
    struct hist h, back;
    assert_int_equal(hist_init_latency(&h), 0);
    for (int i = 0; i < 3; i++) {
        line = strtok_r(NULL, "\n", &save);
        assert_non_null(line);
        if (strncmp(line, prefix[i], strlen(prefix[i])) != 0)
            fail_msg("line %d: \"%.40s\" want prefix \"%s\"", i, line, prefix[i]);
        const char *b64 = strrchr(line, ',') + 1;
        char err[ERR_LEN] = "";
        assert_int_equal(hdrlog_decode(b64, strlen(b64), &back, err), 0);
        fill_interval(&h, i);
        assert_same_hist(&h, &back);
        hist_close(&back);
    }
    assert_null(strtok_r(NULL, "\n", &save));
    hist_close(&h);
    free(text);
}

/* One writer, one deflate state for all its intervals: each line holds
 * the very bytes hdrlog_encode (a fresh state) gives, whatever interval
 * came before it (a wide one, then small, empty, wide again), and a
 * writer that is closed writes no more. */
static void test_writer_reuse(void **state)
{
    (void)state;
    struct hist h[4];
    uint64_t seed = 7;
    for (int i = 0; i < 4; i++)
        assert_int_equal(hist_init_latency(&h[i]), 0);
    for (int i = 0; i < 40000; i++) /* buckets all over: a payload of many KiB */
        hist_record(&h[0], (int64_t)(lcg(&seed) % 3000000000u) + 1);
    hist_record_n(&h[1], 250, 1000);
    assert_int_equal(hist_merge(&h[3], &h[0]), 0);

    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    struct hdrlog_writer w;
    char err[ERR_LEN] = "";
    assert_int_equal(hdrlog_writer_open(&w, f, START_EPOCH, 1000.0, NULL, err), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(hdrlog_write_interval(&w, i, 1.0, &h[i], err), 0);
    assert_int_equal(hdrlog_close(&w, err), 0);
    assert_int_equal(hdrlog_write_interval(&w, 4, 1.0, &h[0], err), -1);
    assert_non_null(strstr(err, "not open"));
    assert_int_equal(hdrlog_close(&w, err), 0); /* twice: harmless */
    assert_int_equal(fclose(f), 0);

    char *save = NULL, *line = strtok_r(text, "\n", &save);
    int i = 0;
    for (; line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '"')
            continue;
        assert_true(i < 4);
        struct buf one = {0};
        assert_int_equal(hdrlog_encode(&h[i], &one), 0);
        assert_string_equal(strrchr(line, ',') + 1, one.data);
        buf_free(&one);
        i++;
    }
    assert_int_equal(i, 4);
    free(text);
    for (int k = 0; k < 4; k++)
        hist_close(&h[k]);
}

static void test_percentile_table(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    for (int v = 1; v <= 4; v++)
        hist_record(&h, v * 100);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_int_equal(hdrlog_write_percentiles(f, &h, 100.0, 5), 0);
    fclose(f);
    static const char *want_lines[] = {
        "       Value     Percentile TotalCount 1/(1-Percentile)\n\n",
        "       1.000 0.000000000000          1           1.00\n",
        "       1.000 0.100000000000          1           1.11\n",
        "       2.000 0.300000000000          2           1.43\n",
        "       4.000 0.775000000000          4           4.44\n",
        "       4.000 1.000000000000          4\n",
        "#[Mean    =        2.500, StdDeviation   =        1.118]\n",
        "#[Max     =        4.000, Total count    =            4]\n",
        "#[Buckets =           22, SubBuckets     =         2048]\n",
    };
    for (size_t i = 0; i < sizeof(want_lines) / sizeof(want_lines[0]); i++)
        if (!strstr(text, want_lines[i]))
            fail_msg("table lacks \"%s\":\n%s", want_lines[i], text);
    /* Rows: 0..20 % at 1000, 30..50 % at 2000, 55..75 % at 3000, then 77.5 % and 100 %. */
    int rows = 0;
    for (char *p = text; (p = strchr(p, '\n')); p++)
        rows++;
    assert_int_equal(rows, 2 + 13 + 3);
    free(text);

    /* Ties round half-up from the shortest decimal, as Java's Formatter
     * does: 1235 / 10000 is 0.1235, printed 0.124 (C's printf says 0.123). */
    hist_reset(&h);
    hist_record(&h, 1235);
    text = NULL;
    f = open_memstream(&text, &size);
    assert_int_equal(hdrlog_write_percentiles(f, &h, 10000.0, 5), 0);
    fclose(f);
    assert_non_null(strstr(text, "\n       0.124 0.000000000000          1           1.00\n"));
    assert_non_null(strstr(text, "#[Max     =        0.124, Total count    =            1]"));
    free(text);

    /* Empty: header and footer only. */
    hist_reset(&h);
    text = NULL;
    f = open_memstream(&text, &size);
    assert_int_equal(hdrlog_write_percentiles(f, &h, 1.0, 5), 0);
    fclose(f);
    assert_non_null(strstr(text, "1/(1-Percentile)\n\n#[Mean    ="));
    assert_non_null(strstr(text, "Total count    =            0]"));
    free(text);
    hist_close(&h);
}

/* For tests/it_hdrlog_java.sh: the log and what Java should say about it,
 * written to $HDRLOG_OUT (main() runs it alone, and only when that is set). */
static void test_java_fixture(void **state)
{
    (void)state;
    const char *path = getenv("HDRLOG_OUT");
    assert_non_null(path);
    char other[4096];
    struct hist merged, h;
    assert_int_equal(hist_init_latency(&merged), 0);
    assert_int_equal(hist_init_latency(&h), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    write_log(f, &merged);
    assert_int_equal(fclose(f), 0);
    /* Java reads only the buckets: its max is the top of the max's bucket,
     * and rpcbench clamps percentiles to the max it knows. */
    merged.max = hist_highest_equivalent(&merged, merged.max);

    snprintf(other, sizeof(other), "%s.expect", path);
    f = fopen(other, "w");
    assert_non_null(f);
    for (int i = 0; i < 3; i++) {
        fill_interval(&h, i);
        fprintf(f, "interval %d start=%.3f count=%lld max=%lld\n", i + 1, START_EPOCH + i,
                (long long)h.total_count, (long long)hist_highest_equivalent(&h, h.max));
    }
    fprintf(f, "total=%lld p50=%lld p99=%lld p99.9=%lld max=%lld\n",
            (long long)merged.total_count, (long long)hist_percentile(&merged, 50),
            (long long)hist_percentile(&merged, 99), (long long)hist_percentile(&merged, 99.9),
            (long long)hist_highest_equivalent(&merged, merged.max));
    assert_int_equal(fclose(f), 0);

    snprintf(other, sizeof(other), "%s.pct", path);
    f = fopen(other, "w");
    assert_non_null(f);
    assert_int_equal(hdrlog_write_percentiles(f, &merged, 1.0, 5), 0);
    assert_int_equal(fclose(f), 0);
    hist_close(&h);
    hist_close(&merged);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64),
        cmocka_unit_test(test_known_bytes),
        cmocka_unit_test(test_stored_encoding),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_decode_errors),
        cmocka_unit_test(test_log_shape),
        cmocka_unit_test(test_writer_reuse),
        cmocka_unit_test(test_percentile_table),
    };
    /* tests/it_hdrlog_java.sh sets HDRLOG_OUT and wants the fixture alone;
     * a plain run leaves it out rather than counting it as a skip. */
    const struct CMUnitTest fixture[] = {cmocka_unit_test(test_java_fixture)};
    const char *out = getenv("HDRLOG_OUT");
    if (out && *out)
        return cmocka_run_group_tests(fixture, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
