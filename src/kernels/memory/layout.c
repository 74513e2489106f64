/* layout: P particles of 8 float fields (x y z vx vy vz m q) as an array of structs (AoS: a
 * particle's fields together), a struct of arrays (SoA: each field an array) and an array of
 * structs of arrays (AoSoA: blocks of 16 particles, each field 16 floats in a row), P
 * beyond the last-level cache, one thread. Two updates: every field touched (x += vx dt and so
 * on, m and q read: all 32 bytes a particle move either way) and one field only (x *= k: AoS
 * moves the whole 32-byte particle for 4 useful bytes, SoA and AoSoA only the x's). Rows: ns a
 * particle. Checksum: the three layouts hold the same particles after the same updates. */
#include "kernels/memory/mem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { FIELDS = 8, BLOCK = 16 };
typedef struct particle {
    float x, y, z, vx, vy, vz, m, q;
} particle;
typedef struct particle_block {
    float f[FIELDS][BLOCK];
} particle_block;

typedef struct layout_args {
    particle *aos;
    float *soa;             /* field k at soa + k * p */
    particle_block *aosoa;
    int64_t p;
    int layout, one_field;  /* layout 0 AoS, 1 SoA, 2 AoSoA */
} layout_args;

#define DT 0.001f
#define K 1.0000001f

static void layout_kernel(void *arg)
{
    layout_args *l = arg;
    const int64_t p = l->p;
    if (l->layout == 0) {
        particle *a = l->aos;
        if (l->one_field)
            for (int64_t i = 0; i < p; i++) a[i].x *= K;
        else
            for (int64_t i = 0; i < p; i++) {
                const float s = DT * a[i].q / a[i].m;
                a[i].x += a[i].vx * DT, a[i].y += a[i].vy * DT, a[i].z += a[i].vz * DT;
                a[i].vx += s, a[i].vy -= s, a[i].vz += s;
            }
    } else if (l->layout == 1) {
        float *x = l->soa, *y = x + p, *z = y + p, *vx = z + p, *vy = vx + p, *vz = vy + p, *m = vz + p, *q = m + p;
        if (l->one_field)
            for (int64_t i = 0; i < p; i++) x[i] *= K;
        else
            for (int64_t i = 0; i < p; i++) {
                const float s = DT * q[i] / m[i];
                x[i] += vx[i] * DT, y[i] += vy[i] * DT, z[i] += vz[i] * DT;
                vx[i] += s, vy[i] -= s, vz[i] += s;
            }
    } else {
        for (int64_t b = 0; b < p / BLOCK; b++) {
            float(*f)[BLOCK] = l->aosoa[b].f;
            if (l->one_field)
                for (int i = 0; i < BLOCK; i++) f[0][i] *= K;
            else
                for (int i = 0; i < BLOCK; i++) {
                    const float s = DT * f[7][i] / f[6][i];
                    f[0][i] += f[3][i] * DT, f[1][i] += f[4][i] * DT, f[2][i] += f[5][i] * DT;
                    f[3][i] += s, f[4][i] -= s, f[5][i] += s;
                }
        }
    }
}

static float start_value(int64_t i, int k) { return k == 6 ? 1.0f + (float)(i % 7) : (float)((i * 31 + k * 17) % 101) * 0.01f; }

pl_status pl_mem_layout(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    int64_t p = o->quick ? (int64_t)1 << 15 : 4 * llc / (int64_t)sizeof(particle);
    p = p / BLOCK * BLOCK;
    layout_args l = {pl_alloc((size_t)p * sizeof(particle)), pl_alloc((size_t)p * sizeof(particle)),
                     pl_alloc((size_t)p * sizeof(particle)), p, 0, 0};
    if (!l.aos || !l.soa || !l.aosoa) {
        pl_free(l.aos), pl_free(l.soa), pl_free(l.aosoa);
        return pl_fail(PL_ERR_NOMEM, "mem layout: no memory for %lld particles three times", (long long)p);
    }
    for (int64_t i = 0; i < p; i++)
        for (int k = 0; k < FIELDS; k++) {
            const float v = start_value(i, k);
            ((float *)&l.aos[i])[k] = v;
            l.soa[k * p + i] = v;
            l.aosoa[i / BLOCK].f[k][i % BLOCK] = v;
        }
    snprintf(t->setup, sizeof t->setup, "%lld particles of 8 floats (%.1f MiB a layout), one thread", (long long)p,
             (double)p * 32.0 / 1048576.0);
    static const char *const names[3] = {"AoS", "SoA", "AoSoA (16)"};
    double ns[2][3];
    for (int one = 0; one < 2; one++)
        for (int lay = 0; lay < 3; lay++) {
            l.layout = lay, l.one_field = one;
            mem_row *r = pl_mem_row(t, "ns/particle", "%s, %s", names[lay], one ? "one field (x)" : "every field");
            pl_mem_time(layout_kernel, &l, o->reps, (double)p, 1e9, 1, r);
            ns[one][lay] = r->best;
        }
    /* every layout ran the same updates the same number of times: the same particles */
    int64_t bad = 0;
    for (int64_t i = 0; i < p; i++)
        for (int k = 0; k < FIELDS; k++) {
            const float a = ((float *)&l.aos[i])[k];
            bad += a != l.soa[k * p + i] || a != l.aosoa[i / BLOCK].f[k][i % BLOCK];
        }
    t->checksums_ok = bad == 0;
    pl_free(l.aos), pl_free(l.soa), pl_free(l.aosoa);
    snprintf(t->reading, sizeof t->reading, "every field: AoS %.2f, SoA %.2f, AoSoA %.2f ns a particle (all bytes "
             "move either way); one field: AoS %.2f against SoA %.2f (%.1fx: AoS drags the 28 unused bytes of every "
             "particle through the caches)", ns[0][0], ns[0][1], ns[0][2], ns[1][0], ns[1][1],
             ns[1][1] > 0 ? ns[1][0] / ns[1][1] : 0);
    return PL_OK;
}
