/* ds-sustain-page.c: the Sustained Write page
 *
 * A long write (sequential or random) over the device or its first N
 * bytes: the write rate and p99 latency of each interval as a curve that
 * grows while it runs, the cliff (where the rate fell below half the
 * start rate and stayed there: the write cache's or SLC cache's size as
 * the host sees it) and the floor after it marked, the dips listed, and
 * with a pause the recovery.  The analysis is the core's
 * (kinds/ds-sustain-analysis.c), run again on the intervals so far while
 * the write goes.  It is a write test: Start asks for the device's name
 * (the window's confirmation, as for every write).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-sustain.h"
#include "ds-clock.h"
#include "ds-graph.h"
#include "ds-interval.h"
#include "ds-line-layer.h"
#include "ds-mark-layer.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-session.h"
#include "ds-sustain-page.h"
#include "ds-units.h"

#define MiB (UINT64_C (1) << 20)
#define GiB (UINT64_C (1) << 30)

static const uint64_t sizes[] = { 0, 128 * MiB, 512 * MiB, GiB, 4 * GiB, 16 * GiB, 64 * GiB, 256 * GiB };
static const uint64_t durations[] = { 0, 30, 60, 300, 600, 1800, 3600 };      /* seconds */
static const uint64_t blocks[] = { 128 << 10, 256 << 10, 512 << 10, MiB, 4 * MiB };
static const uint64_t depths[] = { 1, 4, 8, 16, 32, 64 };
static const uint64_t intervals[] = { 100, 200, 500, 1000 };                 /* ms */
static const uint64_t pauses[] = { 0, 5, 30, 60, 300 };                      /* seconds */

struct _DsSustainPage
{
  GtkWidget        parent_instance;

