/* test-ui-health.c: the Health page
 *
 * Runs under Xvfb (suite "ui").  A saved smartctl output opened in the
 * window (as Open Result does) shows its verdict in words with its
 * reasons, and marks the failing or warning attribute rows; an NVMe drive
 * with a critical warning shows its health log; one whose figures cannot
 * be real says Unknown and flags each where it is shown.  Read from a device (as
 * root: a loop device, which has no SMART), and with smartctl missing or
 * printing no JSON, the page says so in a status page.  With a stand-in
 * smartctl, the self-test buttons start a test and the page reads the
 * drive again.  Scripted: --open shows a smartctl file and saves a
 * screenshot; --page health --start on a loop device exits non-zero
 * saying why.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <check.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"
#define MiB (UINT64_C (1) << 20)

typedef struct {
  gboolean finished;
  gboolean success;
  guint    count;
} Finished;

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 Finished *finished)
{
  finished->finished = TRUE;
  finished->success = success;
  finished->count++;
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
  return window;
}

static const char *
child_label (DsWindow   *window,
             const char *name)
{
  return gtk_label_get_label (GTK_LABEL (ds_ui_test_page_child (window, "health", name)));
}

static const char *
visible_state (DsWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (ds_ui_test_page_child (window, "health", "stack")));
}

/* The cells of the attribute table's row whose name is @name, or NULL. */
static GPtrArray *
attribute_row (DsWindow   *window,
               const char *name)
{
  GtkGrid *table = GTK_GRID (ds_ui_test_page_child (window, "health", "attributes_table"));
  GPtrArray *cells = NULL;
  int row = -1;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (table));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), name) == 0)
      gtk_grid_query_child (table, child, NULL, &row, NULL, NULL);
  if (row < 0)
    return NULL;

  cells = g_ptr_array_new ();
  for (int column = 0; column < 8; column++)
    g_ptr_array_add (cells, gtk_grid_get_child_at (table, column, row));
  return cells;
}

