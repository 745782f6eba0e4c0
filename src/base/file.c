/* file: output files with errors in the user's terms (file.h). */
#include "base/file.h"

#include <errno.h>
#include <string.h>

FILE *file_create(const char *path, char *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, ERR_LEN, "cannot create %.200s: %s", path, strerror(errno));
    return f;
}

int file_close_checked(FILE *f, const char *path, char *err)
{
    int bad = ferror(f);
    if (fclose(f) || bad) {
        snprintf(err, ERR_LEN, "cannot write %.200s", path);
        return -1;
    }
    return 0;
}
