/* cmd_bench.c: `parlab bench KERNEL ...`: verify and time a kernel's variants at one or more
 * sizes, beside the peer library, and place each against the machine's peaks.
 * `parlab bench --suite FILE` runs one bench per line of FILE (see bench/default.suite). */
#include "cli/session.h"

#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("usage: parlab bench KERNEL [SIZE...] [--variant V,...|all] [--peer] [--param NAME=V,...]\n"
           "                    [options]\n"
           "       parlab bench --suite FILE\n\n"
           "Runs each variant at each size: inputs from a fixed seed, output poisoned, result\n"
           "verified against a float64 reference on every run, then timed (warm-up, repeats,\n"
           "median/min/max). GPU variants report allocation, host-to-device, kernel and\n"
           "device-to-host apart. --variant all: every rung this machine can run (default);\n"
           "--peer adds the peer libraries this machine can run (OpenBLAS, OpenBLAS forced onto\n"
           "its AVX-512 kernels where the CPU has them, cuBLAS FP32 and TF32) and prints each\n"
           "rung's ratio to every peer of the same backend and precision (peer time / rung\n"
           "time). --param sets the named variants' parameters (parlab list KERNEL shows them).\n\n"
           "options:\n%s"
           "  --skip-unavailable  skip named variants this machine cannot run (instead of failing)\n"
           "  --suite FILE        run `parlab bench LINE` for each line of FILE (# comments)\n\n"
           "Exit status: 0 all verified, 1 a run failed or did not verify, 2 usage error.\n",
           session_options_help());
}

/* --param NAME=V,... for one variant: values in the variant's parameter order. */
static int parse_variant_params(const pl_variant *v, const char *list, int64_t *out, int *given)
{
    char buf[512], *items[PL_MAX_PARAMS * 2];
    int n = cli_split(list, buf, sizeof buf, items, PL_MAX_PARAMS * 2);
    for (int i = 0; i < v->n_params; i++) out[i] = (int64_t)v->params[i].def;
    *given = 0;
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq) {
            cli_error("--param %s: expected NAME=VALUE", items[i]);
            return PL_EXIT_USAGE;
        }
        *eq = '\0';
        int found = -1;
        for (int j = 0; j < v->n_params; j++)
            if (!strcmp(v->params[j].name, items[i])) found = j;
        if (found < 0) continue; /* another variant's parameter */
        double x;
        pl_status st = pl_param_parse(&v->params[found], eq + 1, &x);
        if (st != PL_OK) return cli_fail(st);
        out[found] = (int64_t)x;
        *given = 1;
    }
    return PL_EXIT_OK;
}

/* Every name in --param must belong to at least one selected variant. */
static int check_param_names(const pl_variant *const *vars, int n, const char *list)
{
    char buf[512], *items[PL_MAX_PARAMS * 2];
    int m = cli_split(list, buf, sizeof buf, items, PL_MAX_PARAMS * 2);
    for (int i = 0; i < m; i++) {
        char *eq = strchr(items[i], '=');
        if (eq) *eq = '\0';
        int found = 0;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < vars[k]->n_params; j++) found |= !strcmp(vars[k]->params[j].name, items[i]);
        if (!found) {
            cli_error("--param: no selected variant has a parameter '%s'", items[i]);
            return PL_EXIT_USAGE;
        }
    }
    return PL_EXIT_OK;
}

static int run_suite(const char *path);

