/* version: what `--version`, report headers and saved results call this
 * build. */
#ifndef RPCBENCH_VERSION_H
#define RPCBENCH_VERSION_H

/* The release this tree is, used alone when it was not built from git. */
#define RPCBENCH_RELEASE "0.1.0"

/* "0.1.0+g897ae00" (built from git at that commit; "-dirty" with local
 * changes), "0.2.0-3-gabc1234" (from a tag v0.2.0), or "0.1.0" (no git).
 * @return a static string: never NULL, never freed. */
const char *rpcbench_version(void);

#endif
