/* sparse.h: cpu-sparse's engine, the unbounded plane (or a bounded one) as 64 x 64 tiles of
 * live space in a hash map (cpu_sparse.c). Only tiles that changed in the last generation,
 * and their neighbours, are computed, and in them only the rows whose inputs changed since one
 * and since two generations ago; a still tile with still neighbours costs nothing, a blinker
 * costs no rows, and a tile that is empty and stays empty is dropped. A tile is 64 words, a word a row, cell x of
 * the tile at bit x: the packed layout of life.h, so the word step is bitslice.h's.
 * `parlab life` runs patterns on the unbounded plane through this; the ladder's cpu-sparse
 * rung runs the harness's bounded plane through it. Rules with B0 (births from no neighbours:
 * the whole plane at once) are refused. */
#ifndef PL_LIFE_SPARSE_H
#define PL_LIFE_SPARSE_H

#include "kernels/life/rule.h"

typedef struct pl_life_sparse pl_life_sparse;

/* An empty plane under rule; bounded = 1: only cells 0..W-1 x 0..H-1 may live (dead beyond). */
pl_status pl_life_sparse_create(pl_life_sparse **s, const pl_life_rule *rule, int bounded, int64_t W, int64_t H);
void pl_life_sparse_destroy(pl_life_sparse *s);
/* The live cells of a packed w x h box (words_per_row words a row) placed with its top-left
 * at (x0, y0), set alive (added to what is there). */
pl_status pl_life_sparse_load(pl_life_sparse *s, const uint64_t *bits, int64_t w, int64_t h, int64_t words_per_row,
                              int64_t x0, int64_t y0);
/* gens generations, tiles over threads (0: OpenMP's default). */
pl_status pl_life_sparse_run(pl_life_sparse *s, int64_t gens, int threads);
/* Live cells, and the box that holds them (*w = *h = 0 when none). */
int64_t pl_life_sparse_population(const pl_life_sparse *s);
void pl_life_sparse_bbox(const pl_life_sparse *s, int64_t *x0, int64_t *y0, int64_t *w, int64_t *h);
/* The cells of the box w x h at (x0, y0) into packed bits (words_per_row a row), whole rows
 * written (dead where no tile). */
void pl_life_sparse_extract(const pl_life_sparse *s, int64_t x0, int64_t y0, int64_t w, int64_t h,
                            uint64_t *bits, int64_t words_per_row);
/* Tiles held now, tile-generations computed so far, and the 64-cell rows those wrote (the
 * work done: a row whose inputs did not change since one or since two generations ago is not
 * written). */
int64_t pl_life_sparse_tiles(const pl_life_sparse *s);
int64_t pl_life_sparse_tile_steps(const pl_life_sparse *s);
int64_t pl_life_sparse_rows_written(const pl_life_sparse *s);

#endif
