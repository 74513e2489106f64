/* cmd_life.c: `parlab life PATTERN --gens N [-o OUT]`, a Life pattern (RLE or .cells, as Golly
 * reads and writes them) run for N generations. Where the pattern runs, as in Golly: the
 * bounded grid its rule names (":T100,100" a torus, ":P100,100" a bounded plane), else the
 * unbounded plane; --torus WxH / --plane WxH override the file. On a bounded grid the pattern
 * is centred (its box's top-left at W/2 - w/2, H/2 - h/2, as Golly places it) and the grid runs
 * packed through pl_life_variant (any grid rung, CPU or CUDA); the unbounded plane runs on
 * cpu-sparse's engine. --soup WxH starts from a random soup instead of a file.
 * Under mpirun (src/distributed/life/life_ranks.h) a bounded grid runs on the ranks: rank 0 reads the
 * pattern, scatters it, gathers the last generation and writes it; every rank runs its block.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read, is malformed, or cannot be
 * written; the device fails); 2 a usage error (bad option or value, a pattern larger than the
 * grid, a variant that cannot run this grid, too big for memory). */
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "core/device.h"
#include "core/sizes.h"
#include "distributed/life/life_ranks.h"
#include "io/life_pattern.h"
#include "kernels/life/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab life PATTERN --gens N [-o OUT] [options]\n"
          "       parlab life --soup WxH --gens N [--density D] [--seed S] [-o OUT] [options]\n"
          "\n"
          "Run a Life pattern (Conway's Game of Life or any Life-like rule B.../S...) for N\n"
          "generations. PATTERN: an RLE file (x = W, y = H, rule = B3/S23[:T100,100]) or a\n"
          "plaintext .cells file, as Golly writes them.\n"
          "\n"
          "Where it runs (as in Golly): the bounded grid the rule's suffix names (:T100,100 a\n"
          "torus, edges wrap; :P100,100 a plane, dead beyond the edge), else the unbounded plane.\n"
          "A pattern on a bounded grid is centred on it.\n"
          "\n"
          "options:\n"
          "  --gens N            generations to run, 0..10^12 (required)\n"
          "  -o, --output OUT    write the last generation: .cells for a name ending in .cells,\n"
          "                      else RLE; a bounded grid is written whole with its suffix, the\n"
          "                      unbounded plane as the box of its live cells (with #R x y)\n"
          "  --torus WxH         run on a W x H torus, whatever the file says\n"
          "  --plane WxH         run on a W x H bounded plane, whatever the file says\n"
          "  --rule R            the rule (B3/S23, B36/S23, 23/3, ...), instead of the file's\n"
          "  --every N           print generation, population and bounding box every N\n"
          "                      generations (and at the end)\n"
          "  --soup WxH          no PATTERN: a random soup of W x H cells (a torus unless\n"
          "                      --plane WxH gives the grid; the soup is its top-left box)\n"
          "  --density D         the soup's density, 0..1 (default 0.5)\n"
          "  --seed S            the soup's seed (default 1)\n"
          "  --max-time S        seconds a run may take, 0 for no limit (default 600): a grid\n"
          "                      run that even the fastest rate this machine could reach\n"
          "                      would not finish in S is refused before it starts; a run\n"
          "                      on the unbounded plane (whose cost grows with its pattern)\n"
          "                      is stopped at S, nothing written\n"
          "  --halo D            under mpirun: the halo's depth, the generations a rank runs\n"
          "                      between messages (default 48, 32 for a CUDA rung; at most the\n"
          "                      smallest block)\n"
          "  --overlap M         under mpirun: auto, on or off: update a block's interior while\n"
          "                      its halo travels (auto, the default, is off: the rims, each a\n"
          "                      plane of its own, cost more than the exchange they hide)\n"
          "                      With a CUDA rung (--variant cuda-tuned, cuda-bitpacked) and a\n"
          "                      build with NCCL, each rank takes its own GPU (its rank on the\n"
          "                      node, unless --device), keeps its block there and trades halos\n"
          "                      with grouped ncclSend/ncclRecv (more ranks on a node than GPUs:\n"
          "                      through the host on MPI)\n"
          "  --variant V         the life variant to run (an unknown name lists them); default:\n"
          "                      the best grid rung of the backend for the grid's size (CUDA:\n"
          "                      cuda-bitpacked below 1e8 cells, cuda-tuned above), cpu-sparse\n"
          "                      on the unbounded plane (the only one that runs it)\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints: generation N: population P, box WxH at (x, y); and the run's time with\n"
          "cell-updates per second on a bounded grid (W x H x N), or on the plane the\n"
          "64x64 tile-generations computed and the rows of 64 cells written.\n"
          "\n"
          "Under mpirun -n P (a torus or bounded plane): rank 0 reads the pattern, scatters it\n"
          "over a grid of P ranks, gathers and writes the last generation, the same as one\n"
          "process writes; each rank runs its block with the best rung for it, on the node's\n"
          "cores divided by its ranks (--threads to say otherwise) and, where the node has\n"
          "several GPUs and no --device is given, GPU (rank on the node) % (GPUs); the slowest\n"
          "rank's compute, exchange and wait are printed. The unbounded plane runs on one rank.\n"
          "\n"
          TOOL_USAGE_OUTPUT
          "-o - writes the RLE to standard output (the lines above then go to stderr).\n"
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written or is\n"
          "malformed, a device error, the plane's run stopped at --max-time); 2 usage error\n"
          "(bad option or value, a pattern larger than its grid, a variant that cannot run the\n"
          "grid, too big for this machine's memory or for --max-time).\n",
          f);
}

