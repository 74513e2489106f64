/* stats.c: is one set of timed runs faster than another, or only noisier? Two answers that
 * need no assumption about the shape of the times (they are skewed: a run is slowed by an
 * interrupt, never sped up by one):
 *   - the Mann-Whitney U test, two-sided: from the exact distribution of U when both samples
 *     have at most PL_MWU_EXACT_MAX values and no value is tied, else the normal approximation
 *     with the tie correction and a continuity correction of 1/2 (scipy.stats.mannwhitneyu's
 *     method="exact" and method="asymptotic" give the same p);
 *   - a bootstrap interval of the ratio of the medians: each sample drawn again with replacement,
 *     the ratio of the new medians, PL_BOOTSTRAP_RESAMPLES times from a fixed seed (the same
 *     figures run after run), and the percentiles of the level (numpy's linear interpolation).
 * The verdict is "same" unless both agree: p below PL_SIGNIFICANCE and an interval that does not
 * hold 1. */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pl_verdict_name(pl_verdict v)
{
    switch (v) {
    case PL_VERDICT_FASTER: return "faster";
    case PL_VERDICT_SLOWER: return "slower";
    case PL_VERDICT_SAME: return "same";
    default: return "no samples";
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A value and which sample it came from, for the ranks. */
typedef struct ranked {
    double v;
    int from_x;
} ranked;

static int cmp_ranked(const void *a, const void *b) { return cmp_double(&((const ranked *)a)->v, &((const ranked *)b)->v); }

/* P(U >= u) for samples of m and n values without ties: the count of the arrangements of m x's
 * and n y's whose U (pairs x > y) is at least u, over all C(m+n, m). count[i][j][k]: arrangements
 * of i x's and j y's with U = k; the largest value is an x (it beats the j y's) or a y. */
static double exact_sf(int m, int n, int u)
{
    enum { K = PL_MWU_EXACT_MAX * PL_MWU_EXACT_MAX + 1 };
    double count[PL_MWU_EXACT_MAX + 1][K] = {{0}}; /* count[j][k] for the i of the outer loop */
    for (int i = 0; i <= m; i++)
        for (int j = 0; j <= n; j++) /* in place: count[j] still holds i - 1's row, count[j - 1] is i's */
            for (int k = i * j; k >= 0; k--)
                count[j][k] = (i == 0 || j == 0) ? k == 0
                                                 : (k >= j ? count[j][k - j] : 0) + count[j - 1][k];
    double at_least = 0, all = 0;
    for (int k = 0; k <= m * n; k++) {
        all += count[n][k];
        if (k >= u) at_least += count[n][k];
    }
    return at_least / all;
}

double pl_mann_whitney(const double *x, int nx, const double *y, int ny, double *u_x)
{
    if (u_x) *u_x = NAN;
    if (nx < 1 || ny < 1) return NAN;
    const int n = nx + ny;
    ranked *all = malloc((size_t)n * sizeof *all);
    if (!all) return NAN;
    for (int i = 0; i < nx; i++) all[i] = (ranked){x[i], 1};
    for (int j = 0; j < ny; j++) all[nx + j] = (ranked){y[j], 0};
    qsort(all, (size_t)n, sizeof *all, cmp_ranked);
    /* ranks from 1, tied values sharing the mean of their ranks; ties = sum of t^3 - t */
    double rank_x = 0, ties = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && all[j].v == all[i].v) j++;
        const double t = j - i, mean_rank = 0.5 * (i + 1 + j);
        for (int k = i; k < j; k++)
            if (all[k].from_x) rank_x += mean_rank;
        ties += t * t * t - t;
        i = j;
    }
    free(all);
    const double u1 = rank_x - 0.5 * nx * (nx + 1.0), u = fmax(u1, (double)nx * ny - u1);
    if (u_x) *u_x = u1;
    double p;
    if (ties == 0 && nx <= PL_MWU_EXACT_MAX && ny <= PL_MWU_EXACT_MAX) {
        p = 2 * exact_sf(nx, ny, (int)u);
    } else {
        const double sd = sqrt(nx * (double)ny / 12 * ((n + 1) - ties / ((double)n * (n - 1))));
        if (!(sd > 0)) return 1; /* every value the same */
        const double z = (u - 0.5 * nx * ny - 0.5) / sd;
        p = erfc(z / sqrt(2.0)); /* twice the normal's upper tail */
    }
    return p > 1 ? 1 : p;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The q-quantile (0..1) of sorted v, as numpy.percentile's default (linear) takes it. */
static double quantile(const double *v, int n, double q)
{
    const double at = q * (n - 1);
    const int lo = (int)floor(at);
    return lo + 1 < n ? v[lo] + (at - lo) * (v[lo + 1] - v[lo]) : v[n - 1];
}

pl_status pl_bootstrap_ratio(const double *a, int na, const double *b, int nb, int resamples, double level,
                             uint64_t seed, double *ratio, double *lo, double *hi)
{
    *ratio = *lo = *hi = NAN;
    if (na < 1 || nb < 1 || resamples < 1 || !(level > 0 && level < 1))
        return pl_fail(PL_ERR_ARG, "bootstrap: %d and %d values, %d resamples, level %g", na, nb, resamples, level);
    double *da = malloc((size_t)na * sizeof *da), *db = malloc((size_t)nb * sizeof *db);
    double *ratios = malloc((size_t)resamples * sizeof *ratios);
    if (!da || !db || !ratios) {
        free(da), free(db), free(ratios);
        return pl_fail(PL_ERR_NOMEM, "bootstrap: out of host memory");
    }
    memcpy(da, a, (size_t)na * sizeof *da);
    memcpy(db, b, (size_t)nb * sizeof *db);
    *ratio = median_of(da, na) / median_of(db, nb);
    pl_rng rng;
    pl_rng_seed(&rng, seed);
    for (int r = 0; r < resamples; r++) {
        for (int i = 0; i < na; i++) da[i] = a[pl_rng_next(&rng) % (uint64_t)na];
        for (int j = 0; j < nb; j++) db[j] = b[pl_rng_next(&rng) % (uint64_t)nb];
        ratios[r] = median_of(da, na) / median_of(db, nb);
    }
    qsort(ratios, (size_t)resamples, sizeof *ratios, cmp_double);
    *lo = quantile(ratios, resamples, 0.5 * (1 - level));
    *hi = quantile(ratios, resamples, 1 - 0.5 * (1 - level));
    free(da), free(db), free(ratios);
    return PL_OK;
}

pl_verdict pl_verdict_of(double speedup, double lo, double hi, double p)
{
    if (isnan(p) || isnan(lo) || isnan(hi)) return PL_VERDICT_NO_SAMPLES;
    if (p >= PL_SIGNIFICANCE || (lo <= 1 && hi >= 1)) return PL_VERDICT_SAME;
    return speedup > 1 ? PL_VERDICT_FASTER : PL_VERDICT_SLOWER;
}

pl_status pl_compare_samples(const double *before, int n_before, const double *after, int n_after, double before_median,
                             double after_median, pl_comparison *c)
{
    c->speedup = after_median > 0 ? before_median / after_median : NAN;
    c->lo = c->hi = c->p = NAN;
    c->verdict = PL_VERDICT_NO_SAMPLES;
    if (n_before < 1 || n_after < 1) return PL_OK;
    double ratio;
    pl_status s = pl_bootstrap_ratio(before, n_before, after, n_after, PL_BOOTSTRAP_RESAMPLES, PL_BOOTSTRAP_LEVEL,
                                     PL_BOOTSTRAP_SEED, &ratio, &c->lo, &c->hi);
    if (s != PL_OK) return s;
    c->p = pl_mann_whitney(before, n_before, after, n_after, NULL);
    c->verdict = pl_verdict_of(c->speedup, c->lo, c->hi, c->p);
    return PL_OK;
}

void pl_format_p(char *buf, size_t n, double p)
{
    if (isnan(p)) snprintf(buf, n, "p=?");
    else if (p < 0.001) snprintf(buf, n, "p<0.001");
    else snprintf(buf, n, "p=%.3f", p);
}
