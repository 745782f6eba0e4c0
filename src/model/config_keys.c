/* config_keys: the saved configuration's table (config_keys.h). */
#include "model/config_keys.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "model/config_keys_testing.h"

#define AT(f) .off = offsetof(struct run_config, f), .size = sizeof(((struct run_config *)0)->f)

const struct config_key config_keys[] = {
    {"verbs", CFK_VERBS, AT(verbs)},
    {"custom_method", CFK_BOOL, AT(custom_method)},
    {"label", CFK_TEXT, AT(label)},
    {"rate", CFK_DOUBLE, AT(rate)},
    {"duration_s", CFK_SECONDS, AT(duration_ns)},
    {"warmup_s", CFK_SECONDS_OR_NULL, AT(warmup_ns)},
    {"timeout_s", CFK_SECONDS_OR_NULL, AT(timeout_ns), .dflt = 10}, /* the option's default */
    {"interval_s", CFK_SECONDS, AT(interval_ns), .dflt = 1},
    {"connections", CFK_INT, AT(connections), .lo = 1, .hi = 999999},
    {"arrival", CFK_CHOICE, AT(arrival), .choices = arrival_names, .nchoices = ARRIVAL_N,
     .dflt = ARRIVAL_CONSTANT},
    {"busy_poll", CFK_BOOL, AT(busy_poll)},
    {"pacer_window_auto", CFK_BOOL, AT(pacer_window_auto)}, /* older files: fixed */
    {"pacer_window_us", CFK_WINDOW_US, AT(pacer_window_ns)}, /* fixed; 0 in auto */
    {"seed", CFK_U64, AT(seed)},
    {"validate", CFK_CHOICE, AT(validate), .choices = validate_names, .nchoices = VALIDATE_N,
     .dflt = VALIDATE_CHEAP},
    {"vms", CFK_INT, AT(vms), .lo = 0, .hi = 999999},
    {"buckets", CFK_TEXT, AT(buckets), .dflt_text = "auto"},
    {"percentiles", CFK_PCTS, AT(pcts)},
    {"cpu_saturation", CFK_DOUBLE, AT(cpu_saturation), .dflt = 95},
    {"stages", CFK_STAGES, AT(stages), .flags = CFK_OMIT_EMPTY},
    {"options", CFK_TEXT, AT(options_given)},
    {"job_file", CFK_TEXT, AT(job_file), .flags = CFK_OMIT_EMPTY},
    {"job_options", CFK_TEXT, AT(options_from_job), .flags = CFK_OMIT_EMPTY},
    /* compared (cli/options_diff.c), so saved too: test_option_table says so */
    {"vm_id", CFK_TEXT, AT(vm_id), .flags = CFK_OMIT_EMPTY},
    {"params", CFK_TEXT, AT(method_params), .flags = CFK_OMIT_EMPTY},
    {"targets_file", CFK_TEXT, AT(targets_file), .flags = CFK_OMIT_EMPTY},
    {"replay", CFK_TEXT, AT(replay), .flags = CFK_OMIT_EMPTY},
    {"replay_as", CFK_TEXT, AT(replay_as), .flags = CFK_OMIT_EMPTY},
    {"replay_speed", CFK_DOUBLE, AT(replay_speed), .dflt = 1, .flags = CFK_OMIT_EMPTY},
    {"replay_loop", CFK_BOOL, AT(replay_loop), .flags = CFK_OMIT_EMPTY},
    {"server_agent", CFK_TEXT, AT(agent_url), .flags = CFK_OMIT_EMPTY},
    {"idle_baseline_s", CFK_SECONDS_OR_NULL, AT(idle_baseline_ns), .dflt = -1}, /* null: default */
    {"max_response", CFK_SIZE, AT(max_response), .dflt = 64 << 20, .hi = 1e12},
    {"cacert", CFK_TEXT, AT(cacert), .flags = CFK_OMIT_EMPTY},
    {"cert", CFK_TEXT, AT(cert), .flags = CFK_OMIT_EMPTY},
    {"key", CFK_TEXT, AT(key), .flags = CFK_OMIT_EMPTY}, /* its path: no secret */
    {"stomp_destination", CFK_TEXT, AT(stomp_destination), .flags = CFK_OMIT_EMPTY},
    /* fields no file keeps: options' (their rows name them), what other rows
     * or objects save (target.url, the verbs' count...), secrets, and what
     * the ranks of an MPI run share; every field of struct run_config has a
     * row, so dist_pack.c sends the whole configuration by walking them */
    {"url", CFK_TEXT, AT(url), .flags = CFK_UNSAVED},         /* target.url */
    {"encoding", CFK_TEXT, AT(encoding), .flags = CFK_UNSAVED}, /* target.proto */
    {"nverbs", CFK_BYTES, AT(nverbs), .flags = CFK_UNSAVED},   /* with verbs */
    {"workload", CFK_TEXT, AT(workload), .flags = CFK_UNSAVED}, /* options says it */
    {"npcts", CFK_BYTES, AT(npcts), .flags = CFK_UNSAVED},     /* with percentiles */
    {"server_pids", CFK_BYTES, AT(server_pids), .flags = CFK_UNSAVED}, /* server_cpu.pids */
    {"nserver_pids", CFK_BYTES, AT(nserver_pids), .flags = CFK_UNSAVED},
    {"headers", CFK_BYTES, AT(headers), .flags = CFK_UNSAVED}, /* secrets */
    {"stomp_login", CFK_BYTES, AT(stomp_login), .flags = CFK_UNSAVED},
    {"stomp_passcode", CFK_BYTES, AT(stomp_passcode), .flags = CFK_UNSAVED},
    {"auth_shown", CFK_TEXT, AT(auth_shown), .flags = CFK_UNSAVED}, /* the transport object */
    {"headers_shown", CFK_TEXT, AT(headers_shown), .flags = CFK_UNSAVED},
    {"expects", CFK_BYTES, AT(expects), .flags = CFK_UNSAVED}, /* the checks object */
    {"nexpects", CFK_BYTES, AT(nexpects), .flags = CFK_UNSAVED},
    {"split_ranks", CFK_BYTES, AT(split_ranks), .flags = CFK_UNSAVED},
    {"split_rank", CFK_BYTES, AT(split_rank), .flags = CFK_UNSAVED},
    {"nstages", CFK_BYTES, AT(nstages), .flags = CFK_UNSAVED}, /* with stages */
    {"server_name", CFK_TEXT, AT(server_name), .flags = CFK_UNSAVED}, /* the pids are saved */
    {"token_file", CFK_TEXT, AT(agent_token_file), .flags = CFK_UNSAVED},
    {"insecure", CFK_BOOL, AT(tls_insecure), .flags = CFK_UNSAVED}, /* the TLS line says it */
    {"quiet", CFK_BOOL, AT(quiet), .flags = CFK_UNSAVED},
};

