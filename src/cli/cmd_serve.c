/* cmd_serve: `rpcbench serve`'s options (server.h does the serving). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/exit_code.h"
#include "base/units.h"
#include "cli/commands.h"
#include "cli/cli_args.h"
#include "server/delay.h"
#include "server/server.h"
#include "server/vmsim.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rpcbench serve [options]\n"
            "  Runs a simulated VDSM host: XML-RPC at POST /RPC2 (and /),\n"
            "  JSON-RPC 2.0 at POST /jsonrpc (HTTP/1.1), and JSON-RPC over STOMP 1.2\n"
            "  (SEND to jms.topic.vdsm_requests with reply-to), all on one port.\n\n"
            "  --listen HOST:PORT      address (default 127.0.0.1:54321; port 0 picks one)\n"
            "  --vms N                 simulated running VMs (default 150)\n"
            "  --seed S                seed of the VMs and the delays (default 1)\n"
            "  --delay SPEC            service delay: 5ms, uniform:1ms:10ms, exp:5ms (mean)\n"
            "  --workers N             the delay is served by N workers, first come first\n"
            "                          served: a call waits for a free worker, then holds it\n"
            "                          for its delay (capacity N/delay per second); default 0:\n"
            "                          delays run concurrently, however many calls\n"
            "  --work-us-per-vm N      CPU burnt per VM per stats call, microseconds (default 0)\n"
            "  --max-body SIZE         largest request body (default 16MiB; beyond: 413)\n"
            "  --idle-timeout D        drop HTTP clients without a complete request, and STOMP\n"
            "                          clients that never CONNECTed, after D (default 60s)\n"
            "  --max-connections N     open connections at most (default 10000)\n"
            "  --tls-cert FILE         serve everything over TLS with this certificate (PEM)\n"
            "  --tls-key FILE          its private key (default: in --tls-cert's file)\n"
            "  --tls-ca FILE           require client certificates signed by this CA\n"
            "  -V, --version           the version\n"
            "  -h, --help              this text\n\n"
            "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n"
            "  " USAGE_EXIT_CODES);
}

static int parse_opt(int ch, const char *name, const char *arg, struct server_config *o, char *err)
{
    long long v;
    switch (ch) {
    case 'l':
        return units_parse_hostport(arg, o->host, sizeof o->host, &o->port, err);
    case 'n':
        if (cli_parse_int(name, arg, 0, VMSIM_MAX_VMS, &v, err) < 0)
            return -1;
        o->vms = (int)v;
        return 0;
    case 's':
        if (cli_parse_int(name, arg, 0, INT64_MAX, &v, err) < 0)
            return -1;
        o->seed = (uint64_t)v;
        return 0;
    case 'd': {
        struct delay d; /* checked now (EXIT_USAGE); parsed again with the seed */
        o->delay = arg;
        return delay_parse(arg, 0, &d, err);
    }
    case 'w':
        if (cli_parse_int(name, arg, 0, 10 * 1000 * 1000, &v, err) < 0)
            return -1;
        o->work_us_per_vm = v;
        return 0;
    case 'W':
        if (cli_parse_int(name, arg, 0, 100000, &v, err) < 0)
            return -1;
        o->workers = (int)v;
        return 0;
    case 'b':
        return units_parse_size(arg, &o->max_body, err);
    case 'i':
        if (units_parse_duration(arg, &o->idle_ns, err) < 0)
            return -1;
        if (o->idle_ns > 0)
            return 0;
        snprintf(err, ERR_LEN, "--idle-timeout: must be above 0");
        return -1;
    case 'c':
        if (cli_parse_int(name, arg, 1, 10 * 1000 * 1000, &v, err) < 0)
            return -1;
        o->max_conns = (int)v;
        return 0;
    case 'C':
        o->tls_cert = arg;
        return 0;
    case 'K':
        o->tls_key = arg;
        return 0;
    case 'A':
        o->tls_ca = arg;
        return 0;
    default:
        return -1;
    }
}

/* @return 0 to serve, 1 for --help, 2 for --version, -1 bad usage (err
 * filled). */
static int parse_args(int argc, char **argv, struct server_config *o, char *err)
{
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, 'l'},
        {"vms", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"delay", required_argument, NULL, 'd'},
        {"work-us-per-vm", required_argument, NULL, 'w'},
        {"workers", required_argument, NULL, 'W'},
        {"max-body", required_argument, NULL, 'b'},
        {"idle-timeout", required_argument, NULL, 'i'},
        {"max-connections", required_argument, NULL, 'c'},
        {"tls-cert", required_argument, NULL, 'C'},
        {"tls-key", required_argument, NULL, 'K'},
        {"tls-ca", required_argument, NULL, 'A'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct server_config){.host = "127.0.0.1", .port = 54321, .vms = 150, .seed = 1,
                             .max_body = 16u << 20, .idle_ns = 60 * NS_PER_S,
                             .max_conns = 10000};
    optind = 0; /* full re-initialisation (GNU) */
    opterr = 0;
    int ch, idx;
    while ((ch = getopt_long(argc, argv, ":hV", longopts, &idx)) != -1) {
        if (ch == 'h')
            return 1;
        if (ch == 'V')
            return 2;
        if (ch == '?' || ch == ':') {
            cli_getopt_error(ch, argv, optind, err);
            return -1;
        }
        char name[40]; /* "--listen": errors name the option */
        snprintf(name, sizeof name, "--%.30s", longopts[idx].name);
        if (parse_opt(ch, name, optarg, o, err) < 0) {
            cli_name_error(name, err);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, ERR_LEN, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!o->tls_cert && (o->tls_key || o->tls_ca)) {
        snprintf(err, ERR_LEN, "--tls-key and --tls-ca need --tls-cert");
        return -1;
    }
    const char *files[][2] = {{"--tls-cert", o->tls_cert}, {"--tls-key", o->tls_key},
                              {"--tls-ca", o->tls_ca}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i][1] && cli_check_readable(files[i][0], files[i][1], err))
            return -1;
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    struct server_config o;
    char err[ERR_LEN] = "", bound[300];
    int rc = parse_args(argc, argv, &o, err);
    if (rc == 1) {
        usage(stdout);
        return EXIT_OK;
    }
    if (rc == 2) {
        cli_print_version();
        return EXIT_OK;
    }
    if (rc < 0) {
        fprintf(stderr, "rpcbench serve: %s\n", err);
        return EXIT_USAGE;
    }
    static struct server s; /* large: keep it off the stack */
    s.lfd = -1;
    if (server_start(&s, &o, bound, sizeof bound, err) < 0) {
        fprintf(stderr, "rpcbench serve: %s\n", err);
        server_free(&s);
        return EXIT_RUN_FAILED;
    }
    printf("listening on %s\n", bound);
    fflush(stdout);
    server_run(&s);
    server_print_counts(&s, stderr);
    server_free(&s);
    return EXIT_OK;
}
