/* bench.c: parlab.bench, the harness over sizes and rungs as `parlab bench` runs it, with the
 * rows of its JSON file as the result. The work runs on a thread of its own while the caller's
 * thread waits with the GIL released and looks for Ctrl-C every 50 ms; on one it sets the
 * contexts' cancel flag (pl_ctx_set_cancel), the harness stops between runs, and the caller
 * gets KeyboardInterrupt. Nothing is written but a temporary JSON file, removed either way. */
#include "ext.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_SIZES = 64, MAX_VARIANTS = 64 };

typedef struct job {
    /* in */
    const pl_kernel *k;
    char *sizes[MAX_SIZES];
    int n_sizes;
    const pl_variant *v[MAX_VARIANTS];
    int n_v;
    pl_pvalues pv;
    char *pv_text[PL_MAX_PARAMS]; /* the strings pv.str points into */
    pl_bench_config cfg;
    pl_check check;
    int threads, device;
    char json_path[4096];
    /* out */
    pl_status status;
    char msg[512];
    char notes[2048]; /* rungs that do not take a problem (a peer without it): one line each */
    /* the watch */
    volatile int cancel;
    int done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} job;

static void fail(job *j, pl_status s, const char *prefix)
{
    j->status = s;
    snprintf(j->msg, sizeof j->msg, "%s%s", prefix, *pl_last_error() ? pl_last_error() : pl_status_name(s));
}

static void note(job *j, const char *variant, const char *size)
{
    size_t used = strlen(j->notes);
    snprintf(j->notes + used, sizeof j->notes - used, "%s %s: %s\n", variant, size, pl_last_error());
}

/* The worker: every size, every rung, then the JSON file. */
static void *work(void *arg)
{
    job *j = arg;
    pl_ctx *ctx[3] = {NULL}; /* by backend: [PL_BACKEND_CPU], [PL_BACKEND_CUDA] */
    pl_result *res = calloc((size_t)j->n_sizes * (size_t)j->n_v + 1, sizeof *res);
    int n = 0;
    pl_peaks pk;
    memset(&pk, 0, sizeof pk);
    j->status = res ? PL_OK : PL_ERR_NOMEM;
    for (int i = 0; i < j->n_v && j->status == PL_OK; i++) {
        const pl_backend b = j->v[i]->backend;
        if (ctx[b]) continue;
        pl_status s = pl_ctx_create(&ctx[b], b, b == PL_BACKEND_CUDA ? j->device : 0, j->threads);
        if (s != PL_OK) fail(j, s, "");
        else pl_ctx_set_cancel(ctx[b], &j->cancel);
    }
    if (j->status == PL_OK && pl_peaks_get(ctx[PL_BACKEND_CUDA] ? ctx[PL_BACKEND_CUDA] : ctx[PL_BACKEND_CPU], &pk, 0) == PL_OK &&
        pk.valid)
        j->cfg.peaks = &pk;
    for (int z = 0; z < j->n_sizes && j->status == PL_OK; z++) {
        pl_problem_opts po = {.seed = j->cfg.seed, .check = j->check};
        pl_problem *p = NULL;
        pl_status s = pl_problem_create_opts(&p, j->k, j->sizes[z], &j->pv, &po);
        if (s != PL_OK) {
            fail(j, s, "");
            break;
        }
        for (int i = 0; i < j->n_v && j->status == PL_OK; i++) {
            if (j->cancel) {
                j->status = PL_ERR_CANCELLED;
                break;
            }
            s = pl_bench_variant(ctx[j->v[i]->backend], p, j->v[i], NULL, &j->cfg, &res[n]);
            if (s == PL_ERR_UNSUPPORTED) note(j, j->v[i]->name, j->sizes[z]); /* a rung without this problem */
            else if (s != PL_OK) fail(j, s, "");
            else n++;
        }
        pl_problem_destroy(p);
    }
    if (j->status == PL_OK) {
        pl_results_peer_ratios(res, n);
        pl_report_info info = {j->cfg.peaks, "parlab.bench (Python)", &j->pv};
        pl_status s = pl_report_json(j->json_path, res, n, &info);
        if (s != PL_OK) fail(j, s, "bench: ");
    }
    free(res);
    for (int b = 0; b < 3; b++) pl_ctx_destroy(ctx[b]);
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

/* Run the worker and wait for it, GIL released, looking for Ctrl-C (and any other signal
 * handler that raises) every 50 ms. 0 when the worker ended by itself, -1 with the handler's
 * exception set when it was cancelled. */
static int run_watched(job *j)
{
    pthread_t th;
    if (pthread_create(&th, NULL, work, j) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "bench: cannot start a thread");
        return -1;
    }
    int interrupted = 0, done = 0;
    while (!done) {
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&j->lock);
        if (!j->done) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_nsec += 50 * 1000 * 1000;
            if (t.tv_nsec >= 1000000000L) {
                t.tv_sec++;
                t.tv_nsec -= 1000000000L;
            }
            if (interrupted) pthread_cond_wait(&j->cond, &j->lock);
            else pthread_cond_timedwait(&j->cond, &j->lock, &t);
        }
        done = j->done;
        pthread_mutex_unlock(&j->lock);
        Py_END_ALLOW_THREADS
        if (!done && !interrupted && PyErr_CheckSignals() < 0) {
            interrupted = 1;
            __atomic_store_n(&j->cancel, 1, __ATOMIC_RELAXED);
        }
    }
    pthread_join(th, NULL);
    return interrupted ? -1 : 0;
}

