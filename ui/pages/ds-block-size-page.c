/* ds-block-size-page.c: HD Tune's Block Size test
 *
 * Sequential read (and write) speed for each block size from 0.5 KB to
 * 8 MB, as curves over a log2 axis and as a table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-block-size.h"
#include "ds-block-size-page.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-page.h"
#include "ds-series.h"
#include "ds-session.h"

enum {
  COLUMN_SIZE,
  COLUMN_READ,
  COLUMN_WRITE,
};

struct _DsBlockSizePage
{
  GtkWidget        parent_instance;

  DsSeries        *read;
  DsSeries        *write;
  DsUnits          units;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  DsGraph         *graph;
  DsGraphLayer    *read_layer;
  DsGraphLayer    *write_layer;
  GtkToggleButton *read_button;
  GtkToggleButton *write_button;
  GtkGrid         *table;
  GtkLabel        *status_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsBlockSizePage, ds_block_size_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

/* Row of the table for a block size (0.5 KB is row 1). */
static guint
row_for_bytes (uint64_t block_bytes)
{
  guint row = 1;

  for (uint64_t size = DS_BLOCK_SIZE_MIN_BYTES; size < block_bytes; size <<= 1)
    row++;

  return row;
}

static void
set_rate (DsBlockSizePage *self,
          uint64_t         block_bytes,
          gboolean         write,
          double           bytes_per_s)
{
  g_autofree char *text = NULL;
  guint row = row_for_bytes (block_bytes);

  if (row > DS_BLOCK_SIZE_N_SIZES || bytes_per_s < 0)
    return;

  text = ds_format_rate_l10n (bytes_per_s, self->units);
  ds_table_set_cell (self->table, row, write ? COLUMN_WRITE : COLUMN_READ, text);
  ds_series_append (write ? self->write : self->read, block_bytes, bytes_per_s, 0);
}

static void
ds_block_size_page_set_units (DsPage  *page,
                              DsUnits  units)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
}

static gboolean
ds_block_size_page_configure (DsPage       *page,
                              DsBenchSpec  *spec,
                              GError      **error)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);

  spec->write = gtk_toggle_button_get_active (self->write_button);

  return TRUE;
}

static void
ds_block_size_page_show_error (DsPage     *page,
                               const char *message)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
clear (DsBlockSizePage *self)
{
  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
  ds_table_clear (self->table);
}

static void
ds_block_size_page_begin (DsPage            *page,
                          const DsBenchSpec *spec)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);

  ds_block_size_page_show_error (page, NULL);
  clear (self);
  gtk_label_set_label (self->status_label, "");
}

/* Empty, as when a run starts. */
static void
ds_block_size_page_clear (DsPage *page)
{
  ds_block_size_page_begin (page, NULL);
}

static void
ds_block_size_page_add_samples (DsPage         *page,
                                const DsSample *samples,
                                guint           n_samples)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);
  gboolean changed = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind != DS_SAMPLE_ROW || sample->bytes == 0)
        continue;

      set_rate (self, sample->bytes, sample->write, sample->value);
      changed = TRUE;
    }

  if (changed)
    {
      ds_series_changed (self->read);
      ds_series_changed (self->write);
    }
}

static void
ds_block_size_page_show_result (DsPage         *page,
                                const DsResult *result)
{
  DsBlockSizePage *self = DS_BLOCK_SIZE_PAGE (page);
  const DsBlockSizeData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);
  gboolean wrote = FALSE;

  g_return_if_fail (result->kind == DS_BENCH_BLOCK_SIZE);

  ds_block_size_page_show_error (page, error);
  clear (self);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The table shows the sizes that finished.") : "");

  if (data == NULL || data->rows == NULL)
    return;

  for (guint i = 0; i < data->rows->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (data->rows, DsBlockSizeRow, i);

      set_rate (self, row->block_bytes, FALSE, row->read_bytes_per_s);
      set_rate (self, row->block_bytes, TRUE, row->write_bytes_per_s);
      wrote |= row->write_bytes_per_s >= 0;
    }

  gtk_toggle_button_set_active (wrote ? self->write_button : self->read_button, TRUE);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
}

static gboolean
ds_block_size_page_set_option (DsPage      *page,
                               const char  *option,
                               const char  *value,
                               GError     **error)
{
  return ds_page_set_write_option (option, DS_BLOCK_SIZE_PAGE (page)->write_button, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_block_size_page_set_units;
  iface->configure = ds_block_size_page_configure;
  iface->begin = ds_block_size_page_begin;
  iface->add_samples = ds_block_size_page_add_samples;
  iface->show_result = ds_block_size_page_show_result;
  iface->show_error = ds_block_size_page_show_error;
  iface->clear = ds_block_size_page_clear;
  iface->set_option = ds_block_size_page_set_option;
}

static void
error_bar_response_cb (DsBlockSizePage *self,
                       int              response,
                       GtkInfoBar      *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_block_size_page_dispose (GObject *object)
{
  DsBlockSizePage *self = (DsBlockSizePage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_BLOCK_SIZE_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->read);
  g_clear_object (&self->write);

  G_OBJECT_CLASS (ds_block_size_page_parent_class)->dispose (object);
}

static void
ds_block_size_page_class_init (DsBlockSizePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_block_size_page_dispose;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-block-size-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, read_layer);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, write_layer);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, read_button);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, write_button);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, table);
  gtk_widget_class_bind_template_child (widget_class, DsBlockSizePage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_block_size_page_init (DsBlockSizePage *self)
{
  const char *headings[] = { _("Block Size"), _("Read"), _("Write"), NULL };
  uint64_t size = DS_BLOCK_SIZE_MIN_BYTES;

  self->read = ds_series_new ();
  self->write = ds_series_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->read_layer, self->read);
  ds_graph_layer_set_series (self->write_layer, self->write);

  ds_table_set_headings (self->table, headings);
  for (guint i = 0; i < DS_BLOCK_SIZE_N_SIZES; i++, size <<= 1)
    {
      g_autofree char *title = ds_block_size_format (size);

      ds_table_set_cell (self->table, i + 1, COLUMN_SIZE, title);
    }
  ds_table_clear (self->table);
}
