/* ds-json-list.c: a result's long lists, read alike whether ds_json_pack()
 * packed them into columns or json-glib built them as nodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Readers take the lists of points through ds_json_get_list() and the
 * getters below, which give the same values and the same messages for
 * both forms (ds-json-pack.c says when a list is packed).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ds-error.h"
#include "ds-json-pack-private.h"

/* ---- reading a list, packed or not -------------------------------------- */

static const DsJsonPackTable *
lookup_marker (JsonArray *array)
{
  DsJsonPack *pack = _ds_json_pack_get_current ();
  JsonNode *node;
  const char *s;
  guint64 nonce;
  guint index;
  char tail;

  if (pack == NULL || json_array_get_length (array) != 1)
    return NULL;
  node = json_array_get_element (array, 0);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  s = json_node_get_string (node);
  if (!g_str_has_prefix (s, MARKER_PREFIX))
    return NULL;
  if (sscanf (s + strlen (MARKER_PREFIX), "%" G_GINT64_MODIFIER "x %u%c", &nonce, &index, &tail) != 2)
    return NULL;
  if (nonce != pack->nonce || index >= pack->tables->len)
    return NULL;
  return g_ptr_array_index (pack->tables, index);
}

gboolean
ds_json_get_list (JsonObject  *object,
                  const char  *where,
                  const char  *member,
                  DsJsonList  *ret,
                  GError     **error)
{
  JsonArray *array = ds_json_get_array (object, where, member, error);

  if (array == NULL)
    return FALSE;
  ret->table = lookup_marker (array);
  ret->array = ret->table == NULL ? array : NULL;
  return TRUE;
}

guint
ds_json_list_get_length (const DsJsonList *list)
{
  return list->table != NULL ? list->table->length : json_array_get_length (list->array);
}

