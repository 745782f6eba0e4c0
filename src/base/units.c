/* units: the command line's numbers with units, parsed strictly.
 *
 * Numbers are written as digits with an optional fraction ("1.5"); we do not
 * hand them to strtod unchecked because it would also take "nan", "inf",
 * "0x10", leading blanks and signs. Every error message quotes the input. */
#include "base/units.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest input we quote back in an error, so messages fit ERR_LEN. */
#define QUOTE "\"%.80s\""

/* Reads an unsigned decimal number ("12", "1.5", ".5") at s; *end gets the
 * first byte after it. @return 0, or -1 when there are no digits. */
static int scan_number(const char *s, double *out, const char **end)
{
    const char *p = s;
    int digits = 0;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            p++;
            digits++;
        }
    }
    if (digits == 0)
        return -1;
    char tmp[64];
    size_t n = (size_t)(p - s);
    if (n >= sizeof(tmp))
        n = sizeof(tmp) - 1; /* 63 digits already overflow every unit */
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    *out = strtod(tmp, NULL);
    *end = p;
    return isfinite(*out) ? 0 : -1;
}

/* Shared front checks: NULL/empty and a leading sign. */
static int check_start(const char *what, const char *s, char *err)
{
    if (!s || !*s) {
        snprintf(err, ERR_LEN, "%s: empty value", what);
        return -1;
    }
    if (*s == '-') {
        snprintf(err, ERR_LEN, "%s " QUOTE ": negative values are not allowed", what, s);
        return -1;
    }
    return 0;
}

struct unit {
    const char *name;
    double mult;
};

static const struct unit duration_units[] = {
    {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"sec", 1e9},
    {"m", 60e9}, {"min", 60e9}, {"h", 3600e9}, {"", 1e9},
};

static const struct unit *find_unit(const struct unit *u, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(u[i].name, name) == 0)
            return &u[i];
    return NULL;
}

int units_parse_duration(const char *s, int64_t *ns, char *err)
{
    double v;
    const char *end;
    if (check_start("duration", s, err) < 0)
        return -1;
    if (scan_number(s, &v, &end) < 0) {
        snprintf(err, ERR_LEN, "duration " QUOTE ": not a number (e.g. 250ms, 2s, 1.5m)", s);
        return -1;
    }
    const struct unit *u = find_unit(duration_units,
                                     sizeof(duration_units) / sizeof(duration_units[0]), end);
    if (!u) {
        snprintf(err, ERR_LEN, "duration " QUOTE ": unknown unit " QUOTE " (use us, ms, s, m, h)",
                 s, end);
        return -1;
    }
    double total = v * u->mult;
    if (total >= 9.2e18) {
        snprintf(err, ERR_LEN, "duration " QUOTE ": too large", s);
        return -1;
    }
    *ns = (int64_t)llround(total);
    return 0;
}

int units_parse_rate(const char *s, double *per_sec, char *err)
{
    double v;
    const char *end;
    if (s && strcmp(s, "max") == 0) {
        *per_sec = 0;
        return 0;
    }
    if (check_start("rate", s, err) < 0)
        return -1;
    if (scan_number(s, &v, &end) < 0) {
        snprintf(err, ERR_LEN, "rate " QUOTE ": not a number (e.g. 50, 50/s, 1/15s, max)", s);
        return -1;
    }
    double period_s = 1.0;
    if (*end == '/') {
        const char *per = end + 1;
        char tmp[64];
        /* "/s" means "/1s": put the implied 1 in front of a bare unit. */
        if (isalpha((unsigned char)*per) && snprintf(tmp, sizeof(tmp), "1%s", per) < (int)sizeof(tmp))
            per = tmp;
        int64_t pns;
        char sub[ERR_LEN];
        if (!*per || units_parse_duration(per, &pns, sub) < 0) {
            snprintf(err, ERR_LEN, "rate " QUOTE ": bad period after '/' (e.g. /s, /m, /15s)", s);
            return -1;
        }
        if (pns <= 0) {
            snprintf(err, ERR_LEN, "rate " QUOTE ": period must be longer than zero", s);
            return -1;
        }
        period_s = (double)pns / 1e9;
    } else if (*end) {
        snprintf(err, ERR_LEN, "rate " QUOTE ": unexpected " QUOTE " (e.g. 50/s, 4/m)", s, end);
        return -1;
    }
    if (v <= 0) {
        snprintf(err, ERR_LEN, "rate " QUOTE ": must be above zero (use \"max\" for closed loop)", s);
        return -1;
    }
    *per_sec = v / period_s;
    return 0;
}

/* K/M/G/T with an optional "i" and an optional "B", all 1024-based. */
static int size_mult(const char *u, double *mult)
{
    static const char prefixes[] = "kmgt";
    double m = 1;
    if (*u) {
        const char *p = strchr(prefixes, tolower((unsigned char)*u));
        if (p) {
            for (const char *q = prefixes; q <= p; q++)
                m *= 1024;
            u++;
            if (*u == 'i')
                u++;
        }
    }
    if (*u == 'B' || *u == 'b')
        u++;
    *mult = m;
    return *u ? -1 : 0;
}

int units_parse_size(const char *s, size_t *bytes, char *err)
{
    double v, mult;
    const char *end;
    if (check_start("size", s, err) < 0)
        return -1;
    if (scan_number(s, &v, &end) < 0) {
        snprintf(err, ERR_LEN, "size " QUOTE ": not a number (e.g. 64MiB, 16M, 512k)", s);
        return -1;
    }
    if (size_mult(end, &mult) < 0) {
        snprintf(err, ERR_LEN, "size " QUOTE ": unknown unit " QUOTE " (use k, M, G, KiB, MiB)",
                 s, end);
        return -1;
    }
    double total = v * mult;
    if (total >= 1.8e19 || total > (double)SIZE_MAX) {
        snprintf(err, ERR_LEN, "size " QUOTE ": too large", s);
        return -1;
    }
    *bytes = (size_t)llround(total);
    return 0;
}

