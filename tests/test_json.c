/* test_json.c: the JSON module (src/io/json.c). The strict reader that `parlab report` reads
 * bench files with: values of every type, escapes and surrogate pairs to UTF-8, positions; and
 * every refusal named with its line and column: trailing commas, NaN, leading zeros, control
 * characters, lone surrogates, \u0000, nesting past the limit, text after the value. The
 * writer: its exact text for strings and numbers, which the reader takes back unchanged; the
 * measured peaks in both forms (a results file's machine.peaks, the `parlab peaks --json`
 * document), exactly, each read back. */
#include "check.h"
#include "io/json.h"

#include <stdio.h>
#include <string.h>

static pl_json *parse_ok(const char *text)
{
    pl_json *v = NULL;
    pl_status st = pl_json_parse("t.json", text, strlen(text), &v);
    CHECK(st == PL_OK && v, "'%s' parses: %s", text, pl_last_error());
    return v;
}

static void refused(const char *text, const char *where_what)
{
    pl_json *v = NULL;
    pl_status st = pl_json_parse("t.json", text, strlen(text), &v);
    CHECK(st == PL_ERR_FORMAT && !v && strstr(pl_last_error(), where_what), "'%s' refused with '%s': got %d '%s'",
          text, where_what, (int)st, pl_last_error());
    pl_json_free(v);
}

/* What the writer makes of a string and of numbers, exactly, and the reader's reading of it. */
static void test_writer(void)
{
    char text[512];
    FILE *f = fmemopen(text, sizeof text, "w");
    CHECK(f != NULL, "fmemopen");
    if (!f) return;
    const char *s = "q\"b\\ t\tn\n\x01\x1f \xc3\xa9 /";
    fputc('[', f);
    pl_json_write_string(f, s);
    fputc(',', f);
    pl_json_write_string(f, NULL);
    const double nums[] = {0.1, -2.5e-300, 1234567.25, 1.0 / 0.0, 0.0 / 0.0};
    for (int i = 0; i < 5; i++) fputc(',', f), pl_json_write_num(f, nums[i]);
    fputc(']', f);
    fclose(f);
    const char *want = "[\"q\\\"b\\\\ t\\u0009n\\u000a\\u0001\\u001f \xc3\xa9 /\",\"\",0.1,-2.5e-300,1234567.25,null,null]";
    CHECK(strcmp(text, want) == 0, "written: %s\nwant:    %s", text, want);
    pl_json *v = parse_ok(text);
    CHECK(v && v->type == PL_JSON_ARRAY && v->n == 7 && v->items[0].type == PL_JSON_STRING &&
              strcmp(v->items[0].str, s) == 0 && v->items[1].str && v->items[1].str[0] == '\0' &&
              v->items[2].num == 0.1 && v->items[3].num == -2.5e-300 && v->items[4].num == 1234567.25 && v->items[5].type == PL_JSON_NULL,
          "the writer's text read back differs");
    pl_json_free(v);
}

/* pk written in form into text (of n bytes); the count of top-level members read back, or -1
 * where the text is not JSON. */
static int64_t write_peaks(const pl_peaks *pk, pl_peaks_json_form form, char *text, size_t n)
{
    FILE *f = fmemopen(text, n, "w");
    CHECK(f != NULL, "fmemopen");
    if (!f) return -1;
    pl_peaks_json_write(f, pk, form, "/c/peaks-X.txt", "avx2");
    fclose(f);
    pl_json *v = NULL;
    pl_status st = pl_json_parse("peaks.json", text, strlen(text), &v);
    int64_t members = st == PL_OK && v->type == PL_JSON_OBJECT ? v->n : -1;
    pl_json_free(v);
    return members;
}

/* The peaks in both forms, exactly: which members in which order, a figure of 0 (0 in a
 * results file, null in the document), load1's digits, a load1 of 0 written, an unknown one
 * null in both. */
