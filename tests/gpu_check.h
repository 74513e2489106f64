/* gpu_check.h: what the GPU tests (test_*_gpu.c) share around check.h: skip where there is no
 * CUDA build or no GPU ("skipped: no GPU", exit 77), the PL_SANITIZER switch (under
 * compute-sanitizer the tests shrink their shapes), the CUDA context, and the test of each
 * CUDA rung before it is run. */
#ifndef PL_TEST_GPU_CHECK_H
#define PL_TEST_GPU_CHECK_H

#include "check.h"
#include "parlab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gpu_check_require: returns only where this is a CUDA build on a machine with a GPU. */
static inline void gpu_check_require(void)
{
    unsigned f = pl_features();
    if (!(f & PL_FEAT_CUDA_BUILD)) check_skip("no CUDA build");
    if (!(f & PL_FEAT_GPU)) check_skip("no GPU");
}

/* gpu_check_sanitizer: nonzero under compute-sanitizer (PL_SANITIZER set): smaller shapes. */
static inline int gpu_check_sanitizer(void) { return getenv("PL_SANITIZER") != NULL; }

/* gpu_check_ctx: gpu_check_require, then a CUDA context; NULL (a failure recorded) if none. */
static inline pl_ctx *gpu_check_ctx(void)
{
    gpu_check_require();
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CUDA, 0, 0) == PL_OK, "cuda context: %s", pl_last_error());
    return ctx;
}

/* gpu_check_peer_skipped: nonzero (and a line saying why) where v is a peer and
 * PL_SANITIZER_PEERS=0: compute-sanitizer's initcheck then checks parlab's kernels only, not the
 * libraries' (cuDNN's implicit GEMM reads workspace it never wrote, by its own design). */
static inline int gpu_check_peer_skipped(const pl_variant *v)
{
    const char *env = getenv("PL_SANITIZER_PEERS");
    if (!v->is_peer || !env || strcmp(env, "0")) return 0;
    printf("skipped: %s: PL_SANITIZER_PEERS=0 (a library's kernels are not parlab's to sanitize)\n", v->name);
    return 1;
}

/* gpu_check_rung: nonzero when v is a CUDA variant that can run on ctx. A peer whose optional
 * library this build lacks (cuDNN, cuBLAS), and a Hopper-only rung (PL_REQ_SM90A) on another
 * GPU, are skipped, saying why; any other CUDA variant that cannot run is a failure on a GPU
 * machine (recorded). CPU variants: 0, nothing recorded. */
static inline int gpu_check_rung(pl_ctx *ctx, const pl_variant *v)
{
    if (v->backend != PL_BACKEND_CUDA || gpu_check_peer_skipped(v)) return 0;
    /* PL_TEST_VARIANTS=a,b,...: only those (a sanitizer's slow tools on the rungs at hand) */
    const char *only = getenv("PL_TEST_VARIANTS");
    if (only && *only) {
        const size_t n = strlen(v->name);
        const char *hit = only;
        while ((hit = strstr(hit, v->name)) && !((hit == only || hit[-1] == ',') && (hit[n] == ',' || !hit[n]))) hit++;
        if (!hit) {
            printf("skipped: %s: not in PL_TEST_VARIANTS\n", v->name);
            return 0;
        }
    }
    char why[128];
    if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
        if (v->is_peer && !strncmp(why, "built without ", 14)) {
            printf("skipped: %s: %s (an optional peer: its library was not found at configure time)\n", v->name, why);
            return 0;
        }
        if ((v->requires & PL_FEAT_SM90A) && !(pl_features() & PL_FEAT_SM90A)) {
            printf("skipped: %s: %s (this GPU is not Hopper)\n", v->name, why);
            return 0;
        }
        CHECK(0, "%s cannot run on this GPU machine: %s", v->name, why);
        return 0;
    }
    return 1;
}

#endif
