/* inflate: DEFLATE and the zlib wrapper, decoded (inflate.h). The layout
 * follows RFC 1951 section by section; Huffman codes are canonical, so a
 * table of counts per code length and the symbols in code order decode
 * them one bit at a time. */
#include "stats/inflate.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats/hdrlog.h" /* hdrlog_adler32 */

#define MAXBITS 15
#define MAXLCODES 286
#define MAXDCODES 30
#define FIXLCODES 288

struct in {
    const unsigned char *p;
    size_t n, pos;
    uint32_t bitbuf;
    int bitcnt;
    const char *bad;  /* why decoding stopped; NULL while fine */
    struct buf *out;
    size_t start;     /* out->len before this stream */
};

struct huff {
    short count[MAXBITS + 1]; /* codes of each length */
    short symbol[FIXLCODES];  /* symbols in canonical order */
};

/* need (0..16) bits, least significant first; 0 once the input ran out. */
static int bits(struct in *s, int need)
{
    uint32_t v = s->bitbuf;
    while (s->bitcnt < need) {
        if (s->pos == s->n) {
            s->bad = s->bad ? s->bad : "deflate stream ends early";
            return 0;
        }
        v |= (uint32_t)s->p[s->pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    s->bitbuf = v >> need;
    s->bitcnt -= need;
    return (int)(v & ((1u << need) - 1));
}

static int room(struct in *s, size_t n)
{
    if (s->out->len + n > INFLATE_MAX_OUT || buf_reserve(s->out, n) < 0) {
        s->bad = s->out->len + n > INFLATE_MAX_OUT ? "inflates to too much" : "out of memory";
        return -1;
    }
    return 0;
}

static int stored(struct in *s)
{
    s->bitbuf = 0; /* to the byte boundary */
    s->bitcnt = 0;
    if (s->n - s->pos < 4) {
        s->bad = "deflate stream ends early";
        return -1;
    }
    size_t len = (size_t)s->p[s->pos] | (size_t)s->p[s->pos + 1] << 8;
    size_t nlen = (size_t)s->p[s->pos + 2] | (size_t)s->p[s->pos + 3] << 8;
    s->pos += 4;
    if ((len ^ 0xffff) != nlen || s->n - s->pos < len) {
        s->bad = (len ^ 0xffff) != nlen ? "bad stored block" : "deflate stream ends early";
        return -1;
    }
    if (room(s, len))
        return -1;
    memcpy(s->out->data + s->out->len, s->p + s->pos, len);
    s->out->len += len;
    s->pos += len;
    return 0;
}

/* @return a symbol, or -1 (s->bad set) for no code of at most 15 bits. */
static int decode(struct in *s, const struct huff *h)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= MAXBITS && !s->bad; len++) {
        code |= bits(s, 1);
        int count = h->count[len];
        if (code - count < first)
            return h->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    s->bad = s->bad ? s->bad : "bad Huffman code";
    return -1;
}

/* Builds h from n code lengths. @return 0 for a complete code, > 0 for an
 * incomplete one (codes left), < 0 for an over-subscribed one. */
static int construct(struct huff *h, const short *length, int n)
{
    short offs[MAXBITS + 1];
    memset(h->count, 0, sizeof h->count);
    for (int i = 0; i < n; i++)
        h->count[length[i]]++;
    if (h->count[0] == n)
        return 0; /* no codes: complete, but decoding fails */
    int left = 1;
    for (int len = 1; len <= MAXBITS; len++) {
        left <<= 1;
        left -= h->count[len];
        if (left < 0)
            return left;
    }
    offs[1] = 0;
    for (int len = 1; len < MAXBITS; len++)
        offs[len + 1] = (short)(offs[len] + h->count[len]);
    for (int i = 0; i < n; i++)
        if (length[i] != 0)
            h->symbol[offs[length[i]]++] = (short)i;
    return left;
}

static const short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const short lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                               3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                                6145, 8193, 12289, 16385, 24577};
static const short dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Literals and back-references until the end-of-block symbol. */
static int codes(struct in *s, const struct huff *lencode, const struct huff *distcode)
{
    for (;;) {
        int sym = decode(s, lencode);
        if (sym < 0)
            return -1;
        if (sym == 256)
            return 0;
        if (room(s, 258))
            return -1;
        if (sym < 256) {
            s->out->data[s->out->len++] = (char)sym;
            continue;
        }
        sym -= 257;
        if (sym >= 29) {
            s->bad = "bad length symbol";
            return -1;
        }
        size_t len = (size_t)(lbase[sym] + bits(s, lext[sym]));
        int d = decode(s, distcode);
        if (d < 0 || d >= 30) {
            s->bad = s->bad ? s->bad : "bad distance symbol";
            return -1;
        }
        size_t dist = (size_t)(dbase[d] + bits(s, dext[d]));
        if (s->bad || dist > s->out->len - s->start) {
            s->bad = s->bad ? s->bad : "distance too far back";
            return -1;
        }
        char *o = s->out->data;
        for (size_t i = 0; i < len; i++, s->out->len++) /* may overlap itself */
            o[s->out->len] = o[s->out->len - dist];
    }
}

