/* ds-page.c: what the window asks of each page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

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

  /**
   * DsPage::finished:
   * @success: it ended without an error
   *
   * A test the page runs itself (start()) is over.
   */
  g_signal_new ("finished", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL,
                G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
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

gboolean
ds_page_can_start (DsPage *self)
{
  g_return_val_if_fail (DS_IS_PAGE (self), FALSE);

  return DS_PAGE_GET_IFACE (self)->start != NULL;
}

gboolean
ds_page_start (DsPage      *self,
               const char  *device_path,
               GError     **error)
{
  g_return_val_if_fail (DS_IS_PAGE (self), FALSE);
  g_return_val_if_fail (ds_page_can_start (self), FALSE);

  return DS_PAGE_GET_IFACE (self)->start (self, device_path, error);
}

void
ds_page_stop (DsPage *self)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->stop)
    DS_PAGE_GET_IFACE (self)->stop (self);
}

gboolean
ds_page_is_running (DsPage *self)
{
  g_return_val_if_fail (DS_IS_PAGE (self), FALSE);

  return DS_PAGE_GET_IFACE (self)->is_running && DS_PAGE_GET_IFACE (self)->is_running (self);
}

void
ds_page_clear (DsPage *self)
{
  g_return_if_fail (DS_IS_PAGE (self));

  if (DS_PAGE_GET_IFACE (self)->clear)
    DS_PAGE_GET_IFACE (self)->clear (self);
}

gboolean
ds_page_set_option (DsPage      *self,
                    const char  *option,
                    const char  *value,
                    GError     **error)
{
  g_return_val_if_fail (DS_IS_PAGE (self), FALSE);
  g_return_val_if_fail (option != NULL, FALSE);

  if (DS_PAGE_GET_IFACE (self)->set_option == NULL)
    return ds_page_no_such_option (option, error);

  return DS_PAGE_GET_IFACE (self)->set_option (self, option, value, error);
}

gboolean
ds_page_no_such_option (const char  *option,
                        GError     **error)
{
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
               _("--%s is not a setting of this page"), option);
  return FALSE;
}

gboolean
ds_page_set_write_option (const char       *option,
                          GtkToggleButton  *write_button,
                          GError          **error)
{
  if (!g_str_equal (option, "write"))
    return ds_page_no_such_option (option, error);

  gtk_toggle_button_set_active (write_button, TRUE);
  return TRUE;
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
ds_table_remove_rows (GtkGrid *table)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_GRID (table));

  child = gtk_widget_get_first_child (GTK_WIDGET (table));
  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);
      int row;

      gtk_grid_query_child (table, child, NULL, &row, NULL, NULL);
      if (row > 0)
        gtk_grid_remove (table, child);
      child = next;
    }
}

void
ds_table_align_column (GtkGrid  *table,
                       guint     column,
                       float     xalign,
                       gboolean  expand)
{
  g_return_if_fail (GTK_IS_GRID (table));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (table));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_column;

      gtk_grid_query_child (table, child, &child_column, NULL, NULL, NULL);
      if (child_column != (int) column)
        continue;
      gtk_label_set_xalign (GTK_LABEL (child), xalign);
      gtk_widget_set_hexpand (child, expand);
    }
}

void
ds_table_add_row_class (GtkGrid    *table,
                        guint       row,
                        const char *css_class)
{
  g_return_if_fail (GTK_IS_GRID (table));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (table));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_row;

      gtk_grid_query_child (table, child, NULL, &child_row, NULL, NULL);
      if (child_row == (int) row)
        gtk_widget_add_css_class (child, css_class);
    }
}

void
ds_rows_add_figure (GPtrArray  *rows,
                    gpointer    group,
                    const char *title,
                    const char *value,
                    const char *css_class)
{
  GtkWidget *row = adw_action_row_new ();

  g_return_if_fail (ADW_IS_PREFERENCES_GROUP (group));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (value != NULL)
    {
      GtkWidget *label = gtk_label_new (value);

      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
      if (css_class != NULL)
        gtk_widget_add_css_class (label, css_class);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }
  adw_preferences_group_add (group, row);

  g_ptr_array_add (rows, group);
  g_ptr_array_add (rows, row);
}

void
ds_rows_remove_all (GPtrArray *rows)
{
  for (guint i = 0; i + 1 < rows->len; i += 2)
    adw_preferences_group_remove (rows->pdata[i], rows->pdata[i + 1]);
  g_ptr_array_set_size (rows, 0);
}

char *
ds_format_local_time (const char *iso8601)
{
  g_autoptr(GDateTime) utc = iso8601 ? g_date_time_new_from_iso8601 (iso8601, NULL) : NULL;
  g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;

  if (local == NULL)
    return g_strdup (iso8601 ? iso8601 : "");

  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
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
