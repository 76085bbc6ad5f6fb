/* ds-bench-workload.c: fio / CrystalDiskMark style workloads
 *
 * One plan for the whole run: a pattern over a region at a queue depth and
 * thread count, for a duration after an uncounted ramp.  Figures as fio
 * reports them: bandwidth is total bytes over the counted wall time, IOPS
 * likewise, latency per I/O from submission to completion (fio's "lat").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#include "ds-bench-workload.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"

const double ds_workload_percentiles[DS_WORKLOAD_N_PERCENTILES] = {
  1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* The JSON names of the percentiles the issue asks for by name. */
static const struct { const char *name; double percent; } named_percentiles[] = {
  { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99_9", 99.9 },
};

#define PROGRESS_INTERVAL_NS (100 * DS_NS_PER_MSEC)

static gpointer
workload_data_new (void)
{
  return g_new0 (DsWorkloadData, 1);
}

static void
workload_data_free (gpointer p)
{
  DsWorkloadData *data = p;

  g_free (data->engine);
  g_free (data);
}

/* The live figures of the progress line (fio's status line): I/Os, bytes
 * and a latency histogram since the last sample, 8 buckets per power of
 * two (12% wide), counted by the I/O threads with relaxed atomics.  They
 * are for the eye only: the result's figures come from the engine's exact
 * per-thread counts. */
#define LIVE_BUCKETS 256

typedef struct {
  DsRun    *run;
  uint64_t  t0_ns;
  uint64_t  total_ns;
  gint64    last_emit_ns;  /* atomic */
  guint64   live_ios;      /* atomic */
  guint64   live_bytes;    /* atomic */
  guint     live_hist[LIVE_BUCKETS];  /* atomic */
} ProgressCtx;

static unsigned
live_bucket (uint64_t ns)
{
  unsigned e;

  if (ns < 8)
    return (unsigned) ns;
  e = 63 - (unsigned) __builtin_clzll (ns);
  return MIN ((e - 2) * 8 + (unsigned) ((ns >> (e - 3)) & 7), LIVE_BUCKETS - 1);
}

/* The upper end of bucket @b, in ns. */
static uint64_t
live_bucket_ns (unsigned b)
{
  if (b < 8)
    return b + 1;
  return (uint64_t) (8 + b % 8 + 1) << (b / 8 - 1);
}

/* Takes (and zeroes) the live counts into @sample. */
static void
live_take (ProgressCtx *ctx,
           uint64_t     interval_ns,
           DsSample    *sample)
{
  guint64 ios = __atomic_exchange_n (&ctx->live_ios, 0, __ATOMIC_RELAXED);
  guint64 bytes = __atomic_exchange_n (&ctx->live_bytes, 0, __ATOMIC_RELAXED);
  guint counts[LIVE_BUCKETS];
  guint64 total = 0, seen = 0;

  for (unsigned b = 0; b < LIVE_BUCKETS; b++)
    {
      counts[b] = __atomic_exchange_n (&ctx->live_hist[b], 0, __ATOMIC_RELAXED);
      total += counts[b];
    }
  if (interval_ns == 0 || ios == 0)
    return;

  sample->value = (double) bytes * 1e9 / (double) interval_ns;
  sample->iops = (double) ios * 1e9 / (double) interval_ns;
  for (unsigned b = 0; b < LIVE_BUCKETS; b++)
    {
      seen += counts[b];
      if (seen * 100 >= total * 99)
        {
          sample->p99_ns = live_bucket_ns (b);
          break;
        }
    }
}

/* Runs on the I/O threads: at most one progress sample per interval. */
static void
on_complete (gpointer    user,
             const DsIo *io)
{
  ProgressCtx *ctx = user;
  gint64 last;
  DsSample sample = { .kind = DS_SAMPLE_PROGRESS };

  if (io->result > 0)
    {
      __atomic_add_fetch (&ctx->live_ios, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&ctx->live_bytes, (guint64) io->result, __ATOMIC_RELAXED);
      __atomic_add_fetch (&ctx->live_hist[live_bucket (io->end_ns - io->start_ns)], 1, __ATOMIC_RELAXED);
    }

  last = __atomic_load_n (&ctx->last_emit_ns, __ATOMIC_RELAXED);
  if ((gint64) io->end_ns - last < (gint64) PROGRESS_INTERVAL_NS)
    return;
  if (!__atomic_compare_exchange_n (&ctx->last_emit_ns, &last, (gint64) io->end_ns,
                                    FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return;

  if (ctx->total_ns > 0)
    ds_run_set_progress (ctx->run, (double) (io->end_ns - ctx->t0_ns) / (double) ctx->total_ns);
  sample.elapsed_ns = io->end_ns - ctx->t0_ns;
  live_take (ctx, io->end_ns - (uint64_t) last, &sample);
  ds_run_emit (ctx->run, &sample);
}

static void
fill_dir (DsWorkloadDir      *dir,
          const DsIoDirStats *stats,
          uint64_t            elapsed_ns)
{
  if (stats->ios == 0)
    return;

  dir->present = TRUE;
  dir->io_bytes = stats->bytes;
  dir->ios = stats->ios;
  if (elapsed_ns > 0)
    {
      dir->bytes_per_s = (double) stats->bytes * 1e9 / (double) elapsed_ns;
      dir->iops = (double) stats->ios * 1e9 / (double) elapsed_ns;
    }
  dir->lat_min_s = (double) stats->latency_ns.min / 1e9;
  dir->lat_mean_s = stats->latency_ns.mean / 1e9;
  dir->lat_max_s = (double) stats->latency_ns.max / 1e9;
  dir->lat_stddev_s = ds_stats_stddev (&stats->latency_ns) / 1e9;
  for (unsigned i = 0; i < DS_WORKLOAD_N_PERCENTILES; i++)
    dir->lat_percentile_s[i] = stats->histogram != NULL ?
      (double) ds_histogram_percentile (stats->histogram, ds_workload_percentiles[i]) / 1e9 : 0;
}

static gboolean
pattern_random (DsPattern pattern)
{
  return pattern == DS_PATTERN_RANDREAD || pattern == DS_PATTERN_RANDWRITE ||
         pattern == DS_PATTERN_RANDRW;
}

static unsigned
pattern_read_percent (const DsBenchSpec *spec)
{
  switch (spec->pattern)
    {
    case DS_PATTERN_READ:
    case DS_PATTERN_RANDREAD:
      return 100;
    case DS_PATTERN_WRITE:
    case DS_PATTERN_RANDWRITE:
      return 0;
    case DS_PATTERN_RANDRW:
    default:
      return spec->read_mix_percent;
    }
}

static int
workload_run (DsRun   *run,
              GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsWorkloadData *data = run->result->data;
  DsTarget *target = run->target;
  unsigned read_percent = pattern_read_percent (spec);
  uint64_t span;
  ProgressCtx progress = { .run = run };
  DsIoPlan plan = { 0 };
  DsIoStats stats;
  int r;

  if (read_percent < 100 && !target->writable)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   "the %s pattern writes: it needs a write open of %s "
                   "(confirm with --destroy-data=%s)",
                   ds_pattern_to_string (spec->pattern), target->path, target->path);
      return -EPERM;
    }
  if (!ds_is_aligned (spec->block_size_bytes, target->logical_block_size) ||
      !ds_is_aligned (spec->offset_bytes, target->logical_block_size))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the block size and offset must be multiples of %s's "
                   "logical block size (%u bytes)",
                   target->path, target->logical_block_size);
      return -EINVAL;
    }
  if (spec->offset_bytes >= target->size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the offset is past the end of %s (%" G_GUINT64_FORMAT " bytes)",
                   target->path, target->size_bytes);
      return -EINVAL;
    }

  span = target->size_bytes - spec->offset_bytes;
  if (spec->span_bytes != 0)
    span = MIN (span, spec->span_bytes);
  span = ds_align_down (span, spec->block_size_bytes);

  plan.random = pattern_random (spec->pattern);
  plan.wrap = TRUE;
  plan.read_percent = read_percent;
  plan.start_bytes = spec->offset_bytes;
  plan.span_bytes = span;
  plan.block_bytes = spec->block_size_bytes;
  plan.depth = spec->queue_depth;
  plan.threads = spec->threads;
  plan.duration_ns = spec->duration_ns;
  plan.ramp_ns = spec->ramp_ns;
  plan.histogram = TRUE;
  plan.on_complete = on_complete;
  plan.user = &progress;

  if (plan.duration_ns == 0)
    {
      /* Not time-based: one pass over the region, like fio's size=. */
      plan.wrap = FALSE;
      if (plan.random)
        plan.max_bytes = span;
    }

  progress.t0_ns = ds_clock_ns ();
  progress.last_emit_ns = (gint64) progress.t0_ns;
  progress.total_ns = spec->duration_ns + spec->ramp_ns;

  r = ds_run_io (run, &plan, &stats, error);

  /* What was counted is kept, failed or not. */
  data->runtime_s = (double) stats.elapsed_ns / 1e9;
  g_free (data->engine);
  data->engine = g_strdup (run->result->engine);
  fill_dir (&data->read, &stats.read, stats.elapsed_ns);
  fill_dir (&data->write, &stats.write, stats.elapsed_ns);
  data->cpu_user_s = (double) stats.cpu_user_ns / 1e9;
  data->cpu_system_s = (double) stats.cpu_system_ns / 1e9;
  ds_io_stats_clear (&stats);

  return r;
}

