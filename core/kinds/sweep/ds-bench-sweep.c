/* ds-bench-sweep.c: a saturation sweep (see ds-bench-sweep.h): one
 * workload per level, through ds_workload_measure_hooked()
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "ds-params.h"
#include "ds-bench-sweep.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-histogram.h"
#include "ds-limits.h"
#include "ds-run.h"
#include "ds-clock.h"
#include "ds-words.h"

DsSweepData *
ds_sweep_data_new (void)
{
  DsSweepData *data = g_new0 (DsSweepData, 1);

  data->levels = g_array_new (FALSE, TRUE, sizeof (unsigned));
  data->steps = g_array_new (FALSE, TRUE, sizeof (DsSweepStep));
  return data;
}

void
ds_sweep_data_free (DsSweepData *data)
{
  if (data == NULL)
    return;

  g_clear_pointer (&data->levels, g_array_unref);
  g_clear_pointer (&data->steps, g_array_unref);
  g_free (data);
}

static gpointer
sweep_data_new (void)
{
  return ds_sweep_data_new ();
}

static void
sweep_data_free (gpointer data)
{
  ds_sweep_data_free (data);
}

/* ---- the levels --------------------------------------------------------- */

static unsigned
level_max (const DsBenchSpec *spec)
{
  return ds_sweep_options_const (spec)->over_threads ? DS_LIMIT_THREADS_MAX : DS_LIMIT_QUEUE_DEPTH_MAX;
}

static GArray *
parse_list (const DsBenchSpec  *spec,
            GError            **error)
{
  const char *list = ds_sweep_options_const (spec)->levels;
  g_auto (GStrv) words = g_strsplit (list, ",", -1);
  g_autoptr (GArray) levels = g_array_new (FALSE, FALSE, sizeof (unsigned));

  /* "" splits into no words at all. */
  for (guint i = 0; words[i] != NULL || i == 0; i++)
    {
      const char *word = words[i] != NULL ? g_strstrip (words[i]) : "";
      char *end = NULL;
      unsigned long v = strtoul (word, &end, 10);
      unsigned prev = levels->len > 0 ? g_array_index (levels, unsigned, levels->len - 1) : 0;
      unsigned level = (unsigned) v;

      if (*word == '\0' || *end != '\0' || *word == '-' || v < 1 || v > level_max (spec) ||
          level <= prev || levels->len == DS_SWEEP_MAX_LEVELS)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the levels “%s” must be up to %u increasing whole "
                       "numbers from 1 to %u, separated by commas (e.g. 1,2,4,8)"),
                       list, DS_SWEEP_MAX_LEVELS, level_max (spec));
          return NULL;
        }
      g_array_append_val (levels, level);
    }

  return g_steal_pointer (&levels);
}

GArray *
ds_sweep_levels (const DsBenchSpec  *spec,
                 GError            **error)
{
  const DsSweepOptions *o = ds_sweep_options_const (spec);
  GArray *levels;

  if (o->levels != NULL)
    return parse_list (spec, error);

  if (o->from < 1 || o->to < o->from || o->to > level_max (spec))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the sweep goes from a level of 1 or more up to at most %u, "
                   "not from %d to %d"), level_max (spec),
                   (int) o->from, (int) o->to);
      return NULL;
    }

  levels = g_array_new (FALSE, FALSE, sizeof (unsigned));
  for (uint64_t level = o->from; level <= o->to; level *= 2)
    {
      unsigned v = (unsigned) level;

      g_array_append_val (levels, v);
    }
  if (g_array_index (levels, unsigned, levels->len - 1) != o->to)
    g_array_append_val (levels, o->to);

  return levels;
}

gboolean
ds_sweep_spec_valid (const DsBenchSpec  *spec,
                     GError            **error)
{
  g_autoptr (GArray) levels = ds_sweep_levels (spec, error);
  g_auto (DsBenchSpec) top = { 0 };

  if (levels == NULL)
    return FALSE;

  /* The heaviest level must pass the workload's own rules (I/Os in
   * flight, buffer memory). */
  ds_bench_spec_init_from (&top, DS_BENCH_WORKLOAD, spec);
  if (ds_sweep_options_const (spec)->over_threads)
    top.threads = g_array_index (levels, unsigned, levels->len - 1);
  else
    top.queue_depth = g_array_index (levels, unsigned, levels->len - 1);

  return ds_bench_spec_validate (&top, error);
}

/* ---- one level ---------------------------------------------------------- */

typedef struct {
  gboolean  enabled;
  GArray   *iops;           /* double, by interval index */
  double    steady_at_s;    /* < 0 until steady */
} Steady;

