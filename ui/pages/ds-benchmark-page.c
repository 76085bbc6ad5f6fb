/* ds-benchmark-page.c: HD Tune's Benchmark tab
 *
 * The transfer-rate curve across the capacity with access-time dots, and
 * the figures beside it.  The curve grows from the job's samples; the
 * figures that only exist at the end come from the result.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-transfer.h"
#include "ds-benchmark-page.h"
#include "ds-dots-layer.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-page.h"
#include "ds-series.h"
#include "ds-session.h"

struct _DsBenchmarkPage
{
  GtkWidget        parent_instance;

  DsSeries        *read;
  DsSeries        *write;
  DsSeries        *access;
  DsUnits          units;
  uint64_t         device_size;
  char            *device_path;

  /* Running figures while the run goes (the result's replace them). */
  double           sum_rate;
  guint            n_rates;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  DsGraph         *graph;
  DsGraphLayer    *read_layer;
  DsGraphLayer    *write_layer;
  DsGraphLayer    *access_layer;
  GtkToggleButton *read_button;
  GtkToggleButton *write_button;
  GtkLabel        *min_label;
  GtkLabel        *max_label;
  GtkLabel        *avg_label;
  GtkLabel        *access_label;
  GtkLabel        *burst_label;
  GtkLabel        *cpu_label;
  GtkLabel        *status_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsBenchmarkPage, ds_benchmark_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
set_rate (DsBenchmarkPage *self,
          GtkLabel        *label,
          double           bytes_per_s)
{
  g_autofree char *text = NULL;

  if (bytes_per_s < 0)
    {
      gtk_label_set_label (label, "—");
      return;
    }

  text = ds_format_rate_l10n (bytes_per_s, self->units);
  gtk_label_set_label (label, text);
}

static void
clear_figures (DsBenchmarkPage *self)
{
  gtk_label_set_label (self->min_label, "—");
  gtk_label_set_label (self->max_label, "—");
  gtk_label_set_label (self->avg_label, "—");
  gtk_label_set_label (self->access_label, "—");
  gtk_label_set_label (self->burst_label, "—");
  gtk_label_set_label (self->cpu_label, "—");
  self->sum_rate = 0;
  self->n_rates = 0;
}

static void
ds_benchmark_page_set_device (DsPage         *page,
                              const DsDevice *device)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  self->device_size = device ? device->size_bytes : 0;
  g_free (self->device_path);
  self->device_path = device ? g_strdup (device->path) : NULL;
  if (ds_series_get_n_points (self->read) == 0 &&
      ds_series_get_n_points (self->write) == 0)
    ds_graph_set_x_max (self->graph, self->device_size);
}

static void
ds_benchmark_page_set_units (DsPage  *page,
                             DsUnits  units)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
}

static gboolean
ds_benchmark_page_configure (DsPage       *page,
                             DsBenchSpec  *spec,
                             GError      **error)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  spec->write = gtk_toggle_button_get_active (self->write_button);

  return TRUE;
}

static void
ds_benchmark_page_show_error (DsPage     *page,
                              const char *message)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
ds_benchmark_page_begin (DsPage            *page,
                         const DsBenchSpec *spec)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  ds_benchmark_page_show_error (page, NULL);
  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_clear (self->access);
  clear_figures (self);
  ds_graph_set_x_max (self->graph,
                      spec->capacity_bytes ? MIN (spec->capacity_bytes, self->device_size)
                                           : self->device_size);
  gtk_label_set_label (self->status_label, _("Measuring the transfer rate…"));
}

static void
ds_benchmark_page_add_samples (DsPage         *page,
                               const DsSample *samples,
                               guint           n_samples)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);
  gboolean points = FALSE, access = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      switch (sample->kind)
        {
        case DS_SAMPLE_POINT:
          ds_series_append (sample->write ? self->write : self->read,
                            sample->offset_bytes, sample->value, sample->error);
          if (sample->error == 0)
            {
              self->sum_rate += sample->value;
              self->n_rates++;
            }
          points = TRUE;
          break;

        case DS_SAMPLE_ACCESS:
          ds_series_append (self->access, sample->offset_bytes,
                            sample->elapsed_ns / 1e9, sample->error);
          access = TRUE;
          break;

        case DS_SAMPLE_PHASE:
          if (g_strcmp0 (sample->name, "access") == 0)
            gtk_label_set_label (self->status_label, _("Measuring the access time…"));
          else if (g_strcmp0 (sample->name, "burst") == 0)
            gtk_label_set_label (self->status_label, _("Measuring the burst rate…"));
          else if (g_strcmp0 (sample->name, "transfer") == 0)
            gtk_label_set_label (self->status_label, _("Measuring the transfer rate…"));
          break;

        case DS_SAMPLE_ROW:
        case DS_SAMPLE_PROGRESS:
        default:
          break;
        }
    }

  if (points)
    {
      DsSeries *series = ds_series_get_n_points (self->write) > 0 ? self->write : self->read;

      ds_series_changed (self->read);
      ds_series_changed (self->write);

      set_rate (self, self->min_label, ds_series_get_min_y (series));
      set_rate (self, self->max_label, ds_series_get_max_y (series));
      /* A preview: the mean of the points; the result's average is total
       * bytes over total time. */
      if (self->n_rates > 0)
        set_rate (self, self->avg_label, self->sum_rate / self->n_rates);
    }

  if (access)
    ds_series_changed (self->access);
}