  DsSeries        *rate;
  DsSeries        *p99;
  DsSeries        *cliff;
  DsSeries        *floor;
  GArray          *live;       /* DsIntervalPoint of the write, while it runs */
  gboolean         writing;    /* the samples are the write's (not the recovery's) */
  DsUnits          units;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkDropDown     *size_dropdown;
  GtkDropDown     *duration_dropdown;
  GtkDropDown     *block_dropdown;
  GtkDropDown     *qd_dropdown;
  GtkDropDown     *interval_dropdown;
  GtkDropDown     *pause_dropdown;
  GtkCheckButton  *random_button;
  DsGraph         *graph;
  DsGraphLayer    *rate_layer;
  DsGraphLayer    *p99_layer;
  DsGraphLayer    *cliff_layer;
  DsGraphLayer    *floor_layer;
  GtkLabel        *finding_label;
  GtkLabel        *status_label;
  GtkGrid         *table;
  GtkGrid         *dips_table;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsSustainPage, ds_sustain_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
add_figure (DsSustainPage *self,
            guint          row,
            const char    *title,
            const char    *value)
{
  ds_table_set_cell (self->table, row, 0, title);
  ds_table_set_cell (self->table, row, 1, value);
}

/* The rate and p99 curves of @n intervals; what they wrote, in bytes. */
static double
plot_points (DsSustainPage         *self,
             const DsIntervalPoint *points,
             guint                  n)
{
  double written = 0, previous_t = 0;

  for (guint i = 0; i < n; i++)
    {
      ds_series_append (self->rate, points[i].t_s, points[i].write.bytes_per_s, 0);
      ds_series_append (self->p99, points[i].t_s, points[i].write.p99_s, 0);
      written += points[i].write.bytes_per_s * (points[i].t_s - previous_t);
      previous_t = points[i].t_s;
    }

  return written;
}

/* The cliff's mark and legend, and the finding in words. */
static char *
show_cliff (DsSustainPage           *self,
            const DsSustainAnalysis *a,
            const DsSustainData     *data,
            const char              *written_text)
{
  if (a->cliff_found)
    {
      g_autofree char *bytes = ds_format_size ((uint64_t) a->cliff_bytes);
      g_autofree char *title = g_strdup_printf (_("Cliff: %s"), bytes);

      ds_series_append (self->cliff, a->cliff_t_s, 0, 0);
      ds_graph_layer_set_title (self->cliff_layer, title);
      /* Translators: "Cliff after 52.4 MB (0.6 s): …" */
      return g_strdup_printf (_("Cliff after %s (%.1f s): the rate fell below %.0f %% of the start "
                                "rate and stayed there — a write cache (or SLC cache) of about %s."),
                              bytes, a->cliff_t_s, DS_SUSTAIN_CLIFF_FRACTION * 100, bytes);
    }
  else if (data == NULL)
    return g_strdup_printf (_("No cliff yet: %s written."), written_text);
  else
    return g_strdup_printf (_("No cliff: the rate never stayed below %.0f %% of the start rate over "
                              "the %s written (a cache larger than that would not show)."),
                            DS_SUSTAIN_CLIFF_FRACTION * 100, written_text);
}

/* The dips' count, period and table; the next figure row. */
static guint
add_dips (DsSustainPage           *self,
          guint                    row,
          const DsSustainAnalysis *a)
{
  g_autofree char *count = g_strdup_printf ("%u", a->dips->len);
  g_autofree char *period = a->dip_period_s > 0 ? g_strdup_printf (_("%.1f s"), a->dip_period_s) : NULL;

  if (a->dips->len == 0)
    ds_table_set_cell (self->dips_table, 1, 0, _("none"));
  add_figure (self, row++, _("Dips"), count);
  add_figure (self, row++, _("Dip period"), period);
  for (guint i = 0; i < a->dips->len && i < 200; i++)
    {
      const DsSustainDip *dip = &g_array_index (a->dips, DsSustainDip, i);
      g_autofree char *t = g_strdup_printf (_("%.1f s"), dip->t_s);
      /* Translators: a dip's lowest rate against the median rate */
      g_autofree char *depth = g_strdup_printf (_("%.0f %% of the median"), dip->depth_ratio * 100);

      ds_table_set_cell (self->dips_table, i + 1, 0, t);
      ds_table_set_cell (self->dips_table, i + 1, 1, depth);
    }

  return row;
}

/* The figures table: written, start, cliff, floor, dips, recovery. */
static void
add_figures (DsSustainPage           *self,
             const DsSustainAnalysis *a,
             const DsSustainData     *data,
             const char              *written_text,
             const char              *start,
             const char              *floor_rate)
{
  guint row = 1;

  add_figure (self, row++, _("Written"), written_text);
  add_figure (self, row++, _("Start rate"), start);
  if (a->cliff_found)
    {
      g_autofree char *bytes = ds_format_size ((uint64_t) a->cliff_bytes);

      add_figure (self, row++, _("Cliff"), bytes);
    }
  else
    add_figure (self, row++, _("Cliff"), _("none"));
  add_figure (self, row++, a->cliff_found ? _("Floor after the cliff") : _("Rate over the run"), floor_rate);
  if (a->dips != NULL)
    row = add_dips (self, row, a);
  if (data != NULL && data->has_recovery)
    {
      g_autofree char *rate = ds_format_rate_l10n (data->recovery.bytes_per_s, self->units);
      g_autofree char *text = g_strdup_printf (_("%s after %.0f s idle (%.0f %% of the start)"), rate,
                                               data->recovery.pause_s,
                                               a->start_bytes_per_s > 0 ?
                                               data->recovery.bytes_per_s / a->start_bytes_per_s * 100 : 0);

      add_figure (self, row++, _("Recovery"), text);
    }
  ds_table_align_column (self->table, 0, 0, TRUE);
}

/* The curve, the marks, the words and the figures of @n intervals as
 * analysed; @data is the finished result (NULL while it runs). */
static void
show_points (DsSustainPage           *self,
             const DsIntervalPoint   *points,
             guint                    n,
             const DsSustainAnalysis *a,
             const DsSustainData     *data)
{
  g_autofree char *words = NULL;
  g_autofree char *start = ds_format_rate_l10n (a->start_bytes_per_s, self->units);
  g_autofree char *floor_rate = ds_format_rate_l10n (a->floor_bytes_per_s, self->units);
  g_autofree char *written_text = NULL;
  double written;

  ds_series_clear (self->rate);
  ds_series_clear (self->p99);
  ds_series_clear (self->cliff);
  ds_series_clear (self->floor);
  ds_table_remove_rows (self->table);
  ds_table_remove_rows (self->dips_table);

  written = plot_points (self, points, n);
  written_text = ds_format_size ((uint64_t) (data != NULL ? data->run->write.io_bytes : written));

  words = show_cliff (self, a, data, written_text);

  if (n > 0 && a->floor_bytes_per_s > 0)
    {
      /* Translators: the floor's legend entry, "Floor: 10.0 MB/s"; without a
       * cliff, the whole run's rate, "Over the run: 3.66 MB/s" */
      g_autofree char *title = g_strdup_printf (a->cliff_found ? _("Floor: %s") : _("Over the run: %s"),
                                                floor_rate);

      ds_series_append (self->floor, 0, a->floor_bytes_per_s, 0);
      ds_graph_layer_set_title (self->floor_layer, title);
    }

  add_figures (self, a, data, written_text, start, floor_rate);

  gtk_label_set_label (self->finding_label, words);
  ds_series_changed (self->rate);
  ds_series_changed (self->p99);
  ds_series_changed (self->cliff);
  ds_series_changed (self->floor);
}

static void
set_running (DsSustainPage *self,
             gboolean       running)
{
  GtkWidget *controls[] = {
    GTK_WIDGET (self->size_dropdown), GTK_WIDGET (self->duration_dropdown),
    GTK_WIDGET (self->block_dropdown), GTK_WIDGET (self->qd_dropdown),
    GTK_WIDGET (self->interval_dropdown), GTK_WIDGET (self->pause_dropdown),
    GTK_WIDGET (self->random_button), NULL,
  };

  ds_probe_set_running (controls, running);
}

static void
clear (DsSustainPage *self)
{
  DsSeries *series[] = { self->rate, self->p99, self->cliff, self->floor };

  g_clear_pointer (&self->live, g_array_unref);
  self->writing = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (series); i++)
    {
      ds_series_clear (series[i]);
      ds_series_changed (series[i]);
    }
  ds_table_remove_rows (self->table);
  ds_table_remove_rows (self->dips_table);
  gtk_label_set_label (self->finding_label, "");
  gtk_label_set_label (self->status_label, "");
}

