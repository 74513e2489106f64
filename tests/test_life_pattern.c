/* test_life_pattern.c: Life rules and pattern files (src/kernels/life/rule.c,
 * src/io/life_pattern.c). Rules in every accepted form and every malformed one; a file's rule
 * carried as text by io and read by the room, as `parlab life` does, with the file's
 * "file:line:col"; the writer's refusal of a rule text a header cannot hold; the exact RLE Golly writes for the
 * glider and the Gosper glider gun (from their cell lists); RLE and .cells round trips of soups
 * with comments, rules, grids and positions; a wide soup's lines (at most 70 characters, no run
 * split); Golly's grid suffixes; every malformed file with its status and "file:line:col";
 * sizes refused before allocating; soups (seeded, density checked); then the fuzz corpus
 * tests/fuzz/corpus/life/ is replayed. */
#define _POSIX_C_SOURCE 200809L
#include "parlab.h"
#include "check.h"
#include "tmpdir.h"
#include "io/life_pattern.h"
#include "kernels/life/rule.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A whole file as a string (caller frees), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A pattern file read as `parlab life` reads it: the file (io), then its rule (the room); a
 * refused rule leaves the pattern empty too. */
static pl_status read_pattern(const char *path, pl_life_pattern *p, pl_life_rule *rule)
{
    pl_status st = pl_life_read(path, p);
    if (st == PL_OK && (st = pl_life_rule_parse_at(p->rule, path, p->rule_line, p->rule_col, rule)) != PL_OK)
        pl_life_pattern_free(p);
    return st;
}

static pl_status read_string(const char *name, const char *text, pl_life_pattern *p)
{
    const char *path = in_dir(name);
    write_bytes(path, text, strlen(text));
    pl_life_rule rule;
    return read_pattern(path, p, &rule);
}

static int64_t population(const pl_life_pattern *p)
{
    int64_t n = 0;
    for (int64_t y = 0; p->w > 0 && y < p->h; y++) /* no columns: no cells, however tall */
        for (int64_t x = 0; x < p->w; x++) n += pl_life_cell(p, x, y);
    return n;
}

static int same_cells(const pl_life_pattern *a, const pl_life_pattern *b)
{
    if (a->w != b->w || a->h != b->h) return 0;
    for (int64_t y = 0; a->w > 0 && y < a->h; y++)
        for (int64_t x = 0; x < a->w; x++)
            if (pl_life_cell(a, x, y) != pl_life_cell(b, x, y)) return 0;
    return 1;
}

static void set_cell(pl_life_pattern *p, int64_t x, int64_t y)
{
    p->bits[y * p->words_per_row + x / 64] |= UINT64_C(1) << (x % 64);
}

/* ---------------------------------------------------------------- rules */

static void check_rule(const char *text, const char *canonical)
{
    pl_life_rule r = {0xffff, 0xffff};
    pl_status st = pl_life_rule_parse(text, &r);
    CHECK(st == PL_OK, "rule '%s': %s", text, pl_last_error());
    char buf[32];
    pl_life_rule_format(&r, buf, sizeof buf);
    CHECK(strcmp(buf, canonical) == 0, "rule '%s' formats as '%s', want '%s'", text, buf, canonical);
}

static void check_bad_rule(const char *text, const char *word)
{
    pl_life_rule r;
    pl_status st = pl_life_rule_parse(text, &r);
    CHECK(st == PL_ERR_ARG, "rule '%s': status %s, want PL_ERR_ARG", text, pl_status_name(st));
    char quoted[64];
    snprintf(quoted, sizeof quoted, "'%s'", text);
    CHECK(strstr(pl_last_error(), quoted) != NULL, "rule '%s': message does not name it: %s", text, pl_last_error());
    CHECK(strstr(pl_last_error(), word) != NULL, "rule '%s': message lacks '%s': %s", text, word, pl_last_error());
}

static void test_rules(void)
{
    check_rule("B3/S23", "B3/S23");
    check_rule("b3/s23", "B3/S23");
    check_rule("B36/S23", "B36/S23");
    check_rule("B63/S32", "B36/S23");
    check_rule("B2/S", "B2/S");
    check_rule("23/3", "B3/S23");   /* S/B: survival first */
    check_rule("/3", "B3/S");
    check_rule("S23/B3", "B3/S23");
    check_rule("B33/S23", "B3/S23"); /* a repeated digit counts once, as in Golly */
    check_rule("B012345678/S012345678", "B012345678/S012345678");
    pl_life_rule r;
    CHECK(pl_life_rule_parse("B3/S23", &r) == PL_OK && r.birth == 1u << 3 && r.survive == ((1u << 2) | (1u << 3)),
          "B3/S23 bits: birth %#x survive %#x", r.birth, r.survive);
    CHECK(pl_life_rule_parse("23/36", &r) == PL_OK && r.birth == ((1u << 3) | (1u << 6)) &&
              r.survive == ((1u << 2) | (1u << 3)),
          "23/36 bits: birth %#x survive %#x", r.birth, r.survive);
    check_bad_rule("B39/S23", "count 9");
    check_bad_rule("B3S23", "no '/'");
    check_bad_rule("", "empty");
    check_bad_rule("B3/S2x", "unexpected 'x'");
    check_bad_rule("B3/X23", "expected 'S'");
    check_bad_rule("B3/S23/", "a second '/'");
    check_bad_rule("B3/S23:T10,10", "unexpected ':'");
    check_bad_rule("Life", "no '/'");
    char small[4];
    pl_life_rule_format(&(pl_life_rule){1u << 3, (1u << 2) | (1u << 3)}, small, sizeof small);
    CHECK(strcmp(small, "B3/") == 0, "a short buffer holds '%s', want the truncated 'B3/'", small);
}

