#include "base/version.h"

#include <stdio.h>

/* `git describe --tags --always --dirty` at build time (the Makefile passes
 * it to this file alone), or empty. */
#ifndef RPCBENCH_GIT_DESCRIBE
#define RPCBENCH_GIT_DESCRIBE ""
#endif

const char *rpcbench_version(void)
{
    static char v[96];
    const char *git = RPCBENCH_GIT_DESCRIBE;
    if (v[0])
        return v;
    if (git[0] == 'v' && git[1] >= '0' && git[1] <= '9') /* a release tag: vX.Y.Z[-n-gHASH] */
        snprintf(v, sizeof v, "%s", git + 1);
    else if (git[0]) /* no tag yet: the release plus the commit */
        snprintf(v, sizeof v, "%s+g%s", RPCBENCH_RELEASE, git);
    else
        snprintf(v, sizeof v, "%s", RPCBENCH_RELEASE);
    return v;
}
