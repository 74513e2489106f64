/* cmd_bench.c: `parlab bench KERNEL ...`: verify and time a kernel's variants at one or more
 * sizes, beside the peer library, and place each against the machine's peaks.
 * `parlab bench --suite FILE` runs one bench per line of FILE (see bench/default.suite).
 * The options, the checks before the first run, the runs and the table are session.c's.
 * Under mpirun the distributed bench runs instead (cmd_bench_ranks.c). */
#include "cli/session.h"
#include "cli/cmd_bench_ranks.h"
#include "distributed/transport/distributed.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void help(FILE *f)
{
    fprintf(f, "usage: parlab bench KERNEL [SIZE...] [--variant V,...|all] [--peer] [--param NAME=V,...]\n"
           "                    [options]\n"
           "       parlab bench --suite FILE [--json-dir DIR]\n\n"
           "Runs each variant at each size: inputs from a fixed seed, output poisoned, each result\n"
           "checked against a float64 reference (the first run and the last timed run; inputs\n"
           "must be unchanged), then timed (warm-up, repeats, median/min/max). GPU variants\n"
           "report allocation, host-to-device, kernel and device-to-host apart. --peer adds the\n"
           "peer libraries this machine can run and prints each rung's ratio to every peer of the\n"
           "same backend and precision (peer time / rung time).\n\n"
           "Before anything runs (and before the peaks are read), every size, variant, parameter\n"
           "and output path is checked, and each size's memory estimate is compared with what this\n"
           "process may take (and the GPU's free memory): a size that does not fit is a usage\n"
           "error (exit 2) naming the estimate and the limit. On a terminal, a run longer than a\n"
           "few seconds shows a progress line on stderr.\n\n"
           "options:\n");
    session_options_help(f, CLI_BENCH);
    fprintf(f, "\nExit status: 0 all verified, 1 a run failed or did not verify, 2 usage error\n"
           "(also a size too big for this machine's memory).\n");
}

/* --param NAME=V,... (any number of flags): each name once, each known to a selected variant. */
typedef struct vparam {
    const char *name, *value;
} vparam;

static int collect_params(cli_session *s, vparam **out, int *n_out)
{
    vparam *ps = NULL;
    int n = 0;
    for (int a = 0; a < s->n_param_args; a++) {
        char **items;
        int m = session_split(s, "--param", s->param_args[a], &items);
        if (m < 0) goto fail;
        vparam *q = realloc(ps, (size_t)(n + m) * sizeof *ps);
        if (!q) {
            free(items);
            cli_error("out of memory");
            goto fail;
        }
        ps = q;
        for (int i = 0; i < m; i++) {
            char *eq = strchr(items[i], '=');
            if (!eq || eq == items[i]) {
                cli_error("--param %s: expected NAME=VALUE", items[i]);
                free(items);
                goto fail;
            }
            *eq = '\0';
            for (int j = 0; j < n; j++)
                if (!strcmp(ps[j].name, items[i])) {
                    cli_error("--param %s given twice (%s=%s and %s=%s): give each parameter once",
                              items[i], items[i], ps[j].value, items[i], eq + 1);
                    free(items);
                    goto fail;
                }
            ps[n++] = (vparam){items[i], eq + 1};
        }
        free(items);
    }
    *out = ps;
    *n_out = n;
    return PL_EXIT_OK;
fail:
    free(ps);
    return PL_EXIT_USAGE;
}

/* The variant's values: its defaults, then what --param names for it. given: any was named. */
static int variant_params(const pl_variant *v, const vparam *ps, int n, int64_t *out, int *given)
{
    for (int i = 0; i < PL_MAX_PARAMS; i++) out[i] = i < v->n_params ? (int64_t)v->params[i].def : 0;
    *given = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < v->n_params; j++) {
            if (strcmp(v->params[j].name, ps[i].name)) continue;
            double x;
            pl_status st = pl_param_parse(&v->params[j], ps[i].value, &x);
            if (st != PL_OK) return cli_fail(st);
            out[j] = (int64_t)x;
            *given = 1;
        }
    return PL_EXIT_OK;
}

/* Every size, planned once before any variant is looked at: a bad size is a usage error
 * before notes about variants this machine skips (session_prepare plans them again). */
static int check_sizes(const cli_session *s)
{
    for (int z = 0; z < s->n_sizes; z++) {
        pl_plan plan;
        pl_status st = pl_problem_plan(s->kernel, s->sizes[z], &s->pv, s->check, &plan);
        if (st != PL_OK) {
            int code = cli_fail(st);
            return code == PL_EXIT_OK ? PL_EXIT_USAGE : code;
        }
        if ((st = pl_plan_fits(&plan, NULL)) == PL_ERR_TOO_BIG) { /* the host's memory; the device's later */
            cli_error("%s %s: %s", s->kernel->name, plan.desc, pl_last_error());
            return PL_EXIT_USAGE;
        }
    }
    return PL_EXIT_OK;
}

