/* session.c: the bench session (session.h): a kernel's jobs at its sizes, each size's problem
 * struct made once and kept for the plan, the estimate and the run; the checks before the
 * first run; what max_time leaves out; the peaks; the runs and their results. What it has to
 * tell goes to the caller's hooks, as lines of text: the library never prints. */
#include "harness/session.h"
#include "core/core.h"
#include "harness/harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(const pl_session *s, pl_say kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(const pl_session *s, pl_say kind, const char *fmt, ...)
{
    if (!s->hooks.say) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->hooks.say(s->hooks.user, kind, line);
}

static void step(const pl_session *s, const char *size, const char *variant)
{
    if (s->hooks.step) s->hooks.step(s->hooks.user, size, variant);
}

/* The library's message of the last failure, or the status's name. */
static const char *why(pl_status st) { return *pl_last_error() ? pl_last_error() : pl_status_name(st); }

static pl_status grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return PL_OK;
    int c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return pl_fail(PL_ERR_NOMEM, "out of memory");
    *p = q;
    *cap = c;
    return PL_OK;
}

static pl_ctx *job_ctx(const pl_session *s, const pl_session_job *j)
{
    return j->v->backend == PL_BACKEND_CUDA ? s->gpu : s->cpu;
}

static int skipped(const pl_session *s, int z, int i) { return s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i]; }

void pl_session_init(pl_session *s, const pl_kernel *k)
{
    memset(s, 0, sizeof *s);
    s->kernel = k;
    s->check = PL_CHECK_AUTO;
    pl_bench_config_default(&s->cfg);
    pl_pvalues_default(k, &s->pv);
}

pl_status pl_session_add_job(pl_session *s, const pl_variant *v, const int64_t *params, int auto_selected)
{
    pl_status st = grow((void **)&s->jobs, &s->cap_jobs, s->n_jobs + 1, sizeof *s->jobs);
    if (st != PL_OK) return st;
    pl_session_job *j = &s->jobs[s->n_jobs++];
    memset(j, 0, sizeof *j);
    j->v = v;
    j->auto_selected = auto_selected;
    if (params) {
        memcpy(j->params, params, sizeof j->params);
        j->has_params = 1;
    }
    return PL_OK;
}

pl_status pl_session_plan(pl_session *s)
{
    if (s->planned) return PL_OK;
    if (!s->specs) {
        s->specs = calloc((size_t)s->n_sizes + 1, sizeof *s->specs);
        s->plans = calloc((size_t)s->n_sizes + 1, sizeof *s->plans);
        s->size_problem = malloc(((size_t)s->n_sizes + 1) * sizeof *s->size_problem);
        if (!s->specs || !s->plans || !s->size_problem) return pl_fail(PL_ERR_NOMEM, "out of memory");
    }
    for (int z = 0; z < s->n_sizes; z++) {
        s->size_problem[z] = -1;
        if (s->specs[z]) continue;
        pl_status st = pl_spec_make(s->kernel, s->sizes[z], &s->pv, &s->specs[z]);
        if (st == PL_OK) st = pl_plan_spec(s->kernel, s->specs[z], s->check, &s->plans[z]);
        if (st != PL_OK) return st;
    }
    s->planned = 1;
    return PL_OK;
}

static double gib(double bytes) { return bytes / (1024.0 * 1024 * 1024); }

