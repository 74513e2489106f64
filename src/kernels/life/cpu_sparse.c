/* cpu-sparse: the plane as 64 x 64 tiles of live space in a hash map (sparse.h). The idea:
 * most of a methuselah's plane is empty, still or blinking, so a generation computes only the
 * rows whose inputs changed, and of those only the ones whose inputs differ from two
 * generations ago; everything else keeps its state (or its period-2 state) for free.
 *
 * Why that is exact. Write S(g) for the plane at generation g. Row r's next state depends on
 * rows r-1..r+1 of its tile and the facing cells of its eight neighbours. If those inputs are
 * the same in S(g) as in S(g-1), S(g+1) keeps row r of S(g); if they are the same as in
 * S(g-2), S(g+1) has row r of S(g-1) (the same inputs give the same row). Each tile holds two
 * buffers, the current S(g) and the other, which always holds S(g-1): a computed tile writes
 * S(g+1) over the other buffer and flips, and a tile left alone has not changed, so both
 * buffers hold its state. So a row need only be written when its inputs changed since g-1
 * (dirty) and since g-2 (dirty2): a blinker, the commonest oscillator of a methuselah's ash,
 * then costs its tile's bookkeeping and no rows. A tile that is absent is empty and was empty
 * a generation ago; when a neighbour's facing border changes, that neighbour changed, so it is
 * on the changed list, and its facing border is live now or was live a generation ago: the
 * absent tile is created then and computed. (Checking only the live border now would miss a
 * birth caused by a neighbour dying, as B3 does with a 4th neighbour gone.) A computed tile
 * that is empty and did not change is dropped, once its change since two generations ago has
 * been handed to its neighbours. B0 rules (births from nothing) are refused.
 *
 * A generation: (1) queue the changed tiles and their neighbours with their dirty rows,
 * creating the absent ones that the rule above needs, then mark the dirty2 rows of queued tiles
 * from the tiles that changed since two generations ago; (2) compute the queue over threads,
 * each tile's rows to write by the bit-sliced step of bitslice.h (Conway's rule by row sums),
 * neighbours read from their current buffer, the result into the other buffer; (3) flip the
 * computed tiles' buffers, list those that changed since one and since two generations ago,
 * drop the empty still ones. The hash map (open addressing, linear probing, deletion by
 * backward shift) is only written in (1) and (3), so (2) reads it from any thread. */
#include "core/core.h"
#include "kernels/life/bitslice.h"
#include "kernels/life/life.h"
#include "kernels/life/sparse.h"
#include "kernels/life/sparse_rows.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

enum { TILE = 64 };

/* What changed in a tile's rows between two of its states: the rows (bit r), the rows whose
 * first (west) or last (east) cell changed, the bits of the top and bottom rows that changed. */
typedef struct tile_change {
    uint64_t rows, west, east, top, bottom;
} tile_change;

typedef struct tile {
    int64_t tx, ty;            /* the tile's place: cells tx*64 .. tx*64+63, ty*64 .. ty*64+63 */
    uint64_t rows[2][TILE];    /* rows[which]: S(g); rows[which ^ 1]: S(g - 1) */
    uint64_t live[2];          /* live[b]: bit r set where row r of rows[b] has a live cell */
    tile_change chg;           /* S(g) against S(g - 1) (zero unless on the changed list) */
    tile_change chg2;          /* S(g) against S(g - 2), while on the changed2 list */
    uint64_t dirty, dirty2;    /* when queued: rows whose inputs changed since g - 1, since g - 2 */
    int64_t queued, dirty2_gen; /* the generation it was last queued for, dirty2 last marked */
    int64_t listed;            /* the generation whose changed list holds it */
    int64_t next_free;         /* in the free list: the next free tile's index (-1: the end) */
    int64_t nb[9];             /* nb[(dy + 1) * 3 + dx + 1]: the neighbour's index, -1 absent (nb[4]: itself) */
    uint8_t which, in_use;
    uint8_t written;           /* rows the last computation wrote */
} tile;