static void report(void *user, int64_t gen, int64_t pop, const int64_t box[4])
{
    (void)user;
    printf("generation %lld: population %lld, box %lldx%lld at (%lld, %lld)\n", (long long)gen, (long long)pop,
           (long long)box[2], (long long)box[3], (long long)box[0], (long long)box[1]);
}

static int parse_grid(const char *opt, const char *val, int64_t d[2])
{
    if (pl_parse_dims(opt, val, 2, "WxH", d) != PL_OK) {
        cli_error("life: %s '%s': %s", opt, val, pl_last_error());
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

/* ---------------------------------------------------------------- the command line */

enum { O_GENS = CLI_OPT_OWN, O_TORUS, O_PLANE, O_RULE, O_EVERY, O_SOUP, O_DENSITY, O_SEED, O_MAX_TIME, O_HALO,
       O_OVERLAP };
static const cli_opt options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"--gens", "N", O_GENS, 0, NULL}, {"--torus", "WxH", O_TORUS, 0, NULL},
    {"--plane", "WxH", O_PLANE, 0, NULL}, {"--rule", "R", O_RULE, 0, NULL}, {"--every", "N", O_EVERY, 0, NULL},
    {"--soup", "WxH", O_SOUP, 0, NULL}, {"--density", "D", O_DENSITY, 0, NULL}, {"--seed", "S", O_SEED, 0, NULL},
    {"--max-time", "S", O_MAX_TIME, 0, NULL}, {"--halo", "D", O_HALO, 0, NULL}, {"--overlap", "M", O_OVERLAP, 0, NULL},
};

/* What the command line asks for, and where the pattern runs (load_pattern fills the grid in
 * from the file's rule where no --torus or --plane gave it). */
