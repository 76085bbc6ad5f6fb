/* test-ui-replay.c: the Replay page on real loop devices
 *
 * Runs under Xvfb (suite "ui") as root:
 *  - a trace of 200 reads a second (8 KiB, 3 s) written here, replayed
 *    (reads only: no confirmation) on the faultdisk with every I/O taking
 *    2 ms: the replayed curve grows while it runs, the replay reaches the
 *    recorded 200 IOPS within 5 % with a p50 of 2 ms (at least 2 ms, and
 *    within 25 % above: the FUSE path adds 0.1-0.3 ms a request on a busy
 *    machine, which int-replay measures against fio on the same disk), the
 *    page says so in words, the result is in the library, and a new
 *    window that opens its JSON says the same with the same curve;
 *  - Capture on a loop device while dd reads it, stopped by the user:
 *    the trace is kept under XDG_DATA_HOME/diskscope/traces and profiled
 *    (its reads counted in the table), the page says how many requests;
 *  - no trace, or a speed the menu does not offer: refused in words.
 * With DISKSCOPE_SCREENSHOT_DIR set, the finished page is also saved
 * there as replay.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-bench-replay.h"
#include "ds-error.h"
#include "ds-faultdisk.h"
#include "ds-page.h"
#include "ds-replay-page.h"
#include "ds-test-util.h"
#include "ds-trace.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define MiB (UINT64_C (1) << 20)
#define RATE       200          /* reads a second */
#define SECONDS    3
#define DELAY_US   2000

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
open_window (Finished   *finished,
             const char *device)
{
  DsWindow *window;
  g_autoptr(GError) error = NULL;

  window = ds_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 980);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), finished);
  ck_assert (ds_window_set_page (window, "replay"));
  if (device != NULL)
    ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  return window;
}

static DsReplayPage *
replay_page (DsWindow *window)
{
  GtkWidget *page = ds_window_get_page_widget (window, "replay");

  ck_assert (DS_IS_REPLAY_PAGE (page));
  return DS_REPLAY_PAGE (page);
}

static guint
n_points (DsWindow   *window,
          const char *layer)
{
  return ds_series_get_n_points (ds_graph_layer_get_series (ds_ui_test_page_child (window, "replay", layer)));
}