/* The contexts the jobs need, each job checked against its own. */
static pl_status make_contexts(pl_session *s)
{
    int need_cpu = 0, need_gpu = 0;
    for (int i = 0; i < s->n_jobs; i++) {
        if (s->jobs[i].v->backend == PL_BACKEND_CUDA) need_gpu = 1;
        else need_cpu = 1;
    }
    pl_status st;
    if (need_gpu && !s->gpu && (st = pl_ctx_create(&s->gpu, PL_BACKEND_CUDA, s->device, s->threads)) != PL_OK) return st;
    if (need_cpu && !s->cpu && (st = pl_ctx_create(&s->cpu, PL_BACKEND_CPU, 0, s->threads)) != PL_OK) return st;
    if (s->cancel) {
        if (s->gpu) pl_ctx_set_cancel(s->gpu, s->cancel);
        if (s->cpu) pl_ctx_set_cancel(s->cpu, s->cancel);
    }
    for (int i = 0; i < s->n_jobs; i++) {
        const pl_variant *v = s->jobs[i].v;
        char reason[128] = "";
        if ((st = pl_variant_check(job_ctx(s, &s->jobs[i]), v, reason, sizeof reason)) != PL_OK)
            return pl_fail(st, "%s %s: cannot run here: %s", s->kernel->name, v->name,
                           *reason ? reason : pl_status_name(st));
    }
    return PL_OK;
}

/* Each size must fit what this process may take (host; and the device). */
static pl_status check_memory(const pl_session *s)
{
    for (int z = 0; z < s->n_sizes; z++) {
        pl_status st = pl_plan_fits(&s->plans[z], s->gpu);
        if (st == PL_OK) continue;
        char msg[512];
        snprintf(msg, sizeof msg, "%s", pl_last_error());
        if (*msg) return pl_fail(st, "%s %s: %s", s->kernel->name, s->plans[z].desc, msg);
        return pl_fail(st, "%s %s: needs about %.1f GiB of host memory (%.1f GiB on the device); "
                       "this process may take %.1f GiB", s->kernel->name, s->plans[z].desc,
                       gib(s->plans[z].host_bytes), gib(s->plans[z].device_bytes), gib(pl_host_memory_available()));
    }
    return PL_OK;
}

/* A rung chosen for the user that does not take this problem (pl_kernel.takes: GEMM's FP32
 * rungs and dtype=bf16) is said once, as a note; but one that does not take the default
 * problem either (a BF16 rung) is a rung for other settings, and leaving it out of a run of
 * the defaults says nothing: runs that never asked for bfloat16 read as they always did. */
static void say_not_taken(const pl_session *s, const pl_variant *v, const char *why)
{
    char other[160];
    if (s->kernel->takes(NULL, v, other, sizeof other)) say(s, PL_SAY_SKIPPED, "skipping %s: %s", v->name, why);
}

/* v takes the problem of every size (the first refusal's reason in why). */
static int takes_every_size(const pl_session *s, const pl_variant *v, char *why, size_t n)
{
    for (int z = 0; s->kernel->takes && z < s->n_sizes; z++)
        if (!s->kernel->takes(s->specs[z], v, why, n)) return 0;
    return 1;
}

/* Jobs whose rung does not take a size's problem: one the user named is a usage error naming
 * the rung and why; one chosen for them (a Python bench's names, a peer) is left out at every
 * such size (say_not_taken). */
static pl_status leave_out_not_taken(pl_session *s)
{
    const pl_kernel *k = s->kernel;
    for (int i = 0; i < s->n_jobs && k->takes; i++) {
        const pl_session_job *j = &s->jobs[i];
        int said = 0;
        for (int z = 0; z < s->n_sizes; z++) {
            char why[160] = "";
            if (k->takes(s->specs[z], j->v, why, sizeof why)) continue;
            if (!j->auto_selected && !j->v->is_peer)
                return pl_fail(PL_ERR_ARG, "bench: %s %s: %s", k->name, j->v->name, why);
            if (!said) say_not_taken(s, j->v, why);
            said = 1;
            s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i] = 1;
            s->n_left_out++;
        }
    }
    return PL_OK;
}

/* Jobs the user did not name are left out where they would take longer than max_time. A
 * size no bigger than the probe's (the kernel's first named size) costs about what the
 * estimate would: it is not estimated. The probes borrow the sizes' own problem structs. */
