/* session.c: the machinery `bench` and `sweep` share: their option table and what it sets,
 * the checks before the first run, the runs, and the report. */
#include "cli/session.h"
#include "cli/tool.h"
#include "core/core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the option table */

enum {
    O_SIZE = CLI_OPT_OWN, O_SET, O_VARIANT, O_PARAM, O_PEER, O_SKIP, O_REPEATS, O_MIN_TIME, O_WARMUP, O_SEED,
    O_VERIFY, O_COLD, O_MAX_TIME, O_NO_PEAKS, O_JSON, O_CSV, O_SUITE, O_HELP
};

#define BOTH (CLI_BENCH | CLI_SWEEP)
static const cli_opt options[] = {
    {"--size", "S,...", O_SIZE, BOTH,
     "problem sizes, also as plain arguments (named sizes such as\n"
     "small|medium|large: parlab list KERNEL; default medium)"},
    {"--variant", "V,...|all", O_VARIANT, CLI_BENCH,
     "the rungs to run; all (the default): every rung this machine can\n"
     "run, less those estimated over --max-time; a named rung always runs"},
    {"--variant", "V", O_VARIANT, CLI_SWEEP, "the one variant to sweep (required)"},
    {"--param", "NAME=V,...", O_PARAM, CLI_BENCH,
     "the named variants' parameters; a name given twice is a usage error"},
    {"--param", "NAME=v1,v2,...|all", O_PARAM, CLI_SWEEP,
     "a parameter to sweep and its values (all: every legal value of a\n"
     "list or choice parameter); several --param sweep their product;\n"
     "a name given twice is a usage error"},
    {"--peer", NULL, O_PEER, CLI_BENCH,
     "add the peer libraries this machine can run, and each rung's ratio"},
    {"--skip-unavailable", NULL, O_SKIP, CLI_BENCH,
     "skip named variants this machine cannot run (instead of failing)"},
    {"--set", "NAME=V,...", O_SET, BOTH,
     "problem parameters (parlab list KERNEL), numbers or text; a name\n"
     "given twice is a usage error"},
    {"--threads", "N", CLI_OPT_THREADS, BOTH,
     "CPU threads (default: one per core, or OMP_NUM_THREADS); more than\n"
     "the cores here runs, with a note on stderr (the threads share cores)"},
    {"--device", "D", CLI_OPT_DEVICE, BOTH, "CUDA device (default 0)"},
    {"--repeats", "N", O_REPEATS, BOTH, "timed runs (default: until --min-time, at least 3, at most 50)"},
    {"--min-time", "S", O_MIN_TIME, BOTH, "seconds of timed runs to aim for (default 0.2)"},
    {"--warmup", "N", O_WARMUP, BOTH, "untimed runs first (default 1; the first run is checked)"},
    {"--seed", "N", O_SEED, BOTH, "input seed (default 42)"},
    {"--verify", "full|sample|auto", O_VERIFY, BOTH,
     "the check against float64: every element (full); a randomized check\n"
     "with a stated failure probability (sample); auto (default): full\n"
     "where the reference takes a few seconds at most; the row says which"},
    {"--cold", NULL, O_COLD, BOTH,
     "flush the caches before each timed run (default warm; the table's\n"
     "header line says which)"},
    {"--max-time", "S", O_MAX_TIME, CLI_BENCH,
     "leave out rungs picked by all or --peer whose estimated time at a\n"
     "size is over S seconds, saying so on stderr (default 120)"},
    {"--no-peaks", NULL, O_NO_PEAKS, BOTH, "do not place results against the machine's peaks"},
    {"--json", "FILE", O_JSON, BOTH,
     "write every result as JSON (docs/output.md); '-': to standard output,\n"
     "the table then on stderr. Checked before anything runs (exit 2:\n"
     "a directory, not creatable there); a write failing after the run: exit 1"},
    {"--csv", "FILE", O_CSV, BOTH,
     "write every result as CSV (docs/output.md); '-', the checks: as --json"},
    {"--suite", "FILE", O_SUITE, CLI_BENCH,
     "alone: parlab bench LINE for each line of FILE (# comments); a line\n"
     "--suite OTHER includes OTHER; a file including itself is refused;\n"
     "--suite FILE --json-dir DIR: each line's results also to DIR/NNN-KERNEL.json"},
    {"--help", NULL, O_HELP, BOTH, "this help (also -h)"},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

void session_options_help(FILE *f, unsigned cmd) { cli_options_help(f, options, N_OPTIONS, cmd); }

/* ---------------------------------------------------------------- small owned things */

static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) {
        cli_error("out of memory");
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

static char *own(cli_session *s, const char *text, size_t len)
{
    if (grow((void **)&s->owned, &s->cap_owned, s->n_owned + 1, sizeof *s->owned)) return NULL;
    char *c = malloc(len + 1);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    memcpy(c, text, len);
    c[len] = '\0';
    s->owned[s->n_owned++] = c;
    return c;
}

int session_split(cli_session *s, const char *opt, const char *list, char ***items)
{
    int n = 0, cap = 0;
    char **it = NULL;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            cli_error("%s: '%s' has an empty item", opt, list);
            free(it);
            return -1;
        }
        char *c = own(s, p, len);
        if (!c || grow((void **)&it, &cap, n + 1, sizeof *it)) {
            free(it);
            return -1;
        }
        it[n++] = c;
        if (!comma) break;
        p = comma + 1;
    }
    *items = it;
    return n;
}