/* On the collecting thread: once the last intervals are steady, enough. */
static gboolean
steady_on_interval (gpointer               user,
                    const DsIntervalPoint *point,
                    unsigned               index)
{
  Steady *st = user;
  double iops = point->read.iops + point->write.iops;

  if (st->steady_at_s >= 0)
    return TRUE;
  if (index >= st->iops->len)
    g_array_set_size (st->iops, index + 1);
  g_array_index (st->iops, double, index) = iops;
  if (ds_sweep_is_steady ((const double *) st->iops->data, index + 1))
    {
      st->steady_at_s = point->t_s;
      return TRUE;
    }

  return FALSE;
}

/* The I/Os of both directions in one histogram, from the buckets each
 * kept (upper bounds: each maps back to its own bucket). */
static void
add_buckets (DsHistogram         *hist,
             const DsWorkloadDir *dir)
{
  for (guint i = 0; dir->histogram != NULL && i < dir->histogram->len; i++)
    {
      const DsLatencyBucket *b = &g_array_index (dir->histogram, DsLatencyBucket, i);
      uint64_t upper_ns = (uint64_t) llround (b->upper_s * 1e9);
      unsigned index = ds_histogram_bucket_index (upper_ns > 0 ? upper_ns - 1 : 0);

      hist->buckets[index] += b->count;
      hist->count += b->count;
    }
}

static void
fill_step (DsSweepStep          *step,
           const DsWorkloadData *w)
{
  g_autofree DsHistogram *hist = g_new0 (DsHistogram, 1);
  uint64_t bytes = w->read.io_bytes + w->write.io_bytes;

  step->ios = w->read.ios + w->write.ios;
  step->runtime_s = w->runtime_s;
  if (step->ios == 0 || !(w->runtime_s > 0))
    return;

  step->iops = (double) step->ios / w->runtime_s;
  step->bytes_per_s = (double) bytes / w->runtime_s;
  step->lat_mean_s = (w->read.lat_mean_s * (double) w->read.ios +
                      w->write.lat_mean_s * (double) w->write.ios) / (double) step->ios;
  add_buckets (hist, &w->read);
  add_buckets (hist, &w->write);
  step->lat_p50_s = (double) ds_histogram_percentile (hist, 50.0) / 1e9;
  step->lat_p99_s = (double) ds_histogram_percentile (hist, 99.0) / 1e9;
  step->lat_p99_9_s = (double) ds_histogram_percentile (hist, 99.9) / 1e9;
  step->little_outstanding = step->iops * step->lat_mean_s;
}

static int
run_level (DsRun        *run,
           DsSweepData  *data,
           unsigned      i,
           unsigned      n,
           GError      **error)
{
  unsigned level = g_array_index (data->levels, unsigned, i);
  g_auto (DsBenchSpec) spec = { 0 };
  g_autoptr (GArray) iops = g_array_new (FALSE, TRUE, sizeof (double));
  Steady steady = { .enabled = ds_sweep_options_const (run->spec)->steady, .iops = iops,
                    .steady_at_s = -1 };
  DsWorkloadHooks hooks = { .on_interval = steady_on_interval, .user = &steady };
  DsWorkloadData *w = ds_workload_data_new ();
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .index = i, .name = "level" };
  DsSample row = { .kind = DS_SAMPLE_ROW, .index = i, .name = "level" };
  DsSweepStep step = { 0 };
  int r;

  ds_bench_spec_init_from (&spec, DS_BENCH_WORKLOAD, run->spec);
  if (data->over_threads)
    spec.threads = level;
  else
    spec.queue_depth = level;

  ds_run_emit (run, &phase);
  r = ds_workload_measure_hooked (run, &spec, steady.enabled ? &hooks : NULL, w,
                                  (double) i / n, (double) (i + 1) / n, error);

  step.queue_depth = spec.queue_depth;
  step.threads = spec.threads;
  step.outstanding = spec.queue_depth * spec.threads;
  step.complete = r == 0;
  step.steady_at_s = steady.steady_at_s;
  fill_step (&step, w);
  ds_workload_data_free (w);

  /* A level stopped before it measured anything leaves no row. */
  if (step.ios > 0)
    {
      g_array_append_val (data->steps, step);
      ds_sweep_update_knee (data);
      row.value = step.iops;
      row.detail = &g_array_index (data->steps, DsSweepStep, data->steps->len - 1);
      ds_run_emit (run, &row);
    }

  return r;
}