/* The JSON file's text, or NULL with an exception. */
static PyObject *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    PyObject *chunks = PyList_New(0);
    char buf[65536];
    size_t got;
    while (chunks && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        PyObject *b = PyBytes_FromStringAndSize(buf, (Py_ssize_t)got);
        if (!b || PyList_Append(chunks, b) < 0) Py_CLEAR(chunks);
        Py_XDECREF(b);
    }
    fclose(f);
    if (!chunks) return NULL;
    PyObject *empty = PyBytes_FromString("");
    PyObject *all = empty ? PyObject_CallMethod(empty, "join", "O", chunks) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(chunks);
    if (!all) return NULL;
    PyObject *text = PyUnicode_FromEncodedObject(all, "utf-8", "strict");
    Py_DECREF(all);
    return text;
}

/* A Python sequence of str into up to max C strings (strdup'd); the count, or -1. */
static int strings(PyObject *seq, const char *what, char **out, int max)
{
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return -1;
    if (n > max) {
        plx_raisef(plx_err.Argument, "bench: %zd %s, at most %d", n, what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        PyObject *b = item ? PyUnicode_AsUTF8String(item) : NULL;
        Py_XDECREF(item);
        if (!b) return -1;
        out[i] = strdup(PyBytes_AsString(b));
        Py_DECREF(b);
        if (!out[i]) return (int)(PyErr_NoMemory(), -1);
    }
    return (int)n;
}

/* bench(kernel, sizes, variants, settings, threads, device, warmup, repeats, min_time, seed,
 * cold, check) -> (JSON text, notes) */
PyObject *plx_bench(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel;
    PyObject *osizes, *ovariants, *osettings;
    int threads, device, warmup, repeats, cold, check;
    double min_time;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "sOOOiiiidKpi", &kernel, &osizes, &ovariants, &osettings, &threads, &device, &warmup,
                          &repeats, &min_time, &seed, &cold, &check))
        return NULL;
    job *j = calloc(1, sizeof *j);
    if (!j) return PyErr_NoMemory();
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->cond, NULL);
    PyObject *result = NULL;
    char *names[MAX_VARIANTS] = {NULL};
    int n_names = -1, n_set = -1;
    j->k = pl_kernel_find(kernel);
    if (!j->k) {
        plx_raisef(plx_err.Argument, "bench: no kernel '%s' (parlab.list() names them)", kernel);
        goto done;
    }
    if ((j->n_sizes = strings(osizes, "sizes", j->sizes, MAX_SIZES)) < 0) goto done;
    if ((n_names = strings(ovariants, "variants", names, MAX_VARIANTS)) < 0) goto done;
    for (int i = 0; i < n_names; i++) {
        if (!(j->v[i] = pl_variant_find(j->k, names[i]))) {
            plx_raisef(plx_err.Argument, "bench: %s has no variant '%s' (parlab.list('%s'))", kernel, names[i], kernel);
            goto done;
        }
        j->n_v++;
    }
    pl_pvalues_default(j->k, &j->pv);
    if ((n_set = strings(osettings, "settings", j->pv_text, PL_MAX_PARAMS)) < 0) goto done;
    int given[PL_MAX_PARAMS] = {0};
    for (int i = 0; i < n_set; i++) {
        pl_status s = pl_pvalues_set(j->k, &j->pv, given, j->pv_text[i]);
        if (s != PL_OK) {
            plx_raise(s);
            goto done;
        }
    }
    pl_bench_config_default(&j->cfg);
    if (warmup >= 0) j->cfg.warmup = warmup;
    if (repeats > 0) j->cfg.repeats = repeats;
    if (min_time > 0) j->cfg.min_time_s = min_time;
    j->cfg.seed = seed;
    j->cfg.cold = cold;
    j->check = (pl_check)check;
    j->threads = threads;
    j->device = device;
    const char *tmpdir = getenv("TMPDIR");
    snprintf(j->json_path, sizeof j->json_path, "%s/parlab-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(j->json_path);
    if (fd < 0) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, j->json_path);
        goto done;
    }
    close(fd);
    if (run_watched(j) == 0) {
        if (j->status != PL_OK) plx_raise_msg(j->status, j->msg);
        else {
            PyObject *text = read_text(j->json_path);
            if (text) result = Py_BuildValue("(Ns)", text, j->notes);
        }
    }
    unlink(j->json_path);
done:
    for (int i = 0; i < n_names; i++) free(names[i]);
    for (int i = 0; i < j->n_sizes; i++) free(j->sizes[i]);
    for (int i = 0; i < n_set; i++) free(j->pv_text[i]);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j);
    return result;
}
