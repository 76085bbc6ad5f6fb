/* ds-extra-page.c: HD Tune's Extra Tests
 *
 * One table row per test (random seek, butterfly, sequential outer/middle/
 * inner, burst): access time, IOPS and speed, filled as each row finishes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-extra.h"
#include "ds-extra-page.h"
#include "ds-page.h"
#include "ds-session.h"

enum {
  COLUMN_TEST,
  COLUMN_ACCESS,
  COLUMN_IOPS,
  COLUMN_SPEED,
};

struct _DsExtraPage
{
  GtkWidget        parent_instance;

  DsUnits          units;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkToggleButton *read_button;
  GtkToggleButton *write_button;
  GtkGrid         *table;
  GtkLabel        *status_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsExtraPage, ds_extra_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
set_row (DsExtraPage *self,
         guint        row,
         double       iops,
         double       access_s,
         double       bytes_per_s)
{
  g_autofree char *access = access_s > 0 ? ds_format_ms_l10n (access_s) : NULL;
  g_autofree char *rate = bytes_per_s >= 0 ? ds_format_rate_l10n (bytes_per_s, self->units) : NULL;
  g_autofree char *ops = iops >= 0 ? g_strdup_printf ("%.0f", iops) : NULL;

  ds_table_set_cell (self->table, row + 1, COLUMN_ACCESS, access);
  ds_table_set_cell (self->table, row + 1, COLUMN_IOPS, ops);
  ds_table_set_cell (self->table, row + 1, COLUMN_SPEED, rate);
}

static void
ds_extra_page_set_units (DsPage  *page,
                         DsUnits  units)
{
  DS_EXTRA_PAGE (page)->units = units;
}

static gboolean
ds_extra_page_configure (DsPage       *page,
                         DsBenchSpec  *spec,
                         GError      **error)
{
  DsExtraPage *self = DS_EXTRA_PAGE (page);

  spec->write = gtk_toggle_button_get_active (self->write_button);

  return TRUE;
}

static void
ds_extra_page_show_error (DsPage     *page,
                          const char *message)
{
  DsExtraPage *self = DS_EXTRA_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
ds_extra_page_begin (DsPage            *page,
                     const DsBenchSpec *spec)
{
  DsExtraPage *self = DS_EXTRA_PAGE (page);

  ds_extra_page_show_error (page, NULL);
  ds_table_clear (self->table);
  gtk_label_set_label (self->status_label, "");
}

/* Empty, as when a run starts. */
static void
ds_extra_page_clear (DsPage *page)
{
  ds_extra_page_begin (page, NULL);
}

static void
ds_extra_page_add_samples (DsPage         *page,
                           const DsSample *samples,
                           guint           n_samples)
{
  DsExtraPage *self = DS_EXTRA_PAGE (page);

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind == DS_SAMPLE_PHASE && sample->index < DS_EXTRA_N_ROWS)
        {
          g_autofree char *text =
            g_strdup_printf (_("Measuring “%s”…"), ds_extra_row_title (sample->index));

          gtk_label_set_label (self->status_label, text);
        }
      else if (sample->kind == DS_SAMPLE_ROW && sample->index < DS_EXTRA_N_ROWS)
        {
          /* QD1: the mean access time is the inverse of the IOPS. */
          double access_s = sample->value > 0 ? 1 / sample->value : -1;
          double rate = sample->elapsed_ns > 0 ? sample->bytes * 1e9 / sample->elapsed_ns : -1;

          set_row (self, sample->index, sample->value, access_s, rate);
        }
    }
}

static void
ds_extra_page_show_result (DsPage         *page,
                           const DsResult *result)
{
  DsExtraPage *self = DS_EXTRA_PAGE (page);
  const DsExtraData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);
  GArray *rows;

  g_return_if_fail (result->kind == DS_BENCH_EXTRA);

  ds_extra_page_show_error (page, error);
  ds_table_clear (self->table);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The table shows the rows that finished.") : "");

  if (data == NULL)
    return;

  rows = data->write_present && !data->read_present ? data->write : data->read;
  gtk_toggle_button_set_active (rows == data->write ? self->write_button : self->read_button, TRUE);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);

      if (row->row < DS_EXTRA_N_ROWS)
        set_row (self, row->row, row->iops, row->access_time_s, row->bytes_per_s);
    }
}

static gboolean
ds_extra_page_set_option (DsPage      *page,
                          const char  *option,
                          const char  *value,
                          GError     **error)
{
  return ds_page_set_write_option (option, DS_EXTRA_PAGE (page)->write_button, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_extra_page_set_units;
  iface->configure = ds_extra_page_configure;
  iface->begin = ds_extra_page_begin;
  iface->clear = ds_extra_page_clear;
  iface->set_option = ds_extra_page_set_option;
  iface->add_samples = ds_extra_page_add_samples;
  iface->show_result = ds_extra_page_show_result;
  iface->show_error = ds_extra_page_show_error;
}

static void
error_bar_response_cb (DsExtraPage *self,
                       int          response,
                       GtkInfoBar  *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_extra_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DS_TYPE_EXTRA_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (ds_extra_page_parent_class)->dispose (object);
}

static void
ds_extra_page_class_init (DsExtraPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_extra_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-extra-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, read_button);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, write_button);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, table);
  gtk_widget_class_bind_template_child (widget_class, DsExtraPage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_extra_page_init (DsExtraPage *self)
{
  const char *headings[] = { _("Test"), _("Access Time"), _("IOPS"), _("Speed"), NULL };

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_table_set_headings (self->table, headings);
  for (guint i = 0; i < DS_EXTRA_N_ROWS; i++)
    ds_table_set_cell (self->table, i + 1, COLUMN_TEST, ds_extra_row_title (i));
  ds_table_clear (self->table);
}
