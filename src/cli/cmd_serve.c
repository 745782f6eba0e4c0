/* cmd_serve: `rpcbench serve`: its options are rows of option_rows.c
 * (server.h does the serving). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/exit_code.h"
#include "base/units.h"
#include "cli/commands.h"
#include "cli/cli_args.h"
#include "cli/options.h"
#include "server/delay.h"
#include "server/server.h"
#include "server/vmsim.h"

/* --listen HOST:PORT (option_rows.c). */
int serve_opt_listen(struct options *o, const char *arg, char *err)
{
    return units_parse_hostport(arg, o->serve->host, sizeof o->serve->host, &o->serve->port,
                                err);
}

/* --delay SPEC: checked now (EXIT_USAGE), parsed again with the seed when
 * the server starts; the spec stays argv's. */
int serve_opt_delay(struct options *o, const char *arg, char *err)
{
    struct delay d;
    o->serve->delay = arg;
    return delay_parse(arg, 0, &d, err);
}

/* The options (options_parse_serve), then what needs several: the TLS
 * files. @return 0 to serve, 1 after --help or --version, -1 bad usage
 * (err filled). */
static int parse_args(int argc, char **argv, struct server_config *o, char *err)
{
    int rc = options_parse_serve(argc, argv, o, err);
    return rc ? rc : cli_check_tls_files(o->tls_cert, o->tls_key, o->tls_ca, err);
}

int cmd_serve(int argc, char **argv)
{
    struct server_config o;
    char err[ERR_LEN] = "", bound[300];
    int rc = parse_args(argc, argv, &o, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
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