static pl_status leave_out_slow_jobs(pl_session *s)
{
    const pl_kernel *k = s->kernel;
    int any_auto = 0;
    for (int i = 0; i < s->n_jobs; i++) any_auto |= s->jobs[i].auto_selected;
    if (!(s->max_time > 0) || !any_auto) return PL_OK;
    pl_probes pr;
    pl_status st = pl_probes_init(&pr, k, &s->pv, s->cfg.seed);
    if (st != PL_OK) return st;
    for (int i = 0; i < k->n_named_sizes; i++)
        for (int z = 0; z < s->n_sizes; z++)
            if (!strcmp(pl_kernel_size(k, k->named_sizes[i].size), pl_kernel_size(k, s->sizes[z])))
                pl_probes_lend(&pr, i, s->specs[z]);
    pl_plan probe;
    double probe_work = k->n_named_sizes > 0 && pl_probes_plan(&pr, 0, &probe) == PL_OK ? probe.work : -1;
    for (int z = 0; z < s->n_sizes; z++)
        for (int i = 0; i < s->n_jobs; i++) {
            const pl_session_job *j = &s->jobs[i];
            if (!j->auto_selected || skipped(s, z, i) || s->plans[z].work <= probe_work) continue;
            double secs = -1;
            st = pl_bench_estimate_probes(job_ctx(s, j), &pr, j->v, j->has_params ? j->params : NULL, &s->plans[z],
                                          &s->cfg, &secs);
            if (st != PL_OK || !(secs > s->max_time)) continue; /* unknown: run it */
            s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i] = 1;
            s->n_left_out++;
            say(s, PL_SAY_INFO, "leaving out %s at %s: about %.*f s, over --max-time %g; name it with --variant to "
                "run it", j->v->name, s->plans[z].desc, secs < 10 ? 1 : 0, secs, s->max_time);
        }
    pl_probes_free(&pr);
    if (s->n_left_out && s->n_left_out == s->n_sizes * s->n_jobs)
        say(s, PL_SAY_INFO, "nothing left to run under --max-time %g", s->max_time);
    return PL_OK;
}

/* The peaks the results are placed against (measured once per machine, then cached). */
static void read_peaks(pl_session *s)
{
    pl_ctx *ctx = s->gpu ? s->gpu : s->cpu;
    pl_peaks_memo *memo = s->memo;
    int with_gpu = s->gpu != NULL;
    if (s->peaks_mode == PL_SESSION_PEAKS_CACHED) {
        if (pl_peaks_get(ctx, &s->peaks, 0) == PL_OK && s->peaks.valid) s->cfg.peaks = &s->peaks;
        return;
    }
    say(s, PL_SAY_STATUS, "reading the machine's peaks (measured once, then cached)...");
    int memo_fits = memo && memo->have && memo->with_gpu == with_gpu;
    pl_status st = memo_fits ? pl_peaks_get(ctx, &s->peaks, 0) : PL_ERR_IO;
    if (st != PL_OK && memo_fits) {
        s->peaks = memo->peaks;
        s->peaks.implicit = 2; /* said by the session that measured them */
        st = PL_OK;
    } else if (st != PL_OK) {
        st = pl_peaks_get(ctx, &s->peaks, 1);
        if (st == PL_OK && s->peaks.implicit && !s->peaks.cached && memo) {
            memo->peaks = s->peaks;
            memo->have = 1;
            memo->with_gpu = with_gpu;
        }
    }
    if (st != PL_OK) {
        say(s, PL_SAY_NOTE, "no peaks (%s); the %%peak column stays empty", pl_last_error());
        memset(&s->peaks, 0, sizeof s->peaks);
    } else if (s->peaks.implicit == 1) {
        /* measured now, quickly, because none were cached: say so, and whether they were kept */
        say(s, PL_SAY_NOTE, "%s: measured quick peaks now (%s, load %.2f)%s%s; for the %%peak column to mean much, "
            "run `parlab peaks` on a quiet machine", s->peaks.implicit_why, s->peaks.measured, s->peaks.load1,
            s->peaks.cached ? ", cached" : ", used for this run only, not cached: ", s->peaks.cached ? "" : s->peaks.sanity);
    }
    s->cfg.peaks = &s->peaks;
}

