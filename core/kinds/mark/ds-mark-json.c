/* ds-mark-json.c: a mark result's JSON (the layout is in ds-bench-mark.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-result-json.h"

/* Bounds a loaded file is held to. */
#define MAX_BYTES_PER_S 1e15
#define MAX_IOPS        1e12
#define MAX_LATENCY_S   1e6
#define MAX_SECONDS     1e7
/* The largest preset has 12 steps (4 rows × Read, Write, Mix). */
#define MAX_STEPS       256u

/* ---- writing ------------------------------------------------------------ */

static JsonObject *
run_to_json (const DsMarkRun *one)
{
  JsonObject *o = json_object_new ();

  json_object_set_double_member (o, "bytes_per_s", one->bytes_per_s);
  json_object_set_double_member (o, "iops", one->iops);
  json_object_set_double_member (o, "lat_mean_s", one->lat_mean_s);

  return o;
}

static JsonObject *
step_to_json (const DsMarkStep *step)
{
  JsonObject *o = json_object_new ();
  JsonArray *runs = json_array_new ();

  json_object_set_string_member (o, "id", step->id);
  json_object_set_string_member (o, "row", step->row_id);
  json_object_set_string_member (o, "label", step->label);
  json_object_set_string_member (o, "direction", ds_mark_direction_to_string (step->direction));
  json_object_set_string_member (o, "pattern", ds_pattern_to_string (step->pattern));
  json_object_set_int_member (o, "block_size_bytes", (gint64) step->block_size_bytes);
  json_object_set_int_member (o, "queue_depth", step->queue_depth);
  json_object_set_int_member (o, "threads", step->threads);
  json_object_set_int_member (o, "read_percent", step->read_percent);
  json_object_set_boolean_member (o, "complete", step->complete);
  json_object_set_double_member (o, "bytes_per_s", step->bytes_per_s);
  json_object_set_double_member (o, "iops", step->iops);
  json_object_set_double_member (o, "lat_mean_s", step->lat_mean_s);
  for (guint i = 0; i < step->runs->len; i++)
    json_array_add_object_element (runs, run_to_json (&g_array_index (step->runs, DsMarkRun, i)));
  json_object_set_array_member (o, "runs", runs);
  json_object_set_int_member (o, "best_run", step->best_run);
  if (step->result != NULL)
    json_object_set_member (o, "results", ds_workload_data_to_json (step->result));
  else
    json_object_set_null_member (o, "results");

  return o;
}

JsonNode *
ds_mark_data_to_json (const DsMarkData *data)
{
  const DsPreset *preset = ds_preset_lookup (data->preset);
  JsonObject *o = json_object_new ();
  JsonArray *steps = json_array_new ();

  ds_json_set_string_or_null (o, "preset", data->preset);
  ds_json_set_string_or_null (o, "profile", preset != NULL ? preset->profile : NULL);
  json_object_set_int_member (o, "test_size_bytes", (gint64) data->test_size_bytes);
  json_object_set_int_member (o, "count", data->count);
  json_object_set_double_member (o, "duration_s", data->duration_s);
  json_object_set_double_member (o, "warmup_s", data->warmup_s);
  json_object_set_double_member (o, "pause_s", data->pause_s);
  json_object_set_double_member (o, "interval_s", data->interval_s);
  if (data->mix_percent >= 0)
    json_object_set_int_member (o, "mix_percent", data->mix_percent);
  else
    json_object_set_null_member (o, "mix_percent");
  ds_json_set_string_or_null (o, "comment", data->comment);
  ds_json_set_string_or_null (o, "os", data->os);
  ds_json_set_string_or_null (o, "directory", data->directory);
  json_object_set_boolean_member (o, "buffered", data->buffered);
  if (data->directory != NULL)
    {
      JsonObject *fs = json_object_new ();

      json_object_set_int_member (fs, "size_bytes", (gint64) data->fs_size_bytes);
      json_object_set_int_member (fs, "free_bytes", (gint64) data->fs_free_bytes);
      json_object_set_object_member (o, "filesystem", fs);
    }
  else
    {
      json_object_set_null_member (o, "filesystem");
    }
  json_object_set_int_member (o, "steps_planned", data->steps_planned);
  for (guint i = 0; i < data->steps->len; i++)
    json_array_add_object_element (steps, step_to_json (data->steps->pdata[i]));
  json_object_set_array_member (o, "steps", steps);

  return ds_json_node_take_object (o);
}