static void
show_live (DsSustainPage *self)
{
  DsSustainAnalysis analysis = { 0 };

  ds_sustain_analyse ((const DsIntervalPoint *) self->live->data, self->live->len, &analysis);
  show_points (self, (const DsIntervalPoint *) self->live->data, self->live->len, &analysis, NULL);
  ds_sustain_analysis_clear (&analysis);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_sustain_page_set_units (DsPage  *page,
                           DsUnits  units)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
  if (self->live != NULL && self->live->len > 0)
    show_live (self);
}

static gboolean
ds_sustain_page_configure (DsPage       *page,
                           DsBenchSpec  *spec,
                           GError      **error)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);

  spec->span_bytes = ds_probe_choice (self->size_dropdown, sizes, G_N_ELEMENTS (sizes));
  spec->duration_ns = ds_probe_choice (self->duration_dropdown, durations, G_N_ELEMENTS (durations)) *
                      DS_NS_PER_SEC;
  spec->block_size_bytes = ds_probe_choice (self->block_dropdown, blocks, G_N_ELEMENTS (blocks));
  spec->queue_depth = (unsigned) ds_probe_choice (self->qd_dropdown, depths, G_N_ELEMENTS (depths));
  spec->interval_ns = ds_probe_choice (self->interval_dropdown, intervals, G_N_ELEMENTS (intervals)) *
                      (DS_NS_PER_SEC / 1000);
  ds_sustain_options (spec)->pause_ns = ds_probe_choice (self->pause_dropdown, pauses,
                                                         G_N_ELEMENTS (pauses)) * DS_NS_PER_SEC;
  spec->pattern = gtk_check_button_get_active (self->random_button) ? DS_PATTERN_RANDWRITE :
                  DS_PATTERN_WRITE;
  spec->write = TRUE;

  return ds_sustain_spec_valid (spec, error);
}

static void
ds_sustain_page_show_error (DsPage     *page,
                            const char *message)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);

  ds_probe_show_error (self->error_bar, self->error_label, message);
  if (message != NULL)
    set_running (self, FALSE);
}

static void
ds_sustain_page_begin (DsPage            *page,
                       const DsBenchSpec *spec)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);

  ds_sustain_page_show_error (page, NULL);
  clear (self);
  if (spec == NULL)
    return;

  self->live = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  self->writing = TRUE;
  gtk_label_set_label (self->finding_label, _("Writing…"));
  set_running (self, TRUE);
}

static void
ds_sustain_page_clear (DsPage *page)
{
  ds_sustain_page_begin (page, NULL);
}

static void
ds_sustain_page_add_samples (DsPage         *page,
                             const DsSample *samples,
                             guint           n_samples)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);
  gboolean changed = FALSE;

  if (self->live == NULL)
    return;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind == DS_SAMPLE_PHASE)
        {
          self->writing = sample->index == 0;
          if (g_strcmp0 (sample->name, "pause") == 0)
            gtk_label_set_label (self->status_label, _("Idle: letting the cache drain…"));
          else if (g_strcmp0 (sample->name, "recovery") == 0)
            gtk_label_set_label (self->status_label, _("Writing the start again: how much recovered…"));
        }
      else if (sample->kind == DS_SAMPLE_INTERVAL && self->writing && sample->interval != NULL)
        {
          g_array_append_val (self->live, *sample->interval);
          changed = TRUE;
        }
    }

  if (changed)
    show_live (self);
}

