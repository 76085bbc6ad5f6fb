/* ds-json-pack.c: a result's long lists read straight into columns, beside json-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib builds a node, a GValue and (in an object) a hash entry for
 * every value before anyone can look at them: a 24 MB random access
 * result (200 000 points, one object each) took 1.15 s and 198 MB to
 * open, most of it in json-glib's scanner.  What makes a result large is
 * always its lists of points ("points", "row", "offset_bytes", ...,
 * "access"): lists of numbers, or of small flat objects of numbers and
 * nulls.  ds_json_pack() reads those in one pass over the bytes into
 * cells of 16 bytes, and gives json-glib the rest of the document with
 * each packed list replaced by a list of one string that names it:
 *
 *     ["\u0001ds-pack NONCE INDEX"]
 *
 * NONCE is random for each load, so a file cannot name a list of ours
 * (a string that looks like a marker and is not one stays a string, which
 * no reader of these lists takes).  A list that is anything else — a
 * string or a nested object in an entry, a key with an escape, a number
 * JSON does not allow, a short list — is left as it is, for json-glib to
 * read or refuse as before.  Readers take these lists through
 * ds_json_get_list(), which reads both forms with the same messages.
 *
 * The bounds (ds-json-scan.c) are checked on the whole file first; this
 * pass then only has to find its way, not to guard memory.
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ds-error.h"
#include "ds-json.h"

/* Lists shorter than this stay with json-glib: packing them saves
 * nothing, and small files read exactly as they always have. */
#define MIN_ENTRIES 256
#define MAX_FIELDS  8
#define MAX_KEY     64
#define MAX_NUMBER  64

#define MARKER_PREFIX "\001ds-pack "

typedef enum {
  CELL_MISSING,
  CELL_NULL,
  CELL_INT,
  CELL_DOUBLE,
} CellKind;

typedef struct {
  union {
    gint64 i;
    double d;
  };
  guint32 kind;
} Cell;

struct _DsJsonPackTable {
  guint   n_fields;             /* 0: a list of numbers */
  char   *fields[MAX_FIELDS];
  guint   length;
  GArray *cells;                /* length * MAX (n_fields, 1) */
};

struct _DsJsonPack {
  guint64    nonce;
  GPtrArray *tables;
};

/* The members whose lists are packed: those that hold a run's points. */
static const char *const packed_members[] = {
  "points", "row", "offset_bytes", "transfer_bytes", "access_ns", "access",
};

static GPrivate current_pack;

static void
table_free (DsJsonPackTable *table)
{
  for (guint k = 0; k < table->n_fields; k++)
    g_free (table->fields[k]);
  g_clear_pointer (&table->cells, g_array_unref);
  g_free (table);
}

void
ds_json_pack_free (DsJsonPack *pack)
{
  if (pack == NULL)
    return;
  g_ptr_array_unref (pack->tables);
  g_free (pack);
}

/* ---- the tokenizer ------------------------------------------------------ */

typedef struct {
  const char *p;
  const char *end;
} Cursor;

static void
skip_space (Cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
    c->p++;
}

/* A string without escapes (a key): its bytes between the quotes. */
static gboolean
read_plain_string (Cursor      *c,
                   const char **ret_start,
                   gsize       *ret_length)
{
  const char *start;

  if (c->p >= c->end || *c->p != '"')
    return FALSE;
  start = ++c->p;
  while (c->p < c->end && *c->p != '"')
    {
      if (*c->p == '\\' || (guchar) *c->p < 0x20 || c->p - start > MAX_KEY)
        return FALSE;
      c->p++;
    }
  if (c->p >= c->end)
    return FALSE;
  *ret_start = start;
  *ret_length = (gsize) (c->p - start);
  c->p++;
  return TRUE;
}

/* A JSON number, or null: what json-glib makes of it (an integer when it
 * has no fraction and no exponent and fits in 64 bits, else a double).
 * FALSE for anything else, or an integer json-glib would wrap. */
