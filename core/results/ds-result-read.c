/* ds-result-read.c: a result from its JSON tree, strictly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every member the writer (ds-result-json.c) writes is read back and
 * checked: missing, of another type or out of range is DS_ERROR_CORRUPT
 * naming the member.  Members older files lack (seed, cancelled, the
 * *_bytes of a path that is UTF-8) may be missing; nothing else may.
 * Strings from the file are quoted in messages through
 * ds_text_sanitize_short(): a message is printed, and the file may hold
 * escape sequences.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-environment.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-params.h"
#include "ds-preset.h"
#include "ds-result-json.h"
#include "ds-text.h"
#include "ds-warnings.h"

/* Reads @member (a string or null) and, when present, @member"_bytes":
 * the exact bytes of a path that is not UTF-8. */
static gboolean
get_path (JsonObject  *o,
          const char  *where,
          const char  *member,
          gboolean     nullable,
          char       **ret_path,
          GError     **error)
{
  g_autofree char *bytes_member = g_strconcat (member, "_bytes", NULL);
  g_autofree char *path = NULL;

  if (!ds_json_get_optional_string (o, where, member, &path, error))
    return FALSE;
  if (path == NULL && !nullable)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is not a string"), where, member);
      return FALSE;
    }

  if (json_object_has_member (o, bytes_member))
    {
      const char *escaped = ds_json_get_string (o, where, bytes_member, FALSE, error);
      char *raw;

      if (escaped == NULL)
        return FALSE;
      raw = g_uri_unescape_string (escaped, NULL);
      if (raw == NULL || raw[0] == '\0')
        {
          g_free (raw);
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.%s is not a percent-encoded path"), where, bytes_member);
          return FALSE;
        }
      g_free (path);
      path = raw;
    }

  *ret_path = g_steal_pointer (&path);
  return TRUE;
}

/* The seed: a decimal string of all 64 bits, or (files written before the
 * string form) a whole number. */
static gboolean
get_seed (JsonObject  *p,
          uint64_t    *ret_seed,
          GError     **error)
{
  JsonNode *node = json_object_get_member (p, "seed");
  g_autoptr (GError) local = NULL;
  guint64 v = 0;

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return ds_json_get_uint64 (p, "params", "seed", G_MAXINT64, ret_seed, error);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("params.seed is not a string or a number"));
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (json_node_get_string (node), 10, 0, G_MAXUINT64, &v, &local))
    {
      g_autofree char *quoted = ds_text_sanitize_short (json_node_get_string (node), 40);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("params.seed “%s” is not a number from 0 to %" PRIu64),
                   quoted, G_MAXUINT64);
      return FALSE;
    }

  *ret_seed = v;
  return TRUE;
}


static gboolean
params_from_json (JsonObject   *p,
                  DsBenchSpec  *spec,
                  GError      **error)
{
  const char *where = "params";
  const char *s;
  uint64_t v;
  double d;
  gboolean b;

  g_clear_pointer (&spec->target_path, g_free);
  if (!get_path (p, where, "target_path", TRUE, &spec->target_path, error))
    return FALSE;

  if (!ds_json_get_bool (p, where, "write", &spec->write, error))
    return FALSE;
  /* What the gate accepted when it ran: kept through a load and a save
   * (an import, a relabel), never asked of a file that lacks it. */
  spec->write_confirmed = FALSE;
  if (json_object_has_member (p, "destroy_data_confirmed") &&
      !ds_json_get_bool (p, where, "destroy_data_confirmed", &spec->write_confirmed, error))
    return FALSE;

  g_clear_pointer (&spec->engine, g_free);
  if (!ds_json_get_optional_string (p, where, "engine", &spec->engine, error))
    return FALSE;
  if (spec->engine == NULL)
    spec->engine = g_strdup ("auto");

  if (!ds_json_get_uint64 (p, where, "block_size_bytes", DS_LIMIT_BLOCK_SIZE_MAX, &spec->block_size_bytes, error) ||
      !ds_json_get_uint64 (p, where, "capacity_bytes", G_MAXINT64, &spec->capacity_bytes, error))
    return FALSE;
  if (!ds_json_get_uint64 (p, where, "accuracy", DS_LIMIT_ACCURACY_MAX, &v, error))
    return FALSE;
  spec->accuracy = (unsigned) v;

  s = ds_json_get_string (p, where, "pattern", FALSE, error);
  if (s == NULL)
    return FALSE;
  if (!ds_pattern_from_string (s, &spec->pattern))
    {
      g_autofree char *quoted = ds_text_sanitize_short (s, 40);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("params.pattern “%s” is unknown"), quoted);
      return FALSE;
    }

  if (!ds_json_get_uint64 (p, where, "queue_depth", DS_LIMIT_QUEUE_DEPTH_MAX, &v, error))
    return FALSE;
  spec->queue_depth = (unsigned) v;
  if (!ds_json_get_uint64 (p, where, "threads", DS_LIMIT_THREADS_MAX, &v, error))
    return FALSE;
  spec->threads = (unsigned) v;
  if (!ds_json_get_uint64 (p, where, "read_mix_percent", 100, &v, error))
    return FALSE;
  spec->read_mix_percent = (unsigned) v;

  if (!ds_json_get_double (p, where, "duration_s", 0, 1e7, &d, error))
    return FALSE;
  spec->duration_ns = ds_json_seconds_to_ns (d);
  if (!ds_json_get_double (p, where, "ramp_s", 0, 1e7, &d, error))
    return FALSE;
  spec->ramp_ns = ds_json_seconds_to_ns (d);

  if (!ds_json_get_uint64 (p, where, "offset_bytes", G_MAXINT64, &spec->offset_bytes, error) ||
      !ds_json_get_uint64 (p, where, "span_bytes", G_MAXINT64, &spec->span_bytes, error))
    return FALSE;

  if (!ds_json_get_bool (p, where, "buffered", &b, error))
    return FALSE;
  spec->buffered = b;

  {
    const DsBenchOps *ops = ds_bench_get (spec->kind);

    if (ops != NULL && ops->params_from_json != NULL && !ops->params_from_json (p, spec, error))
      return FALSE;
  }

  if (!json_object_has_member (p, "random_align_bytes"))
    {
      /* Written before the member: the logical block, then the rule. */
      spec->random_align_bytes = ds_params_random_offsets (spec) ? DS_PARAMS_OLD_RANDOM_ALIGN : 0;
    }
  else if (!ds_json_get_uint64 (p, where, "random_align_bytes", DS_LIMIT_BLOCK_SIZE_MAX,
                                &spec->random_align_bytes, error))
    return FALSE;
  else if (spec->random_align_bytes != 0 &&
           (spec->random_align_bytes < 512 ||
            (spec->random_align_bytes & (spec->random_align_bytes - 1)) != 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("params.random_align_bytes %" PRIu64 " is not 0 or a power of two "
                   "from 512"), spec->random_align_bytes);
      return FALSE;
    }

  return get_seed (p, &spec->seed, error);
}

