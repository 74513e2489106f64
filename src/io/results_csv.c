/* results_csv.c: a bench run's results as CSV (pl_report_csv; docs/output.md), one row a
 * result, the first two peers' ratios (the JSON has them all). Written as io.h's outputs: a
 * failed run leaves no partial file. */
#include "core/core.h"
#include "io/io.h"

#include <math.h>
#include <stdio.h>

pl_status pl_report_csv(const char *path, const pl_result *r, int n, const pl_report_info *rc)
{
    (void)rc;
    FILE *f = pl_tmp_fopen(path);
    if (!f) return PL_ERR_IO; /* the message is recorded */
    fprintf(f, "machine,gpu,build,kernel,variant,backend,precision,peer,params,size,threads,repeats,cold,median_s,"
               "min_s,max_s,alloc_s,h2d_s,kernel_s,d2h_s,unit,work,rate,rate_unit,ops,bytes,gbps,ceiling,ceiling_pct,"
               "over_ceiling,check,error,bound,elem_ratio,elem_bound,passed,peer_name,peer_ratio,peer2_name,peer2_ratio\n");
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        char params[128];
        pl_report_params(x, params, sizeof params);
        for (char *c = params; *c; c++)
            if (*c == ',') *c = ';'; /* keep one CSV field */
        fprintf(f, "\"%s\",\"%s\",%s%s,%s,%s,%s,%s,%d,\"%s\",\"%s\",%d,%d,%d,%.9g,%.9g,%.9g", pl_cpu_name(),
                pl_gpu_name(), PARLAB_VERSION, (pl_features() & PL_FEAT_CUDA_BUILD) ? "+cuda" : "",
                x->kernel->name, x->variant->name, pl_backend_name(x->variant->backend),
                pl_precision_name(x->variant->precision), x->variant->is_peer, params, x->size, x->threads,
                x->repeats, x->cold, x->median_s, x->min_s, x->max_s);
        for (int p = 0; p < PL_N_PHASES; p++) {
            if (x->phase_s[p] >= 0) fprintf(f, ",%.9g", x->phase_s[p]);
            else fputs(",", f);
        }
        fprintf(f, ",%s,%.6g,%.6g,%s,%.6g,%.6g,%.6g,\"%s\",", pl_unit_name(x->unit), x->work, x->rate,
                pl_unit_rate_name(x->unit), x->ops, x->bytes, x->gbps, x->ceiling_name);
        if (x->ceiling_pct >= 0) fprintf(f, "%.4g", x->ceiling_pct);
        fprintf(f, ",%d,%s,%.6g,%.6g,%.6g,%.6g,%d", x->over_ceiling, pl_check_name(x->check), x->error, x->bound,
                fmax(x->first.elem_ratio, x->last.elem_ratio), x->elem_bound, x->verified);
        for (int k = 0; k < 2; k++) { /* the first two peers; the JSON has them all */
            if (k < x->n_peers) fprintf(f, ",%s,%.4g", x->peers[k].name, x->peers[k].ratio);
            else fputs(",,", f);
        }
        fputc('\n', f);
    }
    return pl_tmp_fclose(f, path);
}
