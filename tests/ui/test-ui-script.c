/* test-ui-script.c: the app driven by a script (suite "ui", under Xvfb)
 *
 *  - a scripted write page (diskscope --device L --page sustain --start
 *    --screenshot S --quit-when-done, and the Workloads page's default
 *    preset, which writes) never waits for a dialog: without
 *    --destroy-data it exits 3 at once with diskscope-cli's words and
 *    not a byte of the loop device changes (checksum); with it, it runs,
 *    exits 0 within seconds and saves the screenshot;
 *  - --reads-only runs the Workloads page's reads without a confirmation;
 *  - the page settings a script gives (--write, --preset, --reads-only,
 *    --size, --duration, --count, --random, --quick) set the controls the
 *    user would set; a setting the page has not, or a value its menu does
 *    not offer, is bad usage (exit 2).
 * Root: the runs are on loop devices.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/stat.h>

#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define MiB (UINT64_C (1) << 20)

#define note ds_test_note

static gboolean
sanitized (void)
{
#if defined(__SANITIZE_ADDRESS__)
  return TRUE;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return TRUE;
#endif
#endif
  return FALSE;
}

/* A scripted run has this long: a hang (a dialog nobody answers) is
 * killed by timeout(1) and fails the test instead of stalling it. */
#define HANG_S "60"

typedef struct {
  int     status;
  double  seconds;
  char   *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->err, g_free);
}

/* diskscope with @args (NULL-terminated), under timeout(1). */
static void
run_gui (Run               *run,
         const char *const *args)
{
  const char *gui = g_getenv ("DISKSCOPE_GUI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  gint64 start_us;

  ck_assert_msg (gui != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  g_ptr_array_add (argv, (gpointer) "timeout");
  g_ptr_array_add (argv, (gpointer) HANG_S);
  g_ptr_array_add (argv, (gpointer) gui);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  start_us = g_get_monotonic_time ();
  run->status = ds_test_run ((const char *const *) argv->pdata, &out, &run->err);
  run->seconds = (g_get_monotonic_time () - start_us) / 1e6;
  note ("diskscope %s %s … : exit %d after %.1f s: %s", args[0], args[1], run->status,
        run->seconds, run->err != NULL ? g_strstrip (run->err) : "");
  ck_assert_msg (run->status != 124, "diskscope hung (killed after %s s): %s", HANG_S, run->err);
}

/* What "exits at once" means here: the window opens, the page is set up
 * and the script ends (about 2 s; a sanitizer's exit takes longer). */
static double
limit_s (void)
{
  return sanitized () ? 45 : 15;
}

/* diskscope-cli's refusal for a write test on @dev, without its prefix. */
static char *
cli_refusal (const char *dev)
{
  g_autofree char *err = NULL;
  int rc = ds_test_cli (NULL, &err, "benchmark", dev, "--write", "--accuracy", "1", NULL);

  ck_assert_int_eq (rc, 3);
  ck_assert (g_str_has_prefix (err, "diskscope-cli: "));
  return g_strdup (g_strstrip (err + strlen ("diskscope-cli: ")));
}

START_TEST (test_write_refused)
{
  g_autofree char *dev = NULL;
  g_autofree char *before = NULL;
  g_autofree char *cli = NULL;
  g_autofree char *png = ds_test_scratch_path ("refused.png");

  dev = ds_test_loop_new (64 * MiB, FALSE);
  before = ds_test_checksum (dev);
  cli = cli_refusal (dev);

  {
    /* Each a write test: the Sustained Write page, the Workloads page's
     * default preset (its write steps), a --write on the Benchmark page,
     * the write-back Cache Probe, and an erase. */
    const char *sustain[] = { "--device", dev, "--page", "sustain", "--start",
                              "--screenshot", png, "--quit-when-done", NULL };
    const char *workloads[] = { "--device", dev, "--page", "workloads", "--size", "16M",
                                "--duration", "1s", "--count", "1", "--start",
                                "--quit-when-done", NULL };
    const char *benchmark[] = { "--device", dev, "--page", "benchmark", "--write",
                                "--accuracy", "1", "--start", "--quit-when-done", NULL };
    const char *cache[] = { "--device", dev, "--page", "cache", "--write", "--start",
                            "--quit-when-done", NULL };
    const char *erase[] = { "--device", dev, "--page", "erase", "--start", "--quit-when-done",
                            NULL };
    /* Named wrongly: refused all the same, and the words say so. */
    const char *wrong[] = { "--device", dev, "--page", "sustain", "--destroy-data=/dev/null",
                            "--start", "--quit-when-done", NULL };
    const char *const *cases[] = { sustain, workloads, benchmark, cache, erase, wrong };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        Run run = { 0 };

        run_gui (&run, cases[i]);
        ck_assert_msg (run.status == 3, "--page %s: exit %d, want 3", cases[i][3], run.status);
        ck_assert_msg (run.seconds < limit_s (), "--page %s took %.1f s to refuse", cases[i][3],
                       run.seconds);
        ck_assert_msg (strstr (run.err, "--destroy-data=") != NULL && strstr (run.err, dev) != NULL,
                       "the refusal does not say how to confirm: %s", run.err);
        if (cases[i] == benchmark)
          ck_assert_msg (strstr (run.err, cli) != NULL, "not diskscope-cli's words (“%s”): %s",
                         cli, run.err);
        if (cases[i] == wrong)
          ck_assert_msg (strstr (run.err, "names /dev/null") != NULL, "%s", run.err);
        run_clear (&run);
      }
  }

  {
    g_autofree char *after = ds_test_checksum (dev);

    ck_assert_str_eq (after, before);
  }
  ds_test_loop_detach (dev);
}
END_TEST

static void
assert_png (const char *path)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  ck_assert_msg (g_file_get_contents (path, &data, &length, NULL), "no screenshot at %s", path);
  ck_assert (length > 1000 && memcmp (data, "\x89PNG", 4) == 0);
}