/* ---- reading ------------------------------------------------------------ */

static gboolean
get_unsigned (JsonObject  *o,
              const char  *where,
              const char  *member,
              unsigned     max,
              unsigned    *ret_value,
              GError     **error)
{
  uint64_t v;

  if (!ds_json_get_uint64 (o, where, member, max, &v, error))
    return FALSE;
  *ret_value = (unsigned) v;

  return TRUE;
}

static gboolean
direction_from_string (const char      *s,
                       DsMarkDirection *ret)
{
  for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    if (strcmp (s, ds_mark_direction_to_string ((DsMarkDirection) d)) == 0)
      {
        *ret = (DsMarkDirection) d;
        return TRUE;
      }

  return FALSE;
}

static gboolean
runs_from_json (JsonArray   *array,
                const char  *where,
                GArray      *runs,
                GError     **error)
{
  guint n = json_array_get_length (array);

  if (n > DS_LIMIT_COUNT_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s has %u runs, more than %u"),
                   where, n, DS_LIMIT_COUNT_MAX);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *rwhere = g_strdup_printf ("%s[%u]", where, i);
      JsonNode *node = json_array_get_element (array, i);
      DsMarkRun one;
      JsonObject *o;

      if (!ds_json_check_object (node, rwhere, error))
        return FALSE;
      o = json_node_get_object (node);
      if (!ds_json_get_double (o, rwhere, "bytes_per_s", 0, MAX_BYTES_PER_S, &one.bytes_per_s, error) ||
          !ds_json_get_double (o, rwhere, "iops", 0, MAX_IOPS, &one.iops, error) ||
          !ds_json_get_double (o, rwhere, "lat_mean_s", 0, MAX_LATENCY_S, &one.lat_mean_s, error))
        return FALSE;
      g_array_append_val (runs, one);
    }

  return TRUE;
}

static DsMarkStep *
step_from_json (JsonObject  *o,
                const char  *where,
                GError     **error)
{
  g_autoptr (GError) local = NULL;
  DsMarkStep *step = ds_mark_step_new ();
  g_autofree char *direction = NULL;
  g_autofree char *pattern = NULL;
  JsonArray *runs;
  JsonNode *results;

  if (!ds_json_get_optional_string (o, where, "id", &step->id, error) ||
      !ds_json_get_optional_string (o, where, "row", &step->row_id, error) ||
      !ds_json_get_optional_string (o, where, "label", &step->label, error) ||
      !ds_json_get_optional_string (o, where, "direction", &direction, error) ||
      !ds_json_get_optional_string (o, where, "pattern", &pattern, error))
    goto fail;
  if (step->id == NULL || step->row_id == NULL || step->label == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s has no id, row or label"), where);
      goto fail;
    }
  if (direction == NULL || !direction_from_string (direction, &step->direction))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.direction is not read, write or mix"), where);
      goto fail;
    }
  if (pattern == NULL || !ds_pattern_from_string (pattern, &step->pattern))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.pattern is unknown"), where);
      goto fail;
    }
  if (!ds_json_get_uint64 (o, where, "block_size_bytes", DS_LIMIT_BLOCK_SIZE_MAX,
                           &step->block_size_bytes, error) ||
      !get_unsigned (o, where, "queue_depth", DS_LIMIT_QUEUE_DEPTH_MAX, &step->queue_depth, error) ||
      !get_unsigned (o, where, "threads", DS_LIMIT_THREADS_MAX, &step->threads, error) ||
      !get_unsigned (o, where, "read_percent", 100, &step->read_percent, error) ||
      !ds_json_get_bool (o, where, "complete", &step->complete, error) ||
      !ds_json_get_double (o, where, "bytes_per_s", 0, MAX_BYTES_PER_S, &step->bytes_per_s, error) ||
      !ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &step->iops, error) ||
      !ds_json_get_double (o, where, "lat_mean_s", 0, MAX_LATENCY_S, &step->lat_mean_s, error))
    goto fail;

  runs = ds_json_get_array (o, where, "runs", error);
  if (runs == NULL)
    goto fail;
  {
    g_autofree char *rwhere = g_strdup_printf ("%s.runs", where);

    if (!runs_from_json (runs, rwhere, step->runs, error))
      goto fail;
  }
  if (!get_unsigned (o, where, "best_run", DS_LIMIT_COUNT_MAX, &step->best_run, error))
    goto fail;
  if (step->runs->len > 0 && step->best_run >= step->runs->len)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.best_run is not one of its %u runs"), where, step->runs->len);
      goto fail;
    }

  results = json_object_get_member (o, "results");
  if (results == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.results is missing"), where);
      goto fail;
    }
  if (!JSON_NODE_HOLDS_NULL (results))
    {
      g_autofree char *rwhere = g_strdup_printf ("%s.results", where);

      if (!ds_json_check_object (results, rwhere, error))
        goto fail;
      step->result = ds_workload_data_from_json (json_node_get_object (results), rwhere, error);
      if (step->result == NULL)
        goto fail;
    }
  else if (step->complete)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s is complete but has no results"), where);
      goto fail;
    }

  return step;

