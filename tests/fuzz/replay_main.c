/* replay_main: a plain main() for the libFuzzer harnesses, so that `make
 * check` builds every harness with the project's own compiler and flags
 * (without clang or libFuzzer) and replays each file given on the command
 * line through LLVMFuzzerTestOneInput once. A struct change that leaves a
 * harness unbuilt then fails the first minute of `make check`, not the last
 * phase of CI (`make fuzz`), and every checked-in seed and past crash runs
 * under the SAN=1 suite too.
 *
 * Exit status: 0 when every file was read and replayed (a harness that
 * finds a bug aborts, and the sanitizers end the process); 1 when a file
 * could not be read, naming it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads all of path into a new buffer (*out, owned by the caller, freed
 * with free()); returns its length, or -1 with errno set. */
static long read_all(const char *path, uint8_t **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        uint8_t *bigger = realloc(buf, cap *= 2);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        int why = buf ? EIO : ENOMEM;
        free(buf);
        errno = why;
        return -1;
    }
    *out = buf;
    return (long)len;
}

int main(int argc, char **argv)
{
    int replayed = 0;
    for (int i = 1; i < argc; i++) {
        uint8_t *data;
        long len = read_all(argv[i], &data);
        if (len < 0) {
            fprintf(stderr, "%s: cannot read %s: %s\n", argv[0], argv[i], strerror(errno));
            return 1;
        }
        LLVMFuzzerTestOneInput(data, (size_t)len);
        free(data);
        replayed++;
    }
    printf("%s: replayed %d inputs\n", argv[0], replayed);
    return 0;
}