typedef struct life_args {
    tool_common co;
    const char *in_path, *rule_text;
    long gens, every, seed, max_time;
    long halo;   /* --halo (0: the default) */
    int overlap; /* PL_DIST_OVERLAP_* */
    float density;
    int soup;
    int64_t soup_dims[2];
    int grid_given, grid_kind; /* PL_LIFE_UNBOUNDED, PL_LIFE_TORUS or PL_LIFE_PLANE */
    int64_t grid_dims[2];
} life_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    life_args *l = user;
    pl_life_rule rule;
    switch (o->id) {
    case O_GENS: return cli_parse_int(o->name, val, 0, 1000000000000L, &l->gens);
    case O_EVERY: return cli_parse_int(o->name, val, 1, 1000000000000L, &l->every);
    case O_SEED: return cli_parse_int(o->name, val, 0, 2147483647L, &l->seed);
    case O_MAX_TIME: return cli_parse_int(o->name, val, 0, 100000000L, &l->max_time);
    case O_HALO: return cli_parse_int(o->name, val, 1, 1000000L, &l->halo);
    case O_OVERLAP:
        if (!strcmp(val, "auto")) l->overlap = PL_DIST_OVERLAP_AUTO;
        else if (!strcmp(val, "on")) l->overlap = PL_DIST_OVERLAP_ON;
        else if (!strcmp(val, "off")) l->overlap = PL_DIST_OVERLAP_OFF;
        else {
            cli_error("life: --overlap '%s': give auto, on or off", val);
            return PL_EXIT_USAGE;
        }
        return PL_EXIT_OK;
    case O_DENSITY:
        if (tool_parse_real("life", o->name, val, &l->density)) return PL_EXIT_USAGE;
        if (l->density >= 0.0f && l->density <= 1.0f) return PL_EXIT_OK;
        cli_error("life: --density '%s' is not in 0..1", val);
        return PL_EXIT_USAGE;
    case O_RULE:
        l->rule_text = val;
        return pl_life_rule_parse(val, &rule) == PL_OK ? PL_EXIT_OK : cli_fail(PL_ERR_ARG);
    case O_TORUS:
    case O_PLANE:
        if (l->grid_given) {
            cli_error("life: --torus and --plane: give one grid");
            return PL_EXIT_USAGE;
        }
        l->grid_given = 1;
        l->grid_kind = o->id == O_TORUS ? PL_LIFE_TORUS : PL_LIFE_PLANE;
        return parse_grid(o->name, val, l->grid_dims);
    case O_SOUP: l->soup = 1; return parse_grid(o->name, val, l->soup_dims);
    }
    return tool_common_option("life", &l->co, o, val);
}

/* The options; a pattern file or a soup, --gens, an output that can be written. CLI_GO_ON or
 * the exit status. */
