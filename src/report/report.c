/* report.c: pl_report_write and the page. Every file is read and checked (report_read.c), the
 * files of one suite merged into one run, the plots drawn into one buffer each
 * (report_plots.c); then the page is assembled: a table of the files (machine, date, command,
 * results), each figure under its heading with its caption; last the page (and, asked for, the
 * SVG files) written whole: on any failure nothing is left written. */
#include "report/report.h"
#include "io/io.h"
#include "report/report_parts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void html_escaped(svg_buf *b, const char *s) { svg_escaped(b, s); }

static void build_page(svg_buf *h, const run *runs, int nr, const page *pg)
{
    svg_printf(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>parlab report</title>"
                  "<style>\nbody{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px;color:#111;max-width:900px}"
                  "\nh1{font-size:22px}h2{font-size:17px;margin-top:28px}figure{margin:12px 0 28px 0;"
                  "page-break-inside:avoid;break-inside:avoid}figcaption{font-size:12px;color:#333;max-width:860px}"
                  "\ntable{border-collapse:collapse;font-size:12px}td,th{border:1px solid #999;padding:3px 6px;"
                  "text-align:left}\n@media print{body{margin:0}h2{page-break-after:avoid}}\n</style></head><body>\n");
    svg_printf(h, "<h1>parlab report</h1>\n<table class=\"runs\"><tr><th>file</th><th>machine</th><th>date</th>"
                  "<th>command</th><th>results</th></tr>\n");
    for (int q = 0; q < nr; q++) {
        svg_printf(h, "<tr><td>");
        html_escaped(h, runs[q].path);
        svg_printf(h, "</td><td>");
        html_escaped(h, runs[q].label);
        svg_printf(h, "</td><td>");
        html_escaped(h, runs[q].date);
        svg_printf(h, "</td><td><code>");
        html_escaped(h, runs[q].command);
        svg_printf(h, "</code></td><td>%d</td></tr>\n", runs[q].n);
    }
    svg_printf(h, "</table>\n");
    for (int i = 0; i < pg->n; i++) {
        svg_printf(h, "<h2>");
        html_escaped(h, pg->fig[i].heading);
        svg_printf(h, "</h2>\n<figure id=\"%s\">", pg->fig[i].name);
        svg_printf(h, "%s", pg->fig[i].svg.text ? pg->fig[i].svg.text : "");
        svg_printf(h, "<figcaption>");
        html_escaped(h, pg->fig[i].caption);
        svg_printf(h, "</figcaption></figure>\n");
    }
    svg_printf(h, "</body></html>\n");
}

static pl_status write_text(const char *path, const char *prefix, const svg_buf *b)
{
    pl_tmp t;
    pl_status s = pl_tmp_open(path, &t);
    if (s != PL_OK) return s;
    if ((prefix && pl_write_full(t.fd, prefix, strlen(prefix)) != 0) || pl_write_full(t.fd, b->text, b->len) != 0)
        s = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return pl_tmp_close(path, &t, s);
}

pl_status pl_report_write(const char *const *paths, int n, const char *out_html, const char *svg_dir, int *n_plots)
{
    if (n_plots) *n_plots = 0;
    if (n < 1) return pl_fail(PL_ERR_ARG, "report: no input files");
    run *runs = calloc((size_t)n, sizeof *runs);
    if (!runs) return pl_fail(PL_ERR_NOMEM, "report: no memory");
    pl_status s = PL_OK;
    for (int q = 0; q < n && s == PL_OK; q++) s = report_read_run(paths[q], &runs[q]);
    run *files = runs;
    const int n_files = n;
    runs = NULL;
    if (s == PL_OK) s = report_merge_runs(files, n_files, &runs, &n);
    page pg = {0};
    svg_buf html = {0};
    int made_dir = 0, written = 0;
    if (s == PL_OK) {
        report_draw_plots(&pg, runs, n);
        for (int i = 0; i < pg.n; i++) pg.failed |= pg.fig[i].svg.failed;
        if (pg.failed) s = pl_fail(PL_ERR_NOMEM, "report: no memory for the plots");
        else if (pg.n == 0) s = pl_fail(PL_ERR_ARG, "report: the files hold no results to draw");
    }
    if (s == PL_OK) {
        build_page(&html, files, n_files, &pg);
        if (html.failed) s = pl_fail(PL_ERR_NOMEM, "report: no memory for the page");
    }
    if (s == PL_OK && svg_dir) {
        struct stat sb;
        if (stat(svg_dir, &sb) != 0) {
            if (mkdir(svg_dir, 0777) != 0) s = pl_fail(PL_ERR_IO, "%s: cannot create: %s", svg_dir, strerror(errno));
            else made_dir = 1;
        } else if (!S_ISDIR(sb.st_mode)) {
            s = pl_fail(PL_ERR_IO, "%s: not a directory", svg_dir);
        }
        for (int i = 0; i < pg.n && s == PL_OK; i++, written++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.svg", svg_dir, pg.fig[i].name);
            s = write_text(path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", &pg.fig[i].svg);
        }
    }
    if (s == PL_OK) s = write_text(out_html, NULL, &html);
    if (s != PL_OK && svg_dir) { /* nothing left behind: the SVGs written, the directory made */
        for (int i = 0; i < written; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.svg", svg_dir, pg.fig[i].name);
            unlink(path);
        }
        if (made_dir) rmdir(svg_dir);
    }
    if (s == PL_OK && n_plots) *n_plots = pg.n;
    for (int i = 0; i < pg.n; i++) svg_free(&pg.fig[i].svg);
    free(pg.fig);
    svg_free(&html);
    for (int q = 0; runs && q < n; q++) free(runs[q].res);
    free(runs);
    for (int q = 0; q < n_files; q++) report_free_run(&files[q]);
    free(files);
    return s;
}
