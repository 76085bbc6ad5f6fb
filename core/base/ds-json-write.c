/* ds-json-write.c: JSON text that json-glib reads back as the same tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why not json_generator_to_data(): json-glib 1.6 prints a double with
 * "%.17g" and appends ".0" when the text has no '.', exponent form
 * included, so 1e-14 becomes "1e-14.0" and NaN "nan.0": files no parser
 * reads (a fuzzer found a loaded result that saved that way).  It also
 * copies strings byte for byte, so a path that is not UTF-8 makes a file
 * its own parser refuses.  This writer keeps json-glib's layout and fixes
 * both.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds-json.h"

JsonNode *
ds_json_node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

JsonNode *
ds_json_node_take_array (JsonArray *array)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);
  return node;
}

gboolean
ds_json_format_double (double value,
                       char   buf[DS_JSON_DOUBLE_BUF])
{
  /* Shortest first: 15 significant digits always read back as the same
   * decimal, so most figures that were decimals to start with ("0.2",
   * "0.00594") stop there; 17 always read back as the same double. */
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (value))
    {
      g_strlcpy (buf, "null", DS_JSON_DOUBLE_BUF);
      return FALSE;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, DS_JSON_DOUBLE_BUF, formats[i], value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }

  /* "%g" gives "1", "-0", "1e-14", "5e-324", "1.5e+300": all valid JSON,
   * but without a '.' or an exponent json-glib reads an integer.  Mark
   * the number as a double the way JSON allows: "1.0", "-0.0". */
  if (strpbrk (buf, ".eE") == NULL)
    g_strlcat (buf, ".0", DS_JSON_DOUBLE_BUF);

  return TRUE;
}

static void
append_string (GString    *out,
               const char *text)
{
  const char *p = text;
  const char *end = text + strlen (text);

  g_string_append_c (out, '"');
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: keep the byte visible, as text. */
          g_string_append_printf (out, "\\\\x%02X", (guint) (guchar) *p);
          p++;
          continue;
        }

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          /* C0 controls must be escaped; DEL, the C1 controls and the
           * line and paragraph separators may stay raw in JSON, but a
           * terminal acts on C1 and JavaScript chokes on U+2028/9. */
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
          break;
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

static void
indent (GString *out,
        guint    level)
{
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

static void
append_node (GString  *out,
             JsonNode *node,
             guint     level);

static void
append_value (GString  *out,
              JsonNode *node)
{
  char buf[DS_JSON_DOUBLE_BUF];

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      ds_json_format_double (json_node_get_double (node), buf);
      g_string_append (out, buf);
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      append_string (out, json_node_get_string (node));
      break;
    default:
      /* json-glib holds only the four types above in a value node. */
      g_string_append (out, "null");
      break;
    }
}

static void
append_object (GString    *out,
               JsonObject *object,
               guint       level)
{
  /* json_object_get_members() keeps the order the members were set in. */
  g_autoptr (GList) members = json_object_get_members (object);

  if (members == NULL)
    {
      g_string_append (out, "{}");
      return;
    }

  g_string_append (out, "{\n");
  for (GList *l = members; l != NULL; l = l->next)
    {
      indent (out, level + 1);
      append_string (out, l->data);
      g_string_append (out, " : ");
      append_node (out, json_object_get_member (object, l->data), level + 1);
      g_string_append (out, l->next != NULL ? ",\n" : "\n");
    }
  indent (out, level);
  g_string_append_c (out, '}');
}

static void
append_array (GString   *out,
              JsonArray *array,
              guint      level)
{
  guint n = json_array_get_length (array);
  guint i;

  if (n == 0)
    {
      g_string_append (out, "[]");
      return;
    }

  /* A list of plain values (numbers, strings) on one line: a random
   * access run's parallel arrays hold 100 000 numbers, which one a line
   * would make mostly indentation. */
  for (i = 0; i < n; i++)
    if (json_node_get_node_type (json_array_get_element (array, i)) == JSON_NODE_OBJECT ||
        json_node_get_node_type (json_array_get_element (array, i)) == JSON_NODE_ARRAY)
      break;
  if (i == n)
    {
      g_string_append_c (out, '[');
      for (i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_node (out, json_array_get_element (array, i), level + 1);
        }
      g_string_append_c (out, ']');
      return;
    }

  g_string_append (out, "[\n");
  for (i = 0; i < n; i++)
    {
      indent (out, level + 1);
      append_node (out, json_array_get_element (array, i), level + 1);
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  indent (out, level);
  g_string_append_c (out, ']');
}

static void
append_node (GString  *out,
             JsonNode *node,
             guint     level)
{
  switch (node != NULL ? json_node_get_node_type (node) : JSON_NODE_NULL)
    {
    case JSON_NODE_OBJECT:
      append_object (out, json_node_get_object (node), level);
      break;
    case JSON_NODE_ARRAY:
      append_array (out, json_node_get_array (node), level);
      break;
    case JSON_NODE_VALUE:
      append_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

char *
ds_json_to_text (JsonNode *node,
                 gsize    *ret_length)
{
  GString *out = g_string_sized_new (4096);

  append_node (out, node, 0);
  g_string_append_c (out, '\n');
  if (ret_length != NULL)
    *ret_length = out->len;

  return g_string_free (out, FALSE);
}

/* json-glib's own text, for the outputs that must stay as they have been
 * (see ds-json.h); files written anew use ds_json_to_text() above. */
char *
ds_json_to_generator_text (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);

  return g_strconcat (text, "\n", NULL);
}
