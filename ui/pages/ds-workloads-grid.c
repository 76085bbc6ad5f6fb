/* ds-workloads-grid.c: the Workloads page's grid and its selected cell
 *
 * CrystalDiskMark's window: a button per row (its Start), then a big
 * figure per direction.  Each figure is a toggle: the one pressed is the
 * cell whose series (throughput and p99 latency per interval) and latency
 * histogram the graphs below show.  While a step measures, its cell is
 * selected and its graph grows with each interval; the histogram comes
 * with the step's figures when it ends.
 *
 * A Mix cell's series adds reads and writes (bytes/s, IOPS) and shows the
 * slower direction's p99; its histogram merges both directions' buckets
 * (the same bucket bounds: ds-histogram.h) and its percentiles are read
 * from the merged counts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-interval.h"
#include "ds-workloads-private.h"

/* The series' p99 axis is in ms from this latency up, else in µs. */
#define P99_MS_FROM_S 10e-3

static const char *
direction_title (DsMarkDirection direction)
{
  switch (direction)
    {
    case DS_MARK_WRITE: return _("Write");
    case DS_MARK_MIX: return _("Mix");
    case DS_MARK_READ:
    default:
      return _("Read");
    }
}

static const char *
units_title (DsMarkUnits units)
{
  switch (units)
    {
    case DS_MARK_UNITS_GB_S: return _("GB/s");
    case DS_MARK_UNITS_IOPS: return _("IOPS");
    case DS_MARK_UNITS_US: return _("µs");
    case DS_MARK_UNITS_MB_S:
    default:
      return _("MB/s");
    }
}

/* "45.2 µs", "3.21 ms": the latencies of fast and slow devices alike. */
static char *
format_latency (double seconds)
{
  if (seconds < 1e-3)
    return g_strdup_printf (_("%.1f µs"), seconds * 1e6);
  return g_strdup_printf (_("%.2f ms"), seconds * 1e3);
}

static gboolean
cell_is_live (DsWorkloadsPage *self,
              const GArray    *points)
{
  return self->cells[self->selected_row][self->selected_direction].live == points;
}

static void fill_series (DsWorkloadsPage *self,
                         const GArray    *points,
                         DsMarkDirection  direction);
static void fill_histogram (DsWorkloadsPage      *self,
                            const DsWorkloadData *data,
                            const GArray         *live,
                            DsMarkDirection       direction);

static void
cell_clear (DsWorkloadsCell *cell)
{
  g_clear_pointer (&cell->step, ds_mark_step_free);
  g_clear_pointer (&cell->live, g_array_unref);
  g_clear_pointer (&cell->live_buckets, g_array_unref);
}

static void
cell_toggled_cb (GtkToggleButton *button,
                 DsWorkloadsPage *self)
{
  if (self->selecting || !gtk_toggle_button_get_active (button))
    return;

  for (guint r = 0; r < DS_WORKLOADS_MAX_ROWS; r++)
    for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
      if (self->cells[r][d].button == GTK_WIDGET (button))
        {
          self->selected_row = r;
          self->selected_direction = d;
          _ds_workloads_show_selected (self);
        }
}

static void
row_clicked_cb (GtkButton       *button,
                DsWorkloadsPage *self)
{
  const char *row_id = g_object_get_data (G_OBJECT (button), "ds-row-id");

  /* The window's Start runs what configure() asks: this row only. */
  g_free (self->pending_steps);
  self->pending_steps = g_strdup (row_id);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.start", NULL);
  /* Taken by configure() if the start got that far; never left for the
   * next Start. */
  g_clear_pointer (&self->pending_steps, g_free);
}

void
_ds_workloads_grid_free (DsWorkloadsPage *self)
{
  for (guint r = 0; r < DS_WORKLOADS_MAX_ROWS; r++)
    for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
      cell_clear (&self->cells[r][d]);
}