/* ---- JSON --------------------------------------------------------------- */

static const char *
percentile_key (double percent, char *buf, size_t len)
{
  g_autofree char *s = g_strdup_printf ("%g", percent);

  g_strdelimit (s, ".", '_');
  g_snprintf (buf, len, "p%s", s);
  return buf;
}

static JsonNode *
dir_to_json (const DsWorkloadDir *dir)
{
  JsonObject *o = json_object_new ();
  JsonObject *lat = json_object_new ();
  JsonObject *pct = json_object_new ();
  char key[32];

  json_object_set_int_member (o, "io_bytes", (gint64) dir->io_bytes);
  json_object_set_int_member (o, "ios", (gint64) dir->ios);
  json_object_set_double_member (o, "bytes_per_s", dir->bytes_per_s);
  json_object_set_double_member (o, "iops", dir->iops);

  json_object_set_double_member (lat, "min", dir->lat_min_s);
  json_object_set_double_member (lat, "mean", dir->lat_mean_s);
  json_object_set_double_member (lat, "max", dir->lat_max_s);
  json_object_set_double_member (lat, "stddev", dir->lat_stddev_s);
  for (unsigned i = 0; i < G_N_ELEMENTS (named_percentiles); i++)
    for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
      if (ds_workload_percentiles[k] == named_percentiles[i].percent)
        json_object_set_double_member (lat, named_percentiles[i].name, dir->lat_percentile_s[k]);
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    json_object_set_double_member (pct, percentile_key (ds_workload_percentiles[k], key, sizeof key),
                                   dir->lat_percentile_s[k]);
  json_object_set_object_member (lat, "percentiles", pct);
  json_object_set_object_member (o, "latency_s", lat);

  return json_node_init_object (json_node_alloc (), o);
}

