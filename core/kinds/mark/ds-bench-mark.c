/* ds-bench-mark.c: a preset run as one result (see ds-bench-mark.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-run.h"
#include "ds-test-file.h"
#include "ds-result.h"

#define GIB (UINT64_C (1) << 30)

/* A pause looks at the Stop flag this often. */
#define PAUSE_SLICE_NS (50 * DS_NS_PER_MSEC)

static gpointer
mark_data_new (void)
{
  return ds_mark_data_new ();
}

static void
mark_data_free (gpointer data)
{
  ds_mark_data_free (data);
}

/* "Debian GNU/Linux 12 (bookworm) [Linux 6.1.0-18-amd64] (x86_64)", as
 * CrystalDiskMark's OS line names Windows, its build and architecture. */
static char *
describe_os (void)
{
  g_autofree char *pretty = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  struct utsname uts;

  if (uname (&uts) != 0)
    return g_strdup (pretty ? pretty : "Linux");

  return g_strdup_printf ("%s [%s %s] (%s)", pretty ? pretty : "Linux",
                          uts.sysname, uts.release, uts.machine);
}

static void
record_run (DsMarkStep     *step,
            DsWorkloadData *measured)
{
  const DsWorkloadDir *r = &measured->read;
  const DsWorkloadDir *w = &measured->write;
  uint64_t ios = r->ios + w->ios;
  DsMarkRun one = {
    .bytes_per_s = r->bytes_per_s + w->bytes_per_s,
    .iops = r->iops + w->iops,
    .lat_mean_s = ios > 0 ? (r->lat_mean_s * (double) r->ios + w->lat_mean_s * (double) w->ios) /
                            (double) ios : 0,
  };

  g_array_append_val (step->runs, one);

  /* CrystalDiskMark keeps the highest score and, apart, the lowest mean
   * latency; the best run's figures (series, histogram) are kept whole. */
  if (step->result == NULL || one.bytes_per_s > step->bytes_per_s)
    {
      step->bytes_per_s = one.bytes_per_s;
      step->iops = one.iops;
      step->best_run = step->runs->len - 1;
      g_clear_pointer (&step->result, ds_workload_data_free);
      step->result = measured;
    }
  else
    {
      ds_workload_data_free (measured);
    }
  if (ios > 0 && (step->lat_mean_s == 0 || one.lat_mean_s < step->lat_mean_s))
    step->lat_mean_s = one.lat_mean_s;
}

/* Idles for @ns (CrystalDiskMark's Interval), stopping at once on Stop. */
static int
pause_between (DsRun     *run,
               uint64_t   ns,
               GError   **error)
{
  uint64_t end = ds_clock_ns () + ns;

  for (;;)
    {
      uint64_t now = ds_clock_ns ();

      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;
      if (now >= end)
        return 0;
      g_usleep (MIN (end - now, PAUSE_SLICE_NS) / DS_NS_PER_USEC);
    }
}

typedef struct {
  DsRun          *run;
  const GArray   *plan;          /* DsPresetStep */
  uint64_t        region_bytes;
  uint64_t        total_ns;      /* the whole run, for progress */
  uint64_t        done_ns;
} Runner;

static double
progress_at (Runner   *runner,
             uint64_t  ns)
{
  return runner->total_ns > 0 ? MIN (1.0, (double) ns / (double) runner->total_ns) : 0;
}

/* The steps' series share DS_LIMIT_MARK_SERIES_POINTS (what one result
 * file may hold, beside the steps' histograms): a step's longer series is
 * merged down to its share, and the result says so. */
static void
keep_series_in_share (Runner     *runner,
                      DsMarkStep *step)
{
  DsWorkloadData *r = step->result;
  guint share = DS_LIMIT_MARK_SERIES_POINTS / MAX (runner->plan->len, 1u);
  guint before;
  guint factor;

  if (r == NULL || r->series == NULL || r->series->len <= share)
    return;

  before = MAX (r->series_merged, 1u);
  factor = ds_series_decimate (r->series, share);
  {
    g_autofree char *note = ds_series_merged_note (before * factor, r->interval_s / before);

    r->series_merged = before * factor;
    r->interval_s *= factor;
    ds_result_add_note (runner->run->result, "%s: %s", step->label ? step->label : "?", note);
  }
}