void
_ds_workloads_grid_build (DsWorkloadsPage *self,
                          const DsPreset  *preset,
                          int              mix)
{
  GtkWidget *child;
  unsigned columns = 0;

  if (!preset->mix_allowed)
    mix = -1;

  _ds_workloads_grid_free (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
  memset (self->cells, 0, sizeof self->cells);
  memset (self->row_buttons, 0, sizeof self->row_buttons);
  memset (self->headings, 0, sizeof self->headings);
  self->group = NULL;
  self->grid_preset = preset;
  self->grid_mix = mix;

  for (guint r = 0; r < preset->n_rows; r++)
    columns |= preset->rows[r].columns;
  if (mix >= 0)
    columns |= DS_MARK_COLUMN (DS_MARK_MIX);

  for (guint d = 0, column = 1; d < DS_MARK_N_DIRECTIONS; d++)
    {
      if (!(columns & DS_MARK_COLUMN (d)))
        continue;

      self->headings[d] = gtk_label_new (NULL);
      gtk_widget_add_css_class (self->headings[d], "heading");
      gtk_grid_attach (self->grid, self->headings[d], column, 0, 1, 1);

      for (guint r = 0; r < MIN (preset->n_rows, DS_WORKLOADS_MAX_ROWS); r++)
        {
          DsWorkloadsCell *cell = &self->cells[r][d];
          unsigned row_columns = preset->rows[r].columns | (mix >= 0 ? DS_MARK_COLUMN (DS_MARK_MIX) : 0);

          if (!(row_columns & DS_MARK_COLUMN (d)))
            continue;

          cell->button = gtk_toggle_button_new ();
          cell->label = GTK_LABEL (gtk_label_new ("—"));
          gtk_label_set_xalign (cell->label, 1);
          gtk_button_set_child (GTK_BUTTON (cell->button), GTK_WIDGET (cell->label));
          gtk_widget_add_css_class (cell->button, "figure-cell");
          gtk_widget_set_hexpand (cell->button, TRUE);
          gtk_widget_set_tooltip_text (cell->button, _("Show this step’s series and latency histogram"));
          if (self->group == NULL)
            self->group = cell->button;
          else
            gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (cell->button),
                                         GTK_TOGGLE_BUTTON (self->group));
          g_signal_connect (cell->button, "toggled", G_CALLBACK (cell_toggled_cb), self);
          gtk_grid_attach (self->grid, cell->button, column, r + 1, 1, 1);
        }
      column++;
    }

  for (guint r = 0; r < MIN (preset->n_rows, DS_WORKLOADS_MAX_ROWS); r++)
    {
      const DsPresetRow *row = &preset->rows[r];
      g_autofree char *label = g_strdelimit (g_strdup (row->label), " ", '\n');
      g_autofree char *size = ds_mark_size_text (row->block_size_bytes);
      g_autofree char *tooltip =
        g_strdup_printf (_("Run this row: %s %s, queue depth %u, %u thread(s)"),
                         row->random ? _("random") : _("sequential"),
                         size, row->queue_depth, row->threads);
      GtkWidget *button = gtk_button_new_with_label (label);

      gtk_widget_add_css_class (button, "row-button");
      gtk_widget_set_tooltip_text (button, tooltip);
      g_object_set_data (G_OBJECT (button), "ds-row-id", (gpointer) row->id);
      g_signal_connect (button, "clicked", G_CALLBACK (row_clicked_cb), self);
      gtk_grid_attach (self->grid, button, 0, r + 1, 1, 1);
      self->row_buttons[r] = button;
    }

  self->selected_row = 0;
  self->selected_direction = DS_MARK_READ;
  for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    if (self->cells[0][d].button != NULL)
      {
        self->selected_direction = d;
        break;
      }

  _ds_workloads_grid_refresh (self);
  _ds_workloads_show_selected (self);
}

void
_ds_workloads_grid_clear (DsWorkloadsPage *self)
{
  _ds_workloads_grid_free (self);
  _ds_workloads_grid_refresh (self);
  _ds_workloads_show_selected (self);
}

void
_ds_workloads_grid_clear_plan (DsWorkloadsPage *self)
{
  for (guint i = 0; i < self->plan->len; i++)
    {
      const DsPresetStep *step = &g_array_index (self->plan, DsPresetStep, i);

      if (step->row_index < DS_WORKLOADS_MAX_ROWS)
        cell_clear (&self->cells[step->row_index][step->direction]);
    }
  _ds_workloads_grid_refresh (self);
  _ds_workloads_show_selected (self);
}

