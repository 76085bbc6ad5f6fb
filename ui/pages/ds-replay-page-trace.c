/* ds-replay-page-trace.c: the Replay page's trace: captured from the
 * chosen disk or opened, profiled in a worker (ds-replay-trace.c) the
 * page polls from the main thread, and drawn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "ds-graph.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-replay-page-private.h"
#include "ds-units.h"

#define POLL_MS             250
/* The recorded curve's points, as the replay's (_ds_replay_page_configure_spec). */
#define PROFILE_INTERVAL_NS (UINT64_C (250000000))

/* The capture menu's items, in seconds; 0: until stopped. */
static const uint64_t capture_times[] = { 10, 30, 60, 300, 600, 0 };

/* The recorded curves as the replay at @speed schedules them: the trace's
 * time divided by the speed, its IOPS times the speed. */
void
_ds_replay_page_draw_recorded (DsReplayPage *self,
               double        speed)
{
  g_autofree char *title = NULL;
  gboolean reads = gtk_check_button_get_active (self->reads_only_button);

  self->speed = speed;
  ds_series_clear (self->trace_iops);
  ds_series_clear (self->trace_p99);
  for (guint i = 0; self->intervals != NULL && i < self->intervals->len; i++)
    {
      const DsTraceIntervalFigures *f = &g_array_index (self->intervals, DsTraceIntervalFigures, i);

      ds_series_append (self->trace_iops, f->t_s / speed, (reads ? f->read_iops : f->iops) * speed, 0);
      if (f->p99_ns > 0)
        ds_series_append (self->trace_p99, f->t_s / speed, f->p99_ns / 1e9, 0);
    }
  ds_series_changed (self->trace_iops);
  ds_series_changed (self->trace_p99);
  /* Translators: the legend of the trace's IOPS replayed at a speed, "Recorded IOPS ×2" */
  if (reads)
    /* Translators: the legend of the trace's reads alone, "Recorded read IOPS ×2" */
    title = speed != 1 ? g_strdup_printf (_("Recorded read IOPS ×%g"), speed) : g_strdup (_("Recorded read IOPS"));
  else
    title = speed != 1 ? g_strdup_printf (_("Recorded IOPS ×%g"), speed) : g_strdup (_("Recorded IOPS"));
  ds_graph_layer_set_title (self->trace_iops_layer, title);
}

/* The trace's curves and table, and what the page says of it. */
static void
show_profile (DsReplayPage         *self,
              const DsTraceProfile *profile)
{
  guint n = ds_trace_profile_n_intervals (profile);
  g_autofree char *name = g_path_get_basename (self->trace_path);
  g_autofree char *iops = NULL;

  self->summary = *ds_trace_profile_summary (profile);
  self->has_summary = TRUE;
  g_clear_pointer (&self->intervals, g_array_unref);
  self->intervals = g_array_sized_new (FALSE, FALSE, sizeof (DsTraceIntervalFigures), n);
  for (guint i = 0; i < n; i++)
    {
      DsTraceIntervalFigures f;

      if (ds_trace_profile_interval (profile, i, &f))
        g_array_append_val (self->intervals, f);
    }
  _ds_replay_page_draw_recorded (self, self->speed);
  gtk_label_set_label (self->trace_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->open_button), self->trace_path);
  /* A replay shown (a saved one opened) keeps its words. */
  if (!self->has_replay)
    {
      g_autofree char *words = NULL;

      iops = ds_probe_format_iops (self->summary.iops);
      /* Translators: "The trace: 2 000 IOPS over 10.0 s, 70 % reads. Choose a disk and press Start
       * to replay it." */
      words = g_strdup_printf (_("The trace: %s IOPS over %.1f s, %.0f %% reads. "
                                 "Choose a disk and press Start to replay it."),
                               iops, self->summary.duration_s, self->summary.read_share * 100);
      gtk_label_set_label (self->finding_label, words);
    }
  _ds_replay_page_fill_table (self->table, self->units, &self->summary,
                              self->has_replay ? &self->replay : NULL);
}

/* ---- The worker: capture and profile ------------------------------------ */

void
_ds_replay_page_set_controls (DsReplayPage *self)
{
  gboolean busy = self->job != NULL;
  GtkWidget *controls[] = {
    GTK_WIDGET (self->open_button), GTK_WIDGET (self->capture_dropdown),
    GTK_WIDGET (self->speed_dropdown), GTK_WIDGET (self->reads_only_button), NULL,
  };

  ds_probe_set_running (controls, busy || self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->capture_button),
                            !self->running && (self->capturing || (!busy && self->device_path != NULL)));
  gtk_button_set_label (self->capture_button, self->capturing ? _("Stop Capture") : _("Capture"));
}

