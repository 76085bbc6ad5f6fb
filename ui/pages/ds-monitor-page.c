/* ds-monitor-page.c: HD Tune's Disk Monitor tab
 *
 * Start watches the selected disk for the chosen time (or until Stop):
 * once a second the sampler (DsMonitorJob: the core's ds-monitor on a
 * worker thread, since attributing I/O to processes walks /proc) reports
 * the disk's read and write rates, IOPS, how busy it was, its queue and
 * wait per I/O, and which processes made it read or write.  The graph
 * shows the rates over the last minutes, the table who is doing it.  It
 * is not a kind the session runs (nothing is measured by us, nothing is
 * saved): the page runs it itself through DsPage's start/stop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ds-error.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-monitor-job.h"
#include "ds-monitor-page.h"
#include "ds-page.h"

#define INTERVAL_NS (UINT64_C (1000000000))
/* Processes listed at most (the busiest). */
#define MAX_PROCESSES 30
/* The graph's window when watching until stopped, in seconds. */
#define UNTIL_STOPPED_WINDOW 300

/* The "Watch For" choices, in seconds (0: until stopped). */
static const guint durations[] = { 30, 60, 300, 900, 3600, 0 };

enum {
  COLUMN_PID,
  COLUMN_NAME,
  COLUMN_READ,
  COLUMN_WRITE,
  COLUMN_DEVICES,
};

struct _DsMonitorPage
{
  GtkWidget        parent_instance;