static void
open_fixture (DsWindow   *window,
              const char *name)
{
  g_autofree char *path = g_build_filename (FIXTURES, name, NULL);
  g_autoptr(GError) error = NULL;

  ck_assert_msg (ds_ui_test_open_result (window, path, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (100);
}

START_TEST (test_fixture_verdict_and_rows)
{
  DsWindow *window = open_window (NULL);
  g_autoptr(GPtrArray) reallocated = NULL;
  g_autoptr(GPtrArray) raw_read = NULL;
  AdwViewStack *stack = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), DS_TYPE_WINDOW,
                                                                      "view_stack"));

  ck_assert (ds_window_set_page (window, "info"));
  open_fixture (window, "ST3500418AS_12.json");

  /* It lands on the Health page, with the verdict in words and why. */
  ck_assert_str_eq (adw_view_stack_get_visible_child_name (stack), "health");
  ck_assert_str_eq (visible_state (window), "content");
  ck_assert_str_eq (child_label (window, "verdict_label"), "Warning");
  ck_assert (gtk_widget_has_css_class (GTK_WIDGET (ds_ui_test_page_child (window, "health", "verdict_label")),
                                       "warning"));
  ck_assert_msg (strstr (child_label (window, "reasons_label"), "304 reallocated sectors") != NULL,
                 "%s", child_label (window, "reasons_label"));
  /* Not read from a drive: it says so, and offers no self-test. */
  ck_assert_msg (strstr (child_label (window, "source_label"), "saved smartctl") != NULL,
                 "%s", child_label (window, "source_label"));
  ck_assert (!gtk_widget_get_sensitive (GTK_WIDGET (ds_ui_test_page_child (window, "health", "short_button"))));
  {
    const char *subtitle = adw_action_row_get_subtitle (ds_ui_test_page_child (window, "health", "self_test_row"));

    ck_assert_msg (g_str_has_prefix (subtitle, "The saved output holds no self-test status\n") &&
                   strstr (subtitle, "press Start") != NULL, "%s", subtitle);
  }

  /* Attribute 5's row says Warning and is marked; attribute 1's is not. */
  reallocated = attribute_row (window, "Reallocated Sector Ct");
  ck_assert_msg (reallocated != NULL, "no row for attribute 5");
  ck_assert_str_eq (gtk_label_get_label (reallocated->pdata[5]), "304");
  ck_assert_str_eq (gtk_label_get_label (reallocated->pdata[7]), "Warning");
  for (guint i = 0; i < reallocated->len; i++)
    ck_assert (gtk_widget_has_css_class (reallocated->pdata[i], "warning-row"));
  raw_read = attribute_row (window, "Raw Read Error Rate");
  ck_assert (raw_read != NULL);
  ck_assert_str_eq (gtk_label_get_label (raw_read->pdata[7]), "OK");
  ck_assert (!gtk_widget_has_css_class (raw_read->pdata[7], "warning-row"));
  ck_assert (!gtk_widget_has_css_class (raw_read->pdata[7], "failing-row"));
  ds_ui_test_keep_screenshot (window, "health.png");

  /* The report and the saved result are the health's. */
  {
    g_autofree char *report = ds_session_get_report (ds_window_get_session (window), DS_BENCH_HEALTH, NULL);

    ck_assert_ptr_nonnull (report);
    ck_assert_msg (strstr (report, "304 reallocated sectors") != NULL, "%s", report);
  }

  /* An NVMe drive whose controller reports a critical warning. */
  open_fixture (window, "nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
  ck_assert_str_eq (child_label (window, "verdict_label"), "Failing");
  ck_assert (gtk_widget_has_css_class (GTK_WIDGET (ds_ui_test_page_child (window, "health", "verdict_label")),
                                       "error"));
  ck_assert_msg (strstr (child_label (window, "reasons_label"), "volatile memory backup failed") != NULL,
                 "%s", child_label (window, "reasons_label"));
  ck_assert (gtk_widget_get_visible (GTK_WIDGET (ds_ui_test_page_child (window, "health", "nvme_group"))));
  ck_assert (!gtk_widget_get_visible (GTK_WIDGET (ds_ui_test_page_child (window, "health", "attributes_box"))));

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* The action row titled @title under @widget, or NULL. */
static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found;

      if (ADW_IS_ACTION_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return ADW_ACTION_ROW (child);
      found = find_row (child, title);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The suffix label of @row (its value). */
static GtkLabel *
row_value (AdwActionRow *row)
{
  GtkLabel *value = NULL;
  GtkWidget *stack[64];
  int top = 0;

  stack[top++] = GTK_WIDGET (row);
  while (top > 0)
    {
      GtkWidget *w = stack[--top];

      if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "numeric"))
        value = GTK_LABEL (w);
      for (GtkWidget *c = gtk_widget_get_last_child (w); c != NULL && top < 64;
           c = gtk_widget_get_prev_sibling (c))
        stack[top++] = c;
    }
  ck_assert_ptr_nonnull (value);
  return value;
}

/* A saved output whose figures cannot be real (-273 °C, -5 hours, more
 * reallocated sectors than the drive has): the verdict is Unknown, in no
 * status colour, with why; each figure is flagged where it is shown. */
