/* test_stats.c: the statistics of src/harness/stats.c against known figures. The Mann-Whitney U
 * test's p and U as scipy 1.17.1 computes them (each call in the comment above its figures),
 * exact and asymptotic, with and without ties; the bootstrap interval of a ratio of medians:
 * the point is the ratio of the medians, the interval holds it, is the same from run to run
 * (a fixed seed), and lies off 1 for samples far apart and across 1 for one sample against
 * itself; the verdict's three outcomes and "no samples". */
#include "check.h"
#include "harness/harness.h"

#include <math.h>
#include <string.h>

#define N_OF(a) ((int)(sizeof(a) / sizeof(a)[0]))

static void mwu(const double *x, int nx, const double *y, int ny, double want_u, double want_p, const char *what)
{
    double u;
    const double p = pl_mann_whitney(x, nx, y, ny, &u);
    CHECK(fabs(u - want_u) < 1e-12, "%s: U %g, scipy %g", what, u, want_u);
    CHECK(fabs(p - want_p) <= 1e-12 * want_p, "%s: p %.17g, scipy %.17g", what, p, want_p);
}

static void test_mann_whitney(void)
{
    /* mannwhitneyu([1.1,2.3,0.7,4.5,3.3,2.9], [5.1,6.2,3.9,7.7,4.8], alternative='two-sided',
     *              method='exact') -> statistic 1.0, pvalue 0.008658008658008658 */
    const double x1[] = {1.1, 2.3, 0.7, 4.5, 3.3, 2.9}, y1[] = {5.1, 6.2, 3.9, 7.7, 4.8};
    mwu(x1, N_OF(x1), y1, N_OF(y1), 1.0, 0.008658008658008658, "exact 6 vs 5");
    /* mannwhitneyu([1,2,3], [4,5,6,7], alternative='two-sided', method='exact')
     * -> statistic 0.0, pvalue 0.05714285714285714 (the smallest p of 3 vs 4: never below 0.05) */
    const double x2[] = {1, 2, 3}, y2[] = {4, 5, 6, 7};
    mwu(x2, N_OF(x2), y2, N_OF(y2), 0.0, 0.05714285714285714, "exact 3 vs 4");
    /* mannwhitneyu([1,3,...,19], [2,4,...,18,20.5], alternative='two-sided', method='exact')
     * -> statistic 45.0, pvalue 0.7393643508194593 (10 vs 10: the exact method's largest) */
    const double x3[] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19}, y3[] = {2, 4, 6, 8, 10, 12, 14, 16, 18, 20.5};
    mwu(x3, N_OF(x3), y3, N_OF(y3), 45.0, 0.7393643508194593, "exact 10 vs 10");
    /* ties: the normal approximation with the tie correction.
     * mannwhitneyu([1,2,2,3,4,4,4,5], [3,3,4,5,6,6,7,8,9], alternative='two-sided',
     *              method='asymptotic') -> statistic 12.0, pvalue 0.02230003653317657 */
    const double x4[] = {1, 2, 2, 3, 4, 4, 4, 5}, y4[] = {3, 3, 4, 5, 6, 6, 7, 8, 9};
    mwu(x4, N_OF(x4), y4, N_OF(y4), 12.0, 0.02230003653317657, "ties 8 vs 9");
    /* beyond 10 values: asymptotic. a, b = np.round(np.random.default_rng(1).normal(1.0, 0.05, 20), 4),
     * np.round(<the same generator>.normal(1.03, 0.05, 25), 4); mannwhitneyu(a, b,
     * alternative='two-sided', method='asymptotic') -> statistic 183.0, pvalue 0.1287707925144918 */
    const double a[] = {1.0173, 1.0411, 1.0165, 0.9348, 1.0453, 1.0223, 0.9732, 1.0291, 1.0182, 1.0147,
                        1.0014, 1.0273, 0.9632, 0.9919, 0.9759, 1.0299, 1.002,  0.9854, 0.9609, 0.9871};
    const double b[] = {1.0304, 1.0162, 1.0947, 1.0803, 0.8944, 0.9355, 1.0213, 1.0089, 1.0407,
                        1.0409, 1.1359, 0.9744, 1.0111, 1.1321, 1.0623, 1.0632, 1.0043, 0.9476,
                        1.0384, 1.0355, 0.9686, 0.9958, 1.0264, 0.9828, 1.0251};
    mwu(a, N_OF(a), b, N_OF(b), 183.0, 0.1287707925144918, "asymptotic 20 vs 25");
    /* every value the same: no difference at all */
    const double same[] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    CHECK(pl_mann_whitney(same, 12, same, 12, NULL) == 1, "all tied: p 1");
    CHECK(isnan(pl_mann_whitney(a, 0, b, 3, NULL)), "an empty sample: NaN");
}

