/* cli.c: what the subcommands share: error messages, exit statuses, list splitting, and the
 * printing side of the distributed run's fault rule (cli_agree: the rule, and the message a
 * rank other than 0 keeps, are the distributed floor's, transport/fault_rule.c). */
#include "cli/cli.h"
#include "distributed/transport/distributed.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    char msg[4096];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (pl_dist_keep_error(msg)) return; /* a rank other than 0: kept for cli_agree */
    fprintf(stderr, "parlab: error: %s\n", msg);
}

int cli_fail(pl_status s)
{
    const char *msg = pl_last_error();
    cli_error("%s", msg && *msg ? msg : pl_status_name(s));
    return (s == PL_ERR_ARG || s == PL_ERR_OVERFLOW || s == PL_ERR_TOO_BIG) ? PL_EXIT_USAGE : PL_EXIT_FAIL;
}

int cli_agree(int rc)
{
    char first[1024];
    rc = pl_dist_agree_kept(rc, first, sizeof first);
    if (first[0]) cli_error("%s", first); /* rank 0: another rank's message */
    return rc;
}

int cli_status(pl_status s) { return s == PL_OK ? PL_EXIT_OK : cli_fail(s); }

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
