/* rungs.c: the user's own rungs on the command line, and the worker process each one runs in.
 *
 * The worker is this program again (/proc/self/exe __rung-worker), started fresh for each
 * rung and size (a fork alone could not use CUDA in the child once the parent has a context):
 * the job goes to its standard input as one record, its figures come back on descriptor 3,
 * what it prints (the rung's own output too) comes to our stderr as it is written. The worker
 * makes the same problem from the same size, parameters and seed, so its inputs and
 * reference are the parent's; it times and checks the rung with pl_bench_variant, the user
 * checks included, and the parent's session places the figures on its peaks. A signal, an
 * exit without a result, or no result by --rung-timeout ends that row with what happened. */
#define _POSIX_C_SOURCE 200809L
#include "cli/rungs.h"
#include "cli/cli.h"
#include "core/core.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { RUNG_MAGIC = 0x50524e47, RUNG_VERSION = 1, PV_TEXT = 1024, TAIL = 400 };

/* The job, as the worker needs it to make the same problem and run the same rung. */
typedef struct rung_request {
    unsigned magic, version;
    char kernel[32];
    char size[256];
    char path_fn[1024];
    char name[64];
    int backend;
    double pv_num[PL_MAX_PARAMS];
    int pv_has_str[PL_MAX_PARAMS];
    char pv_str[PL_MAX_PARAMS][PV_TEXT];
    int check, warmup, repeats, max_repeats, cold, threads, device;
    double min_time_s;
    uint64_t seed;
} rung_request;

/* Its answer: the status of pl_bench_variant, its message, and the result (pointers zeroed). */
typedef struct rung_response {
    unsigned magic;
    int status;
    char msg[1024];
    pl_result r;
} rung_response;

/* ---------------------------------------------------------------- options */

