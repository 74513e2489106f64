/* bench.c: parlab.bench, the library's bench session (harness/session.h) over sizes and rungs
 * as `parlab bench` runs it, with the rows of its JSON file as the result. The work runs on a
 * thread of its own while the caller's thread waits with the GIL released and looks for Ctrl-C
 * every 50 ms; on one it sets the contexts' cancel flag (pl_ctx_set_cancel), the harness stops
 * between runs, and the caller gets KeyboardInterrupt. Nothing is written but a temporary JSON
 * file, removed either way. The rungs may include Python callables (rung.c): the worker then
 * holds a Python thread state for their calls, and a failed call is raised as its exception. */
#include "ext.h"
#include "harness/session.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_SIZES = 64, MAX_VARIANTS = 64 };

typedef struct job {
    /* in */
    pl_session run; /* the kernel, sizes, settings and jobs; then the results */
    char *sizes[MAX_SIZES];
    char *pv_text[PL_MAX_PARAMS]; /* the strings run.pv.str points into */
    char json_path[4096];
    /* out */
    pl_status status;
    char msg[512];
    char notes[2048]; /* rungs that do not take a problem (a peer without it): one line each */
    const pl_variant *python_rungs[MAX_VARIANTS]; /* the jobs whose rung is a Python callable (rung.c) */
    int n_python_rungs;
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

/* The session's lines: a rung without a problem is a note; failures end the session with the
 * library's own message (fail), the rest is for a terminal. */
static void note(void *user, pl_say kind, const char *text)
{
    job *j = user;
    if (kind != PL_SAY_SKIPPED) return;
    size_t used = strlen(j->notes);
    snprintf(j->notes + used, sizeof j->notes - used, "%s\n", text);
}

/* The worker: the library's session (plan, checks, every size, every rung), then the JSON file. */
static void *work(void *arg)
{
    job *j = arg;
    pl_session *run = &j->run;
    plx_rung_thread python;
    if (j->n_python_rungs) plx_rung_thread_begin(&python);
    pl_status s = pl_session_prepare(run);
    if (s == PL_OK) s = pl_session_run(run);
    if (s != PL_OK) fail(j, s, "");
    else {
        pl_report_info info = {run->cfg.peaks, "parlab.bench (Python)", &run->pv};
        if ((s = pl_report_json(j->json_path, run->results, run->n_results, &info)) != PL_OK) fail(j, s, "bench: ");
    }
    pl_session_free(run);
    if (j->n_python_rungs) plx_rung_thread_end(&python);
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

/* A str as a C string (strdup'd into *out): 0, or -1 with an exception. */
static int strings_one(PyObject *item, char **out)
{
    PyObject *b = PyUnicode_AsUTF8String(item);
    if (!b) return -1;
    *out = strdup(PyBytes_AsString(b));
    Py_DECREF(b);
    return *out ? 0 : (PyErr_NoMemory(), -1);
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
        int rc = item ? strings_one(item, &out[i]) : -1;
        Py_XDECREF(item);
        if (rc < 0) {
            for (Py_ssize_t u = 0; u < i; u++) free(out[u]);
            return -1;
        }
    }
    return (int)n;
}

/* A Python rung's failed call stopped the session: its exception, raised (1); else 0. */
static int raise_python_rung(const job *j)
{
    for (int i = 0; i < j->n_python_rungs; i++)
        if (plx_rung_raise_pending(j->python_rungs[i])) return 1;
    return 0;
}

/* The jobs, in order: a name is a rung of the ladder, auto-selected (a rung that does not take
 * a problem is a note, as it always was here); a capsule is a Python rung, named by the user.
 * The names strdup'd into names; their count, or -1 with an exception. */
static int add_jobs(job *j, PyObject *ovariants, char **names)
{
    const pl_kernel *k = j->run.kernel;
    Py_ssize_t n = PySequence_Size(ovariants);
    if (n > MAX_VARIANTS) {
        plx_raisef(plx_err.Argument, "bench: %zd variants, at most %d", n, MAX_VARIANTS);
        return -1;
    }
    int n_names = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(ovariants, i);
        if (!item) return -1;
        const pl_variant *v = plx_rung_variant(item);
        if (v) j->python_rungs[j->n_python_rungs++] = v;
        else if (strings_one(item, &names[n_names]) == 0) {
            v = pl_variant_find(k, names[n_names++]);
            if (!v) plx_raisef(plx_err.Argument, "bench: %s has no variant '%s' (parlab.list('%s'))", k->name,
                               names[n_names - 1], k->name);
        }
        Py_DECREF(item);
        pl_status s = v ? pl_session_add_job(&j->run, v, NULL, !v->is_user) : PL_OK;
        if (s != PL_OK) plx_raise(s);
        if (!v || s != PL_OK) {
            for (int u = 0; u < n_names; u++) free(names[u]);
            return -1;
        }
    }
    return n_names;
}

