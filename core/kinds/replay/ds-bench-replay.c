/* ds-bench-replay.c: a trace replayed on a target (see ds-bench-replay.h):
 * the kind's table, its options, its run and the result of a replay made
 * elsewhere (the CLI's)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-bench-replay.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-interval.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-result.h"
#include "ds-run.h"
#include "ds-run-watch.h"
#include "ds-target.h"
#include "ds-text.h"
#include "ds-warnings.h"

/* The profile's interval: only its headline figures are kept. */
#define CAPTURE_INTERVAL_NS DS_NS_PER_SEC

DsReplayData *
ds_replay_data_new (void)
{
  return g_new0 (DsReplayData, 1);
}

void
ds_replay_data_free (DsReplayData *data)
{
  if (data == NULL)
    return;
  g_clear_pointer (&data->series, g_array_unref);
  g_free (data);
}

static gpointer
replay_data_new (void)
{
  return ds_replay_data_new ();
}

static void
replay_data_free (gpointer data)
{
  ds_replay_data_free (data);
}

/* ---- options ------------------------------------------------------------ */

static gpointer
replay_options_new (void)
{
  DsReplayOptions *o = g_new0 (DsReplayOptions, 1);

  o->speed = 1.0;
  return o;
}

static gpointer
replay_options_copy (gconstpointer options)
{
  DsReplayOptions *o = g_memdup2 (options, sizeof (DsReplayOptions));

  o->trace_path = g_strdup (o->trace_path);
  return o;
}

static void
replay_options_free (gpointer options)
{
  DsReplayOptions *o = options;

  g_free (o->trace_path);
  g_free (o);
}

DsReplayOptions *
ds_replay_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_REPLAY, NULL);

  return spec->options;
}

const DsReplayOptions *
ds_replay_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_REPLAY, NULL);

  return spec->options;
}

static gboolean
replay_validate (const DsBenchSpec  *spec,
                 GError            **error)
{
  const DsReplayOptions *o = ds_replay_options_const (spec);

  if (o->trace_path == NULL || *o->trace_path == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("a replay needs a trace to replay"));
      return FALSE;
    }
  if (!(o->speed >= DS_REPLAY_SPEED_MIN && o->speed <= DS_REPLAY_SPEED_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the replay's speed must be between 0.001 and 1000, not %g"), o->speed);
      return FALSE;
    }
  if (o->reads_only && spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("a replay of the reads only writes nothing: it is not a write test"));
      return FALSE;
    }
  return TRUE;
}

static const char *const replay_params_members[] = {
  "trace_path", "trace_speed", "trace_reads_only", "trace_loop", "trace_depth", NULL
};

static void
replay_params_to_json (const DsBenchSpec *spec,
                       JsonObject        *params)
{
  const DsReplayOptions *o = ds_replay_options_const (spec);

  if (o->trace_path != NULL)
    json_object_set_string_member (params, "trace_path", o->trace_path);
  else
    json_object_set_null_member (params, "trace_path");
  json_object_set_double_member (params, "trace_speed", o->speed);
  json_object_set_boolean_member (params, "trace_reads_only", o->reads_only);
  json_object_set_string_member (params, "trace_loop", o->loop == DS_TRACE_LOOP_CLOSED ? "closed" : "open");
  json_object_set_int_member (params, "trace_depth", o->depth);
}

/* Strict: a replay's result has all three (a file without them is no
 * replay's). */
static gboolean
replay_params_from_json (JsonObject   *params,
                         DsBenchSpec  *spec,
                         GError      **error)
{
  DsReplayOptions *o = ds_replay_options (spec);
  const char *path;

  if (json_object_has_member (params, "trace_path") &&
      json_node_is_null (json_object_get_member (params, "trace_path")))
    path = NULL;
  else if ((path = ds_json_get_string (params, "params", "trace_path", FALSE, error)) == NULL)
    return FALSE;
  if (!ds_json_get_double (params, "params", "trace_speed", DS_REPLAY_SPEED_MIN, DS_REPLAY_SPEED_MAX,
                           &o->speed, error) ||
      !ds_json_get_bool (params, "params", "trace_reads_only", &o->reads_only, error))
    return FALSE;
  /* The loop and depth came after the first replays: open loop without. */
  if (json_object_has_member (params, "trace_loop"))
    {
      const char *loop = ds_json_get_string (params, "params", "trace_loop", FALSE, error);

      if (loop == NULL)
        return FALSE;
      if (g_strcmp0 (loop, "open") != 0 && g_strcmp0 (loop, "closed") != 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("params.trace_loop is \"%s\", not open or closed"), loop);
          return FALSE;
        }
      o->loop = g_str_equal (loop, "closed") ? DS_TRACE_LOOP_CLOSED : DS_TRACE_LOOP_OPEN;
    }
  if (json_object_has_member (params, "trace_depth") &&
      !ds_json_get_unsigned (params, "params", "trace_depth", 4096, &o->depth, error))
    return FALSE;
  g_free (o->trace_path);
  o->trace_path = g_strdup (path);
  return TRUE;
}

