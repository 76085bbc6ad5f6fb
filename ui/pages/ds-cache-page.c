/* ds-cache-page.c: the Cache Probe page
 *
 * Random reads over working sets doubling from 16 MiB, each read once
 * first: IOPS and mean access time against the set's size (log2), the
 * estimated read-cache size marked and said in words, hot against cold
 * access time, and a table of the sets, each as it finishes.  With
 * "Write-back cache" checked it is the write variant instead: each set
 * flushed, written once at random (the curve and the table are the
 * writes', plus the reads' mean after them), and the estimate is the
 * write-back cache's.  That one overwrites the device: Start asks for its
 * name first (the window's confirmation, as for every write).  The probe
 * and its estimates are the core's (kinds/ds-bench-cache.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-cache.h"
#include "ds-cache-page.h"
#include "ds-clock.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-mark-layer.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-session.h"

#define MiB (UINT64_C (1) << 20)
#define GiB (UINT64_C (1) << 30)

enum {
  COLUMN_SET,
  COLUMN_IOPS,
  COLUMN_RATE,
  COLUMN_MEAN,
  COLUMN_P99,
  COLUMN_READ,                 /* the write variant's reads after the writes */
};

static const uint64_t maxima[] = { 0, 256 * MiB, GiB, 4 * GiB, 16 * GiB, 64 * GiB };
static const uint64_t blocks[] = { 4096, 8192, 65536, 256 * 1024, MiB };
static const uint64_t depths[] = { 1, 4, 16, 32 };
static const uint64_t set_times[] = { 1, 2, 5, 10, 30 };   /* seconds */

struct _DsCachePage
{
  GtkWidget        parent_instance;