static gboolean
sweep_run (DsRun   *run,
           GError **error)
{
  DsSweepData *data = run->result->data;
  const DsBenchSpec *spec = run->spec;
  g_autoptr (GArray) levels = ds_sweep_levels (spec, error);

  if (levels == NULL)
    return FALSE;

  data->over_threads = ds_sweep_options_const (spec)->over_threads;
  g_array_set_size (data->levels, 0);
  g_array_append_vals (data->levels, levels->data, levels->len);
  data->step_time_s = (double) spec->duration_ns / 1e9;
  data->ramp_s = (double) spec->ramp_ns / 1e9;
  data->interval_s = (double) spec->interval_ns / 1e9;
  data->steady = ds_sweep_options_const (spec)->steady;

  for (guint i = 0; i < levels->len; i++)
    {
      int r = run_level (run, data, i, levels->len, error);

      if (r < 0)
        return ds_run_ok (run, r, error);
    }

  ds_run_set_progress (run, 1.0);
  return TRUE;
}

static JsonNode *
sweep_to_json (const DsResult *result)
{
  return ds_sweep_data_to_json (result->data);
}

static gpointer
sweep_from_json (JsonObject  *results,
                 GError     **error)
{
  return ds_sweep_data_from_json (results, error);
}

static gboolean
sweep_check_target (const DsBenchSpec    *spec,
                  const DsTargetShape  *shape,
                  GError              **error)
{
  return ds_bench_check_block_aligned (spec, shape, error) &&
         ds_bench_check_region (spec, shape, error);
}

static void
sweep_settings (const DsBenchSpec *spec,
                const DsResult    *result,
                GPtrArray         *parts)
{
  const DsSweepOptions *o = ds_sweep_options_const (spec);

  (void) result;
  g_ptr_array_add (parts, g_strdup (ds_pattern_to_string (spec->pattern)));
  ds_words_add_block (parts, spec->block_size_bytes);
  if (o->levels != NULL)
    g_ptr_array_add (parts, g_strdup_printf (o->over_threads ? _("threads %s") : _("queue depths %s"),
                                             o->levels));
  else
    g_ptr_array_add (parts, g_strdup_printf (o->over_threads ? _("threads %u to %u") :
                                             _("queue depths %u to %u"),
                                             o->from, o->to));
  g_ptr_array_add (parts, g_strdup_printf (_("%g s a level"), spec->duration_ns / 1e9));
}

static gpointer
sweep_options_new (void)
{
  DsSweepOptions *o = g_new0 (DsSweepOptions, 1);

  o->from = 1;
  o->to = 256;
  return o;
}

static gpointer
sweep_options_copy (gconstpointer options)
{
  DsSweepOptions *o = g_memdup2 (options, sizeof (DsSweepOptions));

  o->levels = g_strdup (o->levels);
  return o;
}

static void
sweep_options_free (gpointer options)
{
  DsSweepOptions *o = options;

  g_free (o->levels);
  g_free (o);
}

DsSweepOptions *
ds_sweep_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_SWEEP, NULL);

  return spec->options;
}

const DsSweepOptions *
ds_sweep_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_SWEEP, NULL);

  return spec->options;
}

static gpointer
sweep_detail_copy (gconstpointer detail)
{
  return g_memdup2 (detail, sizeof (DsSweepStep));
}

/* What shaped a sweep beyond its levels (which its results hold): the
 * I/O it repeated at each level and the other dimension's fixed value. */
static unsigned
sweep_params (const DsBenchSpec *spec)
{
  return DS_PARAM_BLOCK | DS_PARAM_PATTERN | DS_PARAM_QUEUE | DS_PARAM_THREADS | DS_PARAM_DURATION |
         DS_PARAM_RAMP | DS_PARAM_OFFSET | DS_PARAM_SPAN |
         (spec->pattern == DS_PATTERN_RANDRW ? DS_PARAM_MIX : 0u);
}

const DsBenchOps ds_bench_sweep = {
  .kind = DS_BENCH_SWEEP,
  .name = "sweep",
  .title = "Saturation Sweep",
  .opens_target = TRUE,
  .data_new = sweep_data_new,
  .data_free = sweep_data_free,
  .run = sweep_run,
  .to_json = sweep_to_json,
  .from_json = sweep_from_json,
  .report = ds_sweep_report,
  .writes = DS_BENCH_WRITES_PATTERN,
  .default_block_bytes = 4096,
  .default_duration_ns = 10 * DS_NS_PER_SEC,
  .spec_flags = DS_BENCH_SPEC_SERIES | DS_BENCH_SPEC_ROWS_ACCURACY,
  .options_size = sizeof (DsSweepOptions),
  .options_new = sweep_options_new,
  .options_copy = sweep_options_copy,
  .options_free = sweep_options_free,
  .validate = ds_sweep_spec_valid,
  .check_target = sweep_check_target,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = sweep_settings,
  .params = sweep_params,
  .detail_copy = sweep_detail_copy,
  .detail_free = g_free,
  .compare_rows = ds_sweep_compare_rows,
  .compare_curves = ds_sweep_compare_curves,
  .fio_job = ds_sweep_fio_job,
};
