/* options.c: the one argument loop over a command's option table, and the parsers of the
 * values several commands share (see options.h). */
#include "cli/options.h"

#include "core/core.h"

#include <string.h>

/* The row named name[0..len) that belongs to this command, or NULL. */
static const cli_opt *find_option(const cli_args *a, const char *name, size_t len)
{
    for (int i = 0; i < a->n_opts; i++) {
        const cli_opt *o = &a->opts[i];
        const int ours = !o->cmds || !a->cmd_bit || (o->cmds & a->cmd_bit);
        if (ours && strlen(o->name) == len && !strncmp(o->name, name, len)) return o;
    }
    return NULL;
}

/* A positional argument: into a->pos, or to take. */
static int take_positional(cli_args *a, const char *val, cli_take_fn take, void *user)
{
    if (!a->pos) return take(user, NULL, val);
    if (a->n_pos == a->max_pos) {
        cli_error("%s: unexpected argument '%s' (takes %s; see --help)", a->cmd, val, a->takes);
        return PL_EXIT_USAGE;
    }
    a->pos[a->n_pos++] = val;
    return PL_EXIT_OK;
}

/* An argument that is an option: "-x", "--name", "--name=value"; "-" and "-4" are not. */
static int is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9');
}

int cli_parse(cli_args *a, int argc, char **argv, cli_take_fn take, void *user, void (*usage)(FILE *))
{
    int rc, only_positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || !is_option(arg)) {
            if ((rc = take_positional(a, arg, take, user)) != PL_EXIT_OK) return rc;
            continue;
        }
        if (!strcmp(arg, "--")) {
            only_positional = 1;
            continue;
        }
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return PL_EXIT_OK;
        }
        const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
        const cli_opt *o = find_option(a, arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (!o) {
            cli_error("%s: unknown option '%s' (see parlab %s --help)", a->cmd, arg, a->cmd);
            return PL_EXIT_USAGE;
        }
        const char *val = NULL;
        if (!o->arg && eq) {
            cli_error("%s: %s takes no value", a->cmd, o->name);
            return PL_EXIT_USAGE;
        }
        if (o->arg) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else {
                cli_error("%s: %s needs a value (%s)", a->cmd, o->name, o->arg);
                return PL_EXIT_USAGE;
            }
            if (!*val) {
                cli_error("%s: %s: '' is not a value", a->cmd, o->name);
                return PL_EXIT_USAGE;
            }
        }
        if ((rc = take(user, o, val)) != PL_EXIT_OK) return rc;
    }
    return CLI_GO_ON;
}

void cli_options_help(FILE *f, const cli_opt *opts, int n_opts, unsigned cmd_bit)
{
    for (int i = 0; i < n_opts; i++) {
        const cli_opt *o = &opts[i];
        if (!o->help || (o->cmds && !(o->cmds & cmd_bit))) continue;
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        int w = (int)strlen(head);
        fprintf(f, "  %s", head);
        if (w > 24) fprintf(f, "\n  %-24s", "");
        else fprintf(f, "%*s", 24 - w, "");
        for (const char *h = o->help; *h; h++) {
            fputc(*h, f);
            if (*h == '\n') fprintf(f, "  %-24s", "");
        }
        fputc('\n', f);
    }
}

int cli_parse_threads(const char *val, long *threads)
{
    if (cli_parse_int("--threads", val, 1, PL_MAX_THREADS, threads)) return PL_EXIT_USAGE;
    if (*threads > pl_cpu_cores())
        fprintf(stderr, "parlab: note: --threads %ld is more than the %d cores here: the threads share cores, and "
                "rates drop\n", *threads, pl_cpu_cores());
    return PL_EXIT_OK;
}

int cli_parse_device(const char *val, long *device) { return cli_parse_int("--device", val, 0, 1023, device); }
