/* ds-warnings-bar.c: the visible result's warnings, one row each with a
 * warning icon and the sentence (never colour alone), above the page; the
 * code is the row's tooltip, as scripts see it in the JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-warnings-bar.h"
#include "ds-warnings.h"

#define ROWS_KEY "ds-warnings-rows"

GtkWidget *
ds_warnings_bar_new (void)
{
  GtkWidget *bar = gtk_info_bar_new ();
  GtkWidget *rows = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (_("These figures are likely fooled"));

  gtk_info_bar_set_message_type (GTK_INFO_BAR (bar), GTK_MESSAGE_WARNING);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (bar), FALSE);
  gtk_widget_set_name (bar, "warnings_bar");

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (rows), title);
  gtk_widget_set_hexpand (rows, TRUE);
  gtk_info_bar_add_child (GTK_INFO_BAR (bar), rows);
  g_object_set_data (G_OBJECT (bar), ROWS_KEY, rows);

  return bar;
}

void
ds_warnings_bar_set_result (GtkWidget      *bar,
                            const DsResult *result)
{
  GtkBox *rows = g_object_get_data (G_OBJECT (bar), ROWS_KEY);
  GtkWidget *title = gtk_widget_get_first_child (GTK_WIDGET (rows));
  GtkWidget *child;

  /* Every row but the title goes. */
  while ((child = gtk_widget_get_next_sibling (title)) != NULL)
    gtk_box_remove (rows, child);

  for (guint i = 0; result != NULL && result->warnings != NULL && i < result->warnings->len; i++)
    {
      const DsWarning *w = result->warnings->pdata[i];
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      GtkWidget *label = gtk_label_new (w->message);

      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Warning"), -1);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_tooltip_text (row, w->code);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (rows, row);
    }

  gtk_info_bar_set_revealed (GTK_INFO_BAR (bar),
                             result != NULL && result->warnings != NULL && result->warnings->len > 0);
}
