/* test-ui-tabs.c: the Error Scan, Erase and Disk Monitor pages
 *
 * Runs under Xvfb (suite "ui") as root:
 *  - Error Scan on the faultdisk (tests/faultdisk/) with two EIO ranges
 *    and two slow ranges: the map grows while the scan reads, its cells
 *    are in the injected states (errors drawn in the theme's error colour,
 *    nowhere else), the legend counts the damaged blocks, the bad ranges
 *    are listed with their byte offsets; Stop keeps the map; a range and
 *    a quick scan map that range only; a scripted
 *    scan saves its screenshot and exits 0;
 *  - Erase refuses to write without the typed device name (the checksum
 *    of the loop device stays), and with it overwrites every byte with
 *    zeros and verifies them; on a slow disk it shows its progress, rate
 *    and time left, and a Stop says the device is partly erased;
 *  - Disk Monitor shows the read rate fio gives a loop device, names fio,
 *    and stops when asked; on an idle disk it says 0 MB/s and no wait.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ds-bench-erase.h"
#include "ds-block-map.h"
#include "ds-faultdisk.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define MiB (UINT64_C (1) << 20)
#define KiB (UINT64_C (1) << 10)
#define DISK_SIZE (32 * MiB)
#define BLOCK (128 * KiB)

#define note ds_test_note

typedef struct {
  gboolean finished;
  gboolean success;
  gint64   when_us;
} Finished;

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 Finished *finished)
{
  finished->finished = TRUE;
  finished->success = success;
  finished->when_us = g_get_monotonic_time ();
}

static DsWindow *
open_window (const char *device,
             const char *page,
             Finished   *finished)
{
  g_autoptr(GError) error = NULL;
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), finished);
  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, page));
  return window;
}

static void
start (DsWindow *window,
       Finished *finished)
{
  g_autoptr(GError) error = NULL;

  finished->finished = FALSE;
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
}

/* ---- Error Scan ------------------------------------------------------- */

/* The cells read so far, once @ms have passed and at least one is read
 * (or @timeout_ms passed, or the run ended): under ASan+UBSan a scan may
 * read nothing in its first 2 s (CI at 956f8a0 and a032405: 0 cells). */
static guint
wait_cells_read (DsBlockMap *map,
                 Finished   *finished,
                 guint       ms,
                 guint       timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint n;

  ds_ui_test_spin (ms);
  while ((n = ds_series_get_n_points (ds_block_map_get_series (map))) == 0 && !finished->finished &&
         g_get_monotonic_time () < deadline)
    ds_ui_test_spin (100);
  return n;
}

/* The injected truth, on 128 KiB blocks (one block per map cell on a
 * 32 MiB disk): two bad ranges, a block that takes 600 ms and one that
 * takes 200 ms. */
static const uint64_t bad[][2] = {
  { 8 * MiB + 64 * KiB, 64 * KiB },
  { 20000256, 512 },
};
#define SLOW_600 (12 * MiB)
#define SLOW_200 (16 * MiB)

static DsFaultDisk *
scan_disk (void)
{
  DsFaultDisk *disk = ds_faultdisk_new (DISK_SIZE, 31);
  const char *settle[] = { "udevadm", "settle", "--timeout=5", NULL };

  ds_faultdisk_attach (disk, TRUE);
  ds_test_run (settle, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " %" PRIu64, bad[i][0], bad[i][1]));
  ck_assert (ds_faultdisk_control (disk, "slow-read %" PRIu64 " 4096 600000", (uint64_t) SLOW_600));
  ck_assert (ds_faultdisk_control (disk, "slow-read %" PRIu64 " 4096 200000", (uint64_t) SLOW_200));
  return disk;
}

static gboolean
cell_is_bad (guint cell)
{
  uint64_t start = (uint64_t) cell * BLOCK;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    if (bad[i][0] < start + BLOCK && bad[i][0] + bad[i][1] > start)
      return TRUE;
  return FALSE;
}

