/* test-ui-library.c: the results library window and the comparison window
 *
 * Runs under Xvfb (suite "ui") as root: two real read benchmarks in the
 * main window on loop devices of different sizes, each saved in the
 * library by the session.  Then, through the windows' actions:
 *  - the library window lists both (and a corrupt file as unreadable),
 *    the search narrows the list, Rename and Tag writes the label and the
 *    tags into the file, Delete hides a row at once and keeps its file
 *    until the undo is gone, Undo brings it back, Open shows the result in
 *    the main window;
 *  - Compare overlays the two: one read graph with a curve and access
 *    dots per result on a % of capacity axis (the sizes differ), each
 *    result's dots can be hidden, the table has a column per result and a
 *    ratio column with the better value marked, and the exports (PNG, SVG,
 *    PDF, CSV, Markdown) are written.
 *  - fio --client results compare as tables (no curves), and results of
 *    different kinds are refused by name;
 *  - a library folder that cannot be made: the run is shown all the same
 *    and the failure names the folder.
 * With DS_SCREENSHOT_DIR set, the two windows are saved there as PNGs
 * (data/screenshots/ is made so).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-compare-window.h"
#include "ds-graph.h"
#include "ds-series.h"
#include "ds-library-window-private.h"
#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-results.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define MiB (UINT64_C (1) << 20)

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 gboolean *finished)
{
  *finished = TRUE;
}

static void
result_saved_cb (DsSession      *session,
                 DsLibraryEntry *entry,
                 gboolean       *saved)
{
  *saved = TRUE;
}

/* A read benchmark, and its result saved in the library on a worker. */
static void
run_benchmark (DsWindow   *window,
               const char *device)
{
  g_autoptr(GError) error = NULL;
  gboolean finished = FALSE;
  gboolean saved = FALSE;
  gulong id = g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);
  gulong saved_id = g_signal_connect (ds_window_get_session (window), "result-saved",
                                      G_CALLBACK (result_saved_cb), &saved);

  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished, 120000, "the end of the run");
  ds_ui_test_wait_for (&saved, 20000, "the result saved in the library");
  g_signal_handler_disconnect (window, id);
  g_signal_handler_disconnect (ds_window_get_session (window), saved_id);
  ck_assert_msg (ds_session_get_last_error (ds_window_get_session (window)) == NULL, "%s",
                 ds_session_get_last_error (ds_window_get_session (window)));
  ck_assert_msg (ds_session_get_library_error (ds_window_get_session (window)) == NULL, "%s",
                 ds_session_get_library_error (ds_window_get_session (window)));
}

/* The visible toplevel of @type, or NULL. */
static GtkWindow *
find_window (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type) && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        found = toplevel;
    }

  return found;
}

static void
wait_n_items (GListModel *model,
              guint       n_items,
              const char *what)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_list_model_get_n_items (model) != n_items && g_get_monotonic_time () < end)
    ds_ui_test_spin (20);
  ck_assert_msg (g_list_model_get_n_items (model) == n_items, "%s: %u rows, expected %u", what,
                 g_list_model_get_n_items (model), n_items);
}

/* The library window, opened from @window's menu, once it lists
 * @n_rows; *@ret_rows: its rows. */
static DsLibraryWindow *
open_library (DsWindow    *window,
              guint        n_rows,
              GListModel **ret_rows)
{
  DsLibraryWindow *library;

  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-library", NULL));
  library = DS_LIBRARY_WINDOW (find_window (DS_TYPE_LIBRARY_WINDOW));
  ck_assert_msg (library != NULL, "no library window");
  ds_ui_test_wait_mapped (GTK_WIDGET (library));
  *ret_rows = G_LIST_MODEL (ds_library_window_get_selection (library));
  wait_n_items (*ret_rows, n_rows, "the library");
  return library;
}

/* The row of @model whose id contains @text, or G_MAXUINT. */
static guint
find_row (GListModel *model,
          const char *text)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (model, i);

      if (strstr (ds_library_entry_get_id (entry), text) != NULL)
        return i;
    }
  return G_MAXUINT;
}

/* The window as the user sees it, when DS_SCREENSHOT_DIR asks for it. */
static void
maybe_screenshot (GtkWindow  *window,
                  const char *name)
{
  const char *dir = g_getenv ("DS_SCREENSHOT_DIR");
  GtkWidget *widget = GTK_WIDGET (window);
  int width, height;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GdkRGBA background;

  if (dir == NULL || *dir == '\0')
    return;

  ds_ui_test_spin (300);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  gdk_rgba_parse (&background, "#fafafa");
  paintable = gtk_widget_paintable_new (gtk_window_get_child (window));
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  path = g_build_filename (dir, name, NULL);
  ck_assert_msg (gdk_texture_save_to_png (texture, path), "could not write %s", path);
}

/* How many labels under @widget contain @text. */
static guint
count_labels (GtkWidget  *widget,
              const char *text)
{
  guint n = 0;

  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    n++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_labels (child, text);
  return n;
}

