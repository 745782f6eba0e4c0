/* fuzz_units: the command line's value parsers (durations, rates, sizes,
 * bucket lists, host:port, the verb mix and serve's --delay spec). Byte 0
 * picks the parser; the rest, NUL-terminated, is the argument as argv
 * would hand it over. Parsed values must respect the documented ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/delay.h"
#include "fuzz_known.h"
#include "cli/options.h"
#include "base/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LIST_MAX 32

static void one(int which, const char *s)
{
    char err[ERR_LEN] = "";
    switch (which) {
    case 0: {
        int64_t ns = -1;
        if (units_parse_duration(s, &ns, err) == 0 && ns < 0)
            abort();
        char txt[64];
        if (ns >= 0)
            units_format_duration(ns, txt, sizeof txt);
        break;
    }
    case 1: {
        double r = -1;
        if (units_parse_rate(s, &r, err) == 0 && !(r >= 0))
            abort();
        break;
    }
    case 2: {
        size_t b;
        (void)units_parse_size(s, &b, err);
        break;
    }
    case 3: {
        double out[LIST_MAX];
        size_t n = 0;
        if (units_parse_list(s, out, LIST_MAX, &n, err) == 0) {
            if (n > LIST_MAX)
                abort();
            for (size_t i = 1; i < n; i++)
                if (!(out[i] > out[i - 1]))
                    abort(); /* documented: strictly increasing */
        }
        break;
    }
    case 4: {
        char host[256];
        int port = -1;
        if (units_parse_hostport(s, host, sizeof host, &port, err) == 0 &&
            memchr(host, '\0', sizeof host) == NULL)
            abort();
        break;
    }
    case 5: {
        struct run_config *cfg = calloc(1, sizeof *cfg);
        if (!cfg)
            return;
        if (options_parse_verbs(s, cfg, err) == 0 && (cfg->nverbs < 1 || cfg->nverbs > RUN_MAX_VERBS))
            abort();
        free(cfg);
        break;
    }
    default: {
        struct delay d;
        if (delay_parse(s, 1, &d, err) == 0 &&
            !(fuzz_known_skip() && !fuzz_known_delay_ok(d.a_ns, d.b_ns)))
            for (int i = 0; i < 4; i++)
                if (delay_next(&d) < 0)
                    abort();
        break;
    }
    }
    if (memchr(err, '\0', sizeof err) == NULL)
        abort(); /* the reason is a terminated string */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *s = malloc(size); /* size - 1 bytes of text plus the NUL */
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    one(data[0] % 7, s);
    free(s);
    return 0;
}
