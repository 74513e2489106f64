/* test_session.c: the library's bench session (src/harness/session.h), as `parlab bench`,
 * `parlab sweep` and parlab.bench run it: its results and what it says through the hooks; the
 * kernel's problem struct made once a size for the plan, the estimates and the runs (counted
 * through a copy of gemm whose make_problem counts its calls); the jobs max_time leaves out; a
 * cancel flag that stops it. */
#include "check.h"
#include "harness/session.h"

#include <string.h>

static const pl_kernel *gemm;
static int made; /* make_problem calls */

static pl_status counting_make(void *problem, const char *size, const pl_pvalues *pv)
{
    made++;
    return gemm->make_problem(problem, size, pv);
}

typedef struct heard {
    int lines[PL_SAY_ERROR + 1];
    char first[PL_SAY_ERROR + 1][256];
} heard;

static void listen(void *user, pl_say kind, const char *text)
{
    heard *h = user;
    if (!h->lines[kind]++) snprintf(h->first[kind], sizeof h->first[kind], "%s", text);
}

static void start(pl_session *s, const pl_kernel *k, const char *const *sizes, int n, heard *h)
{
    pl_session_init(s, k);
    s->sizes = sizes;
    s->n_sizes = n;
    s->threads = 1;
    s->cfg.repeats = 2;
    memset(h, 0, sizeof *h);
    s->hooks = (pl_session_hooks){.user = h, .say = listen};
}

/* Two sizes, a named rung: a verified result at each, nothing said. */
static void check_runs(void)
{
    static const char *const sizes[] = {"48", "33x65x17"};
    pl_session s;
    heard h;
    start(&s, gemm, sizes, 2, &h);
    CHECK(pl_session_add_job(&s, pl_variant_find(gemm, "cpu-naive"), NULL, 0) == PL_OK, "add a job");
    CHECK(pl_session_prepare(&s) == PL_OK, "prepare: %s", pl_last_error());
    CHECK(pl_session_run(&s) == PL_OK, "run: %s", pl_last_error());
    CHECK(s.n_results == 2 && s.failures == 0, "%d results, %d failures (2, 0)", s.n_results, s.failures);
    for (int i = 0; i < s.n_results; i++)
        CHECK(s.results[i].verified && s.results[i].problem_id == s.size_problem[i], "result %d verified, on size %d", i, i);
    CHECK(s.n_results == 2 && !strcmp(s.results[1].size, "33x65x17"), "the second size: '%s'", s.results[1].size);
    CHECK(h.lines[PL_SAY_ERROR] + h.lines[PL_SAY_INFO] == 0, "nothing to say (%s)", h.first[PL_SAY_ERROR]);
    pl_session_free(&s);
}

/* An auto-selected rung at medium estimated over max_time is left out with a line, and the
 * problem structs are made once each: medium's, and small's for the probe; a size that is the
 * probe's own lends its struct. */
static void check_made_once_and_left_out(void)
{
    pl_kernel counting = *gemm;
    counting.make_problem = counting_make;
    static const char *const one[] = {"medium"}, *const two[] = {"medium", "small"};
    const char *const *lists[] = {one, two};
    for (int l = 0; l < 2; l++) {
        pl_session s;
        heard h;
        start(&s, &counting, lists[l], l + 1, &h);
        s.max_time = 1e-9;
        made = 0;
        CHECK(pl_session_add_job(&s, pl_variant_find(gemm, "cpu-naive"), NULL, 1) == PL_OK, "add a job");
        CHECK(pl_session_plan(&s) == PL_OK && pl_session_plan(&s) == PL_OK, "plan twice: %s", pl_last_error());
        CHECK(made == l + 1, "planned twice, %d sizes: %d problem structs made (%d)", l + 1, made, l + 1);
        CHECK(pl_session_prepare(&s) == PL_OK, "prepare: %s", pl_last_error());
        CHECK(s.skip[0] == 1 && s.n_left_out == 1, "medium left out (%d left out)", s.n_left_out);
        CHECK(h.lines[PL_SAY_INFO] >= 1 && strstr(h.first[PL_SAY_INFO], "cpu-naive") != NULL,
              "said what was left out: '%s'", h.first[PL_SAY_INFO]);
        CHECK(pl_session_run(&s) == PL_OK, "run: %s", pl_last_error());
        CHECK(made == 2, "%d sizes planned, estimated and run: %d problem structs made (2)", l + 1, made);
        CHECK(s.n_results == l, "%d results (%d: small runs, medium does not)", s.n_results, l);
        pl_session_free(&s);
    }
}

/* A raised cancel flag stops the session before a run. */
static void check_cancel(void)
{
    static const char *const sizes[] = {"32"};
    static volatile int cancel = 1;
    pl_session s;
    heard h;
    start(&s, gemm, sizes, 1, &h);
    s.cancel = &cancel;
    CHECK(pl_session_add_job(&s, pl_variant_find(gemm, "cpu-naive"), NULL, 0) == PL_OK, "add a job");
    CHECK(pl_session_prepare(&s) == PL_OK, "prepare: %s", pl_last_error());
    CHECK(pl_session_run(&s) == PL_ERR_CANCELLED && s.n_results == 0, "cancelled, no result (%d)", s.n_results);
    pl_session_free(&s);
}

int main(void)
{
    gemm = pl_kernel_find("gemm");
    check_runs();
    check_made_once_and_left_out();
    check_cancel();
    return check_summary("test_session");
}