static JsonNode *
workload_to_json (const DsResult *result)
{
  const DsWorkloadData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonObject *cpu = json_object_new ();

  json_object_set_double_member (o, "runtime_s", data->runtime_s);
  if (data->engine != NULL)
    json_object_set_string_member (o, "engine", data->engine);
  else
    json_object_set_null_member (o, "engine");
  if (data->read.present)
    json_object_set_member (o, "read", dir_to_json (&data->read));
  if (data->write.present)
    json_object_set_member (o, "write", dir_to_json (&data->write));
  json_object_set_double_member (cpu, "user_s", data->cpu_user_s);
  json_object_set_double_member (cpu, "system_s", data->cpu_system_s);
  json_object_set_object_member (o, "cpu", cpu);

  return json_node_init_object (json_node_alloc (), o);
}

static gboolean
dir_from_json (JsonObject     *o,
               const char     *where,
               DsWorkloadDir  *dir,
               GError        **error)
{
  g_autofree char *lwhere = g_strdup_printf ("%s.latency_s", where);
  JsonObject *lat;
  JsonObject *pct;
  char key[32];

  if (!ds_json_get_uint64 (o, where, "io_bytes", G_MAXINT64, &dir->io_bytes, error) ||
      !ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &dir->ios, error) ||
      !ds_json_get_double (o, where, "bytes_per_s", 0, 1e15, &dir->bytes_per_s, error) ||
      !ds_json_get_double (o, where, "iops", 0, 1e12, &dir->iops, error))
    return FALSE;

  lat = ds_json_get_object (o, where, "latency_s", error);
  if (lat == NULL)
    return FALSE;
  if (!ds_json_get_double (lat, lwhere, "min", 0, 1e6, &dir->lat_min_s, error) ||
      !ds_json_get_double (lat, lwhere, "mean", 0, 1e6, &dir->lat_mean_s, error) ||
      !ds_json_get_double (lat, lwhere, "max", 0, 1e6, &dir->lat_max_s, error))
    return FALSE;
  if (json_object_has_member (lat, "stddev") &&
      !ds_json_get_double (lat, lwhere, "stddev", 0, 1e6, &dir->lat_stddev_s, error))
    return FALSE;

  /* The named percentiles are always there; the full list may be too. */
  for (unsigned i = 0; i < G_N_ELEMENTS (named_percentiles); i++)
    for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
      if (ds_workload_percentiles[k] == named_percentiles[i].percent &&
          !ds_json_get_double (lat, lwhere, named_percentiles[i].name, 0, 1e6,
                               &dir->lat_percentile_s[k], error))
        return FALSE;

  if (json_object_has_member (lat, "percentiles"))
    {
      g_autofree char *pwhere = g_strdup_printf ("%s.percentiles", lwhere);

      pct = ds_json_get_object (lat, lwhere, "percentiles", error);
      if (pct == NULL)
        return FALSE;
      for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
        if (!ds_json_get_double (pct, pwhere,
                                 percentile_key (ds_workload_percentiles[k], key, sizeof key),
                                 0, 1e6, &dir->lat_percentile_s[k], error))
          return FALSE;
    }

  if (dir->lat_min_s > dir->lat_max_s || dir->lat_mean_s > dir->lat_max_s)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s: minimum, mean and maximum are out of order", lwhere);
      return FALSE;
    }

  dir->present = TRUE;
  return TRUE;
}