pl_status pl_session_prepare(pl_session *s)
{
    pl_status st = pl_session_plan(s);
    if (st != PL_OK) return st;
    free(s->skip);
    if (!(s->skip = calloc((size_t)s->n_sizes * (size_t)(s->n_jobs ? s->n_jobs : 1), 1)))
        return pl_fail(PL_ERR_NOMEM, "out of memory");
    s->n_left_out = 0;
    if ((st = leave_out_not_taken(s)) != PL_OK || (st = make_contexts(s)) != PL_OK || (st = check_memory(s)) != PL_OK ||
        (st = leave_out_slow_jobs(s)) != PL_OK)
        return st;
    /* Only now: the peaks, where something is left to run. */
    s->cfg.peaks = NULL;
    if (s->peaks_mode != PL_SESSION_PEAKS_NONE && s->n_left_out < s->n_sizes * s->n_jobs) read_peaks(s);
    s->cfg.progress = s->hooks.progress;
    s->cfg.progress_user = s->hooks.user;
    return PL_OK;
}

/* ---------------------------------------------------------------- the runs */

static void say_verify_failed(const pl_session *s, const pl_result *r)
{
    char text[512];
    size_t u = 0;
    text[0] = '\0';
#define WHY(...) u += (size_t)snprintf(text + u, u < sizeof text ? sizeof text - u : 0, __VA_ARGS__)
    if (r->first.elem_ratio > 1)
        WHY("; first run: element [%lld,%lld] is %.3g x its bound", (long long)r->first.row,
            (long long)r->first.col, r->first.elem_ratio);
    if (r->last.elem_ratio > 1)
        WHY("; last timed run: element [%lld,%lld] is %.3g x its bound", (long long)r->last.row,
            (long long)r->last.col, r->last.elem_ratio);
    if (r->error > r->bound) WHY("; error %.3e > bound %.3e", r->error, r->bound);
    if (!r->padding_ok) WHY("; wrote into the row padding");
    if (!r->inputs_ok && !r->failed_why[0]) WHY("; changed its inputs");
    if (r->failed_why[0]) WHY("; %s", r->failed_why);
#undef WHY
    say(s, PL_SAY_ERROR, "%s %s %s: verification FAILED (%s)%s", s->kernel->name, r->variant->name, r->size,
        pl_check_name(r->check), text);
}

/* A user's rung run by the caller's worker (hooks.run_isolated): its figures come back bare,
 * and are made a row of this session here: what ran on what, the bounds, the ceiling, the
 * physical floor. */
static pl_status run_elsewhere(pl_session *s, const pl_problem *p, const pl_session_job *j, pl_result *r)
{
    int z = 0;
    while (z < s->n_sizes && s->size_problem[z] != p->id) z++;
    pl_status st = s->hooks.run_isolated(s->hooks.user, s, z, j, r);
    if (st != PL_OK) return st;
    r->kernel = s->kernel;
    r->variant = j->v;
    r->problem_id = p->id;
    r->bound = s->kernel->error_bound(p->spec, j->v->precision, &r->bound_why);
    r->elem_bound = s->kernel->elem_bound ? s->kernel->elem_bound(p->spec, j->v->precision, &r->elem_why) : 0;
    const double written = s->kernel->bytes_written ? s->kernel->bytes_written(p->spec) : -1.0;
    if (r->median_s > 0) pl_place_on_ceiling(job_ctx(s, j), j->v, s->cfg.peaks, written, r);
    pl_user_judge_floor(r);
    return PL_OK;
}

