/* pattern.h: Life patterns and rules as files hold them (issue 12), the interface between the
 * file formats (pattern.c: RLE and plaintext .cells, read and written as Golly does) and the
 * life room (its spec and rungs, which keep grids in their own layouts).
 *
 * A rule is Life-like: birth and survival neighbour counts 0..8, written "B3/S23" (also read:
 * "b3/s23", "B36/S23", "B2/S", and the old "S/B" form "23/3", survival first).
 * A pattern is a box of w x h cells, bit-packed by rows: cell (x, y) (x to the right, y down,
 * both from the box's top-left) is bit (x % 64) of word y * words_per_row + x / 64; bits past w
 * in a row's last word are zero. */
#ifndef PL_LIFE_PATTERN_H
#define PL_LIFE_PATTERN_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_life_rule {
    uint16_t birth;   /* bit n set: a dead cell with n live neighbours is born */
    uint16_t survive; /* bit n set: a live cell with n live neighbours survives */
} pl_life_rule;

/* "B3/S23" forms above; anything else is PL_ERR_ARG naming the text and what is wrong. */
pl_status pl_life_rule_parse(const char *text, pl_life_rule *rule);
/* Canonical "B3/S23" (counts ascending). */
void pl_life_rule_format(const pl_life_rule *rule, char *buf, size_t n);

/* The grid a pattern runs on: Golly's bounded-grid suffix of the rule (":T100,100" a torus,
 * ":P100,100" a bounded plane, dead beyond the edge); no suffix: the unbounded plane. */
typedef enum pl_life_grid { PL_LIFE_UNBOUNDED = 0, PL_LIFE_TORUS, PL_LIFE_PLANE } pl_life_grid;

typedef struct pl_life_pattern {
    int64_t w, h;            /* the box: RLE's x = w, y = h */
    int64_t words_per_row;   /* (w + 63) / 64 */
    uint64_t *bits;          /* h * words_per_row words (pl_alloc'd); NULL when w or h is 0 */
    pl_life_rule rule;       /* B3/S23 when the file names none */
    int grid;                /* pl_life_grid */
    int64_t grid_w, grid_h;  /* the torus or plane's size (TORUS, PLANE) */
    int64_t x0, y0;          /* the box's top-left on the plane (#P / #R lines; else 0, 0) */
    char *comments;          /* the "#C", "#N", "#O" lines as read, each ending in '\n'; may be NULL */
} pl_life_pattern;

static inline int pl_life_cell(const pl_life_pattern *p, int64_t x, int64_t y)
{
    return (int)((p->bits[y * p->words_per_row + x / 64] >> (x % 64)) & 1u);
}

/* Read a pattern by content: RLE (a "x = .., y = .." header line, after '#' lines) or
 * plaintext .cells ('.' dead, 'O' alive, '!' comment lines). Malformed files (a bad header,
 * counts that overflow, a pattern larger than its stated size, truncated data, unknown
 * characters) are PL_ERR_FORMAT naming the file, the line and the column; sizes beyond this
 * process's memory PL_ERR_TOO_BIG before allocating. */
pl_status pl_life_read(const char *path, pl_life_pattern *p);
/* Write RLE as Golly does (header "x = W, y = H, rule = B3/S23[:T..]", run counts, lines of at
 * most 70 characters, '!' at the end; the comments first), or plaintext .cells for a name ending
 * in ".cells". A temporary file, renamed: nothing half-written. */
pl_status pl_life_write(const char *path, const pl_life_pattern *p);
/* An empty w x h pattern (all dead), or a soup: each cell alive with probability density,
 * from seed (the same on any machine). */
pl_status pl_life_pattern_alloc(pl_life_pattern *p, int64_t w, int64_t h);
pl_status pl_life_soup(pl_life_pattern *p, int64_t w, int64_t h, double density, uint64_t seed);
void pl_life_pattern_free(pl_life_pattern *p);

#ifdef __cplusplus
}
#endif
#endif