/* ---------------------------------------------------------------- exact RLE */

static void test_glider(void)
{
    pl_life_pattern p;
    CHECK(pl_life_pattern_alloc(&p, 3, 3) == PL_OK, "alloc: %s", pl_last_error());
    set_cell(&p, 1, 0);
    set_cell(&p, 2, 1);
    set_cell(&p, 0, 2);
    set_cell(&p, 1, 2);
    set_cell(&p, 2, 2);
    const char *path = in_dir("glider.rle");
    CHECK(pl_life_write(path, &p) == PL_OK, "write glider: %s", pl_last_error());
    char *text = read_text(path);
    const char *want = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
    CHECK(text && strcmp(text, want) == 0, "glider RLE:\n%s\nwant:\n%s", text ? text : "(none)", want);
    free(text);
    pl_life_pattern q;
    CHECK(pl_life_read(path, &q) == PL_OK, "read glider: %s", pl_last_error());
    CHECK(same_cells(&p, &q) && population(&q) == 5, "glider read back differs");
    CHECK(q.grid == PL_LIFE_UNBOUNDED && q.x0 == 0 && q.y0 == 0 && q.comments == NULL,
          "glider: grid %d, position %lld,%lld", q.grid, (long long)q.x0, (long long)q.y0);
    pl_life_pattern_free(&q);

    /* The glider as .cells. */
    path = in_dir("glider.cells");
    CHECK(pl_life_write(path, &p) == PL_OK, "write glider.cells: %s", pl_last_error());
    text = read_text(path);
    CHECK(text && strcmp(text, ".O.\n..O\nOOO\n") == 0, "glider .cells:\n%s", text ? text : "(none)");
    free(text);
    pl_life_pattern_free(&p);
    CHECK(p.bits == NULL && p.w == 0, "pl_life_pattern_free does not clear");
}

/* The Gosper glider gun's 36 cells, row by row (x, y), as Golly's pattern collection has it. */
static const int gun_cells[][2] = {
    {24, 0}, {22, 1}, {24, 1}, {12, 2}, {13, 2}, {20, 2}, {21, 2}, {34, 2}, {35, 2},
    {11, 3}, {15, 3}, {20, 3}, {21, 3}, {34, 3}, {35, 3}, {0, 4},  {1, 4},  {10, 4},
    {16, 4}, {20, 4}, {21, 4}, {0, 5},  {1, 5},  {10, 5}, {14, 5}, {16, 5}, {17, 5},
    {22, 5}, {24, 5}, {10, 6}, {16, 6}, {24, 6}, {11, 7}, {15, 7}, {12, 8}, {13, 8},
};
static const char gun_rle[] = "#N Gosper glider gun\n"
                              "x = 36, y = 9, rule = B3/S23\n"
                              "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
                              "obo$10bo5bo7bo$11bo3bo$12b2o!\n";

static void test_gun(void)
{
    int n = (int)(sizeof gun_cells / sizeof gun_cells[0]);
    CHECK(n == 36, "the gun has %d cells in the list", n);
    pl_life_pattern p;
    CHECK(pl_life_pattern_alloc(&p, 36, 9) == PL_OK, "alloc: %s", pl_last_error());
    for (int i = 0; i < n; i++) set_cell(&p, gun_cells[i][0], gun_cells[i][1]);
    p.comments = strdup("#N Gosper glider gun\n");
    const char *path = in_dir("gun.rle");
    CHECK(pl_life_write(path, &p) == PL_OK, "write gun: %s", pl_last_error());
    char *text = read_text(path);
    CHECK(text && strcmp(text, gun_rle) == 0, "gun RLE:\n%s\nwant:\n%s", text ? text : "(none)", gun_rle);
    free(text);

    pl_life_pattern q;
    CHECK(read_string("gun_in.rle", gun_rle, &q) == PL_OK, "read gun: %s", pl_last_error());
    CHECK(q.w == 36 && q.h == 9 && population(&q) == 36, "gun read as %lldx%lld with %lld cells", (long long)q.w,
          (long long)q.h, (long long)population(&q));
    CHECK(same_cells(&p, &q), "gun read differs from its cell list");
    CHECK(q.comments && strcmp(q.comments, "#N Gosper glider gun\n") == 0, "gun comments: %s",
          q.comments ? q.comments : "(none)");
    pl_life_pattern_free(&q);
    pl_life_pattern_free(&p);
}