gboolean
ds_json_list_int (const DsJsonList *list,
                  guint             i,
                  gint64           *ret)
{
  if (list->table != NULL)
    {
      const Cell *cell;

      if (list->table->n_fields != 0)
        return FALSE;
      cell = &g_array_index (list->table->cells, Cell, i);
      if (cell->kind != CELL_INT)
        return FALSE;
      *ret = cell->i;
      return TRUE;
    }
  else
    {
      JsonNode *node = json_array_get_element (list->array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
        return FALSE;
      *ret = json_node_get_int (node);
      return TRUE;
    }
}

/* Entry @i of a packed list of objects, as a JsonObject of its own: what
 * the typed getters of ds-json.c read when a cell is not what the caller
 * wants, so a packed list says what is wrong in the same words. */
static JsonObject *
entry_object (const DsJsonPackTable *table,
              guint                  i)
{
  JsonObject *o = json_object_new ();

  for (guint k = 0; k < table->n_fields; k++)
    {
      const Cell *cell = &g_array_index (table->cells, Cell, (gsize) i * table->n_fields + k);

      switch ((CellKind) cell->kind)
        {
        case CELL_MISSING:
          break;
        case CELL_NULL:
          json_object_set_null_member (o, table->fields[k]);
          break;
        case CELL_INT:
          json_object_set_int_member (o, table->fields[k], cell->i);
          break;
        case CELL_DOUBLE:
          json_object_set_double_member (o, table->fields[k], cell->d);
          break;
        }
    }
  return o;
}

/* Member @member of entry @i: a packed cell (NULL in a list of numbers,
 * or when no entry has it) ... */
static const Cell *
packed_cell (const DsJsonList *list,
             guint             i,
             const char       *member)
{
  const DsJsonPackTable *table = list->table;

  for (guint k = 0; k < table->n_fields; k++)
    if (strcmp (table->fields[k], member) == 0)
      return &g_array_index (table->cells, Cell, (gsize) i * table->n_fields + k);
  return NULL;
}

/* ... or the tree's value (NULL when the entry is not an object or has
 * no such member). */
static JsonNode *
tree_value (const DsJsonList *list,
            guint             i,
            const char       *member)
{
  JsonNode *node = json_array_get_element (list->array, i);

  return JSON_NODE_HOLDS_OBJECT (node)
         ? json_object_get_member (json_node_get_object (node), member) : NULL;
}

/* Entry @i as an object for the typed getters: the entry itself, or one
 * made from the packed cells (@ret_owned to free); NULL with @error when
 * the entry is not an object. */
static JsonObject *
entry_for_getter (const DsJsonList  *list,
                  guint              i,
                  const char        *where,
                  JsonObject       **ret_owned,
                  char             **ret_where,
                  GError           **error)
{
  *ret_where = g_strdup_printf ("%s[%u]", where, i);
  if (list->table != NULL)
    {
      if (list->table->n_fields == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s is not an object"), *ret_where);
          return NULL;
        }
      *ret_owned = entry_object (list->table, i);
      return *ret_owned;
    }
  else
    {
      JsonNode *node = json_array_get_element (list->array, i);

      if (!ds_json_check_object (node, *ret_where, error))
        return NULL;
      return json_node_get_object (node);
    }
}

gboolean
ds_json_list_get_uint64 (const DsJsonList  *list,
                         guint              i,
                         const char        *where,
                         const char        *member,
                         uint64_t           max,
                         uint64_t          *ret_value,
                         GError           **error)
{
  g_autoptr (JsonObject) owned = NULL;
  g_autofree char *entry_where = NULL;
  JsonObject *entry;

  /* The common case without a message to make. */
  if (list->table != NULL)
    {
      const Cell *cell = packed_cell (list, i, member);

      if (cell != NULL && cell->kind == CELL_INT && cell->i >= 0 && (uint64_t) cell->i <= max)
        {
          *ret_value = (uint64_t) cell->i;
          return TRUE;
        }
    }
  else
    {
      JsonNode *value = tree_value (list, i, member);

      if (value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
          json_node_get_value_type (value) == G_TYPE_INT64 && json_node_get_int (value) >= 0 &&
          (uint64_t) json_node_get_int (value) <= max)
        {
          *ret_value = (uint64_t) json_node_get_int (value);
          return TRUE;
        }
    }

  entry = entry_for_getter (list, i, where, &owned, &entry_where, error);
  return entry != NULL &&
         ds_json_get_uint64 (entry, entry_where, member, max, ret_value, error);
}

gboolean
ds_json_list_get_double (const DsJsonList  *list,
                         guint              i,
                         const char        *where,
                         const char        *member,
                         double             min,
                         double             max,
                         double            *ret_value,
                         GError           **error)
{
  g_autoptr (JsonObject) owned = NULL;
  g_autofree char *entry_where = NULL;
  JsonObject *entry;

  if (list->table != NULL)
    {
      const Cell *cell = packed_cell (list, i, member);
      double v = 0;
      gboolean number = FALSE;

      if (cell != NULL && cell->kind == CELL_INT)
        v = (double) cell->i, number = TRUE;
      else if (cell != NULL && cell->kind == CELL_DOUBLE)
        v = cell->d, number = TRUE;
      if (number && isfinite (v) && v >= min && v <= max)
        {
          *ret_value = v;
          return TRUE;
        }
    }
  else
    {
      JsonNode *value = tree_value (list, i, member);
      GType type = value != NULL && JSON_NODE_HOLDS_VALUE (value)
                   ? json_node_get_value_type (value) : G_TYPE_INVALID;
      double v = (type == G_TYPE_DOUBLE || type == G_TYPE_INT64) ? json_node_get_double (value) : NAN;

      if (isfinite (v) && v >= min && v <= max)
        {
          *ret_value = v;
          return TRUE;
        }
    }

  entry = entry_for_getter (list, i, where, &owned, &entry_where, error);
  return entry != NULL &&
         ds_json_get_double (entry, entry_where, member, min, max, ret_value, error);
}

JsonObject *
ds_json_list_get_object (const DsJsonList *list,
                         guint             i,
                         const char       *member)
{
  JsonNode *value;

  if (list->table != NULL)
    return NULL;
  value = tree_value (list, i, member);
  return value != NULL && JSON_NODE_HOLDS_OBJECT (value) ? json_node_get_object (value) : NULL;
}
