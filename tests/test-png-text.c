/* test-png-text.c: text chunks added to a PNG
 *
 * Unit suite.  A small PNG is made here with zlib; text is added with
 * ds_png_add_text() and checked against the PNG specification with zlib's
 * own CRC-32 (not ours): every chunk's CRC, tEXt for ASCII and iTXt for
 * UTF-8, the text right after IHDR, the image data untouched.  Bad input
 * (not a PNG, a key that is not a PNG keyword) is refused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <zlib.h>

#include "ds-error.h"
#include "ds-png-text.h"
#include "ds-warnings.h"
#include "ds-test-util.h"

static void
put_be32 (GByteArray *out,
          guint32     v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (out, b, 4);
}

static void
put_chunk (GByteArray   *out,
           const char   *type,
           const guint8 *data,
           guint32       length)
{
  uLong crc = crc32 (0, (const Bytef *) type, 4);

  /* zlib's crc32() with no buffer gives its initial value, not @crc. */
  if (length > 0)
    crc = crc32 (crc, data, length);
  put_be32 (out, length);
  g_byte_array_append (out, (const guint8 *) type, 4);
  g_byte_array_append (out, data, length);
  put_be32 (out, (guint32) crc);
}

/* A 2×1 RGB PNG: one red, one green pixel. */
static GBytes *
make_png (void)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  static const guint8 ihdr[13] = { 0, 0, 0, 2, 0, 0, 0, 1, 8, 2, 0, 0, 0 };
  static const guint8 raw[7] = { 0, 255, 0, 0, 0, 255, 0 };
  GByteArray *out = g_byte_array_new ();
  guint8 packed[64];
  uLongf packed_length = sizeof packed;

  ck_assert_int_eq (compress (packed, &packed_length, raw, sizeof raw), Z_OK);
  g_byte_array_append (out, signature, sizeof signature);
  put_chunk (out, "IHDR", ihdr, sizeof ihdr);
  put_chunk (out, "IDAT", packed, packed_length);
  put_chunk (out, "IEND", NULL, 0);

  return g_byte_array_free_to_bytes (out);
}

typedef struct {
  char    type[5];
  GBytes *data;
} Chunk;

static void
chunk_clear (gpointer data)
{
  g_bytes_unref (((Chunk *) data)->data);
}

/* Every chunk, each CRC checked with zlib. */
static GArray *
read_chunks (GBytes *png)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (png, &size);
  GArray *chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));
  gsize at = 8;

  g_array_set_clear_func (chunks, chunk_clear);
  ck_assert_uint_ge (size, 8);
  ck_assert (memcmp (p, "\x89PNG\r\n\x1a\n", 8) == 0);

  while (at < size)
    {
      guint32 length, crc;
      Chunk chunk = { { 0 } };

      ck_assert_uint_le (at + 12, size);
      length = (guint32) p[at] << 24 | (guint32) p[at + 1] << 16 | (guint32) p[at + 2] << 8 | p[at + 3];
      ck_assert_uint_le (at + 12 + length, size);
      memcpy (chunk.type, p + at + 4, 4);
      crc = (guint32) p[at + 8 + length] << 24 | (guint32) p[at + 9 + length] << 16 |
            (guint32) p[at + 10 + length] << 8 | p[at + 11 + length];
      ck_assert_msg (crc == (guint32) crc32 (0, p + at + 4, length + 4), "bad CRC on %s", chunk.type);
      chunk.data = g_bytes_new (p + at + 8, length);
      g_array_append_val (chunks, chunk);
      at += 12 + length;
    }

  return chunks;
}

