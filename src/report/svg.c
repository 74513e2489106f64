/* svg.c: the plots of svg.h. Pixel sizes and margins are fixed so that every plot reads the
 * same way: title and subtitle on top, y label on the left, x label or category names below. */
#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void svg_printf(svg_buf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = b->text ? vsnprintf(b->text + b->len, room, fmt, ap) : -1;
        va_end(ap);
        if (n >= 0 && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 65536;
        while (n >= 0 && cap - b->len <= (size_t)n) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) {
            b->failed = 1;
            return;
        }
        b->text = t, b->cap = cap;
    }
}

void svg_escaped(svg_buf *b, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': svg_printf(b, "&amp;"); break;
        case '<': svg_printf(b, "&lt;"); break;
        case '>': svg_printf(b, "&gt;"); break;
        case '"': svg_printf(b, "&quot;"); break;
        default: svg_printf(b, "%c", *c);
        }
    }
}

void svg_free(svg_buf *b)
{
    free(b->text);
    memset(b, 0, sizeof *b);
}

/* Colours of different lightness (so grey print keeps them apart), each with its own hatch,
 * marker and dash. */
static const char *const colours[PLOT_STYLES] = {"#1f3b73", "#e08214", "#7fbf7b", "#542788",
                                                 "#b2182b", "#9ecae1", "#4d4d4d", "#fdb863"};
static const char *const dashes[PLOT_STYLES] = {"", "7 3", "2 2", "9 3 2 3", "4 4", "1 3", "12 4", "5 2 1 2"};
const char *plot_colour(int i) { return colours[((i % PLOT_STYLES) + PLOT_STYLES) % PLOT_STYLES]; }

void plot_format(char *buf, size_t n, double v)
{
    double a = fabs(v);
    if (!isfinite(v)) snprintf(buf, n, "-");
    else if (a == 0) snprintf(buf, n, "0");
    else if (a >= 1e9) snprintf(buf, n, "%.3gG", v / 1e9);
    else if (a >= 1e6) snprintf(buf, n, "%.3gM", v / 1e6);
    else if (a >= 1e4) snprintf(buf, n, "%.3gk", v / 1e3);
    else if (a >= 1e3) snprintf(buf, n, "%.0f", v); /* 1000..9999 as digits, not "1e+03" */
    else if (a >= 1e-2) snprintf(buf, n, "%.3g", v);
    else snprintf(buf, n, "%.2e", v);
}

static void hatch_defs(svg_buf *b)
{
    /* hatch i: lines at an angle (none for style 0), white over the fill */
    static const int angles[PLOT_STYLES] = {-1, 45, -45, 0, 90, 45, -45, 0};
    static const int crossed[PLOT_STYLES] = {0, 0, 0, 0, 0, 1, 1, 1};
    svg_printf(b, "<defs>");
    for (int i = 1; i < PLOT_STYLES; i++) {
        svg_printf(b, "<pattern id=\"pl-hatch%d\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                      "patternTransform=\"rotate(%d)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#fff\" "
                      "stroke-width=\"1.6\"/>%s</pattern>",
                   i, angles[i], crossed[i] ? "<line x1=\"0\" y1=\"3\" x2=\"6\" y2=\"3\" stroke=\"#fff\" stroke-width=\"1\"/>" : "");
    }
    svg_printf(b, "</defs>");
}

void plot_begin(plot *p, svg_buf *b, double w, double h, const char *title, const char *subtitle, int n_cat)
{
    memset(p, 0, sizeof *p);
    p->b = b, p->w = w, p->h = h, p->n_categories = n_cat;
    p->left = 78, p->right = w - 24, p->top = 86, p->bottom = h - (n_cat > 0 ? 96 : 50);
    svg_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%g\" height=\"%g\" "
                  "viewBox=\"0 0 %g %g\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">",
               w, h, w, h);
    hatch_defs(b);
    svg_printf(b, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"#fff\"/>", w, h);
    svg_printf(b, "<text class=\"title\" x=\"%g\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", p->left);
    svg_escaped(b, title);
    svg_printf(b, "</text><text class=\"subtitle\" x=\"%g\" y=\"38\" fill=\"#444\">", p->left);
    svg_escaped(b, subtitle);
    svg_printf(b, "</text>");
}