const size_t config_nkeys = sizeof config_keys / sizeof config_keys[0];

/* A test's row (config_keys_testing.h), walked after the table's. */
static const struct config_key *test_row;

void config_keys_test_add(const struct config_key *row)
{
    test_row = row;
}

size_t config_keys_n(void)
{
    return config_nkeys + (test_row != NULL);
}

const struct config_key *config_key_i(size_t i)
{
    return i < config_nkeys ? &config_keys[i] : test_row;
}

const struct config_key *config_key_find(const char *key)
{
    for (size_t i = 0; i < config_keys_n(); i++)
        if (!strcmp(config_key_i(i)->key, key))
            return config_key_i(i);
    return NULL;
}

void config_key_text(const struct config_key *k, const struct run_config *c, char *out,
                     size_t len)
{
    const char *at = config_key_in(k, c);
    int i;
    int64_t ns;
    out[0] = '\0';
    switch (k->kind) {
    case CFK_BOOL: memcpy(&i, at, sizeof i); snprintf(out, len, "%s", i ? "on" : "off"); break;
    case CFK_INT: memcpy(&i, at, sizeof i); snprintf(out, len, "%d", i); break;
    case CFK_U64: snprintf(out, len, "%llu", (unsigned long long)*(const uint64_t *)at); break;
    case CFK_DOUBLE: snprintf(out, len, "%g", *(const double *)at); break;
    case CFK_SECONDS: case CFK_SECONDS_OR_NULL: case CFK_WINDOW_US:
        memcpy(&ns, at, sizeof ns);
        units_format_duration(ns, out, len);
        break;
    case CFK_SIZE: snprintf(out, len, "%zu B", *(const size_t *)at); break;
    case CFK_CHOICE:
        memcpy(&i, at, sizeof i);
        snprintf(out, len, "%s", i >= 0 && i < k->nchoices ? k->choices[i] : "?");
        break;
    case CFK_TEXT: snprintf(out, len, "%.*s", (int)strnlen(at, k->size), at); break;
    default: return; /* verbs, percentiles, stages, bytes: their own lines */
    }
    if (!out[0])
        snprintf(out, len, "none");
}