/* Every job the command line selects: named variants (in order) or all the rungs that can
 * run here, then with --peer the peers of the same backends. */
static int select_jobs(cli_session *s)
{
    const pl_kernel *k = s->kernel;
    const pl_variant **vars = calloc((size_t)k->n_variants + 1, sizeof *vars);
    int *named = calloc((size_t)k->n_variants + 1, sizeof *named);
    vparam *ps = NULL;
    int n = 0, n_ps = 0, status = PL_EXIT_OK;
    if (!vars || !named) {
        cli_error("out of memory");
        status = PL_EXIT_FAIL;
        goto done;
    }
    if (!s->variant_arg || !strcmp(s->variant_arg, "all")) {
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            char why[128];
            if (v->is_peer) continue;
            if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[n++] = v;
            else fprintf(stderr, "parlab: skipping %s: %s\n", v->name, why);
        }
    } else {
        char **items;
        int m = session_split(s, "--variant", s->variant_arg, &items);
        if (m < 0) {
            status = PL_EXIT_USAGE;
            goto done;
        }
        for (int i = 0; i < m && status == PL_EXIT_OK; i++) {
            const pl_variant *v = pl_variant_find(k, items[i]);
            if (!v) {
                cli_error("bench: %s has no variant '%s' (parlab list %s)", k->name, items[i], k->name);
                status = PL_EXIT_USAGE;
                break;
            }
            int dup = 0;
            for (int j = 0; j < n; j++) dup |= vars[j] == v;
            if (dup) {
                cli_error("--variant: %s named twice", v->name);
                status = PL_EXIT_USAGE;
                break;
            }
            char why[128] = "";
            pl_status st = pl_variant_check(NULL, v, why, sizeof why);
            if (st != PL_OK && s->skip_unavailable) {
                fprintf(stderr, "parlab: skipping %s: %s\n", v->name, why);
                continue;
            }
            if (st != PL_OK) {
                cli_error("bench: %s cannot run here: %s", v->name, *why ? why : pl_status_name(st));
                status = PL_EXIT_FAIL;
                break;
            }
            named[n] = 1;
            vars[n++] = v;
        }
        free(items);
        if (status != PL_EXIT_OK) goto done;
    }
    if (s->with_peer) {
        int backends = 0;
        for (int i = 0; i < n; i++) backends |= 1 << vars[i]->backend;
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            int already = 0;
            for (int j = 0; j < n; j++) already |= vars[j] == v;
            if (!v->is_peer || already || !(backends & (1 << v->backend))) continue;
            char why[128];
            if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[n++] = v;
            else fprintf(stderr, "parlab: no peer %s: %s\n", v->name, why);
        }
    }
    if (n == 0) {
        if (s->skip_unavailable) fprintf(stderr, "parlab: nothing on this line can run on this machine\n");
        else cli_error("bench: no variant of %s can run here (parlab list %s says why)", k->name, k->name);
        status = s->skip_unavailable ? PL_EXIT_OK : PL_EXIT_FAIL;
        goto done;
    }
    /* --param: each name once, each known to a selected variant, each value legal. */
    if ((status = collect_params(s, &ps, &n_ps)) != PL_EXIT_OK) goto done;
    for (int i = 0; i < n_ps; i++) {
        int found = 0;
        for (int a = 0; a < n; a++)
            for (int j = 0; j < vars[a]->n_params; j++) found |= !strcmp(vars[a]->params[j].name, ps[i].name);
        if (!found) {
            cli_error("--param: no selected variant has a parameter '%s'", ps[i].name);
            status = PL_EXIT_USAGE;
            goto done;
        }
    }
    for (int i = 0; i < n; i++) {
        int64_t params[PL_MAX_PARAMS];
        int given;
        if ((status = variant_params(vars[i], ps, n_ps, params, &given)) != PL_EXIT_OK) goto done;
        if ((status = session_add_job(s, vars[i], given ? params : NULL, !named[i])) != PL_EXIT_OK) goto done;
    }
done:
    free(vars);
    free(named);
    free(ps);
    return status;
}

static int run_suite(const char *path);
/* --suite FILE --json-dir DIR: each bench line also writes DIR/NNN-KERNEL.json. */
static const char *suite_json_dir;
static int suite_json_count;

/* `parlab bench --suite FILE [--json-dir DIR]`: its own two options, and nothing else. */
enum { S_SUITE = CLI_OPT_OWN, S_JSON_DIR };
static const cli_opt suite_options[] = {
    {"--suite", "FILE", S_SUITE, 0, NULL},
    {"--json-dir", "DIR", S_JSON_DIR, 0, NULL},
};
typedef struct suite_args {
    const char *file, *json_dir;
} suite_args;

