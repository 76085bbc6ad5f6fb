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
 *    the device's real capacity;
 *  - a picture is the whole page, as HD Tune's screenshot is: a Saturation
 *    run of 9 levels pictured taller than one of 3, by every row its table
 *    scrolls away in the window; the Info page past what the window shows;
 *    and the window's own layout (and where it was scrolled) back after;
 *  - a result with warnings (a loop device without direct I/O): its
 *    picture and its graph carry the "likely fooled" bar over them and a
 *    Warnings text chunk, a clean run's neither; the comparison window
 *    shows the fooled result's sentences by its name, and none by the
 *    clean one's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-compare-window.h"
#include "ds-graph.h"
#include "ds-result-json.h"
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

/* ---- Whole pages ------------------------------------------------------- */

static GdkPixbuf *
save_and_load (DsWindow   *window,
               const char *name,
               gboolean    graph)
{
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  GdkPixbuf *pixbuf;

  g_unlink (png);
  if (graph)
    ck_assert_msg (ds_window_save_graph (window, png, &error), "%s", error ? error->message : "");
  else
    ck_assert_msg (ds_window_save_screenshot (window, png, &error), "%s", error ? error->message : "");
  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  ck_assert_msg (pixbuf != NULL, "%s", error ? error->message : "");
  if (g_getenv ("DS_TEST_KEEP_PICTURES") != NULL)
    {
      g_autofree char *kept = g_build_filename (g_getenv ("DS_TEST_KEEP_PICTURES"), name, NULL);

      ck_assert (gdk_pixbuf_save (pixbuf, kept, "png", NULL, NULL));
    }
  return pixbuf;
}

/* A window too short for a page's tables: they scroll in it. */
static DsWindow *
open_short_window (void)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 560);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  return window;
}

static int
natural_height (GtkWidget *widget)
{
  int natural;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (widget), NULL, &natural,
                      NULL, NULL);
  return natural;
}

static guint
count_prefixed_labels (GtkWidget  *widget,
                       const char *prefix)
{
  guint n = GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_prefixed_labels (c, prefix);
  return n;
}

typedef struct {
  int picture;     /* the PNG's height */
  int table;       /* the table's natural height */
} SweepShot;

/* A Saturation run of random 4 KiB reads over QD 1 … @to (1 s a level),
 * pictured: the picture holds the page as the window shows it and every
 * row the table's scrolled window hides, and the window lays the page out
 * as before once drawn. */
static SweepShot
picture_sweep (DsWindow   *window,
               const char *device,
               guint       to,
               guint       n_levels)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autofree char *name = g_strdup_printf ("sweep-%u.png", n_levels);
  GtkWidget *page, *table, *scrolled;
  Finished finished = { 0 };
  gulong id = g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);
  int page_height, scrolled_height, hidden;
  SweepShot shot;

  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "sweep"));
  gtk_drop_down_set_selected (ds_ui_test_page_child (window, "sweep", "pattern_dropdown"), 0);
  gtk_drop_down_set_selected (ds_ui_test_page_child (window, "sweep", "block_dropdown"), 0);
  gtk_drop_down_set_selected (ds_ui_test_page_child (window, "sweep", "over_dropdown"), 0);
  gtk_spin_button_set_value (ds_ui_test_page_child (window, "sweep", "from_spin"), 1);
  gtk_spin_button_set_value (ds_ui_test_page_child (window, "sweep", "to_spin"), to);
  gtk_drop_down_set_selected (ds_ui_test_page_child (window, "sweep", "time_dropdown"), 0);
  gtk_check_button_set_active (ds_ui_test_page_child (window, "sweep", "steady_button"), FALSE);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the sweep");
  g_signal_handler_disconnect (window, id);
  ck_assert_msg (finished.success, "the sweep failed");
  ds_ui_test_spin (300);

  page = adw_view_stack_get_visible_child (ds_ui_test_window_child (window, "view_stack"));
  table = ds_ui_test_page_child (window, "sweep", "table");
  scrolled = gtk_widget_get_ancestor (table, GTK_TYPE_SCROLLED_WINDOW);
  ck_assert_uint_eq (count_prefixed_labels (table, "QD "), n_levels);
  page_height = gtk_widget_get_height (page);
  scrolled_height = gtk_widget_get_height (scrolled);
  shot.table = natural_height (table);
  hidden = MAX (shot.table - scrolled_height, 0);
  if (n_levels > 3)
    ck_assert_msg (hidden > 0, "the table of %u levels is not cut in the window (%d of %d px)", n_levels,
                   scrolled_height, shot.table);

  pixbuf = save_and_load (window, name, FALSE);
  shot.picture = gdk_pixbuf_get_height (pixbuf);
  printf ("# %u levels: the page %d px in the window, its table %d px of %d shown; the picture %d × %d\n",
          n_levels, page_height, scrolled_height, shot.table, gdk_pixbuf_get_width (pixbuf), shot.picture);
  ck_assert_int_eq (gdk_pixbuf_get_width (pixbuf), gtk_widget_get_width (page));
  /* The page, every hidden row, and the caption's three lines. */
  ck_assert_msg (shot.picture >= page_height + hidden + 40, "the picture (%d px) cuts the page (%d + %d px)",
                 shot.picture, page_height, hidden);
  ck_assert_ptr_null (gdk_pixbuf_get_option (pixbuf, "tEXt::Warnings"));

  /* The window's own layout again. */
  ds_ui_test_spin (200);
  ck_assert_int_eq (gtk_widget_get_height (page), page_height);
  ck_assert_int_eq (gtk_widget_get_height (scrolled), scrolled_height);

  return shot;
}

