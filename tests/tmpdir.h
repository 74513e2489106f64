/* tmpdir.h: what the file-format tests (test_npy, test_pgm, test_arrays) share: a fresh
 * directory of their own (mkdtemp under $TMPDIR), paths in it and beside the test sources,
 * raw bytes written as a file, the count of temporary files a failed write left behind, and the
 * directory removed at the end. */
#ifndef PL_TEST_TMPDIR_H
#define PL_TEST_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[512];

/* A fresh "$TMPDIR/parlab-<name>-XXXXXX"; 0 on success. */
static inline int tmpdir_make(const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/parlab-%s-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", name);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

/* dir/name (four results live at once). */
static inline const char *in_dir(const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* tests/<rel>, beside this file (two results live at once). */
static inline const char *in_tests(const char *rel)
{
    static char buf[2][1024];
    static int k;
    k = (k + 1) % 2;
    snprintf(buf[k], sizeof buf[k], "%s", __FILE__);
    char *slash = strrchr(buf[k], '/');
    if (slash) slash[1] = '\0';
    else buf[k][0] = '\0';
    strncat(buf[k], rel, sizeof buf[k] - strlen(buf[k]) - 1);
    return buf[k];
}

static inline int write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(p, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* The entries of dir whose name contains ".tmp." (temporary files a write left behind). */
static inline int count_tmp_files(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp.")) n++;
    closedir(d);
    return n;
}

/* Remove dir and the files in it. */
static inline void tmpdir_remove(void)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        unlink(in_dir(e->d_name));
    }
    closedir(d);
    rmdir(dir);
}

#endif
