/* fuzz_json.c: libFuzzer target for the JSON module (src/io/json.c): the reader that `parlab
 * report` reads bench files with, and the writer. What must hold for every input:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan), however
 *     deep, long or broken the text;
 *   - failure: a status other than PL_OK, a message, and no tree;
 *   - success: a tree whose every node is of a known type, containers with their counts (and an
 *     object a key for every member), strings NUL-terminated within their length;
 *   - the text read through the file entry (pl_json_read) gives the same verdict as from memory;
 *   - the writer's text of every string read reads back as that string, and of every number
 *     as that number to 9 significant digits (the writer's %.9g), or as null where the number
 *     is beyond the double's range (read as infinite).
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#include "fuzz_input.h"
#include "io/json.h"

#include <math.h>

/* the memory the reader may take (src/harness's real one is not linked): 64 MiB */
double pl_host_memory_available(void) { return 64.0 * 1024 * 1024; }

/* Write v (a string or a number) with json.c's writer and read it back. */
static void write_read_back(const pl_json *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) fuzz_die("open_memstream failed");
    if (v->type == PL_JSON_STRING) pl_json_write_string(f, v->str);
    else pl_json_write_num(f, v->num);
    fclose(f);
    pl_json *back = NULL;
    /* a number past the double's range reads as infinite, and is written as null */
    const pl_json_type want = v->type == PL_JSON_NUMBER && !isfinite(v->num) ? PL_JSON_NULL : v->type;
    if (pl_json_parse("written", buf, len, &back) != PL_OK || back->type != want)
        fuzz_die("the writer's text does not read back");
    if (v->type == PL_JSON_STRING && strcmp(back->str, v->str) != 0) fuzz_die("a string written and read back differs");
    if (want == PL_JSON_NUMBER && !(fabs(back->num - v->num) <= 1e-8 * fabs(v->num)))
        fuzz_die("a number written and read back differs beyond %.9g");
    pl_json_free(back);
    free(buf);
}

static void walk(const pl_json *v, int depth)
{
    if (depth > PL_JSON_MAX_DEPTH + 1) fuzz_die("deeper than the limit");
    switch (v->type) {
    case PL_JSON_NULL:
    case PL_JSON_BOOL: break;
    case PL_JSON_NUMBER: write_read_back(v); break;
    case PL_JSON_STRING:
        if (!v->str) fuzz_die("a string without its text");
        (void)strlen(v->str);
        write_read_back(v);
        break;
    case PL_JSON_ARRAY:
    case PL_JSON_OBJECT:
        if (v->n < 0 || (v->n > 0 && !v->items)) fuzz_die("a container without its items");
        for (int64_t i = 0; i < v->n; i++) {
            if (v->type == PL_JSON_OBJECT && (!v->keys || !v->keys[i])) fuzz_die("a member without its key");
            if (v->type == PL_JSON_OBJECT) (void)strlen(v->keys[i]);
            walk(&v->items[i], depth + 1);
        }
        break;
    default: fuzz_die("an unknown node type");
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_json");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pl_json *tree = NULL;
    pl_status st = pl_json_parse("input", (const char *)data, size, &tree);
    if (st != PL_OK) {
        if (tree) fuzz_die("a failed parse left a tree");
        if (pl_last_error()[0] == '\0') fuzz_die("a failed parse without a message");
    } else {
        if (!tree) fuzz_die("no tree after a successful parse");
        walk(tree, 0);
    }
    pl_json *again = NULL;
    pl_status st2 = pl_json_read(fuzz_input_file(data, size), &again);
    if ((st == PL_OK) != (st2 == PL_OK)) fuzz_die("the file entry and the memory entry disagree");
    pl_json_free(tree);
    pl_json_free(again);
    return 0;
}