/* One step: the warm-up, then count runs. */
static int
run_step (Runner             *runner,
          unsigned            index,
          const DsPresetStep *def,
          DsMarkStep         *step,
          GError            **error)
{
  DsRun *run = runner->run;
  const DsBenchSpec *spec = run->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);
  DsBenchSpec step_spec;
  DsSample sample = {
    .kind = DS_SAMPLE_PHASE,
    .index = index,
    .name = def->row->label,
    .write = def->direction == DS_MARK_WRITE,
    .detail = step,
  };
  int ret = 0;

  ds_preset_step_spec (spec, def, &step_spec);
  step_spec.span_bytes = runner->region_bytes;
  step->pattern = step_spec.pattern;

  ds_run_set_progress (run, progress_at (runner, runner->done_ns));
  ds_run_emit (run, &sample);

  if (o->warmup_ns > 0)
    {
      DsWorkloadData *warm = ds_workload_data_new ();
      uint64_t saved = step_spec.duration_ns;

      /* CrystalDiskMark's "Preparing": not measured, no series. */
      step_spec.duration_ns = o->warmup_ns;
      step_spec.interval_ns = 0;
      ret = ds_workload_measure (run, &step_spec, warm,
                                 progress_at (runner, runner->done_ns),
                                 progress_at (runner, runner->done_ns + o->warmup_ns), error);
      step_spec.duration_ns = saved;
      step_spec.interval_ns = spec->interval_ns;
      ds_workload_data_free (warm);
      runner->done_ns += o->warmup_ns;
    }

  for (unsigned i = 0; ret >= 0 && i < o->count; i++)
    {
      DsWorkloadData *measured = ds_workload_data_new ();
      uint64_t from = runner->done_ns;

      ret = ds_workload_measure (run, &step_spec, measured, progress_at (runner, from),
                                 progress_at (runner, from + step_spec.duration_ns), error);
      runner->done_ns += step_spec.duration_ns;
      /* A run cut short counts only when it is all the step has. */
      if (ret >= 0 || (step->result == NULL && (measured->read.present || measured->write.present)))
        record_run (step, measured);
      else
        ds_workload_data_free (measured);
    }

  ds_bench_spec_clear (&step_spec);
  keep_series_in_share (runner, step);
  if (ret < 0)
    return ret;

  step->complete = TRUE;
  sample.kind = DS_SAMPLE_ROW;
  sample.value = step->bytes_per_s;
  ds_run_emit (run, &sample);

  return 0;
}

/* Opens the device (for writing when a step writes: the safety gate), or
 * makes and fills the test file in a folder. */
static DsTarget *
open_target (DsRun       *run,
             DsMarkData  *data,
             gboolean     writes,
             GError     **error)
{
  const DsBenchSpec *spec = run->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const char *path = spec->target_path;
  struct stat st;
  DsTarget *target;

  if (stat (path, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_autofree char *what = g_strdup_printf (_("the %s preset"), o->preset);
      DsTestFileRequest request = {
        .what = what,
        .want_bytes = o->test_size_bytes != 0 ? o->test_size_bytes : GIB,
        .min_bytes = DS_LIMIT_TEST_SIZE_MIN,
        .buffered_ok = spec->buffered,
      };
      DsTestFileInfo info;
      DsTarget *saved = run->target;
      int ret;

      data->directory = g_strdup (path);
      target = ds_test_file_open (run, path, &request, &info, error);
      if (target == NULL)
        return NULL;
      data->buffered = info.buffered;
      data->fs_size_bytes = info.fs_size_bytes;
      data->fs_free_bytes = info.fs_free_bytes;

      /* CrystalDiskMark fills its test file with random data before the
       * first test, reads or not: so does this. */
      run->target = target;
      ret = ds_test_file_fill (run, path, error);
      run->target = saved;
      if (ret < 0)
        {
          ds_target_free (target);
          return NULL;
        }
      return target;
    }

  target = ds_run_open_path (run, path, writes ? DS_TARGET_OPEN_WRITE : DS_TARGET_OPEN_READ,
                             spec->destroy_data, error);
  if (target == NULL)
    {
      if (writes && error != NULL && g_error_matches (*error, DS_ERROR, DS_ERROR_REFUSED))
        g_prefix_error (error, _("%s has write steps (--reads-only runs only the steps "
                        "that read). "), o->preset);
      /* ds_run() named what was asked for; say what it is. */
      run->result->target.is_block = stat (path, &st) == 0 && S_ISBLK (st.st_mode);
      return NULL;
    }
  ds_run_describe_target (run, target);
  /* As ds_run_open_target(): the gate let this write through because the
   * user named the device (a test file in a folder needs no confirmation). */
  run->result->spec.write_confirmed = writes;

  return target;
}

/* What the result says of the run before it starts; TRUE when a step of
 * @plan writes. */
static gboolean
describe_plan (DsRun        *run,
               DsMarkData   *data,
               const GArray *plan)
{
  const DsBenchSpec *spec = run->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);
  gboolean writes = FALSE;

  /* Rows make it the custom preset whatever its preset option says. */
  data->preset = g_strdup (o->rows != NULL ? DS_PRESET_CUSTOM : o->preset);
  data->count = o->count;
  data->duration_s = (double) spec->duration_ns / 1e9;
  data->warmup_s = (double) o->warmup_ns / 1e9;
  data->pause_s = (double) o->pause_ns / 1e9;
  data->interval_s = (double) spec->interval_ns / 1e9;
  data->mix_percent = o->mix_percent;
  data->comment = g_strdup (o->comment);
  data->os = describe_os ();
  data->steps_planned = plan->len;

  for (guint i = 0; i < plan->len; i++)
    writes |= g_array_index (plan, DsPresetStep, i).read_percent < 100;

  return writes;
}

