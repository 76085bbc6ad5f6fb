/* test-render-file.c: a comparison's picture saved as PNG, SVG or PDF
 * (core/render/ds-render-file.c): the file's kind from its name, the
 * destinations refused before anything is drawn, a file replaced whole or
 * left as it was, the picture's size and what the file says of itself
 *
 * tests/test-render.c checks the drawing, the memory limits and a PNG too
 * wide; this is the file around it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-png-text.h"
#include "ds-render.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *dir;
static DsResult *res_a;
static DsResult *res_b;
static DsComparison *cmp;

static void
setup (void)
{
  DsResult *results[2];

  dir = g_dir_make_tmp ("ds-render-file-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
  res_a = ds_test_library_transfer ("Fast disk", UINT64_C (500) * 1000000000, 150e6, 170e6, 0.006,
                                    "2020-01-01T00:00:00Z");
  res_b = ds_test_library_transfer ("Slow disk", UINT64_C (250) * 1000000000, 40e6, 90e6, 0.012,
                                    "2020-01-02T00:00:00Z");
  results[0] = res_a;
  results[1] = res_b;
  cmp = ds_comparison_new (results, NULL, 2, NULL);
  ck_assert_ptr_nonnull (cmp);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  g_clear_pointer (&cmp, ds_comparison_free);
  g_clear_pointer (&res_a, ds_result_free);
  g_clear_pointer (&res_b, ds_result_free);
  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

static char *
contents (const char *path)
{
  char *text = NULL;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  return text;
}

/* ---- the kind of file from its name ------------------------------------- */

START_TEST (test_format_from_path)
{
  struct {
    const char     *path;
    DsRenderFormat  format;
  } known[] = {
    { "a.png", DS_RENDER_PNG }, { "A.PNG", DS_RENDER_PNG }, { "/x/b.Png", DS_RENDER_PNG },
    { "c.svg", DS_RENDER_SVG }, { "C.SVG", DS_RENDER_SVG }, { "/d.png/e.svg", DS_RENDER_SVG },
    { "f.pdf", DS_RENDER_PDF }, { "F.Pdf", DS_RENDER_PDF }, { "my picture.pdf", DS_RENDER_PDF },
  };
  const char *unknown[] = { "", "png", "xpng", "x.jpg", "x.png.bak", "x.pngx", "x.svgz", "x.ps", "x.",
                            "x.png ", "/tmp/pdf" };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      DsRenderFormat format = (DsRenderFormat) 99;

      ck_assert_msg (ds_render_format_from_path (known[i].path, &format), "%s", known[i].path);
      ck_assert_msg (format == known[i].format, "%s: %d", known[i].path, format);
    }
  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    {
      DsRenderFormat format = (DsRenderFormat) 99;

      ck_assert_msg (!ds_render_format_from_path (unknown[i], &format), "“%s” has a kind", unknown[i]);
      ck_assert_int_eq (format, 99);
    }
}
END_TEST

/* ---- the destination ---------------------------------------------------- */

/* What the save rules refuse is refused before drawing: the error is the
 * destination's even for a picture that could not be drawn (a PNG 40000
 * px wide), and nothing is written. */
START_TEST (test_refused_before_drawing)
{
  g_autofree char *input = g_build_filename (dir, "a.json", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", "x.png", NULL);
  g_autofree char *before = NULL;
  g_autofree char *listing = NULL;
  const char *inputs[] = { input, NULL };
  DsSaveKeep keep = { .target = target, .inputs = inputs };
  DsRenderOptions wide = { .units = DS_UNITS_MB, .width = 40000 };
  struct {
    const char *path;
    int         code;
  } cases[] = {
    { dir, DS_ERROR_REFUSED },       /* a folder */
    { input, DS_ERROR_REFUSED },     /* what it is made from */
    { target, DS_ERROR_REFUSED },    /* the run's target */
    { missing, DS_ERROR_NOT_FOUND }, /* no such folder */
  };

  ck_assert (g_file_set_contents (input, "{\"input\": true}", -1, NULL));
  ck_assert (g_file_set_contents (target, "target", -1, NULL));
  before = ds_test_list_dir (dir);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      ck_assert (!ds_render_comparison_to_file (cmp, &wide, DS_RENDER_PNG, cases[i].path, &keep, &error));
      ck_assert_msg (g_error_matches (error, DS_ERROR, cases[i].code), "%s: %d %s", cases[i].path,
                     error->code, error->message);
      ck_assert_msg (strstr (error->message, cases[i].path) != NULL, "%s", error->message);
      ck_assert_msg (strstr (error->message, "40000") == NULL, "%s", error->message);
    }
  {
    g_autoptr (GError) error = NULL;

    ck_assert (!ds_render_comparison_to_file (cmp, &wide, DS_RENDER_PNG, "", &keep, &error));
    ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID) &&
                   strstr (error->message, "40000") == NULL, "%s", error->message);
  }

  listing = ds_test_list_dir (dir);
  ck_assert_str_eq (listing, before);
  g_free (before);
  before = contents (input);
  ck_assert_str_eq (before, "{\"input\": true}");
  g_free (before);
  before = contents (target);
  ck_assert_str_eq (before, "target");
}
END_TEST

