/* file.c: Life patterns as files through the public header (pl_life_file_read/write): io's
 * pattern reader and writer (io/life_pattern.c) with the rule checked by this room and given
 * as canonical text, so a caller outside the library (the Python package) needs no internal
 * header. */
#include "core/core.h"
#include "io/life_pattern.h"
#include "kernels/life/rule.h"

#include <string.h>

pl_status pl_life_file_read(const char *path, pl_life_file *f)
{
    if (!path || !f) return pl_fail(PL_ERR_ARG, "pl_life_file_read: NULL argument");
    memset(f, 0, sizeof *f);
    pl_life_pattern p;
    pl_status s = pl_life_read(path, &p);
    if (s != PL_OK) return s;
    pl_life_rule rule;
    if ((s = pl_life_rule_parse_at(p.rule, path, p.rule_line, p.rule_col, &rule)) != PL_OK) {
        pl_life_pattern_free(&p);
        return s;
    }
    f->w = p.w;
    f->h = p.h;
    f->bits = p.bits; /* handed over: pl_life_file_free frees it */
    p.bits = NULL;
    pl_life_rule_format(&rule, f->rule, sizeof f->rule);
    f->grid = p.grid;
    f->grid_w = p.grid_w;
    f->grid_h = p.grid_h;
    f->x0 = p.x0;
    f->y0 = p.y0;
    pl_life_pattern_free(&p);
    return PL_OK;
}

pl_status pl_life_file_write(const char *path, const pl_life_file *f)
{
    if (!path || !f) return pl_fail(PL_ERR_ARG, "pl_life_file_write: NULL argument");
    if (f->w < 0 || f->h < 0) return pl_fail(PL_ERR_ARG, "pl_life_file_write: size %lldx%lld", (long long)f->w, (long long)f->h);
    if (f->w > 0 && f->h > 0 && !f->bits) return pl_fail(PL_ERR_ARG, "pl_life_file_write: NULL bits");
    if (f->grid < PL_LIFE_UNBOUNDED || f->grid > PL_LIFE_PLANE)
        return pl_fail(PL_ERR_ARG, "pl_life_file_write: grid %d (0 unbounded, 1 torus, 2 plane)", f->grid);
    pl_life_pattern p;
    memset(&p, 0, sizeof p);
    pl_life_rule rule;
    pl_status s = pl_life_rule_parse(f->rule[0] ? f->rule : "B3/S23", &rule);
    if (s != PL_OK) return s;
    pl_life_rule_format(&rule, p.rule, sizeof p.rule);
    p.w = f->w;
    p.h = f->h;
    p.words_per_row = (f->w + 63) / 64;
    p.bits = f->bits; /* borrowed: not freed here */
    p.grid = f->grid;
    p.grid_w = f->grid_w;
    p.grid_h = f->grid_h;
    p.x0 = f->x0;
    p.y0 = f->y0;
    return pl_life_write(path, &p);
}

void pl_life_file_free(pl_life_file *f)
{
    if (!f) return;
    pl_free(f->bits);
    f->bits = NULL;
}