struct pl_life_sparse {
    life_rule_masks masks;
    int conway; /* the rule is B3/S23 */
    int avx2;   /* Conway's rows four at a time (sparse_rows.h) */
    int bounded;
    int64_t W, H;                 /* bounded: the plane's size */
    tile *tiles;                  /* tiles[0..n_tiles): in use or on the free list */
    int64_t n_tiles, cap_tiles, free_head, live_tiles;
    int64_t *slots;               /* the map: tile index + 1, 0 empty; n_slots a power of 2 */
    int64_t n_slots;
    int64_t *changed, n_changed;  /* tiles whose S(g) differs from S(g - 1) */
    int64_t *changed2, n_changed2; /* tiles computed in the last generation whose S(g) differs from S(g - 2) */
    int64_t *work, n_work;        /* this generation's queue */
    int64_t cap_lists;
    int64_t gen, tile_steps, rows_written;
    int64_t skip_from;            /* period-2 skipping from this generation on (2 after a load) */
};

static uint64_t key_hash(int64_t tx, int64_t ty)
{
    uint64_t h = (uint64_t)tx * UINT64_C(0x9E3779B97F4A7C15) ^ ((uint64_t)ty + UINT64_C(0x632BE59BD9B4E019)) *
                                                                  UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= h >> 31;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 29);
}

static int64_t find_tile(const pl_life_sparse *s, int64_t tx, int64_t ty)
{
    const int64_t mask = s->n_slots - 1;
    for (int64_t i = (int64_t)(key_hash(tx, ty) & (uint64_t)mask);; i = (i + 1) & mask) {
        const int64_t v = s->slots[i];
        if (!v) return -1;
        if (s->tiles[v - 1].tx == tx && s->tiles[v - 1].ty == ty) return v - 1;
    }
}

static void map_put(pl_life_sparse *s, int64_t idx)
{
    const int64_t mask = s->n_slots - 1;
    int64_t i = (int64_t)(key_hash(s->tiles[idx].tx, s->tiles[idx].ty) & (uint64_t)mask);
    while (s->slots[i]) i = (i + 1) & mask;
    s->slots[i] = idx + 1;
}

/* Remove tile idx from the map: empty its slot, then move back each later entry of the run
 * whose home slot does not lie cyclically in (hole, entry]. */
static void map_remove(pl_life_sparse *s, int64_t idx)
{
    const int64_t mask = s->n_slots - 1;
    int64_t i = (int64_t)(key_hash(s->tiles[idx].tx, s->tiles[idx].ty) & (uint64_t)mask);
    while (s->slots[i] != idx + 1) i = (i + 1) & mask;
    s->slots[i] = 0;
    for (int64_t j = (i + 1) & mask; s->slots[j]; j = (j + 1) & mask) {
        const tile *t = &s->tiles[s->slots[j] - 1];
        const int64_t home = (int64_t)(key_hash(t->tx, t->ty) & (uint64_t)mask);
        const int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            s->slots[i] = s->slots[j];
            s->slots[j] = 0;
            i = j;
        }
    }
}

static pl_status map_grow(pl_life_sparse *s)
{
    int64_t n = s->n_slots ? s->n_slots * 2 : 1024;
    int64_t *slots = calloc((size_t)n, sizeof *slots);
    if (!slots) return pl_fail(PL_ERR_NOMEM, "life sparse: no memory for a map of %lld tiles", (long long)n);
    free(s->slots);
    s->slots = slots;
    s->n_slots = n;
    for (int64_t i = 0; i < s->n_tiles; i++)
        if (s->tiles[i].in_use) map_put(s, i);
    return PL_OK;
}

/* Room for n more tiles in the lists a generation fills. */
static pl_status lists_reserve(pl_life_sparse *s, int64_t need)
{
    if (need <= s->cap_lists) return PL_OK;
    int64_t cap = s->cap_lists ? s->cap_lists : 1024;
    while (cap < need) cap *= 2;
    int64_t *changed = realloc(s->changed, (size_t)cap * sizeof *changed);
    if (changed) s->changed = changed;
    int64_t *changed2 = realloc(s->changed2, (size_t)cap * sizeof *changed2);
    if (changed2) s->changed2 = changed2;
    int64_t *work = realloc(s->work, (size_t)cap * sizeof *work);
    if (work) s->work = work;
    if (!changed || !changed2 || !work) return pl_fail(PL_ERR_NOMEM, "life sparse: no memory for %lld tiles", (long long)cap);
    s->cap_lists = cap;
    return PL_OK;
}

