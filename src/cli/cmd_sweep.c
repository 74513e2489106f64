/* cmd_sweep.c: `parlab sweep KERNEL --variant V --param NAME=v1,v2,...`: the lab study that
 * times one variant over parameter values (block sizes, tiles), every run verified, and
 * names the best setting per size. Several --param flags sweep their cartesian product. */
#include "cli/session.h"
#include "harness/report.h"

#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("usage: parlab sweep KERNEL --variant V --param NAME=v1,v2,...|all [--param ...] [SIZE...]\n"
           "                    [options]\n\n"
           "Times variant V at every combination of the listed parameter values (all: every legal\n"
           "value of a listed-value parameter), verifies each run, prints the table and names the\n"
           "fastest setting per size. Unlisted parameters keep their defaults.\n\noptions:\n%s\n"
           "Exit status: 0 all verified, 1 a run failed or did not verify, 2 usage error.\n",
           session_options_help());
}

enum { MAX_VALUES = 64 };

typedef struct swept {
    int index; /* in the variant's parameter list */
    int n;
    int64_t values[MAX_VALUES];
} swept;

static int parse_sweep(const pl_variant *v, const char *arg, swept *sw)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    char *eq = strchr(buf, '=');
    if (!eq) {
        cli_error("--param %s: expected NAME=v1,v2,...", arg);
        return PL_EXIT_USAGE;
    }
    *eq = '\0';
    sw->index = -1;
    for (int j = 0; j < v->n_params; j++)
        if (!strcmp(v->params[j].name, buf)) sw->index = j;
    if (sw->index < 0) {
        cli_error("--param: %s has no parameter '%s' (parlab list shows its parameters)", v->name, buf);
        return PL_EXIT_USAGE;
    }
    const pl_param_def *p = &v->params[sw->index];
    sw->n = 0;
    if (!strcmp(eq + 1, "all")) {
        if (p->kind == PL_PARAM_LIST) {
            for (int j = 0; j < p->n_values && j < MAX_VALUES; j++) sw->values[sw->n++] = p->values[j];
        } else if (p->kind == PL_PARAM_CHOICE) {
            for (int j = 0; p->choices[j] && j < MAX_VALUES; j++) sw->values[sw->n++] = j;
        } else {
            cli_error("--param %s=all: a range parameter needs its values listed", p->name);
            return PL_EXIT_USAGE;
        }
        return PL_EXIT_OK;
    }
    char vbuf[1024], *items[MAX_VALUES];
    int n = cli_split(eq + 1, vbuf, sizeof vbuf, items, MAX_VALUES);
    for (int i = 0; i < n; i++) {
        double x;
        pl_status st = pl_param_parse(p, items[i], &x);
        if (st != PL_OK) return cli_fail(st);
        sw->values[sw->n++] = (int64_t)x;
    }
    if (sw->n == 0) {
        cli_error("--param %s: no values", p->name);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int pl_cmd_sweep(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help();
        return PL_EXIT_OK;
    }
    const pl_kernel *k = session_kernel_arg("sweep", "", argc, argv);
    if (!k) return PL_EXIT_USAGE;
    cli_session s;
    session_init(&s, k, argc, argv);
    const char *variant = NULL, *param_args[PL_MAX_PARAMS];
    int n_param_args = 0;
    for (int i = 2; i < argc; i++) {
        int r = session_option(&s, argc, argv, &i);
        if (r < 0) return PL_EXIT_USAGE;
        if (r > 0) continue;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            help();
            return PL_EXIT_OK;
        } else if (!strcmp(argv[i], "--variant") || !strcmp(argv[i], "--param")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", argv[i]);
                return PL_EXIT_USAGE;
            }
            if (!strcmp(argv[i], "--variant")) variant = argv[++i];
            else if (n_param_args < PL_MAX_PARAMS) param_args[n_param_args++] = argv[++i];
        } else if (!strcmp(argv[i], "--")) {
            for (i++; i < argc; i++)
                if (session_add_size(&s, argv[i]) < 0) return PL_EXIT_USAGE;
        } else if (argv[i][0] == '-' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
            cli_error("sweep: unknown option '%s' (parlab sweep --help)", argv[i]);
            return PL_EXIT_USAGE;
        } else if (session_add_size(&s, argv[i]) < 0) {
            return PL_EXIT_USAGE;
        }
    }
    if (!variant) {
        cli_error("sweep: --variant is required");
        return PL_EXIT_USAGE;
    }
    const pl_variant *v = pl_variant_find(k, variant);
    if (!v) {
        cli_error("sweep: %s has no variant '%s' (parlab list %s)", k->name, variant, k->name);
        return PL_EXIT_USAGE;
    }
    if (n_param_args == 0) {
        cli_error("sweep: name the parameter values to sweep with --param NAME=v1,v2,...");
        return PL_EXIT_USAGE;
    }
    swept sw[PL_MAX_PARAMS];
    int status;
    for (int i = 0; i < n_param_args; i++)
        if ((status = parse_sweep(v, param_args[i], &sw[i])) != PL_EXIT_OK) return status;
    pl_status st = pl_variant_check(NULL, v, NULL, 0);
    if (st != PL_OK) return cli_fail(st);
    if (s.n_sizes == 0) session_add_size(&s, "medium");
    if ((status = session_begin(&s, &v, 1)) != PL_EXIT_OK) {
        session_free(&s);
        return status;
    }
    int best_of_size[SESSION_MAX_SIZES];
    for (int z = 0; z < s.n_sizes; z++) {
        best_of_size[z] = -1;
        int e;
        pl_problem *p = session_problem(&s, s.sizes[z], &e);
        if (!p) {
            if (e == PL_EXIT_USAGE) {
                session_free(&s);
                return e;
            }
            continue;
        }
        int first = s.n_results;
        /* The cartesian product, odometer style. */
        int idx[PL_MAX_PARAMS] = {0};
        for (;;) {
            int64_t params[PL_MAX_PARAMS];
            for (int j = 0; j < v->n_params; j++) params[j] = (int64_t)v->params[j].def;
            for (int j = 0; j < n_param_args; j++) params[sw[j].index] = sw[j].values[idx[j]];
            session_run(&s, p, v, params);
            int j = 0;
            while (j < n_param_args && ++idx[j] == sw[j].n) idx[j++] = 0;
            if (j == n_param_args) break;
        }
        pl_problem_destroy(p);
        /* The best verified setting for this size. */
        int best = -1;
        for (int i = first; i < s.n_results; i++)
            if (s.results[i].verified && (best < 0 || s.results[i].median_s < s.results[best].median_s)) best = i;
        best_of_size[z] = best;
    }
    status = session_finish(&s);
    /* Name the best per size, after the table. */
    for (int z = 0; z < s.n_sizes; z++) {
        if (best_of_size[z] < 0) continue;
        const pl_result *r = &s.results[best_of_size[z]];
        char params[128];
        pl_report_params(r, params, sizeof params);
        printf("best at %s: %s  (%.3f ms, %.1f GFLOP/s)\n", r->size, params, r->median_s * 1e3, r->gflops);
    }
    session_free(&s);
    return status;
}