/* bench(kernel, sizes, variants, settings, threads, device, warmup, repeats, min_time, seed,
 * cold, check) -> (JSON text, notes). variants: names, and the capsules of Python rungs
 * (rung.c), whose failed call is raised as its own exception. */
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
    int n_names = -1, n_set = -1, n_sizes = -1;
    pl_session *run = &j->run;
    const pl_kernel *k = pl_kernel_find(kernel);
    if (!k) {
        plx_raisef(plx_err.Argument, "bench: no kernel '%s' (parlab.list() names them)", kernel);
        goto done;
    }
    pl_session_init(run, k);
    if ((n_sizes = strings(osizes, "sizes", j->sizes, MAX_SIZES)) < 0) goto done;
    run->sizes = (const char *const *)j->sizes;
    run->n_sizes = n_sizes;
    if ((n_names = add_jobs(j, ovariants, names)) < 0) goto done;
    if ((n_set = strings(osettings, "settings", j->pv_text, PL_MAX_PARAMS)) < 0) goto done;
    int given[PL_MAX_PARAMS] = {0};
    for (int i = 0; i < n_set; i++) {
        pl_status s = pl_pvalues_set(k, &run->pv, given, j->pv_text[i]);
        if (s != PL_OK) {
            plx_raise(s);
            goto done;
        }
    }
    if (warmup >= 0) run->cfg.warmup = warmup;
    if (repeats > 0) run->cfg.repeats = repeats;
    if (min_time > 0) run->cfg.min_time_s = min_time;
    run->cfg.seed = seed;
    run->cfg.cold = cold;
    run->check = (pl_check)check;
    run->threads = threads;
    run->device = device;
    run->max_time = 0; /* every rung named runs */
    run->peaks_mode = PL_SESSION_PEAKS_CACHED;
    run->cancel = &j->cancel;
    run->stop_on_failure = 1;
    run->hooks = (pl_session_hooks){.user = j, .say = note};
    const char *tmpdir = getenv("TMPDIR");
    snprintf(j->json_path, sizeof j->json_path, "%s/parlab-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(j->json_path);
    if (fd < 0) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, j->json_path);
        goto done;
    }
    close(fd);
    if (run_watched(j) == 0) {
        if (j->status != PL_OK) {
            if (!raise_python_rung(j)) plx_raise_msg(j->status, j->msg);
        } else {
            PyObject *text = read_text(j->json_path);
            if (text) result = Py_BuildValue("(Ns)", text, j->notes);
        }
    }
    unlink(j->json_path);
done:
    pl_session_free(run); /* again after the worker's: a freed session is empty */
    for (int i = 0; i < n_names; i++) free(names[i]);
    for (int i = 0; i < n_sizes; i++) free(j->sizes[i]);
    for (int i = 0; i < n_set; i++) free(j->pv_text[i]);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j);
    return result;
}