static gboolean
block_size_from_json (JsonObject  *t,
                      const char  *member,
                      uint32_t    *ret_value,
                      GError     **error)
{
  uint64_t v;

  /* 0 (unknown, e.g. a run refused before the open) or a power of two
   * from 512 bytes to 1 MiB. */
  if (!ds_json_get_uint64 (t, "target", member, 1 << 20, &v, error))
    return FALSE;
  if (v != 0 && (v < 512 || (v & (v - 1)) != 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("target.%s %" PRIu64 " is not a block size"), member, v);
      return FALSE;
    }

  *ret_value = (uint32_t) v;
  return TRUE;
}

static gboolean
target_from_json (JsonObject    *t,
                  DsTargetInfo  *info,
                  GError       **error)
{
  const char *where = "target";
  const char *s;

  if (!get_path (t, where, "path", FALSE, &info->path, error))
    return FALSE;

  s = ds_json_get_string (t, where, "kind", FALSE, error);
  if (s == NULL)
    return FALSE;
  if (strcmp (s, "block") != 0 && strcmp (s, "file") != 0)
    {
      g_autofree char *quoted = ds_text_sanitize_short (s, 40);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("target.kind is “%s”, not block or file"), quoted);
      return FALSE;
    }
  info->is_block = strcmp (s, "block") == 0;

  if (!ds_json_get_uint64 (t, where, "size_bytes", G_MAXINT64, &info->size_bytes, error) ||
      !ds_json_get_optional_string (t, where, "model", &info->model, error) ||
      (json_object_has_member (t, "serial") &&
       !ds_json_get_optional_string (t, where, "serial", &info->serial, error)) ||
      (json_object_has_member (t, "wwn") &&
       !ds_json_get_optional_string (t, where, "wwn", &info->wwn, error)) ||
      !block_size_from_json (t, "logical_block_size", &info->logical_block_size, error) ||
      !block_size_from_json (t, "physical_block_size", &info->physical_block_size, error))
    return FALSE;

  return ds_json_get_bool (t, where, "rotational", &info->rotational, error);
}

/* Where and when the run happened, as the run's machine said: each member
 * a string or null, the time ISO 8601. */
static gboolean
environment_from_json (JsonObject  *o,
                       DsResult    *result,
                       GError     **error)
{
  JsonObject *env = ds_json_get_object (o, "result", "environment", error);

  if (env == NULL ||
      !ds_json_get_optional_string (env, "environment", "started_at", &result->started_at, error) ||
      !ds_json_get_optional_string (env, "environment", "hostname", &result->hostname, error) ||
      !ds_json_get_optional_string (env, "environment", "kernel", &result->kernel, error))
    return FALSE;
  ds_result_environment_from_json (result, env);

  if (result->started_at != NULL)
    {
      g_autoptr (GDateTime) t = g_date_time_new_from_iso8601 (result->started_at, NULL);

      if (t == NULL)
        {
          g_autofree char *quoted = ds_text_sanitize_short (result->started_at, 40);

          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("environment.started_at “%s” is not an ISO 8601 time"), quoted);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
notes_from_json (JsonObject  *o,
                 DsResult    *result,
                 GError     **error)
{
  JsonArray *notes = ds_json_get_array (o, "result", "notes", error);

  if (notes == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (notes); i++)
    {
      JsonNode *n = json_array_get_element (notes, i);

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("result.notes[%u] is not a string"), i);
          return FALSE;
        }
      g_ptr_array_add (result->notes, g_strdup (json_node_get_string (n)));
    }

  return TRUE;
}

