/* test-render.c: comparisons drawn with cairo (PNG, SVG, PDF)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "ds-annotation.h"
#include "ds-bench-transfer.h"
#include "ds-error.h"
#include "ds-png-text.h"
#include "ds-render.h"
#include "ds-warnings.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-render-XXXXXX", NULL);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

/* Pixels within a few levels of @color. */
static guint
count_color (cairo_surface_t *image,
             DsRenderColor    color,
             int              x0,
             int              x1)
{
  int w = cairo_image_surface_get_width (image);
  int h = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  const guchar *data = cairo_image_surface_get_data (image);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = MAX (x0, 0); x < MIN (x1, w); x++)
      {
        guint32 px = *(const guint32 *) (data + y * stride + x * 4);
        int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;

        if (abs (r - (int) lround (color.red * 255)) < 8 && abs (g - (int) lround (color.green * 255)) < 8 &&
            abs (b - (int) lround (color.blue * 255)) < 8)
          n++;
      }

  return n;
}

static DsComparison *
transfer_comparison (DsResult **ret_a,
                     DsResult **ret_b)
{
  DsResult *a = ds_test_library_transfer ("Fast disk", UINT64_C (500) * 1000000000, 150e6, 170e6, 0.006,
                                         "2020-01-01T00:00:00Z");
  DsResult *b = ds_test_library_transfer ("Slow disk", UINT64_C (250) * 1000000000, 40e6, 90e6, 0.012,
                                         "2020-01-02T00:00:00Z");
  DsResult *results[2] = { a, b };
  DsTransferData *d = b->data;

  /* A failed point on B: the curve breaks there. */
  g_array_index (d->read.points, DsTransferPoint, 100).error = 5;
  g_array_index (d->read.points, DsTransferPoint, 100).bytes_per_s = 0;
  *ret_a = a;
  *ret_b = b;
  return ds_comparison_new (results, NULL, 2, NULL);
}

START_TEST (test_transfer_png)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = transfer_comparison (&a, &b);
  g_autofree char *png = g_build_filename (dir, "cmp.png", NULL);
  g_autoptr (GError) error = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB, .show_access = TRUE };
  cairo_surface_t *image;
  guint blue, orange;

  ck_assert_msg (ds_render_comparison_to_file (cmp, &opts, DS_RENDER_PNG, png, NULL, &error),
                 "%s", error ? error->message : "");
  image = cairo_image_surface_create_from_png (png);
  ck_assert_int_eq (cairo_surface_status (image), CAIRO_STATUS_SUCCESS);
  ck_assert_int_eq (cairo_image_surface_get_width (image), 1200);
  ck_assert_int_eq (cairo_image_surface_get_height (image),
                    (int) ds_render_comparison_height (cmp, &opts));

  /* Both curves are drawn, each in its colour, right of the legend. */
  blue = count_color (image, ds_chart_series_color (0), 100, 1100);
  orange = count_color (image, ds_chart_series_color (1), 100, 1100);
  ck_assert_msg (blue > 400 && orange > 400, "blue %u, orange %u pixels", blue, orange);
  cairo_surface_destroy (image);
}
END_TEST

/* An exported PNG says what it shows in its text chunks, and keeps each
 * result's warnings there as well as in its pixels. */
START_TEST (test_png_text_warnings)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (GBytes) png = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *warnings = NULL;
  g_autofree char *description = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB };
  DsResult *results[2];

  a = ds_test_library_transfer ("Fast disk", UINT64_C (500) * 1000000000, 150e6, 170e6, 0.006,
                                "2020-01-01T00:00:00Z");
  b = ds_test_library_transfer ("Slow disk", UINT64_C (250) * 1000000000, 40e6, 90e6, 0.012,
                                "2020-01-02T00:00:00Z");
  if (b->warnings == NULL)
    b->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  g_ptr_array_add (b->warnings, ds_warning_new ("loop_no_direct_io", "Reads came from the page cache."));
  results[0] = a;
  results[1] = b;
  cmp = ds_comparison_new (results, NULL, 2, NULL);

  png = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error);
  ck_assert_msg (png != NULL, "%s", error ? error->message : "");
  title = ds_png_get_text (png, "Title");
  description = ds_png_get_text (png, "Description");
  warnings = ds_png_get_text (png, "Warnings");
  ck_assert_msg (title != NULL && strstr (title, "Benchmark") != NULL, "%s", title);
  ck_assert_msg (description != NULL && strstr (description, "A: ") != NULL &&
                 strstr (description, "\nB: ") != NULL, "%s", description);
  ck_assert_msg (warnings != NULL && strstr (warnings, "B: ") != NULL &&
                 strstr (warnings, "page cache") != NULL, "%s", warnings);

  /* A comparison without warnings has no such chunk. */
  g_clear_pointer (&b->warnings, g_ptr_array_unref);
  g_clear_pointer (&cmp, ds_comparison_free);
  g_clear_pointer (&png, g_bytes_unref);
  g_clear_pointer (&warnings, g_free);
  cmp = ds_comparison_new (results, NULL, 2, NULL);
  png = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error);
  ck_assert_ptr_nonnull (png);
  warnings = ds_png_get_text (png, "Warnings");
  ck_assert_ptr_null (warnings);
}
END_TEST