static void
check_export (DsCompareWindow *compare,
              const char      *name,
              const char      *expect)
{
  g_autofree char *path = g_build_filename (ds_test_scratch_dir (), name, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  ck_assert_msg (ds_compare_window_export (compare, path, &error), "%s: %s", name,
                 error ? error->message : "");
  ck_assert (g_file_get_contents (path, &data, &length, NULL));
  ck_assert_msg (length > 200, "%s: only %" G_GSIZE_FORMAT " bytes", name, length);
  ck_assert_msg (memmem (data, length, expect, strlen (expect)) != NULL, "%s lacks “%s”", name, expect);
}

/* Export to @name, a link to @input (a compared result's file): refused,
 * and @input as it was. */
static void
check_export_kept (DsCompareWindow *compare,
                   const char      *name,
                   const char      *input)
{
  g_autofree char *path = g_build_filename (ds_test_scratch_dir (), name, NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;

  ck_assert (g_file_get_contents (input, &before, NULL, NULL));
  ck_assert_int_eq (symlink (input, path), 0);
  ck_assert_msg (!ds_compare_window_export (compare, path, &error), "%s: exported over %s", name, input);
  ck_assert_msg (strstr (error->message, "one of the inputs") != NULL, "%s: %s", name, error->message);
  ck_assert (g_file_get_contents (input, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
}

START_TEST (test_library_and_compare)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "results", NULL);
  g_autofree char *corrupt = g_build_filename (dir, "20200101-000000-benchmark-broken.json", NULL);
  g_autofree char *small = ds_test_loop_new (160 * MiB, FALSE);
  g_autofree char *large = ds_test_loop_new (288 * MiB, FALSE);
  g_autofree char *small_name = g_path_get_basename (small);
  g_autofree char *large_name = g_path_get_basename (large);
  g_autofree char *kept_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DsResult) relabelled = NULL;
  DsLibraryWindow *library;
  DsCompareWindow *compare;
  GListModel *rows;
  DsWindow *window;
  const DsComparison *cmp;
  DsGraph *graph;
  guint row, n_layers;

  g_setenv ("DISKSCOPE_RESULTS_DIR", dir, TRUE);
  g_mkdir_with_parents (dir, 0700);
  ck_assert (g_file_set_contents (corrupt, "{\"schema\": \"diskscope-res", -1, NULL));

  window = ds_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);
  run_benchmark (window, small);
  run_benchmark (window, large);

  /* The library window lists both runs and the broken file. */
  library = open_library (window, 3, &rows);
  row = find_row (rows, "broken");
  ck_assert_uint_ne (row, G_MAXUINT);
  {
    g_autoptr(DsLibraryEntry) broken = g_list_model_get_item (rows, row);

    ck_assert (!ds_library_entry_is_readable (broken));
    ck_assert_ptr_nonnull (strstr (ds_library_entry_get_error_message (broken), "broken"));
  }
  ck_assert_uint_ne (find_row (rows, small_name), G_MAXUINT);
  ck_assert_uint_ne (find_row (rows, large_name), G_MAXUINT);

  /* Search. */
  ds_library_window_search (library, large_name);
  wait_n_items (rows, 1, "searching the larger device");
  ds_library_window_search (library, "no such thing");
  wait_n_items (rows, 0, "searching nothing");
  ds_library_window_search (library, "");
  wait_n_items (rows, 3, "no search");

  /* Rename and tag the larger one, through the dialog. */
  row = find_row (rows, large_name);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), row, TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.edit", NULL));
  ds_ui_test_spin (100);
  {
    AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (find_window (ADW_TYPE_MESSAGE_DIALOG));

    ck_assert_msg (dialog != NULL, "no Rename and Tag dialog");
    /* Meanwhile a CLI tags it: the dialog's save keeps that tag. */
    {
      g_autoptr(DsLibrary) cli = ds_library_new (dir);
      const char *cli_tags[] = { "from the CLI", NULL };
      DsLibraryEdit edit = { .add_tags = (GStrv) cli_tags };
      g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, row);

      ck_assert (ds_library_reload (cli, NULL, &error));
      ck_assert_msg (ds_library_annotate (cli, ds_library_entry_get_id (entry), &edit, NULL, &error),
                     "%s", error ? error->message : "");
    }
    gtk_editable_set_text (g_object_get_data (G_OBJECT (dialog), "label"), "Array B");
    gtk_editable_set_text (g_object_get_data (G_OBJECT (dialog), "tags"), "RAID 10, FC 8G");
    adw_message_dialog_response (dialog, "save");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  ds_library_window_search (library, "FC 8G");
  wait_n_items (rows, 1, "searching the new tag");
  {
    g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, 0);
    g_autofree char *label = NULL;

    ck_assert_str_eq (ds_library_entry_get_label (entry), "Array B");

    relabelled = ds_result_load (ds_library_entry_get_path (entry), &error);
    ck_assert_msg (relabelled != NULL, "%s", error ? error->message : "");
    label = ds_result_dup_label (relabelled);
    ck_assert_str_eq (label, "Array B");
    ck_assert (ds_annotation_has_tag (&relabelled->annotation, "RAID 10"));
    ck_assert (ds_annotation_has_tag (&relabelled->annotation, "from the CLI"));
  }
  ds_library_window_search (library, "");
  wait_n_items (rows, 3, "no search");

  /* Export: the result, its report, a fio job that reproduces it. */
  {
    g_autofree char *json = g_build_filename (ds_test_scratch_dir (), "copy.json", NULL);
    g_autofree char *txt = g_build_filename (ds_test_scratch_dir (), "copy.txt", NULL);
    g_autofree char *job = g_build_filename (ds_test_scratch_dir (), "copy.fio", NULL);
    g_autofree char *text = NULL;
    g_autoptr(DsResult) copy = NULL;

    ck_assert (_ds_library_export_result (relabelled, NULL, json, DS_UNITS_MB, &error));
    copy = ds_result_load (json, &error);
    ck_assert_msg (copy != NULL, "%s", error ? error->message : "");
    ck_assert_str_eq (copy->target.path, large);
    ck_assert (_ds_library_export_result (relabelled, NULL, txt, DS_UNITS_MB, &error));
    ck_assert (g_file_get_contents (txt, &text, NULL, NULL));
    ck_assert_ptr_nonnull (strstr (text, "Transfer Rate"));
    g_clear_pointer (&text, g_free);
    ck_assert_msg (_ds_library_export_result (relabelled, NULL, job, DS_UNITS_MB, &error), "%s",
                   error ? error->message : "");
    ck_assert (g_file_get_contents (job, &text, NULL, NULL));
    ck_assert_ptr_nonnull (strstr (text, "direct=1"));
    ck_assert_ptr_nonnull (strstr (text, large));
  }

  /* Export never replaces the library file it copies: as JSON by its
   * name, as a report or a job through a link to it. */
  {
    g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, find_row (rows, large_name));
    const char *file = ds_library_entry_get_path (entry);
    g_autofree char *txt = g_build_filename (ds_test_scratch_dir (), "to-entry.txt", NULL);
    g_autofree char *fio = g_build_filename (ds_test_scratch_dir (), "to-entry.fio", NULL);
    const char *paths[] = { file, txt, fio };
    g_autofree char *before = NULL;

    ck_assert (g_file_get_contents (file, &before, NULL, NULL));
    ck_assert_int_eq (symlink (file, txt), 0);
    ck_assert_int_eq (symlink (file, fio), 0);
    for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
      {
        g_autofree char *after = NULL;

        g_clear_error (&error);
        ck_assert_msg (!_ds_library_export_result (relabelled, file, paths[i], DS_UNITS_MB, &error),
                       "exported over its own file through %s", paths[i]);
        ck_assert_msg (strstr (error->message, "one of the inputs") != NULL, "%s", error->message);
        ck_assert (g_file_get_contents (file, &after, NULL, NULL));
        ck_assert_str_eq (after, before);
      }
    g_clear_error (&error);
  }

  /* The same through the window: Export → As a fio Job, the suggested
   * name kept in a folder of ours, the file written on a worker. */
  {
    g_autoptr(DsLibraryEntry) entry = NULL;
    g_autoptr(GFile) folder = g_file_new_for_path (ds_test_scratch_dir ());
    g_autofree char *name = NULL;
    g_autofree char *job = NULL;
    g_autofree char *text = NULL;
    g_autofree char *current_name = NULL;
    gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    GtkWindow *dialog;

    row = find_row (rows, large_name);
    entry = g_list_model_get_item (rows, row);
    name = g_strdup_printf ("%s.fio", ds_library_entry_get_id (entry));
    job = g_build_filename (ds_test_scratch_dir (), name, NULL);
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), row, TRUE);
    ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.export", "s", "fio"));
    ck_assert_ptr_nonnull (library->chooser);
    ds_ui_test_spin (100);
    /* No portal here: the native chooser is GTK's own dialog. */
    dialog = find_window (GTK_TYPE_FILE_CHOOSER_DIALOG);
    ck_assert_msg (dialog != NULL, "no file chooser shown");
    current_name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
    ck_assert_str_eq (current_name, name);
    g_clear_pointer (&current_name, g_free);
    ck_assert (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL));
    gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
    while (!g_file_test (job, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
      ds_ui_test_spin (20);
    ck_assert_msg (g_file_test (job, G_FILE_TEST_EXISTS), "Export wrote no %s", job);
    ck_assert_ptr_null (library->chooser);
    ck_assert (g_file_get_contents (job, &text, NULL, NULL));
    ck_assert_ptr_nonnull (strstr (text, "direct=1"));
  }

  /* Delete the broken file: gone from the list at once, its file stays
   * until the undo is gone; Undo brings it back. */
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), find_row (rows, "broken"), TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.delete", NULL));
  wait_n_items (rows, 2, "after the delete");
  ck_assert (g_file_test (corrupt, G_FILE_TEST_EXISTS));
  {
    const char *ids[] = { "20200101-000000-benchmark-broken", NULL };

    ck_assert (gtk_widget_activate_action_variant (GTK_WIDGET (library), "library.undo-delete",
                                                   g_variant_new_strv (ids, -1)));
  }
  wait_n_items (rows, 3, "after the undo");
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), find_row (rows, "broken"), TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.delete", NULL));
  wait_n_items (rows, 2, "after the second delete");
  ds_library_window_flush_deletes (library);
  ck_assert (!g_file_test (corrupt, G_FILE_TEST_EXISTS));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (ds_session_get_library (ds_window_get_session (window)))), 2);

  gtk_selection_model_select_all (GTK_SELECTION_MODEL (rows));
  maybe_screenshot (GTK_WINDOW (library), "library.png");

  /* Sorted by a column: size, largest first; by label; by date. */
  {
    GListModel *cols = gtk_column_view_get_columns (library->column_view);
    g_autoptr(GtkColumnViewColumn) size = g_list_model_get_item (cols, 2);
    g_autoptr(GtkColumnViewColumn) label = g_list_model_get_item (cols, 0);
    g_autoptr(GtkColumnViewColumn) date = g_list_model_get_item (cols, 4);

    ck_assert_str_eq (gtk_column_view_column_get_title (size), "Size");
    gtk_column_view_sort_by_column (library->column_view, size, GTK_SORT_DESCENDING);
    ck_assert_uint_eq (find_row (rows, large_name), 0);
    gtk_column_view_sort_by_column (library->column_view, size, GTK_SORT_ASCENDING);
    ck_assert_uint_eq (find_row (rows, small_name), 0);
    /* "Loop device /dev/loopN · …" (its model and path) after "Array B" */
    gtk_column_view_sort_by_column (library->column_view, label, GTK_SORT_DESCENDING);
    ck_assert_uint_eq (find_row (rows, small_name), 0);
    /* The larger one ran second. */
    gtk_column_view_sort_by_column (library->column_view, date, GTK_SORT_DESCENDING);
    ck_assert_uint_eq (find_row (rows, large_name), 0);
  }

  /* Compare the two: a % of capacity axis, a curve and dots each. */
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.compare", NULL));
  {
    gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while ((compare = DS_COMPARE_WINDOW (find_window (DS_TYPE_COMPARE_WINDOW))) == NULL &&
           g_get_monotonic_time () < end)
      ds_ui_test_spin (20);
  }
  ck_assert_msg (compare != NULL, "no comparison window");
  ds_ui_test_wait_mapped (GTK_WIDGET (compare));
  cmp = ds_compare_window_get_comparison (compare);
  ck_assert_uint_eq (ds_comparison_get_n_columns (cmp), 2);
  ck_assert (cmp->x_percent);
  graph = ds_compare_window_get_graph (compare, FALSE);
  ck_assert_ptr_nonnull (graph);
  ck_assert_ptr_null (ds_compare_window_get_graph (compare, TRUE));
  ck_assert_int_eq (ds_graph_get_x_axis (graph), DS_GRAPH_AXIS_FRACTION);
  ck_assert_int_eq (ds_graph_get_y_axis (graph, DS_GRAPH_SIDE_RIGHT), DS_GRAPH_AXIS_LATENCY);
  n_layers = ds_graph_get_n_layers (graph);
  ck_assert_uint_eq (n_layers, 4);
  for (guint i = 0; i < n_layers; i++)
    {
      DsGraphLayer *layer = ds_graph_get_layer (graph, i);

      ck_assert (ds_graph_layer_has_points (layer));
      /* x is a fraction of each capacity. */
      ck_assert (ds_graph_layer_get_x_extent (layer) <= 1.0);
      ck_assert (ds_graph_layer_get_x_extent (layer) > 0.9);
    }
  ck_assert_str_ne (ds_graph_layer_get_color (ds_graph_get_layer (graph, 0)),
                    ds_graph_layer_get_color (ds_graph_get_layer (graph, 2)));
  ds_compare_window_set_show_access (compare, 0, FALSE);
  ck_assert_uint_eq (ds_graph_get_n_layers (graph), 3);
  ds_compare_window_set_show_access (compare, 0, TRUE);
  ck_assert_uint_eq (ds_graph_get_n_layers (graph), 4);

  /* The table: a column per result, the ratio column, the better value
   * of each figure marked, as shown. */
  {
    guint marked = 0;

    ck_assert_uint_gt (cmp->rows->len, 3);
    for (guint r = 0; r < cmp->rows->len; r++)
      marked += ((DsCompareRow *) cmp->rows->pdata[r])->best >= 0;
    ck_assert_uint_gt (marked, 0);
    ck_assert_uint_eq (count_labels (GTK_WIDGET (compare), "B/A"), 1);
    ck_assert_uint_eq (count_labels (GTK_WIDGET (compare), "▲") + count_labels (GTK_WIDGET (compare), "▼"),
                       marked);
    ck_assert_uint_ge (count_labels (GTK_WIDGET (compare), "Transfer Rate Average"), 1);
  }

  check_export (compare, "cmp.png", "\x89PNG");
  check_export (compare, "cmp.svg", "<svg");
  check_export (compare, "cmp.pdf", "%PDF");
  check_export (compare, "cmp.csv", "B/A");
  check_export (compare, "cmp.md", "| B/A");
  /* Never over a compared result: the window knows their library files. */
  {
    GListModel *model = G_LIST_MODEL (ds_session_get_library (ds_window_get_session (window)));

    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (model, i);
        const char *file = ds_library_entry_get_path (entry);
        g_autofree char *png = g_strdup_printf ("to-entry-%u.png", i);
        g_autofree char *md = g_strdup_printf ("to-entry-%u.md", i);

        check_export_kept (compare, png, file);
        check_export_kept (compare, md, file);
      }
  }
  {
    g_autofree char *bad = g_build_filename (ds_test_scratch_dir (), "cmp.doc", NULL);

    ck_assert (!ds_compare_window_export (compare, bad, &error));
    ck_assert_ptr_nonnull (strstr (error->message, "cmp.doc"));
    g_clear_error (&error);
  }

  maybe_screenshot (GTK_WINDOW (compare), "compare.png");
  gtk_window_destroy (GTK_WINDOW (compare));

  /* Open: the main window shows the chosen result. */
  row = find_row (rows, small_name);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), row, TRUE);
  {
    g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, row);

    kept_path = g_strdup (ds_library_entry_get_path (entry));
  }
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.open", NULL));
  {
    gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    const DsResult *shown = NULL;

    while (g_get_monotonic_time () < end)
      {
        shown = ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER);
        if (shown != NULL && g_strcmp0 (shown->target.path, small) == 0)
          break;
        ds_ui_test_spin (20);
      }
    ck_assert_msg (shown != NULL && g_strcmp0 (shown->target.path, small) == 0,
                   "the main window does not show %s", kept_path);
  }

  gtk_window_destroy (GTK_WINDOW (library));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_ui_test_spin (50);
  ds_test_loop_detach (small);
  ds_test_loop_detach (large);
}
END_TEST

