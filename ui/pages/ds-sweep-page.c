/* ds-sweep-page.c: the Saturation page
 *
 * One workload (pattern, block size, read mix) run at growing queue
 * depths or thread counts, each level time-boxed: IOPS and p99 latency
 * against the I/Os in flight (log2), the knee marked and said in words,
 * and a table of the levels with their Little's-law check.  Each level
 * appears as it finishes, and the knee is found again on the levels so
 * far.  The run is the core's (kinds/ds-bench-sweep.c); a pattern that
 * writes goes through the window's typed-name confirmation like every
 * write test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-bench-sweep.h"
#include "ds-clock.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-mark-layer.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-session.h"
#include "ds-sweep-page.h"

enum {
  COLUMN_LEVEL,
  COLUMN_IOPS,
  COLUMN_RATE,
  COLUMN_MEAN,
  COLUMN_P50,
  COLUMN_P99,
  COLUMN_P99_9,
  COLUMN_LITTLE,
};

static const DsPattern patterns[] = {
  DS_PATTERN_RANDREAD, DS_PATTERN_RANDWRITE, DS_PATTERN_RANDRW, DS_PATTERN_READ, DS_PATTERN_WRITE,
};
static const uint64_t blocks[] = { 4096, 8192, 16384, 65536, 131072, 1048576 };
static const uint64_t step_times[] = { 1, 2, 5, 10, 30, 60 };   /* seconds */

struct _DsSweepPage
{
  GtkWidget        parent_instance;