START_TEST (test_vector_formats)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = transfer_comparison (&a, &b);
  g_autofree char *svg = g_build_filename (dir, "cmp.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "cmp.pdf", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MIB };
  DsRenderFormat format;
  gsize len = 0;

  ck_assert (ds_render_format_from_path ("x.SVG", &format) && format == DS_RENDER_SVG);
  ck_assert (!ds_render_format_from_path ("x.jpg", &format));

  ck_assert (ds_render_comparison_to_file (cmp, &opts, DS_RENDER_SVG, svg, NULL, &error));
  ck_assert (g_file_get_contents (svg, &text, &len, NULL));
  /* Vector: paths for the curves, not an embedded bitmap. */
  ck_assert (g_str_has_prefix (text, "<?xml"));
  ck_assert_ptr_nonnull (strstr (text, "<path"));
  ck_assert_ptr_null (strstr (text, "<image"));
  g_clear_pointer (&text, g_free);

  ck_assert (ds_render_comparison_to_file (cmp, &opts, DS_RENDER_PDF, pdf, NULL, &error));
  ck_assert (g_file_get_contents (pdf, &text, &len, NULL));
  ck_assert (len > 1000 && g_str_has_prefix (text, "%PDF-"));

  /* A folder that does not exist: a clear error naming the file. */
  {
    g_autofree char *bad = g_build_filename (dir, "missing", "x.pdf", NULL);

    ck_assert (!ds_render_comparison_to_file (cmp, &opts, DS_RENDER_PDF, bad, NULL, &error));
    ck_assert_msg (strstr (error->message, bad) != NULL, "%s", error->message);
  }
}
END_TEST

START_TEST (test_bars)
{
  g_autoptr (DsResult) a = ds_test_library_workload ("A", DS_PATTERN_RANDREAD, 100e6, 200e-6, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("B", DS_PATTERN_RANDREAD, 300e6, 100e-6, "2020-01-02T00:00:00Z");
  g_autoptr (DsResult) c = ds_test_library_workload ("C", DS_PATTERN_RANDREAD, 50e6, 400e-6, "2020-01-03T00:00:00Z");
  DsResult *results[3] = { a, b, c };
  g_autoptr (DsComparison) cmp = ds_comparison_new (results, NULL, 3, NULL);
  g_autofree char *png = g_build_filename (dir, "bars.png", NULL);
  DsRenderOptions opts = { .units = DS_UNITS_MB };
  cairo_surface_t *image;
  guint px[3];

  ck_assert (ds_render_comparison_to_file (cmp, &opts, DS_RENDER_PNG, png, NULL, NULL));
  image = cairo_image_surface_create_from_png (png);
  ck_assert_int_eq (cairo_surface_status (image), CAIRO_STATUS_SUCCESS);
  /* Bars to scale: in the bar area, B (3x A's bandwidth, half its
   * latency) and C are there, one colour each. */
  for (int i = 0; i < 3; i++)
    px[i] = count_color (image, ds_chart_series_color (i), 300, 1200);
  ck_assert_msg (px[0] > 500 && px[1] > 500 && px[2] > 500, "%u %u %u", px[0], px[1], px[2]);
  cairo_surface_destroy (image);
}
END_TEST

/* Colour is not the only difference: drawn in one colour, the legend keys
 * of the first five series (line pattern and marker) all differ, and a
 * solid key covers more of its line than a dashed or dotted one. */
START_TEST (test_series_styles)
{
  guint8 *keys[5];
  guint ink[5];
  int stride = 0;

  for (guint c = 0; c < 5; c++)
    {
      cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_A8, 48, 16);
      cairo_t *cr = cairo_create (image);

      cairo_set_source_rgba (cr, 0, 0, 0, 1);
      ds_chart_series_key (cr, c, 2, 8, 44, 2);
      cairo_destroy (cr);
      cairo_surface_flush (image);
      stride = cairo_image_surface_get_stride (image);
      keys[c] = g_memdup2 (cairo_image_surface_get_data (image), (gsize) stride * 16);
      ink[c] = 0;
      /* The line's row, away from the marker in the middle. */
      for (int x = 2; x < 22; x++)
        ink[c] += keys[c][8 * stride + x] > 128;
      cairo_surface_destroy (image);
    }
  for (guint a = 0; a < 5; a++)
    for (guint b = a + 1; b < 5; b++)
      ck_assert_msg (memcmp (keys[a], keys[b], (gsize) stride * 16) != 0,
                     "series %u and %u have the same key", a, b);
  ck_assert_uint_eq (ink[0], 20);
  for (guint c = 1; c < 5; c++)
    ck_assert_msg (ink[c] < 20, "series %u's line is not dashed (%u of 20 pixels)", c, ink[c]);
  for (guint c = 0; c < 5; c++)
    g_free (keys[c]);
}
END_TEST

