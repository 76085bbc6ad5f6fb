/* test-ui-window.c: the window on real loop devices
 *
 * Runs under Xvfb (suite "ui") as root: loop devices.  Covers: a loop
 * device is selected and a new one appears live; a scripted benchmark
 * (--device --page --start --screenshot --quit-when-done) writes a PNG that
 * is not blank and exits 0, and a failing one exits non-zero; closing the
 * window mid-run returns promptly and frees the window; run from the build
 * tree, the app needs no GSETTINGS_SCHEMA_DIR.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ds-clock.h"
#include "ds-device-item.h"
#include "ds-run-progress.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-ui-test-util.h"

#define MIB (UINT64_C (1) << 20)

static const char *
gui_path (void)
{
  const char *path = g_getenv ("DISKSCOPE_GUI");

  ck_assert_msg (path != NULL, "DISKSCOPE_GUI is not set (meson sets it)");
  return path;
}

static gboolean
model_has (GListModel *model,
           const char *path)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (ds_device_item_get_path (item), path) == 0)
        return TRUE;
    }

  return FALSE;
}

START_TEST (test_window_selects_loop)
{
  g_autofree char *loop = ds_test_loop_new (32 * MIB, FALSE);
  g_autofree char *late = NULL;
  g_autoptr(GError) error = NULL;
  DsWindow *window = ds_window_new (NULL);
  GtkDropDown *dropdown;
  GListModel *model;
  gint64 deadline;

  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));

  ck_assert_msg (ds_window_select_device (window, loop, &error), "%s",
                 error ? error->message : "");
  ck_assert_str_eq (ds_window_get_device_path (window), loop);

  /* A device attached while the window is open shows up by itself. */
  dropdown = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (window), DS_TYPE_WINDOW,
                                                           "device_dropdown"));
  model = gtk_drop_down_get_model (dropdown);
  late = ds_test_loop_new (16 * MIB, FALSE);
  /* udev's event, then the monitor's: seconds on a loaded machine. */
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!model_has (model, late) && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  ck_assert_msg (model_has (model, late), "%s did not appear in the device list", late);
  /* And the selection stayed where it was. */
  ck_assert_str_eq (ds_window_get_device_path (window), loop);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (late);
  ds_test_loop_detach (loop);
}
END_TEST

START_TEST (test_scripted_screenshot)
{
  g_autofree char *loop = ds_test_loop_new (128 * MIB, FALSE);
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "shot.png", NULL);
  const char *argv[] = {
    gui_path (), "--device", loop, "--page", "benchmark", "--start",
    "--screenshot", png, "--quit-when-done", "--accuracy", "1", NULL
  };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  g_autofree guchar *pixels = NULL;
  guint32 background;
  gsize width, height, n_background = 0;
  int status;

  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope exited %d: %s", status, err);

  texture = gdk_texture_new_from_filename (png, &error);
  ck_assert_msg (texture != NULL, "%s", error ? error->message : "");
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  ck_assert_uint_ge (width, 400);
  ck_assert_uint_ge (height, 300);

  pixels = g_malloc (width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);

  /* The most common colour is the background; a drawn graph, text and
   * figures give many colours and plenty of other pixels. */
  {
    g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
    guint best = 0;

    background = 0;
    for (gsize i = 0; i < width * height; i++)
      {
        guint32 pixel = ((guint32 *) (gpointer) pixels)[i];
        guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (pixel))) + 1;

        g_hash_table_insert (counts, GUINT_TO_POINTER (pixel), GUINT_TO_POINTER (count));
        g_hash_table_add (colours, GUINT_TO_POINTER (pixel));
        if (count > best)
          {
            best = count;
            background = pixel;
          }
      }
    n_background = best;
  }

  ck_assert_msg (g_hash_table_size (colours) >= 64,
                 "only %u colours in the screenshot", g_hash_table_size (colours));
  ck_assert_msg (width * height - n_background >= width * height / 10,
                 "the screenshot is mostly background (%08x)", background);
}
END_TEST

/* --folder runs the File Benchmark from the command line; a folder that is
 * not there is refused. */