static gboolean
error_from_json (JsonObject  *o,
                 DsResult    *result,
                 GError     **error)
{
  JsonNode *node = json_object_get_member (o, "error");
  JsonObject *e;
  const char *message;
  uint64_t v = 0;

  if (node == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("result.error is missing"));
      return FALSE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("result.error is neither null nor an object"));
      return FALSE;
    }

  e = json_node_get_object (node);
  message = ds_json_get_string (e, "error", "message", FALSE, error);
  if (message == NULL)
    return FALSE;

  /* errno and offset_bytes: a number, or null when there is none. */
  node = json_object_get_member (e, "errno");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!ds_json_get_uint64 (e, "error", "errno", 4095, &v, error))
        return FALSE;
      result->error_errno = (int) v;
    }
  node = json_object_get_member (e, "offset_bytes");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!ds_json_get_uint64 (e, "error", "offset_bytes", G_MAXINT64, &v, error))
        return FALSE;
      result->error_offset_bytes = (int64_t) v;
    }

  result->error = g_error_new_literal (DS_ERROR,
                                       result->cancelled ? DS_ERROR_CANCELLED :
                                       result->error_errno ? ds_error_from_errno (result->error_errno) :
                                       DS_ERROR_FAILED,
                                       message);
  return TRUE;
}

static gboolean
results_from_json (JsonObject        *o,
                   const DsBenchOps  *ops,
                   DsResult          *result,
                   GError           **error)
{
  JsonNode *node = json_object_get_member (o, "results");

  if (node == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("result.results is missing"));
      return FALSE;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      result->data = ops->from_json (json_node_get_object (node), error);
      if (result->data == NULL)
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("result.results could not be read"));
          return FALSE;
        }
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results is not an object"));
      return FALSE;
    }
  if (result->complete)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("result.results is empty in a complete result"));
      return FALSE;
    }

  /* A run that stopped before it measured anything. */
  if (ops->data_new != NULL)
    result->data = ops->data_new ();
  return TRUE;
}

DsResult *
ds_result_from_json (JsonNode  *root,
                     GError   **error)
{
  g_autoptr (DsResult) result = NULL;
  const DsBenchOps *ops;
  JsonObject *o;
  JsonObject *tool;
  JsonObject *target;
  JsonObject *params;
  const char *s;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("not a Diskscope result (not a JSON object)"));
      return NULL;
    }
  o = json_node_get_object (root);

  s = ds_json_get_string (o, "result", "schema", FALSE, NULL);
  if (s == NULL || strcmp (s, DS_RESULT_SCHEMA) != 0)
    {
      g_autofree char *quoted = ds_text_sanitize_short (s ? s : "missing", 40);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not a Diskscope result: schema is “%s”, expected “%s”"),
                   quoted, DS_RESULT_SCHEMA);
      return NULL;
    }

  s = ds_json_get_string (o, "result", "test", FALSE, error);
  if (s == NULL)
    return NULL;
  ops = ds_bench_lookup (s);
  if (ops == NULL || ops->from_json == NULL)
    {
      g_autofree char *quoted = ds_text_sanitize_short (s, 40);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("the result is of an unknown test “%s”"), quoted);
      return NULL;
    }

  /* Loaded, not measured: nothing of this machine goes in. */
  result = ds_result_new_blank (ops->kind);

  tool = ds_json_get_object (o, "result", "tool", error);
  if (tool == NULL)
    return NULL;
  s = ds_json_get_string (tool, "tool", "version", FALSE, error);
  if (s == NULL)
    return NULL;
  result->tool_version = g_strdup (s);

  target = ds_json_get_object (o, "result", "target", error);
  if (target == NULL || !target_from_json (target, &result->target, error))
    return NULL;

  params = ds_json_get_object (o, "result", "params", error);
  if (params == NULL || !params_from_json (ds_params_fill (params, ops->kind), &result->spec, error))
    return NULL;

  if (!environment_from_json (o, result, error) ||
      !ds_json_get_optional_string (o, "result", "engine", &result->engine, error) ||
      !notes_from_json (o, result, error) ||
      !ds_warnings_from_json (o, result->warnings, error))
    return NULL;
  if (!ds_annotation_from_json (o, &result->annotation, error))
    return NULL;

  if (!ds_json_get_bool (o, "result", "complete", &result->complete, error))
    return NULL;
  if (json_object_has_member (o, "cancelled") &&
      !ds_json_get_bool (o, "result", "cancelled", &result->cancelled, error))
    return NULL;

  if (!error_from_json (o, result, error) ||
      !results_from_json (o, ops, result, error))
    return NULL;

  return g_steal_pointer (&result);
}