  DsSeries        *iops;
  DsSeries        *latency;
  DsSeries        *estimate;
  GArray          *live;       /* DsCacheSet so far, while a run goes */
  DsUnits          units;
  gboolean         write;      /* what is shown is the write variant */

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkDropDown     *max_dropdown;
  GtkDropDown     *block_dropdown;
  GtkDropDown     *qd_dropdown;
  GtkDropDown     *time_dropdown;
  GtkCheckButton  *write_button;
  DsGraph         *graph;
  DsGraphLayer    *iops_layer;
  DsGraphLayer    *latency_layer;
  DsGraphLayer    *estimate_layer;
  GtkLabel        *finding_label;
  GtkLabel        *status_label;
  GtkGrid         *table;
  GtkGrid         *figures_table;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsCachePage, ds_cache_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

/* The verdict in words (the core's rule, ds-bench-cache.h): the estimate
 * and the sets it lies between, or why there is none. */
static char *
finding_words (DsCachePage           *self,
               const GArray          *sets,
               const DsCacheEstimate *e,
               gboolean               final)
{
  g_autofree char *hot = ds_format_ms_l10n (e->hot_latency_s);
  g_autofree char *cold = ds_format_ms_l10n (e->cold_latency_s);
  g_autofree char *fast = ds_format_size_iec (e->largest_fast_bytes);
  g_autofree char *slow = ds_format_size_iec (e->first_slow_bytes);

  if (e->found)
    {
      g_autofree char *size = ds_format_size_iec ((uint64_t) (e->estimate_bytes / MiB + 0.5) * MiB);

      if (self->write)
        /* No bounds: a set a little past a write cache still writes at
         * more than half the pace (the size is from the sets' times). */
        return g_strdup_printf (_("A write-back cache of about %s as the host sees it (it drains while "
                                  "it fills): writes of sets up to %s stay fast; past it write IOPS "
                                  "drop to %.2f of that (%s a write into the cache, %s past it)."),
                                size, fast, e->drop_ratio, hot, cold);
      return g_strdup_printf (_("A read cache of about %s (between %s and %s): random reads over %s "
                                "stay fast; past it IOPS drop to %.2f of that (hot %s, cold %s a "
                                "read)."),
                              size, fast, slow, fast, e->drop_ratio, hot, cold);
    }
  if (e->verdict == DS_CACHE_VERDICT_NOISE)
    return g_strdup_printf (_("No estimate: no clear edge. Only the largest set, %s, was slow, and "
                              "measured again it was as fast as the others: a moment of other I/O, "
                              "not a cache."), slow);
  if (e->verdict == DS_CACHE_VERDICT_SLOW_ONCE)
    return final ? g_strdup_printf (_("No estimate: no clear edge. Only the largest set, %s, was "
                                      "slow, and it was measured once only: one slow set may be "
                                      "other I/O, not a cache."), slow)
                 : g_strdup_printf (_("%s is slower than %s: a cache may end between them. The next "
                                      "set, or %s measured again, will tell."), slow, fast, slow);
  if (!final)
    return g_strdup (sets->len == 0 ? (self->write ? _("Writing the first working set…") :
                                                     _("Reading the first working set…")) :
                     self->write ? _("No cache edge yet: every set so far writes alike.") :
                     _("No cache edge yet: every set so far reads alike."));
  if (sets->len < 2)
    return g_strdup (_("No estimate: fewer than two working sets were measured."));
  if (self->write)
    return g_strdup (_("No estimate: no set's writes were faster than half the first set's IOPS and "
                       "then slower (no write-back cache seen up to the largest set, or none as small "
                       "as the first)."));
  return g_strdup (_("No estimate: no set read faster than half the first set's IOPS and then slower "
                     "(no cache seen up to the largest set, or none as small as the first)."));
}

static void
show_sets (DsCachePage           *self,
           const GArray          *sets,
           const DsCacheEstimate *e,
           gboolean               final)
{
  g_autofree char *words = NULL;
  g_autofree char *hot = ds_format_ms_l10n (e->hot_latency_s);
  g_autofree char *cold = ds_format_ms_l10n (e->cold_latency_s);

  ds_series_clear (self->iops);
  ds_series_clear (self->latency);
  ds_series_clear (self->estimate);
  ds_table_remove_rows (self->table);
  ds_table_remove_rows (self->figures_table);

  for (guint i = 0; i < sets->len; i++)
    {
      const DsCacheSet *set = &g_array_index (sets, DsCacheSet, i);
      g_autofree char *size = ds_format_size_iec (set->bytes);
      g_autofree char *iops = ds_probe_format_iops (set->iops);
      g_autofree char *rate = ds_format_rate_l10n (set->bytes_per_s, self->units);
      g_autofree char *mean = ds_format_ms_l10n (set->lat_mean_s);
      g_autofree char *p99 = ds_format_ms_l10n (set->lat_p99_s);

      if (self->write)
        {
          g_autofree char *read = ds_format_ms_l10n (set->read_lat_mean_s);

          ds_table_set_cell (self->table, i + 1, COLUMN_READ, read);
        }
      ds_table_set_cell (self->table, i + 1, COLUMN_SET, size);
      if (set->repeated)
        {
          g_autofree char *again = ds_probe_format_iops (set->repeat_iops);
          g_autofree char *both = NULL;

          /* Translators: a set's IOPS and its second measurement's, "1234, again 1301" */
          both = g_strdup_printf (_("%s, again %s"), iops, again);
          ds_table_set_cell (self->table, i + 1, COLUMN_IOPS, both);
        }
      else
        ds_table_set_cell (self->table, i + 1, COLUMN_IOPS, iops);
      ds_table_set_cell (self->table, i + 1, COLUMN_RATE, rate);
      ds_table_set_cell (self->table, i + 1, COLUMN_MEAN, mean);
      ds_table_set_cell (self->table, i + 1, COLUMN_P99, p99);
      if (e->found && set->bytes == e->largest_fast_bytes)
        ds_table_add_row_class (self->table, i + 1, "heading");
      if (set->complete)
        {
          ds_series_append (self->iops, set->bytes, set->iops, 0);
          ds_series_append (self->latency, set->bytes, set->lat_mean_s, 0);
        }
    }
  ds_table_align_column (self->table, COLUMN_SET, 0, TRUE);

  words = finding_words (self, sets, e, final);
  if (e->found)
    {
      g_autofree char *size = ds_format_size_iec ((uint64_t) (e->estimate_bytes / MiB + 0.5) * MiB);
      /* Translators: the estimate's legend entry, "Cache: about 48 MiB" */
      g_autofree char *title = g_strdup_printf (_("Cache: about %s"), size);

      ds_series_append (self->estimate, e->estimate_bytes, 0, 0);
      ds_graph_layer_set_title (self->estimate_layer, title);
    }

  /* Hot and cold only about an edge: without one the first and the
   * largest set are the same kind of access (either may be the slower). */
  ds_table_set_cell (self->figures_table, 1, 0,
                     self->write ? (e->found ? _("Write into the cache (first set)") :
                                               _("Write time (first set)")) :
                     e->found ? _("Hot access time (first set)") : _("Access time (first set)"));
  ds_table_set_cell (self->figures_table, 1, 1, sets->len > 0 ? hot : NULL);
  ds_table_set_cell (self->figures_table, 2, 0,
                     self->write ? (e->found ? _("Write past the cache (the sets' pace)") :
                                               _("Write time (largest set)")) :
                     e->found ? _("Cold access time (past the cache)") :
                                _("Access time (largest set)"));
  ds_table_set_cell (self->figures_table, 2, 1, sets->len > 1 ? cold : NULL);
  if (e->found)
    {
      g_autofree char *ratio = g_strdup_printf ("%.2f", e->drop_ratio);

      ds_table_set_cell (self->figures_table, 3, 0, _("IOPS past the cache / before"));
      ds_table_set_cell (self->figures_table, 3, 1, ratio);
    }
  ds_table_align_column (self->figures_table, 0, 0, TRUE);

  gtk_label_set_label (self->finding_label, words);
  ds_series_changed (self->iops);
  ds_series_changed (self->latency);
  ds_series_changed (self->estimate);
}

static void
set_running (DsCachePage *self,
             gboolean     running)
{
  GtkWidget *controls[] = {
    GTK_WIDGET (self->max_dropdown), GTK_WIDGET (self->block_dropdown),
    GTK_WIDGET (self->qd_dropdown), GTK_WIDGET (self->time_dropdown),
    GTK_WIDGET (self->write_button), NULL,
  };

  ds_probe_set_running (controls, running);
}

/* The table's columns and the curves' names (the graph's accessible name
 * follows them) for the read probe or the write variant. */
static void
set_mode (DsCachePage *self,
          gboolean     write)
{
  const char *read_headings[] = { _("Working set"), _("IOPS"), _("Rate"), _("Mean"), _("p99"), NULL };
  const char *write_headings[] = { _("Working set"), _("Write IOPS"), _("Write rate"), _("Write mean"),
                                   _("Write p99"), _("Read mean"), NULL };

  self->write = write;
  ds_table_remove_rows (self->table);
  if (!write && gtk_grid_get_child_at (self->table, COLUMN_READ, 0) != NULL)
    gtk_grid_remove_column (self->table, COLUMN_READ);
  ds_table_set_headings (self->table, write ? write_headings : read_headings);
  ds_graph_layer_set_title (self->iops_layer, write ? _("Write IOPS") : _("IOPS"));
  ds_graph_layer_set_title (self->latency_layer, write ? _("Mean write time") : _("Mean access time"));
}

static void
clear (DsCachePage *self)
{
  DsCacheEstimate none = { 0 };
  g_autoptr(GArray) empty = g_array_new (FALSE, FALSE, sizeof (DsCacheSet));

  g_clear_pointer (&self->live, g_array_unref);
  show_sets (self, empty, &none, FALSE);
  ds_table_remove_rows (self->figures_table);
  gtk_label_set_label (self->finding_label, "");
  gtk_label_set_label (self->status_label, "");
}

static void
show_live (DsCachePage *self)
{
  DsCacheEstimate estimate = { 0 };

  if (self->write)
    ds_cache_estimate_writes (self->live, &estimate);
  else
    ds_cache_estimate (self->live, &estimate);
  show_sets (self, self->live, &estimate, FALSE);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_cache_page_set_units (DsPage  *page,
                         DsUnits  units)
{
  DsCachePage *self = DS_CACHE_PAGE (page);

  self->units = units;
  if (self->live != NULL)
    show_live (self);
}

static gboolean
ds_cache_page_configure (DsPage       *page,
                         DsBenchSpec  *spec,
                         GError      **error)
{
  DsCachePage *self = DS_CACHE_PAGE (page);

  spec->span_bytes = ds_probe_choice (self->max_dropdown, maxima, G_N_ELEMENTS (maxima));
  spec->block_size_bytes = ds_probe_choice (self->block_dropdown, blocks, G_N_ELEMENTS (blocks));
  spec->queue_depth = (unsigned) ds_probe_choice (self->qd_dropdown, depths, G_N_ELEMENTS (depths));
  spec->duration_ns = ds_probe_choice (self->time_dropdown, set_times, G_N_ELEMENTS (set_times)) *
                      DS_NS_PER_SEC;
  spec->write = gtk_check_button_get_active (self->write_button);

  return TRUE;
}

static void
ds_cache_page_show_error (DsPage     *page,
                          const char *message)
{
  DsCachePage *self = DS_CACHE_PAGE (page);

  ds_probe_show_error (self->error_bar, self->error_label, message);
  if (message != NULL)
    set_running (self, FALSE);
}

static void
ds_cache_page_begin (DsPage            *page,
                     const DsBenchSpec *spec)
{
  DsCachePage *self = DS_CACHE_PAGE (page);

  ds_cache_page_show_error (page, NULL);
  if (spec != NULL)
    set_mode (self, spec->write);
  clear (self);
  ds_graph_set_x_max (self->graph, spec != NULL ? (double) spec->span_bytes : 0);
  if (spec == NULL)
    return;

  self->live = g_array_new (FALSE, FALSE, sizeof (DsCacheSet));
  show_live (self);
  set_running (self, TRUE);
}

static void
ds_cache_page_clear (DsPage *page)
{
  ds_cache_page_begin (page, NULL);
}

static void
ds_cache_page_add_samples (DsPage         *page,
                           const DsSample *samples,
                           guint           n_samples)
{
  DsCachePage *self = DS_CACHE_PAGE (page);
  gboolean changed = FALSE;

  if (self->live == NULL)
    return;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind == DS_SAMPLE_ROW && sample->detail != NULL)
        {
          /* A set measured again comes back with its own index. */
          if (sample->index < self->live->len)
            g_array_index (self->live, DsCacheSet, sample->index) = *(const DsCacheSet *) sample->detail;
          else
            g_array_append_vals (self->live, sample->detail, 1);
          changed = TRUE;
        }
      else if (sample->kind == DS_SAMPLE_PHASE && sample->bytes > 0)
        {
          g_autofree char *size = ds_format_size_iec (sample->bytes);
          g_autofree char *text = NULL;

          if (g_strcmp0 (sample->name, "prefill") == 0)
            text = g_strdup_printf (_("Reading %s once (not timed)…"), size);
          else if (g_strcmp0 (sample->name, "flush") == 0)
            text = g_strdup_printf (_("Flushing the device's cache before %s…"), size);
          else if (g_strcmp0 (sample->name, "write") == 0)
            text = g_strdup_printf (_("Writing %s once at random…"), size);
          else if (g_strcmp0 (sample->name, "repeat") == 0)
            text = g_strdup_printf (_("Measuring %s again: it alone was slow, and one slow set "
                                      "is not a cache's edge yet…"), size);
          else
            text = g_strdup_printf (_("Random reads over %s…"), size);

          gtk_label_set_label (self->status_label, text);
        }
    }