  DsSeries        *iops;
  DsSeries        *p99;
  DsSeries        *knee;
  DsSweepData     *live;       /* the levels so far, while a run goes */
  DsUnits          units;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkDropDown     *pattern_dropdown;
  GtkDropDown     *block_dropdown;
  GtkSpinButton   *mix_spin;
  GtkDropDown     *over_dropdown;
  GtkSpinButton   *from_spin;
  GtkSpinButton   *to_spin;
  GtkDropDown     *time_dropdown;
  GtkCheckButton  *steady_button;
  DsGraph         *graph;
  DsGraphLayer    *iops_layer;
  DsGraphLayer    *p99_layer;
  DsGraphLayer    *knee_layer;
  GtkLabel        *finding_label;
  GtkLabel        *status_label;
  GtkGrid         *table;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsSweepPage, ds_sweep_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static char *
level_name (gboolean over_threads,
            unsigned queue_depth,
            unsigned threads)
{
  if (over_threads)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", threads), threads);
  /* Translators: a queue depth, "QD 16" */
  return g_strdup_printf (_("QD %u"), queue_depth);
}

/* The knee in words, or why there is none; @running: more levels to come
 * (the last level so far is not the last). */
static char *
knee_words (const DsSweepData *data,
            gboolean           running)
{
  const DsSweepKnee *knee = &data->knee;
  const DsSweepStep *last = NULL;
  guint n_complete = 0;

  for (guint i = 0; i < data->steps->len; i++)
    if (g_array_index (data->steps, DsSweepStep, i).complete)
      {
        n_complete++;
        last = &g_array_index (data->steps, DsSweepStep, i);
      }

  if (knee->found)
    {
      g_autofree char *where = level_name (data->over_threads, knee->queue_depth, knee->threads);
      g_autofree char *iops = ds_probe_format_iops (knee->iops);
      g_autofree char *p99 = ds_format_ms_l10n (knee->p99_s);
      double gain = knee->iops_gain_per_step * 100.0;

      /* The IOPS past the knee may grow a little, not at all, or fall:
       * never "for -8 % IOPS". */
      if (gain >= 0.5)
        /* Translators: "Saturates at QD 16: 41 200 IOPS (p99 3.20 ms). Past it p99
         * latency grows 1.9× per step for 3 % more IOPS." */
        return g_strdup_printf (_("Saturates at %s: %s IOPS (p99 %s). Past it p99 latency grows "
                                  "%.1f× per step for %.0f %% more IOPS."),
                                where, iops, p99, knee->p99_growth_per_step, gain);
      if (gain <= -0.5)
        /* Translators: "… Past it p99 latency grows 1.9× per step while IOPS fall 8 %." */
        return g_strdup_printf (_("Saturates at %s: %s IOPS (p99 %s). Past it p99 latency grows "
                                  "%.1f× per step while IOPS fall %.0f %%."),
                                where, iops, p99, knee->p99_growth_per_step, -gain);
      return g_strdup_printf (_("Saturates at %s: %s IOPS (p99 %s). Past it p99 latency grows "
                                "%.1f× per step for no more IOPS."),
                              where, iops, p99, knee->p99_growth_per_step);
    }
  if (n_complete < 2)
    return g_strdup (_("No knee yet: fewer than two levels measured."));
  if (running)
    {
      g_autofree char *where = level_name (data->over_threads, last->queue_depth, last->threads);

      /* Translators: while a sweep runs, "… up to QD 4 so far, …" */
      return g_strdup_printf (_("No knee yet: up to %s, more outstanding I/O either still bought "
                                "more than %.0f %% IOPS or did not make p99 latency grow by "
                                "%.0f %%."),
                              where, DS_SWEEP_KNEE_GAIN * 100, DS_SWEEP_KNEE_GROWTH * 100);
    }

  return g_strdup_printf (_("No knee: up to the last level, more outstanding I/O either still bought "
                            "more than %.0f %% IOPS or did not make p99 latency grow by %.0f %%."),
                          DS_SWEEP_KNEE_GAIN * 100, DS_SWEEP_KNEE_GROWTH * 100);
}

static void
show_data (DsSweepPage       *self,
           const DsSweepData *data)
{
  g_autofree char *words = knee_words (data, data == self->live);

  ds_series_clear (self->iops);
  ds_series_clear (self->p99);
  ds_series_clear (self->knee);
  ds_table_remove_rows (self->table);

  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsSweepStep *step = &g_array_index (data->steps, DsSweepStep, i);
      g_autofree char *level = level_name (data->over_threads, step->queue_depth, step->threads);
      g_autofree char *iops = ds_probe_format_iops (step->iops);
      g_autofree char *rate = ds_format_rate_l10n (step->bytes_per_s, self->units);
      g_autofree char *mean = ds_format_ms_l10n (step->lat_mean_s);
      g_autofree char *p50 = ds_format_ms_l10n (step->lat_p50_s);
      g_autofree char *p99 = ds_format_ms_l10n (step->lat_p99_s);
      g_autofree char *p99_9 = ds_format_ms_l10n (step->lat_p99_9_s);
      gboolean off = ds_sweep_little_off (step);
      g_autofree char *little = NULL;
      guint row = i + 1;

      /* Translators: Little's law: the I/Os in flight IOPS × mean latency
       * give, against those asked for ("7.9 ✓", "5.1 off") */
      little = g_strdup_printf (off ? _("%.1f off") : _("%.1f ✓"), step->little_outstanding);
      if (!step->complete)
        {
          g_autofree char *partial = g_strdup_printf (_("%s (stopped)"), level);

          g_free (level);
          level = g_steal_pointer (&partial);
        }
      ds_table_set_cell (self->table, row, COLUMN_LEVEL, level);
      ds_table_set_cell (self->table, row, COLUMN_IOPS, iops);
      ds_table_set_cell (self->table, row, COLUMN_RATE, rate);
      ds_table_set_cell (self->table, row, COLUMN_MEAN, mean);
      ds_table_set_cell (self->table, row, COLUMN_P50, p50);
      ds_table_set_cell (self->table, row, COLUMN_P99, p99);
      ds_table_set_cell (self->table, row, COLUMN_P99_9, p99_9);
      ds_table_set_cell (self->table, row, COLUMN_LITTLE, little);
      if (off)
        ds_table_add_row_class (self->table, row, "warning");
      if (data->knee.found && data->knee.index == i)
        ds_table_add_row_class (self->table, row, "heading");

      if (step->complete)
        {
          ds_series_append (self->iops, step->outstanding, step->iops, 0);
          ds_series_append (self->p99, step->outstanding, step->lat_p99_s, 0);
        }
    }
  ds_table_align_column (self->table, COLUMN_LEVEL, 0, TRUE);

  if (data->knee.found)
    {
      g_autofree char *where = level_name (data->over_threads, data->knee.queue_depth,
                                           data->knee.threads);
      /* Translators: the knee's legend entry, "Knee: QD 16" */
      g_autofree char *title = g_strdup_printf (_("Knee: %s"), where);

      ds_series_append (self->knee, data->knee.outstanding, data->knee.iops, 0);
      ds_graph_layer_set_title (self->knee_layer, title);
    }

