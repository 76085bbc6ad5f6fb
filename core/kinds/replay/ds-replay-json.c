/* ds-replay-json.c: a replay's JSON and text report (the layout is in
 * ds-bench-replay.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stddef.h>

#include "ds-bench-replay.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result.h"
#include "ds-text.h"

#define MAX_IOPS      1e12
#define MAX_SECONDS   1e9
#define MAX_IN_FLIGHT 65536u

/* Members as (name, offset in DsReplayData), read and written alike. */
typedef struct {
  const char *name;
  size_t      offset;
} Member;

#define U64(n, f) { n, offsetof (DsReplayData, f) }
#define DBL(n, f) { n, offsetof (DsReplayData, f) }

static const Member counts[] = {
  U64 ("ios", ios), U64 ("reads", reads), U64 ("writes", writes), U64 ("flushes", flushes),
  U64 ("skipped", skipped), U64 ("wrapped", wrapped), U64 ("errors", errors),
  U64 ("bytes", bytes), U64 ("waited_for_slot", waited),
};
static const Member rates[] = {
  DBL ("duration_s", duration_s), DBL ("recorded_iops", recorded_iops),
  DBL ("achieved_iops", achieved_iops),
};
static const Member late[] = {
  DBL ("p50", late_p50_s), DBL ("p99", late_p99_s), DBL ("max", late_max_s),
};
static const Member latency[] = {
  DBL ("p50", p50_s), DBL ("p99", p99_s), DBL ("p99_9", p999_s),
  DBL ("read_p50", read_p50_s), DBL ("read_p99", read_p99_s),
  DBL ("write_p50", write_p50_s), DBL ("write_p99", write_p99_s),
};

#define FIELD(base, m, type) ((type *) ((char *) (base) + (m).offset))

static void
set_doubles (JsonObject       *o,
             const DsReplayData *d,
             const Member     *members,
             guint             n)
{
  for (guint i = 0; i < n; i++)
    json_object_set_double_member (o, members[i].name, *FIELD (d, members[i], const double));
}

static JsonObject *
capture_to_json (const DsReplayCapture *c)
{
  JsonObject *o = json_object_new ();
  JsonObject *lat = json_object_new ();

  json_object_set_int_member (o, "ios", (gint64) c->ios);
  json_object_set_int_member (o, "reads", (gint64) c->reads);
  json_object_set_int_member (o, "writes", (gint64) c->writes);
  json_object_set_double_member (o, "duration_s", c->duration_s);
  json_object_set_double_member (o, "iops", c->iops);
  json_object_set_double_member (lat, "p50", c->p50_s);
  json_object_set_double_member (lat, "p99", c->p99_s);
  json_object_set_double_member (lat, "p99_9", c->p999_s);
  json_object_set_object_member (o, "latency_s", lat);
  return o;
}

JsonNode *
ds_replay_data_to_json (const DsReplayData *d)
{
  JsonObject *o = json_object_new ();
  JsonObject *fidelity = json_object_new ();
  JsonObject *late_o = json_object_new ();
  JsonObject *lat = json_object_new ();

  json_object_set_double_member (o, "speed", d->speed);
  json_object_set_boolean_member (o, "reads_only", d->reads_only);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    json_object_set_int_member (o, counts[i].name, (gint64) *FIELD (d, counts[i], const uint64_t));
  json_object_set_int_member (o, "max_in_flight", d->max_in_flight);
  set_doubles (o, d, rates, G_N_ELEMENTS (rates));
  json_object_set_double_member (fidelity, "within_100us", d->within_100us);
  json_object_set_double_member (fidelity, "within_1ms", d->within_1ms);
  set_doubles (late_o, d, late, G_N_ELEMENTS (late));
  json_object_set_object_member (fidelity, "late_s", late_o);
  json_object_set_object_member (o, "fidelity", fidelity);
  set_doubles (lat, d, latency, G_N_ELEMENTS (latency));
  json_object_set_object_member (o, "latency_s", lat);
  json_object_set_int_member (o, "target_bytes", (gint64) d->target_bytes);
  json_object_set_int_member (o, "trace_span_bytes", (gint64) d->trace_span_bytes);
  if (d->has_capture)
    json_object_set_object_member (o, "capture", capture_to_json (&d->capture));
  else
    json_object_set_null_member (o, "capture");
  json_object_set_string_member (o, "loop", d->loop == DS_TRACE_LOOP_CLOSED ? "closed" : "open");
  json_object_set_double_member (o, "mean_depth", d->mean_depth);
  json_object_set_double_member (o, "recorded_mean_depth", d->recorded_mean_depth);
  if (d->series != NULL)
    json_object_set_member (o, "series", ds_workload_series_to_json (d->series));
  return ds_json_node_take_object (o);
}