void
_ds_workloads_grid_refresh (DsWorkloadsPage *self)
{
  for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    if (self->headings[d] != NULL)
      {
        g_autofree char *text = NULL;

        if (d == DS_MARK_MIX && self->grid_mix >= 0)
          text = g_strdup_printf ("%s R%d%%/W%d%% (%s)", direction_title (d), self->grid_mix,
                                  100 - self->grid_mix, units_title (self->mark_units));
        else
          text = g_strdup_printf ("%s (%s)", direction_title (d), units_title (self->mark_units));
        gtk_label_set_label (GTK_LABEL (self->headings[d]), text);
      }

  for (guint r = 0; r < DS_WORKLOADS_MAX_ROWS; r++)
    for (guint d = 0; d < DS_MARK_N_DIRECTIONS; d++)
      {
        DsWorkloadsCell *cell = &self->cells[r][d];
        g_autofree char *text = NULL;

        if (cell->label == NULL)
          continue;
        text = cell->step != NULL && cell->step->runs->len > 0 ?
          ds_mark_meter_text (cell->step, self->mark_units) : NULL;
        gtk_label_set_label (cell->label, text ? text : "—");
      }
}

static void
select_cell (DsWorkloadsPage *self,
             guint            row,
             DsMarkDirection  direction)
{
  DsWorkloadsCell *cell = &self->cells[row][direction];

  self->selected_row = row;
  self->selected_direction = direction;
  if (cell->button != NULL)
    {
      self->selecting = TRUE;
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (cell->button), TRUE);
      self->selecting = FALSE;
    }
  _ds_workloads_show_selected (self);
}

void
_ds_workloads_cell_set_step (DsWorkloadsPage *self,
                             DsMarkStep      *step)
{
  DsWorkloadsCell *cell;

  if (step->row >= DS_WORKLOADS_MAX_ROWS || step->direction >= DS_MARK_N_DIRECTIONS ||
      self->cells[step->row][step->direction].button == NULL)
    {
      ds_mark_step_free (step);
      return;
    }

  cell = &self->cells[step->row][step->direction];
  g_clear_pointer (&cell->step, ds_mark_step_free);
  g_clear_pointer (&cell->live, g_array_unref);
  cell->step = step;
  _ds_workloads_grid_refresh (self);
  if (self->selected_row == step->row && self->selected_direction == step->direction)
    _ds_workloads_show_selected (self);
}

void
_ds_workloads_cell_begin (DsWorkloadsPage *self,
                          guint            row,
                          DsMarkDirection  direction)
{
  DsWorkloadsCell *cell;

  if (row >= DS_WORKLOADS_MAX_ROWS || direction >= DS_MARK_N_DIRECTIONS)
    return;

  cell = &self->cells[row][direction];
  cell_clear (cell);
  cell->live = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  _ds_workloads_grid_refresh (self);
  select_cell (self, row, direction);
}

/* The latencies so far as the histogram layer takes them: the nonzero
 * buckets, each with its upper bound. */
static GArray *
live_buckets (const DsIntervalSum *sum)
{
  GArray *buckets = g_array_new (FALSE, FALSE, sizeof (DsLatencyBucket));

  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    if (sum->buckets[i] != 0)
      {
        uint64_t lo, hi;
        DsLatencyBucket bucket;

        ds_log_bucket_range (i, DS_INTERVAL_HIST_BITS, &lo, &hi);
        bucket = (DsLatencyBucket) { (double) hi / 1e9, sum->buckets[i] };
        g_array_append_val (buckets, bucket);
      }

  return buckets;
}