static gpointer
workload_from_json (JsonObject  *o,
                    GError     **error)
{
  DsWorkloadData *data = workload_data_new ();
  JsonObject *cpu;
  const char *engine;


  if (!ds_json_get_double (o, "results", "runtime_s", 0, 1e7, &data->runtime_s, error))
    goto fail;
  engine = ds_json_get_string (o, "results", "engine", TRUE, error);
  if (engine == NULL && error != NULL && *error != NULL)
    goto fail;
  data->engine = g_strdup (engine);

  if (json_object_has_member (o, "read"))
    {
      JsonObject *r = ds_json_get_object (o, "results", "read", error);
      if (r == NULL || !dir_from_json (r, "results.read", &data->read, error))
        goto fail;
    }
  if (json_object_has_member (o, "write"))
    {
      JsonObject *w = ds_json_get_object (o, "results", "write", error);
      if (w == NULL || !dir_from_json (w, "results.write", &data->write, error))
        goto fail;
    }

  cpu = ds_json_get_object (o, "results", "cpu", error);
  if (cpu == NULL ||
      !ds_json_get_double (cpu, "results.cpu", "user_s", 0, 1e9, &data->cpu_user_s, error) ||
      !ds_json_get_double (cpu, "results.cpu", "system_s", 0, 1e9, &data->cpu_system_s, error))
    goto fail;

  return data;

fail:
  workload_data_free (data);
  return NULL;
}

