/* test-ui-safety.c: the app's side of the safety rules (suite "ui", under
 * Xvfb; no root, no device)
 *
 *  - the window refuses an invalid spec with the very message diskscope-cli
 *    gives for it (one validator, ds_bench_spec_validate());
 *  - Save report, Save result and Save screenshot go through the core's
 *    one save path: a FIFO, a link to a device, a folder, the opened
 *    result's file and its target are refused (never opened: no hang), a
 *    regular file is written; so does --screenshot;
 *  - the app's bad options exit 2 like the CLI's: --page bogus,
 *    --accuracy 9, --accuracy 0;
 *  - without a display (none set, or one that cannot be opened) it says
 *    so, points to diskscope-cli and exits 4, its own status.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-ui-test-util.h"

#define MiB (UINT64_C (1) << 20)

#define note ds_test_note

static const char *
gui_path (void)
{
  const char *path = g_getenv ("DISKSCOPE_GUI");

  ck_assert_msg (path != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  return path;
}

static DsWindow *
open_window (void)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));

  return window;
}

START_TEST (test_same_message_as_cli)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.diskscope.Diskscope");
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "folder", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *cli_err = NULL;
  g_autofree char *want = NULL;
  DsWindow *window;
  int rc;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  /* A test file below the 16 MiB the File Benchmark needs. */
  g_settings_set_uint64 (settings, "file-size", MiB);

  window = open_window ();
  ck_assert (ds_window_set_folder (window, dir, &error));
  ck_assert (ds_window_set_page (window, "file"));
  ck_assert_msg (!ds_window_start (window, &error), "the window started an invalid run");
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));

  rc = ds_test_cli (NULL, &cli_err, "file", dir, "--size", "1M", NULL);
  want = g_strdup_printf ("diskscope-cli: %s\n", error->message);
  note ("window: %s", error->message);
  ck_assert_int_eq (rc, 2);
  ck_assert_str_eq (cli_err, want);

  g_settings_reset (settings, "file-size");
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

typedef gboolean (*SaveFunc) (DsWindow *window, const char *path, GError **error);

/* The window's Save report and Save result: the session's, for the kind
 * shown (a random-access result here). */
static gboolean
save_report (DsWindow    *window,
             const char  *path,
             GError     **error)
{
  return ds_session_save_report (ds_window_get_session (window), DS_BENCH_RANDOM_ACCESS, path, error);
}

static gboolean
save_result (DsWindow    *window,
             const char  *path,
             GError     **error)
{
  return ds_session_save_result (ds_window_get_session (window), DS_BENCH_RANDOM_ACCESS, path, error);
}