START_TEST (test_write_confirmed)
{
  g_autofree char *dev = NULL;
  g_autofree char *before = NULL;
  g_autofree char *confirm = NULL;
  g_autofree char *sustain_png = ds_test_scratch_path ("sustain.png");
  g_autofree char *workloads_png = ds_test_scratch_path ("workloads.png");

  dev = ds_test_loop_new (64 * MiB, FALSE);
  before = ds_test_checksum (dev);
  confirm = g_strconcat ("--destroy-data=", dev, NULL);

  {
    /* The device by its path, and by its bare name as diskscope-cli
     * takes it ("loop7"). */
    g_autofree char *by_name = g_strconcat ("--destroy-data=", strrchr (dev, '/') + 1, NULL);
    const char *sustain[] = { "--device", dev, "--page", "sustain", confirm, "--start",
                              "--screenshot", sustain_png, "--quit-when-done", NULL };
    const char *workloads[] = { "--device", dev, "--page", "workloads", "--preset", "cdm-demo",
                                "--size", "16M", "--duration", "1s", "--count", "1", by_name,
                                "--start", "--screenshot", workloads_png, "--quit-when-done",
                                NULL };
    const char *const *cases[] = { sustain, workloads };
    const char *pngs[] = { sustain_png, workloads_png };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        Run run = { 0 };
        g_autofree char *after = NULL;

        run_gui (&run, cases[i]);
        ck_assert_msg (run.status == 0, "--page %s: exit %d: %s", cases[i][3], run.status, run.err);
        ck_assert_msg (run.seconds < limit_s () + 15, "--page %s took %.1f s", cases[i][3],
                       run.seconds);
        assert_png (pngs[i]);
        after = ds_test_checksum (dev);
        ck_assert_msg (strcmp (after, before) != 0, "--page %s wrote nothing", cases[i][3]);
        g_free (before);
        before = g_steal_pointer (&after);
        run_clear (&run);
      }
  }
  ds_test_loop_detach (dev);
}
END_TEST

/* Only the reads of a preset that writes: no confirmation, nothing written. */
START_TEST (test_reads_only)
{
  g_autofree char *dev = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *png = ds_test_scratch_path ("reads.png");
  Run run = { 0 };

  dev = ds_test_loop_new (64 * MiB, FALSE);
  before = ds_test_checksum (dev);

  {
    const char *args[] = { "--device", dev, "--page", "workloads", "--preset", "cdm-peak",
                           "--reads-only", "--size", "16M", "--duration", "1s", "--count", "1",
                           "--start", "--screenshot", png, "--quit-when-done", NULL };

    run_gui (&run, args);
  }
  ck_assert_msg (run.status == 0, "exit %d: %s", run.status, run.err);
  assert_png (png);
  after = ds_test_checksum (dev);
  ck_assert_str_eq (after, before);
  run_clear (&run);
  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_bad_settings_exit_2)
{
  const char *not_its[] = { "--page", "sustain", "--preset", "cdm-demo", "--quit-when-done", NULL };
  const char *no_preset[] = { "--page", "workloads", "--preset", "cdm-bogus", "--quit-when-done", NULL };
  const char *not_offered[] = { "--page", "sustain", "--size", "3G", "--quit-when-done", NULL };
  const char *no_time[] = { "--page", "workloads", "--duration", "7s", "--quit-when-done", NULL };
  const char *no_write[] = { "--page", "sweep", "--write", "--quit-when-done", NULL };
  const char *const *cases[] = { not_its, no_preset, not_offered, no_time, no_write };
  const char *why[] = {
    "--preset is not a setting of the Sustained Write page",
    "no preset called “cdm-bogus” (the presets: cdm-default,",
    "--size: the page offers Whole device, 128 MiB",
    "--duration: the page offers",
    "--write is not a setting of the Saturation page",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run run = { 0 };

      run_gui (&run, cases[i]);
      ck_assert_msg (run.status == 2, "%s %s: exit %d, want 2", cases[i][2], cases[i][3],
                     run.status);
      ck_assert_msg (strstr (run.err, why[i]) != NULL, "“%s” not in: %s", why[i], run.err);
      run_clear (&run);
    }
}
END_TEST

