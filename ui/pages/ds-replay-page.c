/* ds-replay-page.c: the Replay page
 *
 * A workload recorded on one disk (Capture: the chosen disk's requests
 * from the kernel's block tracepoints; or a trace opened: a capture file,
 * a blktrace file, a fio iolog) and replayed on another (Start: the
 * replay kind, each request at its recorded time divided by the speed).
 * The curve shows IOPS and p99 latency by time as recorded and as
 * replayed; the table the trace's figures beside the replay's, with how
 * faithful the replay was.  Capturing and profiling run in a worker
 * (ds-replay-trace.c) the page polls; the replay runs in the session's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-error.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-replay-page.h"
#include "ds-replay-page-private.h"
#include "ds-session.h"
#include "ds-units.h"

/* The speed menu's items, in percent. */
static const uint64_t speeds[] = { 50, 100, 200, 400, 800 };


static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsReplayPage, ds_replay_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

/* The table: the trace's column from its summary, the replay's from @r
 * (NULL: not replayed yet). */
static void
show_table (DsReplayPage              *self,
            const DsReplayData        *r)
{
  _ds_replay_page_fill_table (self->table, self->units, self->has_summary ? &self->summary : NULL, r);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_replay_page_set_device (DsPage         *page,
                           const DsDevice *device)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  if (self->capturing)
    return;     /* the capture goes on on the disk it started on */
  g_free (self->device_path);
  self->device_path = device != NULL ? g_strdup (device->path) : NULL;
  _ds_replay_page_set_controls (self);
}

static void
ds_replay_page_set_units (DsPage  *page,
                          DsUnits  units)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
}

static gboolean
ds_replay_page_configure (DsPage       *page,
                          DsBenchSpec  *spec,
                          GError      **error)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);
  gboolean reads_only = gtk_check_button_get_active (self->reads_only_button);

  if (self->capturing)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A capture is under way: stop it first."));
      return FALSE;
    }
  if (self->trace_path == NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID,
                           _("No trace to replay: open one or capture one first."));
      return FALSE;
    }

  return _ds_replay_page_configure_spec (spec, self->trace_path,
                                         ds_probe_choice (self->speed_dropdown, speeds,
                                                          G_N_ELEMENTS (speeds)) / 100.0,
                                         reads_only, error);
}

static void
ds_replay_page_show_error (DsPage     *page,
                           const char *message)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  ds_probe_show_error (self->error_bar, self->error_label, message);
  if (message != NULL)
    {
      self->running = FALSE;
      _ds_replay_page_set_controls (self);
    }
}

static void
clear_replay (DsReplayPage *self)
{
  self->has_replay = FALSE;
  ds_series_clear (self->replay_iops);
  ds_series_clear (self->replay_p99);
  ds_series_changed (self->replay_iops);
  ds_series_changed (self->replay_p99);
}

static void
ds_replay_page_begin (DsPage            *page,
                      const DsBenchSpec *spec)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  ds_replay_page_show_error (page, NULL);
  clear_replay (self);
  show_table (self, NULL);
  self->running = spec != NULL;
  _ds_replay_page_set_controls (self);
  if (spec != NULL)
    {
      double speed = 1;

      _ds_replay_page_spec_speed (spec, &speed);
      _ds_replay_page_draw_recorded (self, speed);
      gtk_label_set_label (self->finding_label, _("Replaying…"));
    }
}

static void
ds_replay_page_clear (DsPage *page)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  ds_replay_page_begin (page, NULL);
  gtk_label_set_label (self->finding_label, "");
  gtk_label_set_label (self->status_label, "");
}

static void
ds_replay_page_add_samples (DsPage         *page,
                            const DsSample *samples,
                            guint           n_samples)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);
  gboolean changed = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      double t_s, iops, p99_s;

      if (!_ds_replay_page_sample_point (&samples[i], &t_s, &iops, &p99_s))
        continue;
      ds_series_append (self->replay_iops, t_s, iops, 0);
      if (p99_s > 0)
        ds_series_append (self->replay_p99, t_s, p99_s, 0);
      changed = TRUE;
    }
  if (changed)
    {
      ds_series_changed (self->replay_iops);
      ds_series_changed (self->replay_p99);
    }
}

static void
ds_replay_page_show_result (DsPage         *page,
                            const DsResult *result)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);
  g_autofree char *error = ds_session_describe_error (result);
  g_autofree char *finding = NULL;
  const DsReplayData        *r;
  const char *trace;
  double speed = 1;
  gboolean reads_only = FALSE;

  self->running = FALSE;
  _ds_replay_page_set_controls (self);
  ds_replay_page_show_error (page, error);
  trace = _ds_replay_page_result_spec (result, &speed, &reads_only);
  ds_probe_select (self->speed_dropdown, speeds, G_N_ELEMENTS (speeds), (uint64_t) (speed * 100 + 0.5));
  _ds_replay_page_draw_recorded (self, speed);
  gtk_check_button_set_active (self->reads_only_button, reads_only);
  /* A saved replay opened: the trace it replayed, when it is still here. */
  if (trace != NULL && g_strcmp0 (trace, self->trace_path) != 0 &&
      g_file_test (trace, G_FILE_TEST_EXISTS))
    _ds_replay_page_load_trace (self, trace);

  clear_replay (self);
  r = _ds_replay_page_result_figures (result, self->replay_iops, self->replay_p99);
  self->has_replay = r != NULL;
  if (r != NULL)
    {
      self->replay = *r;
      self->replay.series = NULL;
    }
  ds_series_changed (self->replay_iops);
  ds_series_changed (self->replay_p99);
  show_table (self, r);
  if (r == NULL)
    return;
  finding = _ds_replay_page_finding (r, speed);
  gtk_label_set_label (self->finding_label, finding);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The figures are those of the part replayed.") :
                       _("Open loop: each request at its recorded time divided by the speed, whether or "
                         "not the earlier ones completed. The recorded column is the trace as captured."));
}

