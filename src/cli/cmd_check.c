/* cmd_check.c: `parlab check KERNEL --variant V` (or --rung LIB:FN, a user's own rung): the
 * correctness suite alone, before anything is timed. Each variant runs on every check case its kernel declares (odd shapes, every
 * problem parameter's values) at a few seeds the user does not choose; a line per case, and for
 * a failure the worst element with its value, the reference and the bound it broke. The runs
 * and checks are the library's (harness/check.c, pl_check_variant); this file picks the
 * variants, makes the contexts and prints. */
#include "cli/session.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f, "usage: parlab check KERNEL [--variant V,...|all] [--rung LIB:FN ...] [--seed S,...] [--threads N]\n"
           "                    [--device D]\n"
           "       parlab check KERNEL --cases\n\n"
           "The correctness suite alone, as a student runs it before timing anything. Each\n"
           "variant runs on every check case of the kernel (--cases lists them): sizes of 1,\n"
           "primes, sizes that are no multiple of any tile, odd widths and pitches (rows that do\n"
           "not start on a 16-byte boundary), and every problem parameter's values. Each case\n"
           "runs at %d seeds: 42 (bench's), 7919, and one new each time. Each run is bench's\n"
           "with one warm-up and one timed run: outputs poisoned, both runs checked element by\n"
           "element against the float64 reference and its bound, the padding between rows\n"
           "untouched, the inputs unchanged. A failure names the worst element (operand, row,\n"
           "column, its value, the reference and the bound it broke) and how many elements are\n"
           "wrong; a case a rung does not take (cpu-sparse on a torus) is a skip.\n\n"
           "options:\n"
           "  --variant V,...|all       the variants to check (default: all, every rung that can\n"
           "                            run here, or none with --rung; peers are checked when named)\n"
           "  --rung LIB:FN             your own rung: function FN of shared library LIB, with the\n"
           "                            signature include/parlab_rung.h gives (docs/your-kernel.md);\n"
           "                            repeatable; it runs in this process (a crash ends the check)\n"
           "  --rung-name NAME          the name of the --rung before it (default: FN)\n"
           "  --rung-backend cpu|cuda   the backend of the --rung before it (default: as declared)\n"
           "  --seed S,...              these seeds instead of the %d (one replays a failed line)\n"
           "  --cases                   list the kernel's check cases and exit\n"
           "  --threads N               " CLI_THREADS_HELP "\n"
           "  --device D                CUDA device (default 0)\n"
           "  -h, --help                print this help\n\n"
           "Exit status: 0 every case passed, 1 a case failed (or a named variant cannot run\n"
           "here), 2 usage error.\n",
           PL_CHECK_SEEDS, PL_CHECK_SEEDS);
}

enum { O_SEED = CLI_OPT_OWN, O_CASES, O_RUNG };
enum { MAX_SEEDS = 64 };
static const cli_opt options[] = {
    {"--variant", "V", CLI_OPT_VARIANT, 0, NULL}, {"--threads", "N", CLI_OPT_THREADS, 0, NULL},
    {"--device", "D", CLI_OPT_DEVICE, 0, NULL},   {"--seed", "S,...", O_SEED, 0, NULL},
    {"--cases", NULL, O_CASES, 0, NULL},          {"--rung", "LIB:FN", O_RUNG, 0, NULL},
    {"--rung-name", "NAME", O_RUNG, 0, NULL},     {"--rung-backend", "cpu|cuda", O_RUNG, 0, NULL},
};

typedef struct check_args {
    const char *variants;
    long threads, device;
    int list_cases;
    int n_seeds; /* 0: the default seeds */
    uint64_t seeds[MAX_SEEDS];
    cli_rungs rungs; /* --rung and its name and backend */
} check_args;

static int take(void *user, const cli_opt *o, const char *val)
{
    check_args *a = user;
    switch (o->id) {
    case CLI_OPT_VARIANT: a->variants = val; return PL_EXIT_OK;
    case CLI_OPT_THREADS: return cli_parse_threads(val, &a->threads);
    case CLI_OPT_DEVICE: return cli_parse_device(val, &a->device);
    case O_CASES: a->list_cases = 1; return PL_EXIT_OK;
    case O_RUNG: return cli_rungs_option(&a->rungs, o->name, val);
    default: {
        char buf[2048], *items[MAX_SEEDS + 1];
        int n = cli_split(val, buf, sizeof buf, items, MAX_SEEDS + 1);
        if (n > MAX_SEEDS) {
            cli_error("check: --seed: more than %d seeds", MAX_SEEDS);
            return PL_EXIT_USAGE;
        }
        a->n_seeds = 0;
        for (int i = 0; i < n; i++) {
            char *end;
            unsigned long long seed = strtoull(items[i], &end, 10);
            if (*end || !*items[i] || items[i][0] == '-') {
                cli_error("check: --seed: '%s' is not a seed (a whole number, 0 or more)", items[i]);
                return PL_EXIT_USAGE;
            }
            a->seeds[a->n_seeds++] = seed;
        }
        if (a->n_seeds == 0) {
            cli_error("check: --seed: '%s' names no seed", val);
            return PL_EXIT_USAGE;
        }
        return PL_EXIT_OK;
    }
    }
}

