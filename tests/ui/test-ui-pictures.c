/* test-ui-pictures.c: what saved pictures and graphs say
 *
 * Runs under Xvfb (suite "ui") as root: loop devices.  Covers:
 *  - a scripted screenshot (--screenshot) carries a caption strip under
 *    the page and the same caption in the PNG's text chunks, read back here
 *    with gdk-pixbuf (not our own reader): device, test and settings,
 *    date, Diskscope's version;
 *  - Save Graph: the graph alone, captioned, and refused on a page with no
 *    graph;
 *  - access-time dots above the top of the axis are marked (arrows above
 *    the top edge, "▲ n above …") instead of drawn on the edge as if they
 *    were there;
 *  - a run refused with "permission denied" (an unprivileged user): the
 *    advice has no Markdown backticks, and the empty graph behind it spans
 *    the device's real capacity.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <unistd.h>

#include "ds-graph.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-ui-test-util.h"

#define MiB (UINT64_C (1) << 20)

/* The Benchmark page's plot area (ds-graph.c's margins). */
#define PLOT_LEFT 64
#define PLOT_TOP  28

static const char *
gui_path (void)
{
  const char *path = g_getenv ("DISKSCOPE_GUI");

  ck_assert_msg (path != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  return path;
}

static void
assert_has (const char *text,
            const char *part,
            const char *what)
{
  ck_assert_msg (text != NULL, "%s is missing", what);
  ck_assert_msg (strstr (text, part) != NULL, "%s “%s” does not say “%s”", what, text, part);
}

/* The number of colours in rows @y0 to @y1 of @pixbuf. */
static guint
count_colours (GdkPixbuf *pixbuf,
               int        y0,
               int        y1)
{
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  const guchar *pixels = gdk_pixbuf_read_pixels (pixbuf);
  int stride = gdk_pixbuf_get_rowstride (pixbuf);
  int channels = gdk_pixbuf_get_n_channels (pixbuf);

  for (int y = MAX (y0, 0); y < MIN (y1, gdk_pixbuf_get_height (pixbuf)); y++)
    for (int x = 0; x < gdk_pixbuf_get_width (pixbuf); x++)
      {
        const guchar *p = pixels + y * stride + x * channels;

        g_hash_table_add (colours, GUINT_TO_POINTER (p[0] << 16 | p[1] << 8 | p[2]));
      }

  return g_hash_table_size (colours);
}

/* The caption's text chunks, as any PNG reader sees them. */
static void
check_caption (GdkPixbuf  *pixbuf,
               const char *device,
               const char *test)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");
  const char *title = gdk_pixbuf_get_option (pixbuf, "tEXt::Title");
  const char *description = gdk_pixbuf_get_option (pixbuf, "tEXt::Description");
  const char *software = gdk_pixbuf_get_option (pixbuf, "tEXt::Software");
  const char *created = gdk_pixbuf_get_option (pixbuf, "tEXt::Creation Time");

  assert_has (title, device, "the Title");
  assert_has (title, test, "the Title");
  assert_has (description, device, "the Description");
  assert_has (description, test, "the Description");
  assert_has (description, today, "the Description");
  assert_has (description, "Diskscope " PACKAGE_VERSION, "the Description");
  ck_assert_msg (software != NULL && g_str_equal (software, "Diskscope " PACKAGE_VERSION),
                 "the Software is “%s”", software);
  ck_assert_msg (created != NULL && strlen (created) >= 25, "the Creation Time is “%s”", created);
}

START_TEST (test_screenshot_caption)
{
  g_autofree char *loop = ds_test_loop_new (96 * MiB, FALSE);
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "captioned.png", NULL);
  const char *argv[] = {
    gui_path (), "--device", loop, "--page", "benchmark", "--start",
    "--screenshot", png, "--quit-when-done", "--accuracy", "1", NULL
  };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  const char *description;
  int status, height;

  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope exited %d: %s", status, err);

  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  ck_assert_msg (pixbuf != NULL, "%s", error ? error->message : "");
  check_caption (pixbuf, loop, "Benchmark");
  description = gdk_pixbuf_get_option (pixbuf, "tEXt::Description");
  assert_has (description, "Benchmark: read", "the Description");
  assert_has (description, "accuracy 1", "the Description");
  assert_has (description, "block 64 KiB", "the Description");
  assert_has (description, "96 MiB", "the Description");
  assert_has (description, "whole device", "the Description");

  /* The strip is drawn: three lines of text at the bottom of the image. */
  height = gdk_pixbuf_get_height (pixbuf);
  ck_assert_msg (count_colours (pixbuf, height - 50, height) >= 16,
                 "the bottom of the screenshot has no caption text");
}
END_TEST