int units_parse_list(const char *s, double *out, size_t max, size_t *n, char *err)
{
    const char *p = s;
    size_t count = 0;
    if (check_start("list", s, err) < 0)
        return -1;
    for (;;) {
        double v;
        const char *end;
        if (scan_number(p, &v, &end) < 0 || (*end && *end != ',')) {
            snprintf(err, ERR_LEN, "list " QUOTE ": bad item at " QUOTE
                     " (want non-negative numbers separated by commas)", s, p);
            return -1;
        }
        if (count == max) {
            snprintf(err, ERR_LEN, "list " QUOTE ": more than %zu items", s, max);
            return -1;
        }
        if (count > 0 && v <= out[count - 1]) {
            snprintf(err, ERR_LEN, "list " QUOTE ": items must be strictly increasing", s);
            return -1;
        }
        out[count++] = v;
        if (!*end)
            break;
        p = end + 1;
    }
    *n = count;
    return 0;
}

/* Port: 0..65535 in decimal (0 asks the kernel for an ephemeral port). */
static int parse_port(const char *p, int *port)
{
    if (!*p || strlen(p) > 5)
        return -1;
    long v = 0;
    for (; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v > 65535)
        return -1;
    *port = (int)v;
    return 0;
}

int units_parse_hostport(const char *s, char *host, size_t hostlen, int *port, char *err)
{
    const char *h, *hend, *colon;
    if (!s || !*s) {
        snprintf(err, ERR_LEN, "address: empty value");
        return -1;
    }
    if (*s == '[') {
        h = s + 1;
        hend = strchr(h, ']');
        colon = hend ? hend + 1 : NULL;
        if (!hend || *colon != ':') {
            snprintf(err, ERR_LEN, "address " QUOTE ": want [ADDR]:PORT", s);
            return -1;
        }
    } else {
        h = s;
        colon = strrchr(s, ':');
        hend = colon;
        if (!colon || memchr(s, ':', (size_t)(colon - s))) {
            snprintf(err, ERR_LEN, "address " QUOTE ": want HOST:PORT (IPv6 as [ADDR]:PORT)", s);
            return -1;
        }
    }
    size_t len = (size_t)(hend - h);
    if (len == 0 || len >= hostlen) {
        snprintf(err, ERR_LEN, "address " QUOTE ": %s host", s, len ? "too long a" : "empty");
        return -1;
    }
    if (parse_port(colon + 1, port) < 0) {
        snprintf(err, ERR_LEN, "address " QUOTE ": bad port " QUOTE " (0..65535)", s, colon + 1);
        return -1;
    }
    memcpy(host, h, len);
    host[len] = '\0';
    return 0;
}

/* Appends "<v><unit>" with up to 3 decimals, trailing zeros dropped. */
static size_t put_frac(char *out, size_t outlen, double v, const char *unit)
{
    char num[48];
    snprintf(num, sizeof(num), "%.3f", v);
    char *dot = strchr(num, '.');
    if (dot) {
        char *e = num + strlen(num) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
    int n = snprintf(out, outlen, "%s%s", num, unit);
    return n < 0 ? 0 : ((size_t)n < outlen ? (size_t)n : outlen - 1);
}

void units_format_duration(int64_t ns, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return;
    out[0] = '\0';
    size_t pos = 0;
    uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0 && outlen > 1) {
        out[pos++] = '-';
        out[pos] = '\0';
    }
    if (u < 1000) {
        snprintf(out + pos, outlen - pos, "%" PRIu64 "%s", u, u ? "ns" : "s");
        return;
    }
    if (u < 1000000) {
        put_frac(out + pos, outlen - pos, (double)u / 1e3, "us");
        return;
    }
    if (u < 1000000000) {
        put_frac(out + pos, outlen - pos, (double)u / 1e6, "ms");
        return;
    }
    u = (u + 500000) / 1000000 * 1000000; /* whole ms, so 59.9996s is 1m */
    uint64_t hours = u / 3600000000000ULL;
    uint64_t mins = u / 60000000000ULL % 60;
    uint64_t rest = u % 60000000000ULL;
    int n;
    if (hours && pos < outlen) {
        n = snprintf(out + pos, outlen - pos, "%" PRIu64 "h", hours);
        pos += n > 0 ? (size_t)n : 0;
    }
    if (mins && pos < outlen) {
        n = snprintf(out + pos, outlen - pos, "%" PRIu64 "m", mins);
        pos += n > 0 ? (size_t)n : 0;
    }
    if (rest && pos < outlen)
        put_frac(out + pos, outlen - pos, (double)rest / 1e9, "s");
}

void units_format_rate(double per_sec, char *out, size_t outlen)
{
    if (!(per_sec > 0)) {
        snprintf(out, outlen, "max");
        return;
    }
    double period = 1 / per_sec, whole = round(period);
    if (fabs(per_sec * 100 - round(per_sec * 100)) < 1e-6 * per_sec * 100) {
        snprintf(out, outlen, "%.2f/s", per_sec); /* 5.00/s, 0.50/s: exact */
    } else if (per_sec < 1 && whole >= 2 && fabs(period - whole) < 1e-6 * period) {
        long long p = (long long)whole;
        if (p % 3600 == 0)
            snprintf(out, outlen, "1/%lldh", p / 3600);
        else if (p % 60 == 0)
            snprintf(out, outlen, "1/%lldm", p / 60);
        else
            snprintf(out, outlen, "1/%llds", p);
    } else {
        snprintf(out, outlen, "%.6g/s", per_sec);
    }
}