static int tile_in_bounds(const pl_life_sparse *s, int64_t tx, int64_t ty)
{
    return !s->bounded || (tx >= 0 && ty >= 0 && tx <= (s->W - 1) / TILE && ty <= (s->H - 1) / TILE);
}

/* A new empty tile at (tx, ty) (not queued, not changed); its index in *idx. */
static pl_status new_tile(pl_life_sparse *s, int64_t tx, int64_t ty, int64_t *idx)
{
    if ((s->live_tiles + 1) * 2 > s->n_slots) {
        pl_status st = map_grow(s);
        if (st != PL_OK) return st;
    }
    int64_t i = s->free_head;
    if (i >= 0) {
        s->free_head = s->tiles[i].next_free;
    } else {
        if (s->n_tiles == s->cap_tiles) {
            int64_t cap = s->cap_tiles ? s->cap_tiles * 2 : 256;
            tile *t = realloc(s->tiles, (size_t)cap * sizeof *t);
            if (!t) return pl_fail(PL_ERR_NOMEM, "life sparse: no memory for %lld tiles", (long long)cap);
            s->tiles = t;
            s->cap_tiles = cap;
        }
        i = s->n_tiles++;
    }
    tile *t = &s->tiles[i];
    memset(t, 0, sizeof *t);
    t->tx = tx, t->ty = ty, t->next_free = -1, t->in_use = 1;
    t->queued = t->dirty2_gen = t->listed = -1;
    for (int d = 0; d < 9; d++) { /* link both ways with the neighbours there are */
        const int64_t j = d == 4 ? i : find_tile(s, tx + d % 3 - 1, ty + d / 3 - 1);
        t->nb[d] = j;
        if (j >= 0 && d != 4) s->tiles[j].nb[8 - d] = i;
    }
    map_put(s, i);
    s->live_tiles++;
    pl_status st = lists_reserve(s, s->live_tiles);
    *idx = i;
    return st;
}

static void drop_tile(pl_life_sparse *s, int64_t idx)
{
    for (int d = 0; d < 9; d++)
        if (d != 4 && s->tiles[idx].nb[d] >= 0) s->tiles[s->tiles[idx].nb[d]].nb[8 - d] = -1;
    map_remove(s, idx);
    s->tiles[idx].in_use = 0;
    s->tiles[idx].next_free = s->free_head;
    s->free_head = idx;
    s->live_tiles--;
}

static int64_t floor_div64(int64_t v) { return v >= 0 ? v / TILE : -((-(v + 1)) / TILE) - 1; }

pl_status pl_life_sparse_create(pl_life_sparse **out, const pl_life_rule *rule, int bounded, int64_t W, int64_t H)
{
    *out = NULL;
    if (rule->birth & 1u) {
        char text[64];
        pl_life_rule_format(rule, text, sizeof text);
        return pl_fail(PL_ERR_UNSUPPORTED, "life: rule %s has B0 (cells born with no neighbours fill the whole "
                       "plane at once): the sparse engine cannot run it; use a torus or bounded plane (--torus, "
                       "--plane) with a grid rung", text);
    }
    if (bounded && (W < 1 || H < 1)) return pl_fail(PL_ERR_ARG, "life sparse: an empty %lldx%lld plane", (long long)W, (long long)H);
    pl_life_sparse *s = calloc(1, sizeof *s);
    if (!s) return pl_fail(PL_ERR_NOMEM, "life sparse: no memory");
    life_rule_masks_make(rule, &s->masks);
    s->conway = life_rule_is_conway(rule);
    s->avx2 = (pl_features() & PL_FEAT_AVX2) != 0;
    s->bounded = bounded, s->W = W, s->H = H, s->free_head = -1;
    pl_status st = map_grow(s);
    if (st == PL_OK) st = lists_reserve(s, 1024);
    if (st != PL_OK) {
        pl_life_sparse_destroy(s);
        return st;
    }
    *out = s;
    return PL_OK;
}

void pl_life_sparse_destroy(pl_life_sparse *s)
{
    if (!s) return;
    free(s->tiles);
    free(s->slots);
    free(s->changed);
    free(s->work);
    free(s->changed2);
    free(s);
}

/* Set cell (x, y) alive; the tile is created (and listed as changed) where absent. The plane
 * it makes was not computed from the one before, so the next two generations write every
 * dirty row (no period-2 skipping until a generation's two predecessors were both computed). */
