/* ds-result-json.c: results as JSON (schema diskscope-result/1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-result-json.h"

/* Files larger than this are not results (a full scan with every access
 * dot is a few MB). */
#define MAX_RESULT_BYTES (256 * 1024 * 1024)

/* ---- helpers for the kinds ---------------------------------------------- */

static JsonNode *
get_member (JsonObject  *object,
            const char  *where,
            const char  *member,
            GError     **error)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.%s is missing", where, member);

  return node;
}

gboolean
ds_json_get_double (JsonObject  *object,
                    const char  *where,
                    const char  *member,
                    double       min,
                    double       max,
                    double      *ret_value,
                    GError     **error)
{
  JsonNode *node = get_member (object, where, member, error);
  double v;

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
       json_node_get_value_type (node) != G_TYPE_INT64))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.%s is not a number", where, member);
      return FALSE;
    }

  v = json_node_get_double (node);
  if (!isfinite (v) || v < min || v > max)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s.%s is out of range (%g; expected %g to %g)",
                   where, member, v, min, max);
      return FALSE;
    }

  *ret_value = v;
  return TRUE;
}

gboolean
ds_json_get_uint64 (JsonObject  *object,
                    const char  *where,
                    const char  *member,
                    uint64_t     max,
                    uint64_t    *ret_value,
                    GError     **error)
{
  JsonNode *node = get_member (object, where, member, error);
  gint64 v;

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s.%s is not a whole number", where, member);
      return FALSE;
    }

  v = json_node_get_int (node);
  if (v < 0 || (uint64_t) v > max)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s.%s is out of range (%" G_GINT64_FORMAT "; expected 0 to %"
                   G_GUINT64_FORMAT ")", where, member, v, max);
      return FALSE;
    }

  *ret_value = (uint64_t) v;
  return TRUE;
}

/* The member as a node of @type (object or array), else NULL with @error
 * saying what it is not. */
static JsonNode *
get_container (JsonObject   *object,
               const char   *where,
               const char   *member,
               JsonNodeType  type,
               GError      **error)
{
  JsonNode *node = get_member (object, where, member, error);

  if (node == NULL)
    return NULL;
  if (json_node_get_node_type (node) != type)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.%s is not %s", where, member,
                   type == JSON_NODE_OBJECT ? "an object" : "a list");
      return NULL;
    }

  return node;
}

gboolean
ds_json_check_object (JsonNode    *node,
                      const char  *where,
                      GError     **error)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s is not an object", where);
  return FALSE;
}

JsonObject *
ds_json_get_object (JsonObject  *object,
                    const char  *where,
                    const char  *member,
                    GError     **error)
{
  JsonNode *node = get_container (object, where, member, JSON_NODE_OBJECT, error);

  return node != NULL ? json_node_get_object (node) : NULL;
}

JsonArray *
ds_json_get_array (JsonObject  *object,
                   const char  *where,
                   const char  *member,
                   GError     **error)
{
  JsonNode *node = get_container (object, where, member, JSON_NODE_ARRAY, error);

  return node != NULL ? json_node_get_array (node) : NULL;
}

const char *
ds_json_get_string (JsonObject  *object,
                    const char  *where,
                    const char  *member,
                    gboolean     nullable,
                    GError     **error)
{
  JsonNode *node = get_member (object, where, member, error);

  if (node == NULL)
    return NULL;
  if (nullable && JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.%s is not a string", where, member);
      return NULL;
    }

  return json_node_get_string (node);
}

static gboolean
get_bool (JsonObject  *object,
          const char  *where,
          const char  *member,
          gboolean    *ret_value,
          GError     **error)
{
  JsonNode *node = get_member (object, where, member, error);

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.%s is not true or false", where, member);
      return FALSE;
    }

  *ret_value = json_node_get_boolean (node);
  return TRUE;
}

/* ---- writing ------------------------------------------------------------ */

static void
set_string_or_null (JsonObject *o,
                    const char *member,
                    const char *value)
{
  if (value != NULL)
    json_object_set_string_member (o, member, value);
  else
    json_object_set_null_member (o, member);
}