/* ---------------------------------------------------------------- round trips */

static void compare_patterns(const char *what, const pl_life_pattern *a, const pl_life_pattern *b, int full)
{
    CHECK(a->w == b->w && a->h == b->h, "%s: size %lldx%lld, want %lldx%lld", what, (long long)b->w, (long long)b->h,
          (long long)a->w, (long long)a->h);
    CHECK(same_cells(a, b), "%s: cells differ", what);
    if (!full) return;
    CHECK(strcmp(a->rule, b->rule) == 0, "%s: rule '%s', want '%s'", what, b->rule, a->rule);
    CHECK(a->grid == b->grid && a->grid_w == b->grid_w && a->grid_h == b->grid_h, "%s: grid %d %lldx%lld", what,
          b->grid, (long long)b->grid_w, (long long)b->grid_h);
    CHECK(a->x0 == b->x0 && a->y0 == b->y0, "%s: position %lld,%lld", what, (long long)b->x0, (long long)b->y0);
    CHECK((!a->comments && !b->comments) || (a->comments && b->comments && strcmp(a->comments, b->comments) == 0),
          "%s: comments '%s', want '%s'", what, b->comments ? b->comments : "", a->comments ? a->comments : "");
}

static void round_trip(int64_t w, int64_t h, double density, uint64_t seed, int grid)
{
    char what[96];
    snprintf(what, sizeof what, "%lldx%lld soup %.2f grid %d", (long long)w, (long long)h, density, grid);
    pl_life_pattern a;
    CHECK(pl_life_soup(&a, w, h, density, seed) == PL_OK, "%s: soup: %s", what, pl_last_error());
    /* Live cells on the last column and row, so .cells keeps the size. */
    if (w > 0 && h > 0) {
        set_cell(&a, w - 1, 0);
        set_cell(&a, 0, h - 1);
    }
    snprintf(a.rule, sizeof a.rule, "B36/S23");
    a.grid = grid;
    if (grid != PL_LIFE_UNBOUNDED) {
        a.grid_w = w + 7;
        a.grid_h = h + 3;
    }
    a.x0 = -5;
    a.y0 = 12;
    a.comments = strdup("#N soup\n#C made by test_life_pattern\n#O parlab\n");

    const char *p1 = in_dir("rt1.rle"), *p2 = in_dir("rt2.rle");
    CHECK(pl_life_write(p1, &a) == PL_OK, "%s: write: %s", what, pl_last_error());
    pl_life_pattern b;
    pl_status st = pl_life_read(p1, &b);
    CHECK(st == PL_OK, "%s: read: %s", what, pl_last_error());
    if (st == PL_OK) {
        compare_patterns(what, &a, &b, 1);
        CHECK(pl_life_write(p2, &b) == PL_OK, "%s: write again: %s", what, pl_last_error());
        char *t1 = read_text(p1), *t2 = read_text(p2);
        CHECK(t1 && t2 && strcmp(t1, t2) == 0, "%s: RLE -> pattern -> RLE changed the text", what);
        free(t1);
        free(t2);
    }
    pl_life_pattern_free(&b);

    /* .cells keeps the cells and the comments (not the rule, grid or position). */
    const char *c1 = in_dir("rt.cells");
    CHECK(pl_life_write(c1, &a) == PL_OK, "%s: write .cells: %s", what, pl_last_error());
    st = pl_life_read(c1, &b);
    CHECK(st == PL_OK, "%s: read .cells: %s", what, pl_last_error());
    if (st == PL_OK) {
        compare_patterns(what, &a, &b, 0);
        CHECK(b.comments && strcmp(b.comments, a.comments) == 0, "%s: .cells comments '%s'", what,
              b.comments ? b.comments : "");
        CHECK(b.grid == PL_LIFE_UNBOUNDED && strcmp(b.rule, "B3/S23") == 0 && b.rule_line == 0,
              "%s: .cells rule '%s' or grid", what, b.rule);
    }
    pl_life_pattern_free(&b);
    CHECK(count_tmp_files() == 0, "%s: temporary file left behind", what);
    pl_life_pattern_free(&a);
}

static void test_round_trips(void)
{
    round_trip(1, 1, 0.5, 1, PL_LIFE_UNBOUNDED);
    round_trip(3, 5, 0.5, 2, PL_LIFE_TORUS);
    round_trip(63, 65, 0.3, 3, PL_LIFE_PLANE);
    round_trip(200, 37, 0.5, 4, PL_LIFE_TORUS);
    round_trip(130, 300, 0.02, 5, PL_LIFE_UNBOUNDED); /* sparse: long runs and empty rows */
    round_trip(2000, 1100, 0.5, 6, PL_LIFE_TORUS);    /* texts of 2+ MiB: the writer's buffer flushes */
}