static pl_status set_cell(pl_life_sparse *s, int64_t x, int64_t y)
{
    if (s->bounded && (x < 0 || y < 0 || x >= s->W || y >= s->H)) return PL_OK; /* beyond the edge: dead */
    const int64_t tx = floor_div64(x), ty = floor_div64(y);
    int64_t i = find_tile(s, tx, ty);
    if (i < 0) {
        pl_status st = new_tile(s, tx, ty, &i);
        if (st != PL_OK) return st;
    }
    tile *t = &s->tiles[i];
    const int r = (int)(y - ty * TILE), c = (int)(x - tx * TILE);
    const uint64_t bit = UINT64_C(1) << c, row = UINT64_C(1) << r;
    t->rows[t->which][r] |= bit;
    t->live[t->which] |= row;
    s->skip_from = s->gen + 2;
    if (t->listed != s->gen) { /* a loaded tile is computed in the next generation, with its neighbours */
        memset(&t->chg, 0, sizeof t->chg);
        t->listed = s->gen;
        s->changed[s->n_changed++] = i;
    }
    /* the change summary, as if the cell had just been born: it queues what it affects */
    t->chg.rows |= row;
    if (c == 0) t->chg.west |= row;
    if (c == TILE - 1) t->chg.east |= row;
    if (r == 0) t->chg.top |= bit;
    if (r == TILE - 1) t->chg.bottom |= bit;
    return PL_OK;
}

pl_status pl_life_sparse_load(pl_life_sparse *s, const uint64_t *bits, int64_t w, int64_t h, int64_t words_per_row,
                              int64_t x0, int64_t y0)
{
    for (int64_t y = 0; w > 0 && y < h; y++) /* no columns: no cells, however many rows */
        for (int64_t k = 0; k < words_per_row; k++)
            for (uint64_t word = bits[y * words_per_row + k]; word; word &= word - 1) {
                const int64_t x = k * 64 + __builtin_ctzll(word);
                if (x >= w) break;
                pl_status st = set_cell(s, x0 + x, y0 + y);
                if (st != PL_OK) return st;
            }
    return PL_OK;
}

static uint64_t spread(uint64_t rows) { return rows | rows << 1 | rows >> 1; }

/* Mark the neighbour d (0..8, 4 itself) of tile ci. first: queue it with the rows dirty whose
 * inputs changed since the last generation, created where absent (and inside a bounded plane).
 * Otherwise: the rows dirty2 whose inputs changed since two generations ago, on a tile that
 * exists (whether it is queued is decided by the first kind alone). */
static pl_status mark_tile(pl_life_sparse *s, int64_t ci, int d, uint64_t dirty, int first)
{
    int64_t i = s->tiles[ci].nb[d];
    if (!first) {
        if (i >= 0) {
            tile *t = &s->tiles[i];
            if (t->dirty2_gen != s->gen) t->dirty2_gen = s->gen, t->dirty2 = 0;
            t->dirty2 |= dirty;
        }
        return PL_OK;
    }
    if (i < 0) {
        const int64_t tx = s->tiles[ci].tx + d % 3 - 1, ty = s->tiles[ci].ty + d / 3 - 1;
        if (!tile_in_bounds(s, tx, ty)) return PL_OK;
        pl_status st = new_tile(s, tx, ty, &i);
        if (st != PL_OK) return st;
    }
    tile *t = &s->tiles[i];
    if (t->queued != s->gen) {
        t->queued = s->gen;
        t->dirty = 0;
        s->work[s->n_work++] = i;
    }
    t->dirty |= dirty;
    return PL_OK;
}

/* A tile's change ch handed to itself and its neighbours: its changed rows and their
 * neighbour rows are marked in itself, and in each neighbour whose facing border (row, column
 * or corner cell) changed, the rows next to the change: only through that border can the
 * neighbour's inputs have changed. (ch is a copy: new tiles may move the tile array.) */