/* One job on a size's problem: PL_OK, or the status that ends the session. */
static pl_status run_job(pl_session *s, pl_problem *p, const pl_plan *plan, const pl_session_job *j)
{
    pl_status st = grow((void **)&s->results, &s->cap_results, s->n_results + 1, sizeof *s->results);
    if (st != PL_OK) {
        s->failures++;
        say(s, PL_SAY_ERROR, "%s", why(st));
        return st;
    }
    if (s->cancel && *s->cancel) return pl_fail(PL_ERR_CANCELLED, "%s: cancelled", j->v->name);
    pl_result *r = &s->results[s->n_results];
    memset(r, 0, sizeof *r);
    step(s, plan->desc, j->v->name);
    if (j->v->is_user && s->hooks.run_isolated) st = run_elsewhere(s, p, j, r);
    else st = pl_bench_variant(job_ctx(s, j), p, j->v, j->has_params ? j->params : NULL, &s->cfg, r);
    step(s, NULL, NULL);
    if (st == PL_ERR_UNSUPPORTED && (j->v->is_peer || j->auto_selected)) {
        /* A peer library without this problem (CUB has no column reduction), or a rung that
         * --variant all chose and that does not take this problem (life's cpu-sparse on a
         * torus): a note, not a failure; the rungs have no ratio to such a peer here. Named
         * with --variant, such a rung is an error. */
        say(s, PL_SAY_SKIPPED, "%s %s: %s", j->v->name, plan->desc, why(st));
        return PL_OK;
    }
    if (st != PL_OK) {
        s->failures++;
        say(s, PL_SAY_ERROR, "%s %s %s: %s", s->kernel->name, j->v->name, plan->desc, why(st));
        return st == PL_ERR_CANCELLED || s->stop_on_failure ? st : PL_OK;
    }
    s->n_results++;
    if (!r->verified) {
        s->failures++;
        say_verify_failed(s, r);
    }
    return PL_OK;
}

pl_status pl_session_run(pl_session *s)
{
    pl_status stop = PL_OK;
    for (int z = 0; z < s->n_sizes && stop == PL_OK; z++) {
        int any = 0;
        for (int i = 0; i < s->n_jobs; i++) any |= !skipped(s, z, i);
        if (!any) continue;
        pl_problem_opts po = {.seed = s->cfg.seed, .check = s->check, .progress = s->hooks.progress,
                              .progress_user = s->hooks.user};
        pl_problem *p = NULL;
        step(s, s->plans[z].desc, NULL);
        pl_status st = pl_problem_create_spec(&p, s->kernel, s->specs[z], &po, 0);
        step(s, NULL, NULL);
        if (st != PL_OK) {
            s->failures++;
            say(s, PL_SAY_ERROR, "%s %s: %s", s->kernel->name, s->plans[z].desc, why(st));
            if (s->stop_on_failure) stop = st;
            continue;
        }
        s->size_problem[z] = pl_problem_id(p);
        for (int i = 0; i < s->n_jobs && stop == PL_OK; i++)
            if (!skipped(s, z, i)) stop = run_job(s, p, &s->plans[z], &s->jobs[i]);
        pl_problem_destroy(p);
    }
    pl_results_peer_ratios(s->results, s->n_results);
    return stop;
}

