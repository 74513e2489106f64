/* test_placement.c: a user's rung among the built-in rungs, on a synthetic bench (results made
 * here, no run): the rungs just below and above it on its problem and backend, passing over
 * peers, other users' rungs, rungs that failed their checks and other problems; each ratio with
 * its verdict, the line under the table that says so, the rung marked in the table and the
 * Markdown table, "user": true and the samples in the JSON, read back by pl_bench_rows_read. */
#include "check.h"
#include "harness/harness.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

enum { N_RUNS = 12 };

/* A passing result of v on problem id, N_RUNS times spread around median_ms. */
static void result(pl_result *r, const pl_kernel *k, const pl_variant *v, int problem, double median_ms)
{
    memset(r, 0, sizeof *r);
    r->kernel = k, r->variant = v, r->problem_id = problem;
    snprintf(r->size, sizeof r->size, "256x256x256");
    r->threads = 2, r->repeats = N_RUNS, r->unit = k->unit, r->check = PL_CHECK_FULL;
    r->verified = r->padding_ok = r->inputs_ok = 1;
    r->ceiling_pct = 50, r->bound = 1e-5, r->elem_bound = 1;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "CPU FMA peak");
    for (int i = 0; i < PL_N_PHASES; i++) r->phase_s[i] = -1;
    r->n_samples = N_RUNS;
    for (int i = 0; i < N_RUNS; i++) r->samples[i] = median_ms * 1e-3 * (1 + 0.002 * ((i * 5) % N_RUNS - 5.5));
    double sorted[N_RUNS];
    memcpy(sorted, r->samples, sizeof sorted);
    pl_stats_summary(sorted, N_RUNS, &r->median_s, &r->min_s, &r->max_s);
    r->phase_s[PL_PHASE_KERNEL] = r->median_s;
    r->work = 2.0 * 256 * 256 * 256;
    r->rate = r->work / r->median_s / 1e9;
}

static char *text_of(void (*write)(FILE *, const pl_result *, int), const pl_result *r, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    write(m, r, n);
    fclose(m);
    return text;
}