  gtk_label_set_label (self->finding_label, words);
  ds_series_changed (self->iops);
  ds_series_changed (self->p99);
  ds_series_changed (self->knee);
}

static void
set_running (DsSweepPage *self,
             gboolean     running)
{
  GtkWidget *controls[] = {
    GTK_WIDGET (self->pattern_dropdown), GTK_WIDGET (self->block_dropdown),
    GTK_WIDGET (self->over_dropdown), GTK_WIDGET (self->from_spin), GTK_WIDGET (self->to_spin),
    GTK_WIDGET (self->time_dropdown), GTK_WIDGET (self->steady_button), NULL,
  };

  ds_probe_set_running (controls, running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mix_spin),
                            !running && gtk_drop_down_get_selected (self->pattern_dropdown) == 2);
}

static void
clear (DsSweepPage *self)
{
  g_clear_pointer (&self->live, ds_sweep_data_free);
  ds_series_clear (self->iops);
  ds_series_clear (self->p99);
  ds_series_clear (self->knee);
  ds_series_changed (self->iops);
  ds_series_changed (self->p99);
  ds_series_changed (self->knee);
  ds_table_remove_rows (self->table);
  gtk_label_set_label (self->finding_label, "");
  gtk_label_set_label (self->status_label, "");
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_sweep_page_set_units (DsPage  *page,
                         DsUnits  units)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);

  self->units = units;
  if (self->live != NULL)
    show_data (self, self->live);
}

static gboolean
ds_sweep_page_configure (DsPage       *page,
                         DsBenchSpec  *spec,
                         GError      **error)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);
  DsSweepOptions *sweep = ds_sweep_options (spec);
  guint pattern = gtk_drop_down_get_selected (self->pattern_dropdown);

  spec->pattern = patterns[MIN (pattern, G_N_ELEMENTS (patterns) - 1)];
  spec->block_size_bytes = ds_probe_choice (self->block_dropdown, blocks, G_N_ELEMENTS (blocks));
  spec->read_mix_percent = (unsigned) gtk_spin_button_get_value_as_int (self->mix_spin);
  sweep->over_threads = gtk_drop_down_get_selected (self->over_dropdown) == 1;
  sweep->from = (unsigned) gtk_spin_button_get_value_as_int (self->from_spin);
  sweep->to = (unsigned) gtk_spin_button_get_value_as_int (self->to_spin);
  spec->duration_ns = ds_probe_choice (self->time_dropdown, step_times, G_N_ELEMENTS (step_times)) *
                      DS_NS_PER_SEC;
  sweep->steady = gtk_check_button_get_active (self->steady_button);

  return ds_sweep_spec_valid (spec, error);
}

static void
ds_sweep_page_show_error (DsPage     *page,
                          const char *message)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);

  ds_probe_show_error (self->error_bar, self->error_label, message);
  if (message != NULL)
    set_running (self, FALSE);
}

static void
ds_sweep_page_begin (DsPage            *page,
                     const DsBenchSpec *spec)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);
  g_autoptr(GArray) levels = spec != NULL ? ds_sweep_levels (spec, NULL) : NULL;

  ds_sweep_page_show_error (page, NULL);
  clear (self);
  if (spec == NULL)
    return;

  self->live = ds_sweep_data_new ();
  self->live->over_threads = ds_sweep_options_const (spec)->over_threads;
  ds_graph_set_x_max (self->graph, levels != NULL && levels->len > 0 ?
                      g_array_index (levels, unsigned, levels->len - 1) : 0);
  gtk_label_set_label (self->finding_label, _("Measuring the first level…"));
  set_running (self, TRUE);
}

static void
ds_sweep_page_clear (DsPage *page)
{
  ds_sweep_page_begin (page, NULL);
}

static void
ds_sweep_page_add_samples (DsPage         *page,
                           const DsSample *samples,
                           guint           n_samples)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);
  gboolean changed = FALSE;

  if (self->live == NULL)
    return;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind == DS_SAMPLE_ROW && sample->detail != NULL)
        {
          g_array_append_vals (self->live->steps, sample->detail, 1);
          changed = TRUE;
        }
      else if (sample->kind == DS_SAMPLE_PHASE)
        {
          g_autofree char *text = g_strdup_printf (_("Measuring level %u…"), sample->index + 1);

          gtk_label_set_label (self->status_label, text);
        }
    }

  if (!changed)
    return;

  memset (&self->live->knee, 0, sizeof self->live->knee);
  ds_sweep_update_knee (self->live);
  show_data (self, self->live);
}

