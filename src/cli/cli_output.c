/* cli_output: the --format switch (cli_output.h). */
#include "cli/cli_output.h"

#include "report/report.h"
#include "report/report_csv.h"
#include "model/result_json.h"

int cli_write_result(FILE *out, enum out_format f, const struct run_result *r, char *err)
{
    switch (f) {
    case FORMAT_JSON: {
        json_object *j = result_to_json(r);
        fputs(result_json_text(j), out);
        fputc('\n', out);
        json_object_put(j);
        return 0;
    }
    case FORMAT_CSV: report_csv(out, r); return 0;
    case FORMAT_CSV_SUMMARY: report_csv_summary(out, r); return 0;
    case FORMAT_CSV_BUCKETS: return report_csv_buckets(out, r, err);
    case FORMAT_CSV_TARGETS: report_csv_targets(out, r); return 0;
    default: return report_text(out, r, err);
    }
}
