/* test_gemm_tuning.c: the CUDA top rungs' choice of tile config and K split, on the CPU (no GPU:
 * the tuning tables and the chooser are host C, src/kernels/gemm/cuda_tuning.h). What it holds:
 *   - the lookup gives the H100 its measured table, the H200 (and any sm_90 GPU) the H100's
 *     as it is, and a GPU of another architecture the generic table (the H100's model and
 *     orders, every rate 1.0), each saying which;
 *   - every table has a rate and an order entry per config of each rung, the three
 *     tensor-core rungs share one model;
 *   - on the H100's facts (132 SMs, each config's resident blocks as the CUDA occupancy
 *     calculator gives for these kernels' registers and shared memory) the choices are the
 *     ones the rungs made before issue 20 (cuda-tuned 128x256 at 4096, cuda-tf32 the
 *     copy-engine 256x128), the H200 makes the same, and the generic table does not: without
 *     the H100's rates the copy-engine configs lose their lead;
 *   - where the wgmma rungs do not run, cuda-tf32 picks mma.sync; auto never picks a
 *     truncating config; a named config keeps split 1 unless the split is named. */
#include "check.h"
#include "kernels/gemm/cuda_tuning.h"

#include <string.h>

/* A device's facts as the CUDA frame measures them; occupancies of the H100 (see above). */
static pl_gemm_rung_device device_of(pl_gemm_cuda_rung r, int runs, int sms)
{
    static const int h100_occ[PL_GEMM_CUDA_RUNGS][PL_GEMM_MAX_CONFIGS] = {
        [PL_GEMM_RUNG_TUNED] = {2, 2, 1, 1, 3, 4, 1, 1},
        [PL_GEMM_RUNG_MMA_TF32] = {1, 1, 1, 1, 2, 1},
        [PL_GEMM_RUNG_WGMMA_TF32] = {1, 1, 2, 1},
        [PL_GEMM_RUNG_WGMMA_TMA_TF32] = {1, 1},
        [PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32] = {1, 1},
        [PL_GEMM_RUNG_MMA_BF16] = {2},
        [PL_GEMM_RUNG_WGMMA_BF16] = {1},
    };
    pl_gemm_rung_device d = {.rung = r, .runs = runs, .sms = sms};
    memcpy(d.occ, h100_occ[r], sizeof d.occ);
    return d;
}

/* The choice of cuda-tuned alone and of cuda-tf32 (the four tensor-core rungs), at M = N = K = n. */
typedef struct {
    pl_gemm_choice tuned, tf32;
} choices;
static choices choose_at(const pl_gemm_gpu_tuning *t, int sms, int hopper, int64_t M, int64_t N, int64_t K)
{
    pl_gemm_rung_device tuned = device_of(PL_GEMM_RUNG_TUNED, 1, sms);
    pl_gemm_rung_device mma = device_of(PL_GEMM_RUNG_MMA_TF32, 1, sms);
    pl_gemm_rung_device wgmma = device_of(PL_GEMM_RUNG_WGMMA_TF32, hopper, sms);
    pl_gemm_rung_device tma = device_of(PL_GEMM_RUNG_WGMMA_TMA_TF32, hopper, sms);
    pl_gemm_rung_device persistent = device_of(PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32, hopper, sms);
    const pl_gemm_rung_device *one[] = {&tuned}, *tc[] = {&mma, &wgmma, &tma, &persistent};
    choices c = {pl_gemm_choose(t, one, 1, M, N, K), pl_gemm_choose(t, tc, 4, M, N, K)};
    return c;
}

static void check_lookup(void)
{
    static const struct {
        const char *name;
        int sm;
        pl_gemm_tuning_match want;
    } gpus[] = {
        {"NVIDIA H100 80GB HBM3", 90, PL_GEMM_TUNING_MEASURED},
        {"NVIDIA H100 PCIe", 90, PL_GEMM_TUNING_MEASURED},
        {"NVIDIA H200", 90, PL_GEMM_TUNING_SAME_SM},
        {"NVIDIA GH200 480GB", 90, PL_GEMM_TUNING_SAME_SM},
        {NULL, 90, PL_GEMM_TUNING_SAME_SM},
        {"NVIDIA A100-SXM4-80GB", 80, PL_GEMM_TUNING_GENERIC},
        {"NVIDIA GeForce RTX 4090", 89, PL_GEMM_TUNING_GENERIC},
        {"", 0, PL_GEMM_TUNING_GENERIC},
    };
    const pl_gemm_gpu_tuning *h100 = &pl_gemm_tuning_h100;
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        pl_gemm_gpu_tuning t;
        const char *name = gpus[i].name ? gpus[i].name : "(no name)";
        pl_gemm_tuning_match m = pl_gemm_tuning_for(gpus[i].name, gpus[i].sm, &t);
        CHECK(m == gpus[i].want, "%s (sm_%d) got a %s table, wants %s", name, gpus[i].sm, pl_gemm_tuning_match_name(m),
              pl_gemm_tuning_match_name(gpus[i].want));
        for (int r = 0; r < PL_GEMM_CUDA_RUNGS; r++) {
            /* The model and the order are the H100's in every case; the rates too, except generic. */
            CHECK(t.rung[r].model == h100->rung[r].model && t.rung[r].order == h100->rung[r].order,
                  "%s: rung %d: not the H100's model and order", name, r);
            if (m == PL_GEMM_TUNING_GENERIC)
                CHECK(t.rung[r].rate == NULL, "%s: generic table, rung %d keeps measured rates", name, r);
            else
                CHECK(t.rung[r].rate == h100->rung[r].rate, "%s: rung %d: not the H100's rates", name, r);
        }
    }
}

