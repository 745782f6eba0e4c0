#include "results/compare_stats.h"

#include <math.h>
#include <string.h>

/* t_{0.975, df} for df = 1..30 (any statistics table). */
static const double t975[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double compare_stats_t975(int df)
{
    if (df < 1)
        return 0;
    return df <= 30 ? t975[df - 1] : 1.96;
}

int compare_stats_ci(const double *a, const double *b, size_t k, struct ci *out)
{
    memset(out, 0, sizeof *out);
    if (k == 0)
        return -1;
    double sum = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
            return -1;
        sum += log(b[i] / a[i]);
    }
    double n = (double)k;
    double mean = sum / n;
    out->geo_ratio = out->low = out->high = exp(mean);
    if (k < 2)
        return 1;
    double ss = 0; /* two passes: no cancellation when the ratios agree */
    for (size_t i = 0; i < k; i++) {
        double d = log(b[i] / a[i]) - mean;
        ss += d * d;
    }
    double half = compare_stats_t975((int)k - 1) * sqrt(ss / (n - 1)) / sqrt(n);
    out->low = exp(mean - half);
    out->high = exp(mean + half);
    return 0;
}

int compare_stats_significant(const struct ci *ci)
{
    return ci->low > 1.0 || ci->high < 1.0;
}