void plot_end(plot *p) { svg_printf(p->b, "</svg>\n"); }

static double to_px(const plot_axis *a, double v, double p0, double p1)
{
    double t;
    if (a->log) t = (log10(v > 0 ? v : a->lo) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    else t = (v - a->lo) / (a->hi - a->lo);
    if (!isfinite(t)) t = 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return p0 + t * (p1 - p0);
}

double plot_x(const plot *p, double v) { return to_px(&p->x, v, p->left, p->right); }
double plot_y(const plot *p, double v) { return to_px(&p->y, v, p->bottom, p->top); }

double plot_cat_x(const plot *p, int i)
{
    const double slot = (p->right - p->left) / (p->n_categories > 0 ? p->n_categories : 1);
    return p->left + slot * (i + 0.5);
}

/* A nice linear step: 1, 2 or 5 times a power of ten, about `want` ticks over the range. */
static double nice_step(double range, int want)
{
    double raw = range / want, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
}

/* The axis range made nice: linear from lo to a multiple of the step above hi; log to decades. */
static void nice_range(plot_axis *a)
{
    if (a->log) {
        a->lo = pow(10, floor(log10(a->lo)));
        a->hi = pow(10, ceil(log10(a->hi)));
        if (a->hi <= a->lo) a->hi = a->lo * 10;
    } else {
        if (a->hi <= a->lo) a->hi = a->lo + 1;
        double step = nice_step(a->hi - a->lo, 5);
        a->hi = ceil(a->hi / step - 1e-9) * step;
        a->lo = floor(a->lo / step + 1e-9) * step;
    }
}

static void tick_label(svg_buf *b, double v, int log)
{
    if (log) {
        int k = (int)lround(log10(v));
        svg_printf(b, "10<tspan dy=\"-6\" font-size=\"9\">%d</tspan>", k);
    } else {
        char t[32];
        plot_format(t, sizeof t, v);
        svg_escaped(b, t);
    }
}

static void ticks(plot *p, int vertical)
{
    plot_axis *a = vertical ? &p->y : &p->x;
    svg_buf *b = p->b;
    if (a->log) {
        for (double d = a->lo; d <= a->hi * 1.0001; d *= 10)
            for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3)) { /* 1, 2, 5 x the decade */
                const double v = d * m;
                if (v > a->hi * 1.0001) break;
                const double q = vertical ? plot_y(p, v) : plot_x(p, v);
                if (vertical)
                    svg_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
                               p->left, q, p->right, q, m == 1 ? "#ccc" : "#eee");
                else
                    svg_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
                               q, p->top, q, p->bottom, m == 1 ? "#ccc" : "#eee");
                if (m != 1) continue;
                if (vertical) svg_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p->left - 6, q + 4);
                else svg_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", q, p->bottom + 18);
                tick_label(b, v, 1);
                svg_printf(b, "</text>");
            }
        return;
    }
    const double step = nice_step(a->hi - a->lo, 5);
    for (double v = a->lo; v <= a->hi + step * 1e-6; v += step) {
        const double q = vertical ? plot_y(p, v) : plot_x(p, v);
        if (vertical) {
            svg_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
                       p->left, q, p->right, q);
            svg_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p->left - 6, q + 4);
        } else {
            svg_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
                       q, p->top, q, p->bottom);
            svg_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", q, p->bottom + 18);
        }
        tick_label(b, fabs(v) < step * 1e-9 ? 0 : v, 0);
        svg_printf(b, "</text>");
    }
}