static DsWindow *
open_window (void)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));

  return window;
}

static void
set_option (DsWindow   *window,
            const char *page,
            const char *option,
            const char *value)
{
  g_autoptr(GError) error = NULL;

  ck_assert (ds_window_set_page (window, page));
  ck_assert_msg (ds_window_set_page_option (window, option, value, &error),
                 "%s --%s %s: %s", page, option, value ? value : "", error ? error->message : "");
}

static const char *
selected_text (DsWindow   *window,
               const char *page,
               const char *dropdown)
{
  GtkDropDown *menu = ds_ui_test_page_child (window, page, dropdown);
  GtkStringObject *item = gtk_drop_down_get_selected_item (menu);

  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

/* Each setting reaches the control a user would set. */
START_TEST (test_settings_set_controls)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.diskscope.Diskscope");
  DsWindow *window = open_window ();
  const char *write_pages[] = { "benchmark", "extra", "random-access", "block-size" };

  for (guint i = 0; i < G_N_ELEMENTS (write_pages); i++)
    {
      set_option (window, write_pages[i], "write", NULL);
      ck_assert (gtk_toggle_button_get_active (ds_ui_test_page_child (window, write_pages[i],
                                                                      "write_button")));
    }
  set_option (window, "cache", "write", NULL);
  ck_assert (gtk_check_button_get_active (ds_ui_test_page_child (window, "cache", "write_button")));

  set_option (window, "workloads", "preset", "cdm-peak");
  set_option (window, "workloads", "reads-only", NULL);
  set_option (window, "workloads", "size", "64M");
  set_option (window, "workloads", "duration", "1s");
  set_option (window, "workloads", "count", "2");
  ck_assert (gtk_toggle_button_get_active (ds_ui_test_page_child (window, "workloads",
                                                                  "reads_only_button")));
  ck_assert_str_eq (selected_text (window, "workloads", "size_dropdown"), "64 MiB");
  ck_assert_uint_eq (gtk_drop_down_get_selected (ds_ui_test_page_child (window, "workloads",
                                                                        "count_dropdown")), 1);
  {
    g_autofree char *preset = g_settings_get_string (settings, "workloads-preset");

    /* Remembered, as the menu remembers its choice. */
    ck_assert_str_eq (preset, "cdm-peak");
  }

  set_option (window, "sustain", "size", "512M");
  set_option (window, "sustain", "duration", "5m");
  set_option (window, "sustain", "random", NULL);
  ck_assert_str_eq (selected_text (window, "sustain", "size_dropdown"), "512 MiB");
  ck_assert_str_eq (selected_text (window, "sustain", "duration_dropdown"), "5 min");
  ck_assert (gtk_check_button_get_active (ds_ui_test_page_child (window, "sustain", "random_button")));
  set_option (window, "sustain", "size", "100%");
  ck_assert_uint_eq (gtk_drop_down_get_selected (ds_ui_test_page_child (window, "sustain",
                                                                        "size_dropdown")), 0);

  set_option (window, "error-scan", "quick", NULL);
  ck_assert (gtk_switch_get_active (ds_ui_test_page_child (window, "error-scan", "quick_switch")));

  g_settings_reset (settings, "workloads-preset");
  g_settings_reset (settings, "workloads-reads-only");
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("ui-script");
  TCase *tc = tcase_create ("ui-script");

  ds_test_require_root ("the scripted runs use loop devices");
  ds_test_init ("ui-script");
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_add_test (tc, test_write_refused);
  tcase_add_test (tc, test_write_confirmed);
  tcase_add_test (tc, test_reads_only);
  tcase_add_test (tc, test_bad_settings_exit_2);
  tcase_add_test (tc, test_settings_set_controls);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
