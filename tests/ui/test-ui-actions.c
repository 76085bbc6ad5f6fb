/* test-ui-actions.c: the window's actions on a real loop device
 *
 * Runs under Xvfb (suite "ui") as root: loop devices.  Covers:
 *  - the write confirmation: the wrong name writes nothing (checksum
 *    unchanged), even if "destroy" is forced; the right name runs the write;
 *  - Save report (the file is ds_report_text() of the result), Copy as text
 *    (the clipboard holds the same text), Save result and Open result (a new
 *    window shows the saved run's figures and curve), a broken file refused;
 *  - Preferences: MiB/s changes the figures' text, and back.
 * The file choosers are bypassed through the window's helpers; the rest goes
 * through the actions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-bench-transfer.h"
#include "ds-benchmark-page.h"
#include "ds-graph.h"
#include "ds-preferences-window.h"
#include "ds-report.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-ui-test-util.h"

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

static DsWindow *
open_window (Finished *finished)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  if (finished != NULL)
    g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), finished);
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);
  return window;
}

static void
wait_finished (Finished *finished,
               guint     timeout_ms)
{
  ds_ui_test_wait_for (&finished->finished, timeout_ms, "the end of the run");
  /* The last frames. */
  ds_ui_test_spin (100);
}

static const char *
label_text (DsWindow   *window,
            const char *name)
{
  return gtk_label_get_label (GTK_LABEL (ds_ui_test_benchmark_child (window, name)));
}

/* A read benchmark of @device, run to its end in @window. */
static void
run_benchmark (DsWindow   *window,
               const char *device)
{
  g_autoptr(GError) error = NULL;
  Finished finished = { 0 };
  gulong id = g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);

  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  wait_finished (&finished, 60000);
  g_signal_handler_disconnect (window, id);
  ck_assert_msg (finished.success, "the run failed: %s", ds_session_get_last_error (ds_window_get_session (window)));
  ck_assert_ptr_nonnull (ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER));
}

static AdwMessageDialog *
find_dialog (DsWindow *window)
{
  return ds_ui_test_find_dialog (window);
}

static AdwMessageDialog *
start_write (DsWindow *window)
{
  AdwMessageDialog *dialog;

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (ds_ui_test_benchmark_child (window, "write_button")), TRUE);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.start", NULL));
  ds_ui_test_spin (50);
  dialog = find_dialog (window);
  ck_assert_msg (dialog != NULL, "no confirmation dialog");
  /* Nothing runs before the answer. */
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  return dialog;
}

START_TEST (test_write_confirmation)
{
  g_autofree char *loop = ds_test_loop_new (32 * MiB, FALSE);
  g_autofree char *before = ds_test_checksum (loop);
  g_autofree char *after_wrong = NULL;
  g_autofree char *after_right = NULL;
  g_autofree char *wrong = g_strconcat (loop, "0", NULL);
  g_autoptr(GError) error = NULL;
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished);
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  ck_assert_msg (ds_window_select_device (window, loop, &error), "%s", error ? error->message : "");

  /* The wrong name: the button stays disabled, and even a forced
   * "destroy" writes nothing. */
  dialog = start_write (window);
  ck_assert_msg (strstr (adw_message_dialog_get_heading (dialog), loop) != NULL,
                 "the heading does not name %s: %s", loop, adw_message_dialog_get_heading (dialog));
  entry = adw_message_dialog_get_extra_child (dialog);
  ck_assert (GTK_IS_EDITABLE (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), wrong);
  ck_assert (!adw_message_dialog_get_response_enabled (dialog, "destroy"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  ck_assert (!adw_message_dialog_get_response_enabled (dialog, "destroy"));
  gtk_editable_set_text (GTK_EDITABLE (entry), wrong);
  adw_message_dialog_response (dialog, "destroy");
  ds_ui_test_spin (500);
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  ck_assert (!finished.finished);
  after_wrong = ds_test_checksum (loop);
  ck_assert_str_eq (after_wrong, before);

  /* Cancel: nothing either. */
  dialog = start_write (window);
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), loop);
  adw_message_dialog_response (dialog, "cancel");
  ds_ui_test_spin (200);
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));

  /* The right name: the write runs. */
  dialog = start_write (window);
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), loop);
  ck_assert (adw_message_dialog_get_response_enabled (dialog, "destroy"));
  adw_message_dialog_response (dialog, "destroy");
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  wait_finished (&finished, 60000);
  ck_assert_msg (finished.success, "the write test failed: %s", ds_session_get_last_error (ds_window_get_session (window)));
  ck_assert (ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER)->spec.write);
  after_right = ds_test_checksum (loop);
  ck_assert_str_ne (after_right, before);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

typedef struct {
  gboolean done;
  char    *text;
} ClipboardRead;

static void
clipboard_text_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static char *
clipboard_text (GtkWidget *widget)
{
  ClipboardRead read = { 0 };
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_text_cb, &read);
  while (!read.done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
  ck_assert_msg (read.done, "the clipboard did not answer");
  return read.text;
}