/* A picture that cannot be drawn leaves an existing file as it was and
 * none where there was none; the error starts with the path. */
START_TEST (test_failed_leaves_nothing)
{
  g_autofree char *old = g_build_filename (dir, "old.png", NULL);
  g_autofree char *fresh = g_build_filename (dir, "new.png", NULL);
  g_autofree char *listing = NULL;
  g_autofree char *text = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr (GError) error = NULL;
  DsRenderOptions wide = { .units = DS_UNITS_MB, .width = 40000 };

  ck_assert (g_file_set_contents (old, "the old picture", -1, NULL));
  ck_assert (!ds_render_comparison_to_file (cmp, &wide, DS_RENDER_PNG, old, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  prefix = g_strdup_printf ("%s: the picture would be 40000×", old);
  ck_assert_msg (g_str_has_prefix (error->message, prefix), "%s", error->message);
  text = contents (old);
  ck_assert_str_eq (text, "the old picture");
  g_clear_error (&error);

  ck_assert (!ds_render_comparison_to_file (cmp, &wide, DS_RENDER_PNG, fresh, NULL, &error));
  ck_assert (!g_file_test (fresh, G_FILE_TEST_EXISTS));
  listing = ds_test_list_dir (dir);
  ck_assert_str_eq (listing, "old.png");
}
END_TEST

/* An existing file is replaced whole, in place: its mode kept, no
 * temporary file left; the bytes are those ds_render_comparison_to_bytes()
 * gives. */
START_TEST (test_replaced)
{
  g_autofree char *svg = g_build_filename (dir, "cmp.svg", NULL);
  g_autofree char *text = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB };
  gsize len = 0;
  GStatBuf st;

  ck_assert (g_file_set_contents (svg, "old", -1, NULL));
  ck_assert_int_eq (g_chmod (svg, 0640), 0);
  ck_assert_msg (ds_render_comparison_to_file (cmp, &opts, DS_RENDER_SVG, svg, NULL, &error), "%s",
                 error ? error->message : "");
  ck_assert (g_file_get_contents (svg, &text, &len, NULL));
  ck_assert (g_str_has_prefix (text, "<?xml"));
  ck_assert (g_str_has_suffix (g_strchomp (text), "</svg>"));
  ck_assert_int_eq (g_stat (svg, &st), 0);
  ck_assert_int_eq (st.st_mode & 07777, 0640);
  listing = ds_test_list_dir (dir);
  ck_assert_str_eq (listing, "cmp.svg");

  bytes = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_SVG, &error);
  ck_assert_ptr_nonnull (bytes);
  ck_assert_uint_eq (g_bytes_get_size (bytes), len);
}
END_TEST

/* ---- what the file holds ------------------------------------------------ */

static cairo_status_t
read_bytes (void          *closure,
            unsigned char *data,
            unsigned int   length)
{
  GInputStream *in = closure;

  return g_input_stream_read_all (in, data, length, NULL, NULL, NULL) ? CAIRO_STATUS_SUCCESS
                                                                      : CAIRO_STATUS_READ_ERROR;
}

/* The PNG's pixels: @width wide (1200 when not given), as tall as the
 * drawing needs. */