static void
fill_direction (DsBenchmarkPage     *self,
                const DsTransferDir *dir,
                DsSeries            *series)
{
  if (dir->points != NULL)
    for (guint i = 0; i < dir->points->len; i++)
      {
        const DsTransferPoint *point = &g_array_index (dir->points, DsTransferPoint, i);

        ds_series_append (series, point->offset_bytes, point->bytes_per_s, point->error);
      }

  if (dir->access != NULL)
    for (guint i = 0; i < dir->access->len; i++)
      {
        const DsAccessPoint *point = &g_array_index (dir->access, DsAccessPoint, i);

        ds_series_append (self->access, point->offset_bytes, point->access_ns / 1e9, 0);
      }
}

static void
ds_benchmark_page_show_result (DsPage         *page,
                               const DsResult *result)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);
  const DsTransferData *data = result->data;
  const DsTransferDir *dir;
  g_autofree char *error = NULL;

  g_return_if_fail (result->kind == DS_BENCH_TRANSFER);

  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_clear (self->access);
  clear_figures (self);

  error = ds_session_describe_error (result);
  ds_benchmark_page_show_error (page, error);

  if (result->complete)
    gtk_label_set_label (self->status_label, "");
  else if (result->cancelled)
    gtk_label_set_label (self->status_label, _("Stopped. The figures cover what was measured."));
  else
    gtk_label_set_label (self->status_label, _("The run did not finish."));

  ds_graph_set_x_max (self->graph, ds_page_result_span (result, data ? data->span_bytes : 0,
                                                       self->device_path, self->device_size));

  if (data == NULL)
    return;

  fill_direction (self, &data->read, self->read);
  fill_direction (self, &data->write, self->write);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
  ds_series_changed (self->access);

  dir = data->write.present && !data->read.present ? &data->write : &data->read;
  gtk_toggle_button_set_active (dir == &data->write ? self->write_button : self->read_button, TRUE);

  if (dir->points != NULL && dir->points->len > 0)
    {
      set_rate (self, self->min_label, dir->min_bytes_per_s);
      set_rate (self, self->max_label, dir->max_bytes_per_s);
      set_rate (self, self->avg_label, dir->avg_bytes_per_s);
    }

  if (dir->access_time_s >= 0)
    {
      g_autofree char *text = ds_format_ms_l10n (dir->access_time_s);

      gtk_label_set_label (self->access_label, text);
    }

  set_rate (self, self->burst_label, dir->burst_bytes_per_s);

  if (dir->cpu_percent >= 0)
    {
      g_autofree char *text = g_strdup_printf ("%.1f %%", dir->cpu_percent);

      gtk_label_set_label (self->cpu_label, text);
    }
}

static void
ds_benchmark_page_clear (DsPage *page)
{
  DsBenchmarkPage *self = DS_BENCHMARK_PAGE (page);

  ds_benchmark_page_show_error (page, NULL);
  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_clear (self->access);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
  ds_series_changed (self->access);
  clear_figures (self);
  ds_graph_set_x_max (self->graph, self->device_size);
  gtk_label_set_label (self->status_label, "");
}

static gboolean
ds_benchmark_page_set_option (DsPage      *page,
                              const char  *option,
                              const char  *value,
                              GError     **error)
{
  return ds_page_set_write_option (option, DS_BENCHMARK_PAGE (page)->write_button, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_benchmark_page_set_device;
  iface->set_units = ds_benchmark_page_set_units;
  iface->configure = ds_benchmark_page_configure;
  iface->begin = ds_benchmark_page_begin;
  iface->add_samples = ds_benchmark_page_add_samples;
  iface->show_result = ds_benchmark_page_show_result;
  iface->show_error = ds_benchmark_page_show_error;
  iface->clear = ds_benchmark_page_clear;
  iface->set_option = ds_benchmark_page_set_option;
}

static void
error_bar_response_cb (DsBenchmarkPage *self,
                       int              response,
                       GtkInfoBar      *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_benchmark_page_dispose (GObject *object)
{
  DsBenchmarkPage *self = (DsBenchmarkPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_BENCHMARK_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));

  g_clear_object (&self->read);
  g_clear_object (&self->write);
  g_clear_object (&self->access);

  G_OBJECT_CLASS (ds_benchmark_page_parent_class)->dispose (object);
}

static void
ds_benchmark_page_finalize (GObject *object)
{
  g_free (DS_BENCHMARK_PAGE (object)->device_path);

  G_OBJECT_CLASS (ds_benchmark_page_parent_class)->finalize (object);
}

static void
ds_benchmark_page_class_init (DsBenchmarkPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_benchmark_page_dispose;
  object_class->finalize = ds_benchmark_page_finalize;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);
  g_type_ensure (DS_TYPE_DOTS_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-benchmark-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, read_layer);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, write_layer);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, access_layer);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, read_button);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, write_button);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, min_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, max_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, avg_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, access_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, burst_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, cpu_label);
  gtk_widget_class_bind_template_child (widget_class, DsBenchmarkPage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_benchmark_page_init (DsBenchmarkPage *self)
{
  self->read = ds_series_new ();
  self->write = ds_series_new ();
  self->access = ds_series_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->read_layer, self->read);
  ds_graph_layer_set_series (self->write_layer, self->write);
  ds_graph_layer_set_series (self->access_layer, self->access);
}