int cli_rungs_option(cli_rungs *r, const char *opt, const char *value)
{
    if (!strcmp(opt, "--rung")) {
        if (r->n == CLI_MAX_RUNGS) {
            cli_error("--rung: at most %d rungs", CLI_MAX_RUNGS);
            return PL_EXIT_USAGE;
        }
        r->arg[r->n++] = (cli_rung_arg){value, NULL, -1};
        return PL_EXIT_OK;
    }
    if (!strcmp(opt, "--rung-timeout")) {
        char *end;
        errno = 0;
        double t = strtod(value, &end);
        if (end == value || *end || errno || !(t > 0 && t <= 1e6)) {
            cli_error("--rung-timeout: '%s' is not a number of seconds in (0, 1e6]", value);
            return PL_EXIT_USAGE;
        }
        r->timeout_s = t;
        return PL_EXIT_OK;
    }
    if (!strcmp(opt, "--rung-in-process")) {
        r->in_process = 1;
        return PL_EXIT_OK;
    }
    cli_rung_arg *last = r->n ? &r->arg[r->n - 1] : NULL;
    if (!last) {
        cli_error("%s %s: give it after the --rung it belongs to", opt, value);
        return PL_EXIT_USAGE;
    }
    if (!strcmp(opt, "--rung-name")) {
        if (last->name) {
            cli_error("--rung-name given twice for --rung %s ('%s' and '%s')", last->path_fn, last->name, value);
            return PL_EXIT_USAGE;
        }
        last->name = value;
        return PL_EXIT_OK;
    }
    /* --rung-backend */
    if (last->backend != -1) {
        cli_error("--rung-backend given twice for --rung %s", last->path_fn);
        return PL_EXIT_USAGE;
    }
    if (!strcmp(value, "cpu")) last->backend = PL_BACKEND_CPU;
    else if (!strcmp(value, "cuda")) last->backend = PL_BACKEND_CUDA;
    else {
        cli_error("--rung-backend: '%s' is not one of cpu, cuda", value);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int cli_rungs_load(cli_rungs *r, const pl_kernel *k)
{
    for (int i = 0; i < r->n; i++) {
        pl_status st = pl_user_rung_load(&r->loaded[i], k, r->arg[i].path_fn, r->arg[i].name, r->arg[i].backend);
        for (int j = 0; j < i && st == PL_OK; j++)
            if (!strcmp(pl_user_rung_variant(r->loaded[j])->name, pl_user_rung_variant(r->loaded[i])->name))
                st = pl_fail(PL_ERR_ARG, "--rung %s: the name %s is taken by --rung %s (give another with --rung-name)",
                             r->arg[i].path_fn, pl_user_rung_variant(r->loaded[i])->name, r->arg[j].path_fn);
        if (st != PL_OK) {
            cli_error("%s", pl_last_error());
            return PL_EXIT_USAGE;
        }
    }
    return PL_EXIT_OK;
}

int cli_rungs_add_jobs(const cli_rungs *r, pl_session *s)
{
    for (int i = 0; i < r->n; i++) {
        pl_status st = pl_session_add_job(s, pl_user_rung_variant(r->loaded[i]), NULL, 0);
        if (st != PL_OK) return cli_fail(st);
    }
    return PL_EXIT_OK;
}

void cli_rungs_free(cli_rungs *r)
{
    for (int i = 0; i < r->n; i++) pl_user_rung_free(r->loaded[i]);
    memset(r->loaded, 0, sizeof r->loaded);
}

/* ---------------------------------------------------------------- the parent's side */

static int write_full(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

static size_t read_full(int fd, void *buf, size_t n)
{
    char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    return got;
}

static pl_status make_request(const cli_rungs *rs, const pl_session *s, int z, const pl_session_job *j,
                              rung_request *q)
{
    int i = 0;
    while (i < rs->n && (!rs->loaded[i] || pl_user_rung_variant(rs->loaded[i]) != j->v)) i++;
    if (i == rs->n) return pl_fail(PL_ERR_INTERNAL, "%s: not a rung of this command line", j->v->name);
    memset(q, 0, sizeof *q);
    q->magic = RUNG_MAGIC, q->version = RUNG_VERSION;
    snprintf(q->kernel, sizeof q->kernel, "%s", s->kernel->name);
    if (snprintf(q->size, sizeof q->size, "%s", s->sizes[z]) >= (int)sizeof q->size)
        return pl_fail(PL_ERR_ARG, "%s: the size '%s' is too long for a rung's worker", j->v->name, s->sizes[z]);
    snprintf(q->path_fn, sizeof q->path_fn, "%s", rs->arg[i].path_fn);
    snprintf(q->name, sizeof q->name, "%s", j->v->name);
    q->backend = (int)j->v->backend;
    for (int k = 0; k < PL_MAX_PARAMS; k++) {
        q->pv_num[k] = s->pv.num[k];
        if (!s->pv.str[k]) continue;
        if (snprintf(q->pv_str[k], PV_TEXT, "%s", s->pv.str[k]) >= PV_TEXT)
            return pl_fail(PL_ERR_ARG, "%s: a --set text longer than %d characters", j->v->name, PV_TEXT - 1);
        q->pv_has_str[k] = 1;
    }
    q->check = (int)s->plans[z].check; /* resolved: AUTO could resolve otherwise there */
    q->warmup = s->cfg.warmup, q->repeats = s->cfg.repeats, q->max_repeats = s->cfg.max_repeats;
    q->cold = s->cfg.cold, q->min_time_s = s->cfg.min_time_s, q->seed = s->cfg.seed;
    q->threads = s->threads, q->device = s->device;
    return PL_OK;
}

/* What the worker printed, passed on to our stderr as it comes; the last TAIL bytes kept. */
static void pass_on(int fd, char *tail, size_t *n_tail, int *open)
{
    char buf[4096];
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) return;
    if (r <= 0) {
        *open = 0;
        return;
    }
    (void)!write(2, buf, (size_t)r);
    for (ssize_t i = 0; i < r; i++) {
        if (*n_tail == TAIL - 1) memmove(tail, tail + 1, --*n_tail);
        tail[(*n_tail)++] = buf[i];
    }
    tail[*n_tail] = '\0';
}

/* The worker's last line of output, for a message ("" when it printed nothing). */
static const char *last_line(char *tail)
{
    size_t n = strlen(tail);
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r')) tail[--n] = '\0';
    char *nl = strrchr(tail, '\n');
    return nl ? nl + 1 : tail;
}

static pl_status spawn(int in[2], int out[2], int err[2], pid_t *pid)
{
    if (pipe(in) || pipe(out) || pipe(err)) return pl_fail(PL_ERR_IO, "a rung's worker: pipe: %s", strerror(errno));
    fflush(NULL);
    *pid = fork();
    if (*pid < 0) return pl_fail(PL_ERR_IO, "a rung's worker: fork: %s", strerror(errno));
    if (*pid == 0) {
        /* stdin: the request; 3: the answer; stdout and stderr: what it prints, to the parent. */
        if (dup2(in[0], 0) < 0 || dup2(out[1], 3) < 0 || dup2(err[1], 1) < 0 || dup2(err[1], 2) < 0) _exit(125);
        for (int fd = 4; fd < 1024; fd++) close(fd);
        char *argv[] = {"parlab", CLI_RUNG_WORKER, NULL};
        execv("/proc/self/exe", argv);
        _exit(126);
    }
    close(in[0]), close(out[1]), close(err[1]);
    return PL_OK;
}

pl_status cli_rungs_run_isolated(void *rungs, const pl_session *s, int z, const pl_session_job *j, pl_result *r)
{
    const cli_rungs *rs = rungs;
    rung_request q;
    pl_status st = make_request(rs, s, z, j, &q);
    if (st != PL_OK) return st;
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    pid_t pid = -1;
    if ((st = spawn(in, out, err, &pid)) != PL_OK) return st;
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    (void)write_full(in[1], &q, sizeof q); /* a worker that died at once: its status says why */
    close(in[1]);
    signal(SIGPIPE, old_pipe);

    static rung_response a; /* large: not on the stack */
    memset(&a, 0, sizeof a);
    size_t got = 0;
    char tail[TAIL] = "";
    size_t n_tail = 0;
    int out_open = 1, err_open = 1, timed_out = 0;
    const double timeout = rs->timeout_s > 0 ? rs->timeout_s : 300, deadline = pl_now() + timeout;
    while (out_open || err_open) {
        struct pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? err[0] : -1, POLLIN, 0}};
        const double left = deadline - pl_now();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        int n = poll(fds, 2, (int)(left * 1000) + 1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        if (fds[0].revents) {
            ssize_t rd = read(out[0], (char *)&a + got, sizeof a - got);
            if (rd > 0) got += (size_t)rd;
            else if (rd == 0 || errno != EINTR) out_open = 0;
        }
        if (fds[1].revents) pass_on(err[0], tail, &n_tail, &err_open);
    }
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    close(out[0]), close(err[0]);
    const char *said = last_line(tail);
    const char *sep = *said ? ": it printed: " : "";
    if (timed_out)
        return pl_fail(PL_ERR_VERIFY, "hung: no result after %g s (--rung-timeout), stopped%s%s", timeout, sep, said);
    if (WIFSIGNALED(status))
        return pl_fail(PL_ERR_VERIFY, "crashed: signal %d (%s)%s%s", WTERMSIG(status), strsignal(WTERMSIG(status)),
                       sep, said);
    if (got != sizeof a || a.magic != RUNG_MAGIC)
        return pl_fail(PL_ERR_VERIFY, "the rung's process ended (exit status %d) without a result%s%s",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, sep, said);
    if (a.status != PL_OK) return pl_fail((pl_status)a.status, "%s", a.msg);
    *r = a.r;
    return PL_OK;
}

/* ---------------------------------------------------------------- the worker's side */

static int answer(rung_response *a, pl_status st)
{
    a->magic = RUNG_MAGIC;
    a->status = (int)st;
    snprintf(a->msg, sizeof a->msg, "%s", *pl_last_error() ? pl_last_error() : pl_status_name(st));
    a->r.kernel = NULL, a->r.variant = NULL, a->r.bound_why = NULL, a->r.elem_why = NULL;
    return write_full(3, a, sizeof *a) == 0 ? PL_EXIT_OK : PL_EXIT_FAIL;
}

int cli_rung_worker_main(void)
{
    static rung_request q;
    static rung_response a;
    if (read_full(0, &q, sizeof q) != sizeof q || q.magic != RUNG_MAGIC || q.version != RUNG_VERSION) {
        fprintf(stderr, "parlab %s: started by parlab bench for a --rung, not by hand\n", CLI_RUNG_WORKER);
        return PL_EXIT_USAGE;
    }
    const pl_kernel *k = pl_kernel_find(q.kernel);
    if (!k) return answer(&a, pl_fail(PL_ERR_ARG, "unknown kernel '%s'", q.kernel));
    pl_pvalues pv;
    pl_pvalues_default(k, &pv);
    for (int i = 0; i < PL_MAX_PARAMS; i++) {
        pv.num[i] = q.pv_num[i];
        pv.str[i] = q.pv_has_str[i] ? q.pv_str[i] : NULL;
    }
    pl_user_rung *ur = NULL;
    pl_ctx *ctx = NULL;
    pl_problem *p = NULL;
    pl_status st = pl_user_rung_load(&ur, k, q.path_fn, q.name, q.backend);
    if (st == PL_OK) st = pl_ctx_create(&ctx, (pl_backend)q.backend, q.device, q.threads);
    pl_problem_opts po = {.seed = q.seed, .check = (pl_check)q.check};
    if (st == PL_OK) st = pl_problem_create_opts(&p, k, q.size, &pv, &po);
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.warmup = q.warmup, cfg.repeats = q.repeats, cfg.max_repeats = q.max_repeats;
    cfg.cold = q.cold, cfg.min_time_s = q.min_time_s, cfg.seed = q.seed;
    if (st == PL_OK) st = pl_bench_variant(ctx, p, pl_user_rung_variant(ur), NULL, &cfg, &a.r);
    int rc = answer(&a, st);
    pl_problem_destroy(p);
    pl_ctx_destroy(ctx);
    pl_user_rung_free(ur);
    return rc;
}