static void test_bootstrap(void)
{
    double fast[30], slow[30];
    for (int i = 0; i < 30; i++) {
        fast[i] = 1.0 + 0.01 * ((i * 7) % 11); /* 1.00 .. 1.10 */
        slow[i] = 2.0 + 0.02 * ((i * 5) % 13); /* 2.00 .. 2.24 */
    }
    double sorted[30], fast_median, slow_median, lo_hi;
    memcpy(sorted, fast, sizeof sorted);
    pl_stats_summary(sorted, 30, &fast_median, &lo_hi, &lo_hi);
    memcpy(sorted, slow, sizeof sorted);
    pl_stats_summary(sorted, 30, &slow_median, &lo_hi, &lo_hi);
    double ratio, lo, hi, ratio2, lo2, hi2;
    pl_status s = pl_bootstrap_ratio(slow, 30, fast, 30, 2000, 0.95, 42, &ratio, &lo, &hi);
    CHECK(s == PL_OK, "bootstrap: %s", pl_last_error());
    CHECK(ratio == slow_median / fast_median, "ratio of the medians: %.17g", ratio);
    CHECK(lo <= ratio && ratio <= hi && lo > 1.8 && hi < 2.3, "interval [%g, %g] holds %g, off 1", lo, hi, ratio);
    pl_bootstrap_ratio(slow, 30, fast, 30, 2000, 0.95, 42, &ratio2, &lo2, &hi2);
    CHECK(lo2 == lo && hi2 == hi, "the same seed, the same interval: [%g, %g] then [%g, %g]", lo, hi, lo2, hi2);
    pl_bootstrap_ratio(fast, 30, fast, 30, 2000, 0.95, 42, &ratio, &lo, &hi);
    CHECK(ratio == 1 && lo < 1 && hi > 1, "a sample against itself: %g in [%g, %g] across 1", ratio, lo, hi);
    CHECK(pl_bootstrap_ratio(fast, 0, fast, 30, 2000, 0.95, 42, &ratio, &lo, &hi) == PL_ERR_ARG, "no values refused");

    pl_comparison c;
    CHECK(pl_compare_samples(slow, 30, fast, 30, slow_median, fast_median, &c) == PL_OK && c.verdict == PL_VERDICT_FASTER &&
              c.p < 0.001,
          "slow before, fast after: faster (%s, p %g)", pl_verdict_name(c.verdict), c.p);
    pl_compare_samples(fast, 30, slow, 30, fast_median, slow_median, &c);
    CHECK(c.verdict == PL_VERDICT_SLOWER && c.speedup == fast_median / slow_median, "fast before, slow after: slower (%s)",
          pl_verdict_name(c.verdict));
    pl_compare_samples(fast, 30, fast, 30, fast_median, fast_median, &c);
    CHECK(c.verdict == PL_VERDICT_SAME && c.p == 1, "the same runs: same (%s, p %g)", pl_verdict_name(c.verdict), c.p);
    pl_compare_samples(fast, 0, slow, 30, fast_median, slow_median, &c);
    CHECK(c.verdict == PL_VERDICT_NO_SAMPLES && c.speedup == fast_median / slow_median && isnan(c.p),
          "no samples: the medians' ratio alone (%s)", pl_verdict_name(c.verdict));
}

static void test_verdict(void)
{
    CHECK(pl_verdict_of(1.5, 1.2, 1.8, 0.001) == PL_VERDICT_FASTER, "significant, above 1: faster");
    CHECK(pl_verdict_of(0.5, 0.4, 0.6, 0.001) == PL_VERDICT_SLOWER, "significant, below 1: slower");
    CHECK(pl_verdict_of(1.5, 1.2, 1.8, 0.05) == PL_VERDICT_SAME, "p = 0.05: same");
    CHECK(pl_verdict_of(1.5, 0.9, 1.8, 0.001) == PL_VERDICT_SAME, "interval across 1: same");
    CHECK(pl_verdict_of(1.5, NAN, NAN, NAN) == PL_VERDICT_NO_SAMPLES, "no samples");
    CHECK(!strcmp(pl_verdict_name(PL_VERDICT_SLOWER), "slower") && !strcmp(pl_verdict_name(PL_VERDICT_SAME), "same"),
          "verdict names");
    char buf[32];
    pl_format_p(buf, sizeof buf, 0.0004);
    CHECK(!strcmp(buf, "p<0.001"), "p format: %s", buf);
    pl_format_p(buf, sizeof buf, 0.0234);
    CHECK(!strcmp(buf, "p=0.023"), "p format: %s", buf);
}

int main(void)
{
    test_mann_whitney();
    test_bootstrap();
    test_verdict();
    return check_summary("test_stats");
}
