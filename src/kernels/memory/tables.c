/* tables.c: what the memory lab's tables give beyond their rows: the stream study's reading
 * placed against parlab peaks' triad, and the tables as JSON (schema parlab-mem/1,
 * docs/output.md), so that `parlab mem` only prints them. */
#include "io/json.h"
#include "kernels/memory/mem.h"

#include <math.h>
#include <string.h>

void pl_mem_stream_vs_peaks(mem_table *t, int threads, int quick)
{
    const size_t len = strlen(t->reading);
    if (quick) {
        snprintf(t->reading + len, sizeof t->reading - len, ". (--quick: arrays this small stay in the caches; "
                 "not comparable with parlab peaks' triad)");
        return;
    }
    pl_ctx *ctx = NULL;
    pl_peaks pk;
    if (pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) != PL_OK) return;
    if (pl_peaks_get(ctx, &pk, 0) == PL_OK && pk.valid && pk.cpu_triad_gbps > 0) {
        double triad = 0;
        char want[80];
        snprintf(want, sizeof want, "triad, %d thread%s, normal stores", threads, threads > 1 ? "s" : "");
        for (int i = 0; i < t->n; i++)
            if (!strcmp(t->rows[i].name, want)) triad = t->rows[i].best;
        const double diff = triad / pk.cpu_triad_gbps - 1;
        if (triad > 0)
            snprintf(t->reading + len, sizeof t->reading - len, ". parlab peaks' triad: %.1f GB/s, %+.0f%%: %s",
                     pk.cpu_triad_gbps, 100 * diff,
                     fabs(diff) < 0.15 ? "they agree (both stream arrays far larger than the caches, best of many)"
                     : "they differ: both stream arrays of 4x the last-level cache, but peaks' figure was measured "
                       "at another time on its own thread count (parlab peaks shows it); a busy machine or "
                       "another thread count moves either");
    } else {
        snprintf(t->reading + len, sizeof t->reading - len, ". (no parlab peaks figure cached: run parlab peaks to "
                 "compare)");
    }
    pl_ctx_destroy(ctx);
}

static void json_table(FILE *f, const mem_study *s, const mem_table *t, int first)
{
    fprintf(f, "%s    {\"study\": ", first ? "" : ",\n");
    pl_json_write_string(f, s->name);
    fprintf(f, ", \"summary\": ");
    pl_json_write_string(f, s->summary);
    fprintf(f, ", \"setup\": ");
    pl_json_write_string(f, t->setup);
    fprintf(f, ",\n     \"reading\": ");
    pl_json_write_string(f, t->reading);
    fprintf(f, ", \"checksums_ok\": %s,\n     \"rows\": [", t->checksums_ok ? "true" : "false");
    for (int i = 0; i < t->n; i++) {
        fprintf(f, "%s\n       {\"case\": ", i ? "," : "");
        pl_json_write_string(f, t->rows[i].name);
        fprintf(f, ", \"best\": ");
        pl_json_write_num(f, t->rows[i].best);
        fprintf(f, ", \"median\": ");
        pl_json_write_num(f, t->rows[i].median);
        fprintf(f, ", \"spread\": ");
        pl_json_write_num(f, t->rows[i].spread);
        fprintf(f, ", \"unit\": ");
        pl_json_write_string(f, t->rows[i].unit);
        fputc('}', f);
    }
    fprintf(f, "]}");
}

pl_status pl_mem_json_write(const char *path, const char *command, const mem_opts *o, const mem_table *tables,
                            const mem_study *const *ran, int n)
{
    pl_report_info info = {NULL, command, NULL};
    FILE *f = pl_json_file_open(path, "parlab-mem/1", &info);
    if (!f) return PL_ERR_IO;
    fprintf(f, "  \"quick\": %s, \"threads\": %d, \"reps\": %d,\n  \"studies\": [\n", o->quick ? "true" : "false",
            o->threads, o->reps);
    for (int i = 0; i < n; i++) json_table(f, ran[i], &tables[i], i == 0);
    fprintf(f, "\n  ]\n}\n");
    return pl_json_file_close(f, path);
}