static void
ds_sweep_page_show_result (DsPage         *page,
                           const DsResult *result)
{
  DsSweepPage *self = DS_SWEEP_PAGE (page);
  const DsSweepData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);

  g_return_if_fail (result->kind == DS_BENCH_SWEEP);

  clear (self);
  set_running (self, FALSE);
  ds_sweep_page_show_error (page, error);
  if (data == NULL || data->steps == NULL)
    return;

  /* What ran, in the controls. */
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    if (patterns[i] == result->spec.pattern)
      gtk_drop_down_set_selected (self->pattern_dropdown, i);
  ds_probe_select (self->block_dropdown, blocks, G_N_ELEMENTS (blocks), result->spec.block_size_bytes);
  gtk_drop_down_set_selected (self->over_dropdown, data->over_threads ? 1 : 0);
  ds_graph_set_x_max (self->graph, data->levels != NULL && data->levels->len > 0 ?
                      g_array_index (data->levels, unsigned, data->levels->len - 1) : 0);

  show_data (self, data);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The table shows the levels that finished.") :
                       _("The knee: the first level after which no level gains more than 10 % IOPS "
                         "while the next one's p99 latency grows by more than 20 %. Little's law: "
                         "IOPS × mean latency against the I/Os in flight, flagged past 10 %."));
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_sweep_page_set_units;
  iface->configure = ds_sweep_page_configure;
  iface->begin = ds_sweep_page_begin;
  iface->add_samples = ds_sweep_page_add_samples;
  iface->show_result = ds_sweep_page_show_result;
  iface->show_error = ds_sweep_page_show_error;
  iface->clear = ds_sweep_page_clear;
}

/* ---- The widget -------------------------------------------------------- */

static void
error_bar_response_cb (DsSweepPage *self,
                       int          response,
                       GtkInfoBar  *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
pattern_changed_cb (DsSweepPage *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->mix_spin),
                            gtk_drop_down_get_selected (self->pattern_dropdown) == 2);
}

static void
ds_sweep_page_dispose (GObject *object)
{
  DsSweepPage *self = (DsSweepPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_SWEEP_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_pointer (&self->live, ds_sweep_data_free);
  g_clear_object (&self->iops);
  g_clear_object (&self->p99);
  g_clear_object (&self->knee);

  G_OBJECT_CLASS (ds_sweep_page_parent_class)->dispose (object);
}

static void
ds_sweep_page_class_init (DsSweepPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_sweep_page_dispose;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);
  g_type_ensure (DS_TYPE_MARK_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-sweep-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, pattern_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, mix_spin);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, over_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, from_spin);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, to_spin);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, time_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, steady_button);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, iops_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, p99_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, knee_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, finding_label);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsSweepPage, table);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_sweep_page_init (DsSweepPage *self)
{
  const char *headings[] = {
    _("Level"), _("IOPS"), _("Rate"), _("Mean"), _("p50"), _("p99"), _("p99.9"),
    /* Translators: Little's law check column */
    _("In flight"), NULL
  };

  self->iops = ds_series_new ();
  self->p99 = ds_series_new ();
  self->knee = ds_series_new ();
  self->units = DS_UNITS_MB;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->iops_layer, self->iops);
  ds_graph_layer_set_series (self->p99_layer, self->p99);
  ds_graph_layer_set_series (self->knee_layer, self->knee);
  ds_table_set_headings (self->table, headings);
  gtk_drop_down_set_selected (self->time_dropdown, 3);   /* 10 s */
  g_signal_connect_object (self->pattern_dropdown, "notify::selected",
                           G_CALLBACK (pattern_changed_cb), self, G_CONNECT_SWAPPED);
  pattern_changed_cb (self);
}

const char *
ds_sweep_page_get_finding (DsSweepPage *self)
{
  g_return_val_if_fail (DS_IS_SWEEP_PAGE (self), NULL);

  return gtk_label_get_label (self->finding_label);
}
