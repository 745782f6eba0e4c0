/* fold_int: struct fold's insides, shared by fold.c (the stacks) and the
 * other fold_*.c (functions, modules, flame, calls); nothing else
 * includes it. */
#ifndef RPCBENCH_FOLD_INT_H
#define RPCBENCH_FOLD_INT_H

#include "profile/fold.h"
#include "profile/strmap.h"

struct fold {
    struct strmap stacks;  /* "root;...;leaf" -> samples */
    struct strmap modules; /* function -> its module (aux) */
    struct strmap funcs;   /* fold_index: function -> self, total (count) */
    int indexed;
    int64_t samples;
    char *buf;             /* the stack being joined */
    size_t cap;
};

#endif