/* A wide soup: every line at most 70 characters and ending after a whole run. */
static void test_line_length(void)
{
    pl_life_pattern a;
    CHECK(pl_life_soup(&a, 1000, 20, 0.5, 77) == PL_OK, "soup: %s", pl_last_error());
    const char *path = in_dir("wide.rle");
    CHECK(pl_life_write(path, &a) == PL_OK, "write: %s", pl_last_error());
    char *text = read_text(path);
    int lines = 0, longest = 0, bad_end = 0;
    for (char *line = text ? strchr(text, '\n') + 1 : NULL; line && *line;) {
        char *end = strchr(line, '\n');
        int len = (int)(end - line);
        if (len > longest) longest = len;
        if (len > 70) bad_end++;
        if (!strchr("bo$!", line[len - 1])) bad_end++; /* a count cut from its tag */
        if (end[1] && (end[1] < '0' || end[1] > '9') && !strchr("bo$!", end[1])) bad_end++;
        lines++;
        line = end + 1;
    }
    CHECK(lines > 100 && longest <= 70 && longest >= 60 && bad_end == 0,
          "wide soup: %d lines, longest %d, %d bad", lines, longest, bad_end);
    free(text);
    pl_life_pattern b;
    CHECK(pl_life_read(path, &b) == PL_OK && same_cells(&a, &b), "wide soup read back differs: %s", pl_last_error());
    pl_life_pattern_free(&b);
    pl_life_pattern_free(&a);
}

/* ---------------------------------------------------------------- reading details */

static void test_reading(void)
{
    pl_life_pattern p;
    /* Comments, #R, ignored # lines, spaces in the header, whitespace between items, 'A' and
     * '.', a '$' with a count, a trailing '$', text after '!'. */
    const char *rle = "#C first\r\n#c second\n#N name\n#O author\n#R -3 7\n#r B3/S23\n#X ignored\n"
                      "x=4,y=5,rule=b36/s23\n"
                      "2o2b$\n . A  $ 2\n$4o\n$!  trailing words\n";
    pl_status st = read_string("details.rle", rle, &p);
    CHECK(st == PL_OK, "details: %s", pl_last_error());
    if (st == PL_OK) {
        CHECK(p.w == 4 && p.h == 5 && population(&p) == 7, "details: %lldx%lld, %lld cells", (long long)p.w,
              (long long)p.h, (long long)population(&p));
        CHECK(pl_life_cell(&p, 0, 0) && pl_life_cell(&p, 1, 0) && pl_life_cell(&p, 1, 1) && pl_life_cell(&p, 3, 4) &&
                  !pl_life_cell(&p, 0, 1) && !pl_life_cell(&p, 0, 3),
              "details: cells misplaced");
        CHECK(p.x0 == -3 && p.y0 == 7, "details: position %lld,%lld", (long long)p.x0, (long long)p.y0);
        CHECK(strcmp(p.rule, "b36/s23") == 0 && p.rule_line == 8 && p.rule_col == 14, "details: rule '%s' at %lld:%lld",
              p.rule, (long long)p.rule_line, (long long)p.rule_col);
        CHECK(p.comments && strcmp(p.comments, "#C first\n#c second\n#N name\n#O author\n") == 0,
              "details: comments '%s'", p.comments ? p.comments : "");
    }
    pl_life_pattern_free(&p);
    /* Long runs, set a word at a time: 3 dead, 250 alive (four words), 7 dead, 40 alive. */
    st = read_string("runs.rle", "x = 300, y = 2\n3b250o7b40o$o!\n", &p);
    CHECK(st == PL_OK, "long runs: %s", pl_last_error());
    if (st == PL_OK) {
        int64_t wrong = 0;
        for (int64_t x = 0; x < 300; x++)
            wrong += pl_life_cell(&p, x, 0) != ((x >= 3 && x < 253) || x >= 260);
        CHECK(wrong == 0 && population(&p) == 291, "long runs: %lld cells wrong, %lld alive, want 291", (long long)wrong,
              (long long)population(&p));
    }
    pl_life_pattern_free(&p);

    /* An empty pattern. */
    st = read_string("empty.rle", "x = 0, y = 0\n!\n", &p);
    CHECK(st == PL_OK && p.w == 0 && p.h == 0 && p.bits == NULL, "empty pattern: %s", pl_last_error());
    /* ... written as .cells (an empty file would not read: "!" is written) and read back. */
    const char *cells = in_dir("empty.cells");
    CHECK(pl_life_write(cells, &p) == PL_OK, "write empty .cells: %s", pl_last_error());
    pl_life_pattern_free(&p);
    st = pl_life_read(cells, &p);
    CHECK(st == PL_OK && p.w == 0 && p.h == 0, "empty .cells read back: %s", pl_last_error());
    pl_life_pattern_free(&p);

    /* .cells: comments, short rows dead to the right, blank rows, CRLF. */
    st = read_string("short.cells", "!Name: thing\r\n!a comment\n.O\r\n\n..O\nOOO..\n\n", &p);
    CHECK(st == PL_OK, "short .cells: %s", pl_last_error());
    if (st == PL_OK) {
        CHECK(p.w == 5 && p.h == 4 && population(&p) == 5, ".cells: %lldx%lld, %lld cells", (long long)p.w,
              (long long)p.h, (long long)population(&p));
        CHECK(pl_life_cell(&p, 1, 0) && pl_life_cell(&p, 2, 2) && pl_life_cell(&p, 0, 3) && !pl_life_cell(&p, 1, 1),
              ".cells: cells misplaced");
        CHECK(p.comments && strcmp(p.comments, "#N thing\n#C a comment\n") == 0, ".cells comments '%s'",
              p.comments ? p.comments : "");
    }
    pl_life_pattern_free(&p);
    st = pl_life_read(in_dir("missing.rle"), &p);
    CHECK(st == PL_ERR_IO && strstr(pl_last_error(), "missing.rle"), "missing file: %s %s", pl_status_name(st),
          pl_last_error());
}