static pl_status mark_change(pl_life_sparse *s, int64_t ci, tile_change ch, int first)
{
    const uint64_t row0 = 1, row63 = UINT64_C(1) << 63;
    pl_status st = mark_tile(s, ci, 4, spread(ch.rows), first);
    if (st == PL_OK && ch.top) st = mark_tile(s, ci, 1, row63, first);
    if (st == PL_OK && ch.bottom) st = mark_tile(s, ci, 7, row0, first);
    if (st == PL_OK && ch.west) st = mark_tile(s, ci, 3, spread(ch.west), first);
    if (st == PL_OK && ch.east) st = mark_tile(s, ci, 5, spread(ch.east), first);
    if (st == PL_OK && (ch.top & 1u)) st = mark_tile(s, ci, 0, row63, first);
    if (st == PL_OK && (ch.top >> 63)) st = mark_tile(s, ci, 2, row63, first);
    if (st == PL_OK && (ch.bottom & 1u)) st = mark_tile(s, ci, 6, row0, first);
    if (st == PL_OK && (ch.bottom >> 63)) st = mark_tile(s, ci, 8, row0, first);
    return st;
}

/* Step (1): the queue. Each tile that changed since the last generation queues itself and the
 * neighbours its change reaches, creating absent ones (the border changed, so it is live now
 * or was a generation ago); then each tile that changed since two generations ago marks the
 * dirty2 rows of the tiles it reaches. A row that is not dirty keeps its state; one that is
 * dirty but not dirty2 takes its state of a generation ago, which the other buffer holds.
 * Last, the tiles that are empty now and were a generation ago, kept one generation only to
 * hand their change since two generations ago to their neighbours, are dropped unless queued. */
static pl_status queue_generation(pl_life_sparse *s)
{
    s->n_work = 0;
    for (int64_t c = 0; c < s->n_changed; c++) {
        pl_status st = mark_change(s, s->changed[c], s->tiles[s->changed[c]].chg, 1);
        if (st != PL_OK) return st;
    }
    for (int64_t c = 0; c < s->n_changed2; c++) mark_change(s, s->changed2[c], s->tiles[s->changed2[c]].chg2, 0);
    for (int64_t c = 0; c < s->n_changed2; c++) {
        const int64_t i = s->changed2[c];
        if (s->tiles[i].queued != s->gen && !s->tiles[i].live[s->tiles[i].which]) drop_tile(s, i);
    }
    return PL_OK;
}

/* Step (2) for one tile: its next generation into the other buffer (which holds S(g - 1)) and
 * its change summaries. Only the rows that are dirty and dirty2 are written, found by walking
 * the set bits of the mask (a glider dirties a handful of the 64, a blinker none once it
 * blinks): a row that is not dirty holds S(g) in both buffers, and one that is dirty but not
 * dirty2 holds its next state S(g - 1) already. The neighbours come from the tile's links (kept
 * by new_tile and drop_tile), not the map. */
typedef struct tile_step {
    const uint64_t *nb[3][3]; /* nb[dy + 1][dx + 1]: the neighbours' current rows (zero if absent) */
    uint64_t *out;
    tile_change chg;          /* of the rows written, against S(g) */
    uint64_t chg2_rows;       /* the rows written that differ from S(g - 1) */
    uint64_t live;            /* the live rows of out, as built */
    int written;              /* rows written */
} tile_step;

/* Row i (-1..64) of the tile's column and its west- and east-shifted copies (cell x's west
 * neighbour at bit x, its east neighbour at bit x), from the tiles around. */
static inline void tile_row(const tile_step *ts, int i, uint64_t *x, uint64_t *w, uint64_t *e)
{
    const int band = i < 0 ? 0 : i >= TILE ? 2 : 1, k = i & (TILE - 1);
    *x = ts->nb[band][1][k];
    *w = (*x << 1) | (ts->nb[band][0][k] >> 63);
    *e = (*x >> 1) | (ts->nb[band][2][k] << 63);
}

/* The same for a row i in 0..63: the tile's own band, no test. */
static inline void tile_row_inside(const tile_step *ts, int i, uint64_t *x, uint64_t *w, uint64_t *e)
{
    *x = ts->nb[1][1][i];
    *w = (*x << 1) | (ts->nb[1][0][i] >> 63);
    *e = (*x >> 1) | (ts->nb[1][2][i] << 63);
}

