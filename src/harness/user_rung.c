/* user_rung.c: a user's own rung as the harness takes it: a pl_variant like the ladder's, with
 * is_user set, whose run calls the user's function through the kernel's call_user (the
 * function of a shared library, include/parlab_rung.h) or the caller's own run (the Python
 * package's callables). Everything about it is checked here, when it is made, so that a bad
 * library, symbol or declaration is a usage error before anything is timed. */

#include "core/core.h"
#include "harness/harness.h"
#include "parlab_rung.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PL_USER_RUNG_TEXT = 512 }; /* a library's path, an origin, an idea */

struct pl_user_rung {
    pl_variant v;            /* v.user points back here */
    const pl_kernel *kernel;
    char name[64];
    char idea[PL_USER_RUNG_TEXT];
    char origin[PL_USER_RUNG_TEXT];
    void *library;           /* dlopen's handle; NULL for a callback */
    void (*fn)(void);        /* the library's function */
    pl_status (*callback)(const pl_run_args *a);
    void *callback_data;
};

/* A library rung's run: the kernel unpacks its problem into the function's arguments. */
static pl_status run_library(const pl_run_args *a)
{
    const pl_user_rung *r = a->variant ? a->variant->user : NULL;
    if (!r || !r->fn) return pl_fail(PL_ERR_INTERNAL, "a user rung ran without its function");
    return r->kernel->call_user(r->fn, a);
}

static pl_status run_callback(const pl_run_args *a)
{
    const pl_user_rung *r = a->variant ? a->variant->user : NULL;
    if (!r || !r->callback) return pl_fail(PL_ERR_INTERNAL, "a user rung ran without its callback");
    return r->callback(a);
}

/* A name that reads in a list ("--variant a,b", "NAME=V" parameters) and is no rung already. */
static pl_status check_name(const pl_kernel *k, const char *name)
{
    if (!name[0]) return pl_fail(PL_ERR_ARG, "--rung-name: empty name");
    if (strlen(name) >= 64) return pl_fail(PL_ERR_ARG, "--rung-name '%s': longer than 63 characters", name);
    if (strpbrk(name, ", \t=:"))
        return pl_fail(PL_ERR_ARG, "--rung-name '%s': a name without commas, spaces, ':' or '='", name);
    if (pl_variant_find(k, name))
        return pl_fail(PL_ERR_ARG, "--rung-name '%s': %s has a rung of that name already (give another with "
                                   "--rung-name)", name, k->name);
    return PL_OK;
}

static pl_precision default_precision(const pl_kernel *k)
{
    return k->n_variants > 0 ? k->ladder[0]->precision : PL_PREC_FP32;
}

static pl_status make(pl_user_rung **out, const pl_kernel *k, const char *name, pl_backend backend,
                      pl_precision precision)
{
    *out = NULL;
    pl_status s = check_name(k, name);
    if (s != PL_OK) return s;
    pl_user_rung *r = calloc(1, sizeof *r);
    if (!r) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    r->kernel = k;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->v.name = r->name;
    r->v.idea = r->idea;
    r->v.backend = backend;
    r->v.precision = precision;
    r->v.requires = backend == PL_BACKEND_CUDA ? PL_REQ_CUDA : 0;
    r->v.is_user = 1;
    r->v.user = r;
    *out = r;
    return PL_OK;
}

/* What FN_parlab_rung declares, checked against the kernel and the backend asked for. */
static pl_status read_declaration(const pl_kernel *k, const char *rung, const pl_rung_decl *d, int *backend,
                                  pl_precision *precision)
{
    if (d->abi != PL_RUNG_ABI)
        return pl_fail(PL_ERR_ARG, "--rung %s: declared for parlab_rung.h ABI %d; this parlab reads ABI %d", rung,
                       d->abi, PL_RUNG_ABI);
    if (!d->kernel || strcmp(d->kernel, k->name) != 0)
        return pl_fail(PL_ERR_ARG, "--rung %s: declared as a %s rung, not %s", rung, d->kernel ? d->kernel : "(null)",
                       k->name);
    int declared = -1;
    if (d->backend && strcmp(d->backend, "cpu") == 0) declared = PL_BACKEND_CPU;
    else if (d->backend && strcmp(d->backend, "cuda") == 0) declared = PL_BACKEND_CUDA;
    else
        return pl_fail(PL_ERR_ARG, "--rung %s: declared backend '%s' (cpu or cuda)", rung,
                       d->backend ? d->backend : "(null)");
    if (*backend >= 0 && *backend != declared)
        return pl_fail(PL_ERR_ARG, "--rung %s: declared a %s rung, but --rung-backend says %s", rung, d->backend,
                       pl_backend_name((pl_backend)*backend));
    *backend = declared;
    if (!d->precision) return PL_OK;
    if (strcmp(d->precision, "fp32") == 0) *precision = PL_PREC_FP32;
    else if (strcmp(d->precision, "tf32") == 0) *precision = PL_PREC_TF32;
    else if (strcmp(d->precision, "exact") == 0) *precision = PL_PREC_EXACT;
    else if (strcmp(d->precision, "bf16") == 0) *precision = PL_PREC_BF16;
    else return pl_fail(PL_ERR_ARG, "--rung %s: declared precision '%s' (fp32, tf32, bf16 or exact)", rung,
                        d->precision);
    return PL_OK;
}

