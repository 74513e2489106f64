/* test_results.c: a rung's ratios to its peers, and how the table, JSON and CSV show them.
 * The results are built by hand (no timing), so two CPU peers can be tested on any machine:
 * a rung gets one ratio per peer of the same problem, backend and precision, and the outputs
 * carry every one of them; the footer states each precision's bounds and flags rows above
 * their ceiling. */
#include "check.h"
#include "parlab.h"

#include <stdlib.h>

#include <string.h>
#include <unistd.h>

static const pl_variant rung = {"cpu-simd", "a rung", PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, NULL, NULL, 0, 0, NULL};
static const pl_variant rung_tf32 = {"cuda-tf32", "a TF32 rung", PL_BACKEND_CUDA, 0, 0, PL_PREC_TF32, NULL, 0, NULL, NULL, 0, 0, NULL};
static const pl_variant ob = {"peer-openblas", "peer 1", PL_BACKEND_CPU, 1, 0, PL_PREC_FP32, NULL, 0, NULL, NULL, 0, 0, NULL};
static const pl_variant skx = {"peer-openblas-skx", "peer 2", PL_BACKEND_CPU, 1, 0, PL_PREC_FP32, NULL, 0, NULL, NULL, 0, 0, NULL};
static const pl_variant cub = {"peer-cublas", "GPU peer", PL_BACKEND_CUDA, 1, 0, PL_PREC_FP32, NULL, 0, NULL, NULL, 0, 0, NULL};
static const pl_variant cub_tf32 = {"peer-cublas-tf32", "TF32 peer", PL_BACKEND_CUDA, 1, 0, PL_PREC_TF32, NULL, 0, NULL, NULL, 0, 0, NULL};

static const int64_t sizes[] = {256};
static const pl_param_def long_params[2] = {
    {"blocksize_m", "rows", PL_PARAM_LIST, sizes, 1, 0, 0, 0, NULL, 256},
    {"blocksize_n", "cols", PL_PARAM_LIST, sizes, 1, 0, 0, 0, NULL, 256},
};
static const pl_variant rung_long = {"cpu-blocked", "params wider than the column", PL_BACKEND_CPU, 0, 0,
                                     PL_PREC_FP32, long_params, 2, NULL, NULL, 0, 0, NULL};

static pl_result make(const pl_variant *v, const char *size, double median_s)
{
    pl_result r;
    memset(&r, 0, sizeof r);
    r.kernel = pl_kernel_find("gemm");
    r.variant = v;
    snprintf(r.size, sizeof r.size, "%s", size);
    r.problem_id = atoi(size); /* one problem per size here */
    r.unit = PL_UNIT_FLOP;
    r.work = r.ops = 2.0 * 64 * 64 * 64;
    r.rate = r.work / median_s * 1e-9;
    r.check = PL_CHECK_FULL;
    r.elem_bound = 1e-5;
    r.elem_why = v->precision == PL_PREC_TF32 ? "elem-why-tf32" : "elem-why-fp32";
    r.inputs_ok = 1;
    r.threads = v->backend == PL_BACKEND_CPU ? 2 : 0;
    r.repeats = 3;
    r.median_s = r.min_s = r.max_s = median_s;
    for (int p = 0; p < PL_N_PHASES; p++) r.phase_s[p] = -1;
    r.phase_s[PL_PHASE_KERNEL] = median_s;
    r.ceiling_pct = -1;
    snprintf(r.ceiling_name, sizeof r.ceiling_name, "-");
    r.bound = 1e-6;
    r.bound_why = v->precision == PL_PREC_TF32 ? "bound-why-tf32" : "bound-why-fp32";
    r.verified = 1;
    r.padding_ok = 1;
    r.n_peers = 0;
    return r;
}

/* The whole of a file, NUL-terminated, in buf. */
static int slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return 1;
}

static void table(const pl_result *r, int n, char *buf, size_t size)
{
    FILE *f = tmpfile();
    if (!f) {
        buf[0] = '\0';
        return;
    }
    pl_report_table(f, r, n);
    pl_report_footer(f, r, n);
    rewind(f);
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    fclose(f);
}

/* Every line of the table (not the note after it) has the same length: the right-aligned
 * last column lines up. */
static int aligned(const char *text, int lines)
{
    size_t first = strcspn(text, "\n");
    for (int i = 0; i < lines && *text; i++) {
        size_t len = strcspn(text, "\n");
        if (len != first) return 0;
        text += len + (text[len] == '\n');
    }
    return 1;
}

/* Issue 19: a long variant name and a long size widen their columns: every line of the table
 * keeps one length, and the size column starts where its header does. */
static const pl_variant rung_long_name = {"cpu-histogram-log-table-wide", "a name wider than the column",
                                          PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, NULL, NULL, 0, 0, NULL};