/* Row r's new word v: kept dead beyond a bounded plane's edge, stored, and summarised. */
static inline void tile_store(const pl_life_sparse *s, const tile *t, tile_step *ts, int r, uint64_t v)
{
    if (s->bounded) {
        const int64_t y = t->ty * TILE + r, x_end = s->W - t->tx * TILE;
        if (y >= s->H) v = 0;
        else if (x_end < TILE) v &= (UINT64_C(1) << x_end) - 1;
    }
    const uint64_t d = v ^ ts->nb[1][1][r];
    ts->written++;
    ts->chg2_rows |= (uint64_t)(v != ts->out[r]) << r;
    ts->out[r] = v;
    ts->chg.rows |= (uint64_t)(d != 0) << r;
    ts->chg.west |= (d & 1u) << r;
    ts->chg.east |= (d >> 63) << r;
    ts->live |= (uint64_t)(v != 0) << r;
}

/* Any rule: each dirty row by its eight neighbour words and the rule masks. */
static void tile_rows_rule(const pl_life_sparse *s, const tile *t, tile_step *ts, uint64_t dirty)
{
    for (; dirty; dirty &= dirty - 1) {
        const int r = __builtin_ctzll(dirty);
        uint64_t x[3], w[3], e[3];
        for (int k = 0; k < 3; k++) tile_row(ts, r + k - 1, &x[k], &w[k], &e[k]);
        tile_store(s, t, ts, r,
                   life_next_word(&s->masks, x[1], w[0], x[0], e[0], w[1], e[1], w[2], x[2], e[2]));
    }
}

/* Conway's rule by row sums: each row's west + self + east is a 2-bit number (h0, h1) made
 * once and used by the three rows it touches, down each run of dirty rows. The nine cells'
 * total t (self included, 0..9) then decides: alive next when t == 3, or t == 4 and alive now.
 * About 30 operations a row against about 60 for eight neighbour words through an adder tree. */
static void tile_rows_conway(const pl_life_sparse *s, const tile *t, tile_step *ts, uint64_t dirty)
{
    while (dirty) {
        const int r0 = __builtin_ctzll(dirty);
        const uint64_t after = ~(dirty >> r0); /* the run of set bits from r0 */
        const int len = after ? __builtin_ctzll(after) : TILE - r0;
        dirty &= len == TILE ? 0 : ~(((UINT64_C(1) << len) - 1) << r0);
        uint64_t x, w, e, a0, a1, b0, b1, c0, c1, alive;
        tile_row(ts, r0 - 1, &x, &w, &e);
        LIFE_FULL_ADD(a0, a1, w, x, e);
        tile_row_inside(ts, r0, &alive, &w, &e);
        LIFE_FULL_ADD(b0, b1, w, alive, e);
        for (int r = r0; r < r0 + len; r++) {
            if (r + 1 < TILE) tile_row_inside(ts, r + 1, &x, &w, &e);
            else tile_row(ts, TILE, &x, &w, &e);
            LIFE_FULL_ADD(c0, c1, w, x, e);
            /* t = a + b + c: bit 0 and its carry k0, the weight-2 bits (u) and their carry (v),
             * then t1 = u + k0 and the weight-4 bits t2, t3 */
            uint64_t t0, k0, u, v, t1, k1, t2, t3;
            LIFE_FULL_ADD(t0, k0, a0, b0, c0);
            LIFE_FULL_ADD(u, v, a1, b1, c1);
            LIFE_HALF_ADD(t1, k1, u, k0);
            LIFE_HALF_ADD(t2, t3, v, k1);
            const uint64_t three = t0 & t1 & ~(t2 | t3), four = t2 & ~(t0 | t1 | t3);
            tile_store(s, t, ts, r, three | (four & alive));
            a0 = b0, a1 = b1, b0 = c0, b1 = c1, alive = x;
        }
    }
}

/* The 4-row blocks 1..14 (rows 4..59, whose inputs all lie in the tile's band) that hold a row
 * of todo, as bit k for block k. */
static uint32_t inner_blocks(uint64_t todo)
{
    uint32_t blocks = 0;
    for (int k = 1; k < 15; k++) blocks |= (uint32_t)(((todo >> (4 * k)) & 0xFu) != 0) << k;
    return blocks;
}

