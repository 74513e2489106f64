/* test_ladders.c: what every kernel's ladder declares, read from the registry: its best-first
 * order (check_best_order), and its CPU rungs' requirements. The design is
 * one binary whose SIMD rungs choose their ISA at run time (an isa parameter, auto by default),
 * so a parlab CPU rung needs at most AVX2: one that declared AVX-512 would be refused on an
 * AVX2-only machine and its every test would skip, all green. Also: every CPU rung's
 * requirement is one pl_variant_check knows (no stray bits), and where this CPU (pl_features:
 * less what PARLAB_ISA_MAX hides) has what a parlab CPU rung needs, the rung is accepted. */
#include "check.h"
#include "harness/harness.h"

#include <string.h>

/* The best-first order a ladder declares (best_rank): of each backend, ranks 1..n once each, no
 * gap; peers never ranked; a kernel has at least one ranked CPU rung (a kernel added without
 * an order would leave its BLAS-like call nothing to run). On a CPU context pl_best_variant
 * gives the lowest-ranked rung that runs here. */
static void check_best_order(pl_ctx *ctx, const pl_kernel *K)
{
    for (int b = PL_BACKEND_CPU; b <= PL_BACKEND_CUDA; b++) {
        int ranked = 0, most = 0, seen[64] = {0};
        for (int i = 0; i < K->n_variants; i++) {
            const pl_variant *v = K->ladder[i];
            if ((int)v->backend != b || !v->best_rank) continue;
            CHECK(!v->is_peer, "%s %s: a peer has best_rank %d (peers are never picked)", K->name, v->name,
                  v->best_rank);
            CHECK(v->best_rank > 0 && v->best_rank < 64 && !seen[v->best_rank]++, "%s %s: best_rank %d given twice "
                  "or out of range", K->name, v->name, v->best_rank);
            ranked++;
            most = v->best_rank > most ? v->best_rank : most;
        }
        CHECK(most == ranked, "%s: the %s ranks skip a number (%d rungs ranked, the last is %d)", K->name,
              pl_backend_name((pl_backend)b), ranked, most);
        if (b == PL_BACKEND_CPU) CHECK(ranked > 0, "%s: no CPU rung has a best_rank", K->name);
    }
    if (!ctx) return;
    const char *best = pl_best_variant(ctx, K, NULL);
    const pl_variant *want = NULL;
    for (int i = 0; i < K->n_variants; i++) {
        const pl_variant *v = K->ladder[i];
        if (v->backend == PL_BACKEND_CPU && v->best_rank && (!want || v->best_rank < want->best_rank) &&
            pl_variant_check(ctx, v, NULL, 0) == PL_OK)
            want = v;
    }
    CHECK(want && best && !strcmp(best, want->name), "%s: pl_best_variant picks %s on the CPU, want %s", K->name,
          best ? best : "none", want ? want->name : "none");
}

int main(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "cpu context: %s", pl_last_error());
    const unsigned known = PL_FEAT_AVX2 | PL_FEAT_AVX512 | PL_FEAT_OPENBLAS;
    int kernels = 0, cpu_rungs = 0;
    for (int k = 0; pl_kernel_table[k]; k++, kernels++) {
        const pl_kernel *K = pl_kernel_table[k];
        check_best_order(ctx, K);
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