/* A library folder that cannot be made: the run is shown all the same,
 * and the failure names the folder. */
START_TEST (test_unsaved_run_is_kept)
{
  g_autofree char *blocker = g_build_filename (ds_test_scratch_dir (), "not-a-folder", NULL);
  g_autofree char *dir = g_build_filename (blocker, "results", NULL);
  g_autofree char *loop = ds_test_loop_new (48 * MiB, FALSE);
  g_autoptr(GError) error = NULL;
  gboolean finished = FALSE, saved = FALSE;
  DsWindow *window;
  DsSession *session;
  const char *message;

  ck_assert (g_file_set_contents (blocker, "", 0, NULL));
  g_setenv ("DISKSCOPE_RESULTS_DIR", dir, TRUE);
  window = ds_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  session = ds_window_get_session (window);
  ds_session_set_accuracy (session, 1);
  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);
  g_signal_connect (session, "result-saved", G_CALLBACK (result_saved_cb), &saved);
  ck_assert (ds_window_set_page (window, "benchmark"));
  ck_assert_msg (ds_window_select_device (window, loop, &error), "%s", error ? error->message : "");
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished, 120000, "the end of the run");
  ds_ui_test_wait_for (&saved, 20000, "the save's answer");

  message = ds_session_get_library_error (session);
  ck_assert_msg (message != NULL, "the save into %s did not fail", dir);
  ck_assert_msg (strstr (message, dir) != NULL, "the message does not name %s: %s", dir, message);
  ds_test_note ("%s", message);
  ck_assert_ptr_nonnull (ds_session_get_result (session, DS_BENCH_TRANSFER));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (ds_session_get_library (session))), 0);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_ui_test_spin (50);
  ds_test_loop_detach (loop);
}
END_TEST