static void compute_tile(const pl_life_sparse *s, int64_t idx)
{
    static const uint64_t zero[TILE];
    tile *t = &s->tiles[idx];
    const uint64_t dirty = t->dirty;
    const uint64_t dirty2 = s->gen < s->skip_from ? ~UINT64_C(0) : t->dirty2_gen == s->gen ? t->dirty2 : 0;
    const uint64_t todo = dirty & dirty2, kept = dirty & ~dirty2;
    const int other = t->which ^ 1;
    const uint64_t *now = t->rows[t->which];
    /* Conway's inner rows by whole 4-row blocks (AVX2): a row computed that need not be is
     * written with the state it holds already (not dirty: S(g); kept: S(g - 1)), so computing
     * more rows than todo changes nothing. Not on a bounded plane's edge tiles (their cells
     * past the edge are masked row by row). */
    const int inside = !s->bounded || ((t->tx + 1) * TILE <= s->W && (t->ty + 1) * TILE <= s->H);
    tile_step ts;
    ts.out = t->rows[other];
    memset(&ts.chg, 0, sizeof ts.chg);
    ts.chg2_rows = 0;
    ts.live = t->live[other] & ~todo; /* a row computed beyond todo keeps its value, so its live bit */
    ts.written = 0;
    if (todo) { /* none for a blinker's tile: the other buffer holds S(g + 1) already */
        for (int d = 0; d < 9; d++) {
            const int64_t j = t->nb[d];
            ts.nb[d / 3][d % 3] = j < 0 ? zero : s->tiles[j].rows[s->tiles[j].which];
        }
        const uint32_t blocks = s->conway && s->avx2 && inside ? inner_blocks(todo) : 0;
        uint64_t block_rows = 0;
        for (uint32_t b = blocks; b; b &= b - 1) block_rows |= UINT64_C(0xF) << (4 * __builtin_ctz(b));
        if (blocks) {
            life_rows_summary sum = {0, 0, 0, 0, 0};
            pl_life_sparse_conway_blocks_avx2(ts.nb[1][0], ts.nb[1][1], ts.nb[1][2], ts.out, blocks, &sum);
            ts.chg.rows = sum.rows, ts.chg.west = sum.west, ts.chg.east = sum.east;
            ts.chg2_rows = sum.chg2;
            ts.live |= sum.live;
            ts.written = 4 * __builtin_popcount(blocks);
        }
        const uint64_t rest = todo & ~block_rows;
        if (s->conway) tile_rows_conway(s, t, &ts, rest);
        else tile_rows_rule(s, t, &ts, rest);
    }
    /* a kept row changes back to S(g - 1): as it changed from it, since S(g - 1) = S(g + 1) there */
    t->chg.rows = ts.chg.rows | (t->chg.rows & kept);
    t->chg.west = ts.chg.west | (t->chg.west & kept);
    t->chg.east = ts.chg.east | (t->chg.east & kept);
    t->chg.top = ts.out[0] ^ now[0], t->chg.bottom = ts.out[TILE - 1] ^ now[TILE - 1];
    /* against S(g - 1), by rows only: a row that changed counts as a change of its border cells
     * too (more dirty2 rows in a neighbour, never fewer: exact, and a few registers less) */
    const uint64_t r2 = ts.chg2_rows, all = ~UINT64_C(0);
    t->chg2 = (tile_change){r2, r2, r2, (r2 & 1u) ? all : 0, (r2 >> 63) ? all : 0};
    t->live[other] = ts.live;
    t->written = (uint8_t)ts.written;
}

pl_status pl_life_sparse_run(pl_life_sparse *s, int64_t gens, int threads)
{
    if (threads <= 0) threads = omp_get_max_threads();
    for (int64_t g = 0; g < gens; g++) {
        pl_status st = queue_generation(s);
        if (st != PL_OK) return st;
        const int64_t n = s->n_work;
        if (n < 64 || threads == 1) { /* a few tiles: not worth waking the thread team */
            for (int64_t k = 0; k < n; k++) compute_tile(s, s->work[k]);
        } else {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
            for (int64_t k = 0; k < n; k++) compute_tile(s, s->work[k]);
        }
        s->n_changed = s->n_changed2 = 0;
        for (int64_t k = 0; k < n; k++) { /* step (3) */
            const int64_t i = s->work[k];
            tile *t = &s->tiles[i];
            t->which ^= 1;
            s->rows_written += t->written;
            if (t->chg.rows) {
                t->listed = s->gen + 1;
                s->changed[s->n_changed++] = i;
            }
            if (t->chg2.rows) s->changed2[s->n_changed2++] = i;
            if (!t->chg.rows && !t->chg2.rows && !t->live[t->which]) drop_tile(s, i);
        }
        s->tile_steps += n;
        s->gen++;
    }
    return PL_OK;
}

