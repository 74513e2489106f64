/* svg.h: the drawing under `parlab report`: a growing text buffer, and plots drawn into it as
 * SVG: axes with ticks a person can read (linear: steps of 1, 2 or 5 times a power of ten; log:
 * every decade labelled as a power of ten, 2 and 5 as minor ticks), titles, legends, and series
 * styles that stay apart in grey print (a fill and a hatch pattern, a marker shape and a dash
 * pattern each, not only a colour). */
#ifndef PL_REPORT_SVG_H
#define PL_REPORT_SVG_H

#include <stddef.h>

typedef struct svg_buf {
    char *text;
    size_t len, cap;
    int failed; /* an allocation failed: the text is incomplete */
} svg_buf;

void svg_printf(svg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text with &, <, >, " escaped */
void svg_escaped(svg_buf *b, const char *text);
void svg_free(svg_buf *b);

typedef struct plot_axis {
    double lo, hi;      /* the data range shown */
    int log;            /* log10 scale (lo > 0) */
    const char *label;  /* "GFLOP/s", with its unit */
} plot_axis;

/* A plot: an SVG of w x h pixels with a title (and a second line: the machine and the date),
 * its drawing area inside margins for the axes. */
typedef struct plot {
    svg_buf *b;
    double w, h;
    double left, top, right, bottom; /* the drawing area, pixels */
    plot_axis x, y;
    int n_categories;                /* x as categories (bars): 0 for a numeric x */
} plot;

enum { PLOT_STYLES = 8 };

/* <svg ...> with the title block; the area keeps room for category labels when n_cat > 0. */
void plot_begin(plot *p, svg_buf *b, double w, double h, const char *title, const char *subtitle, int n_cat);
void plot_end(plot *p);
/* A value's pixel on an axis (clamped to the area). */
double plot_x(const plot *p, double v);
double plot_y(const plot *p, double v);
/* The centre of category i of n on x. */
double plot_cat_x(const plot *p, int i);
/* Axes, ticks, grid lines and axis labels (numeric x unless n_categories). */
void plot_axes(plot *p);
/* Category labels under the x axis (each may be two lines: "a\nb"), rotated when crowded. */
void plot_cat_labels(plot *p, const char *const *labels, int n);
/* The style of series i: fill colour, hatch id, stroke dash, marker. */
const char *plot_colour(int i);
/* A bar of category i (of `of` bars in the group, j-th) from 0 to v; style s; data-value v.
 * A v past the axis top is drawn up to it, a break across its top, data-clipped="1". */
void plot_bar(plot *p, int i, int j, int of, double v, int style, const char *tooltip);
/* A marker of style s at (x, y) (data coordinates). */
void plot_marker(plot *p, double x, double y, int style, const char *tooltip);
/* A polyline through n points of style s (points outside a log axis's range are skipped). */
void plot_line(plot *p, const double *xs, const double *ys, int n, int style, int dashed);
/* The legend: a row (two at most) under the subtitle, entry i a name and a style drawn as a bar
 * swatch (kinds[i] 0), a line (1) or a marker (2). */
void plot_legend(plot *p, const char *const *names, const int *styles, const int *kinds, int n);
/* Text at data coordinates (anchor: "start", "middle", "end"). */
void plot_text(plot *p, double px, double py, const char *anchor, const char *text, int small);

/* A number as a person reads it: 3 significant digits, k/M/G for large, e-notation for tiny. */
void plot_format(char *buf, size_t n, double v);

#endif
