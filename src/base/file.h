/* file: creating and closing output files with errors in the user's terms,
 * for every file rpcbench writes (plots, HdrHistogram logs, CSV). */
#ifndef RPCBENCH_FILE_H
#define RPCBENCH_FILE_H

#include <stdio.h>

#include "base/err.h"

/* Creates (or truncates) path for writing. @return the stream, owned by the
 * caller (close it with file_close_checked), or NULL with err ("cannot
 * create PATH: reason"). */
FILE *file_create(const char *path, char *err);
/* Closes f (always, even on error), checking that everything written
 * reached the file. @return 0, or -1 with err ("cannot write PATH"). */
int file_close_checked(FILE *f, const char *path, char *err);

#endif