static gboolean
read_scalar (Cursor *c,
             Cell   *cell)
{
  const char *start = c->p;
  const char *q = c->p;
  gboolean is_int = TRUE;
  char buf[MAX_NUMBER + 1];

  if (c->end - q >= 4 && memcmp (q, "null", 4) == 0)
    {
      c->p += 4;
      cell->kind = CELL_NULL;
      return TRUE;
    }

  if (q < c->end && *q == '-')
    q++;
  if (q >= c->end || !g_ascii_isdigit (*q))
    return FALSE;
  if (*q == '0')
    q++;
  else
    while (q < c->end && g_ascii_isdigit (*q))
      q++;
  if (q < c->end && *q == '.')
    {
      is_int = FALSE;
      q++;
      if (q >= c->end || !g_ascii_isdigit (*q))
        return FALSE;
      while (q < c->end && g_ascii_isdigit (*q))
        q++;
    }
  if (q < c->end && (*q == 'e' || *q == 'E'))
    {
      is_int = FALSE;
      q++;
      if (q < c->end && (*q == '+' || *q == '-'))
        q++;
      if (q >= c->end || !g_ascii_isdigit (*q))
        return FALSE;
      while (q < c->end && g_ascii_isdigit (*q))
        q++;
    }
  if (q - start > MAX_NUMBER)
    return FALSE;
  memcpy (buf, start, (gsize) (q - start));
  buf[q - start] = '\0';

  if (is_int)
    {
      char *tail = NULL;
      gint64 v;

      errno = 0;
      v = g_ascii_strtoll (buf, &tail, 10);
      if (errno != 0 || *tail != '\0')
        return FALSE;
      cell->i = v;
      cell->kind = CELL_INT;
    }
  else
    {
      cell->d = g_ascii_strtod (buf, NULL);
      cell->kind = CELL_DOUBLE;
    }
  c->p = q;
  return TRUE;
}

static int
field_index (DsJsonPackTable *table,
             const char      *key,
             gsize            length,
             gboolean         may_add)
{
  for (guint k = 0; k < table->n_fields; k++)
    if (strlen (table->fields[k]) == length && memcmp (table->fields[k], key, length) == 0)
      return (int) k;
  if (!may_add || table->n_fields == MAX_FIELDS)
    return -1;
  table->fields[table->n_fields] = g_strndup (key, length);
  return (int) table->n_fields++;
}

/* One object entry: members that are numbers or null.  The first entry
 * names the columns; a later one may leave some out, not add any. */
static gboolean
read_object_entry (Cursor          *c,
                   DsJsonPackTable *table,
                   gboolean         first)
{
  Cell cells[MAX_FIELDS] = { { { 0 }, CELL_MISSING } };
  gboolean seen[MAX_FIELDS] = { FALSE };

  c->p++;                       /* '{' */
  skip_space (c);
  if (c->p < c->end && *c->p == '}')
    return FALSE;               /* {} tells nothing: leave it to json-glib */
  for (;;)
    {
      const char *key;
      gsize key_length;
      Cell cell;
      int k;

      skip_space (c);
      if (!read_plain_string (c, &key, &key_length))
        return FALSE;
      skip_space (c);
      if (c->p >= c->end || *c->p != ':')
        return FALSE;
      c->p++;
      skip_space (c);
      if (!read_scalar (c, &cell))
        return FALSE;
      k = field_index (table, key, key_length, first);
      if (k < 0 || seen[k])
        return FALSE;           /* a new member after the first entry, or twice */
      seen[k] = TRUE;
      cells[k] = cell;
      skip_space (c);
      if (c->p < c->end && *c->p == ',')
        {
          c->p++;
          continue;
        }
      if (c->p < c->end && *c->p == '}')
        {
          c->p++;
          break;
        }
      return FALSE;
    }

  if (first)
    table->cells = g_array_sized_new (FALSE, FALSE, sizeof (Cell), 1024 * table->n_fields);
  g_array_append_vals (table->cells, cells, table->n_fields);
  return TRUE;
}

/* The list at c->p ('['), packed; NULL (and c->p anywhere) when it is
 * not a list of numbers or of flat objects, or is short. */
