/* ds-graph-layer.c: one way of drawing a series on a DsGraph
 *
 * The base class holds what every layer has (its series, legend title,
 * theme colour, axis) and tells the graph when to redraw ("changed").
 * Subclasses only draw.  See ds-graph-layer.h for how to add one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-graph-layer.h"
#include "ds-ui-enums.h"

typedef struct
{
  DsSeries      *series;
  char          *title;
  char          *color;
  DsGraphSide    y_axis;
  DsGraphLegend  legend;
  guint          n_above;        /* in the last frame drawn */
} DsGraphLayerPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (DsGraphLayer, ds_graph_layer, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SERIES,
  PROP_TITLE,
  PROP_COLOR,
  PROP_Y_AXIS,
  PROP_LEGEND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
ds_graph_layer_changed (DsGraphLayer *self)
{
  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

static double
ds_graph_layer_real_get_y_extent (DsGraphLayer *self)
{
  DsSeries *series = ds_graph_layer_get_series (self);

  return series != NULL ? ds_series_get_max_y (series) : 0;
}

static void
ds_graph_layer_dispose (GObject *object)
{
  ds_graph_layer_set_series (DS_GRAPH_LAYER (object), NULL);

  G_OBJECT_CLASS (ds_graph_layer_parent_class)->dispose (object);
}

static void
ds_graph_layer_finalize (GObject *object)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (DS_GRAPH_LAYER (object));

  g_clear_pointer (&priv->title, g_free);
  g_clear_pointer (&priv->color, g_free);

  G_OBJECT_CLASS (ds_graph_layer_parent_class)->finalize (object);
}

static void
ds_graph_layer_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DsGraphLayer *self = DS_GRAPH_LAYER (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_object (value, ds_graph_layer_get_series (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, ds_graph_layer_get_title (self));
      break;

    case PROP_COLOR:
      g_value_set_string (value, ds_graph_layer_get_color (self));
      break;

    case PROP_Y_AXIS:
      g_value_set_enum (value, ds_graph_layer_get_y_axis (self));
      break;

    case PROP_LEGEND:
      g_value_set_enum (value, ds_graph_layer_get_legend (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_layer_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DsGraphLayer *self = DS_GRAPH_LAYER (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      ds_graph_layer_set_series (self, g_value_get_object (value));
      break;

    case PROP_TITLE:
      ds_graph_layer_set_title (self, g_value_get_string (value));
      break;

    case PROP_COLOR:
      ds_graph_layer_set_color (self, g_value_get_string (value));
      break;

    case PROP_Y_AXIS:
      ds_graph_layer_set_y_axis (self, g_value_get_enum (value));
      break;

    case PROP_LEGEND:
      ds_graph_layer_set_legend (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_layer_class_init (DsGraphLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ds_graph_layer_dispose;
  object_class->finalize = ds_graph_layer_finalize;
  object_class->get_property = ds_graph_layer_get_property;
  object_class->set_property = ds_graph_layer_set_property;

  klass->get_y_extent = ds_graph_layer_real_get_y_extent;

  properties[PROP_SERIES] =
    g_param_spec_object ("series", NULL, NULL, DS_TYPE_SERIES,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR] =
    g_param_spec_string ("color", NULL, NULL, "accent_color",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_Y_AXIS] =
    g_param_spec_enum ("y-axis", NULL, NULL, DS_TYPE_GRAPH_SIDE, DS_GRAPH_SIDE_LEFT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LEGEND] =
    g_param_spec_enum ("legend", NULL, NULL, DS_TYPE_GRAPH_LEGEND, DS_GRAPH_LEGEND_ALWAYS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DsGraphLayer::changed:
   *
   * Its points or its look changed: the graph draws again.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
ds_graph_layer_init (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  priv->color = g_strdup ("accent_color");
}

DsSeries *
ds_graph_layer_get_series (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), NULL);

  return priv->series;
}

void
ds_graph_layer_set_series (DsGraphLayer *self,
                           DsSeries     *series)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));
  g_return_if_fail (series == NULL || DS_IS_SERIES (series));

  if (priv->series == series)
    return;

  if (priv->series != NULL)
    g_signal_handlers_disconnect_by_func (priv->series, ds_graph_layer_changed, self);
  g_set_object (&priv->series, series);
  if (series != NULL)
    g_signal_connect_object (series, "changed", G_CALLBACK (ds_graph_layer_changed), self,
                             G_CONNECT_SWAPPED);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES]);
  ds_graph_layer_changed (self);
}

const char *
ds_graph_layer_get_title (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), NULL);

  return priv->title;
}

