/* fold: a profile as folded stacks ("root;caller;leaf COUNT", the
 * collapsed-stack format of FlameGraph, py-spy, austin, async-profiler and
 * inferno), counted in a hash map, and what they say per function: self
 * samples (the function was the leaf) and total samples (it was on the
 * stack, counted once per stack however deep the recursion).
 * A struct fold is the caller's (fold_new/fold_free); it owns its
 * strings. It is built after a run, off the load's path. */
#ifndef RPCBENCH_FOLD_H
#define RPCBENCH_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile_sum.h"

#define FOLD_MAX_DEPTH 512

struct fold;

/* One function of a profile. name and module point into the fold (valid
 * until it is freed); module "" when unknown. */
struct fold_func {
    const char *name, *module;
    int64_t self, total;
    int keep;              /* fold_summarise's scratch */
};

/* @return a new, empty fold (fold_free it), or NULL when out of memory. */
struct fold *fold_new(void);
void fold_free(struct fold *f);
/* Adds count samples of the stack frames[0..n) (root first; n capped at
 * FOLD_MAX_DEPTH, keeping the leaf side), with each frame's module
 * (modules NULL, or an entry NULL: unknown; the first module seen for a
 * name is kept). Names are copied with ';' and controls made '_', so a
 * stack always writes back as one line. @return 0, or -1 (out of memory). */
int fold_add(struct fold *f, const char *const *frames, const char *const *modules, size_t n,
             int64_t count);
/* Adds every line of path. @return 0, or -1 with err (ERR_LEN) naming
 * the file: unreadable, or no stack in it at all. */
int fold_read(struct fold *f, const char *path, char *err);
/* Writes f as folded stacks to path. @return 0, or -1 with err. */
int fold_write(const struct fold *f, const char *path, char *err);
/* @return the samples counted in f. */
int64_t fold_samples(const struct fold *f);
/* @return the stacks' count whose root frame is none of the usual roots
 * of a whole stack (main, _start, thread starts, the kernel's entries):
 * those whose walk stopped early. */
int64_t fold_truncated(const struct fold *f);
/* @return the samples whose stacks have a frame with no symbol
 * ("[unknown]", or "[module]" alone). */
int64_t fold_unsymbolised(const struct fold *f);
/* The function table into *out (malloc'd, the caller's to free; the
 * entries point into f), *n entries in no order. @return 0, or -1 (out
 * of memory). */
int fold_functions(const struct fold *f, struct fold_func **out, size_t *n);
/* Adds to calls[i * n + j] (n x n, the caller's, not cleared) the
 * samples of f's stacks where names[i] is above names[j]: i calls j,
 * directly or through others (i == j, recursion, is not counted; a
 * stack counts once per pair of its frames). @return 0, or -1 (out of
 * memory). */
int fold_calls(const struct fold *f, const char *const *names, size_t n, int64_t *calls);
/* Fills s's rows (the functions first by self samples, then those among
 * the top by total samples not already there, at most PROFILE_MAX_ROWS,
 * ordered by self share) from f, its samples, and the CPU-ms per call
 * the shares are multiplied by (NAN: unknown); top is the table's length.
 * Leaves s's other fields alone. @return 0, or -1 (out of memory). */
int fold_summarise(const struct fold *f, double cpu_ms_per_call, int top,
                   struct profile_summary *s);
/* Adds f's stacks to out (an empty fold) as stacks of modules: each frame
 * made its function's module (a run of frames in one module one frame),
 * and the leaf side's frames in libc, the loader or the kernel charged to
 * the module that called them (a stack of those alone stays). Its self
 * share is then a module's own CPU with the system time it asked for; its
 * total share, with its callees. @return 0, or -1 (out of memory). */
int fold_by_module(const struct fold *f, struct fold *out);
/* As fold_summarise, the modules of f (fold_by_module) into s->modules
 * (at most PROFILE_MAX_MODULES, by that self share). @return 0, or -1 (out
 * of memory). */
int fold_summarise_modules(const struct fold *f, double cpu_ms_per_call,
                           struct profile_summary *s);
/* The flame graph's tree of f into s->flame (s->nflame frames, the root
 * "all" first): each stack prefix with at least min_share of the samples,
 * at most PROFILE_MAX_FLAME frames (the busiest), callers before callees.
 * @return 0, or -1 (out of memory; s->nflame 0). */
int fold_flame(const struct fold *f, double min_share, struct profile_summary *s);
/* @return the share (0..1) of f's samples that name on the stack
 * (total) or at its leaf (self), by function name; 0 when absent. The
 * function table is built once (fold_index) for these lookups. */
int fold_index(struct fold *f);
double fold_share(const struct fold *f, const char *name, int self);

#endif