/* ---------------------------------------------------------------- init and parse */

void session_init(cli_session *s, const pl_kernel *k, unsigned cmd, int argc, char **argv)
{
    memset(s, 0, sizeof *s);
    s->kernel = k;
    s->cmd = cmd;
    s->cmd_name = cmd == CLI_SWEEP ? "sweep" : "bench";
    s->use_peaks = 1;
    s->check = PL_CHECK_AUTO;
    s->max_time = 120;
    pl_bench_config_default(&s->cfg);
    pl_pvalues_default(k, &s->pv);
    s->tty = isatty(2) && !getenv("PARLAB_QUIET");
    s->started = pl_now();
    size_t used = (size_t)snprintf(s->command, sizeof s->command, "parlab");
    for (int i = 0; i < argc && used < sizeof s->command; i++)
        used += (size_t)snprintf(s->command + used, sizeof s->command - used, " %s", argv[i]);
}

static int add_sizes(cli_session *s, const char *list)
{
    char **items;
    int n = session_split(s, "--size", list, &items);
    if (n < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (grow((void **)&s->sizes, &s->cap_sizes, s->n_sizes + 1, sizeof *s->sizes)) {
            free(items);
            return -1;
        }
        const char *z = pl_kernel_size(s->kernel, items[i]);
        if (z != items[i] && !(z = own(s, z, strlen(z)))) {
            free(items);
            return -1;
        }
        s->sizes[s->n_sizes++] = (char *)z;
    }
    free(items);
    return 0;
}

/* --set NAME=V,...: a comma starts a new item only where NAME= follows, so a text value may
 * hold commas ("--set filter=a,b.npy"). */