void
_ds_workloads_cell_add_live (DsWorkloadsPage       *self,
                             guint                  row,
                             DsMarkDirection        direction,
                             guint                  index,
                             const DsIntervalPoint *point,
                             const DsIntervalSum   *histogram)
{
  DsWorkloadsCell *cell;

  if (row >= DS_WORKLOADS_MAX_ROWS || direction >= DS_MARK_N_DIRECTIONS)
    return;

  cell = &self->cells[row][direction];
  if (cell->live == NULL)
    return;
  /* A new measured run (of count): its series starts over. */
  if (index == 0)
    g_array_set_size (cell->live, 0);
  g_array_append_vals (cell->live, point, 1);
  /* The histogram so far (of this measured run), at most ten times a
   * second: an interval is at least 100 ms. */
  if (histogram != NULL)
    {
      g_clear_pointer (&cell->live_buckets, g_array_unref);
      cell->live_buckets = live_buckets (histogram);
    }

  if (self->selected_row == row && self->selected_direction == direction)
    {
      fill_series (self, cell->live, direction);
      if (histogram != NULL)
        fill_histogram (self, NULL, cell->live_buckets, direction);
    }
}

/* ---- The selected cell's graphs ---------------------------------------- */

static void
fill_series (DsWorkloadsPage *self,
             const GArray    *points,
             DsMarkDirection  direction)
{
  gboolean iops = self->mark_units == DS_MARK_UNITS_IOPS;

  ds_graph_set_y_axis (self->series_graph, DS_GRAPH_SIDE_LEFT,
                       iops ? DS_GRAPH_AXIS_IOPS : DS_GRAPH_AXIS_RATE);
  ds_graph_layer_set_title (self->rate_layer, iops ? _("IOPS") : _("Throughput"));

  /* A run in progress fills the time axis from the left; a finished one
   * spans its points. */
  ds_graph_set_x_max (self->series_graph, points != NULL && cell_is_live (self, points) ? self->run_s : 0);
  ds_series_clear (self->rate);
  ds_series_clear (self->p99);
  for (guint i = 0; points != NULL && i < points->len; i++)
    {
      const DsIntervalPoint *point = &g_array_index (points, DsIntervalPoint, i);
      const DsIntervalDir *read = &point->read, *write = &point->write;
      double rate, p99;

      switch (direction)
        {
        case DS_MARK_WRITE:
          rate = iops ? write->iops : write->bytes_per_s;
          p99 = write->p99_s;
          break;
        case DS_MARK_MIX:
          rate = iops ? read->iops + write->iops : read->bytes_per_s + write->bytes_per_s;
          p99 = MAX (read->p99_s, write->p99_s);
          break;
        case DS_MARK_READ:
        default:
          rate = iops ? read->iops : read->bytes_per_s;
          p99 = read->p99_s;
          break;
        }
      ds_series_append (self->rate, point->t_s, rate, 0);
      if (p99 > 0)
        ds_series_append (self->p99, point->t_s, p99, 0);
    }
  /* µs for fast devices, ms once a p99 reaches 10 ms (a disk, a queue). */
  ds_graph_set_y_axis (self->series_graph, DS_GRAPH_SIDE_RIGHT,
                       ds_series_get_max_y (self->p99) >= P99_MS_FROM_S ?
                       DS_GRAPH_AXIS_LATENCY : DS_GRAPH_AXIS_LATENCY_US);
  ds_series_changed (self->rate);
  ds_series_changed (self->p99);
}

/* Both directions' buckets, merged by upper bound (the same bounds). */
static GArray *
merge_buckets (const GArray *a,
               const GArray *b)
{
  GArray *merged = g_array_new (FALSE, FALSE, sizeof (DsLatencyBucket));
  guint i = 0, k = 0;

  while ((a != NULL && i < a->len) || (b != NULL && k < b->len))
    {
      const DsLatencyBucket *x = a != NULL && i < a->len ? &g_array_index (a, DsLatencyBucket, i) : NULL;
      const DsLatencyBucket *y = b != NULL && k < b->len ? &g_array_index (b, DsLatencyBucket, k) : NULL;
      DsLatencyBucket out;

      if (x != NULL && (y == NULL || x->upper_s < y->upper_s))
        out = *x, i++;
      else if (y != NULL && (x == NULL || y->upper_s < x->upper_s))
        out = *y, k++;
      else
        {
          out = (DsLatencyBucket) { x->upper_s, x->count + y->count };
          i++, k++;
        }
      g_array_append_val (merged, out);
    }

  return merged;
}