static int parse_args(int argc, char **argv, life_args *l)
{
    cli_args a = {.cmd = "life", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = &l->in_path,
                  .max_pos = 1, .takes = "one pattern file, PATTERN"};
    int rc = cli_parse(&a, argc, argv, take_option, l, usage);
    if (rc != CLI_GO_ON) return rc;
    if (!l->in_path && !l->soup) {
        cli_error("life: needs a pattern file, PATTERN, or --soup WxH (see parlab life --help)");
        return PL_EXIT_USAGE;
    }
    if (l->in_path && l->soup) {
        cli_error("life: give a pattern file or --soup WxH, not both");
        return PL_EXIT_USAGE;
    }
    if (l->gens < 0) {
        cli_error("life: needs --gens N (the generations to run)");
        return PL_EXIT_USAGE;
    }
    if (l->co.out_path && pl_dist_rank() == 0 && /* rank 0 alone writes */
        (rc = tool_check_output("life", "-o", l->co.out_path, &l->in_path, 1, TOOL_OUT_STDOUT)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* The start: a soup (a torus of its size unless a grid was given) or the file's pattern (on the
 * grid its rule names unless one was given). *rule: the pattern's rule (checked even where
 * --rule replaces it, so a bad file is named), else --rule. */
static int load_pattern(life_args *l, pl_life_pattern *pat, pl_life_rule *rule)
{
    int rc;
    pl_status s;
    if (l->soup) {
        const double bytes = (double)l->soup_dims[1] * (double)((l->soup_dims[0] + 63) / 64) * 8;
        if ((rc = tool_fits_host("life", "the soup", bytes)) != 0) return rc;
        if ((s = pl_life_soup(pat, l->soup_dims[0], l->soup_dims[1], l->density, (uint64_t)l->seed)) != PL_OK)
            return cli_fail(s);
        if (!l->grid_given)
            l->grid_kind = PL_LIFE_TORUS, l->grid_dims[0] = l->soup_dims[0], l->grid_dims[1] = l->soup_dims[1];
    } else {
        if ((rc = tool_fits_host("life", "reading the pattern", tool_file_bytes(l->in_path))) != 0) return rc;
        if ((s = pl_life_read(l->in_path, pat)) != PL_OK) return cli_fail(s);
        if (!l->grid_given && pat->grid != PL_LIFE_UNBOUNDED)
            l->grid_kind = pat->grid, l->grid_dims[0] = pat->grid_w, l->grid_dims[1] = pat->grid_h;
    }
    if ((s = pl_life_rule_parse_at(pat->rule, l->in_path, pat->rule_line, pat->rule_col, rule)) != PL_OK)
        return cli_fail(s);
    if (l->rule_text) pl_life_rule_parse(l->rule_text, rule);
    return PL_EXIT_OK;
}

/* ---------------------------------------------------------------- the unbounded plane: cpu-sparse */

/* The pattern on the unbounded plane: cpu-sparse's engine (the only rung that runs it), its
 * threads from a CPU context as every rung's. */
static int run_plane(const life_args *l, const pl_variant *variant, pl_life_pattern *pat, const pl_life_rule *rule,
                     const char *rule_name)
{
    if (variant && strcmp(variant->name, "cpu-sparse")) {
        cli_error("life: %s runs a torus or bounded plane; this pattern is on the unbounded plane: give --torus "
                  "WxH or --plane WxH, or --variant cpu-sparse", variant->name);
        return PL_EXIT_USAGE;
    }
    pl_life_sparse *plane = NULL;
    pl_ctx *ctx = NULL;
    double seconds = 0;
    pl_status s;
    int rc;
    if ((s = pl_life_sparse_create(&plane, rule, 0, 0, 0)) != PL_OK ||
        (pat->bits && (s = pl_life_sparse_load(plane, pat->bits, pat->w, pat->h, pat->words_per_row, pat->x0,
                                               pat->y0)) != PL_OK) ||
        (s = pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, (int)l->co.threads)) != PL_OK) {
        rc = cli_fail(s);
    } else if ((rc = cli_status(pl_life_plane_run(plane, l->gens, l->every, l->max_time, pl_ctx_threads(ctx), report,
                                                  NULL, &seconds))) == 0) {
        printf("%s on the unbounded plane, %lld generations by cpu-sparse in %.3f ms: %lld tile-generations "
               "(64x64 cells each), %lld rows of 64 cells written, %lld tiles now\n", rule_name, (long long)l->gens,
               seconds * 1e3, (long long)pl_life_sparse_tile_steps(plane),
               (long long)pl_life_sparse_rows_written(plane), (long long)pl_life_sparse_tiles(plane));
        if (l->co.out_path) rc = cli_status(pl_life_plane_write(l->co.out_path, plane, pat, rule_name));
    }
    pl_ctx_destroy(ctx);
    pl_life_sparse_destroy(plane);
    return rc;
}

/* ---------------------------------------------------------------- a torus or bounded plane: a grid rung */

/* "--torus", "the torus of the file's rule (:T)", ...: where the grid came from, for messages. */
static const char *grid_origin(const life_args *l)
{
    const int torus = l->grid_kind == PL_LIFE_TORUS;
    return l->grid_given ? (torus ? "--torus" : "--plane")
           : l->soup     ? "--soup (a soup is a torus)"
           : torus       ? "the torus of the file's rule (:T)"
                         : "the bounded plane of the file's rule (:P)";
}

/* The packed W x H grid with the pattern on it: centred as Golly places it (a soup at the top
 * left). The pattern must fit, and two packed copies the host's memory. */
static int place_pattern(const life_args *l, const pl_life_pattern *pat, uint64_t **grid)
{
    const int64_t W = l->grid_dims[0], H = l->grid_dims[1], wpr = pl_life_words_per_row(W);
    if (pat->w > W || pat->h > H) {
        cli_error("life: the pattern's %lldx%lld box is larger than the %lldx%lld %s", (long long)pat->w,
                  (long long)pat->h, (long long)W, (long long)H, l->grid_kind == PL_LIFE_TORUS ? "torus" : "plane");
        return PL_EXIT_USAGE;
    }
    char what[96];
    snprintf(what, sizeof what, "the %lldx%lld grid (two packed copies)", (long long)W, (long long)H);
    int rc = tool_fits_host("life", what, 2.0 * (double)H * (double)wpr * 8);
    if (rc != 0) return rc;
    return cli_status(pl_life_place(pat, W, H, !l->soup, what, grid));
}