START_TEST (test_scripted_folder)
{
  g_autofree char *loop = ds_test_loop_new (160 * MIB, FALSE);
  g_autofree char *mnt = NULL;
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "file.png", NULL);
  g_autofree char *missing = g_build_filename (ds_test_scratch_dir (), "no-such-folder", NULL);
  const char *umount[] = { "umount", NULL, NULL };
  const char *argv[] = {
    gui_path (), "--folder", NULL, "--start", "--screenshot", png,
    "--quit-when-done", "--accuracy", "1", NULL
  };
  const char *bad_argv[] = {
    gui_path (), "--folder", missing, "--start", "--quit-when-done", NULL
  };
  g_autofree char *err = NULL;
  g_autofree char *bad_err = NULL;
  g_autoptr(GDir) dir = NULL;
  int status;

  mnt = ds_test_mount_ext4 (loop, "mnt");
  argv[2] = mnt;
  umount[1] = mnt;

  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope --folder exited %d: %s", status, err);
  ck_assert (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  /* The test file is gone: the folder holds what mkfs put there only. */
  dir = g_dir_open (mnt, 0, NULL);
  ck_assert (dir != NULL);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    ck_assert_msg (strcmp (name, "lost+found") == 0, "%s left in the folder", name);
  g_clear_pointer (&dir, g_dir_close);

  status = ds_test_run (bad_argv, NULL, &bad_err);
  ck_assert_int_ne (status, 0);
  ck_assert_msg (strstr (bad_err, missing) != NULL, "the refusal does not name %s: %s", missing, bad_err);

  {
    g_autofree char *umount_err = NULL;
    int rc = ds_test_run (umount, NULL, &umount_err);

    ck_assert_msg (rc == 0, "umount: %s", umount_err);
  }
  ds_test_loop_detach (loop);
}
END_TEST

/* A run that fails (no such device) exits non-zero. */
START_TEST (test_scripted_failure)
{
  const char *argv[] = {
    gui_path (), "--device", "/dev/diskscope-no-such-device", "--start",
    "--quit-when-done", NULL
  };
  int status = ds_test_run (argv, NULL, NULL);

  ck_assert_int_ne (status, 0);
}
END_TEST

/* TRUE if @dir (a data folder: /usr/share, ~/.local/share…) holds an
 * installed Diskscope schema. */
static gboolean
has_schema (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "glib-2.0", "schemas", NULL);
  g_autoptr(GSettingsSchemaSource) source =
    g_settings_schema_source_new_from_directory (path, NULL, FALSE, NULL);
  g_autoptr(GSettingsSchema) schema =
    source ? g_settings_schema_source_lookup (source, APPLICATION_ID, FALSE) : NULL;

  return schema != NULL;
}

/* "XDG_DATA_DIRS=…": the system's data folders without those that hold an
 * installed Diskscope schema (tools/quickstart installs one into
 * ~/.local), so the app sees no schema but still finds icons and MIME
 * types. */
static char *
data_dirs_without_schema (const char *empty)
{
  const char *const *dirs = g_get_system_data_dirs ();
  g_autoptr(GString) value = g_string_new ("XDG_DATA_DIRS=");

  for (guint i = 0; dirs[i] != NULL; i++)
    if (!has_schema (dirs[i]))
      g_string_append_printf (value, "%s:", dirs[i]);
  g_string_append (value, empty);

  return g_string_free (g_steal_pointer (&value), FALSE);
}

/* From the build tree, with no GSETTINGS_SCHEMA_DIR and no schema
 * installed, the app finds the schema compiled next to it; a copy outside
 * the build tree says which schema is missing and exits 1 (GSettings alone
 * would abort). */
START_TEST (test_uninstalled_schema)
{
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "uninstalled.png", NULL);
  g_autofree char *empty = g_build_filename (ds_test_scratch_dir (), "no-data", NULL);
  g_autofree char *copy = g_build_filename (ds_test_scratch_dir (), "diskscope-copy", NULL);
  g_autofree char *data_home = g_strconcat ("XDG_DATA_HOME=", empty, NULL);
  g_autofree char *data_dirs = data_dirs_without_schema (empty);
  const char *argv[] = {
    "env", "-u", "GSETTINGS_SCHEMA_DIR", data_home, data_dirs,
    gui_path (), "--page", "info", "--screenshot", png, "--quit-when-done", NULL
  };
  const char *copy_argv[] = {
    "env", "-u", "GSETTINGS_SCHEMA_DIR", data_home, data_dirs,
    copy, "--page", "info", "--quit-when-done", NULL
  };
  g_autoptr(GFile) source = g_file_new_for_path (gui_path ());
  g_autoptr(GFile) target = g_file_new_for_path (copy);
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *copy_err = NULL;
  int status;

  ck_assert (g_mkdir_with_parents (empty, 0700) == 0);
  status = ds_test_run (argv, NULL, &err);
  ck_assert_msg (status == 0, "diskscope without GSETTINGS_SCHEMA_DIR exited %d: %s", status, err);
  ck_assert (g_file_test (png, G_FILE_TEST_IS_REGULAR));

  ck_assert_msg (g_file_copy (source, target, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error),
                 "%s", error ? error->message : "");
  ck_assert (g_chmod (copy, 0755) == 0);
  status = ds_test_run (copy_argv, NULL, &copy_err);
  ck_assert_msg (status == 1, "the copy exited %d: %s", status, copy_err);
  ck_assert_msg (strstr (copy_err, APPLICATION_ID) != NULL, "%s", copy_err);
}
END_TEST