static void
ds_sustain_page_show_result (DsPage         *page,
                             const DsResult *result)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);
  const DsSustainData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);
  const GArray *series;

  g_return_if_fail (result->kind == DS_BENCH_SUSTAIN);

  clear (self);
  set_running (self, FALSE);
  ds_sustain_page_show_error (page, error);
  if (data == NULL || data->run == NULL)
    return;

  ds_probe_select (self->size_dropdown, sizes, G_N_ELEMENTS (sizes), result->spec.span_bytes);
  ds_probe_select (self->block_dropdown, blocks, G_N_ELEMENTS (blocks), result->spec.block_size_bytes);
  ds_probe_select (self->qd_dropdown, depths, G_N_ELEMENTS (depths), result->spec.queue_depth);
  gtk_check_button_set_active (self->random_button, data->random);

  series = data->run->series;
  show_points (self, series != NULL ? (const DsIntervalPoint *) series->data : NULL,
               series != NULL ? series->len : 0, &data->analysis, data);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The curve and the figures are those of the part written.") :
                       _("The start rate is that of the first 10 % written; the cliff, where the rate "
                         "falls below half of it while most of the rest stays there; a dip, a run of "
                         "intervals below 70 % of the median."));
}

/* --size (a size the menu offers, or 100%: the whole device), --duration
 * (a time limit it offers) and --random, as the controls set them. */
static gboolean
ds_sustain_page_set_option (DsPage      *page,
                            const char  *option,
                            const char  *value,
                            GError     **error)
{
  DsSustainPage *self = DS_SUSTAIN_PAGE (page);
  uint64_t number = 0;

  if (g_str_equal (option, "random"))
    {
      gtk_check_button_set_active (self->random_button, TRUE);
      return TRUE;
    }
  if (g_str_equal (option, "size"))
    {
      /* 0 is the menu's "Whole device"; G_MAXUINT64 no item at all. */
      if (g_strcmp0 (value, "100%") == 0)
        number = 0;
      else if (value == NULL || !ds_parse_size (value, &number, NULL) || number == 0)
        number = G_MAXUINT64;
      return ds_probe_select_option (self->size_dropdown, sizes, G_N_ELEMENTS (sizes), number,
                                     option, value ? value : "", error);
    }
  if (g_str_equal (option, "duration"))
    {
      if (value == NULL || !ds_parse_duration (value, &number, NULL) ||
          number % DS_NS_PER_SEC != 0)
        number = G_MAXUINT64;
      else
        number /= DS_NS_PER_SEC;
      return ds_probe_select_option (self->duration_dropdown, durations, G_N_ELEMENTS (durations),
                                     number, option, value ? value : "", error);
    }

  return ds_page_no_such_option (option, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_sustain_page_set_units;
  iface->configure = ds_sustain_page_configure;
  iface->begin = ds_sustain_page_begin;
  iface->add_samples = ds_sustain_page_add_samples;
  iface->show_result = ds_sustain_page_show_result;
  iface->show_error = ds_sustain_page_show_error;
  iface->clear = ds_sustain_page_clear;
  iface->set_option = ds_sustain_page_set_option;
}

/* ---- The widget -------------------------------------------------------- */

static void
error_bar_response_cb (DsSustainPage *self,
                       int            response,
                       GtkInfoBar    *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_sustain_page_dispose (GObject *object)
{
  DsSustainPage *self = (DsSustainPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_SUSTAIN_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_pointer (&self->live, g_array_unref);
  g_clear_object (&self->rate);
  g_clear_object (&self->p99);
  g_clear_object (&self->cliff);
  g_clear_object (&self->floor);

  G_OBJECT_CLASS (ds_sustain_page_parent_class)->dispose (object);
}

static void
ds_sustain_page_class_init (DsSustainPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_sustain_page_dispose;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);
  g_type_ensure (DS_TYPE_MARK_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-sustain-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, duration_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, qd_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, interval_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, pause_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, random_button);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, rate_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, p99_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, cliff_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, floor_layer);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, finding_label);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, table);
  gtk_widget_class_bind_template_child (widget_class, DsSustainPage, dips_table);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_sustain_page_init (DsSustainPage *self)
{
  const char *headings[] = { _("Figure"), _("Value"), NULL };
  const char *dip_headings[] = { _("Dip at"), _("Lowest"), NULL };

  self->rate = ds_series_new ();
  self->p99 = ds_series_new ();
  self->cliff = ds_series_new ();
  self->floor = ds_series_new ();
  self->units = DS_UNITS_MB;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->rate_layer, self->rate);
  ds_graph_layer_set_series (self->p99_layer, self->p99);
  ds_graph_layer_set_series (self->cliff_layer, self->cliff);
  ds_graph_layer_set_series (self->floor_layer, self->floor);
  ds_table_set_headings (self->table, headings);
  ds_table_set_headings (self->dips_table, dip_headings);
  gtk_drop_down_set_selected (self->block_dropdown, 3);      /* 1 MiB */
  gtk_drop_down_set_selected (self->qd_dropdown, 4);         /* 32 */
  gtk_drop_down_set_selected (self->interval_dropdown, 3);   /* 1 s */
}

const char *
ds_sustain_page_get_finding (DsSustainPage *self)
{
  g_return_val_if_fail (DS_IS_SUSTAIN_PAGE (self), NULL);

  return gtk_label_get_label (self->finding_label);
}
