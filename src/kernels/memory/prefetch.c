/* prefetch: every float of an array 4x the last-level cache read once, in four orders, one
 * thread: sequential; random blocks of 4 KiB (a page, read in order inside); random cache
 * lines (16 floats in order inside); random elements. The hardware prefetcher follows a
 * sequential stream and a walk inside a page; a random line costs a full memory latency, a
 * random element the same for a sixteenth of the data. The random orders are permutations
 * made before timing; rows are ns per element. Checksum: every element is read once: the sum
 * of an array of 1.0f is its length. */
#include "kernels/memory/mem.h"

#include <stdio.h>

typedef struct pf_args {
    const float *x;
    const uint32_t *order; /* block indices in random order (NULL: sequential) */
    int64_t n, block;      /* elements, elements a block */
    double sum;
} pf_args;

static void pf_kernel(void *arg)
{
    pf_args *p = arg;
    double sum = 0;
    const int64_t blocks = p->n / p->block;
    if (!p->order) {
        for (int64_t i = 0; i < p->n; i++) sum += p->x[i];
    } else {
        for (int64_t b = 0; b < blocks; b++) {
            const float *q = p->x + (int64_t)p->order[b] * p->block;
            for (int64_t i = 0; i < p->block; i++) sum += q[i];
        }
    }
    p->sum = sum;
}

pl_status pl_mem_prefetch(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    int64_t n = o->quick ? (int64_t)1 << 20 : 4 * llc / 4;
    n = n / 1024 * 1024;
    float *x = pl_alloc((size_t)n * sizeof(float));
    uint32_t *order = pl_alloc((size_t)n * sizeof(uint32_t));
    if (!x || !order) {
        pl_free(x);
        pl_free(order);
        return pl_fail(PL_ERR_NOMEM, "mem prefetch: no memory for %lld floats and their order", (long long)n);
    }
    for (int64_t i = 0; i < n; i++) x[i] = 1.0f;
    snprintf(t->setup, sizeof t->setup, "%lld floats (%.1f MiB), one thread, each read once", (long long)n,
             n * 4.0 / 1048576.0);
    static const struct { const char *name; int64_t block; } cases[] = {
        {"sequential", 0}, {"random 4 KiB blocks", 1024}, {"random cache lines", 16}, {"random elements", 1}};
    pl_rng rng;
    pl_rng_seed(&rng, 42);
    int ok = 1;
    double ns[4] = {0, 0, 0, 0};
    for (int c = 0; c < 4; c++) {
        pf_args p = {x, NULL, n, cases[c].block ? cases[c].block : 1, 0};
        if (cases[c].block) {
            const int64_t blocks = n / cases[c].block;
            for (int64_t b = 0; b < blocks; b++) order[b] = (uint32_t)b;
            for (int64_t b = blocks - 1; b > 0; b--) { /* Fisher-Yates */
                const int64_t j = (int64_t)(pl_rng_next(&rng) % (uint64_t)(b + 1));
                const uint32_t tmp = order[b];
                order[b] = order[j], order[j] = tmp;
            }
            p.order = order;
        }
        mem_row *r = pl_mem_row(t, "ns/element", "%s", cases[c].name);
        pl_mem_time(pf_kernel, &p, o->reps, (double)n, 1e9, 1, r);
        ok &= p.sum == (double)n;
        ns[c] = r->best;
    }
    t->checksums_ok = ok;
    pl_free(x);
    pl_free(order);
    snprintf(t->reading, sizeof t->reading, "ns an element: sequential %.2f, random 4 KiB blocks %.2f (the prefetcher "
             "still runs inside a page), random lines %.2f (%.0fx: a memory latency every 16 floats), random "
             "elements %.2f (%.0fx: one every float)", ns[0], ns[1], ns[2], ns[0] > 0 ? ns[2] / ns[0] : 0, ns[3],
             ns[0] > 0 ? ns[3] / ns[0] : 0);
    return PL_OK;
}
