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
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench-workload.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-io-series.h"
#include "ds-report.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"
#include "ds-units.h"
#include "ds-result.h"

#define PROGRESS_INTERVAL_NS (100 * DS_NS_PER_MSEC)

static gpointer
workload_data_new (void)
{
  return ds_workload_data_new ();
}

static void
workload_data_free (gpointer p)
{
  ds_workload_data_free (p);
}

typedef struct {
  DsRun    *run;
  uint64_t  t0_ns;
  uint64_t  total_ns;
  double    from;          /* the run's progress at t0 */
  double    to;            /* ... and at t0 + total_ns */
  gint64    last_emit_ns;  /* atomic */
  const DsWorkloadHooks *hooks;  /* the caller's, or NULL */
} ProgressCtx;

/* On the collecting thread: the caller's say on each interval. */
static gboolean
on_interval (gpointer               user,
             const DsIntervalPoint *point,
             unsigned               index)
{
  ProgressCtx *ctx = user;

  return ctx->hooks->on_interval (ctx->hooks->user, point, index);
}

/* Runs on the I/O threads: at most one progress sample per interval. */
static void
on_complete (gpointer    user,
             const DsIo *io)
{
  ProgressCtx *ctx = user;
  gint64 last = __atomic_load_n (&ctx->last_emit_ns, __ATOMIC_RELAXED);
  DsSample sample = { .kind = DS_SAMPLE_PROGRESS };

  if ((gint64) io->end_ns - last < (gint64) PROGRESS_INTERVAL_NS)
    return;
  if (!__atomic_compare_exchange_n (&ctx->last_emit_ns, &last, (gint64) io->end_ns,
                                    FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return;

  if (ctx->total_ns > 0)
    ds_run_set_progress (ctx->run, ctx->from + (ctx->to - ctx->from) *
                         MIN (1.0, (double) (io->end_ns - ctx->t0_ns) / (double) ctx->total_ns));
  sample.elapsed_ns = io->end_ns - ctx->t0_ns;
  ds_run_emit (ctx->run, &sample);
}

/* The non-empty buckets, by their upper bounds. */
static GArray *
export_histogram (const DsHistogram *hist)
{
  GArray *buckets = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));

  for (unsigned i = 0; i < DS_HIST_BUCKETS; i++)
    if (hist->buckets[i] != 0)
      {
        uint64_t lo;
        uint64_t hi;
        DsLatencyBucket b;

        ds_histogram_bucket_range (i, &lo, &hi);
        b.upper_s = (double) hi / 1e9;
        b.count = hist->buckets[i];
        g_array_append_val (buckets, b);
      }

  return buckets;
}

static void
fill_dir (DsWorkloadDir      *dir,
          const DsIoDirStats *stats,
          uint64_t            elapsed_ns)
{
  ds_workload_dir_clear (dir);
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
  if (stats->histogram != NULL)
    dir->histogram = export_histogram (stats->histogram);
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
    case DS_PATTERN_RW:
    default:
      return spec->read_mix_percent;
    }
}

int
ds_workload_measure (DsRun              *run,
                     const DsBenchSpec  *spec,
                     DsWorkloadData     *data,
                     double              progress_from,
                     double              progress_to,
                     GError            **error)
{
  return ds_workload_measure_hooked (run, spec, NULL, data, progress_from, progress_to, error);
}

/* Refuses what the target cannot take: a write without a write open, a
 * block size or offset off its logical block, an offset past its end.
 * 0 or -errno. */
static int
check_spec_on_target (const DsBenchSpec  *spec,
                      const DsTarget     *target,
                      unsigned            read_percent,
                      GError            **error)
{
  if (read_percent < 100 && !target->writable)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("the %s pattern writes: it needs a write open of %s "
                   "(confirm with --destroy-data=%s)"),
                   ds_pattern_to_string (spec->pattern), target->path, target->path);
      return -EPERM;
    }
  if (!ds_is_aligned (spec->block_size_bytes, target->logical_block_size) ||
      !ds_is_aligned (spec->offset_bytes, target->logical_block_size))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the block size and offset must be multiples of %s's "
                   "logical block size (%u bytes)"),
                   target->path, target->logical_block_size);
      return -EINVAL;
    }
  if (spec->offset_bytes >= target->size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the offset is past the end of %s (%" PRIu64 " bytes)"),
                   target->path, target->size_bytes);
      return -EINVAL;
    }

  return 0;
}

/* The I/O plan of @spec over @span bytes from its offset. */
static void
plan_from_spec (const DsBenchSpec     *spec,
                const DsWorkloadHooks *hooks,
                unsigned               read_percent,
                uint64_t               span,
                ProgressCtx           *progress,
                DsIoPlan              *plan)
{
  plan->random = pattern_random (spec->pattern);
  plan->wrap = TRUE;
  plan->read_percent = read_percent;
  plan->start_bytes = spec->offset_bytes;
  plan->span_bytes = span;
  plan->block_bytes = spec->block_size_bytes;
  plan->align_bytes = spec->random_align_bytes;
  plan->depth = spec->queue_depth;
  plan->threads = spec->threads;
  plan->duration_ns = spec->duration_ns;
  plan->ramp_ns = spec->ramp_ns;
  plan->histogram = TRUE;
  plan->interval_ns = spec->interval_ns;
  plan->on_complete = on_complete;
  if (hooks != NULL && hooks->on_interval != NULL)
    plan->on_interval = on_interval;
  plan->user = progress;

  if (plan->duration_ns == 0 || (hooks != NULL && hooks->one_pass))
    {
      /* Not time-based: one pass over the region, like fio's size=. */
      plan->wrap = FALSE;
      if (plan->random)
        plan->max_bytes = span;
    }
}

