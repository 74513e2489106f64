/* text_table.c: a table of text cells written for a person (each column padded to its widest
 * cell, two spaces between columns) or as a Markdown table (GitHub's pipes, '|' in a cell
 * escaped, numbers' columns aligned right), from the same cells: what parlab compare prints and
 * what a Markdown file of a bench holds. */
#include "harness/harness.h"

#include <string.h>

static void markdown_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
    fputs(" |", f);
}

void pl_text_table_write(FILE *f, const char *const *cells, int n_rows, int n_cols, const char *align, int markdown)
{
    if (markdown) {
        for (int r = 0; r < n_rows; r++) {
            fputc('|', f);
            for (int c = 0; c < n_cols; c++) markdown_cell(f, cells[r * n_cols + c]);
            fputc('\n', f);
            if (r == 0) {
                fputc('|', f);
                for (int c = 0; c < n_cols; c++) fputs(align[c] == 'r' ? " ---: |" : " --- |", f);
                fputc('\n', f);
            }
        }
        return;
    }
    int width[64] = {0};
    for (int r = 0; r < n_rows; r++)
        for (int c = 0; c < n_cols && c < 64; c++) {
            const int w = (int)strlen(cells[r * n_cols + c]);
            if (w > width[c]) width[c] = w;
        }
    for (int r = 0; r < n_rows; r++) {
        for (int c = 0; c < n_cols && c < 64; c++) {
            const char *s = cells[r * n_cols + c];
            const int last = c + 1 == n_cols;
            if (align[c] == 'r') fprintf(f, "%*s", width[c], s);
            else fprintf(f, "%-*s", last ? 0 : width[c], s);
            if (!last) fputs("  ", f);
        }
        fputc('\n', f);
    }
}