  if (changed)
    show_live (self);
}

static void
ds_cache_page_show_result (DsPage         *page,
                           const DsResult *result)
{
  DsCachePage *self = DS_CACHE_PAGE (page);
  const DsCacheData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);

  g_return_if_fail (result->kind == DS_BENCH_CACHE);

  set_mode (self, data != NULL && data->write);
  clear (self);
  set_running (self, FALSE);
  ds_cache_page_show_error (page, error);
  if (data == NULL || data->sets == NULL)
    return;

  gtk_check_button_set_active (self->write_button, data->write);

  ds_probe_select (self->max_dropdown, maxima, G_N_ELEMENTS (maxima), result->spec.span_bytes);
  ds_probe_select (self->block_dropdown, blocks, G_N_ELEMENTS (blocks), data->block_size_bytes);
  ds_probe_select (self->qd_dropdown, depths, G_N_ELEMENTS (depths), data->queue_depth);
  ds_graph_set_x_max (self->graph, 0);

  show_sets (self, data->sets, &data->estimate, TRUE);
  gtk_label_set_label (self->status_label,
                       result->cancelled ? _("Stopped. The table shows the working sets that finished.") :
                       data->write ?
                       _("Each set: a flush, then every block written once at random (timed), then "
                         "random reads (the media's pace without the cache). A set is fast when its "
                         "write IOPS are at least half the first set's; the time the sets past the "
                         "last fast one took gives the pace past the cache, and so the cache's size.") :
                       _("A set is fast when its IOPS are at least half the first set's. Past the last "
                         "fast set, the first slow set's access time, between hot and cold, gives the "
                         "share of its reads the cache still served, and so the cache's size."));
}

