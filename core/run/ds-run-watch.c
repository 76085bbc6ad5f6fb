/* ds-run-watch.c: what a run watches besides its own figures, and the
 * warnings drawn from it (the rules: ds-warnings.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-diskstats.h"
#include "ds-environment.h"
#include "ds-run.h"
#include "ds-run-watch.h"
#include "ds-units.h"
#include "ds-warnings.h"

/* Rows named in a zero_reads warning, at most. */
#define ZERO_ROWS_MAX 6

struct _DsRunWatch {
  DsEnvironment *env;
  DsDiskstats    start;
  DsIoWatch  total;
  guint          io_calls;
  uint64_t       region_bytes;    /* the largest region a plan touched */
  GPtrArray     *zero_rows;       /* char*: where all-zero reads were seen */
  guint          zero_rows_more;  /* and in how many more */
  /* Random reads and writes: total latency and count, for the means. */
  double         rnd_read_s, rnd_write_s;
  uint64_t       rnd_reads, rnd_writes;
};

void
ds_run_watch_start (DsRun *run)
{
  DsRunWatch *w = g_new0 (DsRunWatch, 1);
  const char *path = run->spec->target_path;
  g_autofree char *dir = NULL;

  /* A test file still to be made: its folder tells the rest. */
  if (path != NULL && !g_file_test (path, G_FILE_TEST_EXISTS))
    path = dir = g_path_get_dirname (path);

  w->env = ds_environment_collect (path, NULL);
  w->zero_rows = g_ptr_array_new_with_free_func (g_free);
  if (w->env->diskstats_name != NULL)
    ds_diskstats_read (w->env->diskstats_name, &w->start);

  g_clear_pointer (&run->result->environment, json_object_unref);
  run->result->environment = json_object_ref (w->env->json);
  run->watch = w;
}

/* Where all-zero reads were seen: the plan's shape, and for one that does
 * not draw random offsets the first offset found (a block size sweep's
 * plans all start at 0 and go on where the one before stopped). */
static char *
describe_plan (const DsIoPlan      *plan,
               const DsIoWatch     *counts)
{
  g_autofree char *block = ds_format_block (plan->block_bytes);
  g_autofree char *size = NULL;

  if (plan->block_max_bytes > plan->block_bytes)
    {
      g_autofree char *max = ds_format_block (plan->block_max_bytes);

      size = g_strdup_printf ("%s–%s", block, max);
    }
  else
    size = g_steal_pointer (&block);

  if (plan->random)
    /* TRANSLATORS: where all-zero reads were seen: "64 KiB random, QD 4 × 1" */
    return g_strdup_printf (_("%s random, QD %u × %u"), size, plan->depth, MAX (plan->threads, 1));
  else if (plan->next_offset != NULL)
    {
      /* Offsets of the kind's own (a block size sweep, a butterfly). */
      g_autofree char *at = ds_format_size (counts->zero_first_bytes);

      /* TRANSLATORS: where all-zero reads were seen: "32 KiB at 1.2 GB, QD 1 × 1" */
      return g_strdup_printf (_("%s at %s, QD %u × %u"), size, at, plan->depth,
                              MAX (plan->threads, 1));
    }
  else
    {
      g_autofree char *at = ds_format_size (counts->zero_first_bytes);

      /* TRANSLATORS: "1 MiB sequential at 2.1 GB, QD 1 × 1" */
      return g_strdup_printf (_("%s sequential at %s, QD %u × %u"), size, at, plan->depth,
                              MAX (plan->threads, 1));
    }
}

void
ds_run_watch_io (DsRun           *run,
                 const DsIoPlan  *plan,
                 const DsIoStats *stats)
{
  DsRunWatch *w = run->watch;
  const DsIoWatch *counts = &stats->watch;

  if (w == NULL)
    return;

  w->io_calls++;
  w->total.read_bytes += counts->read_bytes;
  w->total.written_bytes += counts->written_bytes;
  w->total.zero_sampled += counts->zero_sampled;
  w->total.zero_found += counts->zero_found;
  if (plan->read_percent > 0)
    w->region_bytes = MAX (w->region_bytes, plan->span_bytes);

  if (counts->zero_found > 0)
    {
      g_autofree char *row = describe_plan (plan, counts);

      if (g_ptr_array_find_with_equal_func (w->zero_rows, row, g_str_equal, NULL))
        ;
      else if (w->zero_rows->len < ZERO_ROWS_MAX)
        g_ptr_array_add (w->zero_rows, g_steal_pointer (&row));
      else
        w->zero_rows_more++;
    }

  if (plan->random)
    {
      w->rnd_read_s += stats->read.latency_ns.mean * (double) stats->read.latency_ns.n / 1e9;
      w->rnd_reads += stats->read.latency_ns.n;
      w->rnd_write_s += stats->write.latency_ns.mean * (double) stats->write.latency_ns.n / 1e9;
      w->rnd_writes += stats->write.latency_ns.n;
    }
}

void
ds_run_watch_finish (DsRun *run)
{
  DsRunWatch *w = run->watch;
  DsBenchKind kind = run->spec->kind;
  DsWarnFacts f = { 0 };

  if (w == NULL)
    return;

  f.loop_no_dio = w->env->loop_no_dio;
  f.cache_layer = w->env->cache_layer;
  /* A loop device says "rotational" whatever lies below it. */
  f.rotational = w->env->rotational && !w->env->virtual_layer;
  f.cache_bytes = w->env->cache_bytes;
  f.ram_bytes = w->env->ram_bytes;
  f.region_bytes = w->region_bytes;
  f.file_buffered = w->env->is_file && run->spec->buffered;

  /* Judged only when every byte the kind moved went through ds_run_io():
   * the error scan and the erase read and write on their own. */
  if (w->env->diskstats_name != NULL && w->io_calls > 0 &&
      !(ds_bench_get (kind)->spec_flags & DS_BENCH_SPEC_OWN_IO))
    {
      DsDiskstats end;

      if (ds_diskstats_read (w->env->diskstats_name, &end))
        {
          f.other_judged = TRUE;
          f.ours_bytes = w->total.read_bytes + w->total.written_bytes;
          f.other_bytes = ds_diskstats_other_bytes (&w->start, &end, w->total.read_bytes,
                                                    w->total.written_bytes, NULL);
        }
    }

  f.zero_sampled = w->total.zero_sampled;
  f.zero_found = w->total.zero_found;
  if (w->zero_rows_more > 0)
    g_ptr_array_add (w->zero_rows,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more row",
                                                   "and %u more rows", w->zero_rows_more),
                                      w->zero_rows_more));
  f.zero_rows = w->zero_rows;

  if (w->rnd_reads > 0)
    f.random_read_mean_s = w->rnd_read_s / (double) w->rnd_reads;
  if (w->rnd_writes > 0)
    f.random_write_mean_s = w->rnd_write_s / (double) w->rnd_writes;

  g_ptr_array_extend_and_steal (run->result->warnings, ds_warnings_judge (&f));

  ds_environment_free (w->env);
  g_ptr_array_unref (w->zero_rows);
  g_free (w);
  run->watch = NULL;
}