static gboolean
get_doubles (JsonObject    *o,
             const char    *where,
             DsReplayData  *d,
             const Member  *members,
             guint          n,
             double         max,
             GError       **error)
{
  for (guint i = 0; i < n; i++)
    if (!ds_json_get_double (o, where, members[i].name, 0, max, FIELD (d, members[i], double), error))
      return FALSE;
  return TRUE;
}

static gboolean
capture_from_json (JsonObject       *o,
                   DsReplayCapture  *c,
                   GError          **error)
{
  const char *where = "results.capture";
  JsonObject *lat;

  if (!ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &c->ios, error) ||
      !ds_json_get_uint64 (o, where, "reads", c->ios, &c->reads, error) ||
      !ds_json_get_uint64 (o, where, "writes", c->ios - c->reads, &c->writes, error) ||
      !ds_json_get_double (o, where, "duration_s", 0, MAX_SECONDS, &c->duration_s, error) ||
      !ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &c->iops, error) ||
      (lat = ds_json_get_object (o, where, "latency_s", error)) == NULL)
    return FALSE;
  where = "results.capture.latency_s";
  return ds_json_get_double (lat, where, "p50", 0, MAX_SECONDS, &c->p50_s, error) &&
         ds_json_get_double (lat, where, "p99", c->p50_s, MAX_SECONDS, &c->p99_s, error) &&
         ds_json_get_double (lat, where, "p99_9", c->p99_s, MAX_SECONDS, &c->p999_s, error);
}

/* What the figures cannot be, whatever the file says. */
static gboolean
check_consistent (const DsReplayData  *d,
                  GError             **error)
{
  const char *why = NULL;

  if (d->ios > 0 && d->speed < DS_REPLAY_SPEED_MIN)
    why = _("results.speed is below 0.001 with I/Os replayed");
  else if (d->reads + d->writes + d->flushes != d->ios)
    why = _("results.ios is not its reads, writes and flushes");
  else if (d->reads_only && d->writes > 0)
    why = _("results.writes is not 0 in a replay of the reads only");
  else if (d->within_1ms < d->within_100us)
    why = _("results.fidelity.within_1ms is below within_100us");
  else if (d->p99_s < d->p50_s || d->p999_s < d->p99_s)
    why = _("results.latency_s: the percentiles are not in order");
  else if (d->wrapped > d->ios || d->waited > d->ios)
    why = _("results.wrapped or waited_for_slot is more than its I/Os");
  if (why == NULL)
    return TRUE;
  g_set_error_literal (error, DS_ERROR, DS_ERROR_CORRUPT, why);
  return FALSE;
}

/* The loop, the depths and the series: optional (the first replays' files
 * have none: open loop, no series). */
static gboolean
loop_from_json (JsonObject    *o,
                DsReplayData  *d,
                GError       **error)
{
  if (json_object_has_member (o, "loop"))
    {
      const char *loop = ds_json_get_string (o, "results", "loop", FALSE, error);

      if (loop == NULL)
        return FALSE;
      if (g_strcmp0 (loop, "open") != 0 && g_strcmp0 (loop, "closed") != 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.loop is \"%s\", not open or closed"), loop);
          return FALSE;
        }
      d->loop = g_str_equal (loop, "closed") ? DS_TRACE_LOOP_CLOSED : DS_TRACE_LOOP_OPEN;
    }
  if ((json_object_has_member (o, "mean_depth") &&
       !ds_json_get_double (o, "results", "mean_depth", 0, MAX_IN_FLIGHT, &d->mean_depth, error)) ||
      (json_object_has_member (o, "recorded_mean_depth") &&
       !ds_json_get_double (o, "results", "recorded_mean_depth", 0, 1e9, &d->recorded_mean_depth, error)))
    return FALSE;
  if (json_object_has_member (o, "series"))
    {
      JsonArray *array = ds_json_get_array (o, "results", "series", error);

      if (array == NULL ||
          (d->series = ds_workload_series_from_json (array, "results.series", error)) == NULL)
        return FALSE;
    }
  return TRUE;
}

