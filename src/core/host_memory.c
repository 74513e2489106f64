/* host_memory.c: how much host memory this process may still take, asked of the machine
 * (/proc/meminfo, else sysconf) and of its cgroup (v2, then v1). The harness checks a problem
 * against it before allocating, the file readers a header's claimed size. Apart from
 * memory.c so that the fuzz targets, built from memory.c without this file, give their own
 * small pl_host_memory_available. (The device's free memory is pl_dev_mem_info, device.h.) */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A number from a file's first line; -1 if missing or "max". */
static double read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char buf[64] = "";
    double v = -1;
    if (fgets(buf, sizeof buf, f) && strncmp(buf, "max", 3) != 0) v = strtod(buf, NULL);
    fclose(f);
    return v;
}

/* MemAvailable, else the free pages; then no more than the cgroup's limit less its usage. */
double pl_host_memory_available(void)
{
    double avail = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lf kB", &avail) == 1) {
                avail *= 1024.0;
                break;
            }
        fclose(f);
    }
    if (avail < 0) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) avail = (double)pages * (double)page;
    }
    /* cgroup v2, then v1: the limit less what the group already uses. */
    double limit = read_number("/sys/fs/cgroup/memory.max"), used = read_number("/sys/fs/cgroup/memory.current");
    if (limit < 0) {
        limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    }
    if (limit > 0 && limit < 1e18) {
        double room = limit - (used > 0 ? used : 0);
        if (room < 0) room = 0;
        if (avail < 0 || room < avail) avail = room;
    }
    return avail > 0 ? avail : 0;
}