/* Whether any row of the bad-range list holds @text. */
static gboolean
listed (DsWindow   *window,
        const char *text)
{
  GtkWidget *list = ds_ui_test_page_child (window, "error-scan", "bad_list");

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *label = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

      if (GTK_IS_LABEL (label) && strstr (gtk_label_get_label (GTK_LABEL (label)), text) != NULL)
        return TRUE;
    }
  return FALSE;
}

START_TEST (test_scan_map)
{
  g_autoptr(DsFaultDisk) disk = scan_disk ();
  const char *dev = ds_faultdisk_get_device (disk);
  Finished finished = { 0 };
  DsWindow *window = open_window (dev, "error-scan", &finished);
  DsBlockMap *map = ds_ui_test_page_child (window, "error-scan", "block_map");
  const DsResult *result;
  const DsScanData *data;
  GdkRGBA error_colour;
  guint n_cells, midway, in_error = 0, elsewhere = 0;

  /* Slow enough to watch it grow: 15 ms per read. */
  ck_assert (ds_faultdisk_control (disk, "delay 15000"));
  start (window, &finished);
  midway = wait_cells_read (map, &finished, 2000, 20000);
  n_cells = ds_block_map_get_n_cells (map);
  note ("scan: %u of %u cells on the map 2 s in (or at the first cell read)", midway, n_cells);
  ck_assert_uint_eq (n_cells, DISK_SIZE / BLOCK);
  ck_assert_msg (ds_session_is_running (ds_window_get_session (window)), "the scan ended before its map was looked at");
  ck_assert_uint_gt (midway, 0);
  ck_assert_uint_lt (midway, n_cells);
  ck_assert_int_eq (ds_block_map_get_cell (map, n_cells - 1), DS_SCAN_UNREAD);

  ds_ui_test_wait_for (&finished.finished, 120000, "the end of the scan");
  ds_ui_test_spin (300);
  ck_assert_msg (finished.success, "%s", ds_session_get_last_error (ds_window_get_session (window)));
  result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_ERROR_SCAN);
  ck_assert_ptr_nonnull (result);
  data = result->data;

  /* Every cell in the state the disk was made to have, and the same as
   * the result's map. */
  for (guint i = 0; i < n_cells; i++)
    {
      DsScanCell state = ds_block_map_get_cell (map, i);

      ck_assert_int_eq (state, data->cells[i]);
      if (cell_is_bad (i))
        ck_assert_msg (state == DS_SCAN_ERROR, "cell %u (a bad range) is %d", i, state);
      else
        ck_assert_msg (state != DS_SCAN_ERROR && state != DS_SCAN_UNREAD, "cell %u is %d", i, state);
    }
  ck_assert_int_eq (ds_block_map_get_cell (map, SLOW_600 / BLOCK), DS_SCAN_GE_500MS);
  ck_assert_int_ge (ds_block_map_get_cell (map, SLOW_200 / BLOCK), DS_SCAN_LT_500MS);

  /* Errors are drawn in the error colour, in their squares only. */
  ck_assert (gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (map)),
                                             "error_color", &error_colour));
  for (guint i = 0; i < n_cells; i++)
    {
      GdkRectangle area;
      guint n;

      ck_assert (ds_block_map_get_cell_area (map, i, &area));
      n = ds_ui_test_count_colour (GTK_WIDGET (map), &error_colour, area.x, area.y,
                                   area.x + area.width, area.y + area.height);
      if (cell_is_bad (i))
        {
          ck_assert_msg (n >= (guint) (area.width * area.height / 4), "cell %u: %u error pixels", i, n);
          in_error++;
        }
      else
        elsewhere += n;
    }
  ck_assert_uint_eq (in_error, 2);
  ck_assert_uint_eq (elsewhere, 0);

  /* The legend counts the two damaged blocks; the ranges are listed. */
  ck_assert_str_eq (gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (
                      ds_ui_test_page_child (window, "error-scan", "legend_table"), 2, 6))), "2");
  ck_assert (listed (window, "offset 8454144, 65536 bytes"));
  ck_assert (listed (window, "offset 20000256, 512 bytes"));
  ck_assert_msg (strstr (gtk_label_get_label (ds_ui_test_page_child (window, "error-scan", "bad_heading")),
                         "66048 bytes") != NULL, "%s",
                 gtk_label_get_label (ds_ui_test_page_child (window, "error-scan", "bad_heading")));

  /* The report has them too. */
  {
    g_autofree char *report = ds_session_get_report (ds_window_get_session (window), DS_BENCH_ERROR_SCAN, NULL);

    ck_assert_msg (strstr (report, "offset 8454144, 65536 bytes") != NULL, "%s", report);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* A larger disk at its own speed (and the metainfo's screenshot): 2048
 * blocks, every one counted once in the legend; the map's squares and the
 * list agree with the disk. */
START_TEST (test_scan_large)
{
  g_autoptr(DsFaultDisk) disk = ds_faultdisk_new (256 * MiB, 32);
  const uint64_t errors[][2] = { { 104861696, 65536 }, { 200000000, 512 } };
  const uint64_t slow[][2] = { { 20 * MiB, 60000 }, { 50 * MiB, 200000 }, { 150 * MiB, 600000 } };
  Finished finished = { 0 };
  DsWindow *window;
  DsBlockMap *map;
  GtkGrid *legend;
  uint64_t sum = 0;
  guint n_error = 0;

  ds_faultdisk_attach (disk, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " %" PRIu64, errors[i][0], errors[i][1]));
  for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
    ck_assert (ds_faultdisk_control (disk, "slow-read %" PRIu64 " 4096 %" PRIu64, slow[i][0], slow[i][1]));

  window = open_window (ds_faultdisk_get_device (disk), "error-scan", &finished);
  map = ds_ui_test_page_child (window, "error-scan", "block_map");
  legend = ds_ui_test_page_child (window, "error-scan", "legend_table");
  start (window, &finished);
  ds_ui_test_wait_for (&finished.finished, 180000, "the end of the scan");
  ds_ui_test_spin (300);
  ck_assert_msg (finished.success, "%s", ds_session_get_last_error (ds_window_get_session (window)));

  ck_assert_uint_eq (ds_block_map_get_n_cells (map), 2048);
  for (guint i = 0; i < 2048; i++)
    if (ds_block_map_get_cell (map, i) == DS_SCAN_ERROR)
      n_error++;
  ck_assert_uint_eq (n_error, 2);
  ck_assert_int_eq (ds_block_map_get_cell (map, 104861696 / BLOCK), DS_SCAN_ERROR);
  ck_assert_int_eq (ds_block_map_get_cell (map, 200000000 / BLOCK), DS_SCAN_ERROR);
  ck_assert_int_eq (ds_block_map_get_cell (map, 150 * MiB / BLOCK), DS_SCAN_GE_500MS);
  /* Rows 0..6: the buckets and the errors, each block once. */
  for (int row = 0; row < 7; row++)
    sum += g_ascii_strtoull (gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (legend, 2, row))), NULL, 10);
  ck_assert_uint_eq (sum, 2048);
  ck_assert (listed (window, "offset 104861696, 65536 bytes"));
  ck_assert (listed (window, "offset 200000000, 512 bytes"));
  ds_ui_test_keep_screenshot (window, "error-scan.png");

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* Stop keeps what the map shows. */
START_TEST (test_scan_stop)
{
  g_autoptr(DsFaultDisk) disk = scan_disk ();
  Finished finished = { 0 };
  DsWindow *window = open_window (ds_faultdisk_get_device (disk), "error-scan", &finished);
  DsBlockMap *map = ds_ui_test_page_child (window, "error-scan", "block_map");
  guint before, after;
  gint64 stop_us;

  ck_assert (ds_faultdisk_control (disk, "delay 20000"));
  start (window, &finished);
  before = wait_cells_read (map, &finished, 1500, 20000);
  ck_assert_uint_gt (before, 0);

  stop_us = g_get_monotonic_time ();
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  ds_ui_test_wait_for (&finished.finished, 5000, "the end of the stopped scan");
  ds_ui_test_spin (200);
  after = ds_series_get_n_points (ds_block_map_get_series (map));
  note ("stopped after %.0f ms with %u cells read (%u before Stop)",
        (finished.when_us - stop_us) / 1e3, after, before);
  ck_assert_uint_ge (after, before);
  ck_assert_uint_lt (after, ds_block_map_get_n_cells (map));
  ck_assert_int_ne (ds_block_map_get_cell (map, 0), DS_SCAN_UNREAD);
  ck_assert_int_eq (ds_block_map_get_cell (map, ds_block_map_get_n_cells (map) - 1), DS_SCAN_UNREAD);
  ck_assert_str_eq (gtk_label_get_label (ds_ui_test_page_child (window, "error-scan", "status_label")),
                    "Stopped. The map shows what was read.");

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* A range typed as the CLI's --range, and a quick scan: the map is of
 * that range only (from 8 MiB: 40 blocks of 128 KiB, sampled one in 16,
 * so 3 squares of 2 MiB read at 8, 10 and 12 MiB), the bad range at its
 * first block is found at its offset and the one outside is not; the
 * result keeps the range, and the page says what a quick scan misses. */
START_TEST (test_scan_range_quick)
{
  g_autoptr(DsFaultDisk) disk = scan_disk ();
  Finished finished = { 0 };
  DsWindow *window = open_window (ds_faultdisk_get_device (disk), "error-scan", &finished);
  DsBlockMap *map = ds_ui_test_page_child (window, "error-scan", "block_map");
  const DsResult *result;
  const char *summary;

  gtk_editable_set_text (GTK_EDITABLE (ds_ui_test_page_child (window, "error-scan", "range_row")), "8M-13M");
  gtk_switch_set_active (ds_ui_test_page_child (window, "error-scan", "quick_switch"), TRUE);
  start (window, &finished);
  ds_ui_test_wait_for (&finished.finished, 60000, "the end of the scan");
  ds_ui_test_spin (300);
  ck_assert_msg (finished.success, "%s", ds_session_get_last_error (ds_window_get_session (window)));

  ck_assert_uint_eq (ds_block_map_get_n_cells (map), 3);
  ck_assert_int_eq (ds_block_map_get_cell (map, 0), DS_SCAN_ERROR);
  ck_assert_int_eq (ds_block_map_get_cell (map, (SLOW_600 - 8 * MiB) / (16 * BLOCK)), DS_SCAN_GE_500MS);
  for (guint i = 1; i < 3; i++)
    ck_assert_int_ne (ds_block_map_get_cell (map, i), DS_SCAN_ERROR);
  ck_assert (listed (window, "offset 8454144, 65536 bytes"));
  ck_assert (!listed (window, "offset 20000256"));

  result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_ERROR_SCAN);
  ck_assert_ptr_nonnull (result);
  ck_assert (ds_error_scan_options_const (&result->spec)->quick);
  ck_assert_uint_eq (result->spec.offset_bytes, 8 * MiB);
  ck_assert_uint_eq (result->spec.span_bytes, 5 * MiB);
  summary = gtk_label_get_label (ds_ui_test_page_child (window, "error-scan", "summary_label"));
  ck_assert_msg (g_str_has_prefix (summary, "3 of 3 blocks of 128 KiB read") &&
                 strstr (summary, "A quick scan reads one block per square") != NULL, "%s", summary);

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

START_TEST (test_scan_scripted)
{
  g_autoptr(DsFaultDisk) disk = scan_disk ();
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "scan.png", NULL);
  const char *argv[] = {
    g_getenv ("DISKSCOPE_GUI"), "--device", ds_faultdisk_get_device (disk), "--page", "error-scan",
    "--start", "--screenshot", png, "--quit-when-done", NULL
  };
  g_autofree char *err = NULL;
  GStatBuf st;
  int status;

  ck_assert_msg (argv[0] != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope exited %d: %s", status, err);
  ck_assert_int_eq (g_stat (png, &st), 0);
  ck_assert_int_gt (st.st_size, 10000);
}
END_TEST

/* ---- Erase ------------------------------------------------------------ */

static char *
zeros_checksum (uint64_t size)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guchar *zeros = g_malloc0 (MiB);

  for (uint64_t done = 0; done < size; done += MiB)
    g_checksum_update (sum, zeros, MIN (MiB, size - done));
  return g_strdup (g_checksum_get_string (sum));
}

