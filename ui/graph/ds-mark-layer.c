/* ds-mark-layer.c: a finding marked on a graph
 *
 * The Sweep page's knee, the Sustain page's cliff and floor, the Cache
 * Probe's estimate: a dashed line where the finding is, in the layer's
 * colour; the layer's title (the legend) says it in words ("Knee: QD 16").
 * The points come from the page's series, so the legend and the screen
 * reader's description (ds-graph-a11y.c) name the mark only once there is
 * one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-chart-style.h"
#include "ds-mark-layer.h"

struct _DsMarkLayer
{
  DsGraphLayer   parent_instance;

  GtkOrientation orientation;
};

G_DEFINE_FINAL_TYPE (DsMarkLayer, ds_mark_layer, DS_TYPE_GRAPH_LAYER)

enum {
  PROP_0,
  PROP_ORIENTATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ds_mark_layer_draw (DsGraphLayer      *layer,
                    cairo_t           *cr,
                    const DsGraphPlot *plot,
                    const GdkRGBA     *color)
{
  DsMarkLayer *self = DS_MARK_LAYER (layer);
  DsSeries *series = ds_graph_layer_get_series (layer);
  DsGraphSide axis = ds_graph_layer_get_y_axis (layer);
  const DsSeriesPoint *points = ds_series_get_points (series);
  guint n_points = ds_series_get_n_points (series);

  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < n_points; i++)
    {
      if (points[i].error != 0)
        continue;

      ds_chart_mark_set_dash (cr, 2);
      if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          double y = round (ds_graph_plot_y (plot, axis, points[i].y)) + 0.5;

          cairo_move_to (cr, plot->left, y);
          cairo_line_to (cr, plot->left + plot->width, y);
          cairo_stroke (cr);
          continue;
        }

      double x = round (ds_graph_plot_x (plot, points[i].x)) + 0.5;

      cairo_move_to (cr, x, plot->top);
      cairo_line_to (cr, x, plot->top + plot->height);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (points[i].y > 0)
        {
          cairo_arc (cr, x, ds_graph_plot_y (plot, axis, points[i].y), 6, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
    }
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
ds_mark_layer_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DsMarkLayer *self = DS_MARK_LAYER (object);

  switch (prop_id)
    {
    case PROP_ORIENTATION:
      g_value_set_enum (value, self->orientation);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_mark_layer_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DsMarkLayer *self = DS_MARK_LAYER (object);

  switch (prop_id)
    {
    case PROP_ORIENTATION:
      ds_mark_layer_set_orientation (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_mark_layer_class_init (DsMarkLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DsGraphLayerClass *layer_class = DS_GRAPH_LAYER_CLASS (klass);

  object_class->get_property = ds_mark_layer_get_property;
  object_class->set_property = ds_mark_layer_set_property;

  layer_class->draw = ds_mark_layer_draw;

  properties[PROP_ORIENTATION] =
    g_param_spec_enum ("orientation", NULL, NULL, GTK_TYPE_ORIENTATION, GTK_ORIENTATION_VERTICAL,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ds_mark_layer_init (DsMarkLayer *self)
{
  self->orientation = GTK_ORIENTATION_VERTICAL;
}

DsGraphLayer *
ds_mark_layer_new (void)
{
  return g_object_new (DS_TYPE_MARK_LAYER, NULL);
}

GtkOrientation
ds_mark_layer_get_orientation (DsMarkLayer *self)
{
  g_return_val_if_fail (DS_IS_MARK_LAYER (self), GTK_ORIENTATION_VERTICAL);

  return self->orientation;
}

void
ds_mark_layer_set_orientation (DsMarkLayer    *self,
                               GtkOrientation  orientation)
{
  g_return_if_fail (DS_IS_MARK_LAYER (self));

  if (self->orientation == orientation)
    return;

  self->orientation = orientation;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
  ds_graph_layer_changed (DS_GRAPH_LAYER (self));
}