static JsonObject *
params_to_json (const DsBenchSpec *spec)
{
  JsonObject *p = json_object_new ();

  set_string_or_null (p, "target_path", spec->target_path);
  json_object_set_boolean_member (p, "write", spec->write);
  json_object_set_boolean_member (p, "destroy_data_confirmed", spec->destroy_data != NULL);
  set_string_or_null (p, "engine", spec->engine);
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
  json_object_set_int_member (p, "file_size_bytes", (gint64) spec->file_size_bytes);
  json_object_set_boolean_member (p, "buffered", spec->buffered);
  json_object_set_int_member (p, "seed", (gint64) (spec->seed & G_MAXINT64));

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

  set_string_or_null (target, "path", result->target.path);
  json_object_set_string_member (target, "kind", result->target.is_block ? "block" : "file");
  json_object_set_int_member (target, "size_bytes", (gint64) result->target.size_bytes);
  set_string_or_null (target, "model", result->target.model);
  json_object_set_int_member (target, "logical_block_size", result->target.logical_block_size);
  json_object_set_int_member (target, "physical_block_size", result->target.physical_block_size);
  json_object_set_boolean_member (target, "rotational", result->target.rotational);
  json_object_set_object_member (root, "target", target);

  json_object_set_object_member (root, "params", params_to_json (&result->spec));

  set_string_or_null (env, "started_at", result->started_at);
  set_string_or_null (env, "hostname", result->hostname);
  set_string_or_null (env, "kernel", result->kernel);
  json_object_set_object_member (root, "environment", env);

  set_string_or_null (root, "engine", result->engine);
  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    json_array_add_string_element (notes, result->notes->pdata[i]);
  json_object_set_array_member (root, "notes", notes);

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

  return json_node_init_object (json_node_alloc (), root);
}

char *
ds_result_to_data (const DsResult *result,
                   gsize          *ret_length)
{
  g_autoptr (JsonNode) root = ds_result_to_json (result);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  char *data;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);
  data = g_strconcat (text, "\n", NULL);
  if (ret_length != NULL)
    *ret_length = strlen (data);

  return data;
}

gboolean
ds_result_save (const DsResult  *result,
                const char      *path,
                GError         **error)
{
  g_autoptr (GError) local = NULL;
  gsize length = 0;
  g_autofree char *data = ds_result_to_data (result, &length);

  /* g_file_set_contents writes a temporary file and renames it over. */
  if (!g_file_set_contents (path, data, (gssize) length, &local))
    {
      int e;

      switch (local->code)
        {
        case G_FILE_ERROR_NOSPC: e = ENOSPC; break;
        case G_FILE_ERROR_ACCES: e = EACCES; break;
        case G_FILE_ERROR_PERM: e = EPERM; break;
        case G_FILE_ERROR_NOENT: e = ENOENT; break;
        case G_FILE_ERROR_ROFS: e = EROFS; break;
        default: e = EIO; break;
        }
      g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                   "could not save the result: %s", local->message);
      return FALSE;
    }

  return TRUE;
}

/* ---- loading ------------------------------------------------------------ */

/* A result nests five levels deep; json-glib's parser recurses once per
 * level, so a file of a million '[' would overflow the stack.  Count the
 * depth first (outside strings) and refuse anything absurd. */
#define MAX_JSON_DEPTH 32

gboolean
ds_json_nesting_ok (const char *data,
                    gsize       length,
                    unsigned    max_depth)
{
  gboolean in_string = FALSE;
  unsigned depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

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

  s = ds_json_get_string (p, where, "target_path", TRUE, error);
  if (s == NULL && error != NULL && *error != NULL)
    return FALSE;
  g_free (spec->target_path);
  spec->target_path = g_strdup (s);

  if (!get_bool (p, where, "write", &spec->write, error))
    return FALSE;

  s = ds_json_get_string (p, where, "engine", TRUE, error);
  if (s == NULL && error != NULL && *error != NULL)
    return FALSE;
  g_free (spec->engine);
  spec->engine = g_strdup (s ? s : "auto");

  if (!ds_json_get_uint64 (p, where, "block_size_bytes", UINT64_C (1) << 30, &spec->block_size_bytes, error) ||
      !ds_json_get_uint64 (p, where, "capacity_bytes", G_MAXINT64, &spec->capacity_bytes, error))
    return FALSE;
  if (!ds_json_get_uint64 (p, where, "accuracy", 5, &v, error))
    return FALSE;
  spec->accuracy = (unsigned) v;

  s = ds_json_get_string (p, where, "pattern", FALSE, error);
  if (s == NULL)
    return FALSE;
  if (!ds_pattern_from_string (s, &spec->pattern))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "params.pattern “%s” is unknown", s);
      return FALSE;
    }

  if (!ds_json_get_uint64 (p, where, "queue_depth", 4096, &v, error))
    return FALSE;
  spec->queue_depth = (unsigned) v;
  if (!ds_json_get_uint64 (p, where, "threads", 1024, &v, error))
    return FALSE;
  spec->threads = (unsigned) v;
  if (!ds_json_get_uint64 (p, where, "read_mix_percent", 100, &v, error))
    return FALSE;
  spec->read_mix_percent = (unsigned) v;

  if (!ds_json_get_double (p, where, "duration_s", 0, 1e7, &d, error))
    return FALSE;
  spec->duration_ns = (uint64_t) (d * 1e9);
  if (!ds_json_get_double (p, where, "ramp_s", 0, 1e7, &d, error))
    return FALSE;
  spec->ramp_ns = (uint64_t) (d * 1e9);

  if (!ds_json_get_uint64 (p, where, "offset_bytes", G_MAXINT64, &spec->offset_bytes, error) ||
      !ds_json_get_uint64 (p, where, "span_bytes", G_MAXINT64, &spec->span_bytes, error) ||
      !ds_json_get_uint64 (p, where, "file_size_bytes", G_MAXINT64, &spec->file_size_bytes, error))
    return FALSE;

  if (!get_bool (p, where, "buffered", &b, error))
    return FALSE;
  spec->buffered = b;

  if (json_object_has_member (p, "seed") &&
      !ds_json_get_uint64 (p, where, "seed", G_MAXINT64, &spec->seed, error))
    return FALSE;

  return TRUE;
}

