/* session.c: what `bench` and `sweep` share on the command line: their option table and what
 * it sets, the output paths, the lines of the library's session (harness/session.c) printed,
 * and the report. */
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
    O_VERIFY, O_COLD, O_MAX_TIME, O_NO_PEAKS, O_JSON, O_CSV, O_SUITE, O_HELP, O_RUNG
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
    {"--rung", "LIB:FN", O_RUNG, CLI_BENCH,
     "your own rung: function FN of shared library LIB, with the signature\n"
     "include/parlab_rung.h gives the kernel; verified, timed and placed\n"
     "like the ladder's rungs, in a process of its own; repeatable"},
    {"--rung-name", "NAME", O_RUNG, CLI_BENCH, "the name of the --rung before it in the table (default: FN)"},
    {"--rung-backend", "cpu|cuda", O_RUNG, CLI_BENCH,
     "the backend of the --rung before it (default: as the library\n"
     "declares it with PL_RUNG_DECLARE, else cpu)"},
    {"--rung-timeout", "S", O_RUNG, CLI_BENCH,
     "a --rung with no result after S seconds is stopped, its row failed\n"
     "(default 300)"},
    {"--rung-in-process", NULL, O_RUNG, CLI_BENCH,
     "run each --rung in this process (for a debugger: a crash or a hang\n"
     "in it then ends the whole bench)"},
    {"--skip-unavailable", NULL, O_SKIP, CLI_BENCH,
     "skip named variants this machine cannot run (instead of failing)"},
    {"--set", "NAME=V,...", O_SET, BOTH,
     "problem parameters (parlab list KERNEL), numbers or text; a name\n"
     "given twice is a usage error"},
    {"--threads", "N", CLI_OPT_THREADS, BOTH, CLI_THREADS_HELP},
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

/* A comma list into owned items; an empty item (",," or '') is a usage error naming opt and
 * the list. Returns the count, or -1 (message printed). */
static int session_split(cli_session *s, const char *opt, const char *list, char ***items)
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

/* ---------------------------------------------------------------- what the session says, on stderr */

