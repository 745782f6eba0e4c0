/* cmd_record: `rpcbench record`: its options are rows of option_rows.c
 * (record/proxy.h does the proxying and the recording). */
#include <stdio.h>
#include <string.h>

#include "base/exit_code.h"
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "net/target.h"
#include "record/proxy.h"

/* What the rows cannot check alone: the two required options, the URL,
 * the files. @return 0, or -1 with err. */
static int check(const struct record_config *c, char *err)
{
    struct target t;
    if (!c->listen[0] || !c->to[0]) {
        snprintf(err, ERR_LEN, "%s is required (see --help)", c->listen[0] ? "--to" : "--listen");
        return -1;
    }
    if (target_parse(c->to, "/", &t, err) < 0) {
        cli_name_error("--to", err);
        return -1;
    }
    int tls_to = t.scheme == SCHEME_HTTPS || t.scheme == SCHEME_STOMPS;
    if (!tls_to && (c->cacert[0] || c->cert[0] || c->key[0] || c->insecure)) {
        snprintf(err, ERR_LEN, "--cacert, --cert, --key and --insecure need an https:// or "
                 "stomps:// --to");
        return -1;
    }
    if (c->max_msg < 1024) {
        snprintf(err, ERR_LEN, "--max-body: 1KiB at least");
        return -1;
    }
    return cli_check_tls_files(c->tls_cert, c->tls_key, NULL, err) ||
                   cli_check_readable("--cacert", c->cacert, err) ||
                   cli_check_readable("--cert", c->cert, err) ||
                   cli_check_readable("--key", c->key, err) ||
                   cli_check_out_path("--out", c->out, err)
               ? -1
               : 0;
}

int cmd_record(int argc, char **argv)
{
    static struct record_config c;
    static struct proxy p; /* large: off the stack */
    char err[ERR_LEN] = "", bound[300];
    int rc = options_parse_record(argc, argv, &c, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
    if (rc < 0 || check(&c, err) < 0) {
        fprintf(stderr, "rpcbench record: %s\n", err);
        return EXIT_USAGE;
    }
    if (proxy_start(&p, &c, bound, sizeof bound, err) < 0) {
        fprintf(stderr, "rpcbench record: %s\n", err);
        proxy_free(&p);
        return EXIT_RUN_FAILED;
    }
    printf("listening on %s\n", bound);
    fflush(stdout);
    proxy_run(&p);
    rc = proxy_finish(&p, stderr, err) < 0 ? EXIT_RUN_FAILED : EXIT_OK;
    if (rc != EXIT_OK)
        fprintf(stderr, "rpcbench record: %s\n", err);
    proxy_free(&p);
    return rc;
}