static void check_tables(void)
{
    CHECK(pl_gemm_n_tunings >= 1 && pl_gemm_tunings[0] == &pl_gemm_tuning_h100, "the H100's table heads the list");
    for (int g = 0; g < pl_gemm_n_tunings; g++) {
        const pl_gemm_gpu_tuning *t = pl_gemm_tunings[g];
        CHECK(t->name && *t->name && t->sm_version > 0 && t->source && *t->source, "table %d: name, SM, source", g);
        for (int r = 0; r < PL_GEMM_CUDA_RUNGS; r++) {
            const pl_gemm_rung_tuning *rt = &t->rung[r];
            int n = 0;
            pl_gemm_rung_configs((pl_gemm_cuda_rung)r, &n);
            CHECK(rt->n == n && n > 0 && n <= PL_GEMM_MAX_CONFIGS, "%s rung %d: %d entries for %d configs", t->name, r,
                  rt->n, n);
            int seen[PL_GEMM_MAX_CONFIGS] = {0};
            for (int i = 0; i < rt->n && i < PL_GEMM_MAX_CONFIGS; i++) {
                CHECK(rt->rate && rt->rate[i] > 0, "%s rung %d config %d: rate", t->name, r, i + 1);
                const int o = rt->order[i];
                CHECK(o >= 0 && o < n && !seen[o]++, "%s rung %d: order entry %d (%d) repeats or is out of range",
                      t->name, r, i, o);
            }
            const pl_gemm_cost_model *m = rt->model;
            CHECK(m && m->sm_rate > 0 && m->split_bandwidth > 0 && m->min_split_k > 0 &&
                      (m->whole_waves || m->full_warps > 0),
                  "%s rung %d: cost model", t->name, r);
        }
        CHECK(t->rung[PL_GEMM_RUNG_MMA_TF32].model == t->rung[PL_GEMM_RUNG_WGMMA_TF32].model &&
                  t->rung[PL_GEMM_RUNG_MMA_TF32].model == t->rung[PL_GEMM_RUNG_WGMMA_TMA_TF32].model &&
                  t->rung[PL_GEMM_RUNG_MMA_TF32].model == t->rung[PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32].model,
              "%s: the tensor-core rungs share one model (cuda-tf32 compares their estimates)", t->name);
    }
}

