/* test-ui-workloads.c: the Workloads page on a real loop device
 *
 * Runs under Xvfb (suite "ui") as root: loop devices.  Covers:
 *  - All runs the preset (cdm-peak with R70%/W30%, one 1 s run per step) through the
 *    write confirmation; the series grows while a step measures; at the
 *    end both cells hold figures, the selected cell's series and latency
 *    histogram are drawn with their p50/p99/p99.9 marks, units change the
 *    figures, and a screenshot of the page is not blank;
 *  - the report, the JSON result and Open: a new window shows the same
 *    figures;
 *  - a row's Start runs only that row (reads only: no confirmation, the
 *    device's bytes unchanged);
 *  - Stop mid-preset keeps the steps that finished, and closing the window
 *    while a step runs returns promptly (the worker is joined);
 *  - diskscope --page workloads --start --quit-when-done runs the preset
 *    the page remembers (settings) and exits 0.
 * With DISKSCOPE_SCREENSHOT_DIR set, the page's screenshots also go there
 * (data/screenshots/ is made that way).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-histogram-layer.h"
#include "ds-report.h"
#include "ds-series.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"
#include "ds-settings.h"
#include "ds-workloads-page.h"

#define MiB (UINT64_C (1) << 20)

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

/* The app's style sheet (AdwApplication loads it; these windows have no
 * application): the big figures, as the screenshots show them. */
static void
load_style (void)
{
  static GtkCssProvider *provider;

  if (provider != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, RESOURCE_BASE "style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static DsWindow *
open_window (Finished   *finished,
             const char *device)
{
  DsWindow *window;
  g_autoptr(GError) error = NULL;

  load_style ();
  window = ds_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 860);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), finished);
  ck_assert (ds_window_set_page (window, "workloads"));
  if (device != NULL)
    ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  return window;
}

static DsWorkloadsPage *
get_page (DsWindow *window)
{
  GtkWidget *page = ds_window_get_page_widget (window, "workloads");

  ck_assert_msg (DS_IS_WORKLOADS_PAGE (page), "the window has no Workloads page");
  return DS_WORKLOADS_PAGE (page);
}

static gpointer
page_child (DsWorkloadsPage *page,
            const char      *name)
{
  gpointer child = gtk_widget_get_template_child (GTK_WIDGET (page), DS_TYPE_WORKLOADS_PAGE, name);

  ck_assert_msg (child != NULL, "no template child %s", name);
  return child;
}

static DsSeries *
layer_series (DsWorkloadsPage *page,
              const char      *layer)
{
  return ds_graph_layer_get_series (DS_GRAPH_LAYER (page_child (page, layer)));
}

/* cdm-demo or another preset, one run of 1 s per step, 16 MiB. */
static void
set_quick (DsWorkloadsPage *page,
           const char      *preset,
           gboolean         reads_only)
{
  ck_assert (ds_workloads_page_set_preset (page, preset));
  gtk_drop_down_set_selected (page_child (page, "count_dropdown"), 0);    /* 1 run */
  gtk_drop_down_set_selected (page_child (page, "size_dropdown"), 1);     /* 16 MiB */
  gtk_drop_down_set_selected (page_child (page, "time_dropdown"), 1);     /* 1 s */
  gtk_toggle_button_set_active (page_child (page, "reads_only_button"), reads_only);
}

/* The figure of a cell as a number (it must be one). */
static double
figure (DsWorkloadsPage *page,
        guint            row,
        DsMarkDirection  direction)
{
  const char *text = ds_workloads_page_get_figure (page, row, direction);
  char *end = NULL;
  double value;

  ck_assert_msg (text != NULL, "no cell at row %u, %s", row, ds_mark_direction_to_string (direction));
  value = g_ascii_strtod (text, &end);
  ck_assert_msg (end != text && (*end == '\0' || *end == '*'),
                 "row %u %s shows “%s”, not a figure", row, ds_mark_direction_to_string (direction), text);
  return value;
}