fail:
  ds_mark_step_free (step);
  return NULL;
}

/* The row indexes: the preset's order where the preset is known, else the
 * order the rows first appear in. */
static void
number_rows (DsMarkData *data)
{
  const DsPreset *preset = ds_preset_lookup (data->preset);
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();

  for (guint i = 0; i < data->steps->len; i++)
    {
      DsMarkStep *step = data->steps->pdata[i];
      guint at;

      step->row = G_MAXUINT;
      for (unsigned r = 0; preset != NULL && r < preset->n_rows; r++)
        if (strcmp (preset->rows[r].id, step->row_id) == 0)
          step->row = r;
      if (step->row != G_MAXUINT)
        continue;
      if (!g_ptr_array_find_with_equal_func (seen, step->row_id, g_str_equal, &at))
        {
          g_ptr_array_add (seen, step->row_id);
          at = seen->len - 1;
        }
      step->row = (preset != NULL ? preset->n_rows : 0) + at;
    }
}

static gboolean
double_seconds (JsonObject  *o,
                const char  *member,
                double      *ret,
                GError     **error)
{
  return ds_json_get_double (o, "results", member, 0, MAX_SECONDS, ret, error);
}

DsMarkData *
ds_mark_data_from_json (JsonObject  *o,
                        GError     **error)
{
  DsMarkData *data = ds_mark_data_new ();
  g_autofree char *profile = NULL;
  JsonNode *node;
  JsonArray *steps;
  guint n;

  if (!ds_json_get_optional_string (o, "results", "preset", &data->preset, error) ||
      !ds_json_get_optional_string (o, "results", "profile", &profile, error) ||
      !ds_json_get_optional_string (o, "results", "comment", &data->comment, error) ||
      !ds_json_get_optional_string (o, "results", "os", &data->os, error) ||
      !ds_json_get_optional_string (o, "results", "directory", &data->directory, error))
    goto fail;
  /* preset is null only in a run refused or stopped before its preset was
   * set up: such a run has no steps. */
  if (data->preset == NULL && json_object_has_member (o, "steps") &&
      json_node_get_node_type (json_object_get_member (o, "steps")) == JSON_NODE_ARRAY &&
      json_array_get_length (json_object_get_array_member (o, "steps")) != 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.preset is null but steps were run"));
      goto fail;
    }
  if (!ds_json_get_uint64 (o, "results", "test_size_bytes", G_MAXINT64, &data->test_size_bytes, error) ||
      !get_unsigned (o, "results", "count", DS_LIMIT_COUNT_MAX, &data->count, error) ||
      !double_seconds (o, "duration_s", &data->duration_s, error) ||
      !double_seconds (o, "warmup_s", &data->warmup_s, error) ||
      !double_seconds (o, "pause_s", &data->pause_s, error) ||
      !double_seconds (o, "interval_s", &data->interval_s, error) ||
      !ds_json_get_bool (o, "results", "buffered", &data->buffered, error) ||
      !get_unsigned (o, "results", "steps_planned", MAX_STEPS, &data->steps_planned, error))
    goto fail;

  node = json_object_get_member (o, "mix_percent");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      unsigned mix;

      if (!get_unsigned (o, "results", "mix_percent", 100, &mix, error))
        goto fail;
      data->mix_percent = (int) mix;
    }

  node = json_object_get_member (o, "filesystem");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonObject *fs = ds_json_get_object (o, "results", "filesystem", error);

      if (fs == NULL ||
          !ds_json_get_uint64 (fs, "results.filesystem", "size_bytes", G_MAXINT64,
                               &data->fs_size_bytes, error) ||
          !ds_json_get_uint64 (fs, "results.filesystem", "free_bytes", G_MAXINT64,
                               &data->fs_free_bytes, error))
        goto fail;
    }

  steps = ds_json_get_array (o, "results", "steps", error);
  if (steps == NULL)
    goto fail;
  n = json_array_get_length (steps);
  if (n > MAX_STEPS || n > MAX (data->steps_planned, 1))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.steps has %u steps, more than the %u planned"),
                   n, data->steps_planned);
      goto fail;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *where = g_strdup_printf ("results.steps[%u]", i);
      JsonNode *element = json_array_get_element (steps, i);
      DsMarkStep *step;

      if (!ds_json_check_object (element, where, error))
        goto fail;
      step = step_from_json (json_node_get_object (element), where, error);
      if (step == NULL)
        goto fail;
      g_ptr_array_add (data->steps, step);
    }
  number_rows (data);

  return data;