static void check_choices(void)
{
    pl_gemm_gpu_tuning h100, h200, generic;
    pl_gemm_tuning_for("NVIDIA H100 80GB HBM3", 90, &h100);
    pl_gemm_tuning_for("NVIDIA H200", 90, &h200);
    pl_gemm_tuning_for("NVIDIA A100-SXM4-80GB", 80, &generic);

    /* The H100 at 4096, 8192, 4095 and 4097: cuda-tuned config 3 (128x256) and 5 (128x64),
     * unsplit; cuda-tf32 the persistent rung's config 2 (no transpose) where K and N are
     * multiples of 4, the copy-engine rung's 256x128 where they are not (its measured lead
     * there: rate_unaligned). */
    const int64_t sizes[] = {4096, 8192, 4095, 4097};
    const int tuned_config[] = {3, 3, 3, 5};
    const int tf32_rung[] = {3, 3, 2, 2}, tf32_config[] = {2, 2, 1, 1};
    for (int i = 0; i < 4; i++) {
        const int64_t n = sizes[i];
        choices c = choose_at(&h100, 132, 1, n, n, n);
        CHECK(c.tuned.config + 1 == tuned_config[i] && c.tuned.split == 1, "H100 %lld: cuda-tuned config %d split %d",
              (long long)n, c.tuned.config + 1, c.tuned.split);
        CHECK(c.tf32.rung == tf32_rung[i] && c.tf32.config + 1 == tf32_config[i] && c.tf32.split == 1,
              "H100 %lld: cuda-tf32 picks rung %d config %d split %d, not rung %d config %d", (long long)n,
              c.tf32.rung, c.tf32.config + 1, c.tf32.split, tf32_rung[i], tf32_config[i]);
        choices d = choose_at(&h200, 132, 1, n, n, n);
        CHECK(!memcmp(&c, &d, sizeof c), "H200 %lld: not the H100's choices (it has the same SM)", (long long)n);
    }
    /* Deep K on few tiles: the K split fills the SMs (64 slices of 1024). */
    choices deep = choose_at(&h100, 132, 1, 256, 256, 65536);
    CHECK(deep.tuned.split == 64 && deep.tf32.split == 64, "H100 256x256x65536: splits %d and %d", deep.tuned.split,
          deep.tf32.split);

    /* Generic (no measured rate): the copy-engine configs lose the lead their measured 1.95
     * gave them, on the very same device facts; the mma.sync 128x256 config wins. */
    choices g = choose_at(&generic, 132, 1, 4096, 4096, 4096);
    CHECK(g.tf32.rung == 0 && g.tf32.config == 0, "generic 4096: cuda-tf32 picks rung %d config %d",
          g.tf32.rung, g.tf32.config + 1);

    /* No Hopper: only mma.sync runs, whatever the table. Auto never picks a truncating config. */
    const int64_t shapes[][3] = {{4096, 4096, 4096}, {1000, 333, 77}, {128, 4096, 4096}, {7, 13, 5}, {256, 256, 65536}};
    const pl_gemm_gpu_tuning *tables[] = {&h100, &generic};
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 5; s++)
            for (int hopper = 0; hopper < 2; hopper++) {
                choices c = choose_at(tables[t], 108, hopper, shapes[s][0], shapes[s][1], shapes[s][2]);
                if (!hopper) CHECK(c.tf32.rung == 0, "%s, no Hopper: cuda-tf32 picks rung %d", tables[t]->name, c.tf32.rung);
                int n = 0;
                const pl_gemm_cuda_rung rungs[] = {PL_GEMM_RUNG_MMA_TF32, PL_GEMM_RUNG_WGMMA_TF32,
                                                   PL_GEMM_RUNG_WGMMA_TMA_TF32, PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32};
                const pl_gemm_cfg *cfgs = pl_gemm_rung_configs(rungs[c.tf32.rung], &n);
                CHECK(c.tf32.config >= 0 && c.tf32.config < n && !cfgs[c.tf32.config].truncates,
                      "%s: cuda-tf32 picks config %d of rung %d", tables[t]->name, c.tf32.config + 1, c.tf32.rung);
            }
    pl_gemm_rung_device none[2] = {device_of(PL_GEMM_RUNG_WGMMA_TF32, 0, 132),
                                   device_of(PL_GEMM_RUNG_WGMMA_TMA_TF32, 0, 132)};
    const pl_gemm_rung_device *nothing[] = {&none[0], &none[1]};
    CHECK(pl_gemm_choose(&h100, nothing, 2, 64, 64, 64).config == -1, "a choice among rungs that do not run");
}

static void check_resolve(void)
{
    pl_gemm_gpu_tuning h100;
    pl_gemm_tuning_for("NVIDIA H100 80GB HBM3", 90, &h100);
    pl_gemm_rung_device d = device_of(PL_GEMM_RUNG_TUNED, 1, 132);
    pl_gemm_problem p = {.M = 256, .N = 256, .K = 65536, .lda = 65536, .ldb = 256, .ldc = 256, .alpha = 1, .beta = 0};
    int config = -1, split = -1;
    const int64_t auto_both[PL_GEMM_CUDA_N_PARAMS] = {[PL_GEMM_CUDA_CONFIG] = 0, [PL_GEMM_CUDA_SPLITK] = 0};
    const int64_t named_config[PL_GEMM_CUDA_N_PARAMS] = {[PL_GEMM_CUDA_CONFIG] = 1, [PL_GEMM_CUDA_SPLITK] = 0};
    const int64_t named_split[PL_GEMM_CUDA_N_PARAMS] = {[PL_GEMM_CUDA_CONFIG] = 0, [PL_GEMM_CUDA_SPLITK] = 4};
    const int64_t too_big[PL_GEMM_CUDA_N_PARAMS] = {[PL_GEMM_CUDA_CONFIG] = 9, [PL_GEMM_CUDA_SPLITK] = 0};
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &p, auto_both, &h100, &d, &config, &split) == PL_OK && config == 3 &&
              split == 64,
          "auto: config %d split %d", config, split);
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &p, NULL, &h100, &d, &config, &split) == PL_OK && config == 3 &&
              split == 64,
          "no params: config %d split %d", config, split);
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &p, named_config, &h100, &d, &config, &split) == PL_OK && config == 1 &&
              split == 1,
          "config named: config %d split %d (a named config runs unsplit)", config, split);
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &p, named_split, &h100, &d, &config, &split) == PL_OK && config == 3 &&
              split == 4,
          "split named: config %d split %d", config, split);
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &p, too_big, &h100, &d, &config, &split) == PL_ERR_ARG,
          "config 9 of 8 accepted");
    pl_gemm_problem empty = p;
    empty.M = 0;
    CHECK(pl_gemm_cuda_resolve("cuda-tuned", &empty, NULL, &h100, &d, &config, &split) == PL_ERR_ARG,
          "an empty problem accepted");
}

int main(void)
{
    check_lookup();
    check_tables();
    check_choices();
    check_resolve();
    return check_summary("gemm_tuning");
}