/* The region: the test size, or the whole device when it is smaller
 * (or when the preset tests the whole device). */
static void
choose_region (Runner     *runner,
               DsMarkData *data,
               DsTarget   *target)
{
  DsRun *run = runner->run;

  runner->region_bytes = ds_mark_options_const (run->spec)->test_size_bytes;
  if (runner->region_bytes == 0 || runner->region_bytes > target->size_bytes)
    {
      if (runner->region_bytes != 0 && data->directory == NULL)
        {
          g_autofree char *want = ds_format_size (runner->region_bytes);
          g_autofree char *have = ds_format_size (target->size_bytes);

          ds_result_add_note (run->result, _("the test covers all of %s (%s), less than "
                              "the %s test size"), target->path, have, want);
        }
      runner->region_bytes = target->size_bytes;
    }
  data->test_size_bytes = runner->region_bytes;
}

/* Adds up the run's length for progress and, before any step runs,
 * refuses a row the device cannot take. */
static gboolean
check_plan (Runner          *runner,
            const DsTarget  *target,
            GError         **error)
{
  const DsBenchSpec *spec = runner->run->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const GArray *plan = runner->plan;

  runner->total_ns = (plan->len - 1) * o->pause_ns;
  for (guint i = 0; i < plan->len; i++)
    {
      const DsPresetStep *def = &g_array_index (plan, DsPresetStep, i);

      runner->total_ns += o->warmup_ns + o->count * ds_preset_step_duration (spec, def);
      if (def->row->block_size_bytes % target->logical_block_size != 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("row %s: the block size, %u bytes, must be a multiple of %s's "
                       "logical block size (%u bytes)"), def->row->label,
                       def->row->block_size_bytes, target->path, target->logical_block_size);
          return FALSE;
        }
    }

  return TRUE;
}

static DsMarkStep *
step_from_def (const DsPresetStep *def)
{
  DsMarkStep *step = ds_mark_step_new ();

  step->id = g_strdup (def->id);
  step->row_id = g_strdup (def->row->id);
  step->label = g_strdup (def->row->label);
  step->row = def->row_index;
  step->direction = def->direction;
  step->block_size_bytes = def->row->block_size_bytes;
  step->queue_depth = def->row->queue_depth;
  step->threads = def->row->threads;
  step->read_percent = def->read_percent;

  return step;
}

/* The plan's steps in turn, with the pause between them; 0 or -errno. */
static int
run_steps (Runner      *runner,
           DsMarkData  *data,
           GError     **error)
{
  DsRun *run = runner->run;
  const DsBenchSpec *spec = run->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const GArray *plan = runner->plan;
  int ret = 0;

  for (guint i = 0; i < plan->len && ret >= 0; i++)
    {
      const DsPresetStep *def = &g_array_index (plan, DsPresetStep, i);
      DsMarkStep *step;

      if (i > 0 && o->pause_ns > 0)
        {
          ds_run_set_progress (run, progress_at (runner, runner->done_ns));
          ret = pause_between (run, o->pause_ns, error);
          runner->done_ns += o->pause_ns;
          if (ret < 0)
            break;
        }
      if (ds_run_check_cancelled (run, error) < 0)
        {
          ret = -ECANCELED;
          break;
        }

      step = step_from_def (def);
      g_ptr_array_add (data->steps, step);

      ret = run_step (runner, i, def, step, error);
    }

  return ret;
}