static int set_problem_params(cli_session *s, const char *list)
{
    const char *p = list;
    while (*p) {
        const char *end = p;
        for (;;) {
            const char *comma = strchr(end, ',');
            if (!comma) { end += strlen(end); break; }
            const char *next = comma + 1, *eq = strchr(next, '='), *c2 = strchr(next, ',');
            if (eq && (!c2 || eq < c2) && eq > next) { end = comma; break; }
            end = comma + 1;
        }
        char *item = own(s, p, (size_t)(end - p));
        if (!item) return -1;
        if (!strchr(item, '=')) {
            cli_error("--set %s: expected NAME=VALUE", item);
            return -1;
        }
        pl_status st = pl_pvalues_set(s->kernel, &s->pv, s->pv_given, item);
        if (st != PL_OK) {
            cli_fail(st);
            return -1;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

static int parse_real(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !(t >= lo && t <= hi)) {
        cli_error("%s: '%s' is not a number of seconds in %g..%g", opt, v, lo, hi);
        return -1;
    }
    *out = t;
    return 0;
}

/* One option's value into the session (opt NULL: a size given as a plain argument).
 * Returns 0, or 2 with the message printed. */
static int take_option(void *user, const cli_opt *o, const char *v)
{
    cli_session *s = user;
    long x;
    double t;
    int bad = 0;
    switch (o ? o->id : O_SIZE) {
    case O_SIZE: bad = add_sizes(s, v); break;
    case O_SET: bad = set_problem_params(s, v); break;
    case O_VARIANT:
        if (s->variant_arg) {
            cli_error("--variant given twice ('%s' and '%s'): list the variants in one --variant V1,V2",
                      s->variant_arg, v);
            bad = 1;
        } else {
            s->variant_arg = v;
        }
        break;
    case O_PARAM:
        bad = grow((void **)&s->param_args, &s->cap_param_args, s->n_param_args + 1, sizeof *s->param_args);
        if (!bad) s->param_args[s->n_param_args++] = v;
        break;
    case CLI_OPT_THREADS: return cli_parse_threads(v, &s->threads);
    case CLI_OPT_DEVICE: return cli_parse_device(v, &s->device);
    case O_REPEATS:
        if (!(bad = cli_parse_int(o->name, v, 1, 100000, &x))) s->cfg.repeats = (int)x;
        break;
    case O_WARMUP:
        if (!(bad = cli_parse_int(o->name, v, 1, 1000, &x))) s->cfg.warmup = (int)x;
        break;
    case O_SEED:
        if (!(bad = cli_parse_int(o->name, v, 0, 2147483647L, &x))) s->cfg.seed = (uint64_t)x;
        break;
    case O_MIN_TIME:
        if (!(bad = parse_real(o->name, v, 0, 3600, &t))) s->cfg.min_time_s = t;
        break;
    case O_MAX_TIME:
        if (!(bad = parse_real(o->name, v, 1e-3, 1e7, &t))) s->max_time = t;
        break;
    case O_VERIFY:
        if (!strcmp(v, "auto")) s->check = PL_CHECK_AUTO;
        else if (!strcmp(v, "full")) s->check = PL_CHECK_FULL;
        else if (!strcmp(v, "sample")) s->check = PL_CHECK_SAMPLE;
        else {
            cli_error("--verify: '%s' is not one of full, sample, auto", v);
            bad = 1;
        }
        break;
    case O_JSON: s->json = v; break;
    case O_CSV: s->csv = v; break;
    case O_COLD: s->cfg.cold = 1; break;
    case O_NO_PEAKS: s->use_peaks = 0; break;
    case O_PEER: s->with_peer = 1; break;
    case O_SKIP: s->skip_unavailable = 1; break;
    case O_SUITE:
        cli_error("--suite takes only the file: parlab bench --suite FILE");
        bad = 1;
        break;
    }
    return bad ? PL_EXIT_USAGE : PL_EXIT_OK;
}

int session_parse(cli_session *s, int argc, char **argv, void (*help)(FILE *))
{
    cli_args a = {.cmd = s->cmd_name, .opts = options, .n_opts = N_OPTIONS, .cmd_bit = s->cmd};
    int rc = cli_parse(&a, argc - 1, argv + 1, take_option, s, help); /* argv[1], the kernel, is taken */
    if (rc != CLI_GO_ON) return rc;
    if (s->n_sizes == 0 && add_sizes(s, "medium")) return PL_EXIT_USAGE;
    return CLI_GO_ON;
}

int session_add_job(cli_session *s, const pl_variant *v, const int64_t *params, int auto_selected)
{
    if (grow((void **)&s->jobs, &s->cap_jobs, s->n_jobs + 1, sizeof *s->jobs)) return PL_EXIT_FAIL;
    cli_job *j = &s->jobs[s->n_jobs++];
    memset(j, 0, sizeof *j);
    j->v = v;
    j->auto_selected = auto_selected;
    if (params) {
        memcpy(j->params, params, sizeof j->params);
        j->has_params = 1;
    }
    return PL_EXIT_OK;
}

/* ---------------------------------------------------------------- progress on stderr */

static void progress_start(cli_session *s, const char *size, const char *what)
{
    snprintf(s->prog_label, sizeof s->prog_label, "[%s %s%s%s]", s->kernel->name, size, what ? " " : "",
             what ? what : "");
    s->prog_start = pl_now();
    s->prog_shown = 0;
}

static void progress_cb(void *user, const char *stage, double fraction)
{
    cli_session *s = user;
    if (!s->tty || pl_now() - s->prog_start < 2.0) return;
    if (fraction < 0) fraction = 0;
    if (fraction > 1) fraction = 1;
    fprintf(stderr, "\r\033[K%s %s %.0f%%", s->prog_label, stage ? stage : "", 100 * fraction);
    fflush(stderr);
    s->prog_shown = 1;
}

static void progress_end(cli_session *s)
{
    if (s->prog_shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    s->prog_shown = 0;
}

/* ---------------------------------------------------------------- before the first run */

static double gib(double bytes) { return bytes / (1024.0 * 1024 * 1024); }

int session_prepare(cli_session *s)
{
    pl_status st;
    /* Every size: a bad one is a usage error before anything runs. */
    s->plans = calloc((size_t)s->n_sizes, sizeof *s->plans);
    s->size_problem = malloc((size_t)s->n_sizes * sizeof *s->size_problem);
    s->skip = calloc((size_t)s->n_sizes * (size_t)(s->n_jobs ? s->n_jobs : 1), 1);
    if (!s->plans || !s->size_problem || !s->skip) {
        cli_error("out of memory");
        return PL_EXIT_FAIL;
    }
    for (int z = 0; z < s->n_sizes; z++) {
        s->size_problem[z] = -1;
        if ((st = pl_problem_plan(s->kernel, s->sizes[z], &s->pv, s->check, &s->plans[z])) != PL_OK) {
            int code = cli_fail(st);
            return code == PL_EXIT_OK ? PL_EXIT_USAGE : code;
        }
    }
    /* The output files can be written (tool_check_output: exit 2 before anything runs); "-" is
     * standard output, the table then on stderr. */
    const char *cmd = s->cmd == CLI_SWEEP ? "sweep" : "bench";
    if (s->json && s->csv && !strcmp(s->json, "-") && !strcmp(s->csv, "-")) {
        cli_error("%s: --json - and --csv -: only one of them can go to standard output", cmd);
        return PL_EXIT_USAGE;
    }
    int out_rc;
    if (s->json && (out_rc = tool_check_output(cmd, "--json", s->json, NULL, 0, TOOL_OUT_STDOUT)) != 0) return out_rc;
    if (s->csv && (out_rc = tool_check_output(cmd, "--csv", s->csv, NULL, 0, TOOL_OUT_STDOUT)) != 0) return out_rc;
    /* The contexts the jobs need (the CUDA one first: its free memory is part of the check). */
    int need_cpu = 0, need_gpu = 0;
    for (int i = 0; i < s->n_jobs; i++) {
        if (s->jobs[i].v->backend == PL_BACKEND_CUDA) need_gpu = 1;
        else need_cpu = 1;
    }
    if (need_gpu && (st = pl_ctx_create(&s->gpu, PL_BACKEND_CUDA, (int)s->device, (int)s->threads)) != PL_OK)
        return cli_fail(st);
    if (need_cpu && (st = pl_ctx_create(&s->cpu, PL_BACKEND_CPU, 0, (int)s->threads)) != PL_OK)
        return cli_fail(st);
    for (int i = 0; i < s->n_jobs; i++) {
        const pl_variant *v = s->jobs[i].v;
        char why[128] = "";
        if ((st = pl_variant_check(v->backend == PL_BACKEND_CUDA ? s->gpu : s->cpu, v, why, sizeof why)) != PL_OK) {
            cli_error("%s %s: cannot run here: %s", s->kernel->name, v->name, *why ? why : pl_status_name(st));
            return PL_EXIT_FAIL;
        }
    }
    /* Memory: each size must fit what this process may take (host; and the device). */
    for (int z = 0; z < s->n_sizes; z++) {
        if ((st = pl_plan_fits(&s->plans[z], s->gpu)) != PL_OK) {
            const char *msg = pl_last_error();
            if (msg && *msg) cli_error("%s %s: %s", s->kernel->name, s->plans[z].desc, msg);
            else
                cli_error("%s %s: needs about %.1f GiB of host memory (%.1f GiB on the device); "
                          "this process may take %.1f GiB", s->kernel->name, s->plans[z].desc,
                          gib(s->plans[z].host_bytes), gib(s->plans[z].device_bytes),
                          gib(pl_host_memory_available()));
            return st == PL_ERR_TOO_BIG ? PL_EXIT_USAGE : PL_EXIT_FAIL;
        }
    }
    /* Estimated time: jobs the user did not name are left out where they would take too long. */
    /* A size no bigger than the probe's (the kernel's first named size) costs about what the
     * estimate would: it is not estimated. */
    int left = 0;
    pl_plan probe;
    double probe_work = -1;
    if (s->kernel->n_named_sizes > 0 &&
        pl_problem_plan(s->kernel, s->kernel->named_sizes[0].size, &s->pv, PL_CHECK_AUTO, &probe) == PL_OK)
        probe_work = probe.work;
    for (int z = 0; z < s->n_sizes; z++)
        for (int i = 0; i < s->n_jobs; i++) {
            const cli_job *j = &s->jobs[i];
            if (!j->auto_selected || s->plans[z].work <= probe_work) continue;
            double secs = -1;
            pl_ctx *ctx = j->v->backend == PL_BACKEND_CUDA ? s->gpu : s->cpu;
            st = pl_bench_estimate(ctx, s->kernel, j->v, j->has_params ? j->params : NULL, &s->pv,
                                   &s->plans[z], &s->cfg, &secs);
            if (st != PL_OK || !(secs > s->max_time)) continue; /* unknown: run it */
            s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i] = 1;
            left++;
            fprintf(stderr, "parlab: leaving out %s at %s: about %.*f s, over --max-time %g; name it "
                    "with --variant to run it\n", j->v->name, s->plans[z].desc, secs < 10 ? 1 : 0, secs, s->max_time);
        }
    if (left && left == s->n_sizes * s->n_jobs) fprintf(stderr, "parlab: nothing left to run under --max-time %g\n", s->max_time);
    /* Only now: the peaks (measured once per machine, then cached). */
    if (s->use_peaks && left < s->n_sizes * s->n_jobs) {
        pl_ctx *ctx = s->gpu ? s->gpu : s->cpu;
        if (s->tty) fprintf(stderr, "parlab: reading the machine's peaks (measured once, then cached)...\n");
        /* Quick peaks measured for an earlier line of this process (a suite) that failed the
         * sanity checks, so were not cached, serve the later lines while the cache stays empty:
         * measured once a process, not once a line. */
        static pl_peaks uncached;
        static int have_uncached = -1; /* -1 none, else whether they were taken with a GPU context */
        st = have_uncached == (s->gpu != NULL) ? pl_peaks_get(ctx, &s->peaks, 0) : PL_ERR_IO;
        if (st != PL_OK && have_uncached == (s->gpu != NULL)) {
            s->peaks = uncached;
            s->peaks.implicit = 2; /* said on the line that measured them */
            st = PL_OK;
        } else if (st != PL_OK) {
            st = pl_peaks_get(ctx, &s->peaks, 1);
            if (st == PL_OK && s->peaks.implicit && !s->peaks.cached) {
                uncached = s->peaks;
                have_uncached = s->gpu != NULL;
            }
        }
        if (st != PL_OK) {
            fprintf(stderr, "parlab: note: no peaks (%s); the %%peak column stays empty\n", pl_last_error());
            memset(&s->peaks, 0, sizeof s->peaks);
        } else if (s->peaks.implicit == 1) {
            /* measured now, quickly, because none were cached: say so, and whether they were kept */
            fprintf(stderr, "parlab: note: %s: measured quick peaks now (%s, load %.2f)%s%s; "
                    "for the %%peak column to mean much, run `parlab peaks` on a quiet machine\n",
                    s->peaks.implicit_why, s->peaks.measured, s->peaks.load1,
                    s->peaks.cached ? ", cached" : ", used for this run only, not cached: ",
                    s->peaks.cached ? "" : s->peaks.sanity);
        }
        s->cfg.peaks = &s->peaks;
    }
    s->cfg.progress = progress_cb;
    s->cfg.progress_user = s;
    return PL_EXIT_OK;
}

/* ---------------------------------------------------------------- the runs */

static void verify_failed(cli_session *s, const pl_result *r)
{
    char why[512];
    size_t u = 0;
    why[0] = '\0';
#define WHY(...) u += (size_t)snprintf(why + u, u < sizeof why ? sizeof why - u : 0, __VA_ARGS__)
    if (r->first.elem_ratio > 1)
        WHY("; first run: element [%lld,%lld] is %.3g x its bound", (long long)r->first.row,
            (long long)r->first.col, r->first.elem_ratio);
    if (r->last.elem_ratio > 1)
        WHY("; last timed run: element [%lld,%lld] is %.3g x its bound", (long long)r->last.row,
            (long long)r->last.col, r->last.elem_ratio);
    if (r->error > r->bound) WHY("; error %.3e > bound %.3e", r->error, r->bound);
    if (!r->padding_ok) WHY("; wrote into the row padding");
    if (!r->inputs_ok) WHY("; changed its inputs");
#undef WHY
    cli_error("%s %s %s: verification FAILED (%s)%s", s->kernel->name, r->variant->name, r->size,
              pl_check_name(r->check), why);
}

static void run_job(cli_session *s, pl_problem *p, const pl_plan *plan, const cli_job *j)
{
    if (grow((void **)&s->results, &s->cap, s->n_results + 1, sizeof *s->results)) {
        s->failures++;
        return;
    }
    pl_ctx *ctx = j->v->backend == PL_BACKEND_CUDA ? s->gpu : s->cpu;
    pl_result *r = &s->results[s->n_results];
    memset(r, 0, sizeof *r);
    progress_start(s, plan->desc, j->v->name);
    pl_status st = pl_bench_variant(ctx, p, j->v, j->has_params ? j->params : NULL, &s->cfg, r);
    progress_end(s);
    if (st == PL_ERR_UNSUPPORTED && (j->v->is_peer || j->auto_selected)) {
        /* A peer library without this problem (CUB has no column reduction), or a rung that
         * --variant all chose and that does not take this problem (life's cpu-sparse on a
         * torus): a note, not a failure; the rungs have no ratio to such a peer here. Named
         * with --variant, such a rung is an error. */
        fprintf(stderr, "parlab: note: %s %s: %s\n", j->v->name, plan->desc,
                *pl_last_error() ? pl_last_error() : pl_status_name(st));
        return;
    }
    if (st != PL_OK) {
        s->failures++;
        cli_error("%s %s %s: %s", s->kernel->name, j->v->name, plan->desc,
                  *pl_last_error() ? pl_last_error() : pl_status_name(st));
        return;
    }
    s->n_results++;
    if (!r->verified) {
        s->failures++;
        verify_failed(s, r);
    }
}

void session_run_all(cli_session *s)
{
    for (int z = 0; z < s->n_sizes; z++) {
        int any = 0;
        for (int i = 0; i < s->n_jobs; i++) any |= !s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i];
        if (!any) continue;
        pl_problem_opts po = {.seed = s->cfg.seed, .check = s->check, .progress = progress_cb, .progress_user = s};
        pl_problem *p = NULL;
        progress_start(s, s->plans[z].desc, NULL);
        pl_status st = pl_problem_create_opts(&p, s->kernel, s->sizes[z], &s->pv, &po);
        progress_end(s);
        if (st != PL_OK) {
            s->failures++;
            cli_error("%s %s: %s", s->kernel->name, s->plans[z].desc,
                      *pl_last_error() ? pl_last_error() : pl_status_name(st));
            continue;
        }
        s->size_problem[z] = pl_problem_id(p);
        for (int i = 0; i < s->n_jobs; i++)
            if (!s->skip[(size_t)z * (size_t)s->n_jobs + (size_t)i]) run_job(s, p, &s->plans[z], &s->jobs[i]);
        pl_problem_destroy(p);
    }
}

int session_finish(cli_session *s)
{
    pl_results_peer_ratios(s->results, s->n_results);
    if (s->n_results) {
        printf("%s: %s | %s | caches: %s | verify: %s\n", s->kernel->name, s->kernel->summary,
               pl_machine_summary(), s->cfg.cold ? "cold" : "warm", pl_check_name(s->check));
        pl_report_table(stdout, s->results, s->n_results);
        pl_report_footer(stdout, s->results, s->n_results);
        fflush(stdout);
    }
    pl_report_info info = {s->cfg.peaks, s->command, &s->pv};
    int status = s->failures ? PL_EXIT_FAIL : PL_EXIT_OK;
    pl_status st;
    if (s->json && (st = pl_report_json(s->json, s->results, s->n_results, &info)) != PL_OK) status = cli_fail(st);
    if (s->csv && (st = pl_report_csv(s->csv, s->results, s->n_results, &info)) != PL_OK) status = cli_fail(st);
    return status;
}

void session_free(cli_session *s)
{
    free(s->results);
    free(s->jobs);
    free(s->plans);
    free(s->skip);
    free(s->size_problem);
    free(s->sizes);
    free(s->param_args);
    for (int i = 0; i < s->n_owned; i++) free(s->owned[i]);
    free(s->owned);
    pl_ctx_destroy(s->cpu);
    pl_ctx_destroy(s->gpu);
    memset(s, 0, sizeof *s);
}

const pl_kernel *session_kernel_arg(const char *cmd, const char *extra, int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        cli_error("%s: name a kernel (parlab list shows them)%s", cmd, extra);
        return NULL;
    }
    const pl_kernel *k = pl_kernel_find(argv[1]);
    if (!k) cli_error("%s: unknown kernel '%s' (parlab list shows them)", cmd, argv[1]);
    return k;
}