/* A loop device's size may read 0 for a moment after losetup returns:
 * a checksum taken then would be of nothing.  Waits for @size. */
static void
wait_for_size (const char *device,
               uint64_t    size)
{
  uint64_t bytes = 0;

  for (int i = 0; i < 200; i++)
    {
      int fd = open (device, O_RDONLY | O_CLOEXEC);

      ck_assert_msg (fd >= 0, "%s: %s", device, g_strerror (errno));
      if (ioctl (fd, BLKGETSIZE64, &bytes) != 0)
        bytes = 0;
      close (fd);
      if (bytes == size)
        return;
      g_usleep (10000);
    }
  ck_abort_msg ("%s still has %" PRIu64 " bytes, not %" PRIu64, device, bytes, size);
}

static AdwMessageDialog *
ask_erase (DsWindow *window)
{
  AdwMessageDialog *dialog;

  /* The page's own button is the window's Start. */
  g_signal_emit_by_name (ds_ui_test_page_child (window, "erase", "erase_button"), "clicked");
  ds_ui_test_spin (100);
  dialog = ds_ui_test_find_dialog (window);
  ck_assert_msg (dialog != NULL, "no confirmation dialog");
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  return dialog;
}

/* The value of the result row titled @title under @widget, or NULL. */
static const char *
row_value (GtkWidget  *widget,
           const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *found;

      if (ADW_IS_ACTION_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        {
          GtkWidget *stack[64];
          int top = 0;

          stack[top++] = child;
          while (top > 0)
            {
              GtkWidget *w = stack[--top];

              if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "numeric"))
                return gtk_label_get_label (GTK_LABEL (w));
              for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL && top < 64;
                   c = gtk_widget_get_next_sibling (c))
                stack[top++] = c;
            }
        }
      if ((found = row_value (child, title)) != NULL)
        return found;
    }
  return NULL;
}

