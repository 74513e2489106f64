/* run.c: a pattern's run as the life command drives it (run.h): the stepping to report points
 * (one loop for the unbounded plane, a grid and the ranks' blocks), the pattern onto a packed
 * grid and the grid or the plane's box back to a pattern, and the time bound checked before a
 * grid run starts. */
#include "kernels/life/run.h"

#include "core/core.h"
#include "core/device.h"

#include <stdio.h>
#include <string.h>

int64_t pl_life_next_step(int64_t gens, int64_t every, int64_t done, int64_t most)
{
    int64_t step = every > 0 ? every - done % every : gens - done;
    if (step > gens - done) step = gens - done;
    return most > 0 && step > most ? most : step;
}

pl_status pl_life_steps(const pl_life_runner *r, int64_t gens, int64_t every, int64_t most, pl_life_after_fn *after,
                        void *after_user, pl_life_report_fn *at, void *at_user, double *seconds)
{
    int64_t box[4];
    *seconds = 0;
    for (int64_t done = 0; done < gens || (gens == 0 && done == 0);) {
        const int64_t step = pl_life_next_step(gens, every, done, most);
        const double t0 = pl_now();
        pl_status s = r->advance(r->user, step);
        *seconds += pl_now() - t0;
        done += step;
        if (after) s = after(after_user, s, done, *seconds);
        if (s != PL_OK) return s;
        if ((every > 0 && done % every == 0) || done >= gens) at(at_user, done, r->census(r->user, box), box);
        if (gens == 0) break;
    }
    return PL_OK;
}

static pl_status one_grid_advance(void *user, int64_t gens)
{
    pl_life_one_grid *o = user;
    o->p->gens = gens;
    return pl_life_variant_problem(o->ctx, o->rung, NULL, o->p, o->grid);
}

static int64_t one_grid_census(void *user, int64_t box[4])
{
    const pl_life_one_grid *o = user;
    return pl_life_census(o->grid, pl_life_words_per_row(o->p->W), 0, 0, o->p->W, o->p->H, box);
}

pl_life_runner pl_life_one_grid_runner(pl_life_one_grid *o)
{
    return (pl_life_runner){one_grid_advance, one_grid_census, o};
}

/* The unbounded plane's state behind its runner: the generations done and the seconds they
 * took, for the --max-time stop. */
typedef struct plane_run {
    pl_life_sparse *plane;
    int threads;
    int64_t gens, done;
    long max_time;
    double seconds;
} plane_run;

/* A step, unless the last one (reported) went over --max-time: the plane's cost grows with its
 * pattern, so it is stopped rather than refused before it starts. */
static pl_status plane_advance(void *user, int64_t gens)
{
    const plane_run *r = user;
    if (r->max_time > 0 && r->seconds > (double)r->max_time)
        return pl_fail(PL_ERR_CANCELLED,
                       "life: stopped at generation %lld of %lld after %.0f s (--max-time %ld; the pattern has "
                       "%lld cells in %lld tiles): nothing written; give --max-time 0 for no limit",
                       (long long)r->done, (long long)r->gens, r->seconds, r->max_time,
                       (long long)pl_life_sparse_population(r->plane), (long long)pl_life_sparse_tiles(r->plane));
    return pl_life_sparse_run(r->plane, gens, r->threads);
}

static int64_t plane_census(void *user, int64_t box[4])
{
    const plane_run *r = user;
    pl_life_sparse_bbox(r->plane, &box[0], &box[1], &box[2], &box[3]);
    return pl_life_sparse_population(r->plane);
}

static pl_status plane_after(void *user, pl_status s, int64_t done, double seconds)
{
    plane_run *r = user;
    r->done = done, r->seconds = seconds;
    return s;
}

