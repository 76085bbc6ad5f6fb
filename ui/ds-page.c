/* ds-page.c: what the window asks of each page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-page.h"

G_DEFINE_INTERFACE (DsPage, ds_page, GTK_TYPE_WIDGET)

static gboolean
ds_page_real_configure (DsPage       *self,
                        DsBenchSpec  *spec,
                        GError      **error)
{
  return TRUE;
}

static void
ds_page_default_init (DsPageInterface *iface)
{
  iface->configure = ds_page_real_configure;
}

void
ds_page_set_device (DsPage         *self,
                    const DsDevice *device)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->set_device)
    DS_PAGE_GET_IFACE (self)->set_device (self, device);
}

void
ds_page_set_units (DsPage  *self,
                   DsUnits  units)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->set_units)
    DS_PAGE_GET_IFACE (self)->set_units (self, units);
}

gboolean
ds_page_configure (DsPage       *self,
                   DsBenchSpec  *spec,
                   GError      **error)
{
  g_return_val_if_fail (DS_IS_PAGE (self), FALSE);

  return DS_PAGE_GET_IFACE (self)->configure (self, spec, error);
}

void
ds_page_begin (DsPage            *self,
               const DsBenchSpec *spec)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->begin)
    DS_PAGE_GET_IFACE (self)->begin (self, spec);
}

void
ds_page_add_samples (DsPage         *self,
                     const DsSample *samples,
                     guint           n_samples)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->add_samples)
    DS_PAGE_GET_IFACE (self)->add_samples (self, samples, n_samples);
}

void
ds_page_show_result (DsPage         *self,
                     const DsResult *result)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->show_result)
    DS_PAGE_GET_IFACE (self)->show_result (self, result);
}

void
ds_page_show_error (DsPage     *self,
                    const char *message)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->show_error)
    DS_PAGE_GET_IFACE (self)->show_error (self, message);
}

void
ds_page_clear (DsPage *self)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->clear)
    DS_PAGE_GET_IFACE (self)->clear (self);
}

static GtkLabel *
table_cell (GtkGrid *table,
            guint    row,
            guint    column)
{
  GtkWidget *child = gtk_grid_get_child_at (table, column, row);

  if (child == NULL)
    {
      child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (child), column == 0 ? 0 : 1);
      gtk_widget_set_hexpand (child, column == 0);
      if (row == 0)
        gtk_widget_add_css_class (child, "heading");
      else if (column > 0)
        gtk_widget_add_css_class (child, "numeric");
      if (row > 0 && row % 2 == 0)
        gtk_widget_add_css_class (child, "even");
      gtk_grid_attach (table, child, column, row, 1, 1);
    }

  return GTK_LABEL (child);
}

void
ds_table_set_headings (GtkGrid           *table,
                       const char *const *headings)
{
  g_return_if_fail (GTK_IS_GRID (table));

  gtk_widget_add_css_class (GTK_WIDGET (table), "figures-table");
  for (guint i = 0; headings[i] != NULL; i++)
    gtk_label_set_label (table_cell (table, 0, i), headings[i]);
}

void
ds_table_set_cell (GtkGrid    *table,
                   guint       row,
                   guint       column,
                   const char *text)
{
  g_return_if_fail (GTK_IS_GRID (table));
  g_return_if_fail (row > 0);

  gtk_label_set_label (table_cell (table, row, column), text ? text : "—");
}

void
ds_table_clear (GtkGrid *table)
{
  int n_rows = 0, n_columns = 0;

  g_return_if_fail (GTK_IS_GRID (table));

  /* Every cell of every row, made if it is not there yet: a row that was
   * never filled shows its dashes (and its stripe) across the table. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (table));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int column, row;

      gtk_grid_query_child (table, child, &column, &row, NULL, NULL);
      n_rows = MAX (n_rows, row + 1);
      if (row == 0)
        n_columns = MAX (n_columns, column + 1);
    }

  for (int row = 1; row < n_rows; row++)
    for (int column = 1; column < n_columns; column++)
      gtk_label_set_label (table_cell (table, row, column), "—");
}

uint64_t
ds_page_result_span (const DsResult *result,
                     uint64_t        span_bytes,
                     const char     *device_path,
                     uint64_t        device_size)
{
  if (span_bytes > 0)
    return span_bytes;
  if (result->target.size_bytes > 0)
    return result->target.size_bytes;
  if (device_path != NULL && g_strcmp0 (result->target.path, device_path) == 0)
    return device_size;

  return 0;
}

void
ds_widget_unparent_children (GtkWidget *widget)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}

char *
ds_markup_unbreakable (const char *format,
                       const char *text)
{
  g_autofree char *escaped_format = NULL;
  g_autofree char *escaped_text = NULL;
  g_auto(GStrv) parts = NULL;
  GString *out;

  g_return_val_if_fail (format != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  /* Each side of the "%s" escaped on its own, the text in a span that
   * allows no line break (Pango 1.44). */
  parts = g_strsplit (format, "%s", 2);
  escaped_text = g_markup_escape_text (text, -1);
  out = g_string_new (NULL);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *escaped = g_markup_escape_text (parts[i], -1);

      if (i > 0)
        g_string_append_printf (out, "<span allow_breaks=\"false\">%s</span>", escaped_text);
      g_string_append (out, escaped);
    }

  return g_string_free (out, FALSE);
}
