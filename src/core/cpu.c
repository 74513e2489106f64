/* cpu.c: what this CPU can do, asked of the CPU itself (cpuid + xgetbv), so one binary picks
 * AVX2 or AVX-512 code at run time on any x86-64. */
#include "core/core.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
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

/* PARLAB_ISA_MAX=avx512|avx2|none: the most parlab may use of what this CPU has, so that a
 * machine with AVX-512 can run (and test) exactly what an AVX2-only or a pre-AVX2 x86-64 runs.
 * Unset or empty: everything the CPU has. Any other text: pl_cpu_isa_max_bad() says so (the
 * CLI refuses it) and nothing is hidden. */
static int isa_max_bad;

static unsigned isa_max_mask(void)
{
    const char *env = getenv("PARLAB_ISA_MAX");
    if (!env || !*env || !strcmp(env, "avx512")) return ~0u;
    if (!strcmp(env, "avx2")) return PL_FEAT_AVX2;
    if (!strcmp(env, "none")) return 0u;
    isa_max_bad = 1;
    return ~0u;
}

static unsigned feats;
static unsigned feats_hidden; /* what the CPU has and PARLAB_ISA_MAX hides */
static pthread_once_t feats_once = PTHREAD_ONCE_INIT;

static void find_features(void)
{
    unsigned all = detect_features();
    feats = all & isa_max_mask();
    feats_hidden = all & ~feats;
}

unsigned pl_cpu_features(void)
{
    pthread_once(&feats_once, find_features);
    return feats;
}

unsigned pl_cpu_features_hidden(void)
{
    pthread_once(&feats_once, find_features);
    return feats_hidden;
}

int pl_cpu_isa_max_bad(void)
{
    pthread_once(&feats_once, find_features);
    return isa_max_bad;
}

/* Physical cores this process may run on: the CPUs of its affinity mask, counted once per
 * (package, core) pair from sysfs, so SMT siblings share one count ("one thread per core" is
 * the default everywhere). Falls back to the mask's size, then to the online CPUs. */
static int n_cores;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static int read_topology(int cpu, const char *what)
{
    char path[96];
    int v = -1;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (fscanf(f, "%d", &v) != 1) v = -1;
    fclose(f);
    return v;
}

static void count_cores(void)
{
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    n_cores = online > 0 ? (int)online : 1;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return;
    int allowed = CPU_COUNT(&set);
    if (allowed < 1) return;
    n_cores = allowed;
    enum { MAX_SEEN = 4096 };
    static long seen[MAX_SEEN]; /* package << 20 | core, per allowed CPU */
    int n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && n < MAX_SEEN; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        int pkg = read_topology(cpu, "physical_package_id"), core = read_topology(cpu, "core_id");
        if (pkg < 0 || core < 0) return; /* no topology: keep the mask's count */
        long key = ((long)pkg << 20) | core;
        int dup = 0;
        for (int i = 0; i < n && !dup; i++) dup = seen[i] == key;
        if (!dup) seen[n++] = key;
    }
    if (n > 0) n_cores = n;
}

int pl_cpu_cores(void)
{
    pthread_once(&cores_once, count_cores);
    return n_cores;
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

const char *const pl_isa_choices[4] = {"auto", "avx2", "avx512", NULL};

pl_status pl_isa_pick(int64_t choice, int *avx512)
{
    unsigned f = pl_cpu_features();
    *avx512 = choice == 2 || (choice == 0 && (f & PL_FEAT_AVX512));
    if (*avx512 && !(f & PL_FEAT_AVX512)) return pl_fail(PL_ERR_UNSUPPORTED, "isa=avx512: this CPU has no AVX-512");
    if (!*avx512 && !(f & PL_FEAT_AVX2)) return pl_fail(PL_ERR_UNSUPPORTED, "this CPU has no AVX2");
    return PL_OK;
}

int64_t pl_dynamic_bands(int64_t rows, int threads, int per_thread, int64_t min_rows)
{
    int64_t bands = (int64_t)threads * per_thread, most = min_rows > 0 ? rows / min_rows : rows;
    if (bands > most) bands = most;
    if (bands < threads) bands = threads;
    if (bands > rows) bands = rows;
    return bands > 0 ? bands : 1;
}

int64_t pl_cpu_cache_bytes(int level)
{
    for (int i = 0; i < 8; i++) {
        char path[128], buf[64];
        int64_t lv = 0, kb = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f) break;
        if (fgets(buf, sizeof buf, f)) lv = strtoll(buf, NULL, 10);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!(f = fopen(path, "r"))) continue;
        const int instruction = fgets(buf, sizeof buf, f) && !strncmp(buf, "Instruction", 11);
        fclose(f);
        if (lv != level || instruction) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r"))) continue;
        if (fgets(buf, sizeof buf, f)) {
            char *end;
            kb = strtoll(buf, &end, 10);
            if (*end == 'M') kb *= 1024;
        }
        fclose(f);
        if (kb > 0) return kb * 1024;
    }
    static const int names[3] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
    const long s = level >= 1 && level <= 3 ? sysconf(names[level - 1]) : 0;
    return s > 0 ? s : 0;
}

int64_t pl_cpu_llc_bytes(int64_t fallback)
{
    int64_t b = pl_cpu_cache_bytes(3);
    if (b <= 0) b = pl_cpu_cache_bytes(2);
    return b > 0 ? b : fallback;
}
