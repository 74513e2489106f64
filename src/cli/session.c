/* session.c: the machinery `bench` and `sweep` share. */
#include "cli/session.h"
#include "core/core.h"
#include "harness/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void session_init(cli_session *s, const pl_kernel *k, int argc, char **argv)
{
    memset(s, 0, sizeof *s);
    s->kernel = k;
    s->device = 0;
    s->threads = 0;
    s->use_peaks = 1;
    pl_bench_config_default(&s->cfg);
    for (int i = 0; i < k->n_problem_params && i < PL_MAX_PARAMS; i++) s->pvals[i] = k->problem_params[i].def;
    s->started = pl_now();
    size_t used = snprintf(s->command, sizeof s->command, "parlab");
    for (int i = 0; i < argc && used < sizeof s->command; i++)
        used += snprintf(s->command + used, sizeof s->command - used, " %s", argv[i]);
}

const char *session_options_help(void)
{
    return "  --size S,...        problem sizes (also as plain arguments)\n"
           "  --set NAME=V,...    problem parameters (see parlab list KERNEL)\n"
           "  --threads N         CPU threads (default: one per core, or OMP_NUM_THREADS)\n"
           "  --device D          CUDA device (default 0)\n"
           "  --repeats N         timed runs (default: repeat until 0.2 s, at least 3, at most 50)\n"
           "  --min-time S        seconds of timed runs to aim for (default 0.2)\n"
           "  --warmup N          untimed runs first (default 1; the first run is the verified one)\n"
           "  --seed N            input seed (default 42)\n"
           "  --no-peaks          do not place results against the machine's peaks\n"
           "  --json FILE         write every result as JSON (schema: docs/output.md)\n"
           "  --csv FILE          write every result as CSV (columns: docs/output.md)\n";
}

static int add_sizes(cli_session *s, const char *list)
{
    size_t used = 0;
    for (int i = 0; i < s->n_sizes; i++) used += strlen(s->sizes[i]) + 1;
    if (used + strlen(list) + 2 > sizeof s->size_buf) {
        cli_error("too many sizes");
        return -1;
    }
    char *dst = s->size_buf + used;
    char *items[SESSION_MAX_SIZES];
    int n = cli_split(list, dst, sizeof s->size_buf - used, items, SESSION_MAX_SIZES - s->n_sizes);
    if (n == 0) {
        cli_error("--size: empty list");
        return -1;
    }
    for (int i = 0; i < n; i++) s->sizes[s->n_sizes++] = items[i];
    return 1;
}

static int set_problem_params(cli_session *s, const char *list)
{
    char buf[512], *items[PL_MAX_PARAMS * 2];
    int n = cli_split(list, buf, sizeof buf, items, PL_MAX_PARAMS * 2);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq) {
            cli_error("--set %s: expected NAME=VALUE", items[i]);
            return -1;
        }
        *eq = '\0';
        int found = -1;
        for (int j = 0; j < s->kernel->n_problem_params; j++)
            if (!strcmp(s->kernel->problem_params[j].name, items[i])) found = j;
        if (found < 0) {
            cli_error("--set: %s has no problem parameter '%s' (see parlab list %s)", s->kernel->name,
                      items[i], s->kernel->name);
            return -1;
        }
        pl_status st = pl_param_parse(&s->kernel->problem_params[found], eq + 1, &s->pvals[found]);
        if (st != PL_OK) {
            cli_fail(st);
            return -1;
        }
    }
    return 1;
}

int session_option(cli_session *s, int argc, char **argv, int *i)
{
    const char *o = argv[*i];
    static const char *const with_value[] = {"--size", "--set", "--threads", "--device", "--repeats",
                                             "--min-time", "--warmup", "--seed", "--json", "--csv"};
    int takes = 0;
    for (size_t j = 0; j < sizeof with_value / sizeof *with_value; j++) takes |= !strcmp(o, with_value[j]);
    if (!strcmp(o, "--no-peaks")) {
        s->use_peaks = 0;
        return 1;
    }
    if (!takes) return 0;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value", o);
        return -1;
    }
    const char *v = argv[++*i];
    long x;
    if (!strcmp(o, "--size")) return add_sizes(s, v);
    if (!strcmp(o, "--set")) return set_problem_params(s, v);
    if (!strcmp(o, "--json")) { s->json = v; return 1; }
    if (!strcmp(o, "--csv")) { s->csv = v; return 1; }
    if (!strcmp(o, "--threads")) return cli_parse_int(o, v, 1, 1024, &s->threads) ? -1 : 1;
    if (!strcmp(o, "--device")) return cli_parse_int(o, v, 0, 64, &s->device) ? -1 : 1;
    if (!strcmp(o, "--repeats")) {
        if (cli_parse_int(o, v, 1, 100000, &x)) return -1;
        s->cfg.repeats = (int)x;
        return 1;
    }
    if (!strcmp(o, "--warmup")) {
        if (cli_parse_int(o, v, 1, 1000, &x)) return -1;
        s->cfg.warmup = (int)x;
        return 1;
    }
    if (!strcmp(o, "--seed")) {
        if (cli_parse_int(o, v, 0, 2147483647L, &x)) return -1;
        s->cfg.seed = (uint64_t)x;
        return 1;
    }
    if (!strcmp(o, "--min-time")) {
        char *end;
        double t = strtod(v, &end);
        if (end == v || *end || !(t >= 0 && t <= 3600)) {
            cli_error("--min-time: '%s' is not a number of seconds in 0..3600", v);
            return -1;
        }
        s->cfg.min_time_s = t;
        return 1;
    }
    return 0;
}