/* ---------------------------------------------------------------- grids */

static void check_grid(const char *header_rule, int grid, int64_t gw, int64_t gh)
{
    char text[160];
    snprintf(text, sizeof text, "x = 3, y = 3, rule = %s\nbo$2bo$3o!\n", header_rule);
    pl_life_pattern p;
    pl_status st = read_string("grid.rle", text, &p);
    CHECK(st == PL_OK, "rule = %s: %s", header_rule, pl_last_error());
    CHECK(st != PL_OK || (p.grid == grid && p.grid_w == gw && p.grid_h == gh), "rule = %s: grid %d %lldx%lld",
          header_rule, p.grid, (long long)p.grid_w, (long long)p.grid_h);
    pl_life_pattern_free(&p);
}

static void test_grids(void)
{
    check_grid("B3/S23", PL_LIFE_UNBOUNDED, 0, 0);
    check_grid("B3/S23:T100,100", PL_LIFE_TORUS, 100, 100);
    check_grid("B3/S23:T100,40", PL_LIFE_TORUS, 100, 40);
    check_grid("B3/S23:T100", PL_LIFE_TORUS, 100, 100);
    check_grid("B3/S23:P30,20", PL_LIFE_PLANE, 30, 20);
    check_grid("23/3:P3,3", PL_LIFE_PLANE, 3, 3);
    check_grid("B3/S23:t7,5", PL_LIFE_TORUS, 7, 5);
    check_grid("B3/S23:T0,0", PL_LIFE_UNBOUNDED, 0, 0); /* Golly: ":T0,0", ":T", ":" are unbounded */
    check_grid("B3/S23:T", PL_LIFE_UNBOUNDED, 0, 0);
    check_grid("B3/S23:", PL_LIFE_UNBOUNDED, 0, 0);

    /* Written with the suffix. */
    pl_life_pattern p;
    CHECK(pl_life_pattern_alloc(&p, 2, 1) == PL_OK, "alloc");
    set_cell(&p, 0, 0);
    p.grid = PL_LIFE_TORUS;
    p.grid_w = 100;
    p.grid_h = 50;
    const char *path = in_dir("torus.rle");
    CHECK(pl_life_write(path, &p) == PL_OK, "write torus: %s", pl_last_error());
    char *text = read_text(path);
    CHECK(text && strcmp(text, "x = 2, y = 1, rule = B3/S23:T100,50\no!\n") == 0, "torus RLE: %s", text ? text : "");
    free(text);
    p.grid = PL_LIFE_PLANE;
    CHECK(pl_life_write(path, &p) == PL_OK, "write plane: %s", pl_last_error());
    text = read_text(path);
    CHECK(text && strcmp(text, "x = 2, y = 1, rule = B3/S23:P100,50\no!\n") == 0, "plane RLE: %s", text ? text : "");
    free(text);
    p.grid_w = 0;
    CHECK(pl_life_write(path, &p) == PL_ERR_ARG, "a plane of width 0 written");
    pl_life_pattern_free(&p);
}

/* ---------------------------------------------------------------- the rule as text */

/* io takes the header's rule as text and writes it back as given; the room reads it, naming the
 * file, line and column; the writer refuses a text the reader would not give back. */