static gboolean
target_from_json (JsonObject    *t,
                  DsTargetInfo  *info,
                  GError       **error)
{
  const char *where = "target";
  const char *s;
  uint64_t v;

  s = ds_json_get_string (t, where, "path", FALSE, error);
  if (s == NULL)
    return FALSE;
  info->path = g_strdup (s);

  s = ds_json_get_string (t, where, "kind", FALSE, error);
  if (s == NULL)
    return FALSE;
  if (strcmp (s, "block") != 0 && strcmp (s, "file") != 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "target.kind is “%s”, not block or file", s);
      return FALSE;
    }
  info->is_block = strcmp (s, "block") == 0;

  if (!ds_json_get_uint64 (t, where, "size_bytes", G_MAXINT64, &info->size_bytes, error))
    return FALSE;

  s = ds_json_get_string (t, where, "model", TRUE, error);
  if (s == NULL && error != NULL && *error != NULL)
    return FALSE;
  info->model = g_strdup (s);

  /* Block sizes: 0 (unknown, e.g. a run refused before the open) or a
   * power of two from 512 bytes to 1 MiB. */
  if (!ds_json_get_uint64 (t, where, "logical_block_size", 1 << 20, &v, error))
    return FALSE;
  if (v != 0 && (v < 512 || (v & (v - 1)) != 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "target.logical_block_size %" G_GUINT64_FORMAT " is not a block size", v);
      return FALSE;
    }
  info->logical_block_size = (uint32_t) v;
  if (!ds_json_get_uint64 (t, where, "physical_block_size", 1 << 20, &v, error))
    return FALSE;
  if (v != 0 && (v < 512 || (v & (v - 1)) != 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "target.physical_block_size %" G_GUINT64_FORMAT " is not a block size", v);
      return FALSE;
    }
  info->physical_block_size = (uint32_t) v;

  return get_bool (t, where, "rotational", &info->rotational, error);
}

