/* cmd_serve: `rpcbench serve`: its options are rows of option_rows.c
 * (server.h does the serving). */
#include <errno.h>
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
#include "server/serve_fleet.h"
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

/* Opens path for writing (EXIT_USAGE's line in err when it cannot). */
static FILE *open_out(const char *opt, const char *path, char *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, ERR_LEN, "%s: cannot write %.200s: %s", opt, path, strerror(errno));
    return f;
}

/* serve --hosts N (or --targets-out, --stats-out): the fleet, its targets
 * file written once every host listens. @return the exit status. */
static int serve_hosts(const struct server_config *o)
{
    static struct serve_fleet f; /* zeroed */
    char err[ERR_LEN] = "";
    FILE *targets = NULL, *stats = NULL;
    if ((o->targets_out && !(targets = open_out("--targets-out", o->targets_out, err))) ||
        (o->stats_out && !(stats = open_out("--stats-out", o->stats_out, err)))) {
        fprintf(stderr, "rpcbench serve: %s\n", err);
        if (targets)
            fclose(targets);
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    if (serve_fleet_start(&f, o, err) < 0) {
        fprintf(stderr, "rpcbench serve: %s\n", err);
        rc = EXIT_RUN_FAILED;
    } else if (targets && (serve_fleet_write_targets(&f, targets) < 0 || fclose(targets))) {
        targets = NULL;
        fprintf(stderr, "rpcbench serve: --targets-out: cannot write %s\n", o->targets_out);
        rc = EXIT_RUN_FAILED;
    } else {
        targets = NULL;
        printf("listening on %s .. %s\n", f.bound[0], f.bound[f.n - 1]);
        fflush(stdout);
        serve_fleet_run(&f);
        if (serve_fleet_print_counts(&f, stderr, stats) < 0)
            rc = EXIT_RUN_FAILED;
    }
    if (targets)
        fclose(targets);
    if (stats && fclose(stats) && rc == EXIT_OK)
        rc = EXIT_RUN_FAILED;
    serve_fleet_free(&f);
    return rc;
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
    if (o.hosts > 1 || o.targets_out || o.stats_out)
        return serve_hosts(&o);
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