/* The variants: named ones (each known and runnable here), or every rung that can run here. */
static int choose(const pl_kernel *k, const char *list, const pl_variant **out, int *n)
{
    char why[128];
    *n = 0;
    if (!list || !strcmp(list, "all")) {
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            if (v->is_peer) continue;
            if (pl_variant_check(NULL, v, why, sizeof why) == PL_OK) out[(*n)++] = v;
            else fprintf(stderr, "parlab: skipping %s: %s\n", v->name, why);
        }
        if (*n > 0) return PL_EXIT_OK;
        cli_error("check: no variant of %s can run here (parlab list %s says why)", k->name, k->name);
        return PL_EXIT_FAIL;
    }
    char buf[1024], *items[64];
    int m = cli_split(list, buf, sizeof buf, items, 64);
    for (int i = 0; i < m; i++) {
        const pl_variant *v = pl_variant_find(k, items[i]);
        if (!v) {
            cli_error("check: %s has no variant '%s' (parlab list %s)", k->name, items[i], k->name);
            return PL_EXIT_USAGE;
        }
        for (int j = 0; j < *n; j++)
            if (out[j] == v) {
                cli_error("check: --variant: %s named twice", v->name);
                return PL_EXIT_USAGE;
            }
        out[(*n)++] = v;
    }
    for (int i = 0; i < *n; i++)
        if (pl_variant_check(NULL, out[i], why, sizeof why) != PL_OK) {
            cli_error("check: %s cannot run here: %s", out[i]->name, why);
            return PL_EXIT_FAIL;
        }
    return *n > 0 ? PL_EXIT_OK : (cli_error("check: --variant names none"), PL_EXIT_USAGE);
}

static const char *settings_text(const pl_check_case *c) { return c->settings && *c->settings ? c->settings : "-"; }

/* A value as printed: NaN whatever its sign bits (the harness's poison is one). */
static void print_value(double x)
{
    if (isnan(x)) printf("NaN (the poison parlab writes before each run: never written?)");
    else printf("%.9g", x);
}

/* The worst element of a failed check (the first of the worst in row-major order: with an
 * unwritten tail, its first element): "C[0][30] = NaN, reference 0.962339103, bound 1.5e-05". */
static void print_bad(const pl_check_outcome *o)
{
    const pl_check_result *b = o->bad;
    printf("        worst element: %s", o->operand);
    if (b->col < 0) printf(" row %" PRId64 "'s residual", b->row);
    else printf("[%" PRId64 "][%" PRId64 "]", b->row, b->col);
    printf(" = ");
    print_value(b->value);
    printf(", reference ");
    print_value(b->reference);
    if (b->bound > 0) printf(", bound %.3g on |value - reference|", b->bound);
    else printf(" (exact: must be equal)");
    printf("\n");
}

/* What the lines of one variant add up to. */
typedef struct tally {
    int skipped;
    int size_w, settings_w; /* the widest size and settings of the kernel's cases */
} tally;

static void print_outcome(void *user, const pl_check_outcome *o)
{
    tally *t = user;
    t->skipped += o->status == PL_ERR_UNSUPPORTED;
    const char *verdict = o->status == PL_ERR_UNSUPPORTED ? "skip" : o->passed ? "ok" : "FAIL";
    printf("  %-4s  %-*s  %-*s  seed %-10" PRIu64, verdict, t->size_w, o->check_case->size, t->settings_w,
           settings_text(o->check_case), o->seed);
    if (o->status == PL_ERR_UNSUPPORTED) printf("  not taken: %s\n", o->message);
    else if (o->status != PL_OK) printf("  run failed: %s\n", o->message);
    else {
        const pl_check_result *b = o->bad;
        const char *run = b == &o->result.first ? "first" : "timed";
        if (b && b->wrong == 0) /* every element within its own bound, the whole output not */
            printf("  relative error %.3g above its bound %.3g, every element within its own (%s run)\n", b->error,
                   o->result.bound, run);
        else if (b) printf("  %" PRId64 " of %" PRId64 " elements wrong (%s run)\n", b->wrong, b->checked, run);
        else if (o->result.bound == 0) printf("  every element exact\n");
        else printf("  worst element at %.2g of its bound\n", fmax(o->result.first.elem_ratio, o->result.last.elem_ratio));
        if (b) print_bad(o);
        if (!o->result.padding_ok) printf("        padding touched: the elements between a row's end and the next row\n");
        if (!o->result.inputs_ok) printf("        inputs written: an input operand changed\n");
    }
    fflush(stdout);
}

