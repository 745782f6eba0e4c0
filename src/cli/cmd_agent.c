/* cmd_agent: `rpcbench agent`: its options are rows of option_rows.c
 * (agent.h does the sampling and the answering). */
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"
#include "base/exit_code.h"
#include "base/units.h"
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/options.h"

/* --listen HOST:PORT (option_rows.c): checked as serve's is, kept as given. */
int agent_opt_listen(struct options *o, const char *arg, char *err)
{
    char host[256];
    int port;
    if (units_parse_hostport(arg, host, sizeof host, &port, err))
        return -1;
    if (strlen(arg) >= sizeof o->agent->listen) {
        snprintf(err, ERR_LEN, "too long");
        return -1;
    }
    strcpy(o->agent->listen, arg);
    return 0;
}

/* The options, then what needs several. @return 0 to serve, 1 after
 * --help or --version, -1 bad usage (err filled). */
static int parse_args(int argc, char **argv, struct agent_config *c, char *err)
{
    int rc = options_parse_agent(argc, argv, c, err);
    if (rc)
        return rc;
    if (!c->token_file[0]) {
        snprintf(err, ERR_LEN, "--token-file is required: the agent answers only with the token");
        return -1;
    }
    if (cli_check_readable("--token-file", c->token_file, err))
        return -1;
    return cli_check_tls_files(c->tls_cert, c->tls_key, c->tls_ca, err);
}

int cmd_agent(int argc, char **argv)
{
    struct agent_config c;
    char err[ERR_LEN] = "", warn[ERR_LEN] = "", bound[300];
    int rc = parse_args(argc, argv, &c, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
    if (rc < 0) {
        fprintf(stderr, "rpcbench agent: %s\n", err);
        return EXIT_USAGE;
    }
    struct agent *a = agent_start(&c, bound, sizeof bound, warn, err);
    if (warn[0])
        fprintf(stderr, "rpcbench agent: warning: %s\n", warn);
    if (!a) {
        fprintf(stderr, "rpcbench agent: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    printf("listening on %s\n", bound);
    fflush(stdout);
    agent_run(a);
    agent_free(a);
    return EXIT_OK;
}