static void
wait_loaded (DsReplayPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (ds_replay_page_is_loading (page) && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  ck_assert_msg (!ds_replay_page_is_loading (page), "the trace is still being read");
}

/* @RATE reads of 8 KiB a second for @SECONDS, each completing in 100 µs,
 * at offsets spread over the first 64 MiB. */
static char *
write_trace (void)
{
  g_autofree char *path = ds_test_scratch_path ("ui-replay.dstrace");
  g_autoptr(GError) error = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE,
                      .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);

  ck_assert_msg (w != NULL, "%s", error ? error->message : "");
  for (guint i = 0; i < RATE * SECONDS; i++)
    {
      DsTraceRecord r = { 0 };

      r.issue_ns = (uint64_t) i * (1000000000 / RATE);
      r.complete_ns = r.issue_ns + 100000;
      r.queue_ns = DS_TRACE_NO_TIME;
      r.op = DS_TRACE_OP_READ;
      r.bytes = 8192;
      r.offset = (uint64_t) (i * 7919 % 8192) * 8192;
      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ck_assert_msg (ds_trace_writer_finish (w, &h, &error), "%s", error ? error->message : "");
  return g_steal_pointer (&path);
}

static gboolean
has_two_points (gpointer window)
{
  return n_points (window, "replay_iops_layer") >= 2;
}

START_TEST (test_replay_fault)
{
  g_autoptr(DsFaultDisk) disk = ds_faultdisk_new (128 * MiB, 31);
  g_autofree char *trace = write_trace ();
  g_autofree char *json = ds_test_scratch_path ("ui-replay.json");
  g_autofree char *finding = NULL;
  g_autoptr(GError) error = NULL;
  const char *settle[] = { "udevadm", "settle", "--timeout=5", NULL };
  Finished finished = { 0 }, other_finished = { 0 };
  const DsReplayData *d;
  DsWindow *window, *other;
  DsReplayPage *page;
  const char *device;
  gint64 deadline;

  ds_faultdisk_attach (disk, FALSE);
  ds_test_run (settle, NULL, NULL);
  device = ds_faultdisk_get_device (disk);
  ck_assert (ds_faultdisk_control (disk, "delay %u", DELAY_US));
  window = open_window (&finished, device);
  page = replay_page (window);
  ck_assert (ds_page_set_option (DS_PAGE (page), "trace", trace, NULL));
  ck_assert (ds_page_set_option (DS_PAGE (page), "reads-only", NULL, NULL));
  wait_loaded (page);
  ck_assert_uint_ge (n_points (window, "trace_iops_layer"), 10);

  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.start", NULL));
  /* The curve grows while it replays (a point every 250 ms). */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!has_two_points (window) && !finished.finished && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  ck_assert_msg (has_two_points (window) && !finished.finished, "no live curve while replaying");
  ds_ui_test_wait_for (&finished.finished, 30000, "the end of the replay");
  ck_assert_msg (finished.success, "the replay failed: %s",
                 ds_session_get_last_error (ds_window_get_session (window)));
  ds_ui_test_spin (100);

  d = ds_session_get_result (ds_window_get_session (window), DS_BENCH_REPLAY)->data;
  printf ("# %.1f IOPS of %.1f, p50 %.3f ms, %.1f %% on time\n", d->achieved_iops, d->recorded_iops,
          d->p50_s * 1e3, d->within_100us * 100);
  ck_assert_uint_eq (d->reads, RATE * SECONDS);
  ck_assert_double_eq_tol (d->recorded_iops, RATE, 0.5);
  ck_assert_msg (fabs (d->achieved_iops - RATE) <= 0.05 * RATE, "%.1f IOPS", d->achieved_iops);
  ck_assert_msg (d->p50_s >= DELAY_US / 1e6 && d->p50_s <= 1.25 * DELAY_US / 1e6, "p50 %.3f ms",
                 d->p50_s * 1e3);
  /* Each completion comes 2 ms into the 5 ms to the next read: the
   * replayer wakes for it and must still issue the next on time. */
  ck_assert_msg (d->within_100us >= 0.9, "%.1f %% on time", d->within_100us * 100);
  ck_assert_uint_ge (d->series->len, 8);
  ck_assert_uint_eq (n_points (window, "replay_iops_layer"), d->series->len);
  finding = g_strdup (ds_replay_page_get_finding (page));
  ck_assert_msg (g_str_has_prefix (finding, "At 1×: ") && strstr (finding, "IOPS of the 200 scheduled") &&
                 strstr (finding, "(recorded: 0.100 ms)"), "the page says: %s", finding);
  printf ("# %s\n", finding);
  ds_ui_test_keep_screenshot (window, "replay.png");
  {
    const char *dir = g_getenv ("DISKSCOPE_SCREENSHOT_DIR");
    g_autofree char *copy = dir != NULL ? g_build_filename (dir, "replay.png", NULL) : NULL;

    if (copy != NULL)
      ck_assert_msg (ds_window_save_screenshot (window, copy, &error), "%s", error->message);
  }

  /* Saved and opened again: the same words, the same curve. */
  ck_assert_msg (ds_session_save_result (ds_window_get_session (window), DS_BENCH_REPLAY, json, &error),
                 "%s", error ? error->message : "");
  other = open_window (&other_finished, NULL);
  ck_assert_msg (ds_ui_test_open_result (other, json, &error), "%s", error ? error->message : "");
  wait_loaded (replay_page (other));
  ds_ui_test_spin (100);
  ck_assert_str_eq (ds_replay_page_get_finding (replay_page (other)), finding);
  ck_assert_uint_eq (n_points (other, "replay_iops_layer"), d->series->len);
  ck_assert_str_eq (ds_replay_page_get_trace (replay_page (other)), trace);
  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

static gboolean
capturing (DsWindow *window)
{
  GtkButton *button = ds_ui_test_page_child (window, "replay", "capture_button");

  return g_strcmp0 (gtk_button_get_label (button), "Stop Capture") == 0;
}

START_TEST (test_capture)
{
  g_autofree char *device = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *ifarg = g_strdup_printf ("if=%s", device);
  const char *dd[] = { "dd", ifarg, "of=/dev/null", "bs=4096", "count=3000", "iflag=direct", NULL };
  g_autofree char *traces = g_build_filename (g_get_user_data_dir (), "diskscope", "traces", NULL);
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished, device);
  DsReplayPage *page = replay_page (window);
  GtkWidget *button = ds_ui_test_page_child (window, "replay", "capture_button");
  GtkLabel *status = ds_ui_test_page_child (window, "replay", "status_label");
  g_autofree char *base = g_path_get_basename (device);
  const char *trace;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  /* The device list learns of the new loop device, then the page. */
  while (!gtk_widget_get_sensitive (button) && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  ck_assert_msg (gtk_widget_get_sensitive (button), "Capture is not offered for %s", device);
  g_signal_emit_by_name (button, "clicked");
  ck_assert_msg (capturing (window), "Capture did not start");
  ds_ui_test_spin (700);        /* the tracepoints are on */
  ds_test_run (dd, NULL, NULL);
  ds_ui_test_spin (300);
  ck_assert_msg (g_str_has_prefix (gtk_label_get_label (status), "Capturing "), "%s",
                 gtk_label_get_label (status));
  g_signal_emit_by_name (button, "clicked");  /* Stop Capture */
  wait_loaded (page);
  ck_assert (!capturing (window));

  trace = ds_replay_page_get_trace (page);
  ck_assert_msg (trace != NULL && g_str_has_prefix (trace, traces), "the trace is at %s", trace);
  ck_assert (g_str_has_prefix (strrchr (trace, '/') + 1, base));
  ck_assert (g_file_test (trace, G_FILE_TEST_IS_REGULAR));
  ck_assert_msg (g_str_has_prefix (gtk_label_get_label (status), "Captured "), "%s",
                 gtk_label_get_label (status));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DsTraceProfile) profile = ds_trace_profile_new (trace, 1000000000, NULL, &error);
    const DsTraceSummary *s;

    ck_assert_msg (profile != NULL, "%s", error ? error->message : "");
    s = ds_trace_profile_summary (profile);
    printf ("# captured %" G_GUINT64_FORMAT " reads\n", s->reads);
    /* dd's 3000 reads of 4 KiB (the kernel may merge or split none of
     * them with direct I/O); udev's own probing may add a few. */
    ck_assert_uint_ge (s->reads, 3000);
    ck_assert_uint_le (s->reads, 3100);
    ck_assert_uint_eq (s->mode_bytes, 4096);
  }
  g_unlink (trace);
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

START_TEST (test_refused)
{
  g_autofree char *device = ds_test_loop_new (16 * MiB, FALSE);
  Finished finished = { 0 };
  DsWindow *window = open_window (&finished, device);
  DsReplayPage *page = replay_page (window);
  g_autoptr(GError) error = NULL;
  DsBenchSpec spec;

  ds_bench_spec_init (&spec, DS_BENCH_REPLAY);
  ck_assert (!ds_page_configure (DS_PAGE (page), &spec, &error));
  ck_assert_str_eq (error->message, "No trace to replay: open one or capture one first.");
  g_clear_error (&error);
  ck_assert (!ds_page_set_option (DS_PAGE (page), "speed", "3", &error));
  ck_assert (g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE));
  g_clear_error (&error);
  ck_assert (!ds_page_set_option (DS_PAGE (page), "trace", "/nonexistent.dstrace", &error));
  ck_assert_str_eq (error->message, "--trace /nonexistent.dstrace: no such file");
  ds_bench_spec_clear (&spec);
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;
  g_autofree char *reason = NULL;

  ds_test_init ("ui-replay");
  ds_test_require_root ("the faultdisk attaches loop devices over a FUSE file; capture reads tracefs");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  suite = suite_create ("ui-replay");
  tc = tcase_create ("replay");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_replay_fault);
  tcase_add_test (tc, test_capture);
  tcase_add_test (tc, test_refused);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
