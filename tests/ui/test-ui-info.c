/* test-ui-info.c: the Info page lists what a device can do
 *
 * Runs under Xvfb (suite "ui") as root: a loop device.  HD Tune's Info tab
 * lists the drive's features (SMART, TRIM, NCQ, link speed); so does the
 * Info page, in its Features group, read from sysfs: a loop device takes
 * discards in steps of its backing filesystem's block, has one hardware
 * queue and no SMART.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <check.h>

#include "ds-device.h"
#include "ds-info-page.h"
#include "ds-page.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"

/* "Title=value\n" for every action row under @widget. */
static void
collect_rows (GtkWidget  *widget,
              GString    *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (ADW_IS_ACTION_ROW (child))
        {
          const char *title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child));

          g_string_append_printf (out, "%s=", title);
          {
            /* Every label in the row, the suffix last. */
            GPtrArray *labels = g_ptr_array_new ();
            GtkWidget *stack[64];
            int top = 0;

            stack[top++] = child;
            while (top > 0)
              {
                GtkWidget *w = stack[--top];

                if (GTK_IS_LABEL (w) && gtk_widget_get_visible (w))
                  g_ptr_array_add (labels, w);
                for (GtkWidget *c = gtk_widget_get_last_child (w); c != NULL && top < 64;
                     c = gtk_widget_get_prev_sibling (c))
                  stack[top++] = c;
              }
            if (labels->len > 0)
              g_string_append (out, gtk_label_get_text (labels->pdata[labels->len - 1]));
            g_ptr_array_unref (labels);
          }
          g_string_append_c (out, '\n');
          continue;
        }
      collect_rows (child, out);
    }
}

START_TEST (test_info_features)
{
  g_autofree char *loop = ds_test_loop_new (32 << 20, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) device = ds_device_lookup (loop, &error);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_new (DS_TYPE_INFO_PAGE, NULL);
  g_autoptr (GString) rows = g_string_new (NULL);

  ck_assert_msg (device != NULL, "%s", error ? error->message : "");
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (window);
  ds_page_set_device (DS_PAGE (page), device);
  ds_ui_test_spin (100);

  collect_rows (page, rows);
  ck_assert_msg (strstr (rows->str, "\nSMART=Not available (virtual device)\n") != NULL, "%s", rows->str);
  ck_assert_msg (strstr (rows->str, "\nTRIM / Discard=Yes, in steps of 4 KiB\n") != NULL ||
                 strstr (rows->str, "\nTRIM / Discard=Yes, in steps of 512 bytes\n") != NULL,
                 "%s", rows->str);
  ck_assert_msg (strstr (rows->str, "\nQueues=1 × ") != NULL, "%s", rows->str);
  ck_assert_msg (strstr (rows->str, "\nForced Unit Access=") != NULL, "%s", rows->str);
  /* A loop device has no link. */
  ck_assert_msg (strstr (rows->str, "Link Speed=") == NULL, "%s", rows->str);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-info");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-info");
  tc = tcase_create ("info");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_info_features);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