static void
show_progress (DsReplayPage          *self,
               const DsTraceProgress *progress)
{
  g_autofree char *iops = ds_probe_format_iops (progress->iops);
  g_autofree char *rate = ds_format_rate_l10n (progress->bytes_per_s, self->units);
  g_autofree char *text = NULL;

  /* Translators: "Capturing /dev/sdb: 12 s, 1 234 IOPS, 5.6 MB/s, 12345 requests, 0 events lost" */
  text = g_strdup_printf (_("Capturing %s: %.0f s, %s IOPS, %s, %" PRIu64 " requests, "
                            "%" PRIu64 " events lost"),
                          self->device_path, progress->elapsed_ns / 1e9, iops, rate,
                          progress->records, progress->lost);
  gtk_label_set_label (self->status_label, text);
}

static void
job_done (DsReplayPage *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceProfile) profile = NULL;
  DsTraceCaptureResult capture = { 0 };
  g_autofree char *path = NULL;
  gboolean captured = self->capturing;

  profile = ds_replay_trace_finish (g_steal_pointer (&self->job), &capture, &path, &error);
  self->capturing = FALSE;
  _ds_replay_page_set_controls (self);
  if (profile == NULL)
    {
      ds_probe_show_error (self->error_bar, self->error_label, error->message);
      gtk_label_set_label (self->status_label, "");
      return;
    }
  g_free (self->trace_path);
  self->trace_path = g_steal_pointer (&path);
  show_profile (self, profile);
  if (captured)
    {
      g_autofree char *text = NULL;

      /* Translators: "Captured 12345 requests into /root/.local/share/…/sdb-….dstrace (no data, only
       * offsets and sizes); 0 events lost." */
      text = g_strdup_printf (_("Captured %" PRIu64 " requests into %s (no data: only times, "
                                "offsets, sizes and operations); %" PRIu64 " events lost."),
                              capture.header.record_count, self->trace_path, capture.header.lost_events);
      gtk_label_set_label (self->status_label, text);
    }
  else
    gtk_label_set_label (self->status_label, self->trace_path);
}

static gboolean
poll_cb (gpointer user_data)
{
  DsReplayPage *self = user_data;
  DsTraceProgress progress = { 0 };

  if (!ds_replay_trace_poll (self->job, &progress))
    {
      if (self->capturing)
        show_progress (self, &progress);
      return G_SOURCE_CONTINUE;
    }
  self->poll_id = 0;
  job_done (self);

  return G_SOURCE_REMOVE;
}

static void
start_job (DsReplayPage *self,
           const char   *device,
           const char   *path,
           uint64_t      duration_ns)
{
  ds_probe_show_error (self->error_bar, self->error_label, NULL);
  self->capturing = device != NULL;
  self->job = ds_replay_trace_start (device, path, duration_ns, PROFILE_INTERVAL_NS);
  self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
  gtk_label_set_label (self->status_label, device != NULL ? "" : _("Reading the trace…"));
  _ds_replay_page_set_controls (self);
}

/* Stops and joins the worker, whatever it was doing (dispose). */
void
_ds_replay_page_cancel_job (DsReplayPage *self)
{
  if (self->job == NULL)
    return;
  g_clear_handle_id (&self->poll_id, g_source_remove);
  ds_replay_trace_stop (self->job);
  g_clear_pointer (&self->job, ds_replay_trace_free);
}

void
_ds_replay_page_load_trace (DsReplayPage *self,
            const char   *path)
{
  if (self->job != NULL)
    return;
  /* Configure may run before the profile is done: the path is what it needs. */
  g_free (self->trace_path);
  self->trace_path = g_strdup (path);
  self->has_summary = FALSE;
  start_job (self, NULL, path, 0);
}

void
_ds_replay_page_capture_clicked (DsReplayPage *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  uint64_t seconds;

  if (self->capturing)
    {
      ds_replay_trace_stop (self->job);
      gtk_label_set_label (self->status_label, _("Stopping the capture…"));
      return;
    }
  if (self->device_path == NULL || self->job != NULL)
    return;
  path = ds_replay_trace_new_path (self->device_path, &error);
  if (path == NULL)
    {
      ds_probe_show_error (self->error_bar, self->error_label, error->message);
      return;
    }
  seconds = ds_probe_choice (self->capture_dropdown, capture_times, G_N_ELEMENTS (capture_times));
  self->has_summary = FALSE;
  start_job (self, self->device_path, path, seconds * G_GUINT64_CONSTANT (1000000000));
}

static void
chooser_response_cb (DsReplayPage         *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        _ds_replay_page_load_trace (self, path);
    }
  g_clear_object (&self->chooser);
}

void
_ds_replay_page_open_clicked (DsReplayPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "diskscope", "traces", NULL);
  g_autoptr (GFile) folder = g_file_new_for_path (dir);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Open a Trace"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (g_file_query_exists (folder, NULL))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  g_signal_connect_swapped (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