START_TEST (test_add_and_read)
{
  g_autoptr(GBytes) png = make_png ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GArray) before = read_chunks (png);
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  const char *text[] = {
    "Title", "Benchmark of /dev/loop10 (QEMU HARDDISK)",
    "Description", "/dev/loop10 · 2.1 GB (2 GiB)\nТест: чтение · 测试",
    "Creation Time", "Sat, 30 Nov 2026 10:41:00 +0100",
    "Software", "Diskscope 0.1.0",
    NULL,
  };
  const char *types[] = { "IHDR", "tEXt", "iTXt", "tEXt", "tEXt", "IDAT", "IEND" };

  out = ds_png_add_text (png, text, &error);
  ck_assert_msg (out != NULL, "%s", error ? error->message : "");

  after = read_chunks (out);
  ck_assert_uint_eq (after->len, G_N_ELEMENTS (types));
  for (guint i = 0; i < after->len; i++)
    ck_assert_str_eq (g_array_index (after, Chunk, i).type, types[i]);
  /* The image is what it was. */
  ck_assert (g_bytes_equal (g_array_index (before, Chunk, 1).data, g_array_index (after, Chunk, 5).data));

  /* iTXt: keyword, 0, not compressed, method 0, no language, no
   * translated keyword, then the UTF-8 text as it was. */
  {
    gsize length;
    const char *data = g_bytes_get_data (g_array_index (after, Chunk, 2).data, &length);
    const char *expected = "Description\0\0\0\0\0";

    ck_assert (memcmp (data, expected, 16) == 0);
    ck_assert_uint_eq (length - 16, strlen (text[3]));
    ck_assert (memcmp (data + 16, text[3], length - 16) == 0);
  }

  for (guint i = 0; text[i] != NULL; i += 2)
    {
      g_autofree char *value = ds_png_get_text (out, text[i]);

      ck_assert_msg (value != NULL, "%s not found", text[i]);
      ck_assert_str_eq (value, text[i + 1]);
    }
  ck_assert_ptr_null (ds_png_get_text (out, "Author"));
  ck_assert_ptr_null (ds_png_get_text (png, "Title"));
}
END_TEST

START_TEST (test_refused)
{
  g_autoptr(GBytes) png = make_png ();
  g_autoptr(GBytes) not_png = g_bytes_new_static ("GIF89a, not a PNG at all", 24);
  const char *good[] = { "Title", "x", NULL };
  const char *bad_keys[][3] = {
    { "", "x", NULL },
    { " Title", "x", NULL },
    { "Two  spaces", "x", NULL },
    { "Тема", "x", NULL },
    { "A keyword that is much longer than the seventy-nine characters PNG allows for one", "x", NULL },
  };

  {
    g_autoptr(GError) error = NULL;

    ck_assert_ptr_null (ds_png_add_text (not_png, good, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  }

  for (guint i = 0; i < G_N_ELEMENTS (bad_keys); i++)
    {
      g_autoptr(GError) error = NULL;

      ck_assert_msg (ds_png_add_text (png, bad_keys[i], &error) == NULL, "“%s” accepted", bad_keys[i][0]);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
    }
}
END_TEST

/* A picture's warnings: a line each, the sentence and its code; none,
 * no chunk. */
START_TEST (test_warnings_text)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  g_autofree char *text = NULL;
  g_autofree char *one = NULL;

  ck_assert_ptr_null (ds_png_warnings_text (NULL));
  ck_assert_ptr_null (ds_png_warnings_text (warnings));

  g_ptr_array_add (warnings, ds_warning_new ("buffered_io", "Read through the page cache."));
  one = ds_png_warnings_text (warnings);
  ck_assert_str_eq (one, "Read through the page cache. (buffered_io)");

  g_ptr_array_add (warnings, ds_warning_new ("region_cached", "The region fits in the cache — 2 GB."));
  text = ds_png_warnings_text (warnings);
  ck_assert_str_eq (text, "Read through the page cache. (buffered_io)\n"
                          "The region fits in the cache — 2 GB. (region_cached)");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("png-text");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_add_and_read);
  tcase_add_test (tc, test_refused);
  tcase_add_test (tc, test_warnings_text);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