/* Saves the window's PNG and checks it holds more than a background. */
static void
check_screenshot (DsWindow   *window,
                  const char *name)
{
  g_autofree char *path = ds_test_scratch_path (name);
  const char *dir = g_getenv ("DISKSCOPE_SCREENSHOT_DIR");
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  gsize width, height;

  ds_ui_test_spin (300);
  ck_assert_msg (ds_window_save_screenshot (window, path, &error), "%s", error ? error->message : "");
  if (dir != NULL)
    {
      g_autofree char *copy = g_build_filename (dir, name, NULL);

      ck_assert_msg (ds_window_save_screenshot (window, copy, &error), "%s", error ? error->message : "");
    }

  texture = gdk_texture_new_from_filename (path, &error);
  ck_assert_msg (texture != NULL, "%s", error ? error->message : "");
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  pixels = g_malloc (width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);
  for (gsize i = 0; i < width * height; i++)
    g_hash_table_add (colours, GUINT_TO_POINTER (((guint32 *) (gpointer) pixels)[i]));
  /* Text, the big figures, a filled curve and bars: many colours (a
   * blank or unpainted page has a few dozen; a slow sanitized run draws
   * fewer interval points, 190 colours seen). */
  ck_assert_uint_ge (g_hash_table_size (colours), 120);
}