DsReplayData *
ds_replay_data_from_json (JsonObject  *o,
                          GError     **error)
{
  g_autoptr (GError) local = NULL;
  DsReplayData *d = ds_replay_data_new ();
  JsonObject *fidelity, *lat, *cap;

  /* 0: a run stopped before it replayed anything. */
  if (!ds_json_get_double (o, "results", "speed", 0, DS_REPLAY_SPEED_MAX, &d->speed, &local) ||
      !ds_json_get_bool (o, "results", "reads_only", &d->reads_only, &local))
    goto fail;
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (!ds_json_get_uint64 (o, "results", counts[i].name, G_MAXINT64, FIELD (d, counts[i], uint64_t), &local))
      goto fail;
  if (!ds_json_get_unsigned (o, "results", "max_in_flight", MAX_IN_FLIGHT, &d->max_in_flight, &local) ||
      !ds_json_get_double (o, "results", "duration_s", 0, MAX_SECONDS, &d->duration_s, &local) ||
      !get_doubles (o, "results", d, rates + 1, G_N_ELEMENTS (rates) - 1, MAX_IOPS, &local) ||
      (fidelity = ds_json_get_object (o, "results", "fidelity", &local)) == NULL ||
      !ds_json_get_double (fidelity, "results.fidelity", "within_100us", 0, 1, &d->within_100us, &local) ||
      !ds_json_get_double (fidelity, "results.fidelity", "within_1ms", 0, 1, &d->within_1ms, &local) ||
      (lat = ds_json_get_object (fidelity, "results.fidelity", "late_s", &local)) == NULL ||
      !get_doubles (lat, "results.fidelity.late_s", d, late, G_N_ELEMENTS (late), MAX_SECONDS, &local) ||
      (lat = ds_json_get_object (o, "results", "latency_s", &local)) == NULL ||
      !get_doubles (lat, "results.latency_s", d, latency, G_N_ELEMENTS (latency), MAX_SECONDS, &local) ||
      !ds_json_get_uint64 (o, "results", "target_bytes", G_MAXINT64, &d->target_bytes, &local) ||
      !ds_json_get_uint64 (o, "results", "trace_span_bytes", G_MAXINT64, &d->trace_span_bytes, &local))
    goto fail;
  if (!json_object_has_member (o, "capture") ||
      !json_node_is_null (json_object_get_member (o, "capture")))
    {
      if ((cap = ds_json_get_object (o, "results", "capture", &local)) == NULL ||
          !capture_from_json (cap, &d->capture, &local))
        goto fail;
      d->has_capture = TRUE;
    }
  if (!loop_from_json (o, d, &local) || !check_consistent (d, &local))
    goto fail;
  return d;

fail:
  ds_replay_data_free (d);
  g_propagate_error (error, g_steal_pointer (&local));
  return NULL;
}

/* "12.3 µs": replayed latencies are mostly below a millisecond. */
static char *
format_us (double seconds)
{
  return g_strdup_printf ("%.1f µs", seconds * 1e6);
}

static void
report_latency (GString            *out,
                const char         *label,
                double              p50,
                double              p99,
                double              p999)
{
  g_autofree char *a = format_us (p50);
  g_autofree char *b = format_us (p99);
  g_autofree char *c = format_us (p999);
  g_autofree char *line = p999 > 0 ? g_strdup_printf ("p50 %s, p99 %s, p99.9 %s", a, b, c)
                                   : g_strdup_printf ("p50 %s, p99 %s", a, b);

  ds_report_figure (out, label, line);
}

