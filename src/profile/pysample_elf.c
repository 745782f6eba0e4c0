/* pysample_elf: CPython found in a process (pysample_int.h): its mapping
 * in /proc/PID/maps, its symbols in the ELF file's .dynsym, the load
 * bias, the version. The file and the maps are the target's: every
 * count and offset read from them is bounded before use. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/err.h"
#include "profile/pysample_int.h"

#define MAX_SECTIONS 4096
#define MAX_SYMBOLS (1 << 20)
#define MAX_PHDRS 256

/* @return 1 when a mapped file's name is CPython's ("python3.11",
 * "libpython3.11.so.1.0"), with its "3.11" into version (len bytes). */
static int python_name(const char *path, char *version, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "lib", 3) == 0)
        base += 3;
    if (strncmp(base, "python3.", 8) != 0)
        return 0;
    size_t digits = strspn(base + 8, "0123456789");
    const char *end = base + 8 + digits;
    if (digits == 0 || digits > 3 || (*end && *end != '.' && *end != 'd' && *end != 'm'))
        return 0;
    if (*end == '.' && strncmp(end, ".so", 3) != 0)
        return 0;
    snprintf(version, len, "3.%.*s", (int)digits, base + 8);
    return 1;
}

#define MAX_FILES 4 /* CPython files looked at in one process */

struct mapped {
    char path[256];
    uint64_t start;             /* its lowest address at file offset 0 */
    char version[16];           /* from its name */
};

/* The CPython files pid maps (an executable, a libpython: whichever has
 * _PyRuntime is the interpreter), into m (at most MAX_FILES).
 * @return how many, or -1 (no maps: the process is gone). */
static int find_mappings(pid_t pid, struct mapped *m)
{
    char name[64], line[1024];
    snprintf(name, sizeof name, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(name, "r");
    if (!f)
        return -1;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off;
        int at = 0, k;
        if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &lo, &hi, &off, &at) < 3 || !at)
            continue;
        char *file = line + at, v[16];
        file[strcspn(file, "\n")] = '\0';
        if (file[0] != '/' || off != 0 || strlen(file) >= sizeof m->path ||
            !python_name(file, v, sizeof v))
            continue;
        for (k = 0; k < n && strcmp(m[k].path, file) != 0; k++)
            ;
        if (k < n) {
            m[k].start = lo < m[k].start ? lo : m[k].start;
        } else if (n < MAX_FILES) {
            snprintf(m[n].path, sizeof m[n].path, "%.255s", file);
            snprintf(m[n].version, sizeof m[n].version, "%s", v);
            m[n++].start = lo;
        }
    }
    fclose(f);
    return n;
}

int py_maps_python(pid_t pid)
{
    struct mapped m[MAX_FILES];
    return find_mappings(pid, m) > 0;
}

/* pread exactly len bytes at off. @return 0, or -1. */
static int read_at(int fd, uint64_t off, void *buf, size_t len)
{
    return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The load bias: where the file's first PT_LOAD (file offset 0) is
 * mapped, minus its page-aligned p_vaddr. @return 0, or -1. */
static int load_bias(int fd, const Elf64_Ehdr *eh, uint64_t start, uint64_t *bias)
{
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum > MAX_PHDRS)
        return -1;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        Elf64_Phdr ph;
        if (read_at(fd, eh->e_phoff + (uint64_t)i * sizeof ph, &ph, sizeof ph))
            return -1;
        if (ph.p_type == PT_LOAD && ph.p_offset == 0) {
            *bias = start - (ph.p_vaddr & ~(uint64_t)0xfff);
            return 0;
        }
    }
    return -1;
}

/* The section header of index i. @return 0, or -1. */
static int section(int fd, const Elf64_Ehdr *eh, unsigned i, Elf64_Shdr *sh)
{
    if (i >= eh->e_shnum)
        return -1;
    return read_at(fd, eh->e_shoff + (uint64_t)i * sizeof *sh, sh, sizeof *sh);
}

/* Looks names[0..n) up in the symbol table sym (its strings in str),
 * their values into vals (0: absent). @return 0, or -1. */
