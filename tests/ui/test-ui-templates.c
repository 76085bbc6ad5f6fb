/* test-ui-templates.c: every widget template builds, the graph draws
 *
 * Runs under Xvfb (suite "ui"); no root, no devices.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>

#include "ds-benchmark-page.h"
#include "ds-block-size-page.h"
#include "ds-extra-page.h"
#include "ds-file-page.h"
#include "ds-graph.h"
#include "ds-bench.h"
#include "ds-info-page.h"
#include "ds-page.h"
#include "ds-pages.h"
#include "ds-preferences-window.h"
#include "ds-random-access-page.h"
#include "ds-series.h"
#include "ds-window.h"
#include "ds-write-confirm-dialog.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"

/* Builds @type, checks a template child exists, and destroys it. */
static void
check_widget (GType       type,
              const char *child_name)
{
  GtkWidget *widget = g_object_ref_sink (g_object_new (type, NULL));
  GObject *child;

  ck_assert_ptr_nonnull (widget);
  if (child_name != NULL)
    {
      child = gtk_widget_get_template_child (widget, type, child_name);
      ck_assert_msg (child != NULL, "%s has no template child %s", g_type_name (type), child_name);
    }

  if (GTK_IS_WINDOW (widget))
    gtk_window_destroy (GTK_WINDOW (widget));
  g_object_unref (widget);
}

/* Every page of the page table builds, is a DsPage, and the window shows
 * it under its name; a new window makes only the page it shows, the others
 * when they are first asked for. */
START_TEST (test_pages)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  DsWindow *window = ds_window_new (NULL);
  AdwViewStack *stack = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                      DS_TYPE_WINDOW, "view_stack"));
  const char *visible = adw_view_stack_get_visible_child_name (stack);

  ck_assert_uint_ge (n_pages, 6);
  ck_assert_ptr_nonnull (visible);
  for (guint i = 0; i < n_pages; i++)
    {
      GtkWidget *place = adw_view_stack_get_child_by_name (stack, pages[i].name);
      gboolean shown_first = g_strcmp0 (pages[i].name, visible) == 0;

      ck_assert_msg (ADW_IS_BIN (place), "the window has no place for %s", pages[i].name);
      ck_assert_msg ((adw_bin_get_child (ADW_BIN (place)) != NULL) == shown_first,
                     "%s was %s before it was shown", pages[i].name, shown_first ? "not made" : "made");
    }
  for (guint i = 0; i < n_pages; i++)
    {
      GtkWidget *page = g_object_ref_sink (g_object_new (pages[i].get_type (), NULL));
      GtkWidget *shown = ds_window_get_page_widget (window, pages[i].name);
      GtkWidget *place = adw_view_stack_get_child_by_name (stack, pages[i].name);

      ck_assert_msg (DS_IS_PAGE (page), "%s is not a DsPage", pages[i].name);
      ck_assert_msg (shown != NULL && G_OBJECT_TYPE (shown) == pages[i].get_type (),
                     "the window does not show %s", pages[i].name);
      ck_assert (adw_bin_get_child (ADW_BIN (place)) == shown);
      ck_assert (ds_window_get_page_widget (window, pages[i].name) == shown);
      ck_assert (ds_pages_lookup (pages[i].name) == &pages[i]);
      if (pages[i].kind < DS_BENCH_N_KINDS)
        {
          ck_assert (ds_pages_for_kind (pages[i].kind) == &pages[i]);
          /* Every kind a page runs, the core runs: no "not available". */
          ck_assert_ptr_nonnull (ds_bench_get (pages[i].kind)->run);
        }
      g_object_unref (page);
    }
  ck_assert_ptr_null (ds_pages_lookup ("no-such-page"));

  /* The template children the other tests and the window rely on. */
  check_widget (DS_TYPE_BENCHMARK_PAGE, "graph");
  check_widget (DS_TYPE_BENCHMARK_PAGE, "read_layer");
  check_widget (DS_TYPE_EXTRA_PAGE, "table");
  check_widget (DS_TYPE_RANDOM_ACCESS_PAGE, "graph");
  check_widget (DS_TYPE_BLOCK_SIZE_PAGE, "write_layer");
  check_widget (DS_TYPE_FILE_PAGE, "folder_row");
  check_widget (DS_TYPE_INFO_PAGE, "stack");

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