START_TEST (test_flagged_unknown)
{
  DsWindow *window = open_window (NULL);
  GtkWidget *verdict, *condition;
  AdwActionRow *temperature, *hours;
  g_autoptr(GPtrArray) reallocated = NULL;

  open_fixture (window, "made/flagged-ata.json");
  verdict = ds_ui_test_page_child (window, "health", "verdict_label");
  ck_assert_str_eq (visible_state (window), "content");
  ck_assert_str_eq (child_label (window, "verdict_label"), "Unknown");
  ck_assert (!gtk_widget_has_css_class (verdict, "success"));
  ck_assert (!gtk_widget_has_css_class (verdict, "warning"));
  ck_assert (!gtk_widget_has_css_class (verdict, "error"));
  ck_assert_str_eq (gtk_image_get_icon_name (GTK_IMAGE (ds_ui_test_page_child (window, "health",
                                                                               "verdict_icon"))),
                    "dialog-question-symbolic");
  ck_assert_msg (strstr (child_label (window, "reasons_label"), "cannot be judged") != NULL &&
                 strstr (child_label (window, "reasons_label"), "Reallocated_Sector_Ct") != NULL,
                 "%s", child_label (window, "reasons_label"));

  condition = ds_ui_test_page_child (window, "health", "condition_group");
  temperature = find_row (condition, "Temperature");
  hours = find_row (condition, "Power-On Time");
  ck_assert (temperature != NULL && hours != NULL);
  ck_assert_str_eq (gtk_label_get_label (row_value (temperature)), "-273 °C (not plausible)");
  ck_assert (gtk_widget_has_css_class (GTK_WIDGET (row_value (temperature)), "warning"));
  ck_assert_str_eq (adw_action_row_get_subtitle (temperature),
                    "Not plausible: drives work at -40 to 125 °C");
  ck_assert_str_eq (gtk_label_get_label (row_value (hours)), "-5 h (not plausible)");
  ck_assert (gtk_widget_has_css_class (GTK_WIDGET (row_value (hours)), "warning"));

  reallocated = attribute_row (window, "Reallocated Sector Ct");
  ck_assert (reallocated != NULL);
  ck_assert_str_eq (gtk_label_get_label (reallocated->pdata[5]), "281474976710655 (not plausible)");
  ck_assert_str_eq (gtk_label_get_label (reallocated->pdata[7]), "Unknown");
  ck_assert (gtk_widget_has_css_class (reallocated->pdata[5], "warning-row"));
  ds_ui_test_keep_screenshot (window, "health-unknown.png");

  /* No evidence at all: an NVMe log that is not one. */
  open_fixture (window, "made/nvme-log-wrong-type.json");
  ck_assert_str_eq (child_label (window, "verdict_label"), "Unknown");
  ck_assert_msg (strstr (child_label (window, "reasons_label"), "the NVMe health log is not an object") != NULL,
                 "%s", child_label (window, "reasons_label"));

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* Starts the Health page's read of @device and waits for it. */
static void
read_health (DsWindow   *window,
             Finished   *finished,
             const char *device)
{
  g_autoptr(GError) error = NULL;

  finished->finished = FALSE;
  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "health"));
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished->finished, 90000, "the end of the health read");
  ds_ui_test_spin (100);
}

static char *
stand_in (const char *body)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "fake-smartctl", NULL);
  char *path = g_build_filename (dir, "smartctl", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n%s\n", body);

  g_mkdir_with_parents (dir, 0755);
  ck_assert (g_file_set_contents (path, script, -1, NULL));
  ck_assert_int_eq (chmod (path, 0755), 0);
  g_setenv ("DISKSCOPE_SMARTCTL", path, TRUE);
  return path;
}

/* No SMART (a loop device), no smartctl, no JSON: a status page that
 * says which, never a crash. */
START_TEST (test_no_smart)
{
  g_autofree char *loop = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *fake = NULL;
  AdwStatusPage *status;
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished);

  status = ADW_STATUS_PAGE (ds_ui_test_page_child (window, "health", "error_status"));

  /* The real smartctl on a loop device. */
  g_unsetenv ("DISKSCOPE_SMARTCTL");
  read_health (window, &finished, loop);
  ck_assert (!finished.success);
  ck_assert_str_eq (visible_state (window), "error");
  ck_assert_str_eq (adw_status_page_get_title (status), "No SMART Data");
  ck_assert_msg (strstr (adw_status_page_get_description (status), loop) != NULL,
                 "%s", adw_status_page_get_description (status));

  /* smartctl missing. */
  g_setenv ("DISKSCOPE_SMARTCTL", "/nonexistent/smartctl", TRUE);
  read_health (window, &finished, loop);
  ck_assert_str_eq (adw_status_page_get_title (status), "smartctl Is Not Installed");
  ck_assert_msg (strstr (adw_status_page_get_description (status), "smartmontools") != NULL,
                 "%s", adw_status_page_get_description (status));

  /* smartctl that prints no JSON. */
  fake = stand_in ("echo 'smartctl 6.0: unrecognized option --json'; exit 1");
  read_health (window, &finished, loop);
  ck_assert_str_eq (adw_status_page_get_title (status), "smartctl Gave No Usable Output");
  /* Its words ("<data>:1:8: Parse error") are shown as they are, not as markup. */
  ck_assert_msg (pango_parse_markup (adw_status_page_get_description (status), -1, 0, NULL, NULL,
                                     NULL, NULL), "%s", adw_status_page_get_description (status));
  ck_assert_msg (strstr (adw_status_page_get_description (status), "&lt;data&gt;") != NULL,
                 "%s", adw_status_page_get_description (status));
  g_unsetenv ("DISKSCOPE_SMARTCTL");

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* The fixture as smartctl shows it while a short self-test runs (90 %
 * left), after an earlier one that failed at LBA 123456. */
