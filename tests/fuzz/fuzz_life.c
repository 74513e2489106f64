/* fuzz_life.c: libFuzzer target for the Life pattern reader (src/io/life_pattern.c: RLE and
 * plaintext .cells), and the life room's reading of the rule text it gives
 * (src/kernels/life/rule.c), as `parlab life` reads a file.
 *
 * Each input is a whole file, read through a memfd (fuzz_input.h). What must hold:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan);
 *   - failure: a status other than PL_OK, a message, and the pattern left empty;
 *   - success: w, h >= 0, words_per_row = (w + 63) / 64, bits present exactly when the box has
 *     cells, no bit set past w in a row, a bounded grid at least as large as the box; the rule
 *     text either a rule (whose canonical form reads back the same) or refused with the file's
 *     line and column; and the pattern survives pl_life_write + pl_life_read unchanged as RLE
 *     (rule text, grid, position, comments and cells) unless its rule text is one a header
 *     cannot hold (empty, or too long with the grid as written: PL_ERR_ARG), and, for boxes of
 *     at most 2^22 cells, as .cells (cells).
 * The host memory a reader may take is 64 MiB here, so a header claiming more must be refused
 * before allocating. Built and run by `make fuzz` (tests/fuzz/README.md). */
#include "parlab.h"
#include "fuzz_input.h"
#include "io/life_pattern.h"
#include "kernels/life/rule.h"

double pl_host_memory_available(void) { return 64.0 * 1024 * 1024; }

static char rle_path[4096], cells_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_life");
    fuzz_out_path(rle_path, sizeof rle_path, "rle");
    fuzz_out_path(cells_path, sizeof cells_path, "cells");
    return 0;
}

static int same_cells(const pl_life_pattern *a, const pl_life_pattern *b)
{
    if (a->w != b->w || a->h != b->h) return 0;
    size_t words = (size_t)(a->words_per_row * a->h);
    return words == 0 || memcmp(a->bits, b->bits, words * 8) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in_path = fuzz_input_file(data, size);
    pl_life_pattern p;
    memset(&p, 0xAB, sizeof p); /* the reader must set every field */
    pl_status st = pl_life_read(in_path, &p);
    if (st != PL_OK) {
        if (p.bits != NULL || p.comments != NULL || p.w != 0 || p.h != 0) fuzz_die("failed read left a pattern");
        if (pl_last_error()[0] == '\0') fuzz_die("failed read without a message");
        return 0;
    }
    if (p.w < 0 || p.h < 0 || p.words_per_row != (p.w + 63) / 64) fuzz_die("bad size fields");
    if ((p.w > 0 && p.h > 0) != (p.bits != NULL)) fuzz_die("bits present for an empty box or missing");
    if (p.w % 64)
        for (int64_t y = 0; y < p.h; y++)
            if (p.bits[y * p.words_per_row + p.words_per_row - 1] >> (p.w % 64)) fuzz_die("a bit past w is set");
    if (p.grid != PL_LIFE_UNBOUNDED && (p.grid_w < p.w || p.grid_h < p.h)) fuzz_die("box larger than its grid");
    if (strnlen(p.rule, sizeof p.rule) == sizeof p.rule) fuzz_die("rule text not terminated");

    /* The room's reading of the rule text: a rule, or refused where the file gives it. */
    pl_life_rule rule, again;
    st = pl_life_rule_parse_at(p.rule, in_path, p.rule_line, p.rule_col, &rule);
    if (st == PL_OK) {
        char canonical[32];
        pl_life_rule_format(&rule, canonical, sizeof canonical);
        if (pl_life_rule_parse(canonical, &again) != PL_OK || again.birth != rule.birth || again.survive != rule.survive)
            fuzz_die("a rule's canonical form reads back another rule");
    } else if ((p.rule_line > 0 && st != PL_ERR_FORMAT) || !strstr(pl_last_error(), "rule '")) {
        fuzz_die("a refused rule without its status or message");
    }

    pl_life_pattern q;
    st = pl_life_write(rle_path, &p);
    char grid[64] = "";
    if (p.grid != PL_LIFE_UNBOUNDED) snprintf(grid, sizeof grid, ":T%lld,%lld", (long long)p.grid_w, (long long)p.grid_h);
    const int unwritable_rule = p.rule[0] == '\0' || strlen(p.rule) + strlen(grid) >= PL_LIFE_RULE_MAX;
    if (st == PL_ERR_ARG && unwritable_rule) goto cells; /* the header cannot hold it: refused, nothing written */
    if (st != PL_OK) fuzz_die("pl_life_write (RLE) of a read pattern failed");
    if (pl_life_read(rle_path, &q) != PL_OK) fuzz_die("re-reading the written RLE failed");
    if (!same_cells(&p, &q) || strcmp(p.rule, q.rule) != 0 ||
        p.grid != q.grid || p.grid_w != q.grid_w || p.grid_h != q.grid_h || p.x0 != q.x0 || p.y0 != q.y0 ||
        (p.comments == NULL) != (q.comments == NULL) || (p.comments && strcmp(p.comments, q.comments) != 0))
        fuzz_die("RLE write + read changed the pattern");
    pl_life_pattern_free(&q);

cells:
    /* .cells cannot hold an empty row count or width: only boxes whose last row and column
     * have a live cell come back the same size. A .cells file is a byte a cell, so a box that
     * a few RLE runs make large (up to the 512 M cells that 64 MiB of bits hold) would take
     * longer than the 10 s an input may under the sanitizers: the .cells round trip is
     * checked on boxes of at most 2^22 cells (test_life_pattern writes larger ones). */
    if ((double)p.w * (double)p.h > 4194304.0) goto done;
    if (pl_life_write(cells_path, &p) != PL_OK) fuzz_die("pl_life_write (.cells) of a read pattern failed");
    if (pl_life_read(cells_path, &q) != PL_OK) fuzz_die("re-reading the written .cells failed");
    for (int64_t y = 0; q.w > 0 && y < q.h; y++) /* no columns: no cells, however tall */
        for (int64_t x = 0; x < q.w; x++)
            if (pl_life_cell(&q, x, y) && (x >= p.w || y >= p.h || !pl_life_cell(&p, x, y)))
                fuzz_die(".cells write + read added a cell");
    for (int64_t y = 0; p.w > 0 && y < p.h; y++)
        for (int64_t x = 0; x < p.w; x++)
            if (pl_life_cell(&p, x, y) && (x >= q.w || y >= q.h || !pl_life_cell(&q, x, y)))
                fuzz_die(".cells write + read lost a cell");
    pl_life_pattern_free(&q);
done:
    unlink(rle_path);
    unlink(cells_path);
    pl_life_pattern_free(&p);
    return 0;
}