/* A step of the session begins (size, and the variant or NULL: the problem) or ends (size NULL). */
static void progress_step(void *user, const char *size, const char *variant)
{
    cli_session *s = user;
    if (!size) {
        if (s->prog_shown) {
            fprintf(stderr, "\r\033[K");
            fflush(stderr);
        }
        s->prog_shown = 0;
        return;
    }
    snprintf(s->prog_label, sizeof s->prog_label, "[%s %s%s%s]", s->run.kernel->name, size, variant ? " " : "",
             variant ? variant : "");
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

static void say_line(void *user, pl_say kind, const char *text)
{
    const cli_session *s = user;
    switch (kind) {
    case PL_SAY_ERROR: cli_error("%s", text); break;
    case PL_SAY_NOTE:
    case PL_SAY_SKIPPED: fprintf(stderr, "parlab: note: %s\n", text); break;
    case PL_SAY_STATUS:
        if (s->tty) fprintf(stderr, "parlab: %s\n", text);
        break;
    case PL_SAY_INFO: fprintf(stderr, "parlab: %s\n", text); break;
    }
}

/* ---------------------------------------------------------------- init and parse */

void session_init(cli_session *s, const pl_kernel *k, unsigned cmd, int argc, char **argv)
{
    memset(s, 0, sizeof *s);
    pl_session_init(&s->run, k);
    s->cmd = cmd;
    s->cmd_name = cmd == CLI_SWEEP ? "sweep" : "bench";
    s->use_peaks = 1;
    s->run.max_time = 120;
    s->tty = isatty(2) && !getenv("PARLAB_QUIET");
    s->run.hooks = (pl_session_hooks){.user = s, .say = say_line, .step = progress_step, .progress = progress_cb};
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
        if (grow((void **)&s->sizes, &s->cap_sizes, s->run.n_sizes + 1, sizeof *s->sizes)) {
            free(items);
            return -1;
        }
        const char *z = pl_kernel_size(s->run.kernel, items[i]);
        if (z != items[i] && !(z = own(s, z, strlen(z)))) {
            free(items);
            return -1;
        }
        s->sizes[s->run.n_sizes++] = (char *)z;
        s->run.sizes = (const char *const *)s->sizes;
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
        pl_status st = pl_pvalues_set(s->run.kernel, &s->run.pv, s->pv_given, item);
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
        if (!(bad = cli_parse_int(o->name, v, 1, 100000, &x))) s->run.cfg.repeats = (int)x;
        break;
    case O_WARMUP:
        if (!(bad = cli_parse_int(o->name, v, 1, 1000, &x))) s->run.cfg.warmup = (int)x;
        break;
    case O_SEED:
        if (!(bad = cli_parse_int(o->name, v, 0, 2147483647L, &x))) s->run.cfg.seed = (uint64_t)x;
        break;
    case O_MIN_TIME:
        if (!(bad = parse_real(o->name, v, 0, 3600, &t))) s->run.cfg.min_time_s = t;
        break;
    case O_MAX_TIME:
        if (!(bad = parse_real(o->name, v, 1e-3, 1e7, &t))) s->run.max_time = t;
        break;
    case O_VERIFY:
        if (!strcmp(v, "auto")) s->run.check = PL_CHECK_AUTO;
        else if (!strcmp(v, "full")) s->run.check = PL_CHECK_FULL;
        else if (!strcmp(v, "sample")) s->run.check = PL_CHECK_SAMPLE;
        else {
            cli_error("--verify: '%s' is not one of full, sample, auto", v);
            bad = 1;
        }
        break;
    case O_JSON: s->json = v; break;
    case O_CSV: s->csv = v; break;
    case O_COLD: s->run.cfg.cold = 1; break;
    case O_NO_PEAKS: s->use_peaks = 0; break;
    case O_PEER: s->with_peer = 1; break;
    case O_SKIP: s->skip_unavailable = 1; break;
    case O_RUNG: return cli_rungs_option(&s->rungs, o->name, v);
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
    if (s->run.n_sizes == 0 && add_sizes(s, "medium")) return PL_EXIT_USAGE;
    return CLI_GO_ON;
}

static pl_status run_isolated(void *user, const pl_session *run, int z, const pl_session_job *j, pl_result *r)
{
    cli_session *s = user;
    return cli_rungs_run_isolated(&s->rungs, run, z, j, r);
}

int session_load_rungs(cli_session *s) { return cli_rungs_load(&s->rungs, s->run.kernel); }

int session_add_rungs(cli_session *s)
{
    int rc = cli_rungs_add_jobs(&s->rungs, &s->run);
    if (rc == PL_EXIT_OK && s->rungs.n && !s->rungs.in_process) s->run.hooks.run_isolated = run_isolated;
    return rc;
}

int session_add_job(cli_session *s, const pl_variant *v, const int64_t *params, int auto_selected)
{
    pl_status st = pl_session_add_job(&s->run, v, params, auto_selected);
    return st == PL_OK ? PL_EXIT_OK : cli_fail(st);
}

/* ---------------------------------------------------------------- before the first run */

/* The library's plan, once; a bad size is a usage error. */
static int plan_sizes(cli_session *s)
{
    pl_status st = pl_session_plan(&s->run);
    if (st == PL_OK) return PL_EXIT_OK;
    int code = cli_fail(st);
    return code == PL_EXIT_OK ? PL_EXIT_USAGE : code;
}

int session_check_sizes(cli_session *s)
{
    int rc = plan_sizes(s);
    for (int z = 0; rc == PL_EXIT_OK && z < s->run.n_sizes; z++)
        if (pl_plan_fits(&s->run.plans[z], NULL) == PL_ERR_TOO_BIG) { /* the host's memory; the device's later */
            cli_error("%s %s: %s", s->run.kernel->name, s->run.plans[z].desc, pl_last_error());
            rc = PL_EXIT_USAGE;
        }
    return rc;
}

int session_prepare(cli_session *s)
{
    int rc = plan_sizes(s);
    if (rc != PL_EXIT_OK) return rc;
    /* The output files can be written (tool_check_output: exit 2 before anything runs); "-" is
     * standard output, the table then on stderr. */
    const char *cmd = s->cmd_name;
    if (s->json && s->csv && !strcmp(s->json, "-") && !strcmp(s->csv, "-")) {
        cli_error("%s: --json - and --csv -: only one of them can go to standard output", cmd);
        return PL_EXIT_USAGE;
    }
    if (s->json && (rc = tool_check_output(cmd, "--json", s->json, NULL, 0, TOOL_OUT_STDOUT)) != 0) return rc;
    if (s->csv && (rc = tool_check_output(cmd, "--csv", s->csv, NULL, 0, TOOL_OUT_STDOUT)) != 0) return rc;
    s->run.threads = (int)s->threads;
    s->run.device = (int)s->device;
    s->run.peaks_mode = s->use_peaks ? PL_SESSION_PEAKS_MEASURE : PL_SESSION_PEAKS_NONE;
    pl_status st = pl_session_prepare(&s->run);
    return st == PL_OK ? PL_EXIT_OK : cli_fail(st);
}

/* ---------------------------------------------------------------- the runs, the report */

void session_run_all(cli_session *s) { pl_session_run(&s->run); }

int session_finish(cli_session *s)
{
    const pl_session *r = &s->run;
    if (r->n_results) {
        printf("%s: %s | %s | caches: %s | verify: %s\n", r->kernel->name, r->kernel->summary,
               pl_machine_summary(), r->cfg.cold ? "cold" : "warm", pl_check_name(r->check));
        pl_report_table(stdout, r->results, r->n_results);
        pl_report_footer(stdout, r->results, r->n_results);
        fflush(stdout);
    }
    pl_report_info info = {r->cfg.peaks, s->command, &r->pv};
    int status = r->failures ? PL_EXIT_FAIL : PL_EXIT_OK;
    pl_status st;
    if (s->json && (st = pl_report_json(s->json, r->results, r->n_results, &info)) != PL_OK) status = cli_fail(st);
    if (s->csv && (st = pl_report_csv(s->csv, r->results, r->n_results, &info)) != PL_OK) status = cli_fail(st);
    return status;
}

void session_free(cli_session *s)
{
    pl_session_free(&s->run);
    cli_rungs_free(&s->rungs);
    free(s->sizes);
    free(s->param_args);
    for (int i = 0; i < s->n_owned; i++) free(s->owned[i]);
    free(s->owned);
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
