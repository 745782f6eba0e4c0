#include "client/reqid.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/rng.h"

/* Fills buf with n random bytes from the kernel; 0, or -1 when it had none. */
static int kernel_random(unsigned char *buf, size_t n)
{
    if (getrandom(buf, n, GRND_NONBLOCK) == (ssize_t)n)
        return 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, n);
    close(fd);
    return r == (ssize_t)n ? 0 : -1;
}

static uint64_t take64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

void reqid_init(struct reqid *ids)
{
    unsigned char r[24];
    if (kernel_random(r, sizeof r)) { /* last resort: still differs per process */
        uint64_t st = (uint64_t)clock_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);
        for (size_t i = 0; i < sizeof r; i += 8) {
            uint64_t v = rng_next(&st);
            memcpy(r + i, &v, 8);
        }
    }
    uint64_t hi = take64(r), lo = take64(r + 8);
    /* version 4 in the third group's first digit, variant 10xx in the fourth's */
    snprintf(ids->prefix, sizeof ids->prefix, "%08llx-%04llx-4%03llx-%04llx-",
             (unsigned long long)(hi >> 32), (unsigned long long)(hi >> 16 & 0xffff),
             (unsigned long long)(hi & 0xfff),
             (unsigned long long)(0x8000 | (lo >> 48 & 0x3fff)));
    ids->base = lo & REQID_MASK;
    snprintf(ids->tag, sizeof ids->tag, "%016llx", (unsigned long long)take64(r + 16));
}