/* --write: the write-back cache check. */
static gboolean
ds_cache_page_set_option (DsPage      *page,
                          const char  *option,
                          const char  *value,
                          GError     **error)
{
  if (!g_str_equal (option, "write"))
    return ds_page_no_such_option (option, error);

  gtk_check_button_set_active (DS_CACHE_PAGE (page)->write_button, TRUE);
  return TRUE;
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_cache_page_set_units;
  iface->configure = ds_cache_page_configure;
  iface->begin = ds_cache_page_begin;
  iface->add_samples = ds_cache_page_add_samples;
  iface->show_result = ds_cache_page_show_result;
  iface->show_error = ds_cache_page_show_error;
  iface->clear = ds_cache_page_clear;
  iface->set_option = ds_cache_page_set_option;
}

/* ---- The widget -------------------------------------------------------- */

static void
error_bar_response_cb (DsCachePage *self,
                       int          response,
                       GtkInfoBar  *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_cache_page_dispose (GObject *object)
{
  DsCachePage *self = (DsCachePage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_CACHE_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_pointer (&self->live, g_array_unref);
  g_clear_object (&self->iops);
  g_clear_object (&self->latency);
  g_clear_object (&self->estimate);

  G_OBJECT_CLASS (ds_cache_page_parent_class)->dispose (object);
}

static void
ds_cache_page_class_init (DsCachePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_cache_page_dispose;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);
  g_type_ensure (DS_TYPE_MARK_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-cache-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, max_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, qd_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, time_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, write_button);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, iops_layer);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, latency_layer);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, estimate_layer);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, finding_label);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, table);
  gtk_widget_class_bind_template_child (widget_class, DsCachePage, figures_table);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

static void
ds_cache_page_init (DsCachePage *self)
{
  const char *figure_headings[] = { _("Access time"), _("Value"), NULL };

  self->iops = ds_series_new ();
  self->latency = ds_series_new ();
  self->estimate = ds_series_new ();
  self->units = DS_UNITS_MB;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->iops_layer, self->iops);
  ds_graph_layer_set_series (self->latency_layer, self->latency);
  ds_graph_layer_set_series (self->estimate_layer, self->estimate);
  set_mode (self, FALSE);
  ds_table_set_headings (self->figures_table, figure_headings);
  gtk_drop_down_set_selected (self->time_dropdown, 2);   /* 5 s */
}

const char *
ds_cache_page_get_finding (DsCachePage *self)
{
  g_return_val_if_fail (DS_IS_CACHE_PAGE (self), NULL);

  return gtk_label_get_label (self->finding_label);
}