void pl_session_free(pl_session *s)
{
    for (int z = 0; s->specs && z < s->n_sizes; z++) pl_spec_free(s->kernel, s->specs[z]);
    free(s->specs);
    free(s->plans);
    free(s->skip);
    free(s->size_problem);
    free(s->results);
    free(s->jobs);
    pl_ctx_destroy(s->cpu);
    pl_ctx_destroy(s->gpu);
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- choosing the jobs */

/* A comma list with no empty item; else PL_ERR_ARG naming opt and the list. */
static pl_status check_items(const char *opt, const char *list)
{
    size_t n = strlen(list);
    if (n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,"))
        return pl_fail(PL_ERR_ARG, "%s: '%s' has an empty item", opt, list);
    return PL_OK;
}

/* The next item of the comma list at *p (check_items passed) into item (NUL-terminated, at
 * most n - 1 bytes): 1, or 0 at the list's end; a too long item: -1 (pl_fail naming opt). */
static int next_item(const char **p, const char *opt, char *item, size_t n)
{
    if (!*p) return 0;
    const char *comma = strchr(*p, ',');
    size_t len = comma ? (size_t)(comma - *p) : strlen(*p);
    if (len >= n) return pl_fail(PL_ERR_ARG, "%s: '%.*s' is too long", opt, (int)len, *p), -1;
    memcpy(item, *p, len);
    item[len] = '\0';
    *p = comma ? comma + 1 : NULL;
    return 1;
}

typedef struct named_param {
    char name[256], value[256]; /* an item holds at most 255 bytes */
} named_param;

/* --param NAME=V,... (any number of them): each name once. */
static pl_status collect_params(const char *const *args, int n_args, named_param **out, int *n_out)
{
    named_param *ps = NULL;
    int n = 0;
    char item[256];
    for (int a = 0; a < n_args; a++)
        if (check_items("--param", args[a]) != PL_OK) return PL_ERR_ARG;
    for (int a = 0; a < n_args; a++)
        for (const char *p = args[a];;) {
            int got = next_item(&p, "--param", item, sizeof item);
            if (got <= 0) {
                if (got == 0) break;
                free(ps);
                return PL_ERR_ARG;
            }
            char *eq = strchr(item, '=');
            pl_status st = PL_OK;
            if (!eq || eq == item)
                st = pl_fail(PL_ERR_ARG, "--param %s: expected NAME=VALUE", item);
            else *eq = '\0';
            for (int j = 0; st == PL_OK && j < n; j++)
                if (!strcmp(ps[j].name, item))
                    st = pl_fail(PL_ERR_ARG, "--param %s given twice (%s=%s and %s=%s): give each parameter once", item,
                                 item, ps[j].value, item, eq + 1);
            named_param *q = st == PL_OK ? realloc(ps, (size_t)(n + 1) * sizeof *ps) : NULL;
            if (st == PL_OK && !q) st = pl_fail(PL_ERR_NOMEM, "out of memory");
            if (st != PL_OK) {
                free(ps);
                return st;
            }
            ps = q;
            snprintf(ps[n].name, sizeof ps[n].name, "%s", item);
            snprintf(ps[n].value, sizeof ps[n].value, "%s", eq + 1);
            n++;
        }
    *out = ps;
    *n_out = n;
    return PL_OK;
}

/* The variant's values: its defaults, then what --param names for it. *given: any was named. */
static pl_status variant_params(const pl_variant *v, const named_param *ps, int n, int64_t *out, int *given)
{
    for (int i = 0; i < PL_MAX_PARAMS; i++) out[i] = i < v->n_params ? (int64_t)v->params[i].def : 0;
    *given = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < v->n_params; j++) {
            if (strcmp(v->params[j].name, ps[i].name)) continue;
            double x;
            pl_status st = pl_param_parse(&v->params[j], ps[i].value, &x);
            if (st != PL_OK) return st;
            out[j] = (int64_t)x;
            *given = 1;
        }
    return PL_OK;
}

/* The named variants, in order, into vars (named[i] set); with skip_unavailable one that
 * cannot run here is said and left out. */
static pl_status named_variants(pl_session *s, const char *list, int skip_unavailable, const pl_variant **vars,
                                int *named, int *n)
{
    const pl_kernel *k = s->kernel;
    char item[128];
    if (check_items("--variant", list) != PL_OK) return PL_ERR_ARG;
    for (const char *p = list;;) {
        int got = next_item(&p, "--variant", item, sizeof item);
        if (got <= 0) return got == 0 ? PL_OK : PL_ERR_ARG;
        const pl_variant *v = pl_variant_find(k, item);
        if (!v) return pl_fail(PL_ERR_ARG, "bench: %s has no variant '%s' (parlab list %s)", k->name, item, k->name);
        for (int j = 0; j < *n; j++)
            if (vars[j] == v) return pl_fail(PL_ERR_ARG, "--variant: %s named twice", v->name);
        char why[128] = "";
        pl_status st = pl_variant_check(NULL, v, why, sizeof why);
        if (st != PL_OK && skip_unavailable) {
            say(s, PL_SAY_INFO, "skipping %s: %s", v->name, why);
            continue;
        }
        if (st != PL_OK)
            return pl_fail(PL_ERR_UNSUPPORTED, "bench: %s cannot run here: %s", v->name, *why ? why : pl_status_name(st));
        named[*n] = 1;
        vars[(*n)++] = v;
    }
}

/* Every rung that can run here, or the named ones; with_peer: the peers of their backends. */
static pl_status choose_variants(pl_session *s, const char *variants, int with_peer, int skip_unavailable,
                                 const pl_variant **vars, int *named, int *n)
{
    const pl_kernel *k = s->kernel;
    char why[128];
    if (variants && strcmp(variants, "all")) {
        pl_status st = named_variants(s, variants, skip_unavailable, vars, named, n);
        if (st != PL_OK) return st;
    } else {
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            if (v->is_peer) continue;
            if (!takes_every_size(s, v, why, sizeof why)) say_not_taken(s, v, why);
            else if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[(*n)++] = v;
            else say(s, PL_SAY_INFO, "skipping %s: %s", v->name, why);
        }
    }
    if (!with_peer) return PL_OK;
    int backends = 0;
    for (int i = 0; i < *n; i++) backends |= 1 << vars[i]->backend;
    for (int i = 0; i < k->n_variants; i++) {
        const pl_variant *v = k->ladder[i];
        int already = 0;
        for (int j = 0; j < *n; j++) already |= vars[j] == v;
        if (!v->is_peer || already || !(backends & (1 << v->backend))) continue;
        if (!takes_every_size(s, v, why, sizeof why)) say_not_taken(s, v, why);
        else if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[(*n)++] = v;
        else say(s, PL_SAY_INFO, "no peer %s: %s", v->name, why);
    }
    return PL_OK;
}