START_TEST (test_save_copy_open)
{
  g_autofree char *loop = ds_test_loop_new (32 * MiB, FALSE);
  g_autofree char *report_path = g_build_filename (ds_test_scratch_dir (), "report.txt", NULL);
  g_autofree char *json_path = g_build_filename (ds_test_scratch_dir (), "result.json", NULL);
  g_autofree char *broken_path = g_build_filename (ds_test_scratch_dir (), "broken.json", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *reopened_report = NULL;
  g_autoptr(GError) error = NULL;
  const char *figures[] = { "min_label", "max_label", "avg_label", "access_label", "burst_label", "cpu_label" };
  DsWindow *window = open_window (NULL);
  DsWindow *other;
  guint n_points;

  /* Nothing to save or copy before a run. */
  ck_assert (!ds_session_save_report (ds_window_get_session (window), DS_BENCH_TRANSFER, report_path, &error));
  g_clear_error (&error);

  run_benchmark (window, loop);
  expected = ds_report_text (ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER), DS_UNITS_MB);
  n_points = ds_series_get_n_points (ds_ui_test_benchmark_series (window, "read_layer"));
  ck_assert_uint_eq (n_points, 200);

  /* Save report: the text report of the run. */
  ck_assert_msg (ds_session_save_report (ds_window_get_session (window), DS_BENCH_TRANSFER, report_path, &error), "%s", error ? error->message : "");
  ck_assert (g_file_get_contents (report_path, &saved, NULL, NULL));
  ck_assert_str_eq (saved, expected);
  ck_assert_msg (strstr (saved, loop) != NULL, "the report does not name %s", loop);

  /* Copy as text (Ctrl+C): the same text on the clipboard. */
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-report", NULL));
  copied = clipboard_text (GTK_WIDGET (window));
  ck_assert_ptr_nonnull (copied);
  ck_assert_str_eq (copied, expected);

  /* Save result, then open it in another window: the same figures and
   * curve on its Benchmark page. */
  ck_assert_msg (ds_session_save_result (ds_window_get_session (window), DS_BENCH_TRANSFER, json_path, &error), "%s", error ? error->message : "");
  other = open_window (NULL);
  ck_assert (ds_window_set_page (other, "info"));
  ck_assert_msg (ds_ui_test_open_result (other, json_path, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (100);
  ck_assert_str_eq (adw_view_stack_get_visible_child_name (
                      ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (other), DS_TYPE_WINDOW,
                                                                     "view_stack"))),
                    "benchmark");
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      ck_assert_msg (strcmp (label_text (window, figures[i]), "—") != 0, "%s shows nothing", figures[i]);
      ck_assert_str_eq (label_text (other, figures[i]), label_text (window, figures[i]));
    }
  ck_assert_uint_eq (ds_series_get_n_points (ds_ui_test_benchmark_series (other, "read_layer")),
                     n_points);
  reopened_report = ds_report_text (ds_session_get_result (ds_window_get_session (other), DS_BENCH_TRANSFER), DS_UNITS_MB);
  ck_assert_str_eq (reopened_report, expected);

  /* A broken file is refused with a message and changes nothing. */
  ck_assert (g_file_set_contents (broken_path, "{\"schema\": \"diskscope-result/1\", ", -1, NULL));
  ck_assert (!ds_ui_test_open_result (other, broken_path, &error));
  ck_assert (error != NULL && error->message[0] != '\0');
  ck_assert_str_eq (label_text (other, "avg_label"), label_text (window, "avg_label"));

  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

START_TEST (test_preferences_units)
{
  g_autofree char *loop = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *mb_text = NULL;
  g_autofree char *mib_text = NULL;
  g_autofree char *report = g_build_filename (ds_test_scratch_dir (), "mib.txt", NULL);
  g_autofree char *report_text = NULL;
  DsWindow *window = open_window (NULL);
  const DsTransferData *data;
  GtkWidget *prefs;
  AdwComboRow *units_row;

  run_benchmark (window, loop);
  data = ds_session_get_result (ds_window_get_session (window), DS_BENCH_TRANSFER)->data;
  mb_text = ds_format_rate (data->read.avg_bytes_per_s, DS_UNITS_MB);
  mib_text = ds_format_rate (data->read.avg_bytes_per_s, DS_UNITS_MIB);
  ck_assert_str_eq (label_text (window, "avg_label"), mb_text);
  ck_assert_msg (strstr (mb_text, "MB/s") != NULL, "%s", mb_text);

  /* Preferences ▸ Units ▸ MiB/s */
  prefs = ds_preferences_window_new (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (prefs));
  units_row = ADW_COMBO_ROW (gtk_widget_get_template_child (prefs, DS_TYPE_PREFERENCES_WINDOW, "units_row"));
  adw_combo_row_set_selected (units_row, 1);
  ds_ui_test_spin (50);
  ck_assert_str_eq (label_text (window, "avg_label"), mib_text);
  ck_assert_msg (strstr (label_text (window, "min_label"), "MiB/s") != NULL, "%s",
                 label_text (window, "min_label"));
  ck_assert_int_eq (ds_graph_get_units (DS_GRAPH (ds_ui_test_benchmark_child (window, "graph"))), DS_UNITS_MIB);
  /* The report follows the setting too. */
  ck_assert (ds_session_save_report (ds_window_get_session (window), DS_BENCH_TRANSFER, report, NULL));
  ck_assert (g_file_get_contents (report, &report_text, NULL, NULL));
  ck_assert_msg (strstr (report_text, "MiB/s") != NULL, "%s", report_text);

  /* And back. */
  adw_combo_row_set_selected (units_row, 0);
  ds_ui_test_spin (50);
  ck_assert_str_eq (label_text (window, "avg_label"), mb_text);

  gtk_window_destroy (GTK_WINDOW (prefs));
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-actions");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-actions");
  tc = tcase_create ("actions");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_write_confirmation);
  tcase_add_test (tc, test_save_copy_open);
  tcase_add_test (tc, test_preferences_units);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