/* What was counted is kept, failed or not; the series' notes. */
static void
keep_stats (DsRun             *run,
            const DsBenchSpec *spec,
            DsIoStats         *stats,
            DsWorkloadData    *data)
{
  data->runtime_s = (double) stats->elapsed_ns / 1e9;
  g_free (data->engine);
  data->engine = g_strdup (run->result->engine);
  fill_dir (&data->read, &stats->read, stats->elapsed_ns);
  fill_dir (&data->write, &stats->write, stats->elapsed_ns);
  data->cpu_user_s = (double) stats->cpu_user_ns / 1e9;
  data->cpu_system_s = (double) stats->cpu_system_ns / 1e9;
  data->interval_s = (double) spec->interval_ns / 1e9;
  g_clear_pointer (&data->series, g_array_unref);
  data->series = g_steal_pointer (&stats->series);
  data->series_dropped_ios = stats->series_dropped_ios;
  data->series_merged = stats->series_merged > 1 ? stats->series_merged : 0;
  if (data->series_merged > 1)
    {
      g_autofree char *note = ds_series_merged_note (data->series_merged, data->interval_s);

      data->interval_s *= data->series_merged;
      ds_result_add_note (run->result, "%s", note);
    }
  if (stats->series_dropped_ios != 0)
    ds_result_add_note (run->result,
                        _("%" PRIu64 " I/Os are counted in the totals "
                        "but missing from the series: the collecting thread "
                        "fell %u intervals behind"), stats->series_dropped_ios,
                        DS_IO_RING_SLOTS);
}

int
ds_workload_measure_hooked (DsRun                 *run,
                            const DsBenchSpec     *spec,
                            const DsWorkloadHooks *hooks,
                            DsWorkloadData        *data,
                            double                 progress_from,
                            double                 progress_to,
                            GError               **error)
{
  DsTarget *target = run->target;
  unsigned read_percent = pattern_read_percent (spec);
  uint64_t span;
  ProgressCtx progress = { .run = run, .from = progress_from, .to = progress_to,
                          .hooks = hooks };
  DsIoPlan plan = { 0 };
  DsIoStats stats;
  int r;

  r = check_spec_on_target (spec, target, read_percent, error);
  if (r < 0)
    return r;

  span = target->size_bytes - spec->offset_bytes;
  if (spec->span_bytes != 0)
    span = MIN (span, spec->span_bytes);
  span = ds_align_down (span, spec->block_size_bytes);

  plan_from_spec (spec, hooks, read_percent, span, &progress, &plan);

  progress.t0_ns = ds_clock_ns ();
  progress.last_emit_ns = (gint64) progress.t0_ns;
  progress.total_ns = spec->duration_ns + spec->ramp_ns;

  r = ds_run_io (run, &plan, &stats, error);

  keep_stats (run, spec, &stats, data);
  ds_io_stats_clear (&stats);

  return r;
}

static gboolean
workload_run (DsRun   *run,
              GError **error)
{
  int r = ds_workload_measure (run, run->spec, run->result->data, 0.0, 1.0, error);

  return ds_run_ok (run, r, error);
}

/* ---- report ------------------------------------------------------------- */

/* The slowest and fastest interval of the series, HD Tune's minimum and
 * maximum; FALSE without a series. */
static gboolean
series_range (const GArray *series,
              gboolean      write,
              double       *ret_min,
              double       *ret_max)
{
  if (series == NULL || series->len == 0)
    return FALSE;

  *ret_min = G_MAXDOUBLE;
  *ret_max = 0;
  for (guint i = 0; i < series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (series, DsIntervalPoint, i);
      double v = write ? p->write.bytes_per_s : p->read.bytes_per_s;

      *ret_min = MIN (*ret_min, v);
      *ret_max = MAX (*ret_max, v);
    }

  return TRUE;
}