  DsMonitorJob    *job;            /* while watching */
  DsSeries        *read;
  DsSeries        *write;
  DsUnits          units;
  char            *device;         /* the name diskstats uses ("loop3") */
  guint            window_s;
  double           elapsed_s;
  double           read_bytes;     /* over the watch, from the rates */
  double           written_bytes;
  double           peak_read;
  double           peak_write;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  DsGraph         *graph;
  DsGraphLayer    *read_layer;
  DsGraphLayer    *write_layer;
  GtkLabel        *processes_heading;
  GtkGrid         *process_table;
  GtkLabel        *note_label;
  AdwComboRow     *duration_row;
  AdwPreferencesGroup *figures_group;
  GtkLabel        *read_label;
  GtkLabel        *write_label;
  GtkLabel        *iops_label;
  GtkLabel        *util_label;
  GtkLabel        *queue_label;
  GtkLabel        *await_label;
  GtkLabel        *totals_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsMonitorPage, ds_monitor_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
show_error (DsMonitorPage *self,
            const char    *message)
{
  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

/* A rate, and no I/O as a plain 0 rather than "0.000 MB/s". */
static char *
format_rate (DsMonitorPage *self,
             double         bytes_per_s)
{
  if (bytes_per_s <= 0)
    return g_strdup (self->units == DS_UNITS_MIB ? _("0 MiB/s") : _("0 MB/s"));

  return ds_format_rate_l10n (bytes_per_s, self->units);
}

/* The average wait of one direction's I/O, or a dash when it did none. */
static char *
format_wait (double iops,
             double await_ms)
{
  if (iops <= 0)
    return g_strdup ("—");

  return g_strdup_printf (_("%.2f ms"), await_ms);
}

static void
set_rate (DsMonitorPage *self,
          GtkLabel      *label,
          double         bytes_per_s)
{
  g_autofree char *text = format_rate (self, bytes_per_s);

  gtk_label_set_label (label, text);
}

static void
clear_figures (DsMonitorPage *self)
{
  GtkLabel *labels[] = {
    self->read_label, self->write_label, self->iops_label,
    self->util_label, self->queue_label, self->await_label,
  };
  const char *headings[] = { _("PID"), _("Process"), _("Read"), _("Write"), _("Disks It Has Open"), NULL };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    gtk_label_set_label (labels[i], "—");
  gtk_label_set_label (self->totals_label, "");
  gtk_label_set_label (self->note_label, "");
  ds_table_remove_rows (self->process_table);
  ds_table_set_headings (self->process_table, headings);
  ds_table_align_column (self->process_table, COLUMN_PID, 0, FALSE);
  ds_table_align_column (self->process_table, COLUMN_NAME, 0, TRUE);
  ds_table_align_column (self->process_table, COLUMN_DEVICES, 0, FALSE);
}

/* Keeps the series to about the graph's window (a watch of hours would
 * otherwise grow without end). */
static void
trim (DsSeries *series,
      guint     keep)
{
  guint n = ds_series_get_n_points (series);
  g_autofree DsSeriesPoint *points = NULL;

  if (n <= 2 * keep)
    return;

  points = g_memdup2 (ds_series_get_points (series) + (n - keep), keep * sizeof *points);
  ds_series_clear (series);
  for (guint i = 0; i < keep; i++)
    ds_series_append (series, points[i].x, points[i].y, points[i].error);
}

static void
show_device (DsMonitorPage         *self,
             const DsMonitorDevice *d,
             double                 interval_s)
{
  g_autofree char *iops = g_strdup_printf (_("%.0f read, %.0f write"), d->read_iops, d->write_iops);
  g_autofree char *util = g_strdup_printf ("%.0f %%", d->util_percent);
  /* Translators: average requests in flight, then those in flight now */
  g_autofree char *queue = g_strdup_printf (_("%.2f (now %u)"), d->queue_depth, d->in_flight);
  g_autofree char *read_wait = format_wait (d->read_iops, d->read_await_ms);
  g_autofree char *write_wait = format_wait (d->write_iops, d->write_await_ms);
  /* Translators: the average wait of a read, then of a write */
  g_autofree char *await = g_strdup_printf (_("%s, %s"), read_wait, write_wait);
  g_autofree char *read = NULL;
  g_autofree char *written = NULL;
  g_autofree char *peak_read = NULL;
  g_autofree char *peak_write = NULL;
  g_autofree char *totals = NULL;

  set_rate (self, self->read_label, d->read_bytes_per_s);
  set_rate (self, self->write_label, d->write_bytes_per_s);
  gtk_label_set_label (self->iops_label, iops);
  gtk_label_set_label (self->util_label, util);
  gtk_label_set_label (self->queue_label, queue);
  gtk_label_set_label (self->await_label, await);

  self->read_bytes += d->read_bytes_per_s * interval_s;
  self->written_bytes += d->write_bytes_per_s * interval_s;
  self->peak_read = MAX (self->peak_read, d->read_bytes_per_s);
  self->peak_write = MAX (self->peak_write, d->write_bytes_per_s);
  read = ds_format_size ((uint64_t) self->read_bytes);
  written = ds_format_size ((uint64_t) self->written_bytes);
  peak_read = format_rate (self, self->peak_read);
  peak_write = format_rate (self, self->peak_write);
  /* Translators: seconds watched, bytes read, bytes written, the peak rates */
  totals = g_strdup_printf (_("In %.0f s: %s read, %s written; peaks %s read, %s write."),
                            self->elapsed_s, read, written, peak_read, peak_write);
  gtk_label_set_label (self->totals_label, totals);
}

static void
show_processes (DsMonitorPage         *self,
                const DsMonitorSample *sample)
{
  GString *note = g_string_new (NULL);

  ds_table_remove_rows (self->process_table);
  for (guint i = 0; i < sample->processes->len && i < MAX_PROCESSES; i++)
    {
      const DsMonitorProcess *p = &g_array_index (sample->processes, DsMonitorProcess, i);
      g_autofree char *pid = g_strdup_printf ("%d", p->pid);
      g_autofree char *read = format_rate (self, p->read_bytes_per_s);
      g_autofree char *write = format_rate (self, p->write_bytes_per_s);

      ds_table_set_cell (self->process_table, i + 1, COLUMN_PID, pid);
      ds_table_set_cell (self->process_table, i + 1, COLUMN_NAME, p->comm);
      ds_table_set_cell (self->process_table, i + 1, COLUMN_READ, read);
      ds_table_set_cell (self->process_table, i + 1, COLUMN_WRITE, write);
      ds_table_set_cell (self->process_table, i + 1, COLUMN_DEVICES, p->devices);
    }
  ds_table_align_column (self->process_table, COLUMN_PID, 0, FALSE);
  ds_table_align_column (self->process_table, COLUMN_NAME, 0, TRUE);
  ds_table_align_column (self->process_table, COLUMN_DEVICES, 0, FALSE);

  if (sample->processes->len == 0)
    g_string_append (note, _("No process with the disk open read or wrote in the last second."));
  else
    g_string_append (note, _("A process’s I/O is what it made the disk read or write (cache hits "
                             "are not counted; a buffered write counts when it is written "
                             "into the cache)."));
  if (sample->unreadable_processes > 0)
    {
      g_string_append_c (note, ' ');
      g_string_append_printf (note, ngettext ("%u process would not show its I/O counters "
                                              "(another user’s, without root; or another "
                                              "container’s).",
                                              "%u processes would not show their I/O counters "
                                              "(other users’, without root; or another "
                                              "container’s).",
                                              sample->unreadable_processes),
                              sample->unreadable_processes);
    }
  gtk_label_set_label (self->note_label, note->str);
  g_string_free (note, TRUE);
}

static void
sample_cb (DsMonitorPage         *self,
           const DsMonitorSample *sample,
           DsMonitorJob          *job)
{
  const DsMonitorDevice *device = NULL;

  if (job != self->job)
    return;

  for (guint i = 0; i < sample->devices->len; i++)
    {
      const DsMonitorDevice *d = &g_array_index (sample->devices, DsMonitorDevice, i);

      if (g_strcmp0 (d->name, self->device) == 0)
        device = d;
    }

  self->elapsed_s += sample->interval_s;
  if (device != NULL)
    {
      ds_series_append (self->read, self->elapsed_s, device->read_bytes_per_s, 0);
      ds_series_append (self->write, self->elapsed_s, device->write_bytes_per_s, 0);
      trim (self->read, self->window_s);
      trim (self->write, self->window_s);
      ds_series_changed (self->read);
      ds_series_changed (self->write);
      show_device (self, device, sample->interval_s);
    }
  show_processes (self, sample);
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(DsMonitorPage) self = g_weak_ref_get (ref);
  DsMonitorJob *job = DS_MONITOR_JOB (object);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_weak_ref_clear (ref);
  g_free (ref);

  ok = ds_monitor_job_run_finish (job, result, &error);
  if (self == NULL || self->job != job)
    return;

  g_clear_object (&self->job);
  if (!ok)
    show_error (self, error->message);
  g_signal_emit_by_name (self, "finished", ok);
}

/* ---- DsPage ------------------------------------------------------------ */

static gboolean
ds_monitor_page_start (DsPage      *page,
                       const char  *device_path,
                       GError     **error)
{
  DsMonitorPage *self = DS_MONITOR_PAGE (page);
  guint duration = durations[MIN (adw_combo_row_get_selected (self->duration_row),
                                  G_N_ELEMENTS (durations) - 1)];
  GWeakRef *ref;

  g_return_val_if_fail (self->job == NULL, FALSE);

  if (device_path == NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("Choose a device first."));
      return FALSE;
    }

  self->job = ds_monitor_job_new (device_path, error);
  if (self->job == NULL)
    return FALSE;

  show_error (self, NULL);
  g_free (self->device);
  self->device = g_path_get_basename (device_path);
  self->window_s = duration ? duration : UNTIL_STOPPED_WINDOW;
  self->elapsed_s = 0;
  self->read_bytes = self->written_bytes = 0;
  self->peak_read = self->peak_write = 0;
  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
  clear_figures (self);
  ds_graph_set_x_max (self->graph, self->window_s);
  adw_preferences_group_set_title (self->figures_group, device_path);
  gtk_widget_set_sensitive (GTK_WIDGET (self->duration_row), FALSE);
  gtk_label_set_label (self->note_label, _("Watching: the first figures come after a second."));

  g_signal_connect_object (self->job, "sample", G_CALLBACK (sample_cb), self, G_CONNECT_SWAPPED);
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  ds_monitor_job_run_async (self->job, INTERVAL_NS, duration, run_done_cb, ref);

  return TRUE;
}

static void
ds_monitor_page_stop (DsPage *page)
{
  DsMonitorPage *self = DS_MONITOR_PAGE (page);

  if (self->job != NULL)
    ds_monitor_job_cancel (self->job);
}

static gboolean
ds_monitor_page_is_running (DsPage *page)
{
  return DS_MONITOR_PAGE (page)->job != NULL;
}

static void
ds_monitor_page_set_units (DsPage  *page,
                           DsUnits  units)
{
  DsMonitorPage *self = DS_MONITOR_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
}

static void
ds_monitor_page_show_error (DsPage     *page,
                            const char *message)
{
  show_error (DS_MONITOR_PAGE (page), message);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_monitor_page_set_units;
  iface->show_error = ds_monitor_page_show_error;
  iface->start = ds_monitor_page_start;
  iface->stop = ds_monitor_page_stop;
  iface->is_running = ds_monitor_page_is_running;
}

/* ---- Life cycle -------------------------------------------------------- */

static void
finished_cb (DsMonitorPage *self,
             gboolean       success,
             gpointer       user_data)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->duration_row), TRUE);
}