/* arg is the option name ("--suite" or "--suite=FILE"). */
static int is_option_named(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int take_suite_option(void *user, const cli_opt *o, const char *val)
{
    suite_args *sa = user;
    const char **slot = !o ? NULL : o->id == S_SUITE ? &sa->file : &sa->json_dir;
    if (!slot || *slot) {
        cli_error("bench --suite takes one file (and --json-dir DIR) and nothing else");
        return PL_EXIT_USAGE;
    }
    *slot = val;
    return PL_EXIT_OK;
}

static int suite_command(int argc, char **argv)
{
    suite_args sa = {NULL, NULL};
    cli_args a = {.cmd = "bench", .opts = suite_options, .n_opts = 2};
    int rc = cli_parse(&a, argc, argv, take_suite_option, &sa, help);
    if (rc != CLI_GO_ON) return rc;
    if (!sa.file) return take_suite_option(&sa, NULL, NULL); /* --json-dir alone */
    struct stat sb;
    if (sa.json_dir && (stat(sa.json_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
        cli_error("bench --suite: --json-dir '%s' is not a directory", sa.json_dir);
        return PL_EXIT_USAGE;
    }
    if (sa.json_dir) suite_json_dir = sa.json_dir; /* an include line keeps the outer one */
    return run_suite(sa.file);
}

int pl_cmd_bench(int argc, char **argv)
{
    if (pl_dist_active()) return bench_ranks(argc, argv);
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help(stdout);
        return PL_EXIT_OK;
    }
    if (argc >= 2 && (is_option_named(argv[1], "--suite") || is_option_named(argv[1], "--json-dir")))
        return suite_command(argc, argv);
    const pl_kernel *k = session_kernel_arg("bench", ", or --suite FILE", argc, argv);
    if (!k) return PL_EXIT_USAGE;
    cli_session s;
    session_init(&s, k, CLI_BENCH, argc, argv);
    int status = session_parse(&s, argc, argv, help);
    if (status < 0 && (status = check_sizes(&s)) == PL_EXIT_OK && (status = select_jobs(&s)) == PL_EXIT_OK && s.n_jobs > 0 &&
        (status = session_prepare(&s)) == PL_EXIT_OK) {
        session_run_all(&s);
        status = session_finish(&s);
    }
    session_free(&s);
    return status;
}

/* ---------------------------------------------------------------- suites */

/* The suites being read, outermost first: a file that includes itself, directly or through
 * another, is refused. */
enum { SUITE_MAX_DEPTH = 16 };
static char *suite_stack[SUITE_MAX_DEPTH];
static int suite_depth;

static int run_line(const char *path, int lineno, char *line)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char **args = NULL;
    int n = 0, cap = 0;
    for (char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (n + 2 >= cap) {
            cap = cap ? 2 * cap : 16;
            char **a = realloc(args, (size_t)cap * sizeof *a);
            if (!a) {
                free(args);
                cli_error("out of memory");
                return PL_EXIT_FAIL;
            }
            args = a;
        }
        if (n == 0) args[n++] = "bench";
        args[n++] = tok;
    }
    if (n == 0) return PL_EXIT_OK;
    char json_path[4096];
    if (suite_json_dir && n >= 2 && !is_option_named(args[1], "--suite")) { /* not an include line */
        if (n + 3 >= cap) {
            char **a = realloc(args, (size_t)(n + 4) * sizeof *a);
            if (!a) {
                free(args);
                cli_error("out of memory");
                return PL_EXIT_FAIL;
            }
            args = a;
        }
        snprintf(json_path, sizeof json_path, "%s/%03d-%s.json", suite_json_dir, ++suite_json_count, args[1]);
        args[n++] = "--json";
        args[n++] = json_path;
    }
    args[n] = NULL;
    printf("\n== %s:%d: parlab", path, lineno);
    for (int i = 0; i < n; i++) printf(" %s", args[i]);
    printf("\n");
    fflush(stdout);
    int r = pl_cmd_bench(n, args);
    fflush(stdout);
    free(args);
    return r;
}

static int run_suite(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real) {
        cli_error("bench --suite: cannot open %s", path);
        return PL_EXIT_FAIL;
    }
    for (int i = 0; i < suite_depth; i++)
        if (!strcmp(suite_stack[i], real)) {
            cli_error("bench --suite: %s includes itself%s%s; refused", path, i + 1 < suite_depth ? " through " : "",
                      i + 1 < suite_depth ? suite_stack[suite_depth - 1] : "");
            free(real);
            return PL_EXIT_USAGE;
        }
    if (suite_depth == SUITE_MAX_DEPTH) {
        cli_error("bench --suite: %s: suites nested more than %d deep; refused", path, SUITE_MAX_DEPTH);
        free(real);
        return PL_EXIT_USAGE;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("bench --suite: cannot open %s", path);
        free(real);
        return PL_EXIT_FAIL;
    }
    suite_stack[suite_depth++] = real;
    char *line = NULL;
    size_t cap = 0;
    int status = PL_EXIT_OK, lineno = 0;
    while (getline(&line, &cap, f) >= 0) { /* lines of any length */
        lineno++;
        int r = run_line(path, lineno, line);
        if (r > status) status = r;
    }
    free(line);
    fclose(f);
    free(suite_stack[--suite_depth]);
    return status;
}