void plot_axes(plot *p)
{
    svg_buf *b = p->b;
    nice_range(&p->y);
    if (!p->n_categories) nice_range(&p->x);
    ticks(p, 1);
    if (!p->n_categories) ticks(p, 0);
    svg_printf(b, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                  "stroke=\"#333\"/>", p->left, p->top, p->right - p->left, p->bottom - p->top);
    svg_printf(b, "<text class=\"axis-label\" transform=\"translate(16,%.1f) rotate(-90)\" text-anchor=\"middle\">",
               (p->top + p->bottom) / 2);
    svg_escaped(b, p->y.label ? p->y.label : "");
    svg_printf(b, "</text>");
    if (!p->n_categories) {
        svg_printf(b, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (p->left + p->right) / 2,
                   p->h - 12);
        svg_escaped(b, p->x.label ? p->x.label : "");
        svg_printf(b, "</text>");
    }
}

void plot_cat_labels(plot *p, const char *const *labels, int n)
{
    const double slot = (p->right - p->left) / (n > 0 ? n : 1);
    const int rotate = slot < 70;
    for (int i = 0; i < n; i++) {
        const double x = plot_cat_x(p, i), y = p->bottom + 14;
        char line[256];
        snprintf(line, sizeof line, "%s", labels[i]);
        char *second = strchr(line, '\n');
        if (second) *second++ = 0;
        if (rotate)
            svg_printf(p->b, "<text class=\"category\" transform=\"translate(%.1f,%.1f) rotate(-35)\" "
                             "text-anchor=\"end\" font-size=\"11\">", x, y);
        else
            svg_printf(p->b, "<text class=\"category\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">", x, y);
        svg_escaped(p->b, line);
        if (second) {
            svg_printf(p->b, "<tspan x=\"%.1f\" dy=\"13\" fill=\"#555\" font-size=\"10\">", rotate ? 0.0 : x);
            svg_escaped(p->b, second);
            svg_printf(p->b, "</tspan>");
        }
        svg_printf(p->b, "</text>");
    }
}

void plot_bar(plot *p, int i, int j, int of, double v, int style, const char *tooltip)
{
    const double slot = (p->right - p->left) / (p->n_categories > 0 ? p->n_categories : 1);
    const double group = slot * 0.76, bw = group / (of > 0 ? of : 1);
    const double x = p->left + slot * i + (slot - group) / 2 + bw * j;
    const double y0 = plot_y(p, p->y.log ? p->y.lo : 0), y1 = plot_y(p, v);
    const int s = ((style % PLOT_STYLES) + PLOT_STYLES) % PLOT_STYLES;
    const int clipped = v > p->y.hi; /* drawn up to the axis top, and marked cut off there */
    svg_printf(p->b, "<g class=\"bar\" data-value=\"%.6g\"%s><title>", v, clipped ? " data-clipped=\"1\"" : "");
    svg_escaped(p->b, tooltip ? tooltip : "");
    svg_printf(p->b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#222\" "
                     "stroke-width=\"0.6\"/>", x, y1, bw * 0.94, y0 - y1, colours[s]);
    if (s) svg_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#pl-hatch%d)\"/>", x, y1,
                      bw * 0.94, y0 - y1, s);
    if (clipped) /* a break across the bar's top: the bar goes on past the axis */
        svg_printf(p->b, "<path class=\"cut\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1f\" fill=\"none\" "
                         "stroke=\"#fff\" stroke-width=\"3\"/>", x, y1 + 8, x + bw * 0.235, y1 + 4, x + bw * 0.47,
                   y1 + 8, x + bw * 0.705, y1 + 4, x + bw * 0.94, y1 + 8);
    svg_printf(p->b, "</g>");
}

