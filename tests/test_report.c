/* test_report.c: a rung's ratios to its peers, and how the table, JSON and CSV show them.
 * The results are built by hand (no timing), so two CPU peers can be tested on any machine:
 * a rung gets one ratio per peer of the same size, backend and precision, and the outputs
 * carry every one of them. */
#include "check.h"
#include "harness/report.h"

#include <string.h>
#include <unistd.h>

static const pl_variant rung = {"cpu-simd", "a rung", PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, NULL};
static const pl_variant rung_tf32 = {"cuda-tf32", "a TF32 rung", PL_BACKEND_CUDA, 0, 0, PL_PREC_TF32, NULL, 0, NULL};
static const pl_variant ob = {"peer-openblas", "peer 1", PL_BACKEND_CPU, 1, 0, PL_PREC_FP32, NULL, 0, NULL};
static const pl_variant skx = {"peer-openblas-skx", "peer 2", PL_BACKEND_CPU, 1, 0, PL_PREC_FP32, NULL, 0, NULL};
static const pl_variant cub = {"peer-cublas", "GPU peer", PL_BACKEND_CUDA, 1, 0, PL_PREC_FP32, NULL, 0, NULL};
static const pl_variant cub_tf32 = {"peer-cublas-tf32", "TF32 peer", PL_BACKEND_CUDA, 1, 0, PL_PREC_TF32, NULL, 0, NULL};

static const int64_t sizes[] = {256};
static const pl_param_def long_params[2] = {
    {"blocksize_m", "rows", PL_PARAM_LIST, sizes, 1, 0, 0, 0, NULL, 256},
    {"blocksize_n", "cols", PL_PARAM_LIST, sizes, 1, 0, 0, 0, NULL, 256},
};
static const pl_variant rung_long = {"cpu-blocked", "params wider than the column", PL_BACKEND_CPU, 0, 0,
                                     PL_PREC_FP32, long_params, 2, NULL};

static pl_result make(const pl_variant *v, const char *size, double median_s)
{
    pl_result r;
    memset(&r, 0, sizeof r);
    r.kernel = pl_kernel_find("gemm");
    r.variant = v;
    snprintf(r.size, sizeof r.size, "%s", size);
    r.threads = v->backend == PL_BACKEND_CPU ? 2 : 0;
    r.repeats = 3;
    r.median_s = r.min_s = r.max_s = median_s;
    for (int p = 0; p < PL_N_PHASES; p++) r.phase_s[p] = -1;
    r.phase_s[PL_PHASE_KERNEL] = median_s;
    r.ceiling_pct = -1;
    snprintf(r.ceiling_name, sizeof r.ceiling_name, "-");
    r.bound = 1e-6;
    r.bound_why = "test";
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
    pl_report_peer_note(f, r, n);
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

int main(void)
{
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
    snprintf(json, sizeof json, "%s/parlab_test_report.%ld.json", dir, (long)getpid());
    snprintf(csv, sizeof csv, "%s/parlab_test_report.%ld.csv", dir, (long)getpid());
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
    } else {
        CHECK(0, "JSON file not written");
    }
    CHECK(pl_report_csv(csv, r, n, NULL) == PL_OK, "CSV: %s", pl_last_error());
    if (slurp(csv, out, sizeof out)) {
        CHECK(strstr(out, ",passed,peer_name,peer_ratio,peer2_name,peer2_ratio\n") != NULL, "CSV header:\n%s", out);
        CHECK(strstr(out, ",1,peer-openblas,2,peer-openblas-skx,0.5\n") != NULL, "CSV lacks both peers:\n%s", out);
        CHECK(strstr(out, ",1,peer-cublas-tf32,0.5,,\n") != NULL, "CSV: one peer, empty second:\n%s", out);
    } else {
        CHECK(0, "CSV file not written");
    }
    remove(json);
    remove(csv);
    return check_summary("report");
}