START_TEST (test_erase)
{
  g_autofree char *loop = ds_test_loop_new (32 * MiB, FALSE);
  g_autofree char *before = (wait_for_size (loop, 32 * MiB), ds_test_checksum (loop));
  g_autofree char *zeros = zeros_checksum (32 * MiB);
  g_autofree char *after_wrong = NULL;
  g_autofree char *after = NULL;
  g_autofree char *wrong = g_strconcat (loop, "1", NULL);
  Finished finished = { 0 };
  DsWindow *window = open_window (loop, "erase", &finished);
  AdwMessageDialog *dialog;
  GtkEditable *entry;
  const DsResult *result;

  ck_assert_str_ne (before, zeros);
  /* A discard is read back unless turned off: choosing it turns the
   * switch on. */
  gtk_switch_set_active (ds_ui_test_page_child (window, "erase", "verify_switch"), FALSE);
  gtk_check_button_set_active (ds_ui_test_page_child (window, "erase", "discard_check"), TRUE);
  ck_assert (gtk_switch_get_active (ds_ui_test_page_child (window, "erase", "verify_switch")));
  gtk_check_button_set_active (ds_ui_test_page_child (window, "erase", "zeros_check"), TRUE);
  gtk_switch_set_active (ds_ui_test_page_child (window, "erase", "verify_switch"), TRUE);

  /* A wrong name: the button stays off, and a forced answer does nothing. */
  dialog = ask_erase (window);
  ck_assert_msg (strstr (adw_message_dialog_get_heading (dialog), "Erase") != NULL &&
                 strstr (adw_message_dialog_get_heading (dialog), loop) != NULL,
                 "%s", adw_message_dialog_get_heading (dialog));
  ck_assert_msg (strstr (adw_message_dialog_get_body (dialog), "zeros") != NULL,
                 "%s", adw_message_dialog_get_body (dialog));
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  gtk_editable_set_text (entry, wrong);
  ck_assert (!adw_message_dialog_get_response_enabled (dialog, "destroy"));
  adw_message_dialog_response (dialog, "destroy");
  ds_ui_test_spin (500);
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  ck_assert (!finished.finished);
  after_wrong = ds_test_checksum (loop);
  ck_assert_str_eq (after_wrong, before);

  /* The name typed: every byte becomes zero, and reads back so. */
  dialog = ask_erase (window);
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  gtk_editable_set_text (entry, loop);
  ck_assert (adw_message_dialog_get_response_enabled (dialog, "destroy"));
  adw_message_dialog_response (dialog, "destroy");
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  ds_ui_test_wait_for (&finished.finished, 120000, "the end of the erase");
  ds_ui_test_spin (200);
  ck_assert_msg (finished.success, "%s", ds_session_get_last_error (ds_window_get_session (window)));
  after = ds_test_checksum (loop);
  ck_assert_str_eq (after, zeros);

  result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_ERASE);
  ck_assert_ptr_nonnull (result);
  ck_assert_str_eq (adw_preferences_group_get_title (ds_ui_test_page_child (window, "erase", "result_group")),
                    "Erased and verified: every byte read back as written");
  ds_ui_test_keep_screenshot (window, "erase.png");

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

