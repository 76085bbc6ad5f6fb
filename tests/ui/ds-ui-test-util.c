/* ds-ui-test-util.c: what the display tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-benchmark-page.h"
#include "ds-dots-layer.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-ui-test-util.h"

void
ds_ui_test_setup (void)
{
  g_autoptr(GtkCssProvider) css = NULL;

  ck_assert_msg (gtk_init_check (), "no display: run under xvfb-run -a");
  adw_init ();
  /* As the app is named by its GApplication: GTK's recent files warn
   * (a fatal warning in the tests) about an unnamed application. */
  if (g_get_prgname () == NULL)
    g_set_prgname ("diskscope-ui-test");
  if (g_get_application_name () == NULL)
    g_set_application_name ("Diskscope tests");

  /* What AdwApplication loads for the app: the windows look the same
   * without one. */
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, RESOURCE_BASE "style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

void
ds_ui_test_spin (guint ms)
{
  gint64 deadline = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

void
ds_ui_test_wait_mapped (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!gtk_widget_get_mapped (widget) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  ck_assert (gtk_widget_get_mapped (widget));
}

static void
after_paint_cb (GdkFrameClock *clock,
                guint         *n_painted)
{
  (*n_painted)++;
}

/* Waits until @widget's window has painted @frames frames with @widget
 * mapped and given a size: a page made when it is first shown is then laid
 * out, however slow the build (under ASan+UBSan a page's first layout can
 * come later than any fixed wait; CI at 7e32b66 measured a Monitor page
 * whose viewport was still 0 × 0 300 ms after it was shown). */
void
ds_ui_test_wait_drawn (GtkWidget *widget,
                       guint      frames)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  GdkFrameClock *clock;
  guint n_painted = 0;
  gulong handler;

  ds_ui_test_wait_mapped (widget);
  clock = gtk_widget_get_frame_clock (widget);
  ck_assert (clock != NULL);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &n_painted);
  while (g_get_monotonic_time () < deadline &&
         (n_painted < frames || gtk_widget_get_width (widget) == 0 || gtk_widget_get_height (widget) == 0))
    {
      gtk_widget_queue_draw (widget);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, handler);
  ck_assert_msg (n_painted >= frames && gtk_widget_get_width (widget) > 0,
                 "a %s was not drawn in 30 s (%u frames, %d × %d)", G_OBJECT_TYPE_NAME (widget),
                 n_painted, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
}

gboolean
ds_ui_test_spin_until (const gboolean *flag,
                       guint           timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!*flag && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (500);
  return *flag;
}

void
ds_ui_test_wait_for (const gboolean *flag,
                     guint           timeout_ms,
                     const char     *what)
{
  ck_assert_msg (ds_ui_test_spin_until (flag, timeout_ms), "%s did not happen within %u ms", what,
                 timeout_ms);
}

gpointer
ds_ui_test_benchmark_child (DsWindow   *window,
                            const char *name)
{
  GtkWidget *page = ds_window_get_page_widget (window, "benchmark");

  ck_assert_msg (page != NULL, "the window has no benchmark page");
  return gtk_widget_get_template_child (page, DS_TYPE_BENCHMARK_PAGE, name);
}

gpointer
ds_ui_test_page_child (DsWindow   *window,
                       const char *page_name,
                       const char *name)
{
  GtkWidget *page = ds_window_get_page_widget (window, page_name);
  gpointer child;

  ck_assert_msg (page != NULL, "the window has no page “%s”", page_name);
  child = gtk_widget_get_template_child (page, G_OBJECT_TYPE (page), name);
  ck_assert_msg (child != NULL, "the page “%s” has no “%s”", page_name, name);
  return child;
}

void
ds_ui_test_keep_screenshot (DsWindow   *window,
                            const char *name)
{
  const char *dir = g_getenv ("DS_UI_TEST_SCREENSHOTS");
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GtkSnapshot *snapshot;
  GdkRGBA background;
  int width, height;

  if (dir == NULL)
    return;

  /* Let the last frames and style transitions end. */
  ds_ui_test_spin (600);
  width = gtk_widget_get_width (content);
  height = gtk_widget_get_height (content);
  gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (window)),
                                  "window_bg_color", &background);
  paintable = gtk_widget_paintable_new (content);
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  path = g_build_filename (dir, name, NULL);
  ck_assert_msg (gdk_texture_save_to_png (texture, path), "could not write %s", path);
  printf ("# screenshot: %s (%d x %d)\n", path, width, height);
}

guint
ds_ui_test_count_colour (GtkWidget     *widget,
                         const GdkRGBA *colour,
                         int            x0,
                         int            y0,
                         int            x1,
                         int            y1)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  guint n = 0;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  ck_assert (node != NULL);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);

  for (int y = MAX (y0, 0); y < MIN (y1, height); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, width); x++)
      {
        /* GDK_MEMORY_DEFAULT: B G R A, premultiplied; opaque here. */
        const guchar *p = pixels + ((gsize) y * width + x) * 4;

        if (abs (p[2] - (int) (colour->red * 255)) < 24 &&
            abs (p[1] - (int) (colour->green * 255)) < 24 &&
            abs (p[0] - (int) (colour->blue * 255)) < 24)
          n++;
      }

  return n;
}

DsSeries *
ds_ui_test_benchmark_series (DsWindow   *window,
                             const char *layer)
{
  return ds_graph_layer_get_series (DS_GRAPH_LAYER (ds_ui_test_benchmark_child (window, layer)));
}

