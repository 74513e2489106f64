/* cli.c: what the subcommands share: error messages, exit statuses, list splitting, and the
 * distributed run's fault rule (cli_agree). */
#include "cli/cli.h"
#include "dist/dist.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* On a rank other than 0 of a distributed run, the first error message is kept here for
 * cli_agree instead of printed (rank 0 prints the one message of a run). */
static int errors_kept;
static char kept[1024];

void cli_keep_errors(void) { errors_kept = 1; }

void cli_error(const char *fmt, ...)
{
    va_list ap;
    if (errors_kept) {
        if (!kept[0]) {
            va_start(ap, fmt);
            vsnprintf(kept, sizeof kept, fmt, ap);
            va_end(ap);
        }
        return;
    }
    fputs("parlab: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_fail(pl_status s)
{
    const char *msg = pl_last_error();
    cli_error("%s", msg && *msg ? msg : pl_status_name(s));
    return (s == PL_ERR_ARG || s == PL_ERR_OVERFLOW || s == PL_ERR_TOO_BIG) ? PL_EXIT_USAGE : PL_EXIT_FAIL;
}

int cli_agree(int rc)
{
    if (!pl_dist_active()) return rc;
    char first[1024];
    int from = -1;
    rc = pl_dist_agree(rc, kept, first, sizeof first, &from);
    if (from > 0) cli_error("%s", first); /* rank 0 printed its own already */
    kept[0] = '\0';
    return rc;
}

int cli_split(const char *list, char *buf, size_t bufsize, char **items, int max)
{
    snprintf(buf, bufsize, "%s", list);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
        items[n++] = tok;
    return n;
}

int cli_parse_int(const char *opt, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
        cli_error("%s: '%s' is not an integer in %ld..%ld", opt, text ? text : "", lo, hi);
        return PL_EXIT_USAGE;
    }
    *out = v;
    return PL_EXIT_OK;
}
