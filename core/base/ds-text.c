/* ds-text.c: text from a file or a device, made safe to print
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-text.h"

static gboolean
is_bidi_control (gunichar c)
{
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

char *
ds_text_sanitize_short (const char *text,
                        gsize       max_chars)
{
  GString *out;
  const char *p;
  const char *end;
  gsize n_chars = 0;

  if (text == NULL)
    return g_strdup ("");

  out = g_string_sized_new (strlen (text));
  p = text;
  end = text + strlen (text);
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      gboolean valid = c != (gunichar) -1 && c != (gunichar) -2;
      const char *next = valid ? g_utf8_next_char (p) : p + 1;

      /* The last character that fits, with more to come: an ellipsis. */
      if (n_chars + 1 >= max_chars && next < end)
        {
          g_string_append (out, "…");
          break;
        }

      if (!valid)
        g_string_append_printf (out, "\\x%02X", (guint) (guchar) *p);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02X", c);
      else if ((c >= 0x80 && c <= 0x9f) || is_bidi_control (c))
        g_string_append_printf (out, "\\u%04X", c);
      else
        g_string_append_len (out, p, next - p);

      n_chars++;
      p = next;
    }

  return g_string_free (out, FALSE);
}

char *
ds_text_sanitize (const char *text)
{
  return ds_text_sanitize_short (text, G_MAXSIZE);
}