static void list_cases(const pl_kernel *k)
{
    printf("%s: %d check cases (size, settings)\n", k->name, k->n_check_cases);
    for (int i = 0; i < k->n_check_cases; i++)
        printf("  %-14s %s\n", k->check_cases[i].size, settings_text(&k->check_cases[i]));
}

/* One variant on every case and seed, in a context of its backend; exit status. */
static int check_one(const pl_kernel *k, const pl_variant *v, const check_args *a, int *failed)
{
    pl_ctx *ctx = NULL;
    pl_status s = pl_ctx_create(&ctx, v->backend, (int)a->device, (int)a->threads);
    if (s != PL_OK) return cli_fail(s);
    printf("%s %s: seed%s", k->name, v->name, a->n_seeds > 1 ? "s" : "");
    for (int i = 0; i < a->n_seeds; i++) printf("%s %" PRIu64, i ? "," : "", a->seeds[i]);
    printf(" (replay one with --seed S)\n");
    int runs = 0, bad = 0;
    tally t = {0, 4, 8};
    for (int i = 0; i < k->n_check_cases; i++) {
        int w = (int)strlen(k->check_cases[i].size), sw = (int)strlen(settings_text(&k->check_cases[i]));
        t.size_w = w > t.size_w ? w : t.size_w;
        t.settings_w = sw > t.settings_w ? sw : t.settings_w;
    }
    s = pl_check_variant(ctx, k, v, NULL, a->seeds, a->n_seeds, print_outcome, &t, &runs, &bad);
    pl_ctx_destroy(ctx);
    if (s != PL_OK) return cli_fail(s);
    printf("%s %s: %d cases x %d seed%s, %d failed", k->name, v->name, runs / a->n_seeds, a->n_seeds,
           a->n_seeds > 1 ? "s" : "", bad);
    if (t.skipped) printf(", %d not taken by this rung", t.skipped);
    printf("\n");
    *failed += bad;
    return PL_EXIT_OK;
}

int pl_cmd_check(int argc, char **argv)
{
    check_args a = {.n_seeds = 0};
    const char *kernel = NULL;
    cli_args args = {.cmd = "check", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = &kernel,
                     .max_pos = 1, .takes = "one kernel"};
    int rc = cli_parse(&args, argc, argv, take, &a, help);
    if (rc != CLI_GO_ON) return rc;
    if (!kernel) {
        cli_error("check: name a kernel (parlab list shows them)");
        return PL_EXIT_USAGE;
    }
    const pl_kernel *k = pl_kernel_find(kernel);
    if (!k) {
        cli_error("check: unknown kernel '%s' (parlab list shows them)", kernel);
        return PL_EXIT_USAGE;
    }
    if (a.list_cases) {
        list_cases(k);
        return PL_EXIT_OK;
    }
    if (a.n_seeds == 0) {
        pl_check_default_seeds(a.seeds);
        a.n_seeds = PL_CHECK_SEEDS;
    }
    const pl_variant *vars[64 + CLI_MAX_RUNGS];
    int n = 0;
    if ((rc = cli_rungs_load(&a.rungs, k)) != PL_EXIT_OK) return rc;
    if ((a.variants || a.rungs.n == 0) && (rc = choose(k, a.variants, vars, &n)) != PL_EXIT_OK) {
        cli_rungs_free(&a.rungs);
        return rc;
    }
    char why[128];
    for (int i = 0; i < a.rungs.n && rc == PL_EXIT_OK; i++) {
        vars[n] = pl_user_rung_variant(a.rungs.loaded[i]);
        if (pl_variant_check(NULL, vars[n], why, sizeof why) != PL_OK) {
            cli_error("check: %s cannot run here: %s", vars[n]->name, why);
            rc = PL_EXIT_FAIL;
        }
        n++;
    }
    int failed = 0;
    for (int i = 0; i < n && rc == PL_EXIT_OK; i++) rc = check_one(k, vars[i], &a, &failed);
    cli_rungs_free(&a.rungs);
    return rc != PL_EXIT_OK ? rc : failed ? PL_EXIT_FAIL : PL_EXIT_OK;
}
