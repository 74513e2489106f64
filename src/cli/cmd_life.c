/* cmd_life.c: `parlab life PATTERN --gens N [-o OUT]`, a Life pattern (RLE or .cells, as Golly
 * reads and writes them) run for N generations. Where the pattern runs, as in Golly: the
 * bounded grid its rule names (":T100,100" a torus, ":P100,100" a bounded plane), else the
 * unbounded plane; --torus WxH / --plane WxH override the file. On a bounded grid the pattern
 * is centred (its box's top-left at W/2 - w/2, H/2 - h/2, as Golly places it) and the grid runs
 * packed through pl_life_variant (any grid rung, CPU or CUDA); the unbounded plane runs on
 * cpu-sparse's engine. --soup WxH starts from a random soup instead of a file.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read, is malformed, or cannot be
 * written; the device fails); 2 a usage error (bad option or value, a pattern larger than the
 * grid, a variant that cannot run this grid, too big for memory). */
#include "cli/tool.h"
#include "core/core.h"
#include "core/sizes.h"
#include "io/life_pattern.h"
#include "kernels/life/life.h"
#include "kernels/life/sparse.h"

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
          TOOL_USAGE_OUTPUT
          "-o - writes the RLE to standard output (the lines above then go to stderr).\n"
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written or is\n"
          "malformed, a device error, the plane's run stopped at --max-time); 2 usage error\n"
          "(bad option or value, a pattern larger than its grid, a variant that cannot run the\n"
          "grid, too big for this machine's memory or for --max-time).\n",
          f);
}

/* Population and the box of the live cells of a packed W x H grid (w = h = 0 when empty). */
static int64_t grid_census(const uint64_t *bits, int64_t W, int64_t H, int64_t box[4])
{
    const int64_t wpr = pl_life_words_per_row(W);
    int64_t pop = 0, xmin = INT64_MAX, xmax = -1, ymin = -1, ymax = -1;
    for (int64_t y = 0; y < H; y++) {
        const uint64_t *row = bits + y * wpr;
        for (int64_t k = 0; k < wpr; k++) {
            const uint64_t v = row[k];
            if (!v) continue;
            pop += __builtin_popcountll(v);
            const int64_t xa = k * 64 + __builtin_ctzll(v), xb = k * 64 + 63 - __builtin_clzll(v);
            if (xa < xmin) xmin = xa;
            if (xb > xmax) xmax = xb;
            if (ymin < 0) ymin = y;
            ymax = y;
        }
    }
    if (!pop) box[0] = box[1] = box[2] = box[3] = 0;
    else box[0] = xmin, box[1] = ymin, box[2] = xmax - xmin + 1, box[3] = ymax - ymin + 1;
    return pop;
}

static void report(int64_t gen, int64_t pop, const int64_t box[4])
{
    printf("generation %lld: population %lld, box %lldx%lld at (%lld, %lld)\n", (long long)gen, (long long)pop,
           (long long)box[2], (long long)box[3], (long long)box[0], (long long)box[1]);
}

/* A rate no rung reaches on this machine, in cell-updates a second: 2.5e11 a CPU thread (the
 * best measured: 9.6e10 a core on 2 cores, 2.2e10 on 16), 1e14 on a GPU (the best measured:
 * 1.08e13 on an H100). A grid run over --max-time even at this rate is refused at once: no run
 * that could finish in time is. */
static double life_rate_ceiling(int cuda, long threads)
{
    return cuda ? 1e14 : 2.5e11 * (double)(threads > 0 ? threads : pl_cpu_cores());
}

