/* ds-probe-pages.c: what the Saturation, Sustained Write and Cache Probe
 * pages share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
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

gboolean
ds_probe_select_option (GtkDropDown     *dropdown,
                        const uint64_t  *values,
                        guint            n_values,
                        uint64_t         value,
                        const char      *option,
                        const char      *text,
                        GError         **error)
{
  GListModel *items = gtk_drop_down_get_model (dropdown);
  g_autoptr(GString) offered = g_string_new (NULL);

  for (guint i = 0; i < n_values; i++)
    if (values[i] == value)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return TRUE;
      }

  for (guint i = 0; GTK_IS_STRING_LIST (items) && i < g_list_model_get_n_items (items); i++)
    g_string_append_printf (offered, "%s%s", i > 0 ? ", " : "",
                            gtk_string_list_get_string (GTK_STRING_LIST (items), i));
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--%s: the page offers %s, not “%s”"), option, offered->str, text);
  return FALSE;
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