START_TEST (test_windows)
{
  check_widget (DS_TYPE_PREFERENCES_WINDOW, "units_row");
  check_widget (DS_TYPE_WINDOW, "view_stack");
  check_widget (DS_TYPE_WRITE_CONFIRM_DIALOG, "entry");
}
END_TEST

START_TEST (test_series)
{
  g_autoptr(DsSeries) series = ds_series_new ();

  ds_series_append (series, 0, 100, 0);
  ds_series_append (series, 1, 0, 5);      /* a failed point: not in min */
  ds_series_append (series, 2, 50, 0);
  ck_assert_uint_eq (ds_series_get_n_points (series), 3);
  ck_assert (ds_series_get_min_y (series) == 50);
  ck_assert (ds_series_get_max_y (series) == 100);
  ck_assert (ds_series_get_max_x (series) == 2);
  ds_series_clear (series);
  ck_assert_uint_eq (ds_series_get_n_points (series), 0);
}
END_TEST

/* The graph draws something on every x axis, with one layer or two on two
 * vertical axes, empty or full, including failed points; the dots layer
 * scales its axis to the bulk of its dots. */
START_TEST (test_graph_draws)
{
  const DsGraphAxis x_axes[] = { DS_GRAPH_AXIS_POSITION, DS_GRAPH_AXIS_BLOCK_SIZE };

  for (guint a = 0; a < G_N_ELEMENTS (x_axes); a++)
    for (int with_access = 0; with_access < 2; with_access++)
      for (int empty = 0; empty < 2; empty++)
        {
          GtkWidget *window = gtk_window_new ();
          g_autoptr(DsSeries) read = ds_series_new ();
          g_autoptr(DsSeries) access = ds_series_new ();
          GtkWidget *graph = ds_ui_test_graph_new (x_axes[a], read, with_access ? access : NULL);
          g_autoptr(GdkPaintable) paintable = NULL;
          g_autoptr(GskRenderNode) node = NULL;
          GtkSnapshot *snapshot;

          for (int i = 0; !empty && i < 200; i++)
            ds_series_append (read, x_axes[a] == DS_GRAPH_AXIS_BLOCK_SIZE ? exp2 (9 + i % 15) : i * 1e7,
                              1e8 + 1e7 * sin (i / 10.0), i == 100 ? 5 : 0);
          for (int i = 0; !empty && i < 1000; i++)
            ds_series_append (access, i * 2e6, 0.001 * (1 + i % 7), 0);
          if (!empty)
            ds_series_append (access, 0, 1.0, 0);   /* one slow access */

          ds_graph_set_x_max (DS_GRAPH (graph), 2e9);
          gtk_window_set_child (GTK_WINDOW (window), graph);
          gtk_window_set_default_size (GTK_WINDOW (window), 800, 400);
          gtk_window_present (GTK_WINDOW (window));

          while (gtk_widget_get_width (graph) == 0)
            g_main_context_iteration (NULL, TRUE);

          paintable = gtk_widget_paintable_new (graph);
          snapshot = gtk_snapshot_new ();
          gdk_paintable_snapshot (paintable, snapshot,
                                  gtk_widget_get_width (graph), gtk_widget_get_height (graph));
          node = gtk_snapshot_free_to_node (snapshot);
          ck_assert_msg (node != NULL, "axis %d (access %d, empty %d) drew nothing",
                         x_axes[a], with_access, empty);
          ck_assert_uint_eq (ds_graph_get_n_layers (DS_GRAPH (graph)), with_access ? 2 : 1);

          if (with_access && !empty)
            {
              /* 1001 dots, the slowest 1 s: the axis is scaled to twice
               * the 99th percentile (7 ms), not to the outlier. */
              double extent = ds_graph_layer_get_y_extent (ds_graph_get_layer (DS_GRAPH (graph), 1));

              ck_assert_msg (fabs (extent - 0.014) < 1e-9, "the dots' extent is %g s", extent);
            }

          gtk_window_destroy (GTK_WINDOW (window));
        }
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("ui-templates");
  TCase *tc = tcase_create ("templates");

  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_pages);
  tcase_add_test (tc, test_windows);
  tcase_add_test (tc, test_series);
  tcase_add_test (tc, test_graph_draws);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
