/* ds-json.c: strict typed getters for reading result files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "ds-error.h"
#include "ds-json.h"

static JsonNode *
get_member (JsonObject  *object,
            const char  *where,
            const char  *member,
            GError     **error)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is missing"), where, member);

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
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is not a number"), where, member);
      return FALSE;
    }

  v = json_node_get_double (node);
  if (!isfinite (v) || v < min || v > max)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.%s is out of range (%g; expected %g to %g)"),
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
                   _("%s.%s is not a whole number"), where, member);
      return FALSE;
    }

  v = json_node_get_int (node);
  if (v < 0)
    {
      /* json-glib reads any integer above G_MAXINT64 as -1 (or wrapped):
       * do not quote that number back. */
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.%s is out of range (negative or above %" PRId64
                   "; expected 0 to %" PRIu64 ")"),
                   where, member, G_MAXINT64, max);
      return FALSE;
    }
  if ((uint64_t) v > max)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s.%s is out of range (%" PRId64 "; expected 0 to %"
                   PRIu64 ")"), where, member, v, max);
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
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is not %s"), where, member,
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

  g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s is not an object"), where);
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
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is not a string"), where, member);
      return NULL;
    }

  return json_node_get_string (node);
}

gboolean
ds_json_get_unsigned (JsonObject  *object,
                      const char  *where,
                      const char  *member,
                      unsigned     max,
                      unsigned    *ret_value,
                      GError     **error)
{
  uint64_t v;

  if (!ds_json_get_uint64 (object, where, member, max, &v, error))
    return FALSE;
  *ret_value = (unsigned) v;
  return TRUE;
}

gboolean
ds_json_get_bool (JsonObject  *object,
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
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s is not true or false"), where, member);
      return FALSE;
    }

  *ret_value = json_node_get_boolean (node);
  return TRUE;
}

gboolean
ds_json_get_optional_string (JsonObject  *object,
                             const char  *where,
                             const char  *member,
                             char       **ret_value,
                             GError     **error)
{
  g_autoptr (GError) local = NULL;
  const char *s = ds_json_get_string (object, where, member, TRUE, &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  *ret_value = g_strdup (s);
  return TRUE;
}

void
ds_json_set_string_or_null (JsonObject *object,
                            const char *member,
                            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}
