/* ds-sweep-json.c: a sweep result's JSON (the layout is in
 * ds-bench-sweep.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "ds-bench-sweep.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"

/* Bounds a loaded file is held to. */
#define MAX_BYTES_PER_S 1e15
#define MAX_IOPS        1e12
#define MAX_LATENCY_S   1e6
#define MAX_SECONDS     1e7
#define MAX_RATIO       1e9

/* ---- writing ------------------------------------------------------------ */

static JsonObject *
step_to_json (const DsSweepStep *step)
{
  JsonObject *o = json_object_new ();
  JsonObject *lat = json_object_new ();
  JsonObject *little = json_object_new ();

  json_object_set_int_member (o, "outstanding", step->outstanding);
  json_object_set_int_member (o, "queue_depth", step->queue_depth);
  json_object_set_int_member (o, "threads", step->threads);
  json_object_set_boolean_member (o, "complete", step->complete);
  json_object_set_double_member (o, "runtime_s", step->runtime_s);
  json_object_set_int_member (o, "ios", (gint64) step->ios);
  json_object_set_double_member (o, "iops", step->iops);
  json_object_set_double_member (o, "bytes_per_s", step->bytes_per_s);
  if (step->steady_at_s >= 0)
    json_object_set_double_member (o, "steady_at_s", step->steady_at_s);
  else
    json_object_set_null_member (o, "steady_at_s");
  json_object_set_double_member (lat, "mean", step->lat_mean_s);
  json_object_set_double_member (lat, "p50", step->lat_p50_s);
  json_object_set_double_member (lat, "p99", step->lat_p99_s);
  json_object_set_double_member (lat, "p99_9", step->lat_p99_9_s);
  json_object_set_object_member (o, "latency_s", lat);
  json_object_set_double_member (little, "outstanding", step->little_outstanding);
  json_object_set_double_member (little, "ratio", step->outstanding > 0 ?
                                 step->little_outstanding / step->outstanding : 0);
  json_object_set_boolean_member (little, "off", ds_sweep_little_off (step));
  json_object_set_object_member (o, "little", little);

  return o;
}

JsonNode *
ds_sweep_data_to_json (const DsSweepData *data)
{
  JsonObject *o = json_object_new ();
  JsonArray *levels = json_array_new ();
  JsonArray *steps = json_array_new ();
  JsonObject *steady = json_object_new ();
  JsonObject *rule = json_object_new ();

  json_object_set_string_member (o, "over", data->over_threads ? "threads" : "qd");
  for (guint i = 0; i < data->levels->len; i++)
    json_array_add_int_element (levels, g_array_index (data->levels, unsigned, i));
  json_object_set_array_member (o, "levels", levels);
  json_object_set_double_member (o, "step_time_s", data->step_time_s);
  json_object_set_double_member (o, "ramp_s", data->ramp_s);
  json_object_set_double_member (o, "interval_s", data->interval_s);
  json_object_set_boolean_member (o, "steady", data->steady);
  json_object_set_int_member (steady, "window", DS_SWEEP_STEADY_WINDOW);
  json_object_set_double_member (steady, "slope", DS_SWEEP_STEADY_SLOPE);
  json_object_set_object_member (o, "steady_rule", steady);
  for (guint i = 0; i < data->steps->len; i++)
    json_array_add_object_element (steps, step_to_json (&g_array_index (data->steps, DsSweepStep, i)));
  json_object_set_array_member (o, "steps", steps);

  if (data->knee.found)
    {
      JsonObject *k = json_object_new ();
      g_autofree char *words = ds_sweep_knee_words (data);

      json_object_set_int_member (k, "outstanding", data->knee.outstanding);
      json_object_set_int_member (k, "queue_depth", data->knee.queue_depth);
      json_object_set_int_member (k, "threads", data->knee.threads);
      json_object_set_double_member (k, "iops", data->knee.iops);
      json_object_set_double_member (k, "p99_s", data->knee.p99_s);
      json_object_set_string_member (k, "rule", words);
      json_object_set_double_member (k, "iops_gain_per_step", data->knee.iops_gain_per_step);
      json_object_set_double_member (k, "p99_growth_per_step", data->knee.p99_growth_per_step);
      json_object_set_object_member (o, "knee", k);
    }
  else
    {
      json_object_set_null_member (o, "knee");
    }
  json_object_set_double_member (rule, "gain", DS_SWEEP_KNEE_GAIN);
  json_object_set_double_member (rule, "growth", DS_SWEEP_KNEE_GROWTH);
  json_object_set_object_member (o, "knee_rule", rule);

  return ds_json_node_take_object (o);
}

/* ---- reading ------------------------------------------------------------ */