/* Marker shape s centred at pixel (px, py). */
static void draw_marker(svg_buf *b, double px, double py, int s)
{
    const double r = 5;
    const char *fill = colours[s];
    switch (s) {
    case 0: svg_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\" stroke=\"#000\"/>", px, py, r, fill); break;
    case 1: svg_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%g\" height=\"%g\" fill=\"%s\" stroke=\"#000\"/>", px - r, py - r, 2 * r, 2 * r, fill); break;
    case 2: svg_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"#000\"/>", px, py - r - 1, px + r + 1, py + r, px - r - 1, py + r, fill); break;
    case 3: svg_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"#000\"/>", px, py - r - 1, px + r + 1, py, px, py + r + 1, px - r - 1, py, fill); break;
    case 4: svg_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>", px - r, py - r, px + r, py + r, px - r, py + r, px + r, py - r, fill); break;
    case 5: svg_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2.5\"/>", px, py, r, fill); break;
    case 6: svg_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"#000\"/>", px, py + r + 1, px + r + 1, py - r, px - r - 1, py - r, fill); break;
    default: svg_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>", px - r, py, px + r, py, px, py - r, px, py + r, fill);
    }
}

void plot_marker(plot *p, double x, double y, int style, const char *tooltip)
{
    const int s = ((style % PLOT_STYLES) + PLOT_STYLES) % PLOT_STYLES;
    svg_printf(p->b, "<g class=\"point\" data-x=\"%.6g\" data-y=\"%.6g\"><title>", x, y);
    svg_escaped(p->b, tooltip ? tooltip : "");
    svg_printf(p->b, "</title>");
    draw_marker(p->b, plot_x(p, x), plot_y(p, y), s);
    svg_printf(p->b, "</g>");
}

void plot_line(plot *p, const double *xs, const double *ys, int n, int style, int dashed)
{
    const int s = ((style % PLOT_STYLES) + PLOT_STYLES) % PLOT_STYLES;
    svg_printf(p->b, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s points=\"",
               colours[s], dashed && dashes[s][0] ? " stroke-dasharray=\"" : "", dashed ? dashes[s] : "",
               dashed && dashes[s][0] ? "\"" : "");
    for (int i = 0; i < n; i++) {
        if ((p->x.log && !(xs[i] > 0)) || (p->y.log && !(ys[i] > 0)) || !isfinite(xs[i]) || !isfinite(ys[i])) continue;
        svg_printf(p->b, "%.1f,%.1f ", plot_x(p, xs[i]), plot_y(p, ys[i]));
    }
    svg_printf(p->b, "\"/>");
}

void plot_legend(plot *p, const char *const *names, const int *styles, const int *kinds, int n)
{
    /* a row (two at most) under the subtitle, above the drawing area */
    double x = p->left, y = 56;
    svg_printf(p->b, "<g class=\"legend\">");
    for (int i = 0; i < n; i++) {
        const int s = ((styles[i] % PLOT_STYLES) + PLOT_STYLES) % PLOT_STYLES;
        const double w = 34 + 6.4 * (double)strlen(names[i]) + 16;
        if (x + w > p->right && x > p->left) x = p->left, y += 15;
        if (kinds[i] == 2) {
            draw_marker(p->b, x + 12, y, s);
        } else if (kinds[i] == 1) {
            svg_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>",
                       x, y, x + 26, y, colours[s], dashes[s][0] ? " stroke-dasharray=\"" : "", dashes[s],
                       dashes[s][0] ? "\"" : "");
        } else {
            svg_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"26\" height=\"11\" fill=\"%s\" stroke=\"#222\"/>", x, y - 6, colours[s]);
            if (s) svg_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"26\" height=\"11\" fill=\"url(#pl-hatch%d)\"/>", x, y - 6, s);
        }
        svg_printf(p->b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", x + 32, y + 4);
        svg_escaped(p->b, names[i]);
        svg_printf(p->b, "</text>");
        x += w;
    }
    svg_printf(p->b, "</g>");
}

void plot_text(plot *p, double px, double py, const char *anchor, const char *text, int small)
{
    svg_printf(p->b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", px, py, anchor, small ? 10 : 12);
    svg_escaped(p->b, text);
    svg_printf(p->b, "</text>");
}
