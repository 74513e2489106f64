/* peaks_mem_time.c: the memory bound of a run (pl_peaks_mem_time; the model: peaks.h,
 * docs/output.md "%peak"): the least time its bytes read and written need at the measured
 * stream rates, or at the cache-resident ones where a warm run fits in that cache. */
#include "harness/peaks.h"

#include <stdio.h>

double pl_peaks_mem_time(const pl_peaks *pk, int gpu, double bytes, double written, int cold, char *name,
                         size_t n)
{
    const char *unit = gpu ? "GPU" : "CPU";
    double R = gpu ? pk->gpu_read_gbps : pk->cpu_read_gbps;
    double W = gpu ? pk->gpu_write_gbps : pk->cpu_write_gbps;
    double copy = gpu ? pk->gpu_copy_gbps : pk->cpu_copy_gbps, triad = gpu ? 0.0 : pk->cpu_triad_gbps;
    double M = copy > triad ? copy : triad;
    const char *mname = copy >= triad ? "copy bandwidth" : "triad bandwidth";
    double t = 0.0;
    snprintf(name, n, "-");
    if (!(bytes > 0.0)) return 0.0;
    if (written >= 0.0 && written <= bytes) {
        double read = bytes - written;
        if (M > 0.0) {
            t = bytes / (M * 1e9);
            snprintf(name, n, "%s %s", unit, mname);
        }
        /* each stream at its own rate; a stream with no bytes needs no figure */
        if ((read <= 0.0 || R > 0.0) && (written <= 0.0 || W > 0.0)) {
            double split = (read > 0.0 ? read / (R * 1e9) : 0.0) + (written > 0.0 ? written / (W * 1e9) : 0.0);
            if (t <= 0.0 || split < t) {
                t = split;
                snprintf(name, n, "%s read/write streams", unit);
            }
        }
    } else {
        /* the split is unknown: every byte at the fastest stream */
        double fastest = R > W ? R : W;
        fastest = M > fastest ? M : fastest;
        if (fastest > 0.0) {
            t = bytes / (fastest * 1e9);
            snprintf(name, n, "%s fastest stream", unit);
        }
    }
    double cache = gpu ? pk->gpu_cache_bytes : pk->cpu_cache_bytes;
    double cr = gpu ? pk->gpu_cache_read_gbps : pk->cpu_cache_read_gbps;
    double cc = gpu ? pk->gpu_cache_copy_gbps : pk->cpu_cache_copy_gbps;
    double crate = cr > cc ? cr : cc;
    if (!cold && cache > 0.0 && bytes <= cache && crate > 0.0) {
        double tc = bytes / (crate * 1e9);
        if (t <= 0.0 || tc < t) {
            t = tc;
            snprintf(name, n, "%s %s-resident streams", unit, gpu ? "L2" : "LLC");
        }
    }
    return t;
}
