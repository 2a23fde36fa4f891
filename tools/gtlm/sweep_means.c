/* Means across workloads: geometric (normalised ratios), harmonic (rates) and arithmetic. */
#include <math.h>

#include "sweep.h"

const char *sw_mean_name(int kind)
{
    return kind == SW_GEOMEAN ? "geomean" : kind == SW_HMEAN ? "hmean" : "amean";
}

int sw_mean(int kind, const double *v, int n, double *out)
{
    *out = 0.0;
    if (n == 0) return 0;
    double acc = 0.0;
    for (int i = 0; i < n; i++) {
        if (kind != SW_AMEAN && !(v[i] > 0.0)) return 0; /* log or 1/x of a non-positive value */
        acc += kind == SW_GEOMEAN ? log(v[i]) : kind == SW_HMEAN ? 1.0 / v[i] : v[i];
    }
    *out = kind == SW_GEOMEAN ? exp(acc / n) : kind == SW_HMEAN ? n / acc : acc / n;
    return 1;
}