/* The address space this process holds now (VmSize), in bytes. */
static guint64
vm_size_bytes (void)
{
  g_autofree char *status = NULL;
  const char *line;

  ck_assert (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmSize:");
  ck_assert_ptr_nonnull (line);
  return g_ascii_strtoull (line + strlen ("VmSize:"), NULL, 10) * 1024;
}

/* Under an address-space limit that leaves 16 MiB (Check runs each test
 * in a child of its own, so the limit dies with it): the picture fails
 * with the size and the reason, and nothing is left at the path; with the
 * limit lifted it draws.  Before the fix, Pango's font threads aborted the
 * process (g_thread_new) or fontconfig crashed parsing its configuration. */
START_TEST (test_not_enough_memory)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = transfer_comparison (&a, &b);
  g_autofree char *png = g_build_filename (dir, "tight.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB, .show_access = TRUE };
  struct rlimit old, tight;
  g_autofree char *listing = NULL;

  ck_assert_int_eq (getrlimit (RLIMIT_AS, &old), 0);
  tight = old;
  tight.rlim_cur = vm_size_bytes () + (16 << 20);
  ck_assert_int_eq (setrlimit (RLIMIT_AS, &tight), 0);

  for (int format = DS_RENDER_PNG; format <= DS_RENDER_PDF; format++)
    {
      g_clear_error (&error);
      ck_assert (!ds_render_comparison_to_file (cmp, &opts, format, png, NULL, &error));
      ds_test_note ("format %d, 16 MiB left: %s", format, error->message);
      ck_assert_msg (strstr (error->message, "not enough memory to draw the picture (1200×") != NULL,
                     "%s", error->message);
      ck_assert_msg (strstr (error->message, png) != NULL, "%s", error->message);
      ck_assert (!g_file_test (png, G_FILE_TEST_EXISTS));
    }
  listing = ds_test_list_dir (dir);
  ck_assert_str_eq (listing, "");

  ck_assert_int_eq (setrlimit (RLIMIT_AS, &old), 0);
  g_clear_error (&error);
  bytes = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error);
  ck_assert_msg (bytes != NULL, "%s", error ? error->message : "");
  ck_assert (memcmp (g_bytes_get_data (bytes, NULL), "\x89PNG", 4) == 0);
}
END_TEST

/* A PNG wider or taller than cairo draws is refused with what to do;
 * the same picture as SVG is drawn. */
START_TEST (test_png_too_large)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = transfer_comparison (&a, &b);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) svg = NULL;
  DsRenderOptions opts = { .units = DS_UNITS_MB, .width = 40000 };

  ck_assert_ptr_null (ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_PNG, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "40000×") != NULL && strstr (error->message, "SVG") != NULL,
                 "%s", error->message);
  svg = ds_render_comparison_to_bytes (cmp, &opts, DS_RENDER_SVG, NULL);
  ck_assert_ptr_nonnull (svg);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("render");
  TCase *tc = tcase_create ("render");

  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_transfer_png);
  tcase_add_test (tc, test_vector_formats);
  tcase_add_test (tc, test_png_text_warnings);
  tcase_add_test (tc, test_bars);
  tcase_add_test (tc, test_series_styles);
  tcase_add_test (tc, test_not_enough_memory);
  tcase_add_test (tc, test_png_too_large);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