/* A slow disk (every I/O takes 0.6 s: eight 4 MiB blocks, at least 5 s):
 * while it writes, the page shows how far it is, at what rate and the time
 * left; Stop says the device is only partly erased. */
START_TEST (test_erase_progress)
{
  g_autoptr(DsFaultDisk) disk = ds_faultdisk_new (DISK_SIZE, 41);
  const char *device = ds_faultdisk_attach (disk, FALSE);
  Finished finished = { 0 };
  DsWindow *window;
  AdwMessageDialog *dialog;
  GtkProgressBar *bar;
  const char *text;
  double fraction;

  window = open_window (device, "erase", &finished);
  bar = ds_ui_test_page_child (window, "erase", "progress_bar");
  dialog = ask_erase (window);
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), device);
  adw_message_dialog_response (dialog, "destroy");
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  /* Slow from here: the window's probes of the device before the run
   * (some 30 reads each, at 0.6 s a read: a minute) would only make the
   * test longer.  The run's own safety checks come first (their reads
   * mostly from the page cache now), then the writing. */
  ck_assert (ds_faultdisk_control (disk, "delay 600000"));
  for (int i = 0; i < 300 && !finished.finished && gtk_progress_bar_get_fraction (bar) == 0; i++)
    ds_ui_test_spin (100);
  ds_ui_test_spin (1000);
  ck_assert_msg (!finished.finished, "the erase ended before it was seen (%s): %s",
                 finished.success ? "success" : "failure",
                 ds_session_get_last_error (ds_window_get_session (window)));

  ck_assert (gtk_widget_get_visible (ds_ui_test_page_child (window, "erase", "progress_box")));
  fraction = gtk_progress_bar_get_fraction (bar);
  text = gtk_label_get_label (ds_ui_test_page_child (window, "erase", "progress_label"));
  note ("erase: %.0f %%: %s", fraction * 100, text);
  /* The time left is the writing's (seconds here), not counting the
   * safety checks' slow reads before it. */
  {
    const char *about = strstr (text, "about ");
    char *end = NULL;
    double left = about ? g_ascii_strtod (about + 6, &end) : -1;

    ck_assert_msg (about != NULL && g_str_equal (end, " s left") && left <= 20, "%s", text);
  }
  {
    g_autofree char *title = g_strdup_printf ("Erasing %s with zeros", device);

    ck_assert_str_eq (gtk_label_get_label (ds_ui_test_page_child (window, "erase", "progress_title")), title);
  }
  ck_assert_double_gt (fraction, 0);
  ck_assert_double_lt (fraction, 1);
  ck_assert_msg (g_str_has_prefix (text, "Writing: ") && strstr (text, " % done at ") != NULL &&
                 strstr (text, "MB/s, about ") != NULL && g_str_has_suffix (text, " left"), "%s", text);
  ds_ui_test_keep_screenshot (window, "erase-progress.png");

  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  ds_ui_test_wait_for (&finished.finished, 10000, "the end of the stopped erase");
  ds_ui_test_spin (100);
  ck_assert (!gtk_widget_get_visible (ds_ui_test_page_child (window, "erase", "progress_box")));
  ck_assert_str_eq (adw_preferences_group_get_title (ds_ui_test_page_child (window, "erase", "result_group")),
                    "Stopped: the device is partly erased");
  /* Which bytes: exactly those the result holds. */
  {
    const DsResult *result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_ERASE);
    const DsEraseData *data = result->data;
    const char *where = row_value (ds_ui_test_page_child (window, "erase", "result_group"),
                                   "Overwritten Before the Stop");
    g_autofree char *want = g_strdup_printf ("Bytes 0 – %" G_GUINT64_FORMAT " (",
                                             data->reached_bytes - 1);

    note ("stopped erase: %s", where ? where : "(no row)");
    ck_assert_uint_gt (data->reached_bytes, 0);
    ck_assert_uint_lt (data->reached_bytes, data->size_bytes);
    ck_assert_msg (where != NULL && g_str_has_prefix (where, want) &&
                   g_str_has_suffix (where, "; the rest is untouched"), "%s", where);
  }
  ds_ui_test_keep_screenshot (window, "erase-stopped.png");

  /* The disk fast again: udev probes it when the erase closes it, and its
   * reads at 0.6 s each held the detach for a minute. */
  ck_assert (ds_faultdisk_control (disk, "clear"));
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* ---- Disk Monitor ----------------------------------------------------- */