static void
error_bar_response_cb (DsMonitorPage *self,
                       int            response,
                       GtkInfoBar    *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_monitor_page_dispose (GObject *object)
{
  DsMonitorPage *self = (DsMonitorPage *) object;

  /* Joins the sampler's thread (it notices within 50 ms). */
  if (self->job != NULL)
    ds_monitor_job_cancel_and_wait (self->job);
  g_clear_object (&self->job);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_MONITOR_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->read);
  g_clear_object (&self->write);

  G_OBJECT_CLASS (ds_monitor_page_parent_class)->dispose (object);
}

static void
ds_monitor_page_finalize (GObject *object)
{
  DsMonitorPage *self = (DsMonitorPage *) object;

  g_clear_pointer (&self->device, g_free);

  G_OBJECT_CLASS (ds_monitor_page_parent_class)->finalize (object);
}

static void
ds_monitor_page_class_init (DsMonitorPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_monitor_page_dispose;
  object_class->finalize = ds_monitor_page_finalize;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-monitor-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, read_layer);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, write_layer);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, processes_heading);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, process_table);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, note_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, duration_row);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, figures_group);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, read_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, write_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, iops_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, util_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, queue_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, await_label);
  gtk_widget_class_bind_template_child (widget_class, DsMonitorPage, totals_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_monitor_page_init (DsMonitorPage *self)
{
  self->read = ds_series_new ();
  self->write = ds_series_new ();
  self->window_s = 60;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->read_layer, self->read);
  ds_graph_layer_set_series (self->write_layer, self->write);
  ds_graph_set_x_max (self->graph, self->window_s);
  clear_figures (self);
  g_signal_connect (self, "finished", G_CALLBACK (finished_cb), NULL);
}
