/* ds-library-columns.c: the library window's table columns
 *
 * What each column shows of a DsLibraryEntry, and how it sorts (by a
 * click on its header; the library's own order, newest first, until
 * then).  An unreadable file shows why in the Test column, in red; a
 * result with warnings has a warning icon before its label (the tooltip
 * says how many).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-compare.h"
#include "ds-library-window-private.h"
#include "ds-pages.h"

static char *
label_text (DsLibraryEntry *entry)
{
  return g_strdup (ds_library_entry_get_label (entry));
}

static char *
device_text (DsLibraryEntry *entry)
{
  return g_strdup (ds_library_entry_get_device (entry));
}

static char *
size_text (DsLibraryEntry *entry)
{
  if (!ds_library_entry_is_readable (entry) || ds_library_entry_get_size_bytes (entry) == 0)
    return NULL;
  return g_format_size (ds_library_entry_get_size_bytes (entry));
}

/* As the switcher names its page ("Extra Tests"), else the core's title. */
char *
_ds_library_kind_text (DsLibraryEntry *entry)
{
  const DsPageInfo *page;
  const DsBenchOps *ops;

  if (!ds_library_entry_is_readable (entry))
    return NULL;

  page = ds_pages_for_kind (ds_library_entry_get_kind (entry));
  ops = ds_bench_get (ds_library_entry_get_kind (entry));
  if (page != NULL)
    return g_strdup (_(page->title));
  return g_strdup (ops != NULL ? ops->title : ds_library_entry_get_kind_name (entry));
}

static char *
date_text (DsLibraryEntry *entry)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (ds_library_entry_get_date (entry));

  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

static char *
test_text (DsLibraryEntry *entry)
{
  switch (ds_library_entry_get_status (entry))
    {
    case DS_LIBRARY_STATUS_UNREADABLE:
      return g_strdup (ds_library_entry_get_error_message (entry));
    case DS_LIBRARY_STATUS_STOPPED:
      return g_strdup_printf (_("%s (stopped)"), ds_library_entry_get_summary (entry));
    case DS_LIBRARY_STATUS_FAILED:
      return g_strdup_printf (_("%s (failed)"), ds_library_entry_get_summary (entry));
    case DS_LIBRARY_STATUS_COMPLETE:
    default:
      return g_strdup (ds_library_entry_get_summary (entry));
    }
}

/* The test's headline figure ("153.9 MB/s"): what a device's runs are
 * compared by over time. */
static char *
figure_text (DsLibraryEntry *entry)
{
  int unit;
  double value;

  if (!ds_library_entry_get_headline (entry, NULL, NULL, &unit, &value))
    return NULL;
  return ds_compare_format_value ((DsCompareUnit) unit, value, DS_UNITS_MB);
}

static int
compare_figure (gconstpointer a, gconstpointer b, gpointer data)
{
  double va = -1, vb = -1;

  ds_library_entry_get_headline ((DsLibraryEntry *) a, NULL, NULL, NULL, &va);
  ds_library_entry_get_headline ((DsLibraryEntry *) b, NULL, NULL, NULL, &vb);
  return va < vb ? -1 : va > vb;
}

static char *
tags_text (DsLibraryEntry *entry)
{
  return g_strjoinv (", ", (char **) ds_library_entry_get_tags (entry));
}

static int
compare_size (gconstpointer a, gconstpointer b, gpointer data)
{
  uint64_t sa = ds_library_entry_get_size_bytes ((DsLibraryEntry *) a);
  uint64_t sb = ds_library_entry_get_size_bytes ((DsLibraryEntry *) b);

  return sa < sb ? -1 : sa > sb;
}

static int
compare_date (gconstpointer a, gconstpointer b, gpointer data)
{
  return g_date_time_compare (ds_library_entry_get_date ((DsLibraryEntry *) a),
                              ds_library_entry_get_date ((DsLibraryEntry *) b));
}

static int compare_text (gconstpointer a, gconstpointer b, gpointer column);

static const struct {
  const char       *title;         /* N_() */
  char           *(*text) (DsLibraryEntry *entry);
  GCompareDataFunc  compare;       /* NULL: not sortable; compare_text:
                                    * by the text shown */
  gboolean          expand;
} columns[] = {
  { N_("Label"), label_text, compare_text, TRUE },
  { N_("Device"), device_text, compare_text, FALSE },
  { N_("Size"), size_text, compare_size, FALSE },
  { N_("Kind"), _ds_library_kind_text, compare_text, FALSE },
  { N_("Date"), date_text, compare_date, FALSE },
  { N_("Test"), test_text, NULL, TRUE },
  { N_("Figure"), figure_text, compare_figure, FALSE },
  { N_("Tags"), tags_text, compare_text, FALSE },
};

/* As the column shows it, in the user's collation. */
static int
compare_text (gconstpointer a,
              gconstpointer b,
              gpointer      column)
{
  guint i = GPOINTER_TO_UINT (column);
  g_autofree char *ta = columns[i].text ((DsLibraryEntry *) a);
  g_autofree char *tb = columns[i].text ((DsLibraryEntry *) b);
  g_autofree char *ka = g_utf8_collate_key (ta != NULL ? ta : "", -1);
  g_autofree char *kb = g_utf8_collate_key (tb != NULL ? tb : "", -1);

  return strcmp (ka, kb);
}

/* A cell's tooltip is its text (a long label is ellipsized) and the
 * warning icon's is its "why": both answered when asked, because
 * gtk_widget_set_tooltip_text() asks the X server where the pointer is,
 * and binding a screenful of rows did that for every cell (0.13 s of the
 * window's first frame at 10 000 results). */
static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  const char *text = GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget))
                                           : g_object_get_data (G_OBJECT (widget), "ds-tooltip");

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
answer_tooltip (GtkWidget *widget)
{
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  column)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  answer_tooltip (label);
  /* The label's column: the warning icon, then the label. */
  if (GPOINTER_TO_UINT (column) == 0)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      gtk_widget_set_visible (icon, FALSE);
      answer_tooltip (icon);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), icon);
      gtk_box_append (GTK_BOX (box), label);
      gtk_list_item_set_child (item, box);
      return;
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  column)
{
  DsLibraryEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  guint i = GPOINTER_TO_UINT (column);
  g_autofree char *text = columns[i].text (entry);

  if (GTK_IS_BOX (label))
    {
      GtkWidget *icon = gtk_widget_get_first_child (label);
      guint n = ds_library_entry_get_n_warnings (entry);
      char *why = g_strdup_printf (ngettext ("%u warning: open the result to read it",
                                             "%u warnings: open the result to read them", n), n);

      gtk_widget_set_visible (icon, n > 0);
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, why, -1);
      g_object_set_data_full (G_OBJECT (icon), "ds-tooltip", why, g_free);
      label = gtk_widget_get_last_child (label);
    }

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  if (!ds_library_entry_is_readable (entry) && columns[i].text == test_text)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
}

void
_ds_library_window_add_columns (DsLibraryWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GUINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(columns[i].title), factory);
      gtk_column_view_column_set_expand (column, columns[i].expand);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (columns[i].compare != NULL)
        {
          g_autoptr(GtkSorter) sorter =
            GTK_SORTER (gtk_custom_sorter_new (columns[i].compare, GUINT_TO_POINTER (i), NULL));

          gtk_column_view_column_set_sorter (column, sorter);
        }
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
}

