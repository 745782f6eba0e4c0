/* fuzz_result_load: the JSON result loader behind `compare A.json B.json`
 * and `report`, which read files a user hands them. Whatever loads must
 * render as a text report, save again, and merge with itself; a saved
 * sweep must render as its table, CSV, capacity and buckets, with its
 * first cell as the baseline, and save again. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "model/result_json.h"
#include "model/result_merge.h"
#include "model/sweep_json.h"
#include "report/sweep_out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sweep_case(json_object *root)
{
    struct sweep s;
    char err[ERR_LEN];
    if (sweep_load_json(&s, root, err) == 0) {
        FILE *null = fopen("/dev/null", "w");
        size_t cell;
        long base = sweep_select(&s, "1", &cell, err) == 0 ? (long)cell : -1;
        if (null) {
            (void)sweep_table_text(null, &s, base, err);
            (void)sweep_table_csv(null, &s, base);
            sweep_capacity_text(null, &s);
            (void)sweep_buckets_text(null, &s, "auto", err);
            fclose(null);
        }
        json_object_put(sweep_to_json(&s));
    }
    sweep_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return 0;
    json_object *root = json_tokener_parse_ex(tok, (const char *)data, (int)size);
    json_tokener_free(tok);
    if (!root)
        return 0;
    if (result_json_is_sweep(root)) {
        sweep_case(root);
        json_object_put(root);
        return 0;
    }
    struct run_result r, twice;
    char err[ERR_LEN];
    if (result_load_json(&r, root, err) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            (void)report_text(null, &r, err);
            report_csv(null, &r);
            fclose(null);
        }
        json_object_put(result_to_json(&r));
        if (result_init(&twice, &r.cfg) == 0) {
            (void)result_merge(&twice, &r, RESULT_MERGE_CONCURRENT, err);
            (void)result_merge(&twice, &r, RESULT_MERGE_SEQUENTIAL, err);
        }
        result_free(&twice);
    }
    result_free(&r);
    json_object_put(root);
    return 0;
}