/* The named grid rung, or the best for the grid's size in this context. */
static int pick_rung(const pl_variant *variant, const pl_ctx *ctx, const pl_life_problem *p, const char **ran)
{
    if ((*ran = variant ? variant->name : pl_best_variant(ctx, &pl_life_kernel, p))) return PL_EXIT_OK;
    cli_error("life: no life variant can run here");
    return PL_EXIT_FAIL;
}

/* Under mpirun every rank agrees after each advance (a rank's failure stops them all,
 * cli_agree); *rc the exit status of a stop. */
static pl_status agree_step(void *user, pl_status s, int64_t done, double seconds)
{
    int *rc = user;
    (void)done, (void)seconds;
    *rc = s == PL_OK ? PL_EXIT_OK : s == PL_ERR_UNSUPPORTED ? (cli_fail(s), PL_EXIT_USAGE) : cli_fail(s);
    return (*rc = cli_agree(*rc)) == PL_EXIT_OK ? PL_OK : PL_ERR_CANCELLED;
}

/* The generations by a grid's runner, reported at --every points. */
static int run_grid_gens(const life_args *l, const pl_life_runner *run, double *seconds)
{
    int rc = PL_EXIT_OK;
    pl_life_steps(run, l->gens, l->every, 0, agree_step, &rc, report, NULL, seconds);
    return rc;
}

/* The whole grid, with its suffix (:T or :P) and the start's rule and comments, to -o. */
static int write_grid(const life_args *l, const pl_life_problem *p, uint64_t *grid, const pl_life_pattern *pat,
                      const char *rule_name)
{
    return cli_status(pl_life_grid_write(l->co.out_path, grid, p->W, p->H, l->grid_kind, pat, rule_name));
}

/* The problem of a torus or bounded plane; a rung that runs no grid (cpu-sparse) is refused. */
static int grid_problem(const life_args *l, const pl_variant *variant, const pl_life_rule *rule, pl_life_problem *p)
{
    if (variant && !strcmp(variant->name, "cpu-sparse")) { /* said in the tool's words, not the bench's */
        cli_error("life: cpu-sparse runs only on the unbounded plane; drop %s or pick another --variant",
                  grid_origin(l));
        return PL_EXIT_USAGE;
    }
    memset(p, 0, sizeof *p);
    p->W = l->grid_dims[0], p->H = l->grid_dims[1], p->gens = l->gens, p->rule = *rule;
    p->topology = l->grid_kind == PL_LIFE_TORUS ? PL_LIFE_TOPO_TORUS : PL_LIFE_TOPO_PLANE;
    return PL_EXIT_OK;
}

/* The pattern on a torus or bounded plane: the packed grid through a grid rung (the named one,
 * or the best for the grid's size), the problem built once. */
static int run_grid(const life_args *l, const pl_variant *variant, const pl_life_pattern *pat, const pl_life_rule *rule,
                    const char *rule_name)
{
    pl_life_problem p;
    int rc = grid_problem(l, variant, rule, &p);
    if (rc != 0) return rc;
    uint64_t *grid = NULL;
    pl_ctx *ctx = NULL;
    const char *ran = NULL;
    double seconds = 0;
    pl_life_one_grid one = {NULL, NULL, &p, NULL};
    const pl_life_runner runner = pl_life_one_grid_runner(&one);
    if ((rc = place_pattern(l, pat, &grid)) == 0 && (rc = tool_context(&pl_life_kernel, &p, &l->co, variant, &ctx)) == 0 &&
        (rc = pick_rung(variant, ctx, &p, &ran)) == 0 &&
        (rc = cli_status(pl_life_within_time(ctx, 1, p.W, p.H, l->grid_kind, l->gens, l->max_time))) == 0 &&
        (one.ctx = ctx, one.rung = ran, one.grid = grid, rc = run_grid_gens(l, &runner, &seconds)) == 0) {
        const double updates = (double)p.W * (double)p.H * (double)l->gens;
        printf("%s on a %lldx%lld %s, %lld generations by %s in %.3f ms: %.3g cell-updates/s\n", rule_name,
               (long long)p.W, (long long)p.H, p.topology == PL_LIFE_TOPO_TORUS ? "torus" : "plane",
               (long long)l->gens, ran, seconds * 1e3, seconds > 0 ? updates / seconds : 0.0);
        if (l->co.out_path) rc = write_grid(l, &p, grid, pat, rule_name);
    }
    pl_ctx_destroy(ctx);
    pl_free(grid);
    return rc;
}