/* ---- the result --------------------------------------------------------- */

void
ds_replay_data_take (DsReplayData              *d,
                     const DsTraceReplayResult *r,
                     double                     speed,
                     gboolean                   reads_only)
{
  d->speed = speed;
  d->reads_only = reads_only;
  d->ios = r->ios;
  d->reads = r->reads;
  d->writes = r->writes;
  d->flushes = r->flushes;
  d->skipped = r->skipped;
  d->wrapped = r->wrapped;
  d->errors = r->errors;
  d->bytes = r->bytes;
  d->waited = r->waited;
  d->max_in_flight = r->max_in_flight;
  d->duration_s = r->duration_s;
  d->recorded_iops = r->recorded_iops;
  d->achieved_iops = r->achieved_iops;
  d->within_100us = r->within_100us;
  d->within_1ms = r->within_1ms;
  d->late_p50_s = r->late_p50_ns / 1e9;
  d->late_p99_s = r->late_p99_ns / 1e9;
  d->late_max_s = r->late_max_ns / 1e9;
  d->p50_s = r->p50_ns / 1e9;
  d->p99_s = r->p99_ns / 1e9;
  d->p999_s = r->p999_ns / 1e9;
  d->read_p50_s = r->read_p50_ns / 1e9;
  d->read_p99_s = r->read_p99_ns / 1e9;
  d->write_p50_s = r->write_p50_ns / 1e9;
  d->write_p99_s = r->write_p99_ns / 1e9;
  d->target_bytes = r->target_bytes;
  d->trace_span_bytes = r->trace_span_bytes;
  d->loop = r->loop;
  d->mean_depth = r->mean_depth;
  d->recorded_mean_depth = r->recorded_mean_depth;
}

gboolean
ds_replay_data_capture (DsReplayData  *data,
                        const char    *trace_path,
                        GError       **error)
{
  g_autoptr (DsTraceProfile) profile = ds_trace_profile_new (trace_path, CAPTURE_INTERVAL_NS, NULL, error);
  const DsTraceSummary *s;

  if (profile == NULL)
    return FALSE;
  s = ds_trace_profile_summary (profile);
  data->has_capture = TRUE;
  data->capture = (DsReplayCapture) {
    .ios = s->ios, .reads = s->reads, .writes = s->writes,
    .duration_s = s->duration_s, .iops = s->iops,
    .p50_s = s->p50_ns / 1e9, .p99_s = s->p99_ns / 1e9, .p999_s = s->p999_ns / 1e9,
  };
  return TRUE;
}

void
ds_replay_warnings (const DsReplayData *d,
                    GPtrArray          *warnings)
{
  if (d->ios > 0 && d->loop == DS_TRACE_LOOP_OPEN && d->within_100us < DS_REPLAY_FIDELITY_MIN)
    ds_warnings_add (warnings, "replay_behind", g_strdup_printf (
      _("The replay fell behind the trace: %.2f %% of its I/Os were issued within 100 µs of "
        "their time (%.2f %% within 1 ms), fewer than 99 %%. The latencies are of a workload "
        "slower than the one captured."), 100 * d->within_100us, 100 * d->within_1ms));
  if (d->wrapped > 0)
    {
      g_autofree char *target = ds_format_size (d->target_bytes);
      g_autofree char *span = ds_format_size (d->trace_span_bytes);

      ds_warnings_add (warnings, "replay_wrapped", g_strdup_printf (
        _("The target (%s) is smaller than the trace's span (%s): %" PRIu64 " I/Os past "
          "its end were wrapped onto it, so the replay's offsets are not all the capture's."),
        target, span, d->wrapped));
    }
  if (d->waited > 0)
    ds_warnings_add (warnings, "replay_target_paced", g_strdup_printf (
      _("%" PRIu64 " I/Os waited because all %u slots were in flight: the target could "
        "not keep up with the trace, and its latency, not the trace, set the pace."),
      d->waited, d->max_in_flight));
}

