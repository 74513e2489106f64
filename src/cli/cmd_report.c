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

int pl_cmd_report(int argc, char **argv)
{
    static const char *const with_value[] = {"-o", "--output", "--svg", NULL};
    tool_args ta = {"report", argc, argv, with_value, NULL, 1, 0};
    const char **inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *inputs);
    if (!inputs) {
        cli_error("report: no memory");
        return PL_EXIT_FAIL;
    }
    const char *out = NULL, *svg_dir = NULL;
    struct stat sb;
    int n = 0, rc = PL_EXIT_OK;
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) {
            free(inputs);
            return tool_stop(kind, usage);
        }
        if (kind == TOOL_POSITIONAL) inputs[n++] = val;
        else if (!strcmp(name, "-o") || !strcmp(name, "--output")) out = val;
        else if (!strcmp(name, "--svg")) svg_dir = val;
    }
    if (n == 0) {
        cli_error("report: needs one or more JSON files (parlab bench --json F; see parlab report --help)");
        rc = PL_EXIT_USAGE;
    } else if (!out) {
        cli_error("report: needs an output file: -o report.html");
        rc = PL_EXIT_USAGE;
    } else if ((rc = tool_check_output("report", "-o", out, inputs, n, TOOL_OUT_STDOUT)) != 0) {
        /* the message is printed */
    } else if (svg_dir && !strcmp(svg_dir, "-")) {
        rc = tool_check_output("report", "--svg", "-", NULL, 0, TOOL_OUT_FILE_ONLY);
    } else if (svg_dir && stat(svg_dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        cli_error("report: --svg %s: not a directory", svg_dir);
        rc = PL_EXIT_USAGE;
    } else {
        int plots = 0;
        pl_status s = pl_report_write(inputs, n, out, svg_dir, &plots);
        if (s != PL_OK) {
            cli_error("%s", pl_last_error());
            rc = s == PL_ERR_ARG ? PL_EXIT_USAGE : PL_EXIT_FAIL;
        } else {
            printf("%s: %d plots from %d file%s%s%s\n", out, plots, n, n > 1 ? "s" : "", svg_dir ? "; SVG files in " : "",
                   svg_dir ? svg_dir : "");
        }
    }
    free(inputs);
    return rc;
}
