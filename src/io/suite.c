/* suite.c: reading a suite file (bench/default.suite): each line's words, after '#' comments,
 * handed to the caller, which runs them. A line may name another suite, read through this
 * same function: the suites being read are kept, outermost first, so a file that includes
 * itself, directly or through another, is refused, as is nesting past a fixed depth. */
#define _POSIX_C_SOURCE 200809L
#include "io/io.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { SUITE_MAX_DEPTH = 16 };
static char *suite_stack[SUITE_MAX_DEPTH];
static int suite_depth;

/* The line's words into *words (grown as needed, room for `spare` more after them); their count, or -1. */
static int split_words(char *line, char ***words, int *cap, int spare)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (n + spare + 1 >= *cap) {
            int c = *cap ? 2 * *cap : 16;
            while (n + spare + 1 >= c) c *= 2;
            char **a = realloc(*words, (size_t)c * sizeof *a);
            if (!a) return -1;
            *words = a;
            *cap = c;
        }
        (*words)[n++] = tok;
    }
    return n;
}

pl_status pl_suite_read(const char *path, int spare, pl_suite_line_fn run_line, void *user, int *worst)
{
    *worst = 0;
    char *real = realpath(path, NULL);
    if (!real) return pl_fail(PL_ERR_IO, "cannot open %s", path);
    for (int i = 0; i < suite_depth; i++)
        if (!strcmp(suite_stack[i], real)) {
            free(real);
            return pl_fail(PL_ERR_ARG, "%s includes itself%s%s; refused", path, i + 1 < suite_depth ? " through " : "",
                           i + 1 < suite_depth ? suite_stack[suite_depth - 1] : "");
        }
    if (suite_depth == SUITE_MAX_DEPTH) {
        free(real);
        return pl_fail(PL_ERR_ARG, "%s: suites nested more than %d deep; refused", path, SUITE_MAX_DEPTH);
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        free(real);
        return pl_fail(PL_ERR_IO, "cannot open %s", path);
    }
    suite_stack[suite_depth++] = real;
    char *line = NULL, **words = NULL;
    size_t cap = 0;
    int lineno = 0, cap_words = 0;
    pl_status st = PL_OK;
    while (getline(&line, &cap, f) >= 0) { /* lines of any length */
        lineno++;
        int n = split_words(line, &words, &cap_words, spare);
        if (n < 0) {
            st = pl_fail(PL_ERR_NOMEM, "out of memory");
            break;
        }
        if (n == 0) continue;
        int r = run_line(user, path, lineno, n, words);
        if (r > *worst) *worst = r;
    }
    free(words);
    free(line);
    fclose(f);
    free(suite_stack[--suite_depth]);
    return st;
}