static DsJsonPackTable *
read_list (Cursor *c)
{
  DsJsonPackTable *table = g_new0 (DsJsonPackTable, 1);
  gboolean objects = FALSE;

  c->p++;                       /* '[' */
  skip_space (c);
  if (c->p < c->end && *c->p == '{')
    objects = TRUE;
  else
    table->cells = g_array_sized_new (FALSE, FALSE, sizeof (Cell), 1024);

  for (;;)
    {
      skip_space (c);
      if (c->p >= c->end)
        goto refuse;
      if (objects)
        {
          if (*c->p != '{' || !read_object_entry (c, table, table->length == 0))
            goto refuse;
        }
      else
        {
          Cell cell;

          if (!read_scalar (c, &cell))
            goto refuse;
          g_array_append_val (table->cells, cell);
        }
      table->length++;
      skip_space (c);
      if (c->p < c->end && *c->p == ',')
        {
          c->p++;
          continue;
        }
      if (c->p < c->end && *c->p == ']')
        {
          c->p++;
          break;
        }
      goto refuse;
    }

  if (table->length < MIN_ENTRIES)
    goto refuse;
  return table;

refuse:
  table_free (table);
  return NULL;
}

static gboolean
is_packed_member (const char *key,
                  gsize       length)
{
  for (guint i = 0; i < G_N_ELEMENTS (packed_members); i++)
    if (strlen (packed_members[i]) == length && memcmp (packed_members[i], key, length) == 0)
      return TRUE;
  return FALSE;
}

DsJsonPack *
ds_json_pack (const char  *data,
              gsize        length,
              GString    **ret_document)
{
  DsJsonPack *pack = g_new0 (DsJsonPack, 1);
  GString *doc = NULL;
  Cursor c = { data, data + length };
  const char *copied = data;    /* data before this is in doc */
  const char *key = NULL;       /* the string just read, while a ':' may follow */
  gsize key_length = 0;
  gboolean after_key = FALSE;   /* a member's ':' was the last token */

  pack->nonce = ((guint64) g_random_int () << 32) | g_random_int ();
  pack->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) table_free);

  while (c.p < c.end)
    {
      char ch = *c.p;

      if (ch == '"')
        {
          /* Any string: skip it whole (escapes and all). */
          const char *start = ++c.p;

          while (c.p < c.end && *c.p != '"')
            c.p += (*c.p == '\\' && c.p + 1 < c.end) ? 2 : 1;
          key = start;
          key_length = (gsize) (MIN (c.p, c.end) - start);
          after_key = FALSE;
          c.p++;
          continue;
        }
      if (ch == ':')
        {
          after_key = key != NULL;
          c.p++;
          continue;
        }
      if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
        {
          c.p++;
          continue;
        }
      if (ch == '[' && after_key && is_packed_member (key, key_length))
        {
          const char *start = c.p;
          DsJsonPackTable *table = read_list (&c);

          if (table != NULL)
            {
              if (doc == NULL)
                doc = g_string_sized_new (MIN (length, 1024 * 1024));
              g_string_append_len (doc, copied, start - copied);
              g_string_append_printf (doc, "[\"\\u0001ds-pack %016" G_GINT64_MODIFIER "x %u\"]",
                                      pack->nonce, pack->tables->len);
              g_ptr_array_add (pack->tables, table);
              copied = c.p;
            }
          else
            {
              c.p = start + 1;
            }
          key = NULL;
          after_key = FALSE;
          continue;
        }
      key = NULL;
      after_key = FALSE;
      c.p++;
    }

  if (doc == NULL)
    {
      ds_json_pack_free (pack);
      *ret_document = NULL;
      return NULL;
    }
  g_string_append_len (doc, copied, c.end - copied);
  *ret_document = doc;
  return pack;
}

void
ds_json_pack_set_current (DsJsonPack *pack)
{
  g_private_set (&current_pack, pack);
}

/* ---- reading a list, packed or not -------------------------------------- */

static const DsJsonPackTable *
lookup_marker (JsonArray *array)
{
  DsJsonPack *pack = g_private_get (&current_pack);
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
