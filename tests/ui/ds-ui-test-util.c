/* ds-ui-test-util.c: what the display tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <check.h>

#include "ds-benchmark-page.h"
#include "ds-ui-test-util.h"

void
ds_ui_test_setup (void)
{
  ck_assert_msg (gtk_init_check (), "no display: run under xvfb-run -a");
  adw_init ();
}

void
ds_ui_test_spin (guint ms)
{
  gint64 deadline = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

void
ds_ui_test_wait_mapped (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!gtk_widget_get_mapped (widget) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  ck_assert (gtk_widget_get_mapped (widget));
}

void
ds_ui_test_wait_for (const gboolean *flag,
                     guint           timeout_ms,
                     const char     *what)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * 1000;

  while (!*flag && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (500);
  ck_assert_msg (*flag, "%s did not happen within %u ms", what, timeout_ms);
}

GtkWidget *
ds_ui_test_benchmark_child (DsWindow   *window,
                            const char *name)
{
  GObject *page = gtk_widget_get_template_child (GTK_WIDGET (window), DS_TYPE_WINDOW,
                                                 "benchmark_page");

  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                    DS_TYPE_BENCHMARK_PAGE, name));
}