/* What the target is (size, model, serial), from a read-only open that
 * does no I/O; the path alone when it cannot be opened. */
static void
describe_target (DsRun *run)
{
  g_autoptr (GError) error = NULL;
  DsTarget *target = ds_target_open (run->spec->target_path, DS_TARGET_OPEN_READ, NULL, &error);

  if (target == NULL)
    {
      g_free (run->result->target.path);
      run->result->target.path = g_strdup (run->spec->target_path);
      return;
    }
  ds_run_describe_target (run, target);
  ds_target_free (target);
}

/* The replay's figures into @result, and what they say of the run. */
static void
replay_finish (DsResult                  *result,
               const DsTraceReplayResult *replay)
{
  const DsReplayOptions *o = ds_replay_options_const (&result->spec);
  DsReplayData *data = result->data;

  ds_replay_data_take (data, replay, o->speed, o->reads_only);
  /* A write test is what wrote: the gate let it through (named). */
  result->spec.write = replay->writes > 0;
  result->spec.write_confirmed = replay->writes > 0;
  g_free (result->engine);
  result->engine = g_strdup ("io_uring");
  ds_replay_warnings (data, result->warnings);
}

/* An interval of the replay: a sample for the page, a point of the series. */
static void
on_interval (const DsIntervalPoint *point,
             gpointer               user_data)
{
  DsRun *run = user_data;
  DsReplayData *data = run->result->data;
  DsSample sample = { .kind = DS_SAMPLE_INTERVAL, .interval = point, .elapsed_ns = (uint64_t) (point->t_s * 1e9) };

  if (data->series == NULL)
    data->series = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  if (data->series->len < DS_LIMIT_SERIES_POINTS)
    g_array_append_val (data->series, *point);
  ds_run_emit (run, &sample);
}

static gboolean
replay_run (DsRun   *run,
            GError **error)
{
  const DsReplayOptions *o = ds_replay_options_const (run->spec);
  DsTraceReplaySpec rs = {
    .trace = o->trace_path,
    .target = run->spec->target_path,
    .confirm = run->spec->destroy_data,
    .reads_only = o->reads_only,
    .speed = o->speed,
    .loop = o->loop,
    .depth = o->depth,
    .cancel = run->cancel,
    .interval_ns = run->spec->interval_ns > 0 ? run->spec->interval_ns : DS_NS_PER_SEC,
    .interval_func = on_interval,
    .interval_data = run,
  };
  DsTraceReplayResult replay = { 0 };

  describe_target (run);
  if (!ds_replay_data_capture (run->result->data, o->trace_path, error) ||
      !ds_trace_replay (&rs, &replay, error))
    return FALSE;
  replay_finish (run->result, &replay);
  return ds_run_check_cancelled (run, error) == 0;
}

DsResult *
ds_replay_result_new (const DsBenchSpec         *spec,
                      const DsTraceReplayResult *replay)
{
  DsResult *result = ds_result_new (spec);
  DsRun run = { .spec = &result->spec, .result = result, .error_offset_bytes = -1 };
  g_autoptr (GError) error = NULL;

  ds_run_watch_start (&run);
  describe_target (&run);
  if (!ds_replay_data_capture (result->data, ds_replay_options_const (spec)->trace_path, &error))
    ds_result_add_note (result, _("The capture's own figures are not in the result: %s"),
                        error->message);
  replay_finish (result, replay);
  ds_run_watch_finish (&run);
  if (replay->cancelled)
    {
      const gint stopped = 1;

      g_clear_error (&error);
      ds_check_cancelled (&stopped, &error);
      result->cancelled = TRUE;
      ds_result_set_error (result, error, 0, -1);
    }
  else
    result->complete = TRUE;
  return result;
}

/* ---- words -------------------------------------------------------------- */

