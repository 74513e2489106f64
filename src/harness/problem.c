/* problem.c: one kernel problem, set up once and shared by every variant run on it. The
 * problem struct is made and planned (plan.c) and checked against the host's memory
 * (fits.c); then the operands are allocated and filled from the seed (never zeros), the
 * inputs checksummed (so a run that writes into them is caught), and for the full check the
 * float64 reference and each element's bound scale computed. */
#include "core/core.h"
#include "harness/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress(const pl_problem_opts *o, double fraction)
{
    if (o->progress) o->progress(o->progress_user, "reference", fraction);
}

static int is_float(pl_dtype t) { return t == PL_F32 || t == PL_F64 || t == PL_BF16; }

void pl_problem_destroy(pl_problem *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        pl_free(p->t[i].host);
        pl_free(p->ref[i].host);
        pl_free(p->scale[i].host);
    }
    if (p->owns_spec) pl_spec_free(p->kernel, p->spec);
    free(p);
}

const void *pl_problem_spec(const pl_problem *p) { return p->spec; }
int pl_problem_id(const pl_problem *p) { return p->id; }
pl_check pl_problem_check(const pl_problem *p) { return p->check; }

static int next_problem_id(void)
{
    static int counter;
    return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

/* The host operands, and for the full check each output's reference and element scale:
 * dense (ld = cols), float64 for float outputs. */
static pl_status allocate_operands(pl_problem *p)
{
    pl_status s = PL_OK;
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        size_t bytes;
        s = pl_tensor_bytes(&p->t[i], &bytes);
        if (s == PL_OK && !(p->t[i].host = pl_alloc(bytes)))
            s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for operand %s", p->desc, bytes, p->t[i].name);
        if (s != PL_OK || p->t[i].role == PL_IN || p->check != PL_CHECK_FULL) continue;
        for (int which = 0; which < 2 && s == PL_OK; which++) {
            if (which == 1 && !is_float(p->t[i].dtype)) break;
            pl_tensor *r = which ? &p->scale[i] : &p->ref[i];
            *r = p->t[i];
            r->dtype = is_float(p->t[i].dtype) ? PL_F64 : p->t[i].dtype;
            r->ld = r->cols;
            r->host = NULL;
            s = pl_tensor_bytes(r, &bytes);
            if (s == PL_OK && !(r->host = pl_alloc(bytes)))
                s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for the reference", p->desc, bytes);
        }
    }
    return s;
}

/* Seeded inputs, the checksum of each input and in-out's initial value, and (full check)
 * the reference. */
static pl_status fill_and_reference(pl_problem *p, const pl_problem_opts *o)
{
    const pl_kernel *k = p->kernel;
    k->fill(p->spec, p->t, p->n, p->seed);
    for (int i = 0; i < p->n; i++)
        if (p->t[i].role != PL_OUT) p->sum[i] = pl_tensor_checksum(&p->t[i]);
    if (p->check != PL_CHECK_FULL) return PL_OK;
    progress(o, 0.0);
    pl_status s = k->reference(p->spec, p->t, p->n, p->ref, p->scale);
    progress(o, 1.0);
    return s;
}

/* The problem on a problem struct made already (spec, borrowed: it outlives the problem) or,
 * spec NULL, made here from size and pv (then owned). probe: no reference and no checks
 * (pl_problem_create_probe). */
static pl_status problem_create(pl_problem **out, const pl_kernel *k, const void *spec, const char *size,
                                const pl_pvalues *pv, const pl_problem_opts *o, int probe)
{
    *out = NULL;
    pl_problem *p = calloc(1, sizeof *p);
    if (!p) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    p->kernel = k;
    p->seed = o->seed;
    p->id = next_problem_id();
    /* The problem struct is made once; the plan (counts, check, memory) is read from it. */
    pl_plan plan;
    memset(&plan, 0, sizeof plan);
    pl_status s = PL_OK;
    if (spec) p->spec = (void *)spec; /* read only from here on, as every kernel call takes it */
    else if ((s = pl_spec_make(k, size, pv, &p->spec)) == PL_OK) p->owns_spec = 1;
    if (s == PL_OK) s = pl_plan_spec(k, p->spec, probe ? PL_CHECK_FULL : o->check, &plan);
    if (probe) plan.check = PL_CHECK_AUTO; /* neither */
    if (s == PL_OK) s = pl_plan_fits(&plan, NULL);
    p->check = plan.check;
    if (s == PL_OK) s = k->operands(p->spec, p->t, &p->n);
    if (s == PL_OK) {
        snprintf(p->desc, sizeof p->desc, "%s", plan.desc);
        s = allocate_operands(p);
    }
    if (s == PL_OK) s = fill_and_reference(p, o);
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    p->work = plan.work;
    p->ops = plan.ops;
    p->bytes = plan.bytes;
    p->device_bytes = plan.device_bytes;
    *out = p;
    return PL_OK;
}

pl_status pl_problem_create_opts(pl_problem **out, const pl_kernel *k, const char *size, const pl_pvalues *pv,
                                 const pl_problem_opts *opts)
{
    pl_problem_opts o = {42, PL_CHECK_AUTO, NULL, NULL};
    if (opts) o = *opts;
    return problem_create(out, k, NULL, size, pv, &o, 0);
}

pl_status pl_problem_create(pl_problem **p, const pl_kernel *k, const char *size, const double *pvals, uint64_t seed)
{
    pl_pvalues pv;
    pl_pvalues_default(k, &pv);
    for (int i = 0; pvals && i < k->n_problem_params && i < PL_MAX_PARAMS; i++) pv.num[i] = pvals[i];
    pl_problem_opts o = {seed, PL_CHECK_AUTO, NULL, NULL};
    return problem_create(p, k, NULL, size, &pv, &o, 0);
}

pl_status pl_problem_create_probe(pl_problem **p, const pl_kernel *k, const char *size, const pl_pvalues *pv,
                                  uint64_t seed)
{
    pl_problem_opts o = {seed, PL_CHECK_AUTO, NULL, NULL};
    return problem_create(p, k, NULL, size, pv, &o, 1);
}

pl_status pl_problem_create_spec(pl_problem **p, const pl_kernel *k, const void *spec, const pl_problem_opts *opts,
                                 int probe)
{
    pl_problem_opts o = {42, PL_CHECK_AUTO, NULL, NULL};
    if (opts) o = *opts;
    return problem_create(p, k, spec, NULL, NULL, &o, probe);
}