static void test_rule_text(void)
{
    pl_life_pattern p;
    const char *path = in_dir("history.rle");
    const char *file = "#C x\nx = 1, y = 1,  rule = LifeHistory:T5,5\no!\n";
    write_bytes(path, file, strlen(file));
    pl_status st = pl_life_read(path, &p);
    CHECK(st == PL_OK && strcmp(p.rule, "LifeHistory") == 0 && p.rule_line == 2 && p.rule_col == 23 &&
              p.grid == PL_LIFE_TORUS && p.grid_w == 5,
          "io: rule '%s' at %lld:%lld, grid %d: %s", p.rule, (long long)p.rule_line, (long long)p.rule_col, p.grid,
          pl_last_error());
    pl_life_rule rule;
    char want[1200];
    snprintf(want, sizeof want, "%s:2:23: rule 'LifeHistory': no '/'", path);
    st = pl_life_rule_parse_at(p.rule, path, p.rule_line, p.rule_col, &rule);
    CHECK(st == PL_ERR_FORMAT && strstr(pl_last_error(), want), "room: %s, %s", pl_status_name(st), pl_last_error());
    st = pl_life_rule_parse_at("B9/S", NULL, 0, 0, &rule); /* not from a file: the rule's own message */
    CHECK(st == PL_ERR_ARG && strncmp(pl_last_error(), "rule 'B9/S'", 11) == 0, "no file: %s", pl_last_error());
    CHECK(pl_life_rule_parse_at("b36/s23", path, 3, 4, &rule) == PL_OK && rule.birth == ((1u << 3) | (1u << 6)),
          "a good rule at a place: %s", pl_last_error());

    /* Written as given, and read back the same, up to the header's limit with the grid. */
    const char *out = in_dir("text.rle");
    snprintf(p.rule, sizeof p.rule, "b3/s23");
    CHECK(pl_life_write(out, &p) == PL_OK, "write b3/s23: %s", pl_last_error());
    char *text = read_text(out);
    CHECK(text && strcmp(text, "#C x\nx = 1, y = 1, rule = b3/s23:T5,5\no!\n") == 0, "written: %s", text ? text : "");
    free(text);
    memset(p.rule, 'B', PL_LIFE_RULE_MAX - 6); /* 122 + ":T5,5" = 127: the longest */
    p.rule[PL_LIFE_RULE_MAX - 6] = '\0';
    pl_life_pattern q;
    CHECK(pl_life_write(out, &p) == PL_OK && pl_life_read(out, &q) == PL_OK && strcmp(q.rule, p.rule) == 0,
          "the longest rule text: %s", pl_last_error());
    pl_life_pattern_free(&q);
    p.rule[PL_LIFE_RULE_MAX - 6] = 'B';
    p.rule[PL_LIFE_RULE_MAX - 5] = '\0';
    st = pl_life_write(out, &p);
    CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), "longer than an RLE header holds"), "one more: %s",
          pl_last_error());
    static const char *const unwritable[] = {"", "B3/S23 x", "B3/S23:T5,5", "B3/\nS23"};
    for (int i = 0; i < 4; i++) {
        snprintf(p.rule, sizeof p.rule, "%s", unwritable[i]);
        CHECK(pl_life_write(out, &p) == PL_ERR_ARG, "rule '%s' written", unwritable[i]);
    }
    CHECK(pl_life_write(in_dir("text.cells"), &p) == PL_OK, ".cells holds no rule: %s", pl_last_error());
    CHECK(count_tmp_files() == 0, "temporary file left");
    pl_life_pattern_free(&p);
}

/* ---------------------------------------------------------------- malformed files */

/* text must fail with status want and a message holding "<file>:<where>" and word. */
static void check_bad(const char *text, pl_status want, const char *where, const char *word)
{
    const char *path = in_dir("bad.rle");
    write_bytes(path, text, strlen(text));
    pl_life_pattern p;
    memset(&p, 0xAB, sizeof p);
    pl_life_rule rule;
    pl_status st = read_pattern(path, &p, &rule);
    CHECK(st == want, "'%s': status %s, want %s (%s)", text, pl_status_name(st), pl_status_name(want), pl_last_error());
    char at[1200];
    snprintf(at, sizeof at, "%s:%s: ", path, where);
    CHECK(where[0] == '\0' || strstr(pl_last_error(), at), "'%s': message lacks '%s': %s", text, at, pl_last_error());
    CHECK(strstr(pl_last_error(), word), "'%s': message lacks '%s': %s", text, word, pl_last_error());
    CHECK(p.bits == NULL && p.w == 0 && p.comments == NULL, "'%s': a failed read left a pattern", text);
}

