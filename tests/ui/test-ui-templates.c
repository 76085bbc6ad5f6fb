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
#include "ds-info-page.h"
#include "ds-page.h"
#include "ds-preferences-window.h"
#include "ds-random-access-page.h"
#include "ds-series.h"
#include "ds-window.h"
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

START_TEST (test_pages)
{
  check_widget (DS_TYPE_BENCHMARK_PAGE, "graph");
  check_widget (DS_TYPE_EXTRA_PAGE, "table");
  check_widget (DS_TYPE_RANDOM_ACCESS_PAGE, "graph");
  check_widget (DS_TYPE_BLOCK_SIZE_PAGE, "graph");
  check_widget (DS_TYPE_FILE_PAGE, "folder_row");
  check_widget (DS_TYPE_INFO_PAGE, "stack");
}
END_TEST

START_TEST (test_windows)
{
  check_widget (DS_TYPE_PREFERENCES_WINDOW, "units_row");
  check_widget (DS_TYPE_WINDOW, "view_stack");
}
END_TEST

START_TEST (test_page_kinds)
{
  GtkWidget *page = g_object_ref_sink (g_object_new (DS_TYPE_BENCHMARK_PAGE, NULL));
  GtkWidget *info = g_object_ref_sink (g_object_new (DS_TYPE_INFO_PAGE, NULL));

  ck_assert_int_eq (ds_page_get_kind (DS_PAGE (page)), DS_BENCH_TRANSFER);
  ck_assert_int_eq (ds_page_get_kind (DS_PAGE (info)), DS_BENCH_N_KINDS);
  ck_assert (!ds_page_can_run (DS_PAGE (info)));

  g_object_unref (page);
  g_object_unref (info);
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

/* The graph draws something in every mode, empty or full, including
 * failed points. */
START_TEST (test_graph_draws)
{
  for (int mode = DS_GRAPH_TRANSFER; mode <= DS_GRAPH_BLOCK_SIZE; mode++)
    {
      GtkWidget *window = gtk_window_new ();
      GtkWidget *graph = ds_graph_new ();
      g_autoptr(DsSeries) read = ds_series_new ();
      g_autoptr(DsSeries) access = ds_series_new ();
      g_autoptr(GdkPaintable) paintable = NULL;
      g_autoptr(GskRenderNode) node = NULL;
      GtkSnapshot *snapshot;

      for (int i = 0; i < 200; i++)
        ds_series_append (read, mode == DS_GRAPH_BLOCK_SIZE ? exp2 (9 + i % 15) : i * 1e7,
                          1e8 + 1e7 * sin (i / 10.0), i == 100 ? 5 : 0);
      for (int i = 0; i < 1000; i++)
        ds_series_append (access, i * 2e6, 0.001 * (1 + i % 7), 0);

      ds_graph_set_mode (DS_GRAPH (graph), mode);
      ds_graph_set_x_max (DS_GRAPH (graph), 2e9);
      ds_graph_set_read (DS_GRAPH (graph), read);
      ds_graph_set_access (DS_GRAPH (graph), access);
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
      ck_assert_msg (node != NULL, "mode %d drew nothing", mode);

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
  tcase_add_test (tc, test_page_kinds);
  tcase_add_test (tc, test_series);
  tcase_add_test (tc, test_graph_draws);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