START_TEST (test_saves_refuse_what_is_not_a_file)
{
  g_autofree char *target = ds_test_make_file ("target.bin", 16 * MiB, 1);
  g_autofree char *result = g_build_filename (ds_test_scratch_dir (), "r.json", NULL);
  g_autofree char *fifo = g_build_filename (ds_test_scratch_dir (), "out.fifo", NULL);
  g_autofree char *to_null = g_build_filename (ds_test_scratch_dir (), "to-null", NULL);
  const SaveFunc savers[] = { save_report, save_result, ds_window_save_screenshot };
  const char *names[] = { "report", "result", "screenshot" };
  /* Nor what the page's result is made of: the file it was opened from,
   * and the target it ran on. */
  const char *refused[] = { fifo, to_null, ds_test_scratch_dir (), result, target };
  g_autofree char *result_before = NULL;
  g_autofree char *target_before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  DsWindow *window;
  struct stat st;
  int rc;

  rc = ds_test_cli (NULL, &err, "random-access", target, "--duration", "20ms", "-o", result, NULL);
  ck_assert_msg (rc == 0, "random-access: exit %d: %s", rc, err);
  ck_assert (g_file_get_contents (result, &result_before, NULL, NULL));
  target_before = ds_test_checksum (target);
  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  ck_assert_int_eq (symlink ("/dev/null", to_null), 0);

  window = open_window ();
  ck_assert_msg (ds_ui_test_open_result (window, result, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (200);

  for (guint i = 0; i < G_N_ELEMENTS (savers); i++)
    {
      g_autofree char *good = g_strdup_printf ("%s/saved-%s", ds_test_scratch_dir (), names[i]);

      for (guint r = 0; r < G_N_ELEMENTS (refused); r++)
        {
          g_clear_error (&error);
          ck_assert_msg (!savers[i] (window, refused[r], &error), "save %s to %s went ahead",
                         names[i], refused[r]);
          note ("save %s to %s: %s", names[i], refused[r], error->message);
          ck_assert_msg (strstr (error->message, refused[r]) != NULL,
                         "the refusal does not name %s: %s", refused[r], error->message);
        }

      g_clear_error (&error);
      ck_assert_msg (savers[i] (window, good, &error), "save %s: %s", names[i],
                     error ? error->message : "");
      ck_assert_int_eq (stat (good, &st), 0);
      ck_assert (S_ISREG (st.st_mode) && st.st_size > 0);
    }

  ck_assert_int_eq (lstat (fifo, &st), 0);
  ck_assert (S_ISFIFO (st.st_mode));
  ck_assert_int_eq (lstat (to_null, &st), 0);
  ck_assert (S_ISLNK (st.st_mode));
  ck_assert (g_file_get_contents (result, &after, NULL, NULL));
  ck_assert_str_eq (after, result_before);
  g_clear_pointer (&after, g_free);
  after = ds_test_checksum (target);
  ck_assert_str_eq (after, target_before);

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* `diskscope --open r.json --screenshot r.json` keeps r.json: exit 1 and
 * the reason, before anything is drawn. */
START_TEST (test_screenshot_keeps_opened_file)
{
  g_autofree char *target = ds_test_make_file ("shot-target.bin", 16 * MiB, 2);
  g_autofree char *result = g_build_filename (ds_test_scratch_dir (), "shot.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { gui_path (), "--open", result, "--screenshot", result, "--quit-when-done", NULL };
  int rc;

  rc = ds_test_cli (NULL, &err, "random-access", target, "--duration", "20ms", "-o", result, NULL);
  ck_assert_msg (rc == 0, "random-access: exit %d: %s", rc, err);
  ck_assert (g_file_get_contents (result, &before, NULL, NULL));
  g_clear_pointer (&err, g_free);

  rc = ds_test_run (args, NULL, &err);
  note ("--open X --screenshot X: exit %d: %s", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (err, "one of the inputs") != NULL, "%s", err);
  ck_assert (g_file_get_contents (result, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
}
END_TEST

START_TEST (test_bad_options_exit_2)
{
  const char *page[] = { gui_path (), "--page", "bogus", "--quit-when-done", NULL };
  const char *accuracy9[] = { gui_path (), "--accuracy", "9", "--quit-when-done", NULL };
  const char *accuracy0[] = { gui_path (), "--accuracy", "0", "--quit-when-done", NULL };
  const char *const *cases[] = { page, accuracy9, accuracy0 };
  const char *why[] = { "no page called “bogus”", "the accuracy must be 1 to 5, not 9",
                        "the accuracy must be 1 to 5, not 0" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      g_autofree char *out = NULL;
      int rc = ds_test_run (cases[i], &out, &err);

      note ("diskscope %s %s: exit %d: %s", cases[i][1], cases[i][2], rc, err ? g_strstrip (err) : "");
      ck_assert_msg (rc == 2, "%s %s: exit %d, want 2", cases[i][1], cases[i][2], rc);
      ck_assert_msg (strstr (err, why[i]) != NULL, "“%s” not in: %s", why[i], err);
    }
}
END_TEST

START_TEST (test_no_display_exit_4)
{
  const char *unset[] = { "env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", gui_path (), NULL };
  const char *gone[] = { "env", "-u", "WAYLAND_DISPLAY", "DISPLAY=:997", gui_path (), "--page",
                         "benchmark", NULL };
  const char *const *cases[] = { unset, gone };
  const char *why[] = { "no display to open a window on", "cannot open the display “:997”" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      int rc = ds_test_run (cases[i], NULL, &err);

      note ("without a display: exit %d: %s", rc, err ? g_strstrip (err) : "");
      ck_assert_int_eq (rc, 4);
      ck_assert_msg (strstr (err, why[i]) != NULL, "“%s” not in: %s", why[i], err);
      ck_assert_msg (strstr (err, "diskscope-cli list") != NULL, "no word of the CLI: %s", err);
    }
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("ui-safety");
  TCase *tc = tcase_create ("ui-safety");

  ds_test_init ("ui-safety");
  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_add_test (tc, test_same_message_as_cli);
  tcase_add_test (tc, test_saves_refuse_what_is_not_a_file);
  tcase_add_test (tc, test_screenshot_keeps_opened_file);
  tcase_add_test (tc, test_bad_options_exit_2);
  tcase_add_test (tc, test_no_display_exit_4);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