static int parse_grid(const char *opt, const char *val, int64_t d[2])
{
    if (pl_parse_dims(opt, val, 2, "WxH", d) != PL_OK) {
        cli_error("life: %s '%s': %s", opt, val, pl_last_error());
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int pl_cmd_life(int argc, char **argv)
{
    const pl_kernel *kernel = pl_kernel_find("life");
    const char *in_path = NULL, *rule_text = NULL;
    int n_in = 0, rc, handled, grid_given = 0;
    long gens = -1, every = 0, seed = 1, max_time = 600;
    float density = 0.5f;
    int64_t grid_dims[2] = {0, 0}, soup_dims[2] = {0, 0};
    int grid_kind = PL_LIFE_UNBOUNDED, soup = 0;
    tool_common co = TOOL_COMMON_INIT;

    static const char *const with_value[] = {"-o", "--output", "--variant", "--threads", "--backend", "--device",
                                             "--gens", "--torus", "--plane", "--rule", "--every", "--soup",
                                             "--density", "--seed", "--max-time", NULL};
    tool_args ta = {"life", argc, argv, with_value, NULL, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("life", val, &in_path, &n_in, 1, "one pattern file, PATTERN")) != 0) return rc;
            continue;
        }
        rc = PL_EXIT_OK;
        if (!strcmp(name, "--gens")) rc = cli_parse_int(name, val, 0, 1000000000000L, &gens);
        else if (!strcmp(name, "--every")) rc = cli_parse_int(name, val, 1, 1000000000000L, &every);
        else if (!strcmp(name, "--seed")) rc = cli_parse_int(name, val, 0, 2147483647L, &seed);
        else if (!strcmp(name, "--max-time")) rc = cli_parse_int(name, val, 0, 100000000L, &max_time);
        else if (!strcmp(name, "--density")) {
            rc = tool_parse_real("life", name, val, &density);
            if (rc == 0 && !(density >= 0.0f && density <= 1.0f)) {
                cli_error("life: --density '%s' is not in 0..1", val);
                rc = PL_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--rule")) {
            pl_life_rule r;
            rule_text = val;
            if (pl_life_rule_parse(val, &r) != PL_OK) rc = cli_fail(PL_ERR_ARG);
        } else if (!strcmp(name, "--torus") || !strcmp(name, "--plane")) {
            if (grid_given) {
                cli_error("life: --torus and --plane: give one grid");
                return PL_EXIT_USAGE;
            }
            grid_given = 1;
            grid_kind = !strcmp(name, "--torus") ? PL_LIFE_TORUS : PL_LIFE_PLANE;
            rc = parse_grid(name, val, grid_dims);
        } else if (!strcmp(name, "--soup")) {
            soup = 1;
            rc = parse_grid(name, val, soup_dims);
        } else {
            rc = tool_common_option("life", &co, name, val, &handled);
        }
        if (rc != 0) return rc;
    }
    if (!in_path && !soup) {
        cli_error("life: needs a pattern file, PATTERN, or --soup WxH (see parlab life --help)");
        return PL_EXIT_USAGE;
    }
    if (in_path && soup) {
        cli_error("life: give a pattern file or --soup WxH, not both");
        return PL_EXIT_USAGE;
    }
    if (gens < 0) {
        cli_error("life: needs --gens N (the generations to run)");
        return PL_EXIT_USAGE;
    }
    if (co.out_path && (rc = tool_check_output("life", "-o", co.out_path, &in_path, 1, TOOL_OUT_STDOUT)) != 0)
        return rc;
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("life", kernel, co.variant_name, &variant, &co.backend, co.backend_given)) != 0)
        return rc;

    pl_life_pattern pat;
    memset(&pat, 0, sizeof pat);
    pl_life_sparse *plane = NULL;
    pl_ctx *ctx = NULL;
    uint64_t *grid = NULL;
    pl_status s;
    rc = PL_EXIT_FAIL;
    if (soup) {
        if ((rc = tool_fits_host("life", "the soup", (double)soup_dims[1] * (double)((soup_dims[0] + 63) / 64) * 8)) != 0)
            goto done;
        if ((s = pl_life_soup(&pat, soup_dims[0], soup_dims[1], density, (uint64_t)seed)) != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
        if (!grid_given) grid_kind = PL_LIFE_TORUS, grid_dims[0] = soup_dims[0], grid_dims[1] = soup_dims[1];
    } else {
        if ((rc = tool_fits_host("life", "reading the pattern", tool_file_bytes(in_path))) != 0) goto done;
        if ((s = pl_life_read(in_path, &pat)) != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
        if (!grid_given && pat.grid != PL_LIFE_UNBOUNDED)
            grid_kind = pat.grid, grid_dims[0] = pat.grid_w, grid_dims[1] = pat.grid_h;
    }
    pl_life_rule rule; /* the file's (checked even where --rule replaces it), else --rule */
    if ((s = pl_life_rule_parse_at(pat.rule, in_path, pat.rule_line, pat.rule_col, &rule)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    if (rule_text) pl_life_rule_parse(rule_text, &rule);
    char rule_name[64];
    pl_life_rule_format(&rule, rule_name, sizeof rule_name);
    rc = PL_EXIT_FAIL;

    if (grid_kind == PL_LIFE_UNBOUNDED) {
        /* ---------------- the unbounded plane: cpu-sparse's engine */
        if (variant && strcmp(variant->name, "cpu-sparse")) {
            cli_error("life: %s runs a torus or bounded plane; this pattern is on the unbounded plane: give --torus "
                      "WxH or --plane WxH, or --variant cpu-sparse", variant->name);
            rc = PL_EXIT_USAGE;
            goto done;
        }
        if ((s = pl_life_sparse_create(&plane, &rule, 0, 0, 0)) != PL_OK ||
            (pat.bits && (s = pl_life_sparse_load(plane, pat.bits, pat.w, pat.h, pat.words_per_row, pat.x0,
                                                 pat.y0)) != PL_OK)) {
            rc = cli_fail(s);
            goto done;
        }
        const int threads = co.threads > 0 ? (int)co.threads : 0;
        double seconds = 0;
        int64_t box[4];
        for (int64_t done_gens = 0; done_gens < gens || (gens == 0 && done_gens == 0);) {
            /* to the next --every point or the end, at most 1024 generations (the time limit's check) */
            int64_t step = every > 0 ? every - done_gens % every : gens - done_gens;
            if (step > gens - done_gens) step = gens - done_gens;
            if (max_time > 0 && step > 1024) step = 1024;
            const double t0 = tool_now();
            if ((s = pl_life_sparse_run(plane, step, threads)) != PL_OK) {
                rc = cli_fail(s);
                goto done;
            }
            seconds += tool_now() - t0;
            done_gens += step;
            if ((every > 0 && done_gens % every == 0) || done_gens >= gens) {
                pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
                report(done_gens, pl_life_sparse_population(plane), box);
            }
            if (gens == 0) break;
            if (max_time > 0 && seconds > (double)max_time && done_gens < gens) {
                cli_error("life: stopped at generation %lld of %lld after %.0f s (--max-time %ld; the pattern has "
                          "%lld cells in %lld tiles): nothing written; give --max-time 0 for no limit",
                          (long long)done_gens, (long long)gens, seconds, max_time,
                          (long long)pl_life_sparse_population(plane), (long long)pl_life_sparse_tiles(plane));
                goto done;
            }
        }
        printf("%s on the unbounded plane, %lld generations by cpu-sparse in %.3f ms: %lld tile-generations "
               "(64x64 cells each), %lld rows of 64 cells written, %lld tiles now\n", rule_name, (long long)gens,
               seconds * 1e3, (long long)pl_life_sparse_tile_steps(plane),
               (long long)pl_life_sparse_rows_written(plane), (long long)pl_life_sparse_tiles(plane));
        if (co.out_path) {
            pl_life_pattern out;
            memset(&out, 0, sizeof out);
            pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
            if ((s = pl_life_pattern_alloc(&out, box[2], box[3])) != PL_OK) {
                rc = cli_fail(s);
                goto done;
            }
            if (out.bits) pl_life_sparse_extract(plane, box[0], box[1], box[2], box[3], out.bits, out.words_per_row);
            snprintf(out.rule, sizeof out.rule, "%s", rule_name);
            out.x0 = box[0], out.y0 = box[1];
            out.comments = pat.comments, pat.comments = NULL;
            s = pl_life_write(co.out_path, &out);
            pl_life_pattern_free(&out);
            if (s != PL_OK) {
                rc = cli_fail(s);
                goto done;
            }
        }
        rc = PL_EXIT_OK;
        goto done;
    }

    /* ---------------- a torus or bounded plane: the packed grid through a grid rung */
    {
        const int64_t W = grid_dims[0], H = grid_dims[1], wpr = pl_life_words_per_row(W);
        const int torus = grid_kind == PL_LIFE_TORUS;
        if (variant && !strcmp(variant->name, "cpu-sparse")) { /* said in the tool's words, not the bench's */
            const char *grid_from = grid_given ? (torus ? "--torus" : "--plane")
                                    : soup     ? "--soup (a soup is a torus)"
                                    : torus    ? "the torus of the file's rule (:T)"
                                               : "the bounded plane of the file's rule (:P)";
            cli_error("life: cpu-sparse runs only on the unbounded plane; drop %s or pick another --variant", grid_from);
            rc = PL_EXIT_USAGE;
            goto done;
        }
        if (pat.w > W || pat.h > H) {
            cli_error("life: the pattern's %lldx%lld box is larger than the %lldx%lld %s", (long long)pat.w,
                      (long long)pat.h, (long long)W, (long long)H, torus ? "torus" : "plane");
            rc = PL_EXIT_USAGE;
            goto done;
        }
        char what[96];
        snprintf(what, sizeof what, "the %lldx%lld grid (two packed copies)", (long long)W, (long long)H);
        if ((rc = tool_fits_host("life", what, 2.0 * (double)H * (double)wpr * 8)) != 0) goto done;
        rc = PL_EXIT_FAIL;
        if (!(grid = pl_alloc((size_t)(H * wpr) * 8))) {
            cli_error("life: cannot allocate %s", what);
            goto done;
        }
        memset(grid, 0, (size_t)(H * wpr) * 8);
        const int64_t ox = soup ? 0 : W / 2 - pat.w / 2, oy = soup ? 0 : H / 2 - pat.h / 2; /* Golly's centring */
        for (int64_t y = 0; y < pat.h; y++)
            for (int64_t x = 0; x < pat.w; x++)
                if (pl_life_cell(&pat, x, y)) grid[(oy + y) * wpr + (ox + x) / 64] |= UINT64_C(1) << ((ox + x) % 64);
        {
            char size[64], tset[32];
            snprintf(size, sizeof size, "%lldx%lld", (long long)W, (long long)H);
            snprintf(tset, sizeof tset, "topology=%s", torus ? "torus" : "plane");
            pl_pvalues pv;
            pl_pvalues_default(kernel, &pv);
            pl_pvalues_set(kernel, &pv, NULL, tset);
            if ((rc = tool_context("life", kernel, size, &pv, co.backend, co.device, co.threads, variant, &ctx)) != 0)
                goto done;
            rc = PL_EXIT_FAIL;
        }
        const char *ran = variant ? variant->name : pl_life_best_variant_for(ctx, W, H);
        if (!ran) {
            cli_error("life: no life variant can run here");
            goto done;
        }
        {
            const int cuda = pl_ctx_backend(ctx) == PL_BACKEND_CUDA;
            const double updates = (double)W * (double)H * (double)gens, ceiling = life_rate_ceiling(cuda, co.threads);
            if (max_time > 0 && updates / ceiling > (double)max_time) {
                char where[48];
                if (cuda) snprintf(where, sizeof where, "a GPU");
                else snprintf(where, sizeof where, "%ld CPU threads", co.threads > 0 ? co.threads : (long)pl_cpu_cores());
                cli_error("life: %ld generations of the %lldx%lld %s are %.3g cell-updates: over %.3g s even at "
                          "%.3g a second, more than any rung reaches on %s, and --max-time is %ld s: give fewer "
                          "--gens, or --max-time 0 for no limit",
                          gens, (long long)W, (long long)H, torus ? "torus" : "plane", updates, updates / ceiling,
                          ceiling, where, max_time);
                rc = PL_EXIT_USAGE;
                goto done;
            }
        }
        double seconds = 0;
        int64_t box[4];
        for (int64_t done_gens = 0; done_gens < gens || (gens == 0 && done_gens == 0);) {
            const int64_t step = every > 0 && every < gens - done_gens ? every : gens - done_gens;
            const double t0 = tool_now();
            s = pl_life_variant(ctx, ran, NULL, W, H, grid, step, rule_name, torus);
            seconds += tool_now() - t0;
            if (s != PL_OK) {
                rc = s == PL_ERR_UNSUPPORTED ? (cli_fail(s), PL_EXIT_USAGE) : cli_fail(s);
                goto done;
            }
            done_gens += step;
            if (every > 0 || done_gens >= gens) report(done_gens, grid_census(grid, W, H, box), box);
            if (gens == 0) break;
        }
        const double updates = (double)W * (double)H * (double)gens;
        printf("%s on a %lldx%lld %s, %lld generations by %s in %.3f ms: %.3g cell-updates/s\n", rule_name,
               (long long)W, (long long)H, torus ? "torus" : "plane", (long long)gens, ran, seconds * 1e3,
               seconds > 0 ? updates / seconds : 0.0);
        if (co.out_path) {
            pl_life_pattern out;
            memset(&out, 0, sizeof out);
            out.w = W, out.h = H, out.words_per_row = wpr, out.bits = grid;
            snprintf(out.rule, sizeof out.rule, "%s", rule_name);
            out.grid = grid_kind, out.grid_w = W, out.grid_h = H;
            out.comments = pat.comments;
            s = pl_life_write(co.out_path, &out);
            if (s != PL_OK) {
                rc = cli_fail(s);
                goto done;
            }
        }
        rc = PL_EXIT_OK;
    }

done:
    pl_ctx_destroy(ctx);
    pl_life_sparse_destroy(plane);
    pl_free(grid);
    pl_life_pattern_free(&pat);
    return rc;
}