typedef struct {
  gboolean finished;
  gboolean success;
} Finished;

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 Finished *finished)
{
  finished->finished = TRUE;
  finished->success = success;
}

static DsWindow *
open_window (void)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  return window;
}

/* Starts the benchmark of @device and waits for its end. */
static gboolean
run_benchmark (DsWindow   *window,
               const char *device)
{
  g_autoptr(GError) error = NULL;
  Finished finished = { 0 };
  gulong id = g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);

  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished.finished, 90000, "the end of the run");
  g_signal_handler_disconnect (window, id);
  ds_ui_test_spin (200);

  return finished.success;
}

START_TEST (test_graph_export)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "graph.png", NULL);
  g_autofree char *none = g_build_filename (ds_test_scratch_dir (), "none.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  DsWindow *window = open_window ();
  GtkWidget *graph;

  ck_assert_msg (run_benchmark (window, loop), "the run failed");
  graph = ds_ui_test_benchmark_child (window, "graph");
  ck_assert_msg (ds_window_save_graph (window, png, &error), "%s", error ? error->message : "");
  g_clear_error (&error);

  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  ck_assert_msg (pixbuf != NULL, "%s", error ? error->message : "");
  check_caption (pixbuf, loop, "Benchmark");
  /* The graph alone, with a margin: not the whole page. */
  ck_assert_int_eq (gdk_pixbuf_get_width (pixbuf), gtk_widget_get_width (graph) + 24);
  ck_assert_int_gt (gdk_pixbuf_get_height (pixbuf), gtk_widget_get_height (graph) + 24);

  /* The Info page has no graph: Save Graph is off there. */
  ck_assert (ds_window_set_page (window, "info"));
  ck_assert (!ds_window_save_graph (window, none, &error));
  ck_assert (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND));
  ck_assert (!g_file_test (none, G_FILE_TEST_EXISTS));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-graph", NULL);
  ds_ui_test_spin (200);
  ck_assert_ptr_null (ds_ui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, GTK_WINDOW (window)));

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

static GdkTexture *
render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  ck_assert_ptr_nonnull (node);
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Pixels within a few levels of @colour, at least @min_alpha opaque (of
 * 255), in a rectangle of @texture. */
static guint
count_near (GdkTexture    *texture,
            const GdkRGBA *colour,
            int            min_alpha,
            int            x0,
            int            y0,
            int            x1,
            int            y1)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * height);
  guint n = 0;

  gdk_texture_download (texture, (guchar *) pixels, width * 4);
  for (int y = MAX (y0, 0); y < MIN (y1, height); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, width); x++)
      {
        /* Premultiplied ARGB over nothing: only what was drawn counts. */
        guint32 p = pixels[y * width + x];
        int a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        if (a >= min_alpha && ABS (r - (int) (colour->red * 255)) < 24 && ABS (g - (int) (colour->green * 255)) < 24 &&
            ABS (b - (int) (colour->blue * 255)) < 24)
          n++;
      }

  return n;
}

/* A graph like the Benchmark page's, @n_slow (0 or 4) of its 600 access
 * times far above the rest (under 1 %: the axis follows the bulk), in a
 * window of its own. */
static GtkWidget *
show_graph (guint n_slow)
{
  g_autoptr(DsSeries) rate = ds_series_new ();
  g_autoptr(DsSeries) access = ds_series_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *graph;

  for (guint i = 0; i <= 100; i++)
    ds_series_append (rate, i * 1e7, 150e6, 0);
  for (guint i = 0; i < 600; i++)
    ds_series_append (access, i * 1e9 / 600, n_slow > 0 && i % 200 == 100 ? 0.05 : 0.001, 0);
  if (n_slow > 0)
    ds_series_append (access, 0.9e9, 0.08, 0);
  ds_series_changed (rate);
  ds_series_changed (access);

  graph = ds_ui_test_graph_new (DS_GRAPH_AXIS_POSITION, rate, access);
  ds_graph_set_x_max (DS_GRAPH (graph), 1e9);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 400);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (graph);
  ds_ui_test_spin (300);

  return graph;
}

/* 4 access times of 600 are 50–80 times the rest: the axis is scaled to
 * the bulk, and they are marked above it, not drawn on its edge. */
