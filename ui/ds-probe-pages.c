/* ds-probe-pages.c: what the Saturation, Sustained Write and Cache Probe
 * pages share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-probe-pages.h"

char *
ds_probe_format_iops (double iops)
{
  g_autofree char *digits = g_strdup_printf ("%.0f", iops > 0 ? iops : 0);
  GString *out = g_string_new (NULL);
  size_t len = strlen (digits);

  for (size_t i = 0; i < len; i++)
    {
      /* A no-break space: a figure never breaks across lines. */
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, "\u00a0");
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

uint64_t
ds_probe_choice (GtkDropDown    *dropdown,
                 const uint64_t *values,
                 guint           n_values)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  return selected < n_values ? values[selected] : 0;
}

void
ds_probe_select (GtkDropDown    *dropdown,
                 const uint64_t *values,
                 guint           n_values,
                 uint64_t        value)
{
  for (guint i = 0; i < n_values; i++)
    if (values[i] == value)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
}

void
ds_probe_show_error (GtkInfoBar *bar,
                     GtkLabel   *label,
                     const char *message)
{
  gtk_label_set_label (label, message ? message : "");
  gtk_info_bar_set_revealed (bar, message != NULL);
}

void
ds_probe_set_running (GtkWidget **widgets,
                      gboolean    running)
{
  for (guint i = 0; widgets[i] != NULL; i++)
    gtk_widget_set_sensitive (widgets[i], !running);
}