/* The widgets of @type under @widget, in order. */
static void
collect_widgets (GtkWidget *widget,
                 GType      type,
                 GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, type, found);
}

/* A device's history: three real runs of one device, and the History
 * window draws their headline figure against the runs' dates, one point
 * per run, above the text `results history` prints. */
START_TEST (test_history_graph)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "history-results", NULL);
  g_autofree char *loop = ds_test_loop_new (96 * MiB, FALSE);
  g_autoptr(GPtrArray) graphs = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  DsLibraryWindow *library;
  GtkWindow *history = NULL;
  GListModel *rows, *toplevels;
  DsWindow *window;
  DsSeries *series;
  gboolean listed = FALSE;

  g_setenv ("DISKSCOPE_RESULTS_DIR", dir, TRUE);
  window = ds_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);
  for (int i = 0; i < 3; i++)
    run_benchmark (window, loop);

  library = open_library (window, 3, &rows);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), 0, TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.history", NULL));
  ds_ui_test_spin (200);

  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);
      const char *title = gtk_window_get_title (toplevel);

      if (title != NULL && g_str_has_prefix (title, "History of ") && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        history = toplevel;
    }
  ck_assert_msg (history != NULL, "no History window");
  ds_ui_test_wait_mapped (GTK_WIDGET (history));

  collect_widgets (GTK_WIDGET (history), DS_TYPE_GRAPH, graphs);
  ck_assert_uint_eq (graphs->len, 1);
  ck_assert_int_eq (ds_graph_get_x_axis (graphs->pdata[0]), DS_GRAPH_AXIS_DATE);
  ck_assert_int_eq (ds_graph_get_y_axis (graphs->pdata[0], DS_GRAPH_SIDE_LEFT), DS_GRAPH_AXIS_RATE);
  series = ds_graph_layer_get_series (ds_graph_get_layer (graphs->pdata[0], 0));
  ck_assert_uint_eq (ds_series_get_n_points (series), 3);
  /* Each point is a run: its date and its headline figure, oldest first. */
  for (guint i = 0; i < 3; i++)
    {
      const DsSeriesPoint *p = &ds_series_get_points (series)[i];
      gboolean matched = FALSE;

      for (guint r = 0; r < 3 && !matched; r++)
        {
          g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, r);
          const char *key, *name;
          int unit;
          double value;

          ck_assert (ds_library_entry_get_headline (entry, &key, &name, &unit, &value));
          matched = p->x == (double) g_date_time_to_unix (ds_library_entry_get_date (entry)) &&
                    p->y == value;
        }
      ck_assert_msg (matched, "point %u (%.0f, %.0f) is no run's", i, p->x, p->y);
      if (i > 0)
        ck_assert_double_ge (p->x, ds_series_get_points (series)[i - 1].x);
    }
  /* The text below names each run. */
  collect_widgets (GTK_WIDGET (history), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (rows, 2);

      listed = listed || strstr (gtk_label_get_text (labels->pdata[i]), ds_library_entry_get_id (entry)) != NULL;
    }
  ck_assert (listed);
  maybe_screenshot (history, "history.png");

  gtk_window_destroy (history);
  gtk_window_destroy (GTK_WINDOW (library));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_ui_test_spin (50);
  ds_test_loop_detach (loop);
}
END_TEST