/* Whether a cell of the process table reads @text. */
static gboolean
process_listed (DsWindow   *window,
                const char *text)
{
  GtkWidget *table = ds_ui_test_page_child (window, "monitor", "process_table");

  for (GtkWidget *child = gtk_widget_get_first_child (table); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), text) == 0)
      return TRUE;
  return FALSE;
}

static const char *
start_action_name (DsWindow *window)
{
  return gtk_actionable_get_action_name (
    GTK_ACTIONABLE (gtk_widget_get_template_child (GTK_WIDGET (window), DS_TYPE_WINDOW, "start_button")));
}

START_TEST (test_monitor)
{
  g_autofree char *loop = ds_test_loop_new (256 * MiB, FALSE);
  g_autofree char *fio = g_find_program_in_path ("fio");
  g_autofree char *filename = g_strconcat ("--filename=", loop, NULL);
  const char *fio_argv[] = {
    fio, "--name=busy", filename, "--rw=rw", "--rwmixread=75", "--bs=1M", "--direct=1",
    "--ioengine=psync", "--time_based", "--runtime=45", "--rate=30m,10m", NULL
  };
  g_autoptr(DsFaultProc) proc = NULL;
  Finished finished = { 0 };
  DsWindow *window = NULL;
  DsSeries *read, *write;
  AdwComboRow *duration;
  double max_read = 0, max_write = 0;
  gint64 stop_us;

  ck_assert_msg (fio != NULL, "fio is not installed (tools/install-deps installs it)");
  proc = ds_fault_proc_spawn (fio_argv);
  window = open_window (loop, "monitor", &finished);
  duration = ds_ui_test_page_child (window, "monitor", "duration_row");
  adw_combo_row_set_selected (duration, 0);

  start (window, &finished);
  ck_assert (ds_session_is_running (ds_window_get_session (window)) == FALSE);
  /* The header's Start became Stop. */
  ck_assert_str_eq (start_action_name (window), "win.stop");
  ck_assert (!gtk_widget_get_sensitive (GTK_WIDGET (duration)));
  ds_ui_test_spin (7000);

  read = ds_graph_layer_get_series (ds_ui_test_page_child (window, "monitor", "read_layer"));
  write = ds_graph_layer_get_series (ds_ui_test_page_child (window, "monitor", "write_layer"));
  for (guint i = 0; i < ds_series_get_n_points (read); i++)
    max_read = MAX (max_read, ds_series_get_points (read)[i].y);
  for (guint i = 0; i < ds_series_get_n_points (write); i++)
    max_write = MAX (max_write, ds_series_get_points (write)[i].y);
  note ("monitor: %u samples, read up to %.1f MB/s, write up to %.1f MB/s; the page shows %s",
        ds_series_get_n_points (read), max_read / 1e6, max_write / 1e6,
        gtk_label_get_label (ds_ui_test_page_child (window, "monitor", "read_label")));
  ck_assert_uint_ge (ds_series_get_n_points (read), 4);
  /* fio reads 30 MiB/s (31.5 MB/s); a starved machine may fall behind. */
  ck_assert_double_ge (max_read, 15e6);
  ck_assert_double_le (max_read, 80e6);
  /* And writes 10 MiB/s (10.5 MB/s). */
  ck_assert_double_ge (max_write, 5e6);
  ck_assert_double_le (max_write, 40e6);
  ck_assert_msg (process_listed (window, "fio"), "fio is not in the process table");
  ck_assert_msg (strstr (gtk_label_get_label (ds_ui_test_page_child (window, "monitor", "read_label")), "MB/s") != NULL,
                 "%s", gtk_label_get_label (ds_ui_test_page_child (window, "monitor", "read_label")));
  /* A fuller graph for the metainfo's screenshot. */
  if (g_getenv ("DS_UI_TEST_SCREENSHOTS") != NULL)
    ds_ui_test_spin (20000);
  ds_ui_test_keep_screenshot (window, "monitor.png");

  /* Stop ends it at once, and the window says the run is over. */
  stop_us = g_get_monotonic_time ();
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  ds_ui_test_wait_for (&finished.finished, 3000, "the end of the watch");
  note ("stopped after %.0f ms", (finished.when_us - stop_us) / 1e3);
  ck_assert (finished.success);
  ck_assert_str_eq (start_action_name (window), "win.start");
  ck_assert (gtk_widget_get_sensitive (GTK_WIDGET (duration)));

  gtk_window_destroy (GTK_WINDOW (window));
  ds_fault_proc_signal (proc, SIGTERM);
  ds_fault_proc_wait (proc, 10000);
  ds_test_loop_detach (loop);
}
END_TEST