static gboolean
mark_run (DsRun   *run,
          GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsMarkData *data = run->result->data;
  g_autoptr (GArray) plan = NULL;
  g_autoptr (DsTarget) target = NULL;
  gboolean writes;
  Runner runner = { .run = run };
  int ret;

  plan = ds_preset_steps (spec, error);
  if (plan == NULL)
    return FALSE;

  writes = describe_plan (run, data, plan);
  run->result->spec.write = writes;

  ds_run_set_progress (run, 0.0);
  target = open_target (run, data, writes, error);
  if (target == NULL)
    return ds_run_ok (run, -EIO, error);

  choose_region (&runner, data, target);

  runner.plan = plan;
  if (!check_plan (&runner, target, error))
    return FALSE;

  run->target = target;
  ret = run_steps (&runner, data, error);
  run->target = NULL;

  if (ret < 0 && data->directory != NULL)
    ds_test_file_wrap_error (ret, error, data->directory, data->test_size_bytes);

  /* ds_target_free closes the descriptor: a test file is gone with it. */
  return ds_run_ok (run, ret, error);
}

static JsonNode *
mark_to_json (const DsResult *result)
{
  return ds_mark_data_to_json (result->data);
}

static gpointer
mark_from_json (JsonObject  *results,
                GError     **error)
{
  return ds_mark_data_from_json (results, error);
}

static gpointer
mark_detail_copy (gconstpointer detail)
{
  return ds_mark_step_copy (detail);
}

static void
mark_detail_free (gpointer detail)
{
  ds_mark_step_free (detail);
}

/* A preset reads and writes unless told to read only. */
static gpointer
mark_options_new (void)
{
  DsMarkOptions *o = g_new0 (DsMarkOptions, 1);

  o->count = 1;
  o->mix_percent = -1;
  return o;
}

static gpointer
mark_options_copy (gconstpointer options)
{
  DsMarkOptions *o = g_memdup2 (options, sizeof (DsMarkOptions));

  o->preset = g_strdup (o->preset);
  o->steps = g_strdup (o->steps);
  o->rows = g_strdup (o->rows);
  o->comment = g_strdup (o->comment);
  return o;
}

static void
mark_options_free (gpointer options)
{
  DsMarkOptions *o = options;

  g_free (o->preset);
  g_free (o->steps);
  g_free (o->rows);
  g_free (o->comment);
  g_free (o);
}

DsMarkOptions *
ds_mark_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_MARK, NULL);

  return spec->options;
}

const DsMarkOptions *
ds_mark_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_MARK, NULL);

  return spec->options;
}

static const char *const mark_params_members[] = { "preset", "rows", NULL };

static char *
mark_describe (const DsResult *result)
{
  const DsBenchSpec *spec = &result->spec;
  const DsMarkOptions *o = ds_mark_options_const (spec);

  return g_strdup_printf ("%s, %s", o->rows != NULL ? "custom rows" :
                          o->preset != NULL ? o->preset : "?",
                          o->reads_only || !spec->write ? "reads only" : "reads and writes");
}

const DsBenchOps ds_bench_mark = {
  .kind = DS_BENCH_MARK,
  .name = "mark",
  .title = "Workloads",
  .opens_target = FALSE,
  .data_new = mark_data_new,
  .data_free = mark_data_free,
  .run = mark_run,
  .to_json = mark_to_json,
  .from_json = mark_from_json,
  .report = ds_mark_report,
  .spec_flags = DS_BENCH_SPEC_SERIES,
  .options_size = sizeof (DsMarkOptions),
  .options_new = mark_options_new,
  .options_copy = mark_options_copy,
  .options_free = mark_options_free,
  .defaults = ds_mark_spec_defaults,
  .validate = ds_mark_spec_valid,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = ds_mark_settings,
  .params_to_json = ds_mark_params_to_json,
  .params_from_json = ds_mark_params_from_json,
  .params_members = mark_params_members,
  .detail_copy = mark_detail_copy,
  .detail_free = mark_detail_free,
  .describe = mark_describe,
  .compare_rows = ds_mark_compare_rows,
  .fio_job = ds_mark_fio_job,
};
