/* ds-dots-layer.c: a cloud of dots, one per point of a series
 *
 * Access times: under the Benchmark page's curve (on the right axis) and
 * the Random Access page's scatter, one layer per transfer size.
 *
 * Its axis is scaled to the bulk of the dots, not to the one slowest: a
 * single 4 ms hiccup among 60 µs reads would otherwise press every other
 * dot onto the axis.  With 100 dots or more the extent is twice the 99th
 * percentile (when that is below the maximum).  A dot above the top is
 * not drawn on its edge as if it were there: a small arrow at the top
 * edge points up where it lies, and the graph counts them over the plot
 * ("▲ 3 above 2 ms").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-dots-layer.h"

#include "ds-chart-axes.h"

/* Smaller dots when there are many, so the cloud keeps its shape. */
#define MANY_DOTS       2000

/* The arrows for dots above the top: one per this many pixels across at
 * most, each ARROW_WIDTH wide and ARROW_HEIGHT high, its tip just above
 * the top edge. */
#define ARROW_STEP      6
#define ARROW_WIDTH     8.0
#define ARROW_HEIGHT    6.0

struct _DsDotsLayer
{
  DsGraphLayer parent_instance;
};

G_DEFINE_FINAL_TYPE (DsDotsLayer, ds_dots_layer, DS_TYPE_GRAPH_LAYER)

static double
ds_dots_layer_get_y_extent (DsGraphLayer *layer)
{
  DsSeries *series = ds_graph_layer_get_series (layer);
  double max;
  guint n;

  if (series == NULL)
    return 0;

  max = ds_series_get_max_y (series);
  n = ds_series_get_n_points (series);
  /* The exported picture's rule (ds-chart-axes.c). */
  return n >= DS_CHART_DOTS_BULK ? ds_chart_dots_top (max, ds_series_get_y_percentile (series, 99), n) : max;
}

/* Thousands of dots: set pixels in an image surface and paint it once,
 * instead of filling thousands of antialiased rectangles (which costs
 * milliseconds a frame at 10 000 dots). */
static void
ds_dots_layer_draw (DsGraphLayer      *layer,
                    cairo_t           *cr,
                    const DsGraphPlot *plot,
                    const GdkRGBA     *color)
{
  DsSeries *series = ds_graph_layer_get_series (layer);
  DsGraphSide  axis = ds_graph_layer_get_y_axis (layer);
  const DsSeriesPoint *points = ds_series_get_points (series);
  guint n_points = ds_series_get_n_points (series);
  int scale = plot->scale_factor;
  int width = (int) ceil (plot->width * scale);
  int height = (int) ceil (plot->height * scale);
  int size = (n_points > MANY_DOTS ? 2 : 3) * scale;
  /* Above this (in data units) a dot is off the scale. */
  double top = plot->y_max[axis] / plot->y_factor[axis];
  g_autofree guint8 *arrows = NULL;
  guint n_columns, n_above = 0;
  cairo_surface_t *surface;
  int stride;
  guint32 pixel;
  guint8 *data;

  if (width <= 0 || height <= 0)
    return;

  n_columns = (guint) (plot->width / ARROW_STEP) + 1;
  arrows = g_new0 (guint8, n_columns);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  /* Premultiplied ARGB in native byte order, as cairo wants it. */
  pixel = ((guint32) (color->alpha * 255) << 24) |
          ((guint32) (color->red * color->alpha * 255) << 16) |
          ((guint32) (color->green * color->alpha * 255) << 8) |
          ((guint32) (color->blue * color->alpha * 255));

  for (guint i = 0; i < n_points; i++)
    {
      int x = (int) ((ds_graph_plot_x (plot, points[i].x) - plot->left) * scale) - size / 2;

      if (points[i].y > top)
        {
          double column = (ds_graph_plot_x (plot, points[i].x) - plot->left) / ARROW_STEP;

          arrows[(guint) CLAMP (column, 0, n_columns - 1)] = 1;
          n_above++;
          continue;
        }

      int y = MAX ((int) ((ds_graph_plot_y (plot, axis, points[i].y) - plot->top) * scale) - size / 2, 0);
      int x1 = MIN (x + size, width), y1 = MIN (y + size, height);

      for (int row = MAX (y, 0); row < y1; row++)
        {
          guint32 *line = (guint32 *) (gpointer) (data + (gsize) row * stride);

          for (int column = MAX (x, 0); column < x1; column++)
            line[column] = pixel;
        }
    }

  cairo_surface_mark_dirty (surface);
  cairo_surface_set_device_scale (surface, scale, scale);
  cairo_set_source_surface (cr, surface, plot->left, plot->top);
  cairo_paint (cr);
  cairo_surface_destroy (surface);

  /* Where dots lie above the scale: arrows pointing up at the top edge. */
  gdk_cairo_set_source_rgba (cr, color);
  for (guint column = 0; column < n_columns; column++)
    if (arrows[column])
      {
        double x = plot->left + (column + 0.5) * ARROW_STEP;

        cairo_move_to (cr, x, plot->top - 2);
        cairo_line_to (cr, x + ARROW_WIDTH / 2, plot->top - 2 + ARROW_HEIGHT);
        cairo_line_to (cr, x - ARROW_WIDTH / 2, plot->top - 2 + ARROW_HEIGHT);
        cairo_close_path (cr);
      }
  cairo_fill (cr);

  ds_graph_layer_set_n_above (layer, n_above);
}

static void
ds_dots_layer_class_init (DsDotsLayerClass *klass)
{
  DsGraphLayerClass *layer_class = DS_GRAPH_LAYER_CLASS (klass);

  layer_class->get_y_extent = ds_dots_layer_get_y_extent;
  layer_class->draw = ds_dots_layer_draw;
}

static void
ds_dots_layer_init (DsDotsLayer *self)
{
}

DsGraphLayer *
ds_dots_layer_new (void)
{
  return g_object_new (DS_TYPE_DOTS_LAYER, NULL);
}
