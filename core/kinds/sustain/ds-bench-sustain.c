/* ds-bench-sustain.c: a sustained write with cliff detection (see
 * ds-bench-sustain.h): one workload pass, analysed, and a recovery write
 * after an idle pause
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include <errno.h>

#include "ds-params.h"
#include "ds-bench-sustain.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-run.h"
#include "ds-words.h"

/* A pause looks at the Stop flag this often. */
#define PAUSE_SLICE_NS (50 * DS_NS_PER_MSEC)

DsSustainData *
ds_sustain_data_new (void)
{
  DsSustainData *data = g_new0 (DsSustainData, 1);

  data->run = ds_workload_data_new ();
  data->analysis.dips = g_array_new (FALSE, FALSE, sizeof (DsSustainDip));
  return data;
}

void
ds_sustain_data_free (DsSustainData *data)
{
  if (data == NULL)
    return;

  g_clear_pointer (&data->run, ds_workload_data_free);
  ds_sustain_analysis_clear (&data->analysis);
  g_free (data);
}

static gpointer
sustain_data_new (void)
{
  return ds_sustain_data_new ();
}

static void
sustain_data_free (gpointer data)
{
  ds_sustain_data_free (data);
}

gboolean
ds_sustain_spec_valid (const DsBenchSpec  *spec,
                       GError            **error)
{
  const DsSustainOptions *o = ds_sustain_options_const (spec);
  g_auto (DsBenchSpec) w = { 0 };

  if (spec->pattern != DS_PATTERN_WRITE && spec->pattern != DS_PATTERN_RANDWRITE)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("a sustained write writes: its pattern is write or randwrite, not %s"),
                   ds_pattern_to_string (spec->pattern));
      return FALSE;
    }
  if (o->span_percent != 0 &&
      (!(o->span_percent > 0 && o->span_percent <= 100) || spec->span_bytes != 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the size is a percentage of the device from more than 0 up to 100 %%, "
                     "or a number of bytes, not both"));
      return FALSE;
    }
  if (o->pause_ns > UINT64_C (3600) * DS_NS_PER_SEC)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the pause is at most 1h"));
      return FALSE;
    }

  /* The rest are the workload's rules; a duration of 0 is "to the end of
   * the region", which a workload also knows (one pass). */
  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, spec);
  if (w.duration_ns == 0)
    w.duration_ns = DS_NS_PER_SEC;
  return ds_bench_spec_validate (&w, error);
}

static void
emit_phase (DsRun      *run,
            const char *name,
            unsigned    index)
{
  DsSample sample = { .kind = DS_SAMPLE_PHASE, .name = name, .index = index, .write = TRUE };

  ds_run_emit (run, &sample);
}

/* Idle for @ns unless stopped. */
static int
pause_for (DsRun    *run,
           uint64_t  ns,
           GError  **error)
{
  uint64_t end = ds_clock_ns () + ns;

  for (uint64_t now = ds_clock_ns (); now < end; now = ds_clock_ns ())
    {
      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;
      g_usleep (MIN (end - now, PAUSE_SLICE_NS) / DS_NS_PER_USEC);
    }

  return 0;
}

/* The start of the region again, after the pause. */
static int
recover (DsRun          *run,
         DsSustainData  *data,
         GError        **error)
{
  const DsBenchSpec *spec = run->spec;
  const DsSustainOptions *o = ds_sustain_options_const (spec);
  g_auto (DsBenchSpec) w = { 0 };
  DsWorkloadData *again = ds_workload_data_new ();
  DsWorkloadHooks hooks = { .one_pass = TRUE };
  uint64_t written = data->run->write.io_bytes;
  uint64_t bytes = data->analysis.cliff_found ? (uint64_t) data->analysis.cliff_bytes : written / 10;
  int r;

  emit_phase (run, "pause", 1);
  r = pause_for (run, o->pause_ns, error);
  if (r < 0)
    {
      ds_workload_data_free (again);
      return r;
    }

  emit_phase (run, "recovery", 2);
  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, spec);
  w.pattern = DS_PATTERN_WRITE;
  w.span_bytes = MAX (ds_align_down (bytes, spec->block_size_bytes), spec->block_size_bytes);
  w.span_bytes = MIN (w.span_bytes, data->region_bytes);
  r = ds_workload_measure_hooked (run, &w, &hooks, again, 0.9, 1.0, error);

  data->has_recovery = again->write.ios > 0;
  data->recovery = (DsSustainRecovery) {
    .pause_s = (double) o->pause_ns / 1e9,
    .bytes = again->write.io_bytes,
    .runtime_s = again->runtime_s,
    .bytes_per_s = again->write.bytes_per_s,
  };
  ds_workload_data_free (again);
  return r;
}

/* A write to the region's end has no duration to measure progress by:
 * the bytes the series has counted do, on the collecting thread (the only
 * one that sets progress then). */
typedef struct {
  DsRun  *run;
  double  region_bytes;
  double  scale;            /* the share of the run this write is */
  double  bytes;
  double  last_t_s;
} ByteProgress;

static gboolean
progress_by_bytes (gpointer               user,
                   const DsIntervalPoint *point,
                   unsigned               index)
{
  ByteProgress *bp = user;

  /* A point may come again at the end, changed: count each span once. */
  if (point->t_s > bp->last_t_s)
    {
      bp->bytes += point->write.bytes_per_s * (point->t_s - bp->last_t_s);
      bp->last_t_s = point->t_s;
      ds_run_set_progress (bp->run, bp->scale * MIN (1.0, bp->bytes / bp->region_bytes));
    }
  return FALSE;
}

