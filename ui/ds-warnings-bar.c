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
  /* A box, not a GtkInfoBar: GTK 4.8's info bar measures wrapped
   * labels wrong ("reports a minimum height of 46, but ... 47"). */
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (_("These figures are likely fooled"));

  gtk_widget_set_name (bar, "warnings_bar");
  gtk_widget_add_css_class (bar, "warnings-bar");
  gtk_widget_set_visible (bar, FALSE);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (bar), title);
  g_object_set_data (G_OBJECT (bar), ROWS_KEY, bar);

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
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "warning-text");
      gtk_widget_set_tooltip_text (row, w->code);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (rows, row);
    }

  gtk_widget_set_visible (bar, result != NULL && result->warnings != NULL && result->warnings->len > 0);
}
