/* ds-library-latency.c: how long the library window takes to show a large
 * library, and to filter it as the user types (tests/bench/library-scale
 * drives it under xvfb-run).
 *
 *   ds-library-latency DIR [SEARCH] [SCREENSHOT.png [HISTORY.png]]
 *
 * Prints "window S", the time from the Results Library action to the
 * window's first frame with rows in it, and "search S", from typing
 * SEARCH to the filtered rows' first frame (both on the main loop, with
 * the index as it is: run it twice for a warm figure).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include <adwaita.h>

#include "ds-library-window.h"
#include "ds-window.h"

/* (Not ds-ui-test-util's: those assert for a check test, this is none.) */
static void
wait_mapped (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!gtk_widget_get_mapped (widget) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
}

static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static GtkWindow *
find_library_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (DS_IS_LIBRARY_WINDOW (toplevel))
        return toplevel;
    }
  return NULL;
}

static void
save_png (GtkWidget  *widget,
          const char *path)
{
  GdkPaintable *paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  g_autoptr(GskRenderNode) node = NULL;

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node != NULL)
    {
      GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (widget));
      g_autoptr(GdkTexture) texture = gsk_renderer_render_texture (renderer, node,
                                                                   &GRAPHENE_RECT_INIT (0, 0, w, h));
      gdk_texture_save_to_png (texture, path);
    }
  g_object_unref (paintable);
}

static gboolean drawn;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  drawn = TRUE;
}

/* Runs the main loop until @model has rows (or, with @wanted, that many)
 * and a frame was painted after that; seconds since @t0. */
static double
wait_rows (GtkWidget  *widget,
           GListModel *model,
           guint       wanted,
           gint64      t0)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gulong id;
  double s;

  while (wanted == 0 ? g_list_model_get_n_items (model) == 0 :
         g_list_model_get_n_items (model) != wanted)
    {
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () - t0 > 300 * G_USEC_PER_SEC)
        return -1;
    }
  drawn = FALSE;
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
  gtk_widget_queue_draw (widget);
  while (!drawn)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
  s = (g_get_monotonic_time () - t0) / 1e6;
  return s;
}

int
main (int argc, char **argv)
{
  DsWindow *window;
  GtkWindow *library = NULL;
  GListModel *rows;
  gint64 t0;
  double s;

  if (argc < 2 || !gtk_init_check ())
    {
      fprintf (stderr, "usage: ds-library-latency DIR [SEARCH] [SCREENSHOT.png] (under xvfb-run -a)\n");
      return 2;
    }
  adw_init ();
  g_setenv ("DISKSCOPE_RESULTS_DIR", argv[1], TRUE);

  window = ds_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  wait_mapped (GTK_WIDGET (window));
  spin (200);

  t0 = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-library", NULL);
  while ((library = find_library_window ()) == NULL)
    g_main_context_iteration (NULL, TRUE);
  wait_mapped (GTK_WIDGET (library));
  rows = G_LIST_MODEL (ds_library_window_get_selection (DS_LIBRARY_WINDOW (library)));
  s = wait_rows (GTK_WIDGET (library), rows, 0, t0);
  /* Rows keep coming until the reload is done: wait for the whole list. */
  spin (300);
  printf ("window %.3f %u\n", s, g_list_model_get_n_items (rows));

  if (argc >= 3)
    {
      guint before = g_list_model_get_n_items (rows);

      t0 = g_get_monotonic_time ();
      ds_library_window_search (DS_LIBRARY_WINDOW (library), argv[2]);
      while (g_list_model_get_n_items (rows) == before)
        {
          g_main_context_iteration (NULL, FALSE);
          if (g_get_monotonic_time () - t0 > 60 * G_USEC_PER_SEC)
            break;
        }
      s = wait_rows (GTK_WIDGET (library), rows, g_list_model_get_n_items (rows), t0);
      printf ("search %.3f %u\n", s, g_list_model_get_n_items (rows));
    }
  if (argc >= 4)
    save_png (GTK_WIDGET (library), argv[3]);
  if (argc >= 5)
    {
      GListModel *toplevels = gtk_window_get_toplevels ();
      GtkWindow *history = NULL;

      ds_library_window_search (DS_LIBRARY_WINDOW (library), "");
      spin (300);
      gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), 0, TRUE);
      gtk_widget_activate_action (GTK_WIDGET (library), "library.history", NULL);
      spin (500);
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

          if (w != GTK_WINDOW (library) && w != GTK_WINDOW (window) && gtk_widget_get_mapped (GTK_WIDGET (w)))
            history = w;
        }
      if (history != NULL)
        save_png (GTK_WIDGET (history), argv[4]);
      else
        fprintf (stderr, "no history window\n");
    }

  return 0;
}
