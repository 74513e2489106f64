/* cmd_list.c: `parlab list [kernel]`: the ladders, each variant's idea and parameters, and
 * whether this build and machine can run it (and why not). */
#include "cli/options.h"
#include "distributed/transport/distributed.h"

#include <string.h>

static void list_kernel(const pl_kernel *k)
{
    static const char *const ceilings[] = {"roofline (the compute peak of the variant's precision or memory "
                                           "bandwidth, whichever bounds the run)",
                                           "compute peak of the variant's precision", "memory bandwidth"};
    printf("%s: %s\n  sizes: %s\n", k->name, k->summary, k->size_help);
    if (k->n_named_sizes > 0) {
        printf("  named sizes:");
        for (int i = 0; i < k->n_named_sizes; i++)
            printf("%s %s = %s", i ? "," : "", k->named_sizes[i].name, k->named_sizes[i].size);
        printf("\n");
    }
    printf("  unit: %s (rate in %s); ceiling: %s\n", pl_unit_name(k->unit), pl_unit_rate_name(k->unit),
           (unsigned)k->ceiling < 3 ? ceilings[k->ceiling] : "?");
    for (int i = 0; i < k->n_problem_params; i++) {
        const pl_param_def *p = &k->problem_params[i];
        char legal[256];
        pl_param_legal(p, legal, sizeof legal);
        if (p->kind == PL_PARAM_STRING)
            printf("  --set %s=  %s (text)\n", p->name, p->help);
        else if (p->kind == PL_PARAM_CHOICE)
            printf("  --set %s=  %s (%s; default %s)\n", p->name, p->help, legal, p->choices[(int)p->def]);
        else
            printf("  --set %s=  %s (%s; default %g)\n", p->name, p->help, legal, p->def);
    }
    for (int i = 0; i < k->n_variants; i++) {
        const pl_variant *v = k->ladder[i];
        char why[128];
        int ok = pl_variant_check(NULL, v, why, sizeof why) == PL_OK;
        /* BF16's word alone would hide that only the inputs are bfloat16 */
        printf("  %c %-18s %-5s %-5s %s%s%s\n", ok ? '+' : '-', v->name, pl_backend_name(v->backend),
               pl_precision_name(v->precision), v->is_peer ? "[peer] " : "",
               v->precision == PL_PREC_BF16 ? "BF16 in, FP32 accumulate, FP32 out: " : "", v->idea);
        if (!ok) printf("      cannot run here: %s\n", why);
        for (int j = 0; j < v->n_params; j++) {
            char legal[256];
            pl_param_legal(&v->params[j], legal, sizeof legal);
            const pl_param_def *p = &v->params[j];
            if (p->kind == PL_PARAM_CHOICE)
                printf("      --param %s=  %s (%s; default %s)\n", p->name, p->help, legal, p->choices[(int)p->def]);
            else
                printf("      --param %s=  %s (%s; default %g)\n", p->name, p->help, legal, p->def);
        }
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: parlab list [KERNEL]\n\nPrints each kernel's ladder in order: '+' marks a variant this\n"
               "build and machine can run, '-' one it cannot, with the reason.\n");
}

static int take_option(void *user, const cli_opt *o, const char *val)
{
    (void)user, (void)o, (void)val; /* no options */
    return PL_EXIT_OK;
}

int pl_cmd_list(int argc, char **argv)
{
    const char *name = NULL;
    const pl_kernel *only = NULL;
    cli_args a = {.cmd = "list", .opts = NULL, .n_opts = 0, .pos = &name, .max_pos = 1, .takes = "one KERNEL"};
    int rc = cli_parse(&a, argc, argv, take_option, NULL, usage);
    if (rc != CLI_GO_ON) return rc;
    if (name && !(only = pl_kernel_find(name))) {
        cli_error("list: unknown kernel '%s'", name);
        return PL_EXIT_USAGE;
    }
    printf("machine: %s\n", pl_machine_summary());
    if (pl_dist_built())
        printf("MPI: %s (mpirun -n P parlab life ... runs on P ranks; docs/architecture.md, The distributed layer)\n",
               pl_dist_library());
    else
        printf("MPI: no (this build has no MPI: mpirun runs nothing distributed)\n");
    if (pl_dist_nccl_built())
        printf("NCCL: %s (mpirun -n G parlab life|gemm|reduce ... --variant cuda-tuned: one GPU a rank, "
               "halos, panels and partials on NCCL)\n\n", pl_dist_nccl_library());
    else
        printf("NCCL: no (this build has no NCCL: GPUs under mpirun exchange through the host)\n\n");
    for (int i = 0; i < pl_kernel_count(); i++)
        if (!only || only == pl_kernel_at(i)) list_kernel(pl_kernel_at(i));
    return PL_EXIT_OK;
}