int64_t pl_life_sparse_population(const pl_life_sparse *s)
{
    int64_t pop = 0;
    for (int64_t i = 0; i < s->n_tiles; i++)
        if (s->tiles[i].in_use)
            for (int r = 0; r < TILE; r++) pop += __builtin_popcountll(s->tiles[i].rows[s->tiles[i].which][r]);
    return pop;
}

void pl_life_sparse_bbox(const pl_life_sparse *s, int64_t *x0, int64_t *y0, int64_t *w, int64_t *h)
{
    int64_t xmin = INT64_MAX, ymin = INT64_MAX, xmax = INT64_MIN, ymax = INT64_MIN;
    for (int64_t i = 0; i < s->n_tiles; i++) {
        const tile *t = &s->tiles[i];
        if (!t->in_use) continue;
        for (int r = 0; r < TILE; r++) {
            const uint64_t v = t->rows[t->which][r];
            if (!v) continue;
            const int64_t y = t->ty * TILE + r, xa = t->tx * TILE + __builtin_ctzll(v),
                          xb = t->tx * TILE + 63 - __builtin_clzll(v);
            if (y < ymin) ymin = y;
            if (y > ymax) ymax = y;
            if (xa < xmin) xmin = xa;
            if (xb > xmax) xmax = xb;
        }
    }
    if (xmax < xmin) {
        *x0 = *y0 = *w = *h = 0;
        return;
    }
    *x0 = xmin, *y0 = ymin, *w = xmax - xmin + 1, *h = ymax - ymin + 1;
}

void pl_life_sparse_extract(const pl_life_sparse *s, int64_t x0, int64_t y0, int64_t w, int64_t h, uint64_t *bits,
                            int64_t words_per_row)
{
    memset(bits, 0, (size_t)(h * words_per_row) * sizeof *bits);
    for (int64_t i = 0; i < s->n_tiles; i++) {
        const tile *t = &s->tiles[i];
        if (!t->in_use) continue;
        for (int r = 0; r < TILE; r++) {
            const int64_t y = t->ty * TILE + r - y0;
            if (y < 0 || y >= h) continue;
            for (uint64_t v = t->rows[t->which][r]; v; v &= v - 1) {
                const int64_t x = t->tx * TILE + __builtin_ctzll(v) - x0;
                if (x >= 0 && x < w) bits[y * words_per_row + x / 64] |= UINT64_C(1) << (x % 64);
            }
        }
    }
}

int64_t pl_life_sparse_tiles(const pl_life_sparse *s) { return s->live_tiles; }
int64_t pl_life_sparse_tile_steps(const pl_life_sparse *s) { return s->tile_steps; }
int64_t pl_life_sparse_rows_written(const pl_life_sparse *s) { return s->rows_written; }

/* The rung: the harness's bounded plane through the engine (loaded from the packed grid and
 * extracted back, both in the run's time). A torus has no empty space beyond its edge to skip
 * and tiles that do not divide it: refused, as B0 rules are. */
pl_status pl_life_cpu_sparse(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    if (p->topology == PL_LIFE_TOPO_TORUS)
        return pl_fail(PL_ERR_UNSUPPORTED, "cpu-sparse runs the plane (bounded, or unbounded in `parlab life`), "
                       "not the torus: use topology=plane");
    pl_life_sparse *s = NULL;
    pl_status st = pl_life_sparse_create(&s, &p->rule, 1, p->W, p->H);
    if (st != PL_OK) return st;
    const int64_t wpr = pl_life_words_per_row(p->W);
    uint64_t *grid = a->data[0];
    if ((st = pl_life_sparse_load(s, grid, p->W, p->H, wpr, 0, 0)) == PL_OK &&
        (st = pl_life_sparse_run(s, p->gens, pl_ctx_threads(a->ctx))) == PL_OK)
        pl_life_sparse_extract(s, 0, 0, p->W, p->H, grid, wpr);
    pl_life_sparse_destroy(s);
    return st;
}
