/* life_pattern.h: Life patterns as files hold them (in io: the command, the Python package and
 * the distributed layer all read them): Golly's RLE and plaintext .cells, read and written
 * (life_pattern.c), and seeded random soups. The life room (src/kernels/life/) keeps grids in its
 * own layouts and knows no file; io knows no rule: a pattern carries its rule as the text the
 * file gives, which the room reads with its rule.c (pl_life_rule_parse_at in
 * kernels/life/rule.h).
 *
 * A pattern is a box of w x h cells, bit-packed by rows: cell (x, y) (x to the right, y down,
 * both from the box's top-left) is bit (x % 64) of word y * words_per_row + x / 64; bits past w
 * in a row's last word are zero. */
#ifndef PL_IO_LIFE_PATTERN_H
#define PL_IO_LIFE_PATTERN_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grid a pattern runs on: Golly's bounded-grid suffix of the rule (":T100,100" a torus,
 * ":P100,100" a bounded plane, dead beyond the edge); no suffix: the unbounded plane. */
typedef enum pl_life_grid { PL_LIFE_UNBOUNDED = 0, PL_LIFE_TORUS, PL_LIFE_PLANE } pl_life_grid;

/* The longest rule text a header holds, with its grid suffix and the NUL (as Golly, longer is
 * refused). */
enum { PL_LIFE_RULE_MAX = 128 };

typedef struct pl_life_pattern {
    int64_t w, h;            /* the box: RLE's x = w, y = h */
    int64_t words_per_row;   /* (w + 63) / 64 */
    uint64_t *bits;          /* h * words_per_row words (pl_alloc'd); NULL when w or h is 0 */
    char rule[PL_LIFE_RULE_MAX]; /* the header's rule as written, without its grid suffix (not
                              * checked here); "B3/S23" when the file names none */
    int64_t rule_line, rule_col; /* where the file gives the rule (for messages); 0: it does not */
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
 * process's memory PL_ERR_TOO_BIG before allocating. The rule's text is taken as it stands
 * (up to a blank or the line's end): whether it is a rule is the life room's question. */
pl_status pl_life_read(const char *path, pl_life_pattern *p);
/* Write RLE as Golly does (header "x = W, y = H, rule = R[:T..]", run counts, lines of at
 * most 70 characters, '!' at the end; the comments first), or plaintext .cells for a name ending
 * in ".cells". The rule text as given ("" writes "B3/S23"): one that a header cannot hold (a
 * blank, a ':', too long with its grid) is PL_ERR_ARG. A temporary file, renamed: nothing
 * half-written. */
pl_status pl_life_write(const char *path, const pl_life_pattern *p);
/* An empty w x h pattern (all dead, rule "B3/S23"), or a soup: each cell alive with probability
 * density, from seed (the same on any machine). */
pl_status pl_life_pattern_alloc(pl_life_pattern *p, int64_t w, int64_t h);
pl_status pl_life_soup(pl_life_pattern *p, int64_t w, int64_t h, double density, uint64_t seed);
void pl_life_pattern_free(pl_life_pattern *p);

#ifdef __cplusplus
}
#endif
#endif