pl_status pl_user_rung_load(pl_user_rung **out, const pl_kernel *k, const char *path_fn, const char *name,
                            int backend)
{
    *out = NULL;
    if (!k || !path_fn) return pl_fail(PL_ERR_ARG, "--rung: no kernel or no PATH:FN");
    if (!k->call_user) return pl_fail(PL_ERR_ARG, "--rung %s: %s takes no user rungs", path_fn, k->name);
    const char *colon = strrchr(path_fn, ':');
    if (!colon || colon == path_fn || !colon[1])
        return pl_fail(PL_ERR_ARG, "--rung '%s': expected LIBRARY:FUNCTION (./libmine.so:my_%s)", path_fn, k->name);
    if (backend != -1 && backend != PL_BACKEND_CPU && backend != PL_BACKEND_CUDA)
        return pl_fail(PL_ERR_ARG, "--rung %s: unknown backend %d", path_fn, backend);
    char path[PL_USER_RUNG_TEXT];
    snprintf(path, sizeof path, "%.*s", (int)(colon - path_fn), path_fn);
    const char *fn_name = colon + 1;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return pl_fail(PL_ERR_ARG, "--rung %s: cannot load the library: %s", path_fn, dlerror());
    dlerror();
    void *sym = dlsym(lib, fn_name);
    if (!sym) {
        pl_fail(PL_ERR_ARG, "--rung %s: no function %s in %s (declared extern \"C\", exported?)", path_fn, fn_name,
                path);
        dlclose(lib);
        return PL_ERR_ARG;
    }
    char decl_name[PL_USER_RUNG_TEXT];
    snprintf(decl_name, sizeof decl_name, "%s_parlab_rung", fn_name);
    const pl_rung_decl *decl = dlsym(lib, decl_name);
    pl_precision precision = default_precision(k);
    pl_status s = decl ? read_declaration(k, path_fn, decl, &backend, &precision) : PL_OK;
    if (backend < 0) backend = PL_BACKEND_CPU;
    pl_user_rung *r = NULL;
    if (s == PL_OK) s = make(&r, k, name ? name : fn_name, (pl_backend)backend, precision);
    if (s != PL_OK) {
        dlclose(lib);
        return s;
    }
    r->library = lib;
    memcpy(&r->fn, &sym, sizeof r->fn); /* POSIX: a data pointer from dlsym names a function */
    r->v.run = run_library;
    snprintf(r->origin, sizeof r->origin, "%s", path_fn);
    snprintf(r->idea, sizeof r->idea, "your rung: %s (%s, %s)", path_fn, pl_backend_name(r->v.backend),
             pl_precision_name(precision));
    *out = r;
    return PL_OK;
}

pl_status pl_user_rung_callback(pl_user_rung **out, const pl_kernel *k, const char *name, pl_backend backend,
                                pl_precision precision, pl_status (*run)(const pl_run_args *a), void *user)
{
    *out = NULL;
    if (!k || !name || !run) return pl_fail(PL_ERR_ARG, "a user rung needs a kernel, a name and a run");
    if (backend != PL_BACKEND_CPU && backend != PL_BACKEND_CUDA)
        return pl_fail(PL_ERR_ARG, "rung %s: unknown backend %d", name, (int)backend);
    if (precision != PL_PREC_FP32 && precision != PL_PREC_TF32 && precision != PL_PREC_EXACT &&
        precision != PL_PREC_BF16)
        return pl_fail(PL_ERR_ARG, "rung %s: unknown precision %d", name, (int)precision);
    pl_user_rung *r = NULL;
    pl_status s = make(&r, k, name, backend, precision);
    if (s != PL_OK) return s;
    r->callback = run;
    r->callback_data = user;
    r->v.run = run_callback;
    snprintf(r->origin, sizeof r->origin, "python");
    snprintf(r->idea, sizeof r->idea, "your rung: a Python callable (%s, %s)", pl_backend_name(backend),
             pl_precision_name(precision));
    *out = r;
    return PL_OK;
}

void *pl_user_rung_data(const pl_variant *v)
{
    const pl_user_rung *r = v && v->is_user ? v->user : NULL;
    return r ? r->callback_data : NULL;
}

const pl_variant *pl_user_rung_variant(const pl_user_rung *r) { return r ? &r->v : NULL; }

const char *pl_user_rung_origin(const pl_user_rung *r) { return r ? r->origin : ""; }

void pl_user_rung_free(pl_user_rung *r)
{
    if (!r) return;
    /* The library stays loaded: a CUDA rung's kernels are registered with the runtime, which
     * may still refer to them at exit; unloading buys nothing in a process that ends soon. */
    free(r);
}
