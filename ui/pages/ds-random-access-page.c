/* ds-random-access-page.c: HD Tune's Random Access
 *
 * A scatter of every access time over its position on the disk, one colour
 * per transfer size as HD Tune draws it, and the table of transfer sizes
 * (512 bytes … 1 MB, and mixed sizes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-random-access.h"
#include "ds-dots-layer.h"
#include "ds-graph.h"
#include "ds-page.h"
#include "ds-random-access-page.h"
#include "ds-series.h"
#include "ds-session.h"

enum {
  COLUMN_TRANSFER,
  COLUMN_IOPS,
  COLUMN_AVG,
  COLUMN_MAX,
  COLUMN_P99,
  COLUMN_SPEED,
};

struct _DsRandomAccessPage
{
  GtkWidget        parent_instance;

  /* One cloud per row (transfer size), each in its own colour. */
  DsSeries        *access[DS_RANDOM_ACCESS_N_ROWS];
  DsUnits          units;
  uint64_t         device_size;
  char            *device_path;
  /* Per row while it runs: the largest access seen (the result has the
   * percentiles). */
  double           row_max_s[DS_RANDOM_ACCESS_N_ROWS];

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  DsGraph         *graph;
  GtkToggleButton *read_button;
  GtkToggleButton *write_button;
  GtkGrid         *table;
  GtkLabel        *status_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsRandomAccessPage, ds_random_access_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
set_ms (GtkGrid *table,
        guint    row,
        guint    column,
        double   seconds)
{
  g_autofree char *text = seconds >= 0 ? ds_format_ms_l10n (seconds) : NULL;

  ds_table_set_cell (table, row, column, text);
}

static gboolean
has_points (DsRandomAccessPage *self)
{
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    if (ds_series_get_n_points (self->access[i]) > 0)
      return TRUE;
  return FALSE;
}

static void
clear_points (DsRandomAccessPage *self)
{
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    ds_series_clear (self->access[i]);
}

static void
points_changed (DsRandomAccessPage *self)
{
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    ds_series_changed (self->access[i]);
}

static void
ds_random_access_page_set_device (DsPage         *page,
                                  const DsDevice *device)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);

  self->device_size = device ? device->size_bytes : 0;
  g_free (self->device_path);
  self->device_path = device ? g_strdup (device->path) : NULL;
  if (!has_points (self))
    ds_graph_set_x_max (self->graph, self->device_size);
}

static void
ds_random_access_page_set_units (DsPage  *page,
                                 DsUnits  units)
{
  DS_RANDOM_ACCESS_PAGE (page)->units = units;
}

static gboolean
ds_random_access_page_configure (DsPage       *page,
                                 DsBenchSpec  *spec,
                                 GError      **error)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);

  spec->write = gtk_toggle_button_get_active (self->write_button);

  return TRUE;
}

static void
ds_random_access_page_show_error (DsPage     *page,
                                  const char *message)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
ds_random_access_page_begin (DsPage            *page,
                             const DsBenchSpec *spec)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);

  ds_random_access_page_show_error (page, NULL);
  clear_points (self);
  ds_table_clear (self->table);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    self->row_max_s[i] = 0;
  ds_graph_set_x_max (self->graph,
                      spec->capacity_bytes ? MIN (spec->capacity_bytes, self->device_size)
                                           : self->device_size);
  gtk_label_set_label (self->status_label, "");
}

static void
ds_random_access_page_add_samples (DsPage         *page,
                                   const DsSample *samples,
                                   guint           n_samples)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);
  gboolean access = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      switch (sample->kind)
        {
        case DS_SAMPLE_ACCESS:
          if (sample->index < DS_RANDOM_ACCESS_N_ROWS)
            {
              ds_series_append (self->access[sample->index], sample->offset_bytes,
                                sample->elapsed_ns / 1e9, sample->error);
              self->row_max_s[sample->index] = MAX (self->row_max_s[sample->index],
                                                    sample->elapsed_ns / 1e9);
              access = TRUE;
            }
          break;

        case DS_SAMPLE_PHASE:
          if (sample->index < DS_RANDOM_ACCESS_N_ROWS)
            {
              DsRandomAccessRow row = { .transfer_bytes = ds_random_access_row_bytes (sample->index) };
              g_autofree char *title = ds_random_access_row_title (&row);
              g_autofree char *text = g_strdup_printf (_("Measuring %s…"), title);

              gtk_label_set_label (self->status_label, text);
            }
          break;

        case DS_SAMPLE_ROW:
          if (sample->index < DS_RANDOM_ACCESS_N_ROWS)
            {
              guint row = sample->index + 1;
              g_autofree char *iops = g_strdup_printf ("%.0f", sample->value);
              g_autofree char *rate = NULL;

              if (sample->elapsed_ns > 0)
                rate = ds_format_rate_l10n (sample->bytes * 1e9 / sample->elapsed_ns, self->units);

              ds_table_set_cell (self->table, row, COLUMN_IOPS, iops);
              /* QD1: the mean access time is the inverse of the IOPS. */
              set_ms (self->table, row, COLUMN_AVG, sample->value > 0 ? 1 / sample->value : -1);
              set_ms (self->table, row, COLUMN_MAX, self->row_max_s[sample->index]);
              ds_table_set_cell (self->table, row, COLUMN_SPEED, rate);
            }
          break;

        case DS_SAMPLE_POINT:
        case DS_SAMPLE_PROGRESS:
        default:
          break;
        }
    }

  if (access)
    points_changed (self);
}