gpointer
ds_ui_test_window_child (DsWindow   *window,
                         const char *name)
{
  gpointer child = gtk_widget_get_template_child (GTK_WIDGET (window), DS_TYPE_WINDOW, name);

  ck_assert_msg (child != NULL, "the window has no template child %s", name);
  return child;
}

GtkWidget *
ds_ui_test_find_descendant (GtkWidget *widget,
                            GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = ds_ui_test_find_descendant (child, type)) != NULL)
        return found;
    }

  return NULL;
}

GtkWindow *
ds_ui_test_find_toplevel (GType      type,
                          GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* transfer none */
  GtkWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type) &&
          gtk_window_get_transient_for (toplevel) == parent &&
          gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        found = toplevel;
    }

  return found;
}

gboolean
ds_ui_test_press_keys (GtkWidget       *widget,
                       guint            keyval,
                       GdkModifierType  modifiers)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers)
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }

  return FALSE;
}

typedef struct {
  gboolean     done;
  DsBenchKind  kind;
  GError      *error;
} Opened;

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Opened *opened = user_data;

  opened->kind = ds_session_open_result_finish (DS_SESSION (object), result, &opened->error);
  opened->done = TRUE;
}

gboolean
ds_ui_test_open_result (DsWindow    *window,
                        const char  *path,
                        GError     **error)
{
  Opened opened = { 0 };

  ds_session_open_result_async (ds_window_get_session (window), path, NULL, opened_cb, &opened);
  ds_ui_test_wait_for (&opened.done, 10000, "opening the result");
  if (opened.error != NULL)
    {
      g_propagate_error (error, opened.error);
      return FALSE;
    }

  /* The page that shows it may be made only now, when it is first shown:
   * a shown window waits for it to be laid out and painted, however slow
   * the build (CI at fb3bcb1, under ASan+UBSan: a screenshot 200 ms after
   * opening found the page not yet mapped). */
  if (gtk_widget_get_mapped (GTK_WIDGET (window)))
    {
      AdwViewStack *stack = ds_ui_test_window_child (window, "view_stack");

      ds_ui_test_wait_drawn (adw_view_stack_get_visible_child (stack), 2);
    }
  return TRUE;
}

GtkWidget *
ds_ui_test_graph_new (DsGraphAxis  x_axis,
                      DsSeries    *rate,
                      DsSeries    *access)
{
  GtkWidget *graph = ds_graph_new ();
  g_autoptr(DsGraphLayer) line = ds_line_layer_new ();
  g_autoptr(DsGraphLayer) dots = ds_dots_layer_new ();

  ds_graph_set_x_axis (DS_GRAPH (graph), x_axis);
  g_object_set (line,
                "series", rate,
                "title", "Read",
                "fill", x_axis == DS_GRAPH_AXIS_POSITION,
                "legend", DS_GRAPH_LEGEND_DRAWN,
                NULL);
  ds_graph_add_layer (DS_GRAPH (graph), line);

  if (access != NULL)
    {
      ds_graph_set_y_axis (DS_GRAPH (graph), DS_GRAPH_SIDE_RIGHT, DS_GRAPH_AXIS_LATENCY);
      g_object_set (dots,
                    "series", access,
                    "title", "Access time",
                    "color", "warning_color",
                    "y-axis", DS_GRAPH_SIDE_RIGHT,
                    NULL);
      ds_graph_add_layer (DS_GRAPH (graph), dots);
    }

  return graph;
}

AdwMessageDialog *
ds_ui_test_find_dialog (DsWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* transfer none */
  AdwMessageDialog *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel) &&
          gtk_window_get_transient_for (toplevel) == GTK_WINDOW (window) &&
          gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        found = ADW_MESSAGE_DIALOG (toplevel);
    }

  return found;
}

void
ds_ui_test_shoot (GtkWidget  *widget,
                  const char *name)
{
  const char *dir = g_getenv ("DS_UI_TEST_SHOTS");
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  int width, height;

  if (dir == NULL || *dir == '\0')
    return;

  /* Drawn as it is now: let pending layout and frames run first. */
  ds_ui_test_spin (200);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  ck_assert_msg (width > 0 && height > 0 && renderer != NULL, "%s: nothing shown to shoot", name);

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  ck_assert_ptr_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_mkdir_with_parents (dir, 0755);
  file = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file, NULL);
  ck_assert_msg (gdk_texture_save_to_png (texture, path), "could not save %s", path);
}

static gpointer
sweep_child (GtkWidget  *page,
             const char *name)
{
  gpointer child = gtk_widget_get_template_child (page, G_OBJECT_TYPE (page), name);

  if (child == NULL)
    g_error ("the Saturation page has no %s", name);
  return child;
}

void
ds_ui_test_set_sweep (GtkWidget *page,
                      guint      over,
                      guint      from,
                      guint      to,
                      guint      time_index)
{
  gtk_drop_down_set_selected (sweep_child (page, "pattern_dropdown"), 0);
  gtk_drop_down_set_selected (sweep_child (page, "block_dropdown"), 0);
  gtk_drop_down_set_selected (sweep_child (page, "over_dropdown"), over);
  gtk_spin_button_set_value (sweep_child (page, "from_spin"), from);
  gtk_spin_button_set_value (sweep_child (page, "to_spin"), to);
  gtk_drop_down_set_selected (sweep_child (page, "time_dropdown"), time_index);
  gtk_check_button_set_active (sweep_child (page, "steady_button"), FALSE);
}