static char *
running_fixture (void)
{
  g_autofree char *path = g_build_filename (FIXTURES, "ST3500418AS_12.json", NULL);
  char *out = g_build_filename (ds_test_scratch_dir (), "running.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonParser) extra = json_parser_new ();
  JsonObject *root, *add;

  ck_assert (json_parser_load_from_file (parser, path, NULL));
  ck_assert (json_parser_load_from_data (extra,
    "{\"self_test\": {\"status\": {\"value\": 249, \"string\": \"in progress, 90% remaining\","
    "                 \"remaining_percent\": 90},"
    "                 \"polling_minutes\": {\"short\": 1, \"extended\": 82}},"
    " \"log\": {\"standard\": {\"table\": [{\"type\": {\"value\": 1, \"string\": \"Short offline\"},"
    "   \"status\": {\"value\": 121, \"string\": \"Completed: read failure\", \"passed\": false},"
    "   \"lifetime_hours\": 44600, \"lba\": 123456}]}}}", -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  add = json_node_get_object (json_parser_get_root (extra));
  if (!json_object_has_member (root, "ata_smart_data"))
    json_object_set_object_member (root, "ata_smart_data", json_object_new ());
  json_object_set_member (json_object_get_object_member (root, "ata_smart_data"), "self_test",
                          json_node_copy (json_object_get_member (add, "self_test")));
  json_object_set_member (root, "ata_smart_self_test_log", json_node_copy (json_object_get_member (add, "log")));
  json_generator_set_root (generator, json_parser_get_root (parser));
  ck_assert (json_generator_to_file (generator, out, NULL));
  return out;
}

/* A drive (a stand-in smartctl answering for a loop device): the short
 * self-test button asks smartctl to start one, the page reads the drive
 * again and shows the test running with its progress and the log; Abort
 * asks smartctl to stop it. */
START_TEST (test_self_test)
{
  g_autofree char *loop = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *log = g_build_filename (ds_test_scratch_dir (), "smartctl-calls", NULL);
  g_autofree char *marker = g_build_filename (ds_test_scratch_dir (), "testing", NULL);
  g_autofree char *running = running_fixture ();
  g_autofree char *body = g_strdup_printf (
    "echo \"$*\" >> %s\n"
    "case \"$*\" in\n"
    "  *--test*) touch %s; echo '{\"json_format_version\": [1, 0], \"smartctl\": {\"version\": [7, 3], \"exit_status\": 0}}'; exit 0;;\n"
    "  *--abort*) rm -f %s; echo '{\"json_format_version\": [1, 0], \"smartctl\": {\"version\": [7, 3], \"exit_status\": 0}}'; exit 0;;\n"
    "esac\n"
    "if [ -e %s ]; then cat %s; else cat %s/ST3500418AS_12.json; fi",
    log, marker, marker, marker, running, FIXTURES);
  g_autofree char *fake = stand_in (body);
  g_autofree char *calls = NULL;
  GtkWidget *button, *abort_button, *progress;
  GtkGrid *log_table;
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished);

  read_health (window, &finished, loop);
  ck_assert_msg (finished.success, "%s", ds_session_get_last_error (ds_window_get_session (window)));
  ck_assert_str_eq (child_label (window, "verdict_label"), "Warning");
  ck_assert_msg (strstr (child_label (window, "source_label"), loop) != NULL, "%s",
                 child_label (window, "source_label"));

  button = ds_ui_test_page_child (window, "health", "short_button");
  abort_button = ds_ui_test_page_child (window, "health", "abort_button");
  progress = ds_ui_test_page_child (window, "health", "self_test_progress");
  ck_assert (gtk_widget_get_sensitive (button));
  ck_assert (!gtk_widget_get_visible (abort_button));
  finished.finished = FALSE;
  g_signal_emit_by_name (button, "clicked");
  ds_ui_test_wait_for (&finished.finished, 30000, "the health read after the self-test started");
  ds_ui_test_spin (100);
  ck_assert_uint_eq (finished.count, 2);

  ck_assert (g_file_get_contents (log, &calls, NULL, NULL));
  {
    g_auto(GStrv) lines = g_strsplit (g_strstrip (calls), "\n", -1);

    /* Read, started the test on the device shown, read again. */
    ck_assert_msg (g_strv_length (lines) == 3, "smartctl was called with:\n%s", calls);
    ck_assert (strstr (lines[1], "--test short") != NULL && strstr (lines[1], loop) != NULL);
    ck_assert (strstr (lines[2], "--xall") != NULL && strstr (lines[2], loop) != NULL);
  }

  /* Running: 90 % left, the log's failed test marked, Abort offered. */
  ck_assert (gtk_widget_get_visible (progress));
  ck_assert_double_eq_tol (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), 0.1, 0.001);
  ck_assert (!gtk_widget_get_sensitive (button));
  ck_assert (gtk_widget_get_visible (abort_button));
  ck_assert_str_eq (gtk_button_get_label (GTK_BUTTON (button)), "_Short Test (1 min)");
  log_table = ds_ui_test_page_child (window, "health", "log_table");
  ck_assert_str_eq (gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (log_table, 1, 1))),
                    "Completed: read failure");
  ck_assert_str_eq (gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (log_table, 3, 1))), "123456");
  ck_assert (gtk_widget_has_css_class (gtk_grid_get_child_at (log_table, 1, 1), "failing-row"));

  /* Abort: smartctl is asked, the drive read again, the test gone. */
  finished.finished = FALSE;
  g_signal_emit_by_name (abort_button, "clicked");
  ds_ui_test_wait_for (&finished.finished, 30000, "the health read after the abort");
  ds_ui_test_spin (100);
  g_clear_pointer (&calls, g_free);
  ck_assert (g_file_get_contents (log, &calls, NULL, NULL));
  ck_assert_msg (strstr (calls, "--abort") != NULL, "%s", calls);
  ck_assert (!gtk_widget_get_visible (progress));
  ck_assert (gtk_widget_get_sensitive (button));
  g_unsetenv ("DISKSCOPE_SMARTCTL");

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* Scripted: --open a smartctl file with a screenshot; --page health
 * --start on a device without SMART exits non-zero and says why. */