static void test_bad_files(void)
{
    /* The header. */
    check_bad("", PL_ERR_FORMAT, "1:1", "expected an RLE header");
    check_bad("#C only a comment\n", PL_ERR_FORMAT, "2:1", "expected an RLE header");
    check_bad("hello\n", PL_ERR_FORMAT, "1:1", "expected an RLE header");
    check_bad("x = 3 y = 3\n3o!\n", PL_ERR_FORMAT, "1:7", "expected ',' after the width");
    check_bad("x = , y = 3\n3o!\n", PL_ERR_FORMAT, "1:5", "expected the width x");
    check_bad("x = 3, z = 3\n3o!\n", PL_ERR_FORMAT, "1:8", "expected 'y'");
    check_bad("x = 3, y = 3, rules = B3/S23\n3o!\n", PL_ERR_FORMAT, "1:19", "expected '='");
    check_bad("x = 3, y = 3, rule = B3/S29\n3o!\n", PL_ERR_FORMAT, "1:22", "count 9");
    check_bad("x = 3, y = 3, rule = B3S23\n3o!\n", PL_ERR_FORMAT, "1:22", "no '/'");
    check_bad("x = 3, y = 3, rule = B3/S23 junk\n3o!\n", PL_ERR_FORMAT, "1:29", "unexpected 'j'");
    check_bad("x = 3, y = 3, rule = B3/S23:K3,3\n3o!\n", PL_ERR_FORMAT, "1:22", "not supported");
    check_bad("x = 3, y = 3, rule = B3/S23:T0,10\n3o!\n", PL_ERR_FORMAT, "1:22", "size 0");
    check_bad("x = 3, y = 3, rule = B3/S23:T10,10+2\n3o!\n", PL_ERR_FORMAT, "1:22", "twisted");
    check_bad("x = 3, y = 3, rule = B3/S23:T2,2\n3o!\n", PL_ERR_FORMAT, "1:1", "larger than its grid");
    check_bad("x = 99999999999999999999, y = 3\n!\n", PL_ERR_FORMAT, "1:5", "overflows");
    check_bad("x = 3, y = 3, rule = B3/S23:T99999999999999999999,3\n3o!\n", PL_ERR_FORMAT, "1:22", "size overflows");
    check_bad("x = 4611686018427387905, y = 3\n!\n", PL_ERR_FORMAT, "1:5", "overflows");
    check_bad("#R 1\nx = 1, y = 1\no!\n", PL_ERR_FORMAT, "1:5", "the y of #R");
    /* The runs. */
    check_bad("x = 3, y = 3\n99999999999999999999o!\n", PL_ERR_FORMAT, "2:1", "run count overflows");
    check_bad("x = 3, y = 3\nbo$4o!\n", PL_ERR_FORMAT, "2:4", "row 2 is longer than the header's x = 3");
    check_bad("x = 3, y = 3\nbo$2bo$\n3o$o!\n", PL_ERR_FORMAT, "3:4", "more rows than the header's y = 3");
    check_bad("x = 3, y = 2\nbo$5$o!\n", PL_ERR_FORMAT, "2:4", "more rows");
    check_bad("x = 3, y = 3\nbo$2bo$3o\n", PL_ERR_FORMAT, "3:1", "truncated");
    check_bad("x = 3, y = 3\nbo$2bo$3", PL_ERR_FORMAT, "2:9", "truncated");
    check_bad("x = 3, y = 3\nbo$2bz$3o!\n", PL_ERR_FORMAT, "2:6", "unexpected 'z'");
    check_bad("x = 3, y = 3\nbo$2b\x01$3o!\n", PL_ERR_FORMAT, "2:6", "byte 0x01");
    check_bad("x = 3, y = 3\nbo$2bC$3o!\n", PL_ERR_FORMAT, "2:6", "multi-state");
    check_bad("x = 3, y = 3\n0o!\n", PL_ERR_FORMAT, "2:1", "count of 0");
    check_bad("x = 3, y = 3\no3!\n", PL_ERR_FORMAT, "2:2", "count before '!'");
    check_bad("x = 3, y = 3\n3o-!\n", PL_ERR_FORMAT, "2:3", "unexpected '-'");
    /* .cells. */
    check_bad("!Name: x\n.O.\n.X.\n", PL_ERR_FORMAT, "3:2", "unexpected 'X' in a .cells row");
    check_bad(".O.\nO\rO\n", PL_ERR_FORMAT, "2:2", "byte 0x0d");
    /* A NUL byte would cut a kept comment short (a fuzzer finding). */
    const char nul_rle[] = "#C a\0b\nx = 1, y = 1\no!\n";
    write_bytes(in_dir("nul.rle"), nul_rle, sizeof nul_rle - 1);
    pl_life_pattern p;
    pl_status st = pl_life_read(in_dir("nul.rle"), &p);
    CHECK(st == PL_ERR_FORMAT && strstr(pl_last_error(), "nul.rle:1:5: unexpected byte 0x00"), "NUL in a comment: %s",
          pl_last_error());
    pl_life_pattern_free(&p);
    /* Sizes: refused before allocating. */
    check_bad("x = 10000000, y = 10000000\n!\n", PL_ERR_TOO_BIG, "", "too big");
    check_bad("x = 4611686018427387904, y = 4611686018427387904\n!\n", PL_ERR_TOO_BIG, "", "overflows");
}

/* ---------------------------------------------------------------- writes, soups */

