/* run.h: a pattern's run as the life command drives it (run.c): the generations stepped to the
 * report points, the pattern placed on a packed grid and the result written back as a pattern,
 * and the refusal of a run no rung could finish in time. The command parses, calls and prints;
 * the steps between live here, where the Python package or a test can reach them too. */
#ifndef PL_KERNELS_LIFE_RUN_H
#define PL_KERNELS_LIFE_RUN_H

#include "io/life_pattern.h"
#include "kernels/life/life.h"
#include "kernels/life/sparse.h"

/* The generations of the next step of a run at done of gens: to the next `every` point (0:
 * none) or the end, at most `most` (0: no limit). */
int64_t pl_life_next_step(int64_t gens, int64_t every, int64_t done, int64_t most);

/* The report points of a run: at(user, generation, population, box {x, y, w, h}) at each
 * `every` point (0: none) and at the end. */
typedef void pl_life_report_fn(void *user, int64_t gen, int64_t pop, const int64_t box[4]);

/* What runs the generations: advance by gens, count (population, box {x, y, w, h}). */
typedef struct pl_life_runner {
    pl_status (*advance)(void *user, int64_t gens);
    int64_t (*census)(void *user, int64_t box[4]);
    void *user;
} pl_life_runner;
/* Told each advance's status, the generations done and the seconds so far: PL_OK to go on,
 * else the status to stop with. */
typedef pl_status pl_life_after_fn(void *user, pl_status s, int64_t done, double seconds);
/* gens generations (0: one empty step, reported) by r in steps of at most `most` (0: no
 * limit), after (may be NULL) asked after each, reported at the points; *seconds the advances. */
pl_status pl_life_steps(const pl_life_runner *r, int64_t gens, int64_t every, int64_t most, pl_life_after_fn *after,
                        void *after_user, pl_life_report_fn *at, void *at_user, double *seconds);

/* One process's grid rung on the whole packed grid, as a runner's user (pl_life_one_grid_runner). */
typedef struct pl_life_one_grid {
    pl_ctx *ctx;
    const char *rung;
    pl_life_problem *p;
    uint64_t *grid;
} pl_life_one_grid;
pl_life_runner pl_life_one_grid_runner(pl_life_one_grid *o);

/* gens generations of the unbounded plane on threads, reported at the points; *seconds the
 * runs. Stopped once over max_time seconds (0: no limit; checked every 1024 generations):
 * PL_ERR_CANCELLED naming the generation reached. */
pl_status pl_life_plane_run(pl_life_sparse *plane, int64_t gens, int64_t every, long max_time, int threads,
                            pl_life_report_fn *at, void *user, double *seconds);
/* The plane's live box as a pattern, with rule_name and the start's comments (taken from pat),
 * written to path (pl_life_write). */
pl_status pl_life_plane_write(const char *path, const pl_life_sparse *plane, pl_life_pattern *pat,
                              const char *rule_name);

/* A zeroed packed W x H grid (pl_alloc'd) with the pattern on it: centred as Golly places it
 * (its box's top-left at W/2 - w/2, H/2 - h/2), or at the top-left unless centre. The pattern
 * must fit (the caller checked); PL_ERR_NOMEM naming `what`. */
pl_status pl_life_place(const pl_life_pattern *pat, int64_t W, int64_t H, int centre, const char *what,
                        uint64_t **grid);
/* The whole packed W x H grid written as a pattern with its suffix (grid_kind: PL_LIFE_TORUS
 * or PL_LIFE_PLANE), rule_name and the start's comments. */
pl_status pl_life_grid_write(const char *path, uint64_t *grid, int64_t W, int64_t H, int grid_kind,
                             const pl_life_pattern *pat, const char *rule_name);

/* A grid run that even the fastest rate this machine (ranks of it) could reach would not
 * finish within max_time seconds (0: no limit) is refused: PL_ERR_ARG saying why. */
pl_status pl_life_within_time(const pl_ctx *ctx, int ranks, int64_t W, int64_t H, int grid_kind, long gens,
                              long max_time);

#endif