/* Runs of three drives, one of them seen under two /dev names: the
 * header's drop-down lists the three devices (by serial, not by /dev
 * name), shows one device's runs and then all again, keeps the device
 * shown when another run is saved, and finds a device by its serial. */
START_TEST (test_device_filter)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "device-results", NULL);
  const struct { const char *serial, *path, *date; } runs[] = {
    { "WD-WCC7K1", "/dev/sdb", "2024-01-01T10:00:00Z" },
    { "WD-WCC7K1", "/dev/sdc", "2024-02-01T10:00:00Z" },
    { "S3Z9NB0K", "/dev/sdb", "2024-02-15T10:00:00Z" },
    { "ZA1B2C3D", "/dev/sdd", "2024-03-01T10:00:00Z" },
  };
  g_autoptr(GError) error = NULL;
  DsLibraryWindow *library;
  GListModel *rows, *names;
  DsWindow *window;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0755), 0);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr(DsResult) r = ds_test_library_transfer ("WDC WD40EFRX", UINT64_C (4000787030016), 1e8, 2e8,
                                                       0.012, runs[i].date);
      g_autofree char *file = g_strdup_printf ("%s/run-%u.json", dir, i);

      g_free (r->target.path);
      r->target.path = g_strdup (runs[i].path);
      r->target.serial = g_strdup (runs[i].serial);
      ck_assert_msg (ds_result_save (r, file, &error), "%s", error ? error->message : "");
    }

  g_setenv ("DISKSCOPE_RESULTS_DIR", dir, TRUE);
  window = ds_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  library = open_library (window, 4, &rows);
  /* The drop-down is made at idle after the rows (slower under ASan). */
  {
    gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    while ((gtk_drop_down_get_model (library->device_dropdown) == NULL ||
            g_list_model_get_n_items (gtk_drop_down_get_model (library->device_dropdown)) < 4) &&
           g_get_monotonic_time () < until)
      ds_ui_test_spin (20);
  }

  names = gtk_drop_down_get_model (library->device_dropdown);
  ck_assert_ptr_nonnull (names);
  ck_assert_uint_eq (g_list_model_get_n_items (names), 4);
  ck_assert (gtk_widget_get_visible (GTK_WIDGET (library->device_dropdown)));
  ck_assert_str_eq (gtk_string_list_get_string (GTK_STRING_LIST (names), 0), "All Devices");
  for (guint i = 1; i < 4; i++)
    ds_test_note ("device %u: %s", i, gtk_string_list_get_string (GTK_STRING_LIST (names), i));

  /* By serial: the drive seen as sdb and sdc is one device of two runs. */
  ck_assert (ds_library_window_show_device (library, "WD-WCC7K1"));
  wait_n_items (rows, 2, "the device's runs");
  ck_assert_ptr_nonnull (strstr (gtk_string_list_get_string (GTK_STRING_LIST (names),
                                                             gtk_drop_down_get_selected (library->device_dropdown)),
                                 "serial WD-WCC7K1"));
  ck_assert_uint_ne (find_row (rows, "run-0"), G_MAXUINT);
  ck_assert_uint_ne (find_row (rows, "run-1"), G_MAXUINT);
  maybe_screenshot (GTK_WINDOW (library), "library-device.png");
  /* Nothing selected: History is the device shown. */
  ck_assert_uint_eq (gtk_bitset_get_size (gtk_selection_model_get_selection (GTK_SELECTION_MODEL (rows))), 0);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.history", NULL));
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkWindow *history = NULL;

    ds_ui_test_spin (200);
    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);
        const char *title = gtk_window_get_title (toplevel);

        if (title != NULL && g_str_has_prefix (title, "History of ") && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
          history = toplevel;
      }
    ck_assert_msg (history != NULL && g_str_has_prefix (gtk_window_get_title (history), "History of ") &&
                   strstr (gtk_window_get_title (history), "WD-WCC7K1") != NULL,
                   "%s", history != NULL ? gtk_window_get_title (history) : "no window");
    gtk_window_destroy (history);
  }

  /* The search narrows within the device. */
  ds_library_window_search (library, "sdc");
  wait_n_items (rows, 1, "the search within the device");
  ds_library_window_search (library, "");
  wait_n_items (rows, 2, "the device's runs again");

  /* A new run of that drive joins the rows shown; the device stays. */
  {
    g_autoptr(DsResult) r = ds_test_library_transfer ("WDC WD40EFRX", UINT64_C (4000787030016), 1e8, 2e8,
                                                     0.012, "2024-04-01T10:00:00Z");

    g_free (r->target.path);
    r->target.path = g_strdup ("/dev/sde");
    r->target.serial = g_strdup ("WD-WCC7K1");
    ck_assert (ds_library_save (ds_session_get_library (ds_window_get_session (window)), r, NULL, &error) != NULL);
  }
  wait_n_items (rows, 3, "the device's three runs");

  ck_assert (!ds_library_window_show_device (library, "no-such-disk"));
  ck_assert (ds_library_window_show_device (library, NULL));
  wait_n_items (rows, 5, "every run");

  gtk_window_destroy (GTK_WINDOW (library));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_ui_test_spin (50);
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
}
END_TEST