START_TEST (test_clipped_dots)
{
  GtkWidget *graph = show_graph (4);
  GtkWidget *plain = show_graph (0);
  DsGraphLayer *dots = ds_graph_get_layer (DS_GRAPH (graph), 1);
  g_autoptr(GdkTexture) texture = render (graph);
  g_autoptr(GdkTexture) plain_texture = render (plain);
  int plot_width = gtk_widget_get_width (graph) - PLOT_LEFT - 64;
  const double slow_x[] = { 100.0 / 600, 300.0 / 600, 500.0 / 600, 0.9 };
  GdkRGBA warning, text;

  ck_assert_uint_eq (ds_graph_layer_get_n_above (dots), 4);
  ds_ui_test_shoot (graph, "clipped-dots");
  ck_assert_uint_eq (ds_graph_layer_get_n_above (ds_graph_get_layer (DS_GRAPH (plain), 1)), 0);

  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (graph), "warning_color", &warning))
    gdk_rgba_parse (&warning, "#e5a50a");
  gtk_style_context_get_color (gtk_widget_get_style_context (graph), &text);

  /* An arrow over each slow dot, reaching above the plot's top edge
   * (where no dot is ever drawn)… */
  for (guint i = 0; i < G_N_ELEMENTS (slow_x); i++)
    {
      int x = PLOT_LEFT + (int) (slow_x[i] * plot_width);

      ck_assert_msg (count_near (texture, &warning, 0xc0, x - 6, PLOT_TOP - 3, x + 7, PLOT_TOP) > 0,
                     "no arrow above the dot at x = %d", x);
    }
  /* …and none where no dot is above the scale. */
  ck_assert_uint_eq (count_near (plain_texture, &warning, 0xc0, PLOT_LEFT, PLOT_TOP - 3,
                                 PLOT_LEFT + plot_width, PLOT_TOP), 0);

  /* "▲ 4 above 2 ms" over the plot's left end; nothing there without. */
  ck_assert_uint_gt (count_near (texture, &text, 0x60, PLOT_LEFT + 2, PLOT_TOP - 24,
                                 PLOT_LEFT + 200, PLOT_TOP - 4), 5);
  ck_assert_uint_eq (count_near (plain_texture, &text, 0x60, PLOT_LEFT + 2, PLOT_TOP - 24,
                                 PLOT_LEFT + 200, PLOT_TOP - 4), 0);
  if (g_getenv ("DS_TEST_KEEP_PICTURES") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("DS_TEST_KEEP_PICTURES"), "clipped-dots.png", NULL);

      gdk_texture_save_to_png (texture, path);
    }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (plain)));
}
END_TEST

/* A user not in the device's group starts a test: "permission denied",
 * with advice in plain words, over a graph of the device's real size. */
START_TEST (test_permission_error)
{
  g_autofree char *loop = ds_test_loop_new (200 * MiB, FALSE);
  g_autoptr(GError) error = NULL;
  DsWindow *window = open_window ();
  GtkInfoBar *bar = ds_ui_test_benchmark_child (window, "error_bar");
  GtkLabel *label = ds_ui_test_benchmark_child (window, "error_label");
  DsGraph *graph = ds_ui_test_benchmark_child (window, "graph");
  const char *message;
  Finished finished = { 0 };

  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);
  ck_assert (ds_window_select_device (window, loop, &error));
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);

  /* nobody: not root, not in the disk group that owns /dev/loopN.  The
   * display connection stays open; only opening the device is refused. */
  ck_assert_int_eq (setegid (65534), 0);
  ck_assert_int_eq (seteuid (65534), 0);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished.finished, 30000, "the refusal");
  ck_assert_int_eq (seteuid (0), 0);
  ck_assert_int_eq (setegid (0), 0);
  ds_ui_test_spin (200);

  ck_assert (!finished.success);
  ck_assert (gtk_info_bar_get_revealed (bar));
  message = gtk_label_get_text (label);
  printf ("# %s\n", message);
  assert_has (message, "disk", "the banner");
  ck_assert_msg (strchr (message, '`') == NULL, "the banner shows Markdown: %s", message);
  ck_assert_msg (!gtk_label_get_use_markup (label) || strchr (gtk_label_get_label (label), '<') == NULL,
                 "the banner is markup");
  /* The empty graph spans the device, not 0–1 GB. */
  ck_assert_uint_eq ((guint64) ds_graph_get_x_max (graph), 200 * MiB);
  ds_ui_test_shoot (GTK_WIDGET (window), "permission-denied");

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-pictures");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-pictures");
  tc = tcase_create ("pictures");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_screenshot_caption);
  tcase_add_test (tc, test_graph_export);
  tcase_add_test (tc, test_clipped_dots);
  tcase_add_test (tc, test_permission_error);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
