/* test_option_table: the rows of cli/option_rows.c are whole (a new row
 * that forgets a field fails here, not at a user's command line), and the
 * parse built from them keeps run's, compare's and sweep's behaviour:
 * defaults, ranges, lists, the one pass that still sees --bisect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/sweep_args.h"
#include "model/config_keys.h"
#include "server/server.h"

static struct options o; /* large: off the stack */
static struct sweep_args sa;

/* Each row: a name and short flag no other row of its commands has (record's
 * -d is its own: its getopt table holds its rows alone), what
 * its type needs, help lines that fit --help's column, a command; a row
 * stored in sweep's or serve's own struct is that command's alone. */
static void test_rows_whole(void **state)
{
    (void)state;
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        assert_true(r->cmds != 0);
        assert_non_null(r->help);
        for (size_t j = 0; j < i; j++) {
            assert_true(!r->short_opt || r->short_opt != opt_rows[j].short_opt ||
                        (r->cmds == IN_RECORD && !(opt_rows[j].cmds & IN_RECORD)));
            assert_true(strcmp(r->name, opt_rows[j].name) || !(r->cmds & opt_rows[j].cmds));
        }
        assert_true(r->home != HOME_SWEEP || r->cmds == IN_SWEEP);
        assert_true(r->home != HOME_SERVE || r->cmds == IN_SERVE);
        assert_true(r->home != HOME_RECORD || r->cmds == IN_RECORD);
        assert_true(!(r->cmds & IN_SERVE) || r->cmds == IN_SERVE || r->type >= OT_HELP);
        assert_true(r->type != OT_CUSTOM || r->parse);
        assert_true(r->type != OT_STRING || opt_size(r) > 1);
        /* a run_config field is named by its config_keys row, which exists */
        assert_true(r->home != HOME_CFG || (r->cfg_key && config_key_find(r->cfg_key)));
        assert_true(r->home != HOME_CFG || r->type == OT_CUSTOM || opt_at(r, &o));
        assert_true(r->type != OT_CHOICE || (r->choices && r->nchoices > 0));
        assert_true(r->type != OT_INT || r->min <= r->max);
        assert_true(!r->lists || r->parse_list);
        assert_true((r->arg == NULL) == (r->type == OT_FLAG || r->type == OT_HELP ||
                                         r->type == OT_VERSION));
        for (const char *h = r->help; *h;) {
            size_t n = strcspn(h, "\n");
            assert_true(n <= 54); /* 25 + 54 columns */
            h += n + (h[n] == '\n');
        }
        /* a group for every row but -h and -V, shown only where it is taken */
        assert_true((r->group == G_NONE) == (r->type == OT_HELP || r->type == OT_VERSION));
        assert_true(r->group < G_N && (r->essential & ~r->cmds) == 0);
    }
}

/* A row's values are its choices, in their order, or its completion's
 * words; each has a line of help. */
static void test_values_are_the_rows(void **state)
{
    (void)state;
    int with = 0;
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!r->nvalues)
            continue;
        with++;
        assert_true(r->type == OT_CHOICE || r->type == OT_CUSTOM);
        assert_true(r->type != OT_CHOICE || r->nvalues == r->nchoices);
        for (int v = 0; v < r->nvalues; v++) {
            assert_non_null(r->values[v].help);
            if (r->type == OT_CHOICE)
                assert_string_equal(r->values[v].name, r->choices[v]);
            else
                assert_non_null(strstr(r->complete, r->values[v].name));
        }
    }
    for (size_t i = 0; i < opt_nrows; i++) /* every choice row has them */
        assert_true(opt_rows[i].type != OT_CHOICE || opt_rows[i].nvalues);
    assert_true(with >= 7);
}

/* argv of a command from a NULL-terminated list. */
static int parse(enum opt_cmd cmd, char *err, ...)
{
    static char *argv[32];
    va_list ap;
    int argc = 0;
    argv[argc++] = "cmd";
    va_start(ap, err);
    for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return options_parse(argc, argv, cmd, cmd == CMD_SWEEP ? &sa : NULL, &o, err);
}