int main(void)
{
    const pl_kernel *k = pl_kernel_find("gemm");
    const pl_variant *naive = pl_variant_find(k, "cpu-naive"), *simd = pl_variant_find(k, "cpu-simd");
    const pl_variant *blocked = pl_variant_find(k, "cpu-simd-blocked"), *packed = pl_variant_find(k, "cpu-packed");
    const pl_variant *peer = NULL;
    for (int i = 0; i < k->n_variants; i++)
        if (k->ladder[i]->is_peer && k->ladder[i]->backend == PL_BACKEND_CPU) peer = k->ladder[i];
    CHECK(naive && simd && blocked && packed && peer, "gemm's CPU rungs and a CPU peer");
    if (!naive || !simd || !blocked || !packed || !peer) return check_summary("test_placement");
    pl_variant mine = *simd, theirs = *simd;
    mine.name = "mine", mine.is_user = 1, mine.n_params = 0;
    theirs.name = "theirs", theirs.is_user = 1, theirs.n_params = 0;

    pl_result r[8];
    result(&r[0], k, naive, 1, 40);   /* far below */
    result(&r[1], k, simd, 1, 4);     /* just below mine: mine 2x faster */
    result(&r[2], k, &mine, 1, 2);
    result(&r[3], k, blocked, 1, 1);  /* just above mine: mine 0.5x */
    result(&r[4], k, packed, 1, 0.1); /* far above */
    result(&r[5], k, peer, 1, 1.9);   /* a peer: never a neighbour */
    result(&r[6], k, &theirs, 1, 1.5); /* another user's rung: never a neighbour */
    result(&r[7], k, blocked, 2, 2.5); /* another problem */
    const int n = 8;
    pl_results_peer_ratios(r, n);

    pl_placement pl;
    CHECK(pl_place_user_rung(r, n, 2, &pl) == PL_OK, "placed: %s", pl_last_error());
    CHECK(pl.below == 1 && pl.above == 3, "between cpu-simd and cpu-simd-blocked: got %d and %d", pl.below, pl.above);
    CHECK(fabs(pl.vs_below.speedup - 2) < 1e-9 && pl.vs_below.verdict == PL_VERDICT_FASTER && pl.vs_below.p < 0.001,
          "2x faster than cpu-simd: %g, %s, p %g", pl.vs_below.speedup, pl_verdict_name(pl.vs_below.verdict),
          pl.vs_below.p);
    CHECK(fabs(pl.vs_above.speedup - 0.5) < 1e-9 && pl.vs_above.verdict == PL_VERDICT_SLOWER,
          "0.5x of cpu-simd-blocked: %g, %s", pl.vs_above.speedup, pl_verdict_name(pl.vs_above.verdict));
    /* a rung that failed its checks is no neighbour: cpu-simd-blocked out, cpu-packed above */
    r[3].verified = 0;
    pl_place_user_rung(r, n, 2, &pl);
    CHECK(pl.above == 4, "a failed rung passed over: above is %d", pl.above);
    r[3].verified = 1;
    /* the fastest: nothing above */
    pl_place_user_rung(r, n, 6, &pl);
    CHECK(pl.above == 3 && pl.below == 1, "theirs (1.5 ms) between cpu-simd and cpu-simd-blocked, the other user's "
          "rung passed over: %d, %d", pl.below, pl.above);
    r[4].problem_id = 3;
    r[3].problem_id = 3;
    pl_place_user_rung(r, n, 2, &pl);
    CHECK(pl.above == -1 && pl.below == 1, "no faster rung: above -1, got %d", pl.above);
    r[3].problem_id = r[4].problem_id = 1;

    char *footer = text_of(pl_report_footer, r, n);
    CHECK(strstr(footer, "mine 256x256x256: between cpu-simd (2.00x, faster, p<0.001) and cpu-simd-blocked (0.50x, "
                         "slower, p<0.001); 50% of the CPU FMA peak; ") != NULL,
          "the placement line:\n%s", footer);
    CHECK(strstr(footer, "\n*: your rung") != NULL, "the mark explained:\n%s", footer);
    char *table = text_of(pl_report_table, r, n);
    CHECK(strstr(table, "\nmine *  ") && strstr(table, "\ntheirs *  ") && !strstr(table, "cpu-simd *"),
          "user rungs marked, built-in ones not:\n%s", table);
    /* without a user's rung the footer says nothing of placement */
    char *plain = text_of(pl_report_footer, r, 2);
    CHECK(!strstr(plain, "your rung"), "no user's rung, no placement:\n%s", plain);

    char *md = NULL;
    size_t md_len = 0;
    FILE *m = open_memstream(&md, &md_len);
    pl_report_markdown(m, "gemm: heading", r, n);
    fclose(m);
    CHECK(!strncmp(md, "gemm: heading\n\n| variant | params | size | thr | median ms |", 57),
          "markdown heading and columns:\n%s", md);
    CHECK(strstr(md, "\n| --- | --- | --- | ---: | ---: |") && strstr(md, "\n| mine * |") &&
              strstr(md, "\n\nmine 256x256x256: between cpu-simd"),
          "markdown rows and the lines under it:\n%s", md);

    char path[] = "/tmp/test_placement_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "a temporary file");
    close(fd);
    CHECK(pl_report_json(path, r, n, NULL) == PL_OK, "JSON written: %s", pl_last_error());
    pl_bench_row *rows = NULL;
    int n_rows = 0;
    CHECK(pl_bench_rows_read(path, &rows, &n_rows) == PL_OK && n_rows == n, "read back: %d rows, %s", n_rows,
          pl_last_error());
    int users = 0, samples_ok = 1;
    for (int i = 0; i < n_rows; i++) {
        users += rows[i].user;
        samples_ok &= rows[i].n_samples == N_RUNS && fabs(rows[i].samples[3] - r[i].samples[3]) <= 1e-8 * r[i].samples[3];
    }
    CHECK(n_rows == n && users == 2 && rows[2].user && rows[6].user, "user: true on the users' rungs only (%d)", users);
    CHECK(samples_ok, "the samples read back in their order");
    CHECK(n_rows == n && !strcmp(rows[1].params, "isa=auto") && !strcmp(rows[1].variant, "cpu-simd"),
          "params as sorted text: '%s'", n_rows ? rows[1].params : "");
    free(rows);
    unlink(path);
    free(footer), free(table), free(plain), free(md);
    return check_summary("test_placement");
}