/* ---- report ------------------------------------------------------------- */

static void
dir_report (const DsWorkloadDir *dir,
            const char          *name,
            DsUnits              units,
            GString             *out)
{
  g_autofree char *rate = ds_format_rate (dir->bytes_per_s, units);
  g_autofree char *iops = g_strdup_printf ("%.0f IOPS", dir->iops);
  g_autofree char *mean = ds_format_ms (dir->lat_mean_s);
  g_autofree char *min = ds_format_ms (dir->lat_min_s);
  g_autofree char *max = ds_format_ms (dir->lat_max_s);
  g_autofree char *ios = g_strdup_printf ("%" G_GUINT64_FORMAT " I/Os, %" G_GUINT64_FORMAT " bytes",
                                          dir->ios, dir->io_bytes);
  GString *pct = g_string_new (NULL);

  g_string_append_printf (out, "%s\n", name);
  ds_report_figure (out, "Transfer Rate", rate);
  ds_report_figure (out, "Operations", iops);
  ds_report_figure (out, "Total", ios);
  ds_report_figure (out, "Latency Average", mean);
  ds_report_figure (out, "Latency Minimum", min);
  ds_report_figure (out, "Latency Maximum", max);
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    {
      double p = ds_workload_percentiles[k];

      if (p == 50 || p == 90 || p == 99 || p == 99.9 || p == 99.99)
        {
          g_autofree char *v = ds_format_ms (dir->lat_percentile_s[k]);
          g_string_append_printf (pct, "%sp%g %s", pct->len ? ", " : "", p, v);
        }
    }
  ds_report_figure (out, "Latency Percentiles", pct->str);
  g_string_free (pct, TRUE);
}

static void
workload_report (const DsResult *result,
                 DsUnits         units,
                 GString        *out)
{
  const DsWorkloadData *data = result->data;
  const DsBenchSpec *spec = &result->spec;
  g_autofree char *block = ds_format_block (spec->block_size_bytes);
  g_autofree char *profile = NULL;

  if (spec->pattern == DS_PATTERN_RANDRW)
    profile = g_strdup_printf ("%s, %s, %u%% reads, queue depth %u, %u thread%s",
                               ds_pattern_to_string (spec->pattern), block,
                               spec->read_mix_percent, spec->queue_depth,
                               spec->threads, spec->threads == 1 ? "" : "s");
  else
    profile = g_strdup_printf ("%s, %s, queue depth %u, %u thread%s",
                               ds_pattern_to_string (spec->pattern), block,
                               spec->queue_depth, spec->threads,
                               spec->threads == 1 ? "" : "s");

  ds_report_figure (out, "Workload", profile);
  {
    g_autofree char *rt = g_strdup_printf ("%.2f s (engine %s)", data->runtime_s,
                                           data->engine ? data->engine : "?");
    ds_report_figure (out, "Run Time", rt);
  }
  {
    g_autofree char *cpu = g_strdup_printf ("%.2f s user, %.2f s system",
                                            data->cpu_user_s, data->cpu_system_s);
    ds_report_figure (out, "CPU Time", cpu);
  }

  if (data->read.present)
    {
      g_string_append_c (out, '\n');
      dir_report (&data->read, "Read", units, out);
    }
  if (data->write.present)
    {
      g_string_append_c (out, '\n');
      dir_report (&data->write, "Write", units, out);
    }
}

const DsBenchOps ds_bench_workload = {
  .kind = DS_BENCH_WORKLOAD,
  .name = "workload",
  .title = "Workload",
  .opens_target = TRUE,
  .data_new = workload_data_new,
  .data_free = workload_data_free,
  .run = workload_run,
  .to_json = workload_to_json,
  .from_json = workload_from_json,
  .report = workload_report,
};