START_TEST (test_sweep_whole)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  DsWindow *window = open_short_window ();
  SweepShot three = picture_sweep (window, loop, 4, 3);
  SweepShot nine = picture_sweep (window, loop, 256, 9);

  /* Six rows more, in the picture (each picture held its whole table). */
  ck_assert_int_gt (nine.table, three.table);
  ck_assert_msg (nine.picture > three.picture, "9 levels: %d px, 3 levels: %d px", nine.picture,
                 three.picture);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

static GtkWidget *
find_shown_scrolled (GtkWidget *widget)
{
  if (GTK_IS_SCROLLED_WINDOW (widget) && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_shown_scrolled (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Info page scrolls in a short window; its picture holds it all
 * (past Scheduler, down to Partitions and Use), and the page is scrolled
 * where it was after. */
START_TEST (test_info_whole)
{
  g_autofree char *loop = ds_test_loop_new (32 * MiB, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  DsWindow *window = open_short_window ();
  GtkWidget *page, *scrolled, *content;
  GtkAdjustment *adjustment;
  int natural, shown;

  ck_assert_msg (ds_window_select_device (window, loop, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "info"));
  ds_ui_test_spin (500);
  page = adw_view_stack_get_visible_child (ds_ui_test_window_child (window, "view_stack"));
  scrolled = find_shown_scrolled (page);
  ck_assert_msg (scrolled != NULL, "the Info page does not scroll");
  content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  /* Measured at the width it is laid out at: under ASan+UBSan the page
   * may not be laid out 500 ms in (0 × 0), and at width 0 every label
   * wraps (CI at a032405 measured 3185 px for a page of 1384). */
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       (gtk_widget_get_width (scrolled) == 0 ||
        gtk_widget_get_width (content) < gtk_widget_get_width (scrolled) / 2) &&
       g_get_monotonic_time () < deadline;)
    ds_ui_test_spin (100);
  ck_assert_int_gt (gtk_widget_get_width (scrolled), 0);
  ck_assert_int_ge (gtk_widget_get_width (content), gtk_widget_get_width (scrolled) / 2);
  natural = natural_height (content);
  shown = gtk_widget_get_height (scrolled);
  ck_assert_msg (natural > gtk_widget_get_height (scrolled), "Info fits the window: %d px of %d",
                 natural, gtk_widget_get_height (scrolled));
  ck_assert_uint_eq (count_prefixed_labels (page, "Scheduler"), 1);
  ck_assert_uint_eq (count_prefixed_labels (page, "Partitions and Use"), 1);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment, 40);
  ds_ui_test_spin (100);

  pixbuf = save_and_load (window, "info.png", FALSE);
  printf ("# Info: %d px of %d in the window; the picture %d × %d\n", shown, natural, gdk_pixbuf_get_width (pixbuf), gdk_pixbuf_get_height (pixbuf));
  ck_assert_int_ge (gdk_pixbuf_get_height (pixbuf), natural + 40);
  check_caption (pixbuf, loop, "Info");

  ds_ui_test_spin (300);
  ck_assert_int_eq (gtk_widget_get_height (scrolled), shown);
  ck_assert_double_eq_tol (gtk_adjustment_get_value (adjustment), 40, 0.5);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* ---- Warnings ---------------------------------------------------------- */

/* The visible result, as a comparison takes it (its own copy). */
static DsResult *
copy_result (DsWindow *window)
{
  const DsResult *result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  DsResult *copy;

  ck_assert_ptr_nonnull (result);
  data = ds_result_to_data (result, NULL);
  copy = ds_result_load_data (data, -1, &error);
  ck_assert_msg (copy != NULL, "%s", error ? error->message : "");
  return copy;
}

/* Whether the top rows of @pixbuf are the bar (tinted, with text), not
 * the window's background. */
static gboolean
has_bar (GdkPixbuf     *pixbuf,
         const GdkRGBA *background)
{
  const guchar *p = gdk_pixbuf_read_pixels (pixbuf) + 2 * gdk_pixbuf_get_rowstride (pixbuf);
  gboolean tinted = ABS (p[0] - (int) (background->red * 255)) > 6 ||
                    ABS (p[1] - (int) (background->green * 255)) > 6 ||
                    ABS (p[2] - (int) (background->blue * 255)) > 6;

  return tinted && count_colours (pixbuf, 0, 40) >= 16;
}

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

START_TEST (test_warnings_pictured)
{
  g_autofree char *file = ds_test_make_file ("nodio.img", 48 * MiB, 7);
  g_autofree char *fooled = ds_test_loop_attach_dio (file, FALSE);
  g_autofree char *clean = ds_test_loop_new (48 * MiB, FALSE);
  g_autoptr(GdkPixbuf) shot = NULL;
  g_autoptr(GdkPixbuf) graph = NULL;
  g_autoptr(GdkPixbuf) clean_shot = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
  g_autoptr(GError) error = NULL;
  DsWindow *window = open_window ();
  DsCompareWindow *compare;
  GtkWidget *warnings, *legend_a;
  const char *text;
  GdkRGBA background;
  int row;

  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (window)), "window_bg_color",
                                       &background))
    gdk_rgba_parse (&background, "#fafafa");

  ck_assert_msg (run_benchmark (window, fooled), "the run failed");
  shot = save_and_load (window, "fooled.png", FALSE);
  text = gdk_pixbuf_get_option (shot, "tEXt::Warnings");
  assert_has (text, "loop_no_direct_io", "the Warnings");
  assert_has (text, "direct I/O", "the Warnings");
  check_caption (shot, fooled, "Benchmark");
  ck_assert_msg (has_bar (shot, &background), "the fooled run's picture has no warnings bar");
  graph = save_and_load (window, "fooled-graph.png", TRUE);
  assert_has (gdk_pixbuf_get_option (graph, "tEXt::Warnings"), "loop_no_direct_io", "the graph's Warnings");
  ck_assert_int_gt (gdk_pixbuf_get_height (graph),
                    gtk_widget_get_height (ds_ui_test_benchmark_child (window, "graph")) + 24 + 40);
  g_ptr_array_add (results, copy_result (window));

  ck_assert_msg (run_benchmark (window, clean), "the run failed");
  clean_shot = save_and_load (window, "clean.png", FALSE);
  ck_assert_ptr_null (gdk_pixbuf_get_option (clean_shot, "tEXt::Warnings"));
  ck_assert_msg (!has_bar (clean_shot, &background), "the clean run's picture has a warnings bar");
  g_ptr_array_add (results, copy_result (window));

  /* A fooled figure beside a true one: the comparison says which. */
  compare = ds_compare_window_new (NULL, g_steal_pointer (&results), NULL, DS_UNITS_MB, &error);
  ck_assert_msg (compare != NULL, "%s", error ? error->message : "");
  gtk_window_present (GTK_WINDOW (compare));
  ds_ui_test_wait_mapped (GTK_WIDGET (compare));
  warnings = find_named (GTK_WIDGET (compare), "compare_warnings");
  ck_assert_msg (warnings != NULL, "the comparison shows no warnings");
  ck_assert_uint_eq (count_prefixed_labels (GTK_WIDGET (compare), "Reads were served"), 1);
  ck_assert_msg (ds_ui_test_find_descendant (warnings, GTK_TYPE_IMAGE) != NULL, "the warning has no icon");
  ck_assert_str_eq (gtk_image_get_icon_name (GTK_IMAGE (ds_ui_test_find_descendant (warnings, GTK_TYPE_IMAGE))),
                    "dialog-warning-symbolic");
  /* In A's legend row (the fooled run's), under its name. */
  legend_a = gtk_widget_get_parent (warnings);
  ck_assert (GTK_IS_GRID (gtk_widget_get_parent (legend_a)));
  gtk_grid_query_child (GTK_GRID (gtk_widget_get_parent (legend_a)), legend_a, NULL, &row, NULL, NULL);
  ck_assert_int_eq (row, 0);
  ck_assert_str_eq (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (legend_a))),
                    ds_comparison_get_column (ds_compare_window_get_comparison (compare), 0)->label);
  ds_ui_test_shoot (GTK_WIDGET (compare), "compare-warnings");

  gtk_window_destroy (GTK_WINDOW (compare));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (fooled);
  ds_test_loop_detach (clean);
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

  /* Whole pages, and their warnings (CK_RUN_CASE=whole runs them alone). */
  tc = tcase_create ("whole");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_info_whole);
  tcase_add_test (tc, test_warnings_pictured);
  tcase_add_test (tc, test_sweep_whole);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