void
ds_workload_dir_report (const DsWorkloadData *data,
                        gboolean              write,
                        DsUnits               units,
                        GString              *out)
{
  const DsWorkloadDir *dir = write ? &data->write : &data->read;
  const char *name = write ? "Write" : "Read";
  double lo;
  double hi;
  char *rate = ds_format_rate (dir->bytes_per_s, units);
  char *iops = g_strdup_printf ("%.0f IOPS", dir->iops);
  g_autofree char *mean = ds_format_ms (dir->lat_mean_s);
  g_autofree char *min = ds_format_ms (dir->lat_min_s);
  g_autofree char *max = ds_format_ms (dir->lat_max_s);
  g_autofree char *stddev = ds_format_ms (dir->lat_stddev_s);
  g_autofree char *ios = g_strdup_printf ("%" G_GUINT64_FORMAT " I/Os, %" G_GUINT64_FORMAT " bytes",
                                          dir->ios, dir->io_bytes);
  GString *pct = g_string_new (NULL);

  g_string_append_printf (out, "%s\n", name);
  /* I/Os counted over no time (an fio import with runtime 0): no rate. */
  if (data->runtime_s <= 0)
    {
      g_free (rate);
      rate = g_strdup ("none: no time measured");
      g_free (iops);
      iops = g_strdup ("none: no time measured");
    }
  ds_report_figure (out, "Transfer Rate", rate);
  if (series_range (data->series, write, &lo, &hi))
    {
      g_autofree char *lo_text = ds_format_rate (lo, units);
      g_autofree char *hi_text = ds_format_rate (hi, units);
      g_autofree char *range = g_strdup_printf ("%s to %s per %g s", lo_text, hi_text,
                                                data->interval_s);

      ds_report_figure (out, "Interval Rates", range);
    }
  ds_report_figure (out, "Operations", iops);
  ds_report_figure (out, "Total", ios);
  ds_report_figure (out, "Latency Average", mean);
  ds_report_figure (out, "Latency Minimum", min);
  ds_report_figure (out, "Latency Maximum", max);
  ds_report_figure (out, "Latency Std. Dev.", stddev);
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
  g_free (rate);
  g_free (iops);
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

  if (spec->pattern == DS_PATTERN_RANDRW || spec->pattern == DS_PATTERN_RW)
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
    g_autofree char *rt = data->runtime_s > 0 ?
                          g_strdup_printf ("%.2f s (engine %s)", data->runtime_s,
                                           data->engine ? data->engine : "?") :
                          g_strdup_printf ("no time measured (engine %s)",
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
      ds_workload_dir_report (data, FALSE, units, out);
    }
  if (data->write.present)
    {
      g_string_append_c (out, '\n');
      ds_workload_dir_report (data, TRUE, units, out);
    }
}

static JsonNode *
workload_to_json (const DsResult *result)
{
  return ds_workload_data_to_json (result->data);
}

static gpointer
workload_from_json (JsonObject  *results,
                    GError     **error)
{
  return ds_workload_data_from_json (results, "results", error);
}

static unsigned
workload_params (const DsBenchSpec *spec)
{
  return DS_PARAM_BLOCK | DS_PARAM_PATTERN | DS_PARAM_QUEUE | DS_PARAM_THREADS | DS_PARAM_DURATION |
         DS_PARAM_RAMP | DS_PARAM_OFFSET | DS_PARAM_SPAN |
         (spec->pattern == DS_PATTERN_RANDRW ? DS_PARAM_MIX : 0u);
}

static gboolean
workload_random_offsets (const DsBenchSpec *spec)
{
  return spec->pattern == DS_PATTERN_RANDREAD || spec->pattern == DS_PATTERN_RANDWRITE ||
         spec->pattern == DS_PATTERN_RANDRW;
}

static gboolean
workload_check_target (const DsBenchSpec    *spec,
                       const DsTargetShape  *shape,
                       GError              **error)
{
  return ds_bench_check_block_aligned (spec, shape, error) &&
         ds_bench_check_region (spec, shape, error);
}

static void
workload_settings (const DsBenchSpec *spec,
                   const DsResult    *result,
                   GPtrArray         *parts)
{
  (void) result;
  g_ptr_array_add (parts, g_strdup (ds_pattern_to_string (spec->pattern)));
  ds_words_add_block (parts, spec->block_size_bytes);
  ds_words_add_queue (parts, spec->queue_depth);
  g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads",
                                                        spec->threads), spec->threads));
}

static char *
workload_duration_help (void)
{
  return g_strdup (_("Run time (default 10s)"));
}

static char *
workload_describe (const DsResult *result)
{
  const DsBenchSpec *spec = &result->spec;
  g_autofree char *block = ds_format_block (spec->block_size_bytes);
  g_autofree char *mix = spec->pattern == DS_PATTERN_RANDRW ?
    g_strdup_printf (" %u/%u", spec->read_mix_percent, 100 - spec->read_mix_percent) :
    g_strdup ("");

  return g_strdup_printf ("%s%s %s, QD %u, %u thread%s", ds_pattern_to_string (spec->pattern),
                          mix, block, spec->queue_depth, spec->threads,
                          spec->threads == 1 ? "" : "s");
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
  .writes = DS_BENCH_WRITES_PATTERN,
  .cli_options = DS_BENCH_CLI_BLOCK_SIZE | DS_BENCH_CLI_SHAPE,
  .default_block_bytes = 4096,
  .default_duration_ns = 10 * DS_NS_PER_SEC,
  .spec_flags = DS_BENCH_SPEC_SERIES,
  .check_target = workload_check_target,
  .params = workload_params,
  .random_offsets = workload_random_offsets,
  .settings = workload_settings,
  .duration_help = workload_duration_help,
  .describe = workload_describe,
  .compare_rows = ds_workload_compare_rows,
  .fio_job = ds_workload_fio_job,
};