static void
assert_png_size (double width,
                 int    want_width)
{
  g_autoptr (GError) error = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB, .width = width };
  g_autoptr (GBytes) png = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error);
  g_autoptr (GInputStream) in = NULL;
  cairo_surface_t *image;

  ck_assert_msg (png != NULL, "%s", error ? error->message : "");
  in = g_memory_input_stream_new_from_bytes (png);
  image = cairo_image_surface_create_from_png_stream (read_bytes, in);
  ck_assert_int_eq (cairo_surface_status (image), CAIRO_STATUS_SUCCESS);
  ck_assert_int_eq (cairo_image_surface_get_width (image), want_width);
  ck_assert_int_eq (cairo_image_surface_get_height (image), (int) ds_render_comparison_height (cmp, &opts));
  cairo_surface_destroy (image);
}

START_TEST (test_png_size)
{
  assert_png_size (0, 1200);
  assert_png_size (640, 640);
}
END_TEST

/* The PNG's text chunks, word for word: the kind, each column's letter
 * and label ("?" for none), the software, each warning on its line. */
START_TEST (test_png_text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) png = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *software = NULL;
  g_autofree char *warnings = NULL;
  g_autofree char *want = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB };
  DsCompareColumn *b = cmp->columns->pdata[1];
  g_autofree char *b_label = g_steal_pointer (&b->label);

  g_ptr_array_set_size (cmp->warnings, 0);
  g_ptr_array_add (cmp->warnings, g_strdup ("A: first"));
  g_ptr_array_add (cmp->warnings, g_strdup ("B: second"));
  png = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error);
  b->label = g_steal_pointer (&b_label);
  ck_assert_msg (png != NULL, "%s", error ? error->message : "");
  ck_assert (memcmp (g_bytes_get_data (png, NULL), "\x89PNG\r\n\x1a\n", 8) == 0);

  title = ds_png_get_text (png, "Title");
  description = ds_png_get_text (png, "Description");
  software = ds_png_get_text (png, "Software");
  warnings = ds_png_get_text (png, "Warnings");
  ck_assert_str_eq (title, "Diskscope comparison: Benchmark");
  want = g_strdup_printf ("A: %s\nB: ?", ((DsCompareColumn *) cmp->columns->pdata[0])->label);
  ck_assert_str_eq (description, want);
  ck_assert_str_eq (software, "Diskscope " PACKAGE_VERSION);
  ck_assert_str_eq (warnings, "A: first\nB: second");
}
END_TEST

/* A PDF says who made it; an SVG is as wide as asked; neither carries
 * the PNG's text. */
START_TEST (test_vector_bytes)
{
  g_autoptr (GError) error = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB, .width = 800 };
  g_autoptr (GBytes) pdf = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PDF, &error);
  g_autoptr (GBytes) svg = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_SVG, &error);
  g_autofree char *pdf_text = NULL;
  g_autofree char *svg_text = NULL;
  g_autofree char *want_size = NULL;

  ck_assert_ptr_nonnull (pdf);
  ck_assert_ptr_nonnull (svg);
  pdf_text = g_strndup (g_bytes_get_data (pdf, NULL), g_bytes_get_size (pdf));
  ck_assert (g_str_has_prefix (pdf_text, "%PDF-"));
  ck_assert_msg (memmem (g_bytes_get_data (pdf, NULL), g_bytes_get_size (pdf), "/Creator (Diskscope " PACKAGE_VERSION ")",
                         strlen ("/Creator (Diskscope " PACKAGE_VERSION ")")) != NULL, "no /Creator");
  svg_text = g_strndup (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  /* The width asked for, in points; the height the drawing needs. */
  want_size = g_strdup_printf ("width=\"800pt\" height=\"%dpt\" viewBox=\"0 0 800 %d\"",
                               (int) ds_render_comparison_height (cmp, &opts),
                               (int) ds_render_comparison_height (cmp, &opts));
  ck_assert_msg (strstr (svg_text, want_size) != NULL, "no %s in %.300s", want_size, svg_text);
  ck_assert_ptr_null (strstr (svg_text, "Diskscope comparison:"));
  ck_assert_ptr_null (memmem (g_bytes_get_data (pdf, NULL), g_bytes_get_size (pdf), "Diskscope comparison:",
                              strlen ("Diskscope comparison:")));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("render-file");
  TCase *tc = tcase_create ("file");

  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_format_from_path);
  tcase_add_test (tc, test_refused_before_drawing);
  tcase_add_test (tc, test_failed_leaves_nothing);
  tcase_add_test (tc, test_replaced);
  tcase_add_test (tc, test_png_size);
  tcase_add_test (tc, test_png_text);
  tcase_add_test (tc, test_vector_bytes);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