fail:
  ds_mark_data_free (data);
  return NULL;
}

/* The preset, and the custom rows one to a string as --row takes them
 * (DsBenchOps.params_to_json). */
void
ds_mark_params_to_json (const DsBenchSpec *spec,
                        JsonObject        *p)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);

  ds_json_set_string_or_null (p, "preset", o->rows != NULL ? DS_PRESET_CUSTOM : o->preset);
  if (o->rows != NULL)
    {
      /* Canonical when they parse (the run refuses them otherwise). */
      g_autofree char *canonical = ds_preset_rows_normalize (o->rows, NULL);
      g_auto (GStrv) rows = g_strsplit (canonical ? canonical : o->rows, ";", -1);
      JsonArray *array = json_array_new ();

      for (guint i = 0; rows[i] != NULL; i++)
        json_array_add_string_element (array, rows[i]);
      json_object_set_array_member (p, "rows", array);
    }
  else
    json_object_set_null_member (p, "rows");
}

/* A mark's preset and custom rows (both optional: older results have
 * neither).  Rows are checked as --row checks them. */
gboolean
ds_mark_params_from_json (JsonObject   *p,
                          DsBenchSpec  *spec,
                          GError      **error)
{
  DsMarkOptions *o = ds_mark_options (spec);
  JsonNode *node = json_object_get_member (p, "rows");
  g_autofree char *preset = NULL;
  GString *rows;
  JsonArray *array;
  g_autoptr (GError) local = NULL;

  if (json_object_has_member (p, "preset") &&
      !ds_json_get_optional_string (p, "params", "preset", &preset, error))
    return FALSE;
  if (preset != NULL)
    {
      g_free (o->preset);
      o->preset = g_steal_pointer (&preset);
    }
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("params.rows is not a list"));
      return FALSE;
    }

  array = json_node_get_array (node);
  rows = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *row = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (row) || json_node_get_value_type (row) != G_TYPE_STRING)
        {
          g_string_free (rows, TRUE);
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("params.rows[%u] is not a string"), i);
          return FALSE;
        }
      g_string_append_printf (rows, "%s%s", i ? ";" : "", json_node_get_string (row));
    }
  g_free (o->rows);
  o->rows = ds_preset_rows_normalize (rows->str, &local);
  g_string_free (rows, TRUE);
  if (o->rows == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("params.rows: %s"), local->message);
      return FALSE;
    }

  return TRUE;
}