static void test_defaults_from_rows(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_int_equal(parse(CMD_RUN, err, NULL), 0);
    assert_true(o.cfg.rate == 10 && o.cfg.connections == 4 && o.cfg.vms == 150);
    assert_true(o.cfg.duration_ns == 30000000000LL && o.cfg.timeout_ns == 10000000000LL);
    assert_true(o.cfg.interval_ns == 1000000000LL && o.cfg.seed == 1);
    assert_true(o.cfg.validate == VALIDATE_CHEAP && !o.cfg.pacer_window_auto &&
                o.cfg.pacer_window_ns == 50 * 1000LL); /* 50us, fixed */
    assert_true(o.cfg.npcts == 4 && o.cfg.pcts[3] == 99.9 && o.cfg.cpu_saturation == 95);
    assert_true(o.cfg.max_response == 64u << 20 && o.cfg.idle_baseline_ns == -1);
    assert_string_equal(o.encoding, "xmlrpc");
    assert_string_equal(o.cfg.verbs[0].name, "getAllVmStats");
    assert_true(!o.encoding_given && !o.verb_given);
    assert_int_equal(parse(CMD_COMPARE, err, NULL), 0);
    assert_int_equal(o.rounds, 3);
}

static void test_serve_rows(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    struct server_config sc;
    char *def[] = {"serve", NULL};
    assert_int_equal(options_parse_serve(1, def, &sc, err), 0);
    assert_string_equal(sc.host, "127.0.0.1");
    assert_true(sc.port == 54321 && sc.vms == 150 && sc.seed == 1 && sc.workers == 0);
    assert_true(sc.max_body == 16u << 20 && sc.idle_ns == 60000000000LL && sc.max_conns == 10000);
    assert_true(!sc.delay && !sc.tls_cert && !sc.tls_key && !sc.tls_ca);
    char *argv[] = {"serve", "--listen", "[::1]:0", "--seed", "9000000000", "--delay", "exp:5ms",
                    "--tls-cert", "c.pem", "--work-us-per-vm", "7", NULL};
    assert_int_equal(options_parse_serve(11, argv, &sc, err), 0);
    assert_string_equal(sc.host, "::1");
    assert_true(sc.port == 0 && sc.seed == 9000000000ULL && sc.work_us_per_vm == 7);
    assert_ptr_equal(sc.delay, argv[6]); /* borrowed from argv */
    assert_ptr_equal(sc.tls_cert, argv[8]);
    char *bad[] = {"serve", "--rate", "5", NULL};
    assert_int_equal(options_parse_serve(3, bad, &sc, err), -1);
    assert_string_equal(err, "unknown option '--rate' (see --help)");
}

static void test_values_and_messages(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_int_equal(parse(CMD_RUN, err, "-c", "16", "--seed=7", "--arrival", "poisson",
                           "--busy-poll", "-R", "4/m", NULL), 0);
    assert_true(o.cfg.connections == 16 && o.cfg.seed == 7 && o.cfg.arrival == ARRIVAL_POISSON);
    assert_true(o.cfg.busy_poll && o.cfg.rate > 0.066 && o.cfg.rate < 0.067);
    assert_int_equal(parse(CMD_RUN, err, "--connections", "0", NULL), -1);
    assert_string_equal(err, "--connections: '0' is not an integer in 1..10000");
    assert_int_equal(parse(CMD_RUN, err, "--interval", "5ms", NULL), -1);
    assert_string_equal(err, "--interval: 10ms at least (e.g. 1s)");
    assert_int_equal(parse(CMD_RUN, err, "--rounds", "3", NULL), -1);
    assert_string_equal(err, "--rounds: only for compare (run makes one run)");
    assert_int_equal(parse(CMD_RUN, err, "--repeat", "3", NULL), -1);
    assert_string_equal(err, "unknown option '--repeat' (see --help)");
    assert_int_equal(parse(CMD_RUN, err, "-d", "5s", "--duration", "6s", NULL), -1);
    assert_non_null(strstr(err, "--duration: given twice"));
}