/* --trace FILE, --speed X and --reads-only, as the controls set them. */
static gboolean
ds_replay_page_set_option (DsPage      *page,
                           const char  *option,
                           const char  *value,
                           GError     **error)
{
  DsReplayPage *self = DS_REPLAY_PAGE (page);

  if (g_str_equal (option, "reads-only"))
    {
      gtk_check_button_set_active (self->reads_only_button, TRUE);
      return TRUE;
    }
  if (g_str_equal (option, "trace"))
    {
      if (value == NULL || !g_file_test (value, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--trace %s: no such file"), value ? value : "");
          return FALSE;
        }
      _ds_replay_page_load_trace (self, value);
      return TRUE;
    }
  if (g_str_equal (option, "speed"))
    {
      double x = value != NULL ? g_ascii_strtod (value, NULL) : 0;

      return ds_probe_select_option (self->speed_dropdown, speeds, G_N_ELEMENTS (speeds),
                                     x > 0 ? (uint64_t) (x * 100 + 0.5) : G_MAXUINT64,
                                     option, value ? value : "", error);
    }

  return ds_page_no_such_option (option, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_replay_page_set_device;
  iface->set_units = ds_replay_page_set_units;
  iface->configure = ds_replay_page_configure;
  iface->begin = ds_replay_page_begin;
  iface->add_samples = ds_replay_page_add_samples;
  iface->show_result = ds_replay_page_show_result;
  iface->show_error = ds_replay_page_show_error;
  iface->clear = ds_replay_page_clear;
  iface->set_option = ds_replay_page_set_option;
}

/* ---- The widget -------------------------------------------------------- */

/* The recorded curve of the reads alone, or of reads and writes. */
static void
reads_only_toggled_cb (DsReplayPage *self)
{
  _ds_replay_page_draw_recorded (self, self->speed);
}

static void
error_bar_response_cb (DsReplayPage *self,
                       int           response,
                       GtkInfoBar   *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_replay_page_dispose (GObject *object)
{
  DsReplayPage *self = (DsReplayPage *) object;

  _ds_replay_page_cancel_job (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_REPLAY_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->trace_iops);
  g_clear_object (&self->trace_p99);
  g_clear_object (&self->replay_iops);
  g_clear_object (&self->replay_p99);
  g_clear_pointer (&self->device_path, g_free);
  g_clear_pointer (&self->trace_path, g_free);
  g_clear_pointer (&self->intervals, g_array_unref);

  G_OBJECT_CLASS (ds_replay_page_parent_class)->dispose (object);
}

static void
ds_replay_page_class_init (DsReplayPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_replay_page_dispose;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-replay-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, open_button);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, trace_label);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, capture_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, capture_button);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, speed_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, reads_only_button);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, trace_iops_layer);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, replay_iops_layer);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, trace_p99_layer);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, replay_p99_layer);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, finding_label);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsReplayPage, table);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, reads_only_toggled_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "open_clicked_cb",
                                                G_CALLBACK (_ds_replay_page_open_clicked));
  gtk_widget_class_bind_template_callback_full (widget_class, "capture_clicked_cb",
                                                G_CALLBACK (_ds_replay_page_capture_clicked));
}

static void
ds_replay_page_init (DsReplayPage *self)
{
  const char *headings[] = { _("Figure"), _("Recorded"), _("Replayed"), NULL };

  self->trace_iops = ds_series_new ();
  self->trace_p99 = ds_series_new ();
  self->replay_iops = ds_series_new ();
  self->replay_p99 = ds_series_new ();
  self->units = DS_UNITS_MB;
  self->speed = 1;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->trace_iops_layer, self->trace_iops);
  ds_graph_layer_set_series (self->trace_p99_layer, self->trace_p99);
  ds_graph_layer_set_series (self->replay_iops_layer, self->replay_iops);
  ds_graph_layer_set_series (self->replay_p99_layer, self->replay_p99);
  ds_table_set_headings (self->table, headings);
  gtk_drop_down_set_selected (self->speed_dropdown, 1);      /* 1× */
  _ds_replay_page_set_controls (self);
}

const char *
ds_replay_page_get_trace (DsReplayPage *self)
{
  g_return_val_if_fail (DS_IS_REPLAY_PAGE (self), NULL);

  return self->trace_path;
}

const char *
ds_replay_page_get_finding (DsReplayPage *self)
{
  g_return_val_if_fail (DS_IS_REPLAY_PAGE (self), NULL);

  return gtk_label_get_label (self->finding_label);
}

gboolean
ds_replay_page_is_loading (DsReplayPage *self)
{
  g_return_val_if_fail (DS_IS_REPLAY_PAGE (self), FALSE);

  return self->job != NULL;
}