/* ---------------------------------------------------------------- a grid on the ranks of mpirun */

/* The ranks' blocks (life_ranks.h). */
static pl_status ranks_advance(void *user, int64_t gens) { return pl_dist_life_run(user, gens); }
static int64_t ranks_census(void *user, int64_t box[4]) { return pl_dist_life_census(user, box); }

/* The slowest rank's compute, exchange and wait, after the summary line. */
static void report_ranks(const pl_dist_grid *g, const pl_dist_life *dl)
{
    const pl_dist_times mine = pl_dist_life_times(dl), most = pl_dist_times_max(&mine); /* collective */
    if (g->rank != 0) return;
    printf("ranks (the slowest's): compute %.3f ms, exchange %.3f ms, wait %.3f ms; halo exchanged%s with the "
           "interior update %s\n", most.compute * 1e3, most.exchange * 1e3, most.wait * 1e3,
           pl_dist_life_on_nccl(dl) ? " between GPUs on NCCL" : "", pl_dist_life_overlaps(dl) ? "overlapped" : "not overlapped");
}

/* The grid on the ranks: rank 0's grid scattered, every rank's block run by its best local rung
 * (the named one, or the best for its window's size), gathered and written by rank 0. Each
 * step where a rank may fail ends in cli_agree. */
static int run_grid_ranks(const life_args *l, const pl_variant *variant, const pl_life_pattern *pat,
                          const pl_life_rule *rule, const char *rule_name)
{
    pl_life_problem p;
    int rc = grid_problem(l, variant, rule, &p);
    if (rc != 0) return rc;
    uint64_t *grid = NULL;
    pl_dist_grid g;
    int have_grid = 0, d = 0;
    pl_ctx *ctx = NULL;
    pl_dist_life *dl = NULL;
    const char *ran = NULL;
    double seconds = 0;
    tool_common co = l->co;
    pl_dist_share_node(&co.threads, &co.device);
    if ((rc = cli_agree(pl_dist_rank() == 0 ? place_pattern(l, pat, &grid) : PL_EXIT_OK)) == 0) {
        const int cuda = (variant && variant->backend == PL_BACKEND_CUDA) || l->co.backend == PL_BACKEND_CUDA;
        const pl_status s = pl_dist_life_grid_create(&g, &p, variant, cuda);
        have_grid = s == PL_OK;
        rc = cli_agree(cli_status(s == PL_OK ? pl_dist_life_depth_of(&g, &p, l->halo, cuda, &d) : s));
    }
    pl_life_problem window = p; /* about a rank's window: its block and halo */
    if (rc == 0) {
        const pl_dist_block b = pl_dist_block_of(&g, p.H, p.W);
        window.W = b.x1 - b.x0 + 2 * (int64_t)d, window.H = b.y1 - b.y0 + 2 * (int64_t)d;
        rc = cli_agree(tool_context(&pl_life_kernel, &window, &co, variant, &ctx));
    }
    if (rc == 0) rc = cli_agree(pick_rung(variant, ctx, &window, &ran));
    if (rc == 0)
        rc = tool_ranks_status(pl_life_within_time(ctx, g.size, p.W, p.H, l->grid_kind, l->gens, l->max_time));
    if (rc == 0) {
        const pl_status s = pl_dist_life_create(&dl, &g, ctx, ran, NULL, &p, d, l->overlap);
        rc = cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s));
    }
    const pl_life_runner runner = {ranks_advance, ranks_census, dl};
    if (rc == 0 && (pl_dist_life_scatter(dl, grid), rc = run_grid_gens(l, &runner, &seconds)) == 0) {
        const double updates = (double)p.W * (double)p.H * (double)l->gens;
        printf("%s on a %lldx%lld %s, %lld generations by %s on %d rank%s (%dx%d, halo %d) in %.3f ms: %.3g "
               "cell-updates/s\n", rule_name, (long long)p.W, (long long)p.H,
               p.topology == PL_LIFE_TOPO_TORUS ? "torus" : "plane", (long long)l->gens, ran, g.size, g.size > 1 ? "s" : "", g.dims[0],
               g.dims[1], d, seconds * 1e3, seconds > 0 ? updates / seconds : 0.0);
        report_ranks(&g, dl);
        pl_dist_life_gather(dl, grid);
        if (l->co.out_path) rc = cli_agree(pl_dist_rank() == 0 ? write_grid(l, &p, grid, pat, rule_name) : 0);
    }
    pl_dist_life_destroy(dl);
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&g);
    pl_free(grid);
    return rc;
}

