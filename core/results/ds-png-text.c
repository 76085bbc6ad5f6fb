/* ds-png-text.c: text chunks (tEXt, iTXt) in a PNG
 *
 * A saved screenshot or graph carries what it shows (device, test, date,
 * Diskscope's version) in the PNG's own text chunks, so it can be traced
 * to its run after it is renamed or shared.  cairo's and GDK's PNG writers
 * write none, so they are added here to the finished file: a PNG is an
 * 8-byte signature and chunks (length, type, data, CRC-32), and a text
 * chunk may go anywhere after IHDR; we put them right after it.
 *
 * The chunk layouts (PNG specification, 11.3.4):
 *   tEXt: keyword, 0, Latin-1 text
 *   iTXt: keyword, 0, compression flag (0), compression method (0),
 *         language tag (empty), 0, translated keyword (empty), 0, UTF-8 text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-png-text.h"
#include "ds-warnings.h"

static const guint8 png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

/* The length field, the type and the CRC around each chunk's data. */
#define CHUNK_OVERHEAD 12
/* The specification's limit on a keyword. */
#define KEYWORD_MAX 79

/* CRC-32 as PNG defines it (ISO 3309, polynomial 0xedb88320, reflected),
 * over the chunk's type and data. */
static guint32
crc32_update (guint32       crc,
              const guint8 *data,
              gsize         length)
{
  static guint32 table[256];
  static gsize table_ready;

  if (g_once_init_enter (&table_ready))
    {
      for (guint32 n = 0; n < 256; n++)
        {
          guint32 c = n;

          for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[n] = c;
        }
      g_once_init_leave (&table_ready, 1);
    }

  for (gsize i = 0; i < length; i++)
    crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);

  return crc;
}

static guint32
read_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

static void
append_be32 (GByteArray *out,
             guint32     value)
{
  guint8 bytes[4] = { value >> 24, value >> 16, value >> 8, value };

  g_byte_array_append (out, bytes, 4);
}

static void
append_chunk (GByteArray *out,
              const char *type,
              GByteArray *data)
{
  guint32 crc = 0xffffffffu;

  append_be32 (out, data->len);
  g_byte_array_append (out, (const guint8 *) type, 4);
  g_byte_array_append (out, data->data, data->len);
  crc = crc32_update (crc, (const guint8 *) type, 4);
  crc = crc32_update (crc, data->data, data->len);
  append_be32 (out, crc ^ 0xffffffffu);
}

static gboolean
is_keyword (const char *key)
{
  gsize length = strlen (key);

  if (length < 1 || length > KEYWORD_MAX || key[0] == ' ' || key[length - 1] == ' ' ||
      strstr (key, "  ") != NULL)
    return FALSE;

  for (const guchar *p = (const guchar *) key; *p != '\0'; p++)
    if (*p < 32 || *p > 126)
      return FALSE;

  return TRUE;
}

static gboolean
is_ascii (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p > 126 || (*p < 32 && *p != '\n'))
      return FALSE;

  return TRUE;
}

static void
append_text_chunk (GByteArray *out,
                   const char *key,
                   const char *value)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  static const guint8 zero = 0;
  gboolean plain = is_ascii (value);

  g_byte_array_append (data, (const guint8 *) key, strlen (key));
  g_byte_array_append (data, &zero, 1);
  if (!plain)
    {
      /* Not compressed, method 0, no language tag, no translated key. */
      static const guint8 itxt_header[4] = { 0, 0, 0, 0 };

      g_byte_array_append (data, itxt_header, sizeof itxt_header);
    }
  g_byte_array_append (data, (const guint8 *) value, strlen (value));

  append_chunk (out, plain ? "tEXt" : "iTXt", data);
}

/* The end of IHDR (the first chunk), or 0 when @data is not a PNG. */
static gsize
header_end (const guint8 *data,
            gsize         size)
{
  guint32 length;

  if (size < sizeof png_signature + CHUNK_OVERHEAD ||
      memcmp (data, png_signature, sizeof png_signature) != 0 ||
      memcmp (data + sizeof png_signature + 4, "IHDR", 4) != 0)
    return 0;

  length = read_be32 (data + sizeof png_signature);
  if (length > size - sizeof png_signature - CHUNK_OVERHEAD)
    return 0;

  return sizeof png_signature + CHUNK_OVERHEAD + length;
}

GBytes *
ds_png_add_text (GBytes             *png,
                 const char *const  *keys_values,
                 GError            **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (png, &size);
  gsize split = header_end (data, size);
  g_autoptr(GByteArray) out = NULL;

  g_return_val_if_fail (png != NULL, NULL);
  g_return_val_if_fail (keys_values != NULL, NULL);

  if (split == 0)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("not a PNG image"));
      return NULL;
    }

  for (guint i = 0; keys_values[i] != NULL; i += 2)
    if (!is_keyword (keys_values[i]) || keys_values[i + 1] == NULL ||
        !g_utf8_validate (keys_values[i + 1], -1, NULL))
      {
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("“%s” cannot be a PNG text chunk"), keys_values[i]);
        return NULL;
      }

  out = g_byte_array_sized_new (size + 1024);
  g_byte_array_append (out, data, split);
  for (guint i = 0; keys_values[i] != NULL; i += 2)
    append_text_chunk (out, keys_values[i], keys_values[i + 1]);
  g_byte_array_append (out, data + split, size - split);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

char *
ds_png_get_text (GBytes     *png,
                 const char *key)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (png, &size);
  gsize key_length = strlen (key);
  gsize at = header_end (data, size) > 0 ? sizeof png_signature : size;

  while (at + CHUNK_OVERHEAD <= size)
    {
      guint32 length = read_be32 (data + at);
      const guint8 *type = data + at + 4;
      const guint8 *body = data + at + 8;
      const guint8 *text = NULL;

      if (length > size - at - CHUNK_OVERHEAD)
        break;

      if (length > key_length && memcmp (body, key, key_length) == 0 && body[key_length] == 0)
        {
          if (memcmp (type, "tEXt", 4) == 0)
            text = body + key_length + 1;
          else if (memcmp (type, "iTXt", 4) == 0 && length >= key_length + 3 &&
                   body[key_length + 1] == 0)
            {
              /* Skip the flags, the language tag and the translated key. */
              const guint8 *p = body + key_length + 3;
              const guint8 *end = body + length;
              const guint8 *nul = memchr (p, 0, end - p);

              nul = nul != NULL ? memchr (nul + 1, 0, end - nul - 1) : NULL;
              text = nul != NULL ? nul + 1 : NULL;
            }
        }

      if (text != NULL)
        {
          if (memcmp (type, "tEXt", 4) == 0)
            return g_convert ((const char *) text, body + length - text, "UTF-8", "ISO-8859-1",
                              NULL, NULL, NULL);
          return g_strndup ((const char *) text, body + length - text);
        }

      if (memcmp (type, "IEND", 4) == 0)
        break;
      at += CHUNK_OVERHEAD + length;
    }

  return NULL;
}

char *
ds_png_warnings_text (const GPtrArray *warnings)
{
  GString *text;

  if (warnings == NULL || warnings->len == 0)
    return NULL;

  text = g_string_new (NULL);
  for (guint i = 0; i < warnings->len; i++)
    {
      const DsWarning *w = warnings->pdata[i];

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, "%s (%s)", w->message, w->code);
    }

  return g_string_free (text, FALSE);
}