pl_status pl_life_plane_run(pl_life_sparse *plane, int64_t gens, int64_t every, long max_time, int threads,
                            pl_life_report_fn *at, void *user, double *seconds)
{
    plane_run run = {plane, threads, gens, 0, max_time, 0};
    const pl_life_runner r = {plane_advance, plane_census, &run};
    return pl_life_steps(&r, gens, every, max_time > 0 ? 1024 : 0, plane_after, &run, at, user, seconds);
}

pl_status pl_life_plane_write(const char *path, const pl_life_sparse *plane, pl_life_pattern *pat,
                              const char *rule_name)
{
    pl_life_pattern out;
    memset(&out, 0, sizeof out);
    int64_t box[4];
    pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
    pl_status s = pl_life_pattern_alloc(&out, box[2], box[3]);
    if (s == PL_OK) {
        if (out.bits) pl_life_sparse_extract(plane, box[0], box[1], box[2], box[3], out.bits, out.words_per_row);
        snprintf(out.rule, sizeof out.rule, "%s", rule_name);
        out.x0 = box[0], out.y0 = box[1];
        out.comments = pat->comments, pat->comments = NULL;
        s = pl_life_write(path, &out);
    }
    pl_life_pattern_free(&out);
    return s;
}

pl_status pl_life_place(const pl_life_pattern *pat, int64_t W, int64_t H, int centre, const char *what,
                        uint64_t **grid)
{
    const int64_t wpr = pl_life_words_per_row(W);
    if (!(*grid = pl_alloc((size_t)(H * wpr) * 8))) return pl_fail(PL_ERR_NOMEM, "life: cannot allocate %s", what);
    memset(*grid, 0, (size_t)(H * wpr) * 8);
    const int64_t ox = centre ? W / 2 - pat->w / 2 : 0, oy = centre ? H / 2 - pat->h / 2 : 0; /* Golly's centring */
    for (int64_t y = 0; y < pat->h; y++)
        for (int64_t x = 0; x < pat->w; x++)
            if (pl_life_cell(pat, x, y)) (*grid)[(oy + y) * wpr + (ox + x) / 64] |= UINT64_C(1) << ((ox + x) % 64);
    return PL_OK;
}

pl_status pl_life_grid_write(const char *path, uint64_t *grid, int64_t W, int64_t H, int grid_kind,
                             const pl_life_pattern *pat, const char *rule_name)
{
    pl_life_pattern out;
    memset(&out, 0, sizeof out);
    out.w = W, out.h = H, out.words_per_row = pl_life_words_per_row(W), out.bits = grid;
    snprintf(out.rule, sizeof out.rule, "%s", rule_name);
    out.grid = grid_kind, out.grid_w = W, out.grid_h = H;
    out.comments = pat->comments;
    return pl_life_write(path, &out);
}

pl_status pl_life_within_time(const pl_ctx *ctx, int ranks, int64_t W, int64_t H, int grid_kind, long gens,
                              long max_time)
{
    const int cuda = pl_ctx_backend(ctx) == PL_BACKEND_CUDA;
    const double updates = (double)W * (double)H * (double)gens;
    const double ceiling = pl_life_rate_ceiling(ctx) * ranks;
    if (max_time <= 0 || updates / ceiling <= (double)max_time) return PL_OK;
    char where[48];
    if (cuda) snprintf(where, sizeof where, ranks > 1 ? "%d GPUs" : "a GPU", ranks);
    else if (ranks > 1) snprintf(where, sizeof where, "%d ranks of %d CPU threads", ranks, pl_ctx_threads(ctx));
    else snprintf(where, sizeof where, "%d CPU threads", pl_ctx_threads(ctx));
    return pl_fail(PL_ERR_ARG,
                   "life: %ld generations of the %lldx%lld %s are %.3g cell-updates: over %.3g s even at "
                   "%.3g a second, more than any rung reaches on %s, and --max-time is %ld s: give fewer "
                   "--gens, or --max-time 0 for no limit",
                   gens, (long long)W, (long long)H, grid_kind == PL_LIFE_TORUS ? "torus" : "plane", updates,
                   updates / ceiling, ceiling, where, max_time);
}