static void long_names_aligned(void)
{
    static char text[16384];
    pl_result rows[2] = {make(&rung_long_name, "100000x100000x100000", 1.0e-3), make(&rung, "64", 2.0e-3)};
    rows[0].problem_id = rows[1].problem_id = 1;
    pl_results_peer_ratios(rows, 2);
    table(rows, 2, text, sizeof text);
    CHECK(aligned(text, 3), "long variant name and size: table lines differ in length:\n%s", text);
    const char *second = strchr(text, '\n');
    const char *size_head = strstr(text, "size"), *size_row = second ? strstr(second, "100000x100000x100000") : NULL;
    CHECK(second && size_head && size_row && size_head - text == size_row - (second + 1),
          "the size column does not start under its header:\n%s", text);
}

int main(void)
{
    long_names_aligned();
    /* Two CPU peers and a rung at 64; a GPU FP32 peer, a TF32 rung and its peer; a rung at 32
     * with no peer; peer-openblas again at 64 (its first run counts). */
    pl_result r[9];
    int n = 0;
    r[n++] = make(&rung, "64", 1.0e-3);
    r[n++] = make(&ob, "64", 2.0e-3);
    r[n++] = make(&skx, "64", 0.5e-3);
    r[n++] = make(&cub, "64", 0.1e-3);
    r[n++] = make(&rung_tf32, "64", 0.2e-3);
    r[n++] = make(&cub_tf32, "64", 0.1e-3);
    r[n++] = make(&rung, "32", 1.0e-4);
    r[n++] = make(&ob, "64", 4.0e-3);
    r[n++] = make(&ob, "16", 1.0e-5);

    pl_results_peer_ratios(r, n);
    CHECK(r[0].n_peers == 2, "rung at 64: %d peers, want 2", r[0].n_peers);
    CHECK(r[0].peers[0].name && !strcmp(r[0].peers[0].name, "peer-openblas"), "first peer: %s", r[0].peers[0].name);
    CHECK(r[0].peers[1].name && !strcmp(r[0].peers[1].name, "peer-openblas-skx"), "second peer: %s",
          r[0].peers[1].name);
    CHECK(r[0].peers[0].ratio == 2.0 && r[0].peers[1].ratio == 0.5, "ratios %g %g, want 2 0.5",
          r[0].peers[0].ratio, r[0].peers[1].ratio);
    CHECK(r[4].n_peers == 1 && !strcmp(r[4].peers[0].name, "peer-cublas-tf32") && r[4].peers[0].ratio == 0.5,
          "TF32 rung pairs only with the TF32 peer (%d peers)", r[4].n_peers);
    CHECK(r[6].n_peers == 0, "rung at 32 has no peer");
    for (int i = 0; i < n; i++)
        if (r[i].variant->is_peer) CHECK(r[i].n_peers == 0, "a peer has no ratio (%d)", i);
    /* The same size text on another problem (other parameters) is not a peer of it. */
    pl_result other[2] = {make(&rung, "64", 1.0e-3), make(&ob, "64", 2.0e-3)};
    other[1].problem_id = 9999;
    pl_results_peer_ratios(other, 2);
    CHECK(other[0].n_peers == 0, "paired with a peer of another problem of the same size text");
    /* Running it again gives the same (it starts afresh). */
    pl_results_peer_ratios(r, n);
    CHECK(r[0].n_peers == 2, "second call: %d peers", r[0].n_peers);

    /* The table: named ratios, as soon as one rung has two peers; columns still aligned. */
    char text[8192];
    table(r, n, text, sizeof text);
    CHECK(strstr(text, "2.00x openblas, 0.50x openblas-skx") != NULL, "table lacks both ratios:\n%s", text);
    CHECK(strstr(text, "0.50x cublas-tf32") != NULL, "table lacks the named TF32 ratio:\n%s", text);
    CHECK(strstr(text, "each peer's median time") != NULL, "note does not explain several peers:\n%s", text);
    CHECK(aligned(text, n + 1), "table lines differ in length:\n%s", text);
    /* The footer: one line per precision with its own bounds. */
    CHECK(strstr(text, "bound-why-fp32") && strstr(text, "elem-why-fp32"), "footer lacks the FP32 bounds:\n%s", text);
    CHECK(strstr(text, "bound-why-tf32") && strstr(text, "elem-why-tf32"), "footer lacks the TF32 bounds:\n%s", text);
    CHECK(strstr(text, "GFLOP/s") != NULL, "the rate column is not named by the unit:\n%s", text);
    CHECK(!strstr(text, "!:"), "a flag without a row above its ceiling:\n%s", text);
    /* A kernel counted in bytes shows its rate once (GB/s), not twice. */
    pl_result bytes[1] = {make(&rung, "64", 1.0e-3)};
    bytes[0].unit = PL_UNIT_BYTE;
    table(bytes, 1, text, sizeof text);
    {
        int n_gbps = 0;
        for (const char *q = text; (q = strstr(q, "GB/s")) != NULL && q < text + strcspn(text, "\n"); q++) n_gbps++;
        CHECK(n_gbps == 1, "a bytes kernel's header shows GB/s %d times:\n%s", n_gbps, text);
    }
    /* A row above its ceiling is flagged in the row and explained under the table. */
    pl_result over[1] = {make(&rung, "64", 1.0e-3)};
    over[0].ceiling_pct = 250.0;
    over[0].over_ceiling = 1;
    table(over, 1, text, sizeof text);
    CHECK(strstr(text, "250.0!") && strstr(text, "!: above 100%"), "over-ceiling row not flagged:\n%s", text);
    /* A failed row says where its worst element is. */
    pl_result failed[1] = {make(&rung, "64", 1.0e-3)};
    failed[0].verified = 0;
    failed[0].last.elem_ratio = 12.5;
    failed[0].last.row = 7;
    failed[0].last.col = 3;
    failed[0].last.operand = 2;
    table(failed, 1, text, sizeof text);
    CHECK(strstr(text, "FAILED cpu-simd 64") && strstr(text, "[7, 3]"), "failed row's worst element:\n%s", text);

    /* One peer per rung: the plain "2.00x", as before. */
    pl_result one[2] = {make(&rung, "64", 1.0e-3), make(&ob, "64", 2.0e-3)};
    pl_results_peer_ratios(one, 2);
    table(one, 2, text, sizeof text);
    CHECK(strstr(text, "   2.00x\n") != NULL && !strstr(text, "openblas,"), "single peer not plain:\n%s", text);
    CHECK(strstr(text, "vs peer: the peer's median time") != NULL, "single-peer note:\n%s", text);
    CHECK(aligned(text, 3), "single-peer table lines differ in length:\n%s", text);

    /* Parameters wider than the params column widen it. */
    pl_result wide[2] = {make(&rung_long, "64", 1.0e-3), make(&ob, "64", 2.0e-3)};
    wide[0].params[0] = wide[0].params[1] = 256;
    pl_results_peer_ratios(wide, 2);
    table(wide, 2, text, sizeof text);
    CHECK(strstr(text, "blocksize_m=256,blocksize_n=256 64") != NULL, "long params:\n%s", text);
    CHECK(aligned(text, 3), "long-params table lines differ in length:\n%s", text);

    /* JSON and CSV. */
    char json[256], csv[256];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(json, sizeof json, "%s/parlab_test_results.%ld.json", dir, (long)getpid());
    snprintf(csv, sizeof csv, "%s/parlab_test_results.%ld.csv", dir, (long)getpid());
    static char out[65536];
    CHECK(pl_report_json(json, r, n, NULL) == PL_OK, "JSON: %s", pl_last_error());
    if (slurp(json, out, sizeof out)) {
        CHECK(strstr(out, "\"peers\": [{\"name\": \"peer-openblas\", \"ratio\": 2}, "
                          "{\"name\": \"peer-openblas-skx\", \"ratio\": 0.5}]") != NULL,
              "JSON lacks both peers:\n%s", out);
        CHECK(strstr(out, "\"peers\": []") != NULL, "JSON: a peer's empty list");
        /* "peer" is the is-a-peer flag, once per result. */
        int flags = 0;
        for (const char *p = out; (p = strstr(p, "\"peer\": ")) != NULL; p++) flags++;
        CHECK(flags == n, "JSON: %d \"peer\" keys for %d results", flags, n);
        CHECK(strstr(out, "\"unit\": \"flop\"") && strstr(out, "\"rate_unit\": \"GFLOP/s\"") &&
              strstr(out, "\"check\": \"full\"") && strstr(out, "\"ceiling\": {\"name\": "),
              "JSON lacks unit, rate, check kind or ceiling:\n%s", out);
    } else {
        CHECK(0, "JSON file not written");
    }
    CHECK(pl_report_csv(csv, r, n, NULL) == PL_OK, "CSV: %s", pl_last_error());
    if (slurp(csv, out, sizeof out)) {
        CHECK(strstr(out, ",passed,peer_name,peer_ratio,peer2_name,peer2_ratio\n") != NULL, "CSV header:\n%s", out);
        CHECK(strstr(out, ",unit,work,rate,rate_unit,") && strstr(out, ",ceiling,ceiling_pct,over_ceiling,check,"),
              "CSV header lacks unit/rate/ceiling/check:\n%s", out);
        CHECK(strstr(out, ",1,peer-openblas,2,peer-openblas-skx,0.5\n") != NULL, "CSV lacks both peers:\n%s", out);
        CHECK(strstr(out, ",1,peer-cublas-tf32,0.5,,\n") != NULL, "CSV: one peer, empty second:\n%s", out);
    } else {
        CHECK(0, "CSV file not written");
    }
    remove(json);
    remove(csv);
    return check_summary("results");
}