START_TEST (test_scripted)
{
  const char *gui = g_getenv ("DISKSCOPE_GUI");
  g_autofree char *fixture = g_build_filename (FIXTURES, "ST3500418AS_12.json", NULL);
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "health.png", NULL);
  g_autofree char *loop = ds_test_loop_new (16 * MiB, FALSE);
  const char *open_argv[] = { gui, "--open", fixture, "--screenshot", png, "--quit-when-done", NULL };
  const char *start_argv[] = { gui, "--device", loop, "--page", "health", "--start",
                               "--quit-when-done", NULL };
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  GStatBuf st;
  int status;

  ck_assert_msg (gui != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  g_unsetenv ("DISKSCOPE_SMARTCTL");

  status = ds_test_run (open_argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope --open exited %d: %s", status, err);
  ck_assert_int_eq (g_stat (png, &st), 0);
  ck_assert_int_gt (st.st_size, 10000);

  /* The flagged, unknown output: its picture, to look at. */
  {
    g_autofree char *flagged = g_build_filename (FIXTURES, "made", "flagged-ata.json", NULL);
    g_autofree char *flagged_png = g_build_filename (ds_test_scratch_dir (), "health-unknown.png", NULL);
    g_autofree char *err3 = NULL;
    const char *flagged_argv[] = { gui, "--open", flagged, "--screenshot", flagged_png,
                                   "--quit-when-done", NULL };

    status = ds_test_run (flagged_argv, NULL, &err3);
    ck_assert_msg (status == 0, "diskscope --open exited %d: %s", status, err3);
    ck_assert_int_eq (g_stat (flagged_png, &st), 0);
    ck_assert_int_gt (st.st_size, 10000);
  }

  status = ds_test_run (start_argv, NULL, &err2);
  ck_assert_int_ne (status, 0);
  ck_assert_msg (strstr (err2, "SMART") != NULL, "%s", err2);

  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-health");
  /* A critical from GTK or from us is a bug here, not noise. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-health");
  tc = tcase_create ("health");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_fixture_verdict_and_rows);
  tcase_add_test (tc, test_flagged_unknown);
  tcase_add_test (tc, test_no_smart);
  tcase_add_test (tc, test_self_test);
  tcase_add_test (tc, test_scripted);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
