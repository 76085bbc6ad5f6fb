/* ds-result-json.c: a result as JSON (schema diskscope-result/1): writing
 * (reading: ds-result-read.c; files: ds-result-load.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-environment.h"
#include "ds-error.h"
#include "ds-params.h"
#include "ds-preset.h"
#include "ds-result-json.h"
#include "ds-save.h"
#include "ds-warnings.h"

/* ---- writing ------------------------------------------------------------ */

/* A path is bytes: when they are not UTF-8, @member holds a readable form
 * (the writer shows those bytes as \xNN) and @member"_bytes" the exact
 * bytes, percent-encoded, for the reader to restore. */
static void
add_path_bytes (JsonObject *o,
                const char *member,
                const char *path)
{
  if (path != NULL && !g_utf8_validate (path, -1, NULL))
    {
      g_autofree char *name = g_strconcat (member, "_bytes", NULL);
      g_autofree char *escaped = g_uri_escape_string (path, "/", FALSE);

      json_object_set_string_member (o, name, escaped);
    }
}

static JsonObject *
params_to_json (const DsBenchSpec *spec)
{
  JsonObject *p = json_object_new ();

  ds_json_set_string_or_null (p, "target_path", spec->target_path);
  json_object_set_boolean_member (p, "write", spec->write);
  json_object_set_boolean_member (p, "destroy_data_confirmed", spec->write_confirmed);
  ds_json_set_string_or_null (p, "engine", spec->engine);
  json_object_set_int_member (p, "block_size_bytes", (gint64) spec->block_size_bytes);
  json_object_set_int_member (p, "capacity_bytes", (gint64) spec->capacity_bytes);
  json_object_set_int_member (p, "accuracy", spec->accuracy);
  json_object_set_string_member (p, "pattern", ds_pattern_to_string (spec->pattern));
  json_object_set_int_member (p, "queue_depth", spec->queue_depth);
  json_object_set_int_member (p, "threads", spec->threads);
  json_object_set_int_member (p, "read_mix_percent", spec->read_mix_percent);
  json_object_set_double_member (p, "duration_s", (double) spec->duration_ns / 1e9);
  json_object_set_double_member (p, "ramp_s", (double) spec->ramp_ns / 1e9);
  json_object_set_int_member (p, "offset_bytes", (gint64) spec->offset_bytes);
  json_object_set_int_member (p, "span_bytes", (gint64) spec->span_bytes);
  json_object_set_boolean_member (p, "buffered", spec->buffered);
  json_object_set_int_member (p, "random_align_bytes", (gint64) spec->random_align_bytes);
  {
    const DsBenchOps *ops = ds_bench_get (spec->kind);

    if (ops != NULL && ops->params_to_json != NULL)
      ops->params_to_json (spec, p);
  }
  {
    /* All 64 bits, as a decimal string: json-glib reads integers as gint64
     * (and jq as doubles), and the run is repeated with --seed N. */
    char seed[G_ASCII_DTOSTR_BUF_SIZE];

    g_snprintf (seed, sizeof seed, "%" G_GUINT64_FORMAT, spec->seed);
    json_object_set_string_member (p, "seed", seed);
  }
  add_path_bytes (p, "target_path", spec->target_path);

  return p;
}