static int fixed(struct in *s)
{
    static struct huff lencode, distcode;
    static int built;
    if (!built) { /* the same tables every time: built once */
        short lengths[FIXLCODES];
        int i = 0;
        for (; i < 144; i++) lengths[i] = 8;
        for (; i < 256; i++) lengths[i] = 9;
        for (; i < 280; i++) lengths[i] = 7;
        for (; i < FIXLCODES; i++) lengths[i] = 8;
        construct(&lencode, lengths, FIXLCODES);
        for (i = 0; i < MAXDCODES; i++) lengths[i] = 5;
        construct(&distcode, lengths, MAXDCODES);
        built = 1;
    }
    return codes(s, &lencode, &distcode);
}

/* The code lengths of a dynamic block, themselves Huffman-coded. */
static int read_lengths(struct in *s, short *lengths, int total)
{
    static const short order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    int ncode = bits(s, 4) + 4;
    struct huff lencode;
    memset(lengths, 0, 19 * sizeof *lengths);
    for (int i = 0; i < ncode; i++)
        lengths[order[i]] = (short)bits(s, 3);
    if (s->bad || construct(&lencode, lengths, 19) != 0) {
        s->bad = s->bad ? s->bad : "bad code length code";
        return -1;
    }
    for (int index = 0; index < total;) {
        int sym = decode(s, &lencode);
        if (sym < 0)
            return -1;
        if (sym < 16) {
            lengths[index++] = (short)sym;
            continue;
        }
        short len = 0;
        int rep = sym == 16 ? 3 + bits(s, 2) : sym == 17 ? 3 + bits(s, 3) : 11 + bits(s, 7);
        if (sym == 16) {
            if (index == 0) {
                s->bad = "repeat with no length before";
                return -1;
            }
            len = lengths[index - 1];
        }
        if (s->bad || index + rep > total) {
            s->bad = s->bad ? s->bad : "too many code lengths";
            return -1;
        }
        while (rep--)
            lengths[index++] = len;
    }
    return 0;
}

static int dynamic(struct in *s)
{
    short lengths[MAXLCODES + MAXDCODES];
    struct huff lencode, distcode;
    int nlen = bits(s, 5) + 257, ndist = bits(s, 5) + 1;
    if (nlen > MAXLCODES || ndist > MAXDCODES) {
        s->bad = "bad dynamic block counts";
        return -1;
    }
    if (read_lengths(s, lengths, nlen + ndist))
        return -1;
    if (lengths[256] == 0) {
        s->bad = "no end-of-block code";
        return -1;
    }
    /* incomplete codes are allowed only for a single code of length 1 */
    int err = construct(&lencode, lengths, nlen);
    if (err && (err < 0 || nlen != lencode.count[0] + lencode.count[1])) {
        s->bad = "bad literal/length code";
        return -1;
    }
    err = construct(&distcode, lengths + nlen, ndist);
    if (err && (err < 0 || ndist != distcode.count[0] + distcode.count[1])) {
        s->bad = "bad distance code";
        return -1;
    }
    return codes(s, &lencode, &distcode);
}

int inflate_zlib(const unsigned char *p, size_t n, struct buf *out, char *err)
{
    if (n < 6 || (p[0] & 0x0f) != 8 || (p[0] >> 4) > 7 || ((p[0] << 8) | p[1]) % 31 != 0 ||
        (p[1] & 0x20)) {
        snprintf(err, ERR_LEN, "hdr histogram: bad zlib header");
        return -1;
    }
    struct in s = {.p = p, .n = n, .pos = 2, .out = out, .start = out->len};
    size_t start = out->len;
    for (int last = 0; !last && !s.bad;) {
        last = bits(&s, 1);
        int type = bits(&s, 2);
        if (s.bad)
            break;
        if (type == 3)
            s.bad = "bad block type";
        else if ((type == 0 ? stored(&s) : type == 1 ? fixed(&s) : dynamic(&s)) && !s.bad)
            s.bad = "bad block";
    }
    if (!s.bad && (n - s.pos < 4 || ((uint32_t)p[s.pos] << 24 | (uint32_t)p[s.pos + 1] << 16 |
                                     (uint32_t)p[s.pos + 2] << 8 | p[s.pos + 3]) !=
                                        hdrlog_adler32(out->data ? out->data + start : "", out->len - start)))
        s.bad = n - s.pos < 4 ? "zlib stream ends early" : "zlib checksum mismatch";
    if (s.bad) {
        snprintf(err, ERR_LEN, "hdr histogram: %s", s.bad);
        return -1;
    }
    return 0;
}