void
ds_graph_layer_set_title (DsGraphLayer *self,
                          const char   *title)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  if (g_strcmp0 (priv->title, title) == 0)
    return;

  g_free (priv->title);
  priv->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  ds_graph_layer_changed (self);
}

const char *
ds_graph_layer_get_color (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), NULL);

  return priv->color;
}

void
ds_graph_layer_set_color (DsGraphLayer *self,
                          const char   *color)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  if (color == NULL)
    color = "accent_color";
  if (g_strcmp0 (priv->color, color) == 0)
    return;

  g_free (priv->color);
  priv->color = g_strdup (color);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR]);
  ds_graph_layer_changed (self);
}

DsGraphSide
ds_graph_layer_get_y_axis (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), DS_GRAPH_SIDE_LEFT);

  return priv->y_axis;
}

void
ds_graph_layer_set_y_axis (DsGraphLayer *self,
                           DsGraphSide   y_axis)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));
  g_return_if_fail (y_axis < DS_GRAPH_N_SIDES);

  if (priv->y_axis == y_axis)
    return;

  priv->y_axis = y_axis;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_AXIS]);
  ds_graph_layer_changed (self);
}

DsGraphLegend
ds_graph_layer_get_legend (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), DS_GRAPH_LEGEND_ALWAYS);

  return priv->legend;
}

void
ds_graph_layer_set_legend (DsGraphLayer  *self,
                           DsGraphLegend  legend)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  if (priv->legend == legend)
    return;

  priv->legend = legend;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEGEND]);
  ds_graph_layer_changed (self);
}

gboolean
ds_graph_layer_has_points (DsGraphLayer *self)
{
  DsSeries *series = ds_graph_layer_get_series (self);

  return series != NULL && ds_series_get_n_points (series) > 0;
}

double
ds_graph_layer_get_x_extent (DsGraphLayer *self)
{
  DsSeries *series = ds_graph_layer_get_series (self);

  return series != NULL ? ds_series_get_max_x (series) : 0;
}

double
ds_graph_layer_get_y_extent (DsGraphLayer *self)
{
  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), 0);

  return DS_GRAPH_LAYER_GET_CLASS (self)->get_y_extent (self);
}

void
ds_graph_layer_set_n_above (DsGraphLayer *self,
                            guint         n_above)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  priv->n_above = n_above;
}

guint
ds_graph_layer_get_n_above (DsGraphLayer *self)
{
  DsGraphLayerPrivate *priv = ds_graph_layer_get_instance_private (self);

  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), 0);

  return priv->n_above;
}

void
ds_graph_layer_draw (DsGraphLayer      *self,
                     cairo_t           *cr,
                     const DsGraphPlot *plot,
                     const GdkRGBA     *color)
{
  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  ds_graph_layer_set_n_above (self, 0);
  if (ds_graph_layer_has_points (self))
    DS_GRAPH_LAYER_GET_CLASS (self)->draw (self, cr, plot, color);
}

void
ds_graph_layer_draw_over (DsGraphLayer      *self,
                          cairo_t           *cr,
                          const DsGraphPlot *plot)
{
  g_return_if_fail (DS_IS_GRAPH_LAYER (self));

  if (DS_GRAPH_LAYER_GET_CLASS (self)->draw_over != NULL && ds_graph_layer_has_points (self))
    DS_GRAPH_LAYER_GET_CLASS (self)->draw_over (self, cr, plot);
}

double
ds_graph_layer_draw_key (DsGraphLayer  *self,
                         cairo_t       *cr,
                         double         right,
                         double         y,
                         const GdkRGBA *color)
{
  g_return_val_if_fail (DS_IS_GRAPH_LAYER (self), 0);

  if (DS_GRAPH_LAYER_GET_CLASS (self)->draw_key != NULL)
    return DS_GRAPH_LAYER_GET_CLASS (self)->draw_key (self, cr, right, y, color);

  gdk_cairo_set_source_rgba (cr, color);
  cairo_rectangle (cr, right - 10, y - 5, 10, 10);
  cairo_fill (cr);
  return 10;
}