/* fio --client results of four host-jobs and the aggregate: workloads,
 * compared as tables (no curves), five columns and their ratios. */
START_TEST (test_compare_fio_hosts)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "fio-results", NULL);
  g_autofree char *fixture = g_build_filename (DS_TEST_FIXTURES_DIR, "fio", "fio-3.33-client.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *md = g_build_filename (ds_test_scratch_dir (), "hosts.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr(DsLibrary) library = ds_library_new (dir);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
  g_autoptr(GError) error = NULL;
  const DsComparison *cmp;
  DsCompareWindow *compare;
  guint n;
  int rc;

  rc = ds_test_cli (&out, &err, "import-fio", fixture, "--results-dir", dir, NULL);
  ck_assert_msg (rc == 0, "import-fio: exit %d: %s", rc, err);
  ck_assert (ds_library_reload (library, NULL, &error));
  n = g_list_model_get_n_items (G_LIST_MODEL (library));
  ck_assert_uint_ge (n, 3);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (G_LIST_MODEL (library), i);
      DsResult *result = ds_library_entry_load (entry, &error);

      ck_assert_msg (result != NULL, "%s", error ? error->message : "");
      g_ptr_array_add (results, result);
    }

  compare = ds_compare_window_new (NULL, g_steal_pointer (&results), NULL, DS_UNITS_MB, &error);
  ck_assert_msg (compare != NULL, "%s", error ? error->message : "");
  gtk_window_present (GTK_WINDOW (compare));
  ds_ui_test_wait_mapped (GTK_WIDGET (compare));
  cmp = ds_compare_window_get_comparison (compare);
  ck_assert_int_eq (cmp->kind, DS_BENCH_WORKLOAD);
  ck_assert_uint_eq (ds_comparison_get_n_columns (cmp), n);
  ck_assert_ptr_null (ds_compare_window_get_graph (compare, FALSE));
  ck_assert_ptr_null (ds_compare_window_get_graph (compare, TRUE));
  ck_assert_uint_gt (cmp->rows->len, 2);
  ck_assert (ds_compare_window_export (compare, md, &error));
  ck_assert (g_file_get_contents (md, &text, NULL, NULL));
  ck_assert_ptr_nonnull (strstr (text, "| E/A"));
  ck_assert_uint_eq (count_labels (GTK_WIDGET (compare), "E/A"), 1);
  maybe_screenshot (GTK_WINDOW (compare), "compare-fio-hosts.png");
  gtk_window_destroy (GTK_WINDOW (compare));

  /* Two disks of one size: x in GB over the whole span, a read graph
   * only (no write was run). */
  {
    g_autoptr(GPtrArray) same = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
    DsCompareWindow *gb;
    DsGraph *graph;

    g_ptr_array_add (same, ds_test_library_transfer ("DX440", 146 * (uint64_t) 1000000000, 40e6, 80e6, 0.008,
                                                    "2012-10-19T02:10:00Z"));
    g_ptr_array_add (same, ds_test_library_transfer ("CX3-80", 146 * (uint64_t) 1000000000, 90e6, 160e6, 0.006,
                                                    "2012-10-19T04:10:00Z"));
    gb = ds_compare_window_new (NULL, g_steal_pointer (&same), NULL, DS_UNITS_MB, &error);
    ck_assert_msg (gb != NULL, "%s", error ? error->message : "");
    graph = ds_compare_window_get_graph (gb, FALSE);
    ck_assert_ptr_nonnull (graph);
    ck_assert_ptr_null (ds_compare_window_get_graph (gb, TRUE));
    ck_assert_int_eq (ds_graph_get_x_axis (graph), DS_GRAPH_AXIS_POSITION);
    ck_assert_double_eq_tol (ds_graph_get_x_max (graph), 146e9, 1e6);
    ck_assert_double_gt (ds_graph_layer_get_x_extent (ds_graph_get_layer (graph, 0)), 100e9);
    gtk_window_destroy (GTK_WINDOW (gb));
  }

  /* Results of different kinds are refused, naming them. */
  {
    g_autoptr(GPtrArray) mixed = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
    g_autoptr(DsLibraryEntry) entry = g_list_model_get_item (G_LIST_MODEL (library), 0);
    DsResult *other = ds_library_entry_load (entry, &error);
    const char *sources[] = { "fio-host", "our-run", NULL };

    ck_assert_ptr_nonnull (other);
    g_ptr_array_add (mixed, other);
    g_ptr_array_add (mixed, ds_test_library_transfer ("Disk", 1000000000, 100e6, 200e6, 0.005,
                                                     "2026-11-30T12:00:00Z"));
    ck_assert_ptr_null (ds_compare_window_new (NULL, g_steal_pointer (&mixed),
                                               sources, DS_UNITS_MB, &error));
    ck_assert_ptr_nonnull (strstr (error->message, "our-run"));
  }
}
END_TEST

