/* targets_file: `run --targets FILE`, a fleet of hosts, one a line:
 *
 *     URL [rate=R | stages=D:R[-R2],...]
 *
 * R in --rate's syntax (5, 5/s, 4/m, 1/15s); without it the host gets
 * --rate. stages= in --stages' syntax is the host's own ramp, from its
 * start (its rate is then the stages' mean). Blank lines and lines
 * starting with '#' are skipped. Every URL has the same scheme (one wire
 * and one TLS setup for the run): http://, https://, stomp:// or
 * stomps://. */
#ifndef RPCBENCH_TARGETS_FILE_H
#define RPCBENCH_TARGETS_FILE_H

#include <stddef.h>

#include "model/run_result.h"
#include "net/target.h"

#define TARGETS_MAX 10000

struct fleet_target {
    char url[256];
    struct target target; /* parsed and resolved */
    double rate;          /* per second, > 0 (with stages: their mean) */
    struct run_stage *stages; /* stages=, owned (NULL: a constant rate) */
    size_t nstages;
    int line;             /* its line in the file (from 1) */
    int own_rate;         /* the line gave rate= or stages= */
};

struct targets_file {
    struct fleet_target *t; /* n of them, owned */
    size_t n;
};

/* Reads path into tf (the caller's; free with targets_file_free, whatever
 * the outcome): rate is the rate of lines without their own, default_path
 * the path of URLs without one. @return 0, or -1 with err (ERR_LEN) naming
 * the file, the line and what was wrong ("hosts.txt:3: rate=x: ..."):
 * an unreadable or empty file, a bad URL, an unknown key, bad stages
 * (or both rate= and stages=), more than TARGETS_MAX lines, a scheme
 * other than the first line's. */
int targets_file_read(const char *path, double rate, const char *default_path,
                      struct targets_file *tf, char *err);
void targets_file_free(struct targets_file *tf);
/* @return the longest of tf's stages= in all (ns; 0: no line has them). */
int64_t targets_file_stages_ns(const struct targets_file *tf);

#endif