static void test_peaks_writer(void)
{
    pl_peaks pk;
    memset(&pk, 0, sizeof pk);
    snprintf(pk.machine, sizeof pk.machine, "AMD \"X\" 2c");
    pk.valid = 1, pk.cpu_threads = 2, pk.cpu_write_nt = 1, pk.implicit = 1;
    pk.cpu_gflops_scalar[0] = 1.5, pk.cpu_gflops_scalar[1] = 3;
    pk.cpu_gflops_avx2[0] = 10, pk.cpu_gflops_avx2[1] = 20;
    pk.cpu_gops_int32[0] = 7, pk.cpu_gops_int32[1] = 14;
    pk.cpu_triad_gbps = 33.25, pk.cpu_read_gbps = 31.5, pk.cpu_write_gbps = 59.125, pk.cpu_copy_gbps = 48;
    pk.cpu_read_1thr_gbps = 20.5, pk.cpu_cache_bytes = 33554432, pk.cpu_cache_read_gbps = 194.875;
    pk.cpu_cache_copy_gbps = 179.5, pk.load1 = 1.23456789, pk.spread = 0.04321;
    snprintf(pk.gpu_tf32_method, sizeof pk.gpu_tf32_method, "none");
    snprintf(pk.cpu_mode, sizeof pk.cpu_mode, "quick");
    snprintf(pk.gpu_mode, sizeof pk.gpu_mode, "none");
    snprintf(pk.measured, sizeof pk.measured, "2026-11-22T10:31:02Z");
    snprintf(pk.spread_what, sizeof pk.spread_what, "cpu_read_gbps");
    snprintf(pk.sanity, sizeof pk.sanity, "busy\tmachine");
    char text[4096];
    int64_t n = write_peaks(&pk, PL_PEAKS_JSON_RESULTS, text, sizeof text);
    const char *want =
        "{\"cpu_gflops_avx512\": [0, 0], \"cpu_gflops_avx2\": [10, 20], \"cpu_triad_gbps\": 33.25, "
        "\"gpu_gflops_fp32\": 0, \"gpu_copy_gbps\": 0, \"gpu_gflops_tf32\": 0, \"cpu_gops_int32\": [7, 14], "
        "\"gpu_gops_int32\": 0, \"cpu_read_gbps\": 31.5, \"cpu_write_gbps\": 59.125, \"cpu_copy_gbps\": 48, "
        "\"cpu_cache_bytes\": 3.35544e+07, \"cpu_cache_read_gbps\": 194.875, \"cpu_cache_copy_gbps\": 179.5, "
        "\"gpu_read_gbps\": 0, \"gpu_write_gbps\": 0, \"gpu_cache_bytes\": 0, \"gpu_cache_read_gbps\": 0, "
        "\"gpu_cache_copy_gbps\": 0, \"cpu_mode\": \"quick\", \"gpu_mode\": \"none\", "
        "\"measured\": \"2026-11-22T10:31:02Z\", \"load1\": 1.23456789, \"spread\": 0.04321, \"sane\": false, "
        "\"sanity\": \"busy\\u0009machine\", \"cached\": false, \"implicit\": true}";
    CHECK(strcmp(text, want) == 0, "machine.peaks written:\n%s\nwant:\n%s", text, want);
    CHECK(n == 28, "machine.peaks reads back as an object of 28 members: %lld", (long long)n);
    n = write_peaks(&pk, PL_PEAKS_JSON_DOCUMENT, text, sizeof text);
    want = "{\n  \"machine\": \"AMD \\\"X\\\" 2c\",\n  \"cache_file\": \"/c/peaks-X.txt\",\n  \"cpu_mode\": \"quick\",\n"
           "  \"gpu_mode\": \"none\",\n  \"cpu_threads\": 2,\n  \"cpu_gflops_scalar\": [1.5, 3],\n"
           "  \"cpu_gflops_avx2\": [10, 20],\n  \"cpu_gflops_avx512\": [null, null],\n  \"cpu_int32_isa\": \"avx2\",\n"
           "  \"cpu_gops_int32\": [7, 14],\n  \"cpu_triad_gbps\": 33.25,\n  \"gpu_gflops_fp32\": null,\n"
           "  \"gpu_gflops_tf32\": null,\n  \"gpu_tf32_method\": \"none\",\n  \"gpu_gops_int32\": null,\n"
           "  \"gpu_copy_gbps\": null,\n  \"cpu_read_gbps\": 31.5,\n  \"cpu_write_gbps\": 59.125,\n  \"cpu_copy_gbps\": 48,\n"
           "  \"cpu_read_1thr_gbps\": 20.5,\n  \"cpu_cache_bytes\": 3.35544e+07,\n  \"cpu_cache_read_gbps\": 194.875,\n"
           "  \"cpu_cache_copy_gbps\": 179.5,\n  \"gpu_read_gbps\": null,\n  \"gpu_write_gbps\": null,\n"
           "  \"gpu_cache_bytes\": null,\n  \"gpu_cache_read_gbps\": null,\n  \"gpu_cache_copy_gbps\": null,\n"
           "  \"cpu_write_nt\": true,\n  \"measured\": \"2026-11-22T10:31:02Z\",\n  \"load1\": 1.235,\n  \"spread\": 0.04321,\n"
           "  \"spread_what\": \"cpu_read_gbps\",\n  \"sane\": false,\n  \"sanity\": \"busy\\u0009machine\",\n"
           "  \"cached\": false\n}\n";
    CHECK(strcmp(text, want) == 0, "the peaks document written:\n%s\nwant:\n%s", text, want);
    CHECK(n == 36, "the peaks document reads back as an object of 36 members: %lld", (long long)n);
    pk.load1 = 0; /* an idle machine: a figure, not unknown */
    write_peaks(&pk, PL_PEAKS_JSON_DOCUMENT, text, sizeof text);
    CHECK(strstr(text, "\"load1\": 0,\n") != NULL, "a load1 of 0 in the document: %s", text);
    pk.load1 = -1;
    write_peaks(&pk, PL_PEAKS_JSON_RESULTS, text, sizeof text);
    CHECK(strstr(text, "\"load1\": null, ") != NULL, "an unknown load1 in machine.peaks: %s", text);
    write_peaks(&pk, PL_PEAKS_JSON_DOCUMENT, text, sizeof text);
    CHECK(strstr(text, "\"load1\": null,\n") != NULL, "an unknown load1 in the document: %s", text);
}

