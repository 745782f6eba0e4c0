/* planted_server: an HTTP server for the profiler's tests (it_profile.py)
 * with costs planted where the test knows them. Each call burns thread
 * CPU time (CLOCK_THREAD_CPUTIME_ID, so a busy machine does not change
 * what it costs):
 *   POST /RPC2     planted_xml_only: XML_SELF_US itself, and its callee
 *                  planted_xml_child XML_CHILD_US (total XML_SELF + CHILD)
 *   POST /jsonrpc  planted_json_only: JSON_US (a leaf)
 *   both           planted_common: COMMON_US (a leaf)
 * and answers a minimal valid XML-RPC status envelope or JSON-RPC result.
 * Built with frame pointers and no inlining, so perf sees these frames.
 * Usage: planted_server [SCALE]: listens on 127.0.0.1:0 and prints
 * "listening on 127.0.0.1:PORT"; SCALE multiplies every cost (5: most of
 * a core at a modest rate).
 * It ends by itself after 120 s, so no test can leave it behind. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define XML_SELF_US 1000
#define XML_CHILD_US 1000
#define JSON_US 500
#define COMMON_US 1000

static double scale = 1;

static long long thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins for us of this thread's CPU, checking the clock only every few
 * microseconds so that the samples land here, not in the clock. */
static inline __attribute__((always_inline)) void burn(long us)
{
    volatile unsigned long x = 1;
    long long end = thread_ns() + (long long)(us * scale) * 1000;
    while (thread_ns() < end)
        for (int i = 0; i < 20000; i++)
            x = x * 6364136223846793005UL + 1442695040888963407UL;
}

static __attribute__((noinline, noclone)) void planted_xml_child(void) { burn(XML_CHILD_US); }
static __attribute__((noinline, noclone)) void planted_xml_only(void)
{
    burn(XML_SELF_US);
    planted_xml_child();
}
static __attribute__((noinline, noclone)) void planted_json_only(void) { burn(JSON_US); }
static __attribute__((noinline, noclone)) void planted_common(void) { burn(COMMON_US); }

static const char xml_ok[] =
    "<?xml version=\"1.0\"?><methodResponse><params><param><value><struct><member><name>"
    "status</name><value><struct><member><name>code</name><value><int>0</int></value>"
    "</member><member><name>message</name><value><string>Done</string></value></member>"
    "</struct></value></member></struct></value></param></params></methodResponse>";

/* Reads one request (head and Content-Length body) into buf. @return its
 * length, or -1 at EOF or error. */
static long read_request(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    for (;;) {
        char *end = memmem(buf, got, "\r\n\r\n", 4);
        if (end) {
            char *cl = strcasestr(buf, "content-length:");
            size_t need = (size_t)(end + 4 - buf) + (cl ? strtoul(cl + 15, NULL, 10) : 0);
            if (need >= cap)
                return -1;
            if (got >= need)
                return (long)need;
        }
        ssize_t n = read(fd, buf + got, cap - 1 - got);
        if (n <= 0)
            return -1;
        got += (size_t)n;
        buf[got] = '\0';
    }
}

static void answer(int fd, const char *req)
{
    char body[1024], out[1400];
    int xml = strncmp(req, "POST /jsonrpc", 13) != 0;
    if (xml) {
        planted_xml_only();
        snprintf(body, sizeof body, "%s", xml_ok);
    } else {
        planted_json_only();
        const char *id = strstr(req, "\"id\"");
        long v = id ? strtol(id + 4 + strspn(id + 4, ": "), NULL, 10) : 0;
        snprintf(body, sizeof body, "{\"jsonrpc\": \"2.0\", \"id\": %ld, \"result\": []}", v);
    }
    planted_common();
    int n = snprintf(out, sizeof out, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: "
                     "%zu\r\n\r\n%s", xml ? "text/xml" : "application/json", strlen(body), body);
    if (write(fd, out, (size_t)n) != n)
        return;
}

static void *serve(void *arg)
{
    int fd = (int)(long)arg;
    static __thread char buf[65536];
    while (read_request(fd, buf, sizeof buf) > 0)
        answer(fd, buf);
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    scale = argc > 1 ? atof(argv[1]) : 1;
    signal(SIGPIPE, SIG_IGN);
    alarm(120);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 64) ||
        getsockname(s, (struct sockaddr *)&a, &len))
        return perror("planted_server"), 1;
    printf("listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
    fflush(stdout);
    for (;;) {
        int c = accept(s, NULL, NULL);
        pthread_t t;
        if (c >= 0 && pthread_create(&t, NULL, serve, (void *)(long)c) == 0)
            pthread_detach(t);
        else if (c >= 0)
            close(c);
    }
}
