/* cpu.c: what this CPU can do, asked of the CPU itself (cpuid + xgetbv), so one binary picks
 * AVX2 or AVX-512 code at run time on any x86-64. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static unsigned detect_features(void)
{
    unsigned f = 0;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int osxsave = (c >> 27) & 1, fma = (c >> 12) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx) return 0;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    int ymm_os = (xcr0_lo & 0x6) == 0x6;          /* XMM and YMM state saved by the OS */
    int zmm_os = ymm_os && (xcr0_lo & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1, avx512dq = (b >> 17) & 1;
    int avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    if (ymm_os && avx2 && fma) f |= PL_FEAT_AVX2;
    if (zmm_os && (f & PL_FEAT_AVX2) && avx512f && avx512dq && avx512bw && avx512vl)
        f |= PL_FEAT_AVX512;
#endif
    (void)0;
    return f;
}

unsigned pl_cpu_features(void)
{
    static int done;
    static unsigned feats;
    if (!done) {
        feats = detect_features();
        done = 1;
    }
    return feats;
}

int pl_cpu_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

const char *pl_cpu_name(void)
{
    static char name[128];
    if (name[0]) return name;
    snprintf(name, sizeof name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return name;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t') colon++;
                snprintf(name, sizeof name, "%s", colon);
                name[strcspn(name, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
    return name;
}
