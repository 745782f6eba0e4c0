#include "report/plot_gp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/exit_code.h"

#define GNUPLOT_TIMEOUT_MS 30000

void plot_safe_name(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; in[n] && n + 1 < len; n++) {
        char c = in[n];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_';
        out[n] = ok ? c : '_';
    }
    out[n] = '\0';
}

/* A gnuplot single-quoted string: a quote is written twice. */
void plot_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n')
            fputc(*s, f);
    }
    fputc('\'', f);
}

void plot_placeholder(FILE *f, const char *what)
{
    fprintf(f, "set xrange [0:1]; set yrange [0:1]; unset xtics; unset ytics\n");
    fprintf(f, "set label 1 ");
    plot_gp_str(f, what);
    fprintf(f, " at graph 0.5,0.5 center\nplot -1 notitle\n");
    fprintf(f, "unset label 1; set xtics; set ytics; set autoscale x; set autoscale y\n");
}

static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[4096];
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(dir, sizeof dir, "%.*s/%s", (int)n, n ? p : ".", prog);
        if (access(dir, X_OK) == 0)
            return 1;
        p += n + (colon ? 1 : 0);
    }
    return 0;
}

/* Runs `gnuplot script`, its stdout discarded, within a bounded time. */
int plot_run_gnuplot(const char *script, char *err)
{
    fflush(NULL); /* the child must not write our buffered output again */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, ERR_LEN, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(EXIT_CHILD_SETUP);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(EXIT_CHILD_EXEC);
    }
    int status = 0;
    struct timespec tick = {0, 10 * 1000000L};
    for (int waited = 0; waitpid(pid, &status, WNOHANG) == 0; waited += 10) {
        if (waited >= GNUPLOT_TIMEOUT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(err, ERR_LEN, "gnuplot %.200s: timed out", script);
            return -1;
        }
        nanosleep(&tick, NULL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        snprintf(err, ERR_LEN, "gnuplot %.200s failed (exit %d)", script,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}


int plot_have_gnuplot(void)
{
    return on_path("gnuplot");
}
