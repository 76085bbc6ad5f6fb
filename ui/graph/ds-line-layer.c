/* ds-line-layer.c: a curve through a series' points
 *
 * The transfer rate across the disk, and the rate per block size.  The
 * curve breaks where a point failed (a bad range), and each failed point
 * gets a red tick on the x axis, drawn over everything so it is never
 * hidden under another curve.  A lone point shows as a dot.  Given a
 * style (the compare window's overlays), the curve has that series' dash
 * pattern and markers, and its legend key shows them: colour is not the
 * only way to tell the curves apart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-line-layer.h"
#include "ds-chart-style.h"

struct _DsLineLayer
{
  DsGraphLayer parent_instance;

  gboolean     fill;
  int          style;         /* -1: a plain line */
  gboolean     every_point;   /* a marker on each point, not spaced */
};

G_DEFINE_FINAL_TYPE (DsLineLayer, ds_line_layer, DS_TYPE_GRAPH_LAYER)

enum {
  PROP_0,
  PROP_FILL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The style's markers: spaced along a dense curve, or on every point
 * (a failed one, NAN, has none). */
static void
draw_markers (DsLineLayer  *self,
              cairo_t      *cr,
              const double *xs,
              const double *ys,
              guint         n_points)
{
  if (!self->every_point)
    {
      ds_chart_series_markers (cr, (guint) self->style, xs, ys, n_points, 7);
      return;
    }
  for (guint i = 0; i < n_points; i++)
    if (!isnan (ys[i]))
      ds_chart_series_marker (cr, (guint) self->style, xs[i], ys[i], 7);
}

static void
ds_line_layer_draw (DsGraphLayer      *layer,
                    cairo_t           *cr,
                    const DsGraphPlot *plot,
                    const GdkRGBA     *color)
{
  DsLineLayer *self = DS_LINE_LAYER (layer);
  DsSeries *series = ds_graph_layer_get_series (layer);
  DsGraphSide  axis = ds_graph_layer_get_y_axis (layer);
  const DsSeriesPoint *points = ds_series_get_points (series);
  guint n_points = ds_series_get_n_points (series);
  gboolean pen_down = FALSE;
  double first_x = 0, last_x = 0;
  double bottom = plot->top + plot->height;
  g_autofree double *xs = NULL;
  g_autofree double *ys = NULL;

  if (self->style >= 0)
    {
      xs = g_new (double, MAX (n_points, 1));
      ys = g_new (double, MAX (n_points, 1));
    }

  /* The curve, broken where a point failed. */
  cairo_new_path (cr);
  for (guint i = 0; i < n_points; i++)
    {
      double x, y;

      if (points[i].error != 0)
        {
          pen_down = FALSE;
          if (xs != NULL)
            {
              xs[i] = ds_graph_plot_x (plot, points[i].x);
              ys[i] = NAN;
            }
          continue;
        }

      x = ds_graph_plot_x (plot, points[i].x);
      y = ds_graph_plot_y (plot, axis, points[i].y);
      if (xs != NULL)
        {
          xs[i] = x;
          ys[i] = y;
        }

      if (!pen_down)
        {
          cairo_move_to (cr, x, y);
          if (first_x == 0 && last_x == 0)
            first_x = x;
        }
      else
        cairo_line_to (cr, x, y);

      pen_down = TRUE;
      last_x = x;
    }

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width (cr, 2);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_save (cr);
  if (self->style >= 0)
    ds_chart_series_set_dash (cr, (guint) self->style, 2);

  if (self->fill && n_points > 1)
    {
      /* A light wash under the curve (only for one unbroken run). */
      cairo_path_t *path = cairo_copy_path (cr);

      cairo_stroke (cr);

      cairo_append_path (cr, path);
      cairo_path_destroy (path);
      cairo_line_to (cr, last_x, bottom);
      cairo_line_to (cr, first_x, bottom);
      cairo_close_path (cr);
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * 0.15);
      cairo_fill (cr);
    }
  else
    cairo_stroke (cr);
  cairo_restore (cr);

  if (xs != NULL)
    {
      gdk_cairo_set_source_rgba (cr, color);
      draw_markers (self, cr, xs, ys, n_points);
    }