/* Under mpirun: rank 0 reads the pattern (or makes the soup) and tells the others its grid and
 * rule; a bounded grid runs on the ranks, the unbounded plane on one rank only (as one
 * process). */
static int life_on_ranks(life_args *l, const pl_variant *variant)
{
    pl_life_pattern pat;
    memset(&pat, 0, sizeof pat);
    pl_life_rule rule;
    memset(&rule, 0, sizeof rule);
    int rc = cli_agree(pl_dist_rank() == 0 ? load_pattern(l, &pat, &rule) : PL_EXIT_OK);
    if (rc == 0) {
        pl_dist_life_share(&l->grid_kind, l->grid_dims, &rule);
        char rule_name[64];
        pl_life_rule_format(&rule, rule_name, sizeof rule_name);
        if (l->grid_kind != PL_LIFE_UNBOUNDED) {
            rc = run_grid_ranks(l, variant, &pat, &rule, rule_name);
        } else if (pl_dist_size() == 1) {
            rc = run_plane(l, variant, &pat, &rule, rule_name);
        } else {
            cli_error("life: the unbounded plane runs on one process (cpu-sparse), not on %d ranks: give --torus "
                      "WxH or --plane WxH, or run without mpirun", pl_dist_size());
            rc = PL_EXIT_USAGE;
        }
    }
    pl_life_pattern_free(&pat);
    return rc;
}

int pl_cmd_life(int argc, char **argv)
{
    life_args l = {.co = TOOL_COMMON_INIT, .gens = -1, .seed = 1, .max_time = 600, .density = 0.5f,
                   .grid_kind = PL_LIFE_UNBOUNDED};
    const pl_variant *variant = NULL;
    /* under mpirun the output was checked on rank 0 alone: every rank agrees on its verdict */
    int rc = parse_args(argc, argv, &l);
    const int agreed = cli_agree(rc == CLI_GO_ON ? PL_EXIT_OK : rc);
    if (rc != CLI_GO_ON || agreed) return agreed ? agreed : rc;
    if ((rc = cli_agree(tool_find_variant("life", &pl_life_kernel, &l.co, &variant))) != 0) return rc;
    if (pl_dist_active()) return life_on_ranks(&l, variant);
    pl_life_pattern pat;
    memset(&pat, 0, sizeof pat);
    pl_life_rule rule;
    if ((rc = load_pattern(&l, &pat, &rule)) == 0) {
        char rule_name[64];
        pl_life_rule_format(&rule, rule_name, sizeof rule_name);
        rc = l.grid_kind == PL_LIFE_UNBOUNDED ? run_plane(&l, variant, &pat, &rule, rule_name)
                                              : run_grid(&l, variant, &pat, &rule, rule_name);
    }
    pl_life_pattern_free(&pat);
    return rc;
}
