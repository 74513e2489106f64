/* peaks_kvfile.c: the text the peaks cache is written in: "key = value" lines, white space
 * around both trimmed, '#' starting a comment line, blank lines skipped; the last line that
 * sets a key counts. Lines are at most PL_KV_PL_KV_LINE_LEN bytes of text (a NUL byte is not text),
 * at most PL_KV_PL_KV_MAX_FIELDS of them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) s[--len] = '\0';
    return s;
}

/* Read the "key = value" lines of a file. A missing file: PL_ERR_IO with errno ENOENT kept;
 * anything that is not such lines: PL_ERR_FORMAT, with the line (not the path) in the message. */
pl_status pl_kv_read(const char *path, pl_kvfile *kf)
{
    kf->n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        pl_status s = pl_fail(PL_ERR_IO, "cannot open %s: %s", path, strerror(e));
        errno = e;
        return s;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0;
    pl_status s = PL_OK;
    while (s == PL_OK && (got = getline(&line, &cap, f)) >= 0) {
        lineno++;
        /* a NUL byte would end the line early and hide the rest of it: not text */
        if (got >= PL_KV_LINE_LEN || strlen(line) != (size_t)got) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: too long or not text", lineno);
            break;
        }
        char *t = trim(line);
        if (*t == '\0' || *t == '#') continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: not a \"key = value\" line", lineno);
            break;
        }
        *eq = '\0';
        char *k = trim(t), *v = trim(eq + 1);
        if (*k == '\0' || strlen(k) >= PL_KV_KEY_LEN || strlen(v) >= PL_KV_VAL_LEN) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: bad key or value", lineno);
            break;
        }
        if (kf->n == PL_KV_MAX_FIELDS) {
            s = pl_fail(PL_ERR_FORMAT, "more than %d lines", PL_KV_MAX_FIELDS);
            break;
        }
        strcpy(kf->key[kf->n], k);
        strcpy(kf->val[kf->n], v);
        kf->n++;
    }
    free(line);
    if (s == PL_OK && ferror(f)) s = pl_fail(PL_ERR_IO, "cannot read %s", path);
    fclose(f);
    return s;
}

/* The value of key (the last line that sets it), or NULL. */
const char *pl_kv_get(const pl_kvfile *kf, const char *key)
{
    for (int i = kf->n - 1; i >= 0; i--)
        if (strcmp(kf->key[i], key) == 0) return kf->val[i];
    return NULL;
}

/* A finite number >= 0 written in full; 0 if missing or malformed. */
int pl_kv_num(const pl_kvfile *kf, const char *key, double *out)
{
    const char *v = pl_kv_get(kf, key);
    if (!v || !*v) return 0;
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || !isfinite(d) || d < 0.0) return 0;
    *out = d;
    return 1;
}