JsonNode *
ds_result_to_json (const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  JsonObject *root = json_object_new ();
  JsonObject *tool = json_object_new ();
  JsonObject *target = json_object_new ();
  JsonObject *env = json_object_new ();
  JsonArray *notes = json_array_new ();

  json_object_set_string_member (root, "schema", DS_RESULT_SCHEMA);

  json_object_set_string_member (tool, "name", "diskscope");
  json_object_set_string_member (tool, "version",
                                 result->tool_version ? result->tool_version : PACKAGE_VERSION);
  json_object_set_object_member (root, "tool", tool);

  json_object_set_string_member (root, "test", ops ? ops->name : "unknown");

  ds_json_set_string_or_null (target, "path", result->target.path);
  add_path_bytes (target, "path", result->target.path);
  json_object_set_string_member (target, "kind", result->target.is_block ? "block" : "file");
  json_object_set_int_member (target, "size_bytes", (gint64) result->target.size_bytes);
  ds_json_set_string_or_null (target, "model", result->target.model);
  /* Which physical device, whatever its /dev name: absent when unknown
   * (older results have neither). */
  if (result->target.serial != NULL)
    json_object_set_string_member (target, "serial", result->target.serial);
  if (result->target.wwn != NULL)
    json_object_set_string_member (target, "wwn", result->target.wwn);
  json_object_set_int_member (target, "logical_block_size", result->target.logical_block_size);
  json_object_set_int_member (target, "physical_block_size", result->target.physical_block_size);
  json_object_set_boolean_member (target, "rotational", result->target.rotational);
  json_object_set_object_member (root, "target", target);

  /* Only what shaped the run (ds-params.c); the loader fills the rest. */
  json_object_set_object_member (root, "params",
                                 ds_params_prune (params_to_json (&result->spec), &result->spec));

  ds_json_set_string_or_null (env, "started_at", result->started_at);
  ds_json_set_string_or_null (env, "hostname", result->hostname);
  ds_json_set_string_or_null (env, "kernel", result->kernel);
  ds_result_environment_to_json (result, env);
  json_object_set_object_member (root, "environment", env);

  ds_json_set_string_or_null (root, "engine", result->engine);
  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    json_array_add_string_element (notes, result->notes->pdata[i]);
  json_object_set_array_member (root, "notes", notes);
  ds_warnings_to_json (result->warnings, root);

  ds_annotation_to_json (&result->annotation, root);

  json_object_set_boolean_member (root, "complete", result->complete);
  json_object_set_boolean_member (root, "cancelled", result->cancelled);

  if (result->error != NULL)
    {
      JsonObject *e = json_object_new ();

      if (result->error_errno != 0)
        json_object_set_int_member (e, "errno", result->error_errno);
      else
        json_object_set_null_member (e, "errno");
      json_object_set_string_member (e, "message", result->error->message);
      if (result->error_offset_bytes >= 0)
        json_object_set_int_member (e, "offset_bytes", result->error_offset_bytes);
      else
        json_object_set_null_member (e, "offset_bytes");
      json_object_set_object_member (root, "error", e);
    }
  else
    {
      json_object_set_null_member (root, "error");
    }

  if (ops != NULL && ops->to_json != NULL && result->data != NULL)
    json_object_set_member (root, "results", ops->to_json (result));
  else
    json_object_set_null_member (root, "results");

  /* The node takes @root over.  (This was json_node_init_object(), which
   * takes a reference of its own: every saved tree stayed alive, in GSlice
   * memory that LeakSanitizer counts as reachable, and RSS grew with every
   * save.) */
  return ds_json_node_take_object (root);
}

char *
ds_result_to_data (const DsResult *result,
                   gsize          *ret_length)
{
  g_autoptr (JsonNode) root = ds_result_to_json (result);

  return ds_json_to_text (root, ret_length);
}

gboolean
ds_result_save_from (const DsResult     *result,
                     const char         *path,
                     const char *const  *inputs,
                     GError            **error)
{
  const DsSaveKeep keep = { .target = result->spec.target_path, .inputs = inputs };
  gsize length = 0;
  g_autofree char *data = NULL;

  /* Never over the run's own target nor what it came from; atomically, to
   * regular files only.  Checked before the JSON is made. */
  if (!ds_save_check (path, &keep, error))
    return FALSE;
  data = ds_result_to_data (result, &length);

  return ds_save_file (path, data, length, &keep, error);
}

gboolean
ds_result_save (const DsResult  *result,
                const char      *path,
                GError         **error)
{
  return ds_result_save_from (result, path, NULL, error);
}