static int lookup(int fd, const Elf64_Shdr *sym, const Elf64_Shdr *str, const char *const *names,
                  uint64_t *vals, size_t n)
{
    if (sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_size / sizeof(Elf64_Sym) > MAX_SYMBOLS)
        return -1;
    size_t count = sym->sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < count; i++) {
        Elf64_Sym s;
        char name[32];
        if (read_at(fd, sym->sh_offset + i * sizeof s, &s, sizeof s))
            return -1;
        if (s.st_name == 0 || s.st_name >= str->sh_size || s.st_value == 0)
            continue;
        ssize_t got = pread(fd, name, sizeof name - 1, (off_t)(str->sh_offset + s.st_name));
        if (got <= 0)
            continue;
        name[got] = '\0';
        for (size_t k = 0; k < n; k++)
            if (strcmp(name, names[k]) == 0)
                vals[k] = s.st_value;
    }
    return 0;
}

/* _PyRuntime's and Py_Version's addresses in pid (Py_Version 0 when the
 * file has none, as before 3.11). @return 0, or -1. */
static int symbols(int fd, uint64_t start, uint64_t *runtime, uint64_t *pyversion)
{
    Elf64_Ehdr eh;
    if (read_at(fd, 0, &eh, sizeof eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shnum > MAX_SECTIONS)
        return -1;
    uint64_t bias, vals[2] = {0, 0};
    static const char *const names[] = {"_PyRuntime", "Py_Version"};
    if (load_bias(fd, &eh, start, &bias))
        return -1;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh, str;
        if (section(fd, &eh, i, &sh))
            return -1;
        if (sh.sh_type == SHT_DYNSYM && section(fd, &eh, sh.sh_link, &str) == 0 &&
            lookup(fd, &sh, &str, names, vals, 2) == 0)
            break;
    }
    if (!vals[0])
        return -1;
    *runtime = vals[0] + bias;
    *pyversion = vals[1] ? vals[1] + bias : 0;
    return 0;
}

/* The file as the target sees it (its root may not be ours). @return an
 * fd, or -1. */
static int open_target_file(pid_t pid, const char *path)
{
    char name[300];
    snprintf(name, sizeof name, "/proc/%d/root%.255s", (int)pid, path);
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    return fd >= 0 ? fd : open(path, O_RDONLY | O_CLOEXEC);
}

/* Py_Version's "3.N" read from the target, over the file name's. */
static void version_of(struct py_target *t, uint64_t pyversion)
{
    uint32_t hex;
    if (pyversion && py_read(t->pid, pyversion, &hex, sizeof hex) == 0 && (hex >> 24) == 3)
        snprintf(t->version, sizeof t->version, "3.%u", (hex >> 16) & 0xff);
}

/* The interpreter among m[0..n): the first file with _PyRuntime.
 * @return 0 (t's path, runtime and version set), or -1. */
static int pick(struct py_target *t, const struct mapped *m, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t pyversion = 0;
        int fd = open_target_file(t->pid, m[i].path);
        int rc = fd < 0 ? -1 : symbols(fd, m[i].start, &t->runtime, &pyversion);
        if (fd >= 0)
            close(fd);
        if (rc == 0) {
            snprintf(t->path, sizeof t->path, "%.255s", m[i].path);
            snprintf(t->version, sizeof t->version, "%s", m[i].version);
            version_of(t, pyversion);
            return 0;
        }
    }
    return -1;
}

int py_target_find(pid_t pid, struct py_target *t, char *err)
{
    struct mapped m[MAX_FILES];
    memset(t, 0, sizeof *t);
    t->pid = pid;
    int n = find_mappings(pid, m);
    if (n < 0)
        snprintf(err, ERR_LEN, "pid %d: cannot read /proc/%d/maps: is it running?", (int)pid,
                 (int)pid);
    if (n <= 0)
        return n;
    if (pick(t, m, n)) {
        snprintf(err, ERR_LEN, "pid %d: no _PyRuntime in the .dynsym of %.150s", (int)pid,
                 m[0].path);
        return -1;
    }
    t->l = py_layout_find(t->version);
    return 1;
}

int py_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
    struct iovec local = {buf, len}, remote = {(void *)(uintptr_t)addr, len};
    ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (got == (ssize_t)len)
        return 0;
    if (got >= 0)
        errno = EFAULT;
    return -1;
}