int pl_cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help();
        return PL_EXIT_OK;
    }
    if (argc >= 3 && !strcmp(argv[1], "--suite")) {
        if (argc > 3) {
            cli_error("bench --suite takes only the file");
            return PL_EXIT_USAGE;
        }
        return run_suite(argv[2]);
    }
    const pl_kernel *k = session_kernel_arg("bench", ", or --suite FILE", argc, argv);
    if (!k) return PL_EXIT_USAGE;
    cli_session s;
    session_init(&s, k, argc, argv);
    const char *variant_list = "all", *param_list = NULL;
    int with_peer = 0, skip_unavailable = 0;
    for (int i = 2; i < argc; i++) {
        int r = session_option(&s, argc, argv, &i);
        if (r < 0) return PL_EXIT_USAGE;
        if (r > 0) continue;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            help();
            return PL_EXIT_OK;
        } else if (!strcmp(argv[i], "--peer")) {
            with_peer = 1;
        } else if (!strcmp(argv[i], "--skip-unavailable")) {
            skip_unavailable = 1;
        } else if (!strcmp(argv[i], "--variant") || !strcmp(argv[i], "--param")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", argv[i]);
                return PL_EXIT_USAGE;
            }
            if (!strcmp(argv[i], "--variant")) variant_list = argv[++i];
            else param_list = argv[++i];
        } else if (!strcmp(argv[i], "--")) {
            for (i++; i < argc; i++)
                if (session_add_size(&s, argv[i]) < 0) return PL_EXIT_USAGE;
        } else if (argv[i][0] == '-' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
            cli_error("bench: unknown option '%s' (parlab bench --help)", argv[i]);
            return PL_EXIT_USAGE;
        } else if (session_add_size(&s, argv[i]) < 0) {
            return PL_EXIT_USAGE;
        }
    }
    if (s.n_sizes == 0) session_add_size(&s, "medium");

    /* The variants: named ones must exist (and be able to run); "all" takes what can. */
    const pl_variant *vars[64];
    int n = 0, status = PL_EXIT_OK;
    if (!strcmp(variant_list, "all")) {
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            char why[128];
            if (v->is_peer) continue;
            if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[n++] = v;
            else fprintf(stderr, "parlab: skipping %s: %s\n", v->name, why);
        }
    } else {
        char buf[1024], *items[64];
        int m = cli_split(variant_list, buf, sizeof buf, items, 64);
        for (int i = 0; i < m; i++) {
            const pl_variant *v = pl_variant_find(k, items[i]);
            if (!v) {
                cli_error("bench: %s has no variant '%s' (parlab list %s)", k->name, items[i], k->name);
                return PL_EXIT_USAGE;
            }
            char why[128];
            pl_status st = pl_variant_check(NULL, v, why, sizeof why);
            if (st != PL_OK && skip_unavailable) {
                fprintf(stderr, "parlab: skipping %s: %s\n", v->name, why);
                continue;
            }
            if (st != PL_OK) return cli_fail(st);
            vars[n++] = v;
        }
    }
    if (with_peer) {
        int backends = 0;
        for (int i = 0; i < n; i++) backends |= 1 << vars[i]->backend;
        for (int i = 0; i < k->n_variants && n < 64; i++) {
            const pl_variant *v = k->ladder[i];
            int already = 0;
            for (int j = 0; j < n; j++) already |= vars[j] == v;
            if (!v->is_peer || already || !(backends & (1 << v->backend))) continue;
            char why[128];
            if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) vars[n++] = v;
            else fprintf(stderr, "parlab: no peer %s: %s\n", v->name, why);
        }
    }
    if (n == 0 && skip_unavailable) {
        fprintf(stderr, "parlab: nothing on this line can run on this machine\n");
        return PL_EXIT_OK;
    }
    if (n == 0) {
        cli_error("bench: no variant of %s can run here (parlab list %s says why)", k->name, k->name);
        return PL_EXIT_FAIL;
    }
    if (param_list && (status = check_param_names(vars, n, param_list)) != PL_EXIT_OK) return status;
    /* Parse every variant's parameters before any run: a bad value fails fast. */
    int64_t params[64][PL_MAX_PARAMS];
    int given[64];
    for (int i = 0; i < n; i++) {
        given[i] = 0;
        if (param_list && (status = parse_variant_params(vars[i], param_list, params[i], &given[i])) != PL_EXIT_OK)
            return status;
    }
    if ((status = session_begin(&s, vars, n)) != PL_EXIT_OK) {
        session_free(&s);
        return status;
    }
    for (int z = 0; z < s.n_sizes; z++) {
        int e;
        pl_problem *p = session_problem(&s, s.sizes[z], &e);
        if (!p) {
            if (e == PL_EXIT_USAGE) {
                session_free(&s);
                return e;
            }
            continue;
        }
        for (int i = 0; i < n; i++) session_run(&s, p, vars[i], given[i] ? params[i] : NULL);
        pl_problem_destroy(p);
    }
    status = session_finish(&s);
    session_free(&s);
    return status;
}

static int run_suite(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("bench --suite: cannot open %s", path);
        return PL_EXIT_FAIL;
    }
    char line[1024];
    int status = PL_EXIT_OK, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *args[64];
        int n = 0;
        args[n++] = "bench";
        for (char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save); tok && n < 63;
             tok = strtok_r(NULL, " \t\r\n", &save))
            args[n++] = tok;
        if (n == 1) continue;
        args[n] = NULL;
        printf("\n== %s:%d: parlab", path, lineno);
        for (int i = 0; i < n; i++) printf(" %s", args[i]);
        printf("\n");
        fflush(stdout);
        int r = pl_cmd_bench(n, args);
        if (r > status) status = r;
    }
    fclose(f);
    return status;
}