/* A size given as a plain argument. */
int session_add_size(cli_session *s, const char *size) { return add_sizes(s, size); }

int session_begin(cli_session *s, const pl_variant *const *vars, int n)
{
    int need_cpu = 0, need_gpu = 0;
    for (int i = 0; i < n; i++) {
        if (vars[i]->backend == PL_BACKEND_CUDA) need_gpu = 1;
        else need_cpu = 1;
    }
    pl_status st;
    if (need_cpu && (st = pl_ctx_create(&s->cpu, PL_BACKEND_CPU, 0, (int)s->threads)) != PL_OK)
        return cli_fail(st);
    if (need_gpu && (st = pl_ctx_create(&s->gpu, PL_BACKEND_CUDA, (int)s->device, (int)s->threads)) != PL_OK)
        return cli_fail(st);
    if (s->use_peaks) {
        pl_ctx *ctx = s->gpu ? s->gpu : s->cpu;
        if (isatty(2) && !getenv("PARLAB_QUIET"))
            fprintf(stderr, "parlab: reading the machine's peaks (measured once, then cached)...\n");
        st = pl_peaks_get(ctx, &s->peaks, 1);
        if (st != PL_OK) {
            fprintf(stderr, "parlab: note: no peaks (%s); the %%peak column stays empty\n", pl_last_error());
            memset(&s->peaks, 0, sizeof s->peaks);
        }
        s->cfg.peaks = &s->peaks;
    }
    return PL_EXIT_OK;
}

pl_problem *session_problem(cli_session *s, const char *size, int *exit_status)
{
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, s->kernel, size, s->pvals, s->cfg.seed);
    if (st != PL_OK) {
        *exit_status = cli_fail(st);
        s->failures++;
        return NULL;
    }
    *exit_status = PL_EXIT_OK;
    return p;
}

static void progress(cli_session *s, const char *size, const pl_variant *v)
{
    if (!isatty(2) || pl_now() - s->started < 1.0) return;
    fprintf(stderr, "\r\033[K[%s %s] %s ...", s->kernel->name, size, v->name);
    fflush(stderr);
}

int session_run(cli_session *s, pl_problem *p, const pl_variant *v, const int64_t *params)
{
    if (s->n_results == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        pl_result *r = realloc(s->results, (size_t)cap * sizeof *r);
        if (!r) {
            cli_error("out of memory");
            return PL_EXIT_FAIL;
        }
        s->results = r;
        s->cap = cap;
    }
    pl_ctx *ctx = v->backend == PL_BACKEND_CUDA ? s->gpu : s->cpu;
    char size[64];
    s->kernel->describe(pl_problem_spec(p), size, sizeof size);
    progress(s, size, v);
    pl_result *r = &s->results[s->n_results];
    pl_status st = pl_bench_variant(ctx, p, v, params, &s->cfg, r);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (st != PL_OK) {
        s->failures++;
        int code = cli_fail(st);
        return code;
    }
    s->n_results++;
    if (!r->verified) {
        s->failures++;
        cli_error("%s %s %s: verification FAILED: error %.3e > bound %.3e%s", s->kernel->name,
                  v->name, r->size, r->error, r->bound, r->padding_ok ? "" : " (wrote into the row padding)");
    }
    return PL_EXIT_OK;
}

int session_finish(cli_session *s)
{
    pl_results_peer_ratios(s->results, s->n_results);
    if (s->n_results) {
        printf("%s: %s | %s\n", s->kernel->name, s->kernel->summary, pl_machine_summary());
        pl_report_table(stdout, s->results, s->n_results);
        const char *why = s->results[0].bound_why;
        if (why) printf("error: relative Frobenius vs the float64 reference; bound %s\n", why);
        pl_report_peer_note(stdout, s->results, s->n_results);
    }
    pl_report_ctx rc = {s->cfg.peaks, s->command};
    int status = s->failures ? PL_EXIT_FAIL : PL_EXIT_OK;
    pl_status st;
    if (s->json && (st = pl_report_json(s->json, s->results, s->n_results, &rc)) != PL_OK) status = cli_fail(st);
    if (s->csv && (st = pl_report_csv(s->csv, s->results, s->n_results, &rc)) != PL_OK) status = cli_fail(st);
    return status;
}

void session_free(cli_session *s)
{
    free(s->results);
    pl_ctx_destroy(s->cpu);
    pl_ctx_destroy(s->gpu);
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