START_TEST (test_all_with_write_confirmation)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *json = ds_test_scratch_path ("workloads.json");
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_autofree char *read_text = NULL;
  Finished finished = { 0 }, other_finished = { 0 };
  DsWindow *window = open_window (&finished, loop);
  DsWorkloadsPage *page = get_page (window);
  DsWindow *other;
  AdwMessageDialog *dialog;
  gboolean live = FALSE;
  double read_mb_s, write_mb_s;
  gint64 deadline;

  set_quick (page, "cdm-peak", FALSE);
  gtk_drop_down_set_selected (page_child (page, "mix_dropdown"), 1);     /* R70%/W30% */
  gtk_editable_set_text (page_child (page, "comment_entry"), "loop device, 1 s runs");

  /* All: the write steps ask for the device's name first. */
  g_signal_emit_by_name (page_child (page, "all_button"), "clicked");
  ds_ui_test_spin (50);
  dialog = ds_ui_test_find_dialog (window);
  ck_assert_msg (dialog != NULL, "no confirmation dialog for a preset that writes (page: %s)",
                 gtk_label_get_label (page_child (page, "error_label")));
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), loop);
  adw_message_dialog_response (dialog, "destroy");
  ck_assert (ds_session_is_running (ds_window_get_session (window)));

  /* Live: the measuring step's series grows before the run ends. */
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!finished.finished && g_get_monotonic_time () < deadline && !live)
    {
      ds_ui_test_spin (20);
      live = ds_session_is_running (ds_window_get_session (window)) &&
             ds_series_get_n_points (layer_series (page, "rate_layer")) >= 2;
    }
  ck_assert_msg (live, "no live series while the preset ran");
  /* The histogram too, before the step ends. */
  ck_assert_msg (ds_series_get_n_points (layer_series (page, "histogram_layer")) > 0,
                 "no live histogram while the step measured");
  ck_assert_ptr_nonnull (strstr (gtk_label_get_label (page_child (page, "histogram_title")),
                                 "so far"));
  /* The menus rest while it runs: what they say is what runs. */
  ck_assert (!gtk_widget_get_sensitive (page_child (page, "preset_dropdown")));
  ck_assert (!gtk_widget_get_sensitive (page_child (page, "all_button")));
  check_screenshot (window, "workloads-live.png");

  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the preset");
  ds_ui_test_spin (100);
  ck_assert_msg (finished.success, "the preset failed: %s",
                 ds_session_get_last_error (ds_window_get_session (window)));

  ck_assert (gtk_widget_get_sensitive (page_child (page, "preset_dropdown")));
  read_mb_s = figure (page, 0, DS_MARK_READ);
  write_mb_s = figure (page, 0, DS_MARK_WRITE);
  ck_assert_msg (read_mb_s > 1 && write_mb_s > 1, "read %g, write %g MB/s", read_mb_s, write_mb_s);
  for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    ck_assert (figure (page, 1, d) > 0);

  /* The first finished cell is selected: its series and histogram. */
  ds_workloads_page_select (page, 0, DS_MARK_READ);
  ck_assert_uint_ge (ds_series_get_n_points (layer_series (page, "rate_layer")), 3);
  ck_assert_uint_ge (ds_series_get_n_points (layer_series (page, "p99_layer")), 3);
  ck_assert_uint_ge (ds_series_get_n_points (layer_series (page, "histogram_layer")), 2);
  ck_assert_msg (strstr (gtk_label_get_label (page_child (page, "histogram_title")), "p99") != NULL,
                 "histogram title: %s", gtk_label_get_label (page_child (page, "histogram_title")));
  check_screenshot (window, "workloads.png");

  /* A Mix cell: both directions in one histogram. */
  ds_workloads_page_select (page, 1, DS_MARK_MIX);
  ck_assert_uint_ge (ds_series_get_n_points (layer_series (page, "histogram_layer")), 5);
  ck_assert_msg (strstr (gtk_label_get_label (page_child (page, "histogram_title")), "p99.9") != NULL,
                 "histogram title: %s", gtk_label_get_label (page_child (page, "histogram_title")));
  gtk_drop_down_set_selected (page_child (page, "units_dropdown"), 2);
  check_screenshot (window, "workloads-histogram.png");
  gtk_drop_down_set_selected (page_child (page, "units_dropdown"), 0);

  /* Units: IOPS of 1 MiB steps are the MB/s over 1.048576. */
  gtk_drop_down_set_selected (page_child (page, "units_dropdown"), 2);
  ck_assert_msg (G_APPROX_VALUE (figure (page, 0, DS_MARK_READ), read_mb_s / 1.048576, read_mb_s * 0.01),
                 "IOPS %g for %g MB/s", figure (page, 0, DS_MARK_READ), read_mb_s);
  gtk_drop_down_set_selected (page_child (page, "units_dropdown"), 0);

  /* The report and the result, as the window's actions save them. */
  report = ds_session_get_report (ds_window_get_session (window), DS_BENCH_MARK, &error);
  ck_assert_msg (report != NULL, "%s", error ? error->message : "");
  ck_assert_msg (strstr (report, "SEQ1M") != NULL && strstr (report, "loop device, 1 s runs") != NULL,
                 "the report lacks the row or the comment:\n%s", report);
  ck_assert_msg (ds_session_save_result (ds_window_get_session (window), DS_BENCH_MARK, json, &error),
                 "%s", error ? error->message : "");

  other = open_window (&other_finished, NULL);
  ck_assert_msg (ds_ui_test_open_result (other, json, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (100);
  read_text = g_strdup (ds_workloads_page_get_figure (get_page (other), 0, DS_MARK_READ));
  ck_assert_str_eq (read_text, ds_workloads_page_get_figure (page, 0, DS_MARK_READ));
  ck_assert_str_eq (ds_workloads_page_get_figure (get_page (other), 0, DS_MARK_WRITE),
                    ds_workloads_page_get_figure (page, 0, DS_MARK_WRITE));
  ck_assert_str_eq (gtk_editable_get_text (page_child (get_page (other), "comment_entry")),
                    "loop device, 1 s runs");

  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* A row's button runs that row only; reads only writes nothing. */
START_TEST (test_row_start_reads_only)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *before = ds_test_checksum (loop);
  g_autofree char *after = NULL;
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished, loop);
  DsWorkloadsPage *page = get_page (window);
  GtkWidget *row_button;
  const DsResult *result;
  const DsMarkData *data;

  set_quick (page, "cdm-real-world", TRUE);
  row_button = gtk_grid_get_child_at (page_child (page, "grid"), 0, 2);
  ck_assert (GTK_IS_BUTTON (row_button));
  g_signal_emit_by_name (row_button, "clicked");
  ds_ui_test_spin (50);
  ck_assert_ptr_null (ds_ui_test_find_dialog (window));
  ck_assert_msg (ds_session_is_running (ds_window_get_session (window)), "not running: %s",
                 gtk_label_get_label (page_child (page, "error_label")));
  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the row");
  ck_assert_msg (finished.success, "the row failed: %s",
                 ds_session_get_last_error (ds_window_get_session (window)));

  result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_MARK);
  data = result->data;
  ck_assert_uint_eq (data->steps->len, 1);
  ck_assert_str_eq (((DsMarkStep *) data->steps->pdata[0])->id, "rnd4k-q1t1-read");
  ck_assert_str_eq (ds_workloads_page_get_figure (page, 0, DS_MARK_READ), "—");
  ck_assert_str_eq (ds_workloads_page_get_figure (page, 1, DS_MARK_WRITE), "—");
  ck_assert (figure (page, 1, DS_MARK_READ) > 0);

  after = ds_test_checksum (loop);
  ck_assert_str_eq (after, before);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* Stop keeps what finished; closing mid-step joins the worker. */