static gboolean
sustain_run (DsRun   *run,
             GError **error)
{
  DsSustainData *data = run->result->data;
  const DsBenchSpec *spec = run->spec;
  const DsSustainOptions *o = ds_sustain_options_const (spec);
  g_auto (DsBenchSpec) w = { 0 };
  DsWorkloadHooks hooks = { .one_pass = TRUE };
  ByteProgress progress;
  uint64_t region;
  int r;

  region = run->target->size_bytes - MIN (spec->offset_bytes, run->target->size_bytes);
  if (spec->span_bytes != 0)
    region = MIN (region, spec->span_bytes);
  else if (o->span_percent > 0 && o->span_percent < 100)
    region = (uint64_t) ((double) region * o->span_percent / 100.0);
  if (region < spec->block_size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the region to write (%" PRIu64 " bytes) is smaller than one block"),
                   region);
      return FALSE;
    }
  data->random = spec->pattern == DS_PATTERN_RANDWRITE;
  data->region_bytes = ds_align_down (region, spec->block_size_bytes);

  emit_phase (run, "write", 0);
  progress = (ByteProgress) { .run = run, .region_bytes = MAX (1.0, (double) data->region_bytes),
                              .scale = o->pause_ns != 0 ? 0.9 : 1.0 };
  if (spec->duration_ns == 0)
    {
      hooks.on_interval = progress_by_bytes;
      hooks.user = &progress;
    }
  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, spec);
  w.ramp_ns = 0;
  if (spec->span_bytes == 0 && o->span_percent > 0)
    w.span_bytes = data->region_bytes;
  r = ds_workload_measure_hooked (run, &w, &hooks, data->run, 0.0,
                                  o->pause_ns != 0 ? 0.9 : 1.0, error);
  if (data->run->series != NULL)
    ds_sustain_analyse ((const DsIntervalPoint *) data->run->series->data,
                        data->run->series->len, &data->analysis);
  if (r < 0)
    return ds_run_ok (run, r, error);

  if (o->pause_ns != 0)
    {
      r = recover (run, data, error);
      if (r < 0)
        return ds_run_ok (run, r, error);
    }

  ds_run_set_progress (run, 1.0);
  return TRUE;
}

static JsonNode *
sustain_to_json (const DsResult *result)
{
  return ds_sustain_data_to_json (result->data);
}

static gpointer
sustain_from_json (JsonObject  *results,
                   GError     **error)
{
  return ds_sustain_data_from_json (results, error);
}

DsSustainOptions *
ds_sustain_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_SUSTAIN, NULL);

  return spec->options;
}

const DsSustainOptions *
ds_sustain_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_SUSTAIN, NULL);

  return spec->options;
}

static void
sustain_defaults (DsBenchSpec *spec)
{
  spec->pattern = DS_PATTERN_WRITE;
  spec->queue_depth = 32;
}

static gboolean
sustain_check_target (const DsBenchSpec    *spec,
                  const DsTargetShape  *shape,
                  GError              **error)
{
  return ds_bench_check_block_aligned (spec, shape, error) &&
         ds_bench_check_region (spec, shape, error);
}

static void
sustain_settings (const DsBenchSpec *spec,
                  const DsResult    *result,
                  GPtrArray         *parts)
{
  (void) result;
  g_ptr_array_add (parts, g_strdup (spec->pattern == DS_PATTERN_RANDWRITE ? _("random write") :
                                    _("sequential write")));
  ds_words_add_block (parts, spec->block_size_bytes);
  ds_words_add_queue (parts, spec->queue_depth);
  if (spec->span_bytes > 0)
    g_ptr_array_add (parts, ds_words_capacity (spec->span_bytes));
}

/* The write's block, depth, order and bounds (the region it covered and
 * the recovery pause are in its results). */
static unsigned
sustain_params (const DsBenchSpec *spec)
{
  (void) spec;
  return DS_PARAM_BLOCK | DS_PARAM_PATTERN | DS_PARAM_QUEUE | DS_PARAM_THREADS | DS_PARAM_DURATION |
         DS_PARAM_OFFSET | DS_PARAM_SPAN;
}

const DsBenchOps ds_bench_sustain = {
  .kind = DS_BENCH_SUSTAIN,
  .name = "sustain",
  .title = "Sustained Write",
  .opens_target = TRUE,
  .data_new = sustain_data_new,
  .data_free = sustain_data_free,
  .run = sustain_run,
  .to_json = sustain_to_json,
  .from_json = sustain_from_json,
  .report = ds_sustain_report,
  .writes = DS_BENCH_WRITES_ALWAYS,
  .default_block_bytes = UINT64_C (1) << 20,
  .spec_flags = DS_BENCH_SPEC_SERIES | DS_BENCH_SPEC_ROWS_ACCURACY,
  .options_size = sizeof (DsSustainOptions),
  .defaults = sustain_defaults,
  .validate = ds_sustain_spec_valid,
  .check_target = sustain_check_target,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = sustain_settings,
  .params = sustain_params,
  .compare_rows = ds_sustain_compare_rows,
  .compare_curves = ds_sustain_compare_curves,
  .fio_job = ds_sustain_fio_job,
};