static gboolean
step_from_json (JsonObject   *o,
                const char   *where,
                DsSweepStep  *step,
                GError      **error)
{
  g_autofree char *lwhere = g_strconcat (where, ".latency_s", NULL);
  JsonObject *lat;
  JsonNode *steady;

  if (!ds_json_get_unsigned (o, where, "outstanding", G_MAXINT, &step->outstanding, error) ||
      !ds_json_get_unsigned (o, where, "queue_depth", DS_LIMIT_QUEUE_DEPTH_MAX, &step->queue_depth, error) ||
      !ds_json_get_unsigned (o, where, "threads", DS_LIMIT_THREADS_MAX, &step->threads, error) ||
      !ds_json_get_bool (o, where, "complete", &step->complete, error) ||
      !ds_json_get_double (o, where, "runtime_s", 0, MAX_SECONDS, &step->runtime_s, error) ||
      !ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &step->ios, error) ||
      !ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &step->iops, error) ||
      !ds_json_get_double (o, where, "bytes_per_s", 0, MAX_BYTES_PER_S, &step->bytes_per_s, error))
    return FALSE;
  if (step->outstanding != step->queue_depth * step->threads)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.outstanding (%u) is not queue_depth × threads"), where, step->outstanding);
      return FALSE;
    }

  steady = json_object_get_member (o, "steady_at_s");
  step->steady_at_s = -1;
  if (steady == NULL || !JSON_NODE_HOLDS_NULL (steady))
    if (!ds_json_get_double (o, where, "steady_at_s", 0, MAX_SECONDS, &step->steady_at_s, error))
      return FALSE;

  lat = ds_json_get_object (o, where, "latency_s", error);
  if (lat == NULL ||
      !ds_json_get_double (lat, lwhere, "mean", 0, MAX_LATENCY_S, &step->lat_mean_s, error) ||
      !ds_json_get_double (lat, lwhere, "p50", 0, MAX_LATENCY_S, &step->lat_p50_s, error) ||
      !ds_json_get_double (lat, lwhere, "p99", 0, MAX_LATENCY_S, &step->lat_p99_s, error) ||
      !ds_json_get_double (lat, lwhere, "p99_9", 0, MAX_LATENCY_S, &step->lat_p99_9_s, error))
    return FALSE;

  /* Little's figure is derived: recomputed, not trusted. */
  step->little_outstanding = step->iops * step->lat_mean_s;
  return TRUE;
}

static gboolean
levels_from_json (JsonObject   *o,
                  GArray       *levels,
                  GError      **error)
{
  JsonArray *array = ds_json_get_array (o, "results", "levels", error);
  guint n;

  if (array == NULL)
    return FALSE;
  n = json_array_get_length (array);
  if (n > DS_SWEEP_MAX_LEVELS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.levels has %u levels, more than %u"), n, DS_SWEEP_MAX_LEVELS);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      gint64 v = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64 ?
                 json_node_get_int (node) : 0;
      unsigned level = (unsigned) v;

      if (v < 1 || v > DS_LIMIT_QUEUE_DEPTH_MAX)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("results.levels[%u] is not a level from 1 to %u"), i,
                       DS_LIMIT_QUEUE_DEPTH_MAX);
          return FALSE;
        }
      g_array_append_val (levels, level);
    }

  return TRUE;
}

DsSweepData *
ds_sweep_data_from_json (JsonObject  *o,
                         GError     **error)
{
  g_autoptr (GError) local = NULL;
  DsSweepData *data = ds_sweep_data_new ();
  const char *over;
  JsonArray *steps;
  guint n;

  over = ds_json_get_string (o, "results", "over", FALSE, &local);
  if (over == NULL)
    goto fail;
  if (strcmp (over, "qd") != 0 && strcmp (over, "threads") != 0)
    {
      g_set_error (&local, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.over must be \"qd\" or \"threads\""));
      goto fail;
    }
  data->over_threads = strcmp (over, "threads") == 0;

  if (!levels_from_json (o, data->levels, &local) ||
      !ds_json_get_double (o, "results", "step_time_s", 0, MAX_SECONDS, &data->step_time_s, &local) ||
      !ds_json_get_double (o, "results", "ramp_s", 0, MAX_SECONDS, &data->ramp_s, &local) ||
      !ds_json_get_double (o, "results", "interval_s", 0, MAX_SECONDS, &data->interval_s, &local) ||
      !ds_json_get_bool (o, "results", "steady", &data->steady, &local))
    goto fail;

  steps = ds_json_get_array (o, "results", "steps", &local);
  if (steps == NULL)
    goto fail;
  n = json_array_get_length (steps);
  if (n > data->levels->len)
    {
      g_set_error (&local, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.steps has %u steps for %u levels"), n, data->levels->len);
      goto fail;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *where = g_strdup_printf ("results.steps[%u]", i);
      JsonNode *node = json_array_get_element (steps, i);
      DsSweepStep step = { 0 };

      if (!ds_json_check_object (node, where, &local) ||
          !step_from_json (json_node_get_object (node), where, &step, &local))
        goto fail;
      g_array_append_val (data->steps, step);
    }

  /* The knee is derived from the steps by the rule: recomputed, so a
   * loaded result and a fresh one say the same. */
  ds_sweep_update_knee (data);

  return data;

fail:
  ds_sweep_data_free (data);
  g_propagate_error (error, g_steal_pointer (&local));
  return NULL;
}
