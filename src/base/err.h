/* err: the one size of every error buffer. Functions that can fail take
 * `char *err`, caller-owned, at least ERR_LEN bytes; on failure they write
 * one line into it (terminated, truncated to fit) that says what went
 * wrong in the user's terms. */
#ifndef RPCBENCH_ERR_H
#define RPCBENCH_ERR_H

#define ERR_LEN 256

#endif