/* Replays have no page: the library lists them, Open says so without a
 * crash, and the comparison shows their table (no graphs) with the
 * capture's rows. */
START_TEST (test_replay_results)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "replays", NULL);
  g_autofree char *md = g_build_filename (ds_test_scratch_dir (), "replays.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) two = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
  g_autoptr(GError) error = NULL;
  const DsComparison *cmp;
  DsLibraryWindow *library;
  DsCompareWindow *compare;
  GListModel *rows;
  DsWindow *window;

  g_setenv ("DISKSCOPE_RESULTS_DIR", dir, TRUE);
  g_mkdir_with_parents (dir, 0700);
  for (guint i = 0; i < 2; i++)
    {
      DsResult *r = ds_test_replay_result ();
      g_autofree char *path = g_strdup_printf ("%s/2026010%u-030405-replay-sdz.json", dir, i + 1);

      g_free (r->started_at);
      r->started_at = g_strdup_printf ("2026-01-0%uT03:04:05Z", i + 1);
      ck_assert_msg (ds_result_save (r, path, &error), "%s", error ? error->message : "");
      g_ptr_array_add (two, r);
    }

  window = ds_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  library = open_library (window, 2, &rows);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), 0, TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (library), "library.open", NULL));
  ds_ui_test_spin (300);
  maybe_screenshot (GTK_WINDOW (library), "library-replays.png");

  compare = ds_compare_window_new (NULL, g_steal_pointer (&two), NULL, DS_UNITS_MB, &error);
  ck_assert_msg (compare != NULL, "%s", error ? error->message : "");
  gtk_window_present (GTK_WINDOW (compare));
  ds_ui_test_wait_mapped (GTK_WIDGET (compare));
  cmp = ds_compare_window_get_comparison (compare);
  ck_assert_int_eq (cmp->kind, DS_BENCH_REPLAY);
  ck_assert_ptr_null (ds_compare_window_get_graph (compare, FALSE));
  ck_assert_ptr_null (ds_compare_window_get_graph (compare, TRUE));
  /* 15 figures of the replay (its depth among them), 8 against the capture. */
  ck_assert_uint_eq (cmp->rows->len, 23);
  ck_assert (ds_compare_window_export (compare, md, &error));
  ck_assert (g_file_get_contents (md, &text, NULL, NULL));
  ck_assert_msg (strstr (text, "Capture latency p99") != NULL, "%s", text);
  maybe_screenshot (GTK_WINDOW (compare), "compare-replays.png");
  gtk_window_destroy (GTK_WINDOW (compare));
  gtk_window_destroy (GTK_WINDOW (library));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_ui_test_spin (50);
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-library");
  /* The file chooser records what it saved as recently used, by the
   * program's name (an app has one from GApplication). */
  g_set_prgname ("test-ui-library");
  g_set_application_name ("Diskscope tests");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-library");
  tc = tcase_create ("library");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 280);
  tcase_add_test (tc, test_library_and_compare);
  tcase_add_test (tc, test_compare_fio_hosts);
  tcase_add_test (tc, test_unsaved_run_is_kept);
  tcase_add_test (tc, test_history_graph);
  tcase_add_test (tc, test_device_filter);
  tcase_add_test (tc, test_replay_results);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