START_TEST (test_close_mid_run)
{
  g_autofree char *loop = ds_test_loop_new (128 * MIB, FALSE);
  g_autoptr(GError) error = NULL;
  DsWindow *window = ds_window_new (NULL);
  gpointer weak = window;
  gint64 start, elapsed_us, deadline;

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));

  ck_assert (ds_window_select_device (window, loop, &error));
  ck_assert (ds_window_set_page (window, "benchmark"));
  /* Accuracy 5: two seconds per point, so the run is far from done. */
  ds_session_set_accuracy (ds_window_get_session (window), 5);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  ds_ui_test_spin (1500);
  ck_assert (ds_session_is_running (ds_window_get_session (window)));
  /* The bar over the page follows the run. */
  {
    DsRunProgress *bar = ds_ui_test_window_child (window, "run_progress");
    gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (ds_run_progress_get_fraction (bar) == 0 && g_get_monotonic_time () < until)
      ds_ui_test_spin (50);
    ck_assert (gtk_widget_get_visible (GTK_WIDGET (bar)));
    ck_assert_msg (ds_run_progress_get_fraction (bar) > 0 && ds_run_progress_get_fraction (bar) < 1,
                   "the run's progress is %g", ds_run_progress_get_fraction (bar));
    ck_assert (ds_session_is_running (ds_window_get_session (window)));
  }

  start = g_get_monotonic_time ();
  gtk_window_close (GTK_WINDOW (window));
  elapsed_us = g_get_monotonic_time () - start;
  printf ("# closing mid-run took %.1f ms\n", elapsed_us / 1000.0);
  ck_assert_msg (elapsed_us < 500 * 1000, "closing took %.0f ms", elapsed_us / 1000.0);

  /* Nothing keeps the window alive once the run's callback has run. */
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (weak != NULL && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (10);
  ck_assert_msg (weak == NULL, "the window was not finalized after closing");

  ds_test_loop_detach (loop);
}
END_TEST

/* The window's run progress draws one node whatever its fraction: a node
 * that appears when the fraction leaves 0 made GTK 4.8 repaint the whole
 * page under the overlay, a 20-35 ms frame after every Start (issue 29).
 * What it draws: the filled part in the accent colour, the rest clear. */
START_TEST (test_run_progress_one_node)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *bar = ds_run_progress_new ();
  const double fractions[] = { 0, 0.004, 0.5, 1, 7 };
  GskRenderer *renderer;

  gtk_widget_set_size_request (bar, 200, -1);
  gtk_widget_set_valign (bar, GTK_ALIGN_START);
  gtk_window_set_child (GTK_WINDOW (window), bar);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_drawn (bar, 1);
  ck_assert_int_eq (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (bar)),
                    GTK_ACCESSIBLE_ROLE_PROGRESS_BAR);
  ck_assert_int_eq (gtk_widget_get_height (bar), 4);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GdkTexture) texture = NULL;
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      double fraction = MIN (fractions[i], 1);
      int width = gtk_widget_get_width (bar);
      guint32 pixels[200 * 4];

      ds_run_progress_set_fraction (DS_RUN_PROGRESS (bar), fractions[i]);
      ck_assert_double_eq (ds_run_progress_get_fraction (DS_RUN_PROGRESS (bar)), fraction);
      GTK_WIDGET_GET_CLASS (bar)->snapshot (bar, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      ck_assert_msg (node != NULL && gsk_render_node_get_node_type (node) == GSK_LINEAR_GRADIENT_NODE,
                     "fraction %g: not one gradient node (%d)", fractions[i], node ? (int) gsk_render_node_get_node_type (node) : -1);

      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, 4));
      ck_assert_int_eq (width, 200);
      gdk_texture_download (texture, (guchar *) pixels, width * 4);
      /* Premultiplied ARGB: the alpha is the top byte. */
      for (int x = 0; x < width; x += 10)
        {
          gboolean filled = x + 1 <= fraction * width;
          gboolean clear = x >= fraction * width + 1;
          guint alpha = pixels[width + x] >> 24;

          if (filled)
            ck_assert_msg (alpha == 255, "fraction %g: x %d not filled (alpha %u)", fraction, x, alpha);
          else if (clear)
            ck_assert_msg (alpha == 0, "fraction %g: x %d filled (alpha %u)", fraction, x, alpha);
        }
    }

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-window");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-window");
  tc = tcase_create ("window");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_window_selects_loop);
  tcase_add_test (tc, test_scripted_screenshot);
  tcase_add_test (tc, test_scripted_failure);
  tcase_add_test (tc, test_scripted_folder);
  tcase_add_test (tc, test_close_mid_run);
  tcase_add_test (tc, test_uninstalled_schema);
  tcase_add_test (tc, test_run_progress_one_node);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