static void test_writes_and_soups(void)
{
    pl_life_pattern p;
    CHECK(pl_life_soup(&p, 70, 70, 0.5, 9) == PL_OK, "soup: %s", pl_last_error());
    int64_t pop = population(&p);
    CHECK(pop > 2200 && pop < 2700, "a 0.5 soup of 4900 cells has %lld alive", (long long)pop);
    pl_life_pattern q;
    CHECK(pl_life_soup(&q, 70, 70, 0.5, 9) == PL_OK && same_cells(&p, &q), "the same seed gave another soup");
    pl_life_pattern_free(&q);
    CHECK(pl_life_soup(&q, 70, 70, 0.5, 10) == PL_OK && !same_cells(&p, &q), "another seed gave the same soup");
    pl_life_pattern_free(&q);
    /* Rows differ from one another (each row its own seed). */
    CHECK(p.bits[0] != p.bits[p.words_per_row], "rows 0 and 1 of a soup are equal");
    CHECK(pl_life_soup(&q, 65, 3, 1.0, 1) == PL_OK && population(&q) == 195 && (q.bits[1] >> 1) == 0,
          "a full soup: %lld alive, bits past w set", (long long)population(&q));
    pl_life_pattern_free(&q);
    CHECK(pl_life_soup(&q, 65, 3, 0.0, 1) == PL_OK && population(&q) == 0, "an empty soup has cells");
    pl_life_pattern_free(&q);
    CHECK(pl_life_soup(&q, 5, 5, -0.1, 1) == PL_ERR_ARG && strstr(pl_last_error(), "-0.1"), "density -0.1: %s",
          pl_last_error());
    CHECK(pl_life_soup(&q, 5, 5, 1.5, 1) == PL_ERR_ARG && strstr(pl_last_error(), "1.5"), "density 1.5");
    CHECK(pl_life_soup(&q, 5, 5, NAN, 1) == PL_ERR_ARG, "density NaN accepted");
    CHECK(q.bits == NULL, "a refused soup left bits");
    CHECK(pl_life_pattern_alloc(&q, -1, 5) == PL_ERR_ARG, "a negative size accepted");
    CHECK(pl_life_pattern_alloc(&q, INT64_C(1) << 40, INT64_C(1) << 40) == PL_ERR_TOO_BIG, "2^80 cells accepted");

    /* A write into a directory that does not exist fails and leaves nothing. */
    const char *bad = in_dir("no/such/dir.rle");
    CHECK(pl_life_write(bad, &p) == PL_ERR_IO, "write into a missing directory: %s", pl_last_error());
    CHECK(count_tmp_files() == 0, "temporary file left");
    /* A malformed pattern is refused. */
    q = p;
    q.words_per_row = 1;
    CHECK(pl_life_write(in_dir("x.rle"), &q) == PL_ERR_ARG, "a malformed pattern written");
    pl_life_pattern_free(&p);

    /* A box of no columns and 2^61 rows (the fuzzer found 466666666) has no cells: its .cells and
     * RLE are a few bytes written at once, not a line (or a loop step) per row, and read back empty. */
    CHECK(pl_life_pattern_alloc(&q, 0, INT64_C(1) << 61) == PL_OK, "a 0 x 2^61 box: %s", pl_last_error());
    pl_life_pattern_free(&q);
    CHECK(pl_life_soup(&q, 0, INT64_C(1) << 61, 0.5, 1) == PL_OK && q.w == 0 && !q.bits, "a 0 x 2^61 soup: %s",
          pl_last_error());
    const char *tall_names[] = {"tall.cells", "tall.rle"};
    for (int i = 0; i < 2; i++) {
        const char *path = in_dir(tall_names[i]);
        CHECK(pl_life_write(path, &q) == PL_OK, "write %s: %s", tall_names[i], pl_last_error());
        struct stat sb;
        CHECK(stat(path, &sb) == 0 && sb.st_size < 100, "%s of an empty 0 x 2^61 box: %lld bytes", tall_names[i],
              (long long)sb.st_size);
        CHECK(pl_life_read(path, &p) == PL_OK && population(&p) == 0 && p.w == 0, "%s read back: %s", tall_names[i],
              pl_last_error());
        pl_life_pattern_free(&p);
    }
    pl_life_pattern_free(&q);
}

/* ---------------------------------------------------------------- the fuzz corpus */

/* tests/fuzz/corpus/life/: ok_* must read, bad_* must fail with PL_ERR_FORMAT naming the file;
 * other names (fuzzer findings) may do either but never crash or leak. */
static void test_fuzz_corpus(void)
{
    const char *cdir = in_tests("fuzz/corpus/life");
    char cpath[1024];
    snprintf(cpath, sizeof cpath, "%s", cdir);
    DIR *d = opendir(cpath);
    CHECK(d != NULL, "cannot open the fuzz corpus %s", cpath);
    if (!d) return;
    int n_ok = 0, n_bad = 0, n_other = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", cpath, e->d_name);
        pl_life_pattern p;
        pl_life_rule rule;
        pl_status st = read_pattern(path, &p, &rule);
        if (strncmp(e->d_name, "ok_", 3) == 0) {
            n_ok++;
            CHECK(st == PL_OK, "corpus %s: %s", e->d_name, pl_last_error());
        } else if (strncmp(e->d_name, "bad_", 4) == 0) {
            n_bad++;
            CHECK(st == PL_ERR_FORMAT && strstr(pl_last_error(), path), "corpus %s: %s %s", e->d_name,
                  pl_status_name(st), pl_last_error());
        } else {
            n_other++;
        }
        pl_life_pattern_free(&p);
    }
    closedir(d);
    CHECK(n_ok >= 6 && n_bad >= 6, "fuzz corpus: %d ok_, %d bad_ files", n_ok, n_bad);
    printf("life: fuzz corpus: %d valid, %d malformed, %d fuzzer findings read\n", n_ok, n_bad, n_other);
}

int main(void)
{
    if (tmpdir_make("life") != 0) return 1;
    test_rules();
    test_glider();
    test_gun();
    test_round_trips();
    test_line_length();
    test_reading();
    test_grids();
    test_rule_text();
    test_bad_files();
    test_writes_and_soups();
    test_fuzz_corpus();
    tmpdir_remove();
    return check_summary("life_pattern");
}