static void
ds_random_access_page_show_result (DsPage         *page,
                                   const DsResult *result)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);
  const DsRandomAccessData *data = result->data;
  const DsRandomAccessDir *dir;
  g_autofree char *error = ds_session_describe_error (result);

  g_return_if_fail (result->kind == DS_BENCH_RANDOM_ACCESS);

  ds_random_access_page_show_error (page, error);
  clear_points (self);
  ds_table_clear (self->table);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The table shows the rows that finished.") : "");

  ds_graph_set_x_max (self->graph, ds_page_result_span (result, data ? data->span_bytes : 0,
                                                       self->device_path, self->device_size));

  if (data == NULL)
    return;

  dir = data->write.present && !data->read.present ? &data->write : &data->read;
  gtk_toggle_button_set_active (dir == &data->write ? self->write_button : self->read_button, TRUE);

  for (guint i = 0; dir->rows != NULL && i < dir->rows->len && i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      g_autofree char *title = ds_random_access_row_title (row);
      g_autofree char *iops = g_strdup_printf ("%.0f", row->iops);
      g_autofree char *rate = ds_format_rate_l10n (row->bytes_per_s, self->units);

      ds_table_set_cell (self->table, i + 1, COLUMN_TRANSFER, title);
      ds_table_set_cell (self->table, i + 1, COLUMN_IOPS, iops);
      set_ms (self->table, i + 1, COLUMN_AVG, row->avg_access_s);
      set_ms (self->table, i + 1, COLUMN_MAX, row->max_access_s);
      set_ms (self->table, i + 1, COLUMN_P99, row->p99_s);
      ds_table_set_cell (self->table, i + 1, COLUMN_SPEED, rate);
    }

  for (guint i = 0; dir->points != NULL && i < dir->points->len; i++)
    {
      const DsRandomAccessPoint *point = &g_array_index (dir->points, DsRandomAccessPoint, i);

      if (point->row < DS_RANDOM_ACCESS_N_ROWS)
        ds_series_append (self->access[point->row], point->offset_bytes, point->access_s, 0);
    }
  points_changed (self);
}

static void
ds_random_access_page_clear (DsPage *page)
{
  DsRandomAccessPage *self = DS_RANDOM_ACCESS_PAGE (page);

  ds_random_access_page_show_error (page, NULL);
  clear_points (self);
  points_changed (self);
  ds_table_clear (self->table);
  ds_graph_set_x_max (self->graph, self->device_size);
  gtk_label_set_label (self->status_label, "");
}

static gboolean
ds_random_access_page_set_option (DsPage      *page,
                                  const char  *option,
                                  const char  *value,
                                  GError     **error)
{
  return ds_page_set_write_option (option, DS_RANDOM_ACCESS_PAGE (page)->write_button, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_random_access_page_set_device;
  iface->set_units = ds_random_access_page_set_units;
  iface->configure = ds_random_access_page_configure;
  iface->begin = ds_random_access_page_begin;
  iface->add_samples = ds_random_access_page_add_samples;
  iface->show_result = ds_random_access_page_show_result;
  iface->show_error = ds_random_access_page_show_error;
  iface->clear = ds_random_access_page_clear;
  iface->set_option = ds_random_access_page_set_option;
}

static void
error_bar_response_cb (DsRandomAccessPage *self,
                       int                 response,
                       GtkInfoBar         *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_random_access_page_dispose (GObject *object)
{
  DsRandomAccessPage *self = (DsRandomAccessPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_RANDOM_ACCESS_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    g_clear_object (&self->access[i]);

  G_OBJECT_CLASS (ds_random_access_page_parent_class)->dispose (object);
}

static void
ds_random_access_page_finalize (GObject *object)
{
  g_free (DS_RANDOM_ACCESS_PAGE (object)->device_path);

  G_OBJECT_CLASS (ds_random_access_page_parent_class)->finalize (object);
}

static void
ds_random_access_page_class_init (DsRandomAccessPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_random_access_page_dispose;
  object_class->finalize = ds_random_access_page_finalize;

  g_type_ensure (DS_TYPE_GRAPH);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-random-access-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, read_button);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, write_button);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, table);
  gtk_widget_class_bind_template_child (widget_class, DsRandomAccessPage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_random_access_page_init (DsRandomAccessPage *self)
{
  const char *headings[] = {
    _("Transfer Size"), _("IOPS"), _("Avg. Access"), _("Max. Access"), _("p99"), _("Speed"), NULL
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  /* One cloud of dots per transfer size, each in its own colour; the
   * first sizes (small, quick, dense near the axis) stay on top. */
  ds_table_set_headings (self->table, headings);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      DsRandomAccessRow row = { .transfer_bytes = ds_random_access_row_bytes (i) };
      g_autofree char *title = ds_random_access_row_title (&row);
      g_autoptr(DsGraphLayer) layer = ds_dots_layer_new ();

      self->access[i] = ds_series_new ();
      g_object_set (layer,
                    "series", self->access[i],
                    "title", title,
                    "color", ds_graph_palette_color (i),
                    NULL);
      ds_graph_add_layer (self->graph, layer);
      ds_table_set_cell (self->table, i + 1, COLUMN_TRANSFER, title);
    }
  ds_table_clear (self->table);
}