void
ds_replay_report (const DsResult *result,
                  DsUnits         units,
                  GString        *out)
{
  const DsReplayData *d = result->data;
  const DsReplayOptions *o = ds_replay_options_const (&result->spec);
  g_autofree char *path = ds_text_sanitize (o->trace_path != NULL ? o->trace_path : "?");
  g_autofree char *trace = d->loop == DS_TRACE_LOOP_CLOSED ?
                           g_strdup_printf ("%s, closed loop%s", path, d->reads_only ? ", reads only" : "") :
                           g_strdup_printf ("%s at %gx%s", path, d->speed, d->reads_only ? ", reads only" : "");
  g_autofree char *ios = g_strdup_printf ("%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " reads, %"
                                          G_GUINT64_FORMAT " writes, %" G_GUINT64_FORMAT " flushes) in %.2f s",
                                          d->ios, d->reads, d->writes, d->flushes, d->duration_s);
  g_autofree char *iops = g_strdup_printf ("%.1f achieved, %.1f recorded (%.1f %%)", d->achieved_iops,
                                           d->recorded_iops, d->recorded_iops > 0 ?
                                           100 * d->achieved_iops / d->recorded_iops : 0);
  g_autofree char *lp50 = format_us (d->late_p50_s);
  g_autofree char *lp99 = format_us (d->late_p99_s);
  g_autofree char *lmax = format_us (d->late_max_s);
  g_autofree char *fidelity = g_strdup_printf ("%.2f %% within 100 µs, %.2f %% within 1 ms; late p50 %s, "
                                               "p99 %s, max %s", 100 * d->within_100us,
                                               100 * d->within_1ms, lp50, lp99, lmax);
  g_autofree char *rate = ds_format_rate (d->duration_s > 0 ? d->bytes / d->duration_s : -1, units);
  g_autofree char *slots = g_strdup_printf ("%" G_GUINT64_FORMAT " waited (%u in flight at most)",
                                            d->waited, d->max_in_flight);

  ds_report_figure (out, "Trace", trace);
  ds_report_figure (out, "I/Os", ios);
  ds_report_figure (out, "IOPS", iops);
  ds_report_figure (out, "Rate", rate);
  if (d->loop == DS_TRACE_LOOP_CLOSED)
    {
      g_autofree char *depth = g_strdup_printf ("%.2f in flight on average, the trace's %.2f (%.1f %%)",
                                                d->mean_depth, d->recorded_mean_depth,
                                                d->recorded_mean_depth > 0 ?
                                                100 * d->mean_depth / d->recorded_mean_depth : 0);

      ds_report_figure (out, "Depth", depth);
    }
  else
    ds_report_figure (out, "Fidelity", fidelity);
  ds_report_figure (out, "Slots", slots);
  report_latency (out, "Latency", d->p50_s, d->p99_s, d->p999_s);
  if (d->reads > 0)
    report_latency (out, "Reads", d->read_p50_s, d->read_p99_s, 0);
  if (d->writes > 0)
    report_latency (out, "Writes", d->write_p50_s, d->write_p99_s, 0);
  if (d->has_capture)
    {
      g_autofree char *cap = g_strdup_printf ("%" G_GUINT64_FORMAT " I/Os in %.2f s, %.1f IOPS",
                                              d->capture.ios, d->capture.duration_s, d->capture.iops);

      ds_report_figure (out, "Capture", cap);
      if (d->capture.p50_s > 0)
        report_latency (out, "Capture Latency", d->capture.p50_s, d->capture.p99_s, d->capture.p999_s);
      else
        ds_report_figure (out, "Capture Latency", "not in the trace (no completions)");
    }
  if (d->wrapped > 0)
    {
      g_autofree char *target = ds_format_size (d->target_bytes);
      g_autofree char *span = ds_format_size (d->trace_span_bytes);
      g_autofree char *w = g_strdup_printf ("%" G_GUINT64_FORMAT " I/Os past the target's end (%s; the "
                                            "trace reaches %s)", d->wrapped, target, span);

      ds_report_figure (out, "Wrapped", w);
    }
  if (d->skipped > 0)
    {
      g_autofree char *s = g_strdup_printf ("%" G_GUINT64_FORMAT " requests not replayed (discards, other "
                                            "operations, or writes with reads only)", d->skipped);

      ds_report_figure (out, "Skipped", s);
    }
  if (d->errors > 0)
    {
      g_autofree char *e = g_strdup_printf ("%" G_GUINT64_FORMAT, d->errors);

      ds_report_figure (out, "I/O Errors", e);
    }
}