static gboolean
replay_measured (const DsResult *result)
{
  const DsReplayData *data = result->data;

  return data != NULL && data->ios > 0;
}

static void
replay_settings (const DsBenchSpec *spec,
                 const DsResult    *result,
                 GPtrArray         *parts)
{
  const DsReplayOptions *o = ds_replay_options_const (spec);
  g_autofree char *base = o->trace_path != NULL ? g_path_get_basename (o->trace_path) : NULL;
  g_autofree char *name = base != NULL ? ds_text_sanitize (base) : NULL;

  (void) result;
  /* TRANSLATORS: what a replay replayed: "trace db.dst" */
  g_ptr_array_add (parts, g_strdup_printf (_("trace %s"), name != NULL ? name : "?"));
  if (o->loop == DS_TRACE_LOOP_CLOSED && o->depth > 0)
    /* TRANSLATORS: a closed-loop replay keeping a depth the user gave: "closed loop, depth 4" */
    g_ptr_array_add (parts, g_strdup_printf (_("closed loop, depth %u"), o->depth));
  else if (o->loop == DS_TRACE_LOOP_CLOSED)
    /* TRANSLATORS: a replay keeping the trace's own depth, in its order */
    g_ptr_array_add (parts, g_strdup (_("closed loop, the trace's depth")));
  else
    /* TRANSLATORS: the replay's time scale: "speed 2×" */
    g_ptr_array_add (parts, g_strdup_printf (_("speed %g×"), o->speed));
  if (o->reads_only)
    g_ptr_array_add (parts, g_strdup (_("reads only")));
}

static char *
replay_describe (const DsResult *result)
{
  const DsReplayOptions *o = ds_replay_options_const (&result->spec);
  g_autofree char *base = o->trace_path != NULL ? g_path_get_basename (o->trace_path) : g_strdup ("?");
  g_autofree char *name = ds_text_sanitize (base);

  if (o->loop == DS_TRACE_LOOP_CLOSED)
    /* TRANSLATORS: a replay in a list of results: "closed-loop replay of db.dst" (", reads only") */
    return g_strdup_printf (o->reads_only ? _("closed-loop replay of %s, reads only") :
                            _("closed-loop replay of %s"), name);
  if (o->reads_only)
    /* TRANSLATORS: a replay in a list of results: "replay of db.dst at 2×, reads only" */
    return g_strdup_printf (_("replay of %s at %g×, reads only"), name, o->speed);
  /* TRANSLATORS: a replay in a list of results: "replay of db.dst at 2×" */
  return g_strdup_printf (_("replay of %s at %g×"), name, o->speed);
}

static JsonNode *
replay_to_json (const DsResult *result)
{
  return ds_replay_data_to_json (result->data);
}

static gpointer
replay_from_json (JsonObject  *results,
                  GError     **error)
{
  return ds_replay_data_from_json (results, error);
}

/* A device's history follows the latency the trace met: replays differ in
 * speed, so their IOPS are the trace's, not the disk's. */
static const char *const replay_headline[] = { "latency.p99", NULL };

const DsBenchOps ds_bench_replay = {
  .kind = DS_BENCH_REPLAY,
  .name = "replay",
  .title = "Replay",
  .opens_target = FALSE,       /* ds_trace_replay() opens it, through the gate */
  .data_new = replay_data_new,
  .data_free = replay_data_free,
  .run = replay_run,
  .to_json = replay_to_json,
  .from_json = replay_from_json,
  .report = ds_replay_report,
  .measured = replay_measured,
  .writes = DS_BENCH_WRITES_OPTION,  /* a trace's writes, unless reads_only */
  .spec_flags = DS_BENCH_SPEC_OWN_IO | DS_BENCH_SPEC_NEEDS_DEVICE,
  .options_size = sizeof (DsReplayOptions),
  .options_new = replay_options_new,
  .options_copy = replay_options_copy,
  .options_free = replay_options_free,
  .validate = replay_validate,
  .params_to_json = replay_params_to_json,
  .params_from_json = replay_params_from_json,
  .params_members = replay_params_members,
  .settings = replay_settings,
  .describe = replay_describe,
  .compare_rows = ds_replay_compare_rows,
  .headline_keys = replay_headline,
  .fio_job = ds_replay_fio_job,
};