static void test_sweep_lists_one_pass(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_int_equal(parse(CMD_SWEEP, err, "-R", "5,10:30:10", "-c1,2", "--repeat", "2",
                           "-d", "2s", "--rate", "7,8", NULL), 0);
    assert_int_equal(sa.nrates, 2); /* a later list replaces the one before */
    assert_true(sa.rates[0] == 7 && sa.rates[1] == 8 && sa.rate_given);
    assert_true(sa.nconns == 2 && sa.conns[1] == 2 && sa.repeat == 2);
    assert_true(o.cfg.duration_ns == 2000000000LL && o.cfg.connections == 4);
    assert_int_equal(parse(CMD_SWEEP, err, "--junit", "x.xml", NULL), -1);
    assert_string_equal(err, "--junit: only for run, compare and report (sweep makes many runs)");
}

static void test_bisect_seen_after_error(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_int_equal(parse(CMD_COMPARE, err, "--bogus", "--bisect", NULL), -1);
    assert_true(o.bisect);
    assert_int_equal(parse(CMD_COMPARE, err, "--bogus", "--", "--bisect", NULL), -1);
    assert_false(o.bisect);
}

/* Every row run or compare takes is compared by compare, or says it need
 * not be (options_diff_fields fails on a row that says neither); the
 * options issue 36 found forgotten are among the fields. */
static void test_every_run_option_compared(void **state)
{
    (void)state;
    struct config_field f[CONFIG_FIELDS_MAX];
    char err[ERR_LEN] = "";
    int n = options_diff_fields(f, err);
    if (n < 0)
        print_error("%s\n", err);
    assert_true(n > 0);
    static const char *const want[] = {"validate", "warmup", "timeout", "seed", "stages",
                                       "connections", "rate", "duration", "interval"};
    for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= !strcmp(f[i].name, want[w]);
        if (!found)
            print_error("--%s is not compared\n", want[w]);
        assert_true(found);
    }
    for (int i = 0; i < n; i++) /* each reads something */
        assert_true(f[i].kind != CK_BY_TYPE);
}

/* Every option compared by its value in run_config is saved under a key
 * of config_keys (result_json walks it) or, for the few a saved result
 * keeps elsewhere, named here with where: else compare A.json B.json
 * would call two runs an A/A that differ by it. */
static void test_every_compared_option_saved(void **state)
{
    (void)state;
    static const char *const elsewhere[] = {
        "insecure", /* tls_insecure, in the transport object */
    };
    struct config_field f[CONFIG_FIELDS_MAX];
    char err[ERR_LEN] = "";
    int n = options_diff_fields(f, err);
    assert_true(n > 0);
    int missing = 0;
    for (int i = 0; i < n; i++) {
        if (f[i].kind > CK_TEXT)
            continue; /* read from the result: verbs, URL, server... */
        int saved = 0;
        for (size_t k = 0; k < config_nkeys; k++)
            saved |= config_keys[k].off == f[i].off && !(config_keys[k].flags & CFK_UNSAVED);
        for (size_t e = 0; e < sizeof elsewhere / sizeof *elsewhere; e++)
            saved |= !strcmp(f[i].name, elsewhere[e]);
        if (!saved)
            print_error("--%s is compared but not saved (model/config_keys.c)\n", f[i].name);
        missing += !saved;
    }
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_whole),
        cmocka_unit_test(test_values_are_the_rows),
        cmocka_unit_test(test_defaults_from_rows),
        cmocka_unit_test(test_serve_rows),
        cmocka_unit_test(test_values_and_messages),
        cmocka_unit_test(test_sweep_lists_one_pass),
        cmocka_unit_test(test_bisect_seen_after_error),
        cmocka_unit_test(test_every_run_option_compared),
        cmocka_unit_test(test_every_compared_option_saved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