START_TEST (test_stop_and_close)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished, loop);
  DsWorkloadsPage *page = get_page (window);
  const DsMarkData *data;
  gint64 deadline, start;

  set_quick (page, "cdm-real-world", TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.start", NULL));
  /* The first row ends (warm-up, run, pause: about 3 s), then Stop. */
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (strcmp (ds_workloads_page_get_figure (page, 0, DS_MARK_READ), "—") == 0 &&
         g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  ds_ui_test_wait_for (&finished.finished, 10000, "the end after Stop");
  data = ds_session_get_result (ds_window_get_session (window), DS_BENCH_MARK)->data;
  ck_assert_uint_ge (data->steps->len, 1);
  ck_assert (((DsMarkStep *) data->steps->pdata[0])->complete);
  ck_assert (figure (page, 0, DS_MARK_READ) > 0);

  /* Again, and close the window while the step measures. */
  finished.finished = FALSE;
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.start", NULL));
  ds_ui_test_spin (1500);
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  start = g_get_monotonic_time ();
  gtk_window_destroy (GTK_WINDOW (window));
  ck_assert_msg (g_get_monotonic_time () - start < 3 * G_USEC_PER_SEC,
                 "closing took %" G_GINT64_FORMAT " ms", (g_get_monotonic_time () - start) / 1000);
  ds_ui_test_spin (100);
  ds_test_loop_detach (loop);
}
END_TEST

/* diskscope --page workloads --start runs the page's remembered preset. */
START_TEST (test_scripted_start)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *config = ds_test_scratch_path ("config");
  g_autofree char *settings_dir = g_build_filename (config, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *png = ds_test_scratch_path ("scripted.png");
  const char *gui = g_getenv ("DISKSCOPE_GUI");
  const char *argv[] = {
    gui, "--device", loop, "--page", "workloads", "--start",
    "--screenshot", png, "--quit-when-done", NULL
  };
  g_autofree char *err = NULL;
  g_autofree char *before = ds_test_checksum (loop);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  int status;

  ck_assert_msg (gui != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  /* What the page remembers (a keyfile instead of dconf): cdm-demo, one
   * run of 1 s, reads only. */
  g_mkdir_with_parents (settings_dir, 0700);
  ck_assert (g_file_set_contents (keyfile,
                                  "[io/github/diskscope/Diskscope]\n"
                                  "workloads-preset='cdm-demo'\n"
                                  "workloads-count=1\n"
                                  "workloads-test-size=16777216\n"
                                  "workloads-time=1\n"
                                  "workloads-reads-only=true\n", -1, &error));
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  start = g_get_monotonic_time ();
  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope exited %d: %s", status, err);
  /* One read step of cdm-demo: a 1 s warm-up and a 1 s run, not 5 × 5 s. */
  ck_assert_msg (g_get_monotonic_time () - start < 30 * G_USEC_PER_SEC, "the scripted run took %" G_GINT64_FORMAT " s",
                 (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
  ck_assert (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  after = ds_test_checksum (loop);
  ck_assert_str_eq (after, before);

  ds_test_loop_detach (loop);
}
END_TEST

/* The histogram's bars: the core's buckets (1/64 octave) summed into
 * eighths of an octave, every I/O kept, each bucket in the bar that holds
 * its upper bound. */
START_TEST (test_histogram_bars)
{
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (DsLatencyBucket));
  g_autoptr(DsSeries) series = ds_series_new ();
  const DsSeriesPoint *points;
  uint64_t total = 0;
  double sum = 0;

  /* Every 1/64-octave bucket from 2^10 to 2^16 ns, count = its index. */
  for (guint i = 1; i <= 6 * 64; i++)
    {
      DsLatencyBucket bucket = { exp2 (10 + i / 64.0) / 1e9, i };

      g_array_append_val (buckets, bucket);
      total += i;
    }
  ds_histogram_series_set_buckets (series, buckets);
  points = ds_series_get_points (series);

  /* 6 octaves of 8 bars. */
  ck_assert_uint_eq (ds_series_get_n_points (series), 6 * DS_HISTOGRAM_BARS_PER_OCTAVE);
  for (guint i = 0; i < ds_series_get_n_points (series); i++)
    {
      double k = log2 (points[i].x) * DS_HISTOGRAM_BARS_PER_OCTAVE;

      ck_assert_msg (fabs (k - round (k)) < 1e-6, "bar %u ends at %g ns, not 2^(k/8)", i, points[i].x);
      ck_assert (i == 0 || points[i].x > points[i - 1].x);
      sum += points[i].y;
    }
  ck_assert_msg ((uint64_t) sum == total, "the bars hold %g I/Os of %" G_GUINT64_FORMAT, sum, total);
  /* The first bar (2^10 ns to 2^(10+1/8)) holds buckets 1 to 8. */
  ck_assert_double_eq_tol (points[0].x, exp2 (10 + 1 / 8.0), 1e-6);
  ck_assert_double_eq_tol (points[0].y, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8, 1e-9);

  /* No buckets: no bars. */
  ds_histogram_series_set_buckets (series, NULL);
  ck_assert_uint_eq (ds_series_get_n_points (series), 0);
}
END_TEST

/* Custom rows: edited in the editor, kept in the settings, run one row at
 * a time (a write row after the typed name); a row's Start keeps the other
 * rows' figures. */
START_TEST (test_custom_rows)
{
  g_autofree char *loop = ds_test_loop_new (64 * MiB, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = ds_settings_new (NULL, NULL);
  g_autofree char *saved = NULL;
  g_autofree char *write_text = NULL;
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished, loop);
  DsWorkloadsPage *page = get_page (window);
  GtkWindow *editor;
  GtkGrid *grid = page_child (page, "grid");
  AdwMessageDialog *dialog;
  const DsResult *result;
  const DsMarkData *data;
  GtkWidget *row_button;
  GtkWidget *label;

  ck_assert (settings != NULL);
  set_quick (page, "cdm-default", FALSE);
  gtk_drop_down_set_selected (page_child (page, "mix_dropdown"), 0);     /* no +Mix column */

  /* Two rows: the first as CrystalDiskMark's Settings would change it, a
   * write row; the other two removed; a bad row refused by the editor. */
  editor = ds_workloads_page_edit_rows (page);
  ck_assert (GTK_IS_WINDOW (editor));
  ck_assert (!ds_workloads_rows_editor_set (editor, 0, "randread,4k,qd4096,t16", &error));
  ck_assert_ptr_nonnull (strstr (error->message, "I/Os in flight"));
  g_clear_error (&error);
  ck_assert (ds_workloads_rows_editor_set (editor, 0, "randread,4k,qd4,t2", &error));
  ck_assert (ds_workloads_rows_editor_set (editor, 1, "randwrite,64k,qd2,t1", &error));
  ck_assert (ds_workloads_rows_editor_set (editor, 3, NULL, &error));
  ck_assert (ds_workloads_rows_editor_set (editor, 2, NULL, &error));
  ds_ui_test_spin (100);
  ds_ui_test_shoot (GTK_WIDGET (editor), "workloads-rows-editor");
  ds_workloads_rows_editor_save (editor);
  ds_ui_test_spin (50);

  ck_assert_str_eq (ds_workloads_page_get_preset (page), "custom");
  saved = g_settings_get_string (settings, "workloads-rows");
  ck_assert_str_eq (saved, "randread,4k,qd4,t2;randwrite,64k,qd2,t1");
  label = gtk_grid_get_child_at (grid, 0, 1);
  ck_assert (GTK_IS_LABEL (label) || GTK_IS_BUTTON (label));
  ck_assert_ptr_nonnull (ds_workloads_page_get_figure (page, 0, DS_MARK_READ));
  ck_assert_ptr_null (ds_workloads_page_get_figure (page, 0, DS_MARK_WRITE));
  ck_assert_ptr_nonnull (ds_workloads_page_get_figure (page, 1, DS_MARK_WRITE));
  ck_assert_ptr_null (ds_workloads_page_get_figure (page, 2, DS_MARK_READ));
  set_quick (page, "custom", FALSE);

  /* The write row: its Start asks for the device's name. */
  row_button = gtk_grid_get_child_at (grid, 0, 2);
  ck_assert (GTK_IS_BUTTON (row_button));
  g_signal_emit_by_name (row_button, "clicked");
  ds_ui_test_spin (50);
  dialog = ds_ui_test_find_dialog (window);
  ck_assert_msg (dialog != NULL, "no confirmation for a custom row that writes (page: %s)",
                 gtk_label_get_label (page_child (page, "error_label")));
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), loop);
  adw_message_dialog_response (dialog, "destroy");
  /* As its button would: a response given from code leaves it open. */
  gtk_window_destroy (GTK_WINDOW (dialog));
  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the write row");
  ck_assert_msg (finished.success, "the row failed: %s",
                 ds_session_get_last_error (ds_window_get_session (window)));
  ck_assert (figure (page, 1, DS_MARK_WRITE) > 1);
  ck_assert_str_eq (ds_workloads_page_get_figure (page, 0, DS_MARK_READ), "—");
  write_text = g_strdup (ds_workloads_page_get_figure (page, 1, DS_MARK_WRITE));

  /* The read row: no question; the write row keeps its figure. */
  finished.finished = FALSE;
  row_button = gtk_grid_get_child_at (grid, 0, 1);
  g_signal_emit_by_name (row_button, "clicked");
  ds_ui_test_spin (50);
  dialog = ds_ui_test_find_dialog (window);
  ck_assert_msg (dialog == NULL, "a dialog for a row that only reads: %s — %s",
                 adw_message_dialog_get_heading (dialog), adw_message_dialog_get_body (dialog));
  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the read row");
  ck_assert (finished.success);
  ck_assert (figure (page, 0, DS_MARK_READ) > 1);
  ck_assert_str_eq (ds_workloads_page_get_figure (page, 1, DS_MARK_WRITE), write_text);

  /* The result is the rows that ran, and says which rows they were. */
  result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_MARK);
  data = result->data;
  ck_assert_str_eq (ds_mark_options_const (&result->spec)->rows, "randread,4k,qd4,t2;randwrite,64k,qd2,t1");
  ck_assert_uint_eq (data->steps->len, 1);
  ck_assert_str_eq (((DsMarkStep *) data->steps->pdata[0])->id, "rnd4k-q4t2-read");
  ck_assert_uint_eq (((DsMarkStep *) data->steps->pdata[0])->threads, 2);
  ds_workloads_page_select (page, 0, DS_MARK_READ);
  check_screenshot (window, "workloads-custom.png");
  gtk_window_destroy (GTK_WINDOW (window));

  /* The next start keeps the rows. */
  finished.finished = FALSE;
  window = open_window (&finished, loop);
  page = get_page (window);
  ck_assert_str_eq (ds_workloads_page_get_preset (page), "custom");
  ck_assert_ptr_nonnull (ds_workloads_page_get_figure (page, 1, DS_MARK_WRITE));
  ck_assert_ptr_null (ds_workloads_page_get_figure (page, 2, DS_MARK_READ));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-workloads");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-workloads");
  tc = tcase_create ("workloads");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_all_with_write_confirmation);
  tcase_add_test (tc, test_row_start_reads_only);
  tcase_add_test (tc, test_stop_and_close);
  tcase_add_test (tc, test_scripted_start);
  tcase_add_test (tc, test_custom_rows);
  suite_add_tcase (suite, tc);

  tc = tcase_create ("histogram");
  tcase_add_test (tc, test_histogram_bars);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