/* A disk nobody writes to: its write rate is a plain 0 and its write
 * wait a dash (a wait of no I/O is not 0 ms). */
START_TEST (test_monitor_idle)
{
  g_autofree char *loop = ds_test_loop_new (16 * MiB, TRUE);
  Finished finished = { 0 };
  DsWindow *window = open_window (loop, "monitor", &finished);
  const char *await;

  start (window, &finished);
  ds_ui_test_spin (3500);
  ck_assert_str_eq (gtk_label_get_label (ds_ui_test_page_child (window, "monitor", "write_label")), "0 MB/s");
  await = gtk_label_get_label (ds_ui_test_page_child (window, "monitor", "await_label"));
  ck_assert_msg (g_str_has_suffix (await, ", —"), "%s", await);
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  ds_ui_test_wait_for (&finished.finished, 3000, "the end of the watch");

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  g_autofree char *reason = NULL;
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-tabs");
  /* A critical from GTK or from us is a bug here, not noise. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  ds_test_require_root ("loop devices and the faultdisk need root");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  suite = suite_create ("ui-tabs");
  tc = tcase_create ("tabs");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_scan_map);
  tcase_add_test (tc, test_scan_large);
  tcase_add_test (tc, test_scan_stop);
  tcase_add_test (tc, test_scan_range_quick);
  tcase_add_test (tc, test_scan_scripted);
  tcase_add_test (tc, test_erase);
  tcase_add_test (tc, test_erase_progress);
  tcase_add_test (tc, test_monitor);
  tcase_add_test (tc, test_monitor_idle);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
