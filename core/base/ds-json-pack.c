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
#include <stdio.h>
#include <string.h>

#include "ds-json-pack-private.h"

/* Lists shorter than this stay with json-glib: packing them saves
 * nothing, and small files read exactly as they always have. */
#define MIN_ENTRIES 256
#define MAX_KEY     64
#define MAX_NUMBER  64

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

DsJsonPack *
_ds_json_pack_get_current (void)
{
  return g_private_get (&current_pack);
}
