/* report.h: `parlab report`: the JSON files `parlab bench --json` and `parlab sweep
 * --json` write, read back (io/json.h) and drawn as one self-contained HTML page of inline SVG
 * plots (svg.h): per kernel its ladder against the ceiling and the peer, a roofline per
 * machine, rate against working-set size, sweeps with the best setting marked, the phases of
 * GPU runs, and runs side by side. Nothing is written unless every file reads. */
#ifndef PL_REPORT_H
#define PL_REPORT_H

#include "core/core.h"

/* Read paths[0..n-1] and write the page to out_html (a temporary file renamed over it); with
 * svg_dir, every plot also as its own SVG file there (created if missing). A file that is not
 * parlab's JSON, or of another schema version, is PL_ERR_FORMAT naming the file and the field;
 * on any failure nothing is left written. *n_plots: the plots drawn. */
pl_status pl_report_write(const char *const *paths, int n, const char *out_html, const char *svg_dir, int *n_plots);

#endif
