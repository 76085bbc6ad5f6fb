/* test-ui-warnings.c: the window shows the visible result's warnings, an
 * icon and the sentence each, after a real run on a loop device without
 * direct I/O; a result without warnings hides them; putting an opened
 * result away brings the run's back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-test-util.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

#define MIB (UINT64_C (1) << 20)

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The bar's rows' text, and whether each row has its warning icon. */
static char *
bar_text (GtkWidget *bar,
          guint     *ret_icons)
{
  g_autoptr (GString) s = g_string_new (NULL);

  *ret_icons = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (bar); row != NULL; row = gtk_widget_get_next_sibling (row))
    for (GtkWidget *c = gtk_widget_get_first_child (row); c != NULL; c = gtk_widget_get_next_sibling (c))
      {
        if (GTK_IS_IMAGE (c) && g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (c)),
                                           "dialog-warning-symbolic") == 0)
          (*ret_icons)++;
        if (GTK_IS_LABEL (c))
          g_string_append_printf (s, "%s\n", gtk_label_get_text (GTK_LABEL (c)));
      }
  return g_strdup (s->str);
}

START_TEST (test_run_shows_warnings)
{
  g_autofree char *file = ds_test_make_file ("nodio.img", 64 * MIB, 5);
  g_autofree char *clean_file = ds_test_make_file ("clean.img", 32 * MIB, 6);
  g_autofree char *dev = ds_test_loop_attach_dio (file, FALSE);
  g_autofree char *clean = ds_test_loop_attach_dio (clean_file, TRUE);
  g_autofree char *saved = ds_test_scratch_path ("clean.json");
  g_autofree char *text = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  DsWindow *window = ds_window_new (NULL);
  DsSession *session = ds_window_get_session (window);
  GtkWidget *bar;
  gint64 deadline;
  guint icons = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 800);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  bar = find_named (GTK_WIDGET (window), "warnings_bar");
  ck_assert (bar != NULL);
  ck_assert (!gtk_widget_get_visible (bar));

  ck_assert_msg (ds_window_select_device (window, dev, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "random-access"));
  ds_session_set_accuracy (session, 1);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  deadline = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;
  while (ds_session_is_running (session) && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (50);
  ck_assert (!ds_session_is_running (session));
  ds_ui_test_spin (200);

  ck_assert_msg (gtk_widget_get_visible (bar), "no warnings shown after a run on a loop without direct I/O");
  text = bar_text (bar, &icons);
  ck_assert_msg (strstr (text, "page cache") != NULL && strstr (text, file) != NULL, "%s", text);
  ck_assert_uint_ge (icons, 1);
  ds_ui_test_shoot (GTK_WIDGET (window), "warnings");
  ds_ui_test_keep_screenshot (window, "warnings.png");

  /* A saved result without warnings: the bar goes; put away, it is back. */
  ck_assert_msg (ds_test_cli (&out, &err, "random-access", clean, "--accuracy", "1", "--no-progress",
                              "--no-library", "-o", saved, NULL) == 0, "%s", err);
  ck_assert_msg (ds_ui_test_open_result (window, saved, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (100);
  ck_assert_msg (!gtk_widget_get_visible (bar), "warnings shown for a clean result");
  ds_session_close_result (session, DS_BENCH_RANDOM_ACCESS);
  ds_ui_test_spin (100);
  ck_assert (gtk_widget_get_visible (bar));

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (dev);
  ds_test_loop_detach (clean);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-warnings");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-warnings");
  tc = tcase_create ("warnings");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_run_shows_warnings);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
