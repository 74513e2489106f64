/* cmd_sweep.c: `parlab sweep KERNEL --variant V --param NAME=v1,v2,...`: the lab study that
 * times one variant over parameter values (block sizes, tiles), every run verified, and
 * names the best setting per size. Several --param flags sweep their cartesian product.
 * The product and the best pick are the library's (pl_sweep_*, pl_results_best); the
 * options and the table are session.c's, the checks and runs the library's session. */
#include "cli/session.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f, "usage: parlab sweep KERNEL --variant V --param NAME=v1,v2,...|all [--param ...] [SIZE...]\n"
           "                    [options]\n\n"
           "Times variant V at every combination of the listed parameter values, checks each run\n"
           "against the float64 reference, prints the table and names the fastest verified\n"
           "setting per size (with its rate in the kernel's unit). Unlisted parameters keep their\n"
           "defaults. Every size, value and output path is checked, and each size's memory\n"
           "estimate compared with what this process may take, before anything runs.\n\n"
           "options:\n");
    session_options_help(f, CLI_SWEEP);
    fprintf(f, "\nExit status: 0 all verified, 1 a run failed or did not verify, 2 usage error\n"
           "(also a size too big for this machine's memory).\n");
}

enum { SWEEP_MAX_POINTS = 100000 };

static int select_jobs(cli_session *s)
{
    const pl_kernel *k = s->run.kernel;
    if (!s->variant_arg) {
        cli_error("sweep: --variant is required");
        return PL_EXIT_USAGE;
    }
    const pl_variant *v = pl_variant_find(k, s->variant_arg);
    if (!v) {
        if (strchr(s->variant_arg, ','))
            cli_error("sweep: --variant takes one variant, not the list '%s'", s->variant_arg);
        else
            cli_error("sweep: %s has no variant '%s' (parlab list %s)", k->name, s->variant_arg, k->name);
        return PL_EXIT_USAGE;
    }
    if (s->n_param_args == 0) {
        cli_error("sweep: name the parameter values to sweep with --param NAME=v1,v2,...");
        return PL_EXIT_USAGE;
    }
    /* One axis per --param, each name once: a repeat is an error, never read as anything else. */
    pl_sweep_axis *ax = calloc((size_t)s->n_param_args, sizeof *ax);
    if (!ax) {
        cli_error("out of memory");
        return PL_EXIT_FAIL;
    }
    int status = PL_EXIT_OK;
    for (int i = 0; i < s->n_param_args && status == PL_EXIT_OK; i++) {
        pl_status st = pl_sweep_axis_parse(v, s->param_args[i], &ax[i]);
        if (st != PL_OK) {
            status = cli_fail(st);
            if (status == PL_EXIT_FAIL) status = PL_EXIT_USAGE;
            break;
        }
        for (int j = 0; j < i; j++)
            if (ax[j].param == ax[i].param) {
                cli_error("--param %s given twice ('%s' and '%s'): list its values in one --param",
                          v->params[ax[i].param].name, s->param_args[j], s->param_args[i]);
                status = PL_EXIT_USAGE;
                break;
            }
    }
    int64_t count = status == PL_EXIT_OK ? pl_sweep_count(ax, s->n_param_args) : 0;
    if (status == PL_EXIT_OK && (count <= 0 || count > SWEEP_MAX_POINTS)) {
        cli_error("sweep: %lld settings; at most %d in one sweep", (long long)count, SWEEP_MAX_POINTS);
        status = PL_EXIT_USAGE;
    }
    if (status == PL_EXIT_OK) {
        char why[128] = "";
        pl_status st = pl_variant_check(NULL, v, why, sizeof why);
        if (st != PL_OK) {
            cli_error("sweep: %s cannot run here: %s", v->name, *why ? why : pl_status_name(st));
            status = PL_EXIT_FAIL;
        }
    }
    for (int64_t i = 0; status == PL_EXIT_OK && i < count; i++) {
        int64_t params[PL_MAX_PARAMS] = {0};
        pl_sweep_point(v, ax, s->n_param_args, i, params);
        status = session_add_job(s, v, params, 0);
    }
    free(ax);
    return status;
}

int pl_cmd_sweep(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help(stdout);
        return PL_EXIT_OK;
    }
    const pl_kernel *k = session_kernel_arg("sweep", "", argc, argv);
    if (!k) return PL_EXIT_USAGE;
    cli_session s;
    session_init(&s, k, CLI_SWEEP, argc, argv);
    int status = session_parse(&s, argc, argv, help);
    if (status < 0 && (status = select_jobs(&s)) == PL_EXIT_OK && (status = session_prepare(&s)) == PL_EXIT_OK) {
        session_run_all(&s);
        status = session_finish(&s);
        /* Name the best verified setting per size, after the table. */
        const pl_session *run = &s.run;
        for (int z = 0; z < run->n_sizes; z++) {
            if (run->size_problem[z] < 0) continue;
            int b = pl_results_best(run->results, run->n_results, run->size_problem[z]);
            if (b < 0) {
                printf("best at %s: none verified\n", run->plans[z].desc);
                continue;
            }
            const pl_result *r = &run->results[b];
            char params[256];
            pl_report_params(r, params, sizeof params);
            printf("best at %s: %s  (%.4g ms, %.4g %s)\n", r->size, params, r->median_s * 1e3, r->rate,
                   pl_unit_rate_name(r->unit));
        }
    }
    session_free(&s);
    return status;
}
