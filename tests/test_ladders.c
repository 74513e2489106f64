/* test_ladders.c: what every kernel's ladder declares, read from the registry. The design is
 * one binary whose SIMD rungs choose their ISA at run time (an isa parameter, auto by default),
 * so a parlab CPU rung needs at most AVX2: one that declared AVX-512 would be refused on an
 * AVX2-only machine and its every test would skip, all green. Also: every CPU rung's
 * requirement is one pl_variant_check knows (no stray bits), and where this CPU (pl_features:
 * less what PARLAB_ISA_MAX hides) has what a parlab CPU rung needs, the rung is accepted. */
#include "check.h"
#include "harness/harness.h"

#include <string.h>

int main(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "cpu context: %s", pl_last_error());
    const unsigned known = PL_FEAT_AVX2 | PL_FEAT_AVX512 | PL_FEAT_OPENBLAS;
    int kernels = 0, cpu_rungs = 0;
    for (int k = 0; pl_kernel_table[k]; k++, kernels++) {
        const pl_kernel *K = pl_kernel_table[k];
        for (int i = 0; i < K->n_variants; i++) {
            const pl_variant *v = K->ladder[i];
            if (v->backend != PL_BACKEND_CPU) continue;
            cpu_rungs++;
            CHECK((v->requires & ~known) == 0, "%s %s: a CPU rung requires 0x%x, beyond AVX2, AVX-512, OpenBLAS",
                  K->name, v->name, v->requires);
            if (v->is_peer) continue;
            CHECK(!(v->requires & PL_FEAT_AVX512),
                  "%s %s declares AVX-512 in .requires: a parlab rung needs at most AVX2 (the ISA is its isa "
                  "parameter, chosen at run time)", K->name, v->name);
            CHECK(!(v->requires & PL_FEAT_OPENBLAS), "%s %s: only a peer may need OpenBLAS", K->name, v->name);
            /* Where the CPU has what it needs, it runs: no refusal to hide behind a skip. */
            char why[128] = "";
            if ((v->requires & ~pl_features()) == 0 && ctx)
                CHECK(pl_variant_check(ctx, v, why, sizeof why) == PL_OK, "%s %s refused on a CPU that has what it "
                      "needs: %s", K->name, v->name, why);
        }
    }
    CHECK(kernels >= 7 && cpu_rungs >= 14, "the registry holds %d kernels, %d CPU rungs: fewer than built", kernels,
          cpu_rungs);
    printf("%d kernels, %d CPU rungs read; this CPU: AVX2 %s, AVX-512 %s\n", kernels, cpu_rungs,
           pl_features() & PL_FEAT_AVX2 ? "yes" : "no", pl_features() & PL_FEAT_AVX512 ? "yes" : "no");
    pl_ctx_destroy(ctx);
    return check_summary("ladders");
}