static DsResult *
result_from_json (JsonNode  *root,
                  GError   **error)
{
  g_autoptr (DsResult) result = NULL;
  const DsBenchOps *ops;
  JsonObject *o;
  JsonObject *tool;
  JsonObject *target;
  JsonObject *params;
  JsonNode *node;
  const char *s;
  DsBenchSpec spec;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "not a Diskscope result (not a JSON object)");
      return NULL;
    }
  o = json_node_get_object (root);

  s = ds_json_get_string (o, "result", "schema", FALSE, NULL);
  if (s == NULL || strcmp (s, DS_RESULT_SCHEMA) != 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "not a Diskscope result: schema is “%s”, expected “%s”",
                   s ? s : "missing", DS_RESULT_SCHEMA);
      return NULL;
    }

  s = ds_json_get_string (o, "result", "test", FALSE, error);
  if (s == NULL)
    return NULL;
  ops = ds_bench_lookup (s);
  if (ops == NULL || ops->from_json == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "the result is of an unknown test “%s”", s);
      return NULL;
    }

  ds_bench_spec_init (&spec, ops->kind);
  result = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  /* Loaded, not measured: drop what ds_result_new() filled in for now. */
  g_clear_pointer (&result->hostname, g_free);
  g_clear_pointer (&result->kernel, g_free);
  g_clear_pointer (&result->started_at, g_free);
  if (result->data != NULL)
    {
      ops->data_free (result->data);
      result->data = NULL;
    }

  tool = ds_json_get_object (o, "result", "tool", error);
  if (tool == NULL)
    return NULL;
  s = ds_json_get_string (tool, "tool", "version", FALSE, error);
  if (s == NULL)
    return NULL;
  g_free (result->tool_version);
  result->tool_version = g_strdup (s);

  target = ds_json_get_object (o, "result", "target", error);
  if (target == NULL || !target_from_json (target, &result->target, error))
    return NULL;

  params = ds_json_get_object (o, "result", "params", error);
  if (params == NULL || !params_from_json (params, &result->spec, error))
    return NULL;

  if (json_object_has_member (o, "environment"))
    {
      JsonObject *env = ds_json_get_object (o, "result", "environment", error);

      if (env == NULL)
        return NULL;
      result->started_at = g_strdup (ds_json_get_string (env, "environment", "started_at", TRUE, NULL));
      result->hostname = g_strdup (ds_json_get_string (env, "environment", "hostname", TRUE, NULL));
      result->kernel = g_strdup (ds_json_get_string (env, "environment", "kernel", TRUE, NULL));
    }

  if (json_object_has_member (o, "engine"))
    result->engine = g_strdup (ds_json_get_string (o, "result", "engine", TRUE, NULL));

  if (json_object_has_member (o, "notes"))
    {
      JsonArray *notes = ds_json_get_array (o, "result", "notes", error);

      if (notes == NULL)
        return NULL;
      for (guint i = 0; i < json_array_get_length (notes); i++)
        {
          JsonNode *n = json_array_get_element (notes, i);

          if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
            g_ptr_array_add (result->notes, g_strdup (json_node_get_string (n)));
        }
    }

  if (!ds_annotation_from_json (o, &result->annotation, error))
    return NULL;

  if (!get_bool (o, "result", "complete", &result->complete, error))
    return NULL;
  if (json_object_has_member (o, "cancelled") &&
      !get_bool (o, "result", "cancelled", &result->cancelled, error))
    return NULL;

  node = json_object_get_member (o, "error");
  if (node == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "result.error is missing");
      return NULL;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *e = json_node_get_object (node);
      JsonNode *en = json_object_get_member (e, "errno");
      JsonNode *on = json_object_get_member (e, "offset_bytes");
      uint64_t v = 0;

      s = ds_json_get_string (e, "error", "message", FALSE, error);
      if (s == NULL)
        return NULL;
      if (en != NULL && !JSON_NODE_HOLDS_NULL (en))
        {
          if (!ds_json_get_uint64 (e, "error", "errno", 4095, &v, error))
            return NULL;
          result->error_errno = (int) v;
        }
      if (on != NULL && !JSON_NODE_HOLDS_NULL (on))
        {
          if (!ds_json_get_uint64 (e, "error", "offset_bytes", G_MAXINT64, &v, error))
            return NULL;
          result->error_offset_bytes = (int64_t) v;
        }
      result->error = g_error_new_literal (DS_ERROR,
                                           result->cancelled ? DS_ERROR_CANCELLED :
                                           result->error_errno ? ds_error_from_errno (result->error_errno) :
                                           DS_ERROR_FAILED,
                                           s);
    }
  else if (!JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "result.error is neither null nor an object");
      return NULL;
    }

  node = json_object_get_member (o, "results");
  if (node == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "result.results is missing");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "results is not an object");
      return NULL;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      result->data = ops->from_json (json_node_get_object (node), error);
      if (result->data == NULL)
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "result.results could not be read");
          return NULL;
        }
    }
  else if (result->complete)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "result.results is empty in a complete result");
      return NULL;
    }
  else if (ops->data_new != NULL)
    {
      result->data = ops->data_new ();
    }

  return g_steal_pointer (&result);
}

DsResult *
ds_result_load_data (const char  *data,
                     gssize       length,
                     GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;
  GError *inner = NULL;
  DsResult *result;

  if (data == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "the result file is empty");
      return NULL;
    }
  if (length < 0)
    length = (gssize) strlen (data);
  if (length == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "the result file is empty");
      return NULL;
    }
  if (length > MAX_RESULT_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "the file is too large to be a result");
      return NULL;
    }
  if (memchr (data, '\0', (size_t) length) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "not a Diskscope result: the file is binary, not JSON");
      return NULL;
    }

  if (!ds_json_nesting_ok (data, (gsize) length, MAX_JSON_DEPTH))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "not a Diskscope result: nested more than %d levels deep",
                   MAX_JSON_DEPTH);
      return NULL;
    }

  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "not a Diskscope result: the JSON is broken or cut short (%s)",
                   local->message);
      return NULL;
    }

  result = result_from_json (json_parser_get_root (parser), &inner);
  if (result == NULL)
    {
      if (inner == NULL)
        g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "not a Diskscope result");
      else
        g_propagate_error (error, inner);
    }

  return result;
}

DsResult *
ds_result_load (const char  *path,
                GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  DsResult *result;

  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, DS_ERROR,
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? DS_ERROR_NOT_FOUND :
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ACCES) ? DS_ERROR_PERMISSION :
                   DS_ERROR_FAILED,
                   "%s", local->message);
      return NULL;
    }

  result = ds_result_load_data (data, (gssize) length, &local);
  if (result == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s: %s", path, local->message);

  return result;
}