pl_status pl_session_select(pl_session *s, const char *variants, const char *const *params, int n_params,
                            int with_peer, int skip_unavailable)
{
    const pl_kernel *k = s->kernel;
    const pl_variant **vars = calloc((size_t)k->n_variants + 1, sizeof *vars);
    int *named = calloc((size_t)k->n_variants + 1, sizeof *named);
    named_param *ps = NULL;
    int n = 0, n_ps = 0;
    /* the sizes' problems first: which rungs take them (pl_kernel.takes) */
    pl_status st = !vars || !named ? pl_fail(PL_ERR_NOMEM, "out of memory") : pl_session_plan(s);
    if (st == PL_OK) st = choose_variants(s, variants, with_peer, skip_unavailable, vars, named, &n);
    if (st == PL_OK && n == 0) {
        if (skip_unavailable) say(s, PL_SAY_INFO, "nothing on this line can run on this machine");
        else st = pl_fail(PL_ERR_UNSUPPORTED, "bench: no variant of %s can run here (parlab list %s says why)",
                          k->name, k->name);
        goto done;
    }
    /* --param: each name known to a selected variant, each value legal. */
    if (st == PL_OK) st = collect_params(params, n_params, &ps, &n_ps);
    for (int i = 0; st == PL_OK && i < n_ps; i++) {
        int found = 0;
        for (int a = 0; a < n; a++)
            for (int j = 0; j < vars[a]->n_params; j++) found |= !strcmp(vars[a]->params[j].name, ps[i].name);
        if (!found) st = pl_fail(PL_ERR_ARG, "--param: no selected variant has a parameter '%s'", ps[i].name);
    }
    for (int i = 0; st == PL_OK && i < n; i++) {
        int64_t values[PL_MAX_PARAMS];
        int given;
        if ((st = variant_params(vars[i], ps, n_ps, values, &given)) == PL_OK)
            st = pl_session_add_job(s, vars[i], given ? values : NULL, !named[i]);
    }
done:
    free(vars);
    free(named);
    free(ps);
    return st;
}