int main(void)
{
    test_writer();
    test_peaks_writer();
    pl_json *v = parse_ok(" {\"a\": [1, -2.5e3, true, false, null, \"x\\n\\u00e9\\ud83d\\ude00\"],\n \"b\": {}, \"a\": 7}");
    if (v) {
        const pl_json *a = pl_json_get(v, "a"), *b = pl_json_get(v, "b");
        CHECK(v->type == PL_JSON_OBJECT && v->n == 3, "an object of 3 members");
        CHECK(a && a->type == PL_JSON_ARRAY && a->n == 6, "a: an array of 6 (the first of two 'a' counts)");
        CHECK(a && a->items[0].num == 1 && a->items[1].num == -2500 && a->items[2].boolean == 1 &&
                  a->items[3].type == PL_JSON_BOOL && a->items[3].boolean == 0 && a->items[4].type == PL_JSON_NULL,
              "numbers, booleans, null");
        CHECK(a && a->items[5].type == PL_JSON_STRING && !strcmp(a->items[5].str, "x\n\xc3\xa9\xf0\x9f\x98\x80"),
              "escapes: \\n, \\u00e9 and a surrogate pair to UTF-8: '%s'", a ? a->items[5].str : "");
        CHECK(b && b->type == PL_JSON_OBJECT && b->n == 0 && b->line == 2 && b->col == 7,
              "b: an empty object at 2:7 (at %d:%d)", b ? b->line : 0, b ? b->col : 0);
        CHECK(!pl_json_get(v, "c") && !pl_json_get(a, "a"), "absent members and non-objects give NULL");
    }
    pl_json_free(v);
    pl_json_free(parse_ok("0"));
    pl_json_free(parse_ok("[]"));
    pl_json_free(parse_ok("\"\""));
    pl_json_free(parse_ok("-0.5E-3"));

    refused("", "t.json:1:1: expected a value, found the end of the file");
    refused("[1, 2,]", "t.json:1:7: a comma before ']'");
    refused("{\"a\": 1,}", "t.json:1:9: a comma before '}'");
    refused("[NaN]", "t.json:1:2: expected a value, found 'N'");
    refused("[Infinity]", "t.json:1:2: expected a value, found 'I'");
    refused("012", "t.json:1:2: a number does not start with 0 and a digit");
    refused("1.", "t.json:1:3: digits must follow the decimal point");
    refused("1e", "t.json:1:3: digits must follow the exponent");
    refused("\"a\tb\"", "t.json:1:3: byte 0x09 inside a string");
    refused("\"\\ud800\"", "t.json:1:8: a \\u high surrogate without its low surrogate");
    refused("\"\\udc00\"", "a \\u low surrogate alone");
    refused("\"\\u0000\"", "\\u0000");
    refused("\"\\x\"", "t.json:1:3: unknown escape");
    refused("\"abc", "a string is not closed");
    refused("\"abc\\", "a string is not closed");
    refused("{\"a\" 1}", "t.json:1:6: expected ':'");
    refused("{1: 2}", "t.json:1:2: expected a member name in quotes");
    refused("[1 2]", "t.json:1:4: expected ',' or ']'");
    refused("{}\n x", "t.json:2:2: something after the JSON value");
    refused("tru", "expected a value");
    char deep[200];
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = 0;
    refused(deep, "nested deeper than 64");
    deep[64] = ']', deep[129] = 0; /* 64 deep: taken */
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = 0;
    pl_json_free(parse_ok(deep));
    return check_summary("test_json");
}