/* The bucket bound below which @percent of the I/Os finished. */
static double
bucket_percentile (const GArray *buckets,
                   double        percent)
{
  uint64_t total = 0, seen = 0;

  for (guint i = 0; i < buckets->len; i++)
    total += g_array_index (buckets, DsLatencyBucket, i).count;
  for (guint i = 0; i < buckets->len; i++)
    {
      const DsLatencyBucket *bucket = &g_array_index (buckets, DsLatencyBucket, i);

      seen += bucket->count;
      if ((double) seen >= (double) total * percent / 100)
        return bucket->upper_s;
    }
  return 0;
}

static double
dir_percentile (const DsWorkloadDir *dir,
                double               percent)
{
  for (guint i = 0; i < DS_WORKLOAD_N_PERCENTILES; i++)
    if (ds_workload_percentiles[i] == percent)
      return dir->lat_percentile_s[i];
  return 0;
}

static void
fill_histogram (DsWorkloadsPage      *self,
                const DsWorkloadData *data,
                const GArray         *live,
                DsMarkDirection       direction)
{
  static const double percents[] = { 50, 99, 99.9 };
  const char *const labels[] = { "p50", "p99", "p99.9" };
  double marks[G_N_ELEMENTS (percents)] = { 0 };
  g_autoptr(GArray) merged = NULL;
  const GArray *buckets = NULL;
  g_autofree char *title = NULL;

  if (data != NULL && direction == DS_MARK_MIX)
    {
      buckets = merged = merge_buckets (data->read.histogram, data->write.histogram);
      for (guint i = 0; i < G_N_ELEMENTS (percents); i++)
        marks[i] = bucket_percentile (merged, percents[i]);
    }
  else if (data != NULL)
    {
      const DsWorkloadDir *dir = direction == DS_MARK_WRITE ? &data->write : &data->read;

      buckets = dir->histogram;
      for (guint i = 0; i < G_N_ELEMENTS (percents); i++)
        marks[i] = dir_percentile (dir, percents[i]);
    }
  else if (live != NULL)
    {
      /* While the step measures: its I/Os so far, the marks at the
       * buckets' bounds (the result's percentiles come at its end). */
      buckets = live;
      for (guint i = 0; i < G_N_ELEMENTS (percents); i++)
        marks[i] = bucket_percentile (live, percents[i]);
    }

  ds_histogram_series_set_buckets (self->histogram, buckets);
  ds_histogram_layer_set_marks (DS_HISTOGRAM_LAYER (self->histogram_layer), marks, labels,
                                G_N_ELEMENTS (marks));

  if (buckets != NULL && buckets->len > 0)
    {
      g_autofree char *p50 = format_latency (marks[0]);
      g_autofree char *p99 = format_latency (marks[1]);
      g_autofree char *p999 = format_latency (marks[2]);

      title = data != NULL ?
        g_strdup_printf (_("Latency: p50 %s · p99 %s · p99.9 %s"), p50, p99, p999) :
        g_strdup_printf (_("Latency so far: p50 %s · p99 %s · p99.9 %s"), p50, p99, p999);
    }
  else
    title = g_strdup (_("Latency histogram (when the step has run)"));
  gtk_label_set_label (self->histogram_title, title);
}

void
_ds_workloads_show_selected (DsWorkloadsPage *self)
{
  DsWorkloadsCell *cell = &self->cells[self->selected_row][self->selected_direction];
  const DsWorkloadData *data = cell->step != NULL ? cell->step->result : NULL;
  const DsPreset *preset = self->grid_preset;
  g_autofree char *title = NULL;

  fill_series (self, data != NULL ? data->series : cell->live, self->selected_direction);
  fill_histogram (self, data, data == NULL ? cell->live_buckets : NULL, self->selected_direction);

  if (preset == NULL || cell->button == NULL)
    title = g_strdup (_("Over time"));
  else if (data != NULL && cell->step->runs->len > 1)
    title = g_strdup_printf (_("%s %s over time (the best of %u runs)"),
                             preset->rows[self->selected_row].label,
                             direction_title (self->selected_direction), cell->step->runs->len);
  else
    title = g_strdup_printf (_("%s %s over time"), preset->rows[self->selected_row].label,
                             direction_title (self->selected_direction));
  gtk_label_set_label (self->series_title, title);
}
