/* false-sharing: each of T threads adds 1 to its own counter, many times, through a volatile
 * pointer (a load and a store every time, as a shared counter would be touched). Side by
 * side, the counters share one 64-byte line: each store takes the line away from the other
 * cores, and it bounces between them. Padded, each counter has its own line and the threads
 * never meet. Rows: ns per increment (per thread), at 1..T threads. Checksum: every counter
 * ends at the increments made. */
#include "kernels/memory/mem.h"

#include <omp.h>
#include <stdio.h>

enum { MAX_THREADS = 64, LINE = 64 };

typedef struct fs_args {
    volatile int64_t *counters; /* counter k at counters[k * step] */
    int64_t step, iters;
    int threads;
} fs_args;

static void fs_kernel(void *arg)
{
    fs_args *f = arg;
#pragma omp parallel num_threads(f->threads)
    {
        volatile int64_t *mine = f->counters + (int64_t)omp_get_thread_num() * f->step;
        for (int64_t i = 0; i < f->iters; i++) *mine = *mine + 1;
    }
}

pl_status pl_mem_false_sharing(const mem_opts *o, mem_table *t)
{
    const int threads = o->threads < MAX_THREADS ? o->threads : MAX_THREADS;
    const int64_t iters = o->quick ? 200000 : 20000000;
    int64_t *mem = pl_alloc((size_t)MAX_THREADS * LINE);
    if (!mem) return pl_fail(PL_ERR_NOMEM, "mem false-sharing: no memory");
    snprintf(t->setup, sizeof t->setup, "%lld increments a thread, 1..%d threads", (long long)iters, threads);
    int ok = 1;
    double shared_ns = 0, padded_ns = 0;
    for (int th = 1; th <= threads; th++)
        for (int pad = 0; pad < 2; pad++) {
            fs_args f = {mem, pad ? LINE / (int64_t)sizeof(int64_t) : 1, iters, th};
            mem_row *r = pl_mem_row(t, "ns/increment", "%d thread%s, counters %s", th, th > 1 ? "s" : "",
                                    pad ? "padded to a line" : "side by side");
            for (int k = 0; k < MAX_THREADS * LINE / 8; k++) mem[k] = 0;
            pl_mem_time(fs_kernel, &f, o->reps, (double)iters, 1e9, 1, r);
            for (int k = 0; k < th; k++) ok &= mem[k * f.step] == (int64_t)iters * (o->reps + 1);
            if (th == threads) *(pad ? &padded_ns : &shared_ns) = r->best;
        }
    t->checksums_ok = ok;
    pl_free(mem);
    if (threads > 1)
        snprintf(t->reading, sizeof t->reading, "%d threads: %.2f ns an increment with the counters in one line, "
                 "%.2f padded (%.1fx): the line bounces between the cores at every store", threads, shared_ns,
                 padded_ns, padded_ns > 0 ? shared_ns / padded_ns : 0);
    else
        snprintf(t->reading, sizeof t->reading, "one thread: nothing to share (run with --threads 2 or more)");
    return PL_OK;
}
