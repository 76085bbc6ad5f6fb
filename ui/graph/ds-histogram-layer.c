/* ds-histogram-layer.c: latency histogram bars, with percentile marks
 *
 * The Workloads page's latency distribution: on a log x axis
 * (DS_GRAPH_AXIS_LATENCY_LOG) each bar spans one eighth of a power of
 * two, from its upper bound / 2^(1/8) to its upper bound, and rises to
 * its count.  Bars are in nanoseconds so that log2 keeps them apart
 * (ds_graph_plot_x() takes log2 of at least 1).
 *
 * The marks (p50, p99, p99.9) are dashed lines across the plot with their
 * label at the top, laid out so that no label covers another, nor (where
 * there is room) another mark's line: close percentiles stay readable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-chart-style.h"
#include "ds-histogram-layer.h"
#include "ds-label-layout.h"

/* A label's distance from its line, and between two rows of labels. */
#define LABEL_PAD     3
#define LABEL_ROW_GAP 2

struct _DsHistogramLayer
{
  DsGraphLayer parent_instance;

  double       marks_ns[DS_HISTOGRAM_MAX_MARKS];
  char        *labels[DS_HISTOGRAM_MAX_MARKS];
  guint        n_marks;
};

G_DEFINE_FINAL_TYPE (DsHistogramLayer, ds_histogram_layer, DS_TYPE_GRAPH_LAYER)

void
ds_histogram_series_set_buckets (DsSeries     *series,
                                 const GArray *buckets)
{
  double bar_upper_ns = 0;
  uint64_t count = 0;

  g_return_if_fail (DS_IS_SERIES (series));

  ds_series_clear (series);
  for (guint i = 0; buckets != NULL && i < buckets->len; i++)
    {
      const DsLatencyBucket *bucket = &g_array_index (buckets, DsLatencyBucket, i);
      double upper_ns = bucket->upper_s * 1e9;
      /* The bar whose range holds the bucket's upper bound: bars end at
       * 2^(k/8) ns. */
      double bar_ns = exp2 (ceil (log2 (MAX (upper_ns, 1)) * DS_HISTOGRAM_BARS_PER_OCTAVE - 1e-9) /
                            DS_HISTOGRAM_BARS_PER_OCTAVE);

      if (bar_ns != bar_upper_ns && count > 0)
        {
          ds_series_append (series, bar_upper_ns, (double) count, 0);
          count = 0;
        }
      bar_upper_ns = bar_ns;
      count += bucket->count;
    }
  if (count > 0)
    ds_series_append (series, bar_upper_ns, (double) count, 0);
  ds_series_changed (series);
}

static void
ds_histogram_layer_draw (DsGraphLayer      *layer,
                         cairo_t           *cr,
                         const DsGraphPlot *plot,
                         const GdkRGBA     *color)
{
  DsHistogramLayer *self = DS_HISTOGRAM_LAYER (layer);
  DsSeries *series = ds_graph_layer_get_series (layer);
  DsGraphSide axis = ds_graph_layer_get_y_axis (layer);
  const DsSeriesPoint *points = ds_series_get_points (series);
  guint n_points = ds_series_get_n_points (series);
  double bottom = plot->top + plot->height;
  double ratio = exp2 (1.0 / DS_HISTOGRAM_BARS_PER_OCTAVE);
  DsMarkLabel marks[DS_HISTOGRAM_MAX_MARKS] = { { 0 } };
  PangoLayout *layouts[DS_HISTOGRAM_MAX_MARKS] = { NULL };
  PangoFontDescription *font = pango_font_description_from_string ("Sans Bold 9");
  int width, height;

  /* Bars, a hairline apart. */
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * 0.75);
  for (guint i = 0; i < n_points; i++)
    {
      double x0 = ds_graph_plot_x (plot, points[i].x / ratio);
      double x1 = ds_graph_plot_x (plot, points[i].x);
      double y = ds_graph_plot_y (plot, axis, points[i].y);

      if (x1 - x0 > 2)
        x1 -= 1;
      cairo_rectangle (cr, x0, y, MAX (x1 - x0, 1), bottom - y);
    }
  cairo_fill (cr);

  /* The marks: the lines, then their labels where none covers another
   * (ds-label-layout.c). */
  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (guint i = 0; i < self->n_marks; i++)
    {
      marks[i].line_x = round (ds_graph_plot_x (plot, self->marks_ns[i])) + 0.5;
      layouts[i] = pango_cairo_create_layout (cr);
      pango_layout_set_font_description (layouts[i], font);
      pango_layout_set_text (layouts[i], self->labels[i], -1);
      pango_layout_get_pixel_size (layouts[i], &width, &height);
      marks[i].width = width;
      marks[i].height = height;

      cairo_save (cr);
      ds_chart_mark_set_dash (cr, 1.5);
      cairo_move_to (cr, marks[i].line_x, plot->top);
      cairo_line_to (cr, marks[i].line_x, bottom);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
  ds_mark_labels_layout (marks, self->n_marks, plot->left, plot->left + plot->width,
                         plot->top + 4, LABEL_PAD, LABEL_ROW_GAP);
  for (guint i = 0; i < self->n_marks; i++)
    {
      cairo_move_to (cr, marks[i].x, marks[i].y);
      pango_cairo_show_layout (cr, layouts[i]);
      g_object_unref (layouts[i]);
    }
  pango_font_description_free (font);
}

static void
ds_histogram_layer_finalize (GObject *object)
{
  DsHistogramLayer *self = DS_HISTOGRAM_LAYER (object);

  for (guint i = 0; i < DS_HISTOGRAM_MAX_MARKS; i++)
    g_clear_pointer (&self->labels[i], g_free);

  G_OBJECT_CLASS (ds_histogram_layer_parent_class)->finalize (object);
}

static void
ds_histogram_layer_class_init (DsHistogramLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DsGraphLayerClass *layer_class = DS_GRAPH_LAYER_CLASS (klass);

  object_class->finalize = ds_histogram_layer_finalize;
  layer_class->draw = ds_histogram_layer_draw;
}

static void
ds_histogram_layer_init (DsHistogramLayer *self)
{
}

DsGraphLayer *
ds_histogram_layer_new (void)
{
  return g_object_new (DS_TYPE_HISTOGRAM_LAYER, NULL);
}

void
ds_histogram_layer_set_marks (DsHistogramLayer  *self,
                              const double      *latency_s,
                              const char *const *labels,
                              guint              n_marks)
{
  g_return_if_fail (DS_IS_HISTOGRAM_LAYER (self));

  for (guint i = 0; i < DS_HISTOGRAM_MAX_MARKS; i++)
    g_clear_pointer (&self->labels[i], g_free);
  self->n_marks = 0;

  for (guint i = 0; i < n_marks && self->n_marks < DS_HISTOGRAM_MAX_MARKS; i++)
    if (latency_s[i] > 0)
      {
        self->marks_ns[self->n_marks] = latency_s[i] * 1e9;
        self->labels[self->n_marks] = g_strdup (labels[i]);
        self->n_marks++;
      }

  ds_graph_layer_changed (DS_GRAPH_LAYER (self));
}
