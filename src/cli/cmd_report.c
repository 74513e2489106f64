/* cmd_report.c: `parlab report RUN.json [RUN2.json ...] -o report.html [--svg DIR]`: the JSON
 * files of `parlab bench --json` and `parlab sweep --json` as one self-contained HTML page of
 * plots (src/report/). Exit status: 0 ok; 1 a file cannot be read or written, or is not
 * parlab's JSON (the file and the field named); 2 a usage error. */
#include "cli/tool.h"
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
    fputs("usage: parlab report RUN.json [RUN2.json ...] -o report.html [--svg DIR]\n"
          "\n"
          "Draw the results that `parlab bench --json F` and `parlab sweep --json F` wrote as one\n"
          "self-contained HTML page (inline SVG: no network, no JavaScript; prints on paper):\n"
          "  - per kernel, its ladder as bars (rate), the ceiling over each bar and the % of it\n"
          "    reached, the peers beside, the verification under each name;\n"
          "  - a roofline per machine: every variant at every size against the measured roofs;\n"
          "  - rate against working-set size per variant (log axes), where a kernel ran two sizes;\n"
          "  - sweeps: a bar per setting, the best named;\n"
          "  - the phases of GPU runs (allocation, copies in, kernel, copies out);\n"
          "  - with two files or more, each kernel's variants side by side across the runs.\n"
          "Each plot is titled with the machine and the date the file was written.\n"
          "\n"
          "options:\n"
          "  -o, --output FILE   the HTML page to write (required), whole or not at all; '-':\n"
          "                      standard output (this command's line then on stderr)\n"
          "  --svg DIR           also write each plot as its own SVG file in DIR (made if missing)\n"
          "  -h, --help          show this help\n"
          "\n"
          "Before any file is read, -o is checked: a directory, one of the input files, or a place\n"
          "no file can be created in is a usage error (2).\n"
          "\n"
          "exit status: 0 success; 1 a file cannot be read or written, or is not parlab's JSON of\n"
          "schema parlab-bench/2 (the file and the field are named; nothing is written); 2 usage error.\n",
          f);
}

enum { O_SVG = CLI_OPT_OWN };
static const cli_opt options[] = {CLI_ROWS_OUTPUT, {"--svg", "DIR", O_SVG, 0, NULL}};

/* What the command line asks for; the JSON files are the positional arguments (inputs). */
typedef struct report_args {
    const char **inputs;
    int n;
    const char *out, *svg_dir;
} report_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    report_args *r = user;
    if (!o) r->inputs[r->n++] = val;
    else if (o->id == CLI_OPT_OUTPUT) r->out = val;
    else r->svg_dir = val;
    return PL_EXIT_OK;
}

/* Inputs, an output that can be written (not one of them), an --svg that can be a directory. */
static int check_args(const report_args *r)
{
    struct stat sb;
    int rc;
    if (r->n == 0) {
        cli_error("report: needs one or more JSON files (parlab bench --json F; see parlab report --help)");
        return PL_EXIT_USAGE;
    }
    if (!r->out) {
        cli_error("report: needs an output file: -o report.html");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_check_output("report", "-o", r->out, r->inputs, r->n, TOOL_OUT_STDOUT)) != 0) return rc;
    if (r->svg_dir && !strcmp(r->svg_dir, "-"))
        return tool_check_output("report", "--svg", "-", NULL, 0, TOOL_OUT_FILE_ONLY);
    if (r->svg_dir && stat(r->svg_dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        cli_error("report: --svg %s: not a directory", r->svg_dir);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int pl_cmd_report(int argc, char **argv)
{
    report_args r = {.inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *r.inputs)};
    if (!r.inputs) {
        cli_error("report: no memory");
        return PL_EXIT_FAIL;
    }
    cli_args a = {.cmd = "report", .opts = options, .n_opts = sizeof options / sizeof *options};
    int rc = cli_parse(&a, argc, argv, take_option, &r, usage), plots = 0;
    if (rc == CLI_GO_ON && (rc = check_args(&r)) == PL_EXIT_OK) {
        pl_status s = pl_report_write(r.inputs, r.n, r.out, r.svg_dir, &plots);
        if (s != PL_OK) {
            cli_error("%s", pl_last_error());
            rc = s == PL_ERR_ARG ? PL_EXIT_USAGE : PL_EXIT_FAIL;
        } else {
            printf("%s: %d plots from %d file%s%s%s\n", r.out, plots, r.n, r.n > 1 ? "s" : "",
                   r.svg_dir ? "; SVG files in " : "", r.svg_dir ? r.svg_dir : "");
        }
    }
    free(r.inputs);
    return rc;
}