  /* A single point has no line: show it as a dot. */
  if (n_points == 1 && points[0].error == 0)
    {
      gdk_cairo_set_source_rgba (cr, color);
      cairo_arc (cr, ds_graph_plot_x (plot, points[0].x),
                 ds_graph_plot_y (plot, axis, points[0].y), 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
ds_line_layer_draw_over (DsGraphLayer      *layer,
                         cairo_t           *cr,
                         const DsGraphPlot *plot)
{
  DsSeries *series = ds_graph_layer_get_series (layer);
  const DsSeriesPoint *points = ds_series_get_points (series);
  guint n_points = ds_series_get_n_points (series);
  const GdkRGBA *color = &plot->error_color;
  double bottom = plot->top + plot->height;

  for (guint i = 0; i < n_points; i++)
    {
      double x;

      if (points[i].error == 0)
        continue;

      x = round (ds_graph_plot_x (plot, points[i].x)) + 0.5;

      /* A faint band over the whole height, and a strong tick at the axis. */
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, 0.25);
      cairo_rectangle (cr, x - 1.5, plot->top, 3, plot->height);
      cairo_fill (cr);

      gdk_cairo_set_source_rgba (cr, color);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, bottom + 6);
      cairo_line_to (cr, x, bottom - 12);
      cairo_stroke (cr);
    }
}

static double
ds_line_layer_draw_key (DsGraphLayer  *layer,
                        cairo_t       *cr,
                        double         right,
                        double         y,
                        const GdkRGBA *color)
{
  DsLineLayer *self = DS_LINE_LAYER (layer);
  double width = 24;

  gdk_cairo_set_source_rgba (cr, color);
  if (self->style < 0)
    {
      cairo_rectangle (cr, right - 10, y - 5, 10, 10);
      cairo_fill (cr);
      return 10;
    }
  ds_chart_series_key (cr, (guint) self->style, right - width, y, width, 2);
  return width;
}

static void
ds_line_layer_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DsLineLayer *self = DS_LINE_LAYER (object);

  switch (prop_id)
    {
    case PROP_FILL:
      g_value_set_boolean (value, self->fill);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_line_layer_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DsLineLayer *self = DS_LINE_LAYER (object);

  switch (prop_id)
    {
    case PROP_FILL:
      ds_line_layer_set_fill (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_line_layer_class_init (DsLineLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DsGraphLayerClass *layer_class = DS_GRAPH_LAYER_CLASS (klass);

  object_class->get_property = ds_line_layer_get_property;
  object_class->set_property = ds_line_layer_set_property;

  layer_class->draw = ds_line_layer_draw;
  layer_class->draw_over = ds_line_layer_draw_over;
  layer_class->draw_key = ds_line_layer_draw_key;

  properties[PROP_FILL] =
    g_param_spec_boolean ("fill", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ds_line_layer_init (DsLineLayer *self)
{
  self->style = -1;
}

DsGraphLayer *
ds_line_layer_new (void)
{
  return g_object_new (DS_TYPE_LINE_LAYER, NULL);
}

gboolean
ds_line_layer_get_fill (DsLineLayer *self)
{
  g_return_val_if_fail (DS_IS_LINE_LAYER (self), FALSE);

  return self->fill;
}

void
ds_line_layer_set_fill (DsLineLayer *self,
                        gboolean     fill)
{
  g_return_if_fail (DS_IS_LINE_LAYER (self));

  fill = !!fill;
  if (self->fill == fill)
    return;

  self->fill = fill;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILL]);
  ds_graph_layer_changed (DS_GRAPH_LAYER (self));
}

int
ds_line_layer_get_style (DsLineLayer *self)
{
  g_return_val_if_fail (DS_IS_LINE_LAYER (self), -1);

  return self->style;
}

void
ds_line_layer_set_style (DsLineLayer *self,
                         int          style)
{
  g_return_if_fail (DS_IS_LINE_LAYER (self));

  style = MAX (style, -1);
  if (self->style == style)
    return;

  self->style = style;
  ds_graph_layer_changed (DS_GRAPH_LAYER (self));
}

void
ds_line_layer_set_every_point (DsLineLayer *self,
                               gboolean     every_point)
{
  g_return_if_fail (DS_IS_LINE_LAYER (self));

  every_point = !!every_point;
  if (self->every_point == every_point)
    return;

  self->every_point = every_point;
  ds_graph_layer_changed (DS_GRAPH_LAYER (self));
}
