/* ds-graph.c: a plot of layers over shared axes
 *
 * The graph owns the frame: the plot area, the scales (round numbers just
 * above what the layers need), grid, tick labels and axis titles with
 * their units (ds-graph-axes.c), the legend and the theme's colours.  Its
 * layers (DsGraphLayer: ds-line-layer.c, ds-dots-layer.c…) each draw one
 * series inside it, as sysprof's chart draws its line and column layers;
 * the numbers live in DsSeries objects.  Everything is drawn in snapshot()
 * through cairo, with colours looked up in the theme so dark and
 * high-contrast styles work.  ds-graph-layer.h says how to add a layer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-graph-private.h"
#include "ds-ui-enums.h"

/* Room for the axis labels around the plot area, in pixels; without a
 * right axis, only room for the last x label. */
#define MARGIN_LEFT       64
#define MARGIN_RIGHT      64
#define MARGIN_RIGHT_BARE 24
#define MARGIN_TOP        28
#define MARGIN_BOTTOM     40

struct _DsGraph
{
  GtkWidget    parent_instance;

  GPtrArray   *layers;              /* DsGraphLayer, in legend order */
  DsGraphAxes  axes;
  guint        describe_id;         /* the accessible description's update */
};

static void buildable_iface_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsGraph, ds_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE, buildable_iface_init))

static GtkBuildableIface *parent_buildable_iface;

enum {
  PROP_0,
  PROP_X_AXIS,
  PROP_Y_AXIS,
  PROP_Y2_AXIS,
  PROP_UNITS,
  PROP_X_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- Drawing ----------------------------------------------------------- */

/* Fallbacks for the named colours of libadwaita's stylesheet. */
static const struct {
  const char *name;
  const char *fallback;
} named_colors[] = {
  { "accent_color", "#1c71d8" },
  { "success_color", "#26a269" },
  { "warning_color", "#e5a50a" },
  { "error_color", "#c01c28" },
  { "error_fg_color", "#ffffff" },
  { "window_bg_color", "#fafafa" },
  { "orange_4", "#e66100" },
};

/* One colour per layer that needs its own: the exported pictures'
 * series colours (ds-chart-style.c), so a comparison's curves and a
 * page's look alike. */
const char *
ds_graph_palette_color (guint index)
{
  return ds_chart_series_color_name (index);
}

void
ds_graph_lookup_color (GtkWidget  *widget,
                       const char *name,
                       GdkRGBA    *ret_color)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  if (gtk_style_context_lookup_color (context, name, ret_color))
    return;
  /* "#3584e4": a colour of its own (a comparison's, as its export has it). */
  if (name != NULL && name[0] == '#' && gdk_rgba_parse (ret_color, name))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (named_colors); i++)
    if (g_strcmp0 (named_colors[i].name, name) == 0 &&
        gdk_rgba_parse (ret_color, named_colors[i].fallback))
      return;

  gtk_style_context_get_color (context, ret_color);
}

static gboolean
in_legend (DsGraph      *self,
           DsGraphLayer *layer,
           gboolean      graph_empty)
{
  if (ds_graph_layer_get_title (layer) == NULL)
    return FALSE;

  switch (ds_graph_layer_get_legend (layer))
    {
    case DS_GRAPH_LEGEND_DRAWN:
      return ds_graph_layer_has_points (layer);
    case DS_GRAPH_LEGEND_DRAWN_OR_EMPTY:
      return graph_empty || ds_graph_layer_has_points (layer);
    case DS_GRAPH_LEGEND_ALWAYS:
    default:
      return TRUE;
    }
}

/* Above the plot on the right, in the order the layers were added. */
static void
draw_legend (DsGraph           *self,
             cairo_t           *cr,
             const DsGraphPlot *plot,
             const GdkRGBA     *colors,
             const DsChartLook *look)
{
  gboolean graph_empty = TRUE;
  double x = plot->left + plot->width;

  for (guint i = 0; i < self->layers->len; i++)
    if (ds_graph_layer_has_points (self->layers->pdata[i]))
      graph_empty = FALSE;

  for (guint i = self->layers->len; i-- > 0;)
    {
      DsGraphLayer *layer = self->layers->pdata[i];
      g_autoptr(PangoLayout) layout = NULL;
      int width, height;

      if (!in_legend (self, layer, graph_empty))
        continue;

      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), ds_graph_layer_get_title (layer));
      pango_layout_get_pixel_size (layout, &width, &height);
      x -= width;
      ds_chart_set_color (cr, &look->text, 1);
      cairo_move_to (cr, x, plot->top - height - 6);
      pango_cairo_show_layout (cr, layout);

      x -= 6;
      x -= ds_graph_layer_draw_key (layer, cr, x, plot->top - height / 2.0 - 6, &colors[i]);
      x -= 16;
    }
}

static void
ds_graph_snapshot (GtkWidget   *widget,
                   GtkSnapshot *snapshot)
{
  DsGraph *self = (DsGraph *) widget;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean right_axis = self->axes.y[DS_GRAPH_SIDE_RIGHT] != DS_GRAPH_AXIS_NONE;
  g_autofree GdkRGBA *colors = NULL;
  GdkRGBA fg;
  DsChartLook look;
  DsGraphSteps steps;
  DsGraphPlot plot;
  guint n_above[DS_GRAPH_N_SIDES] = { 0 };
  cairo_t *cr;

  if (width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;

  plot = (DsGraphPlot) {
    .left = MARGIN_LEFT,
    .top = MARGIN_TOP,
    .width = width - MARGIN_LEFT - (right_axis ? MARGIN_RIGHT : MARGIN_RIGHT_BARE),
    .height = height - MARGIN_TOP - MARGIN_BOTTOM,
    .scale_factor = gtk_widget_get_scale_factor (widget),
  };
  _ds_graph_axes_scale (&self->axes, self->layers, &plot, &steps);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  ds_graph_lookup_color (widget, "error_color", &plot.error_color);
  ds_chart_look_init (&look, &(DsChartColor) { fg.red, fg.green, fg.blue, fg.alpha });
  colors = g_new0 (GdkRGBA, self->layers->len + 1);
  for (guint i = 0; i < self->layers->len; i++)
    ds_graph_lookup_color (widget, ds_graph_layer_get_color (self->layers->pdata[i]), &colors[i]);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  _ds_graph_axes_draw (&self->axes, widget, cr, &plot, &steps, &look);

  /* Data, clipped to the plot area (a little above and below it, so a
   * curve on the top or bottom edge keeps its full width); the first
   * layer on top. */
  cairo_save (cr);
  cairo_rectangle (cr, plot.left, plot.top - 4, plot.width, plot.height + 8);
  cairo_clip (cr);
  for (guint i = self->layers->len; i-- > 0;)
    ds_graph_layer_draw (self->layers->pdata[i], cr, &plot, &colors[i]);
  cairo_restore (cr);

  for (guint i = 0; i < self->layers->len; i++)
    {
      DsGraphLayer *layer = self->layers->pdata[i];

      ds_graph_layer_draw_over (layer, cr, &plot);
      n_above[ds_graph_layer_get_y_axis (layer)] += ds_graph_layer_get_n_above (layer);
    }
  _ds_graph_axes_draw_above (&self->axes, widget, cr, &plot, n_above, &look);

  draw_legend (self, cr, &plot, colors, &look);

  cairo_destroy (cr);
}

static void
ds_graph_measure (GtkWidget      *widget,
                  GtkOrientation  orientation,
                  int             for_size,
                  int            *minimum,
                  int            *natural,
                  int            *minimum_baseline,
                  int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 640;
    }
  else
    {
      *minimum = 200;
      *natural = 360;
    }
}

/* ---- Layers ------------------------------------------------------------ */

/* What a screen reader says of the graph (ds-graph-a11y.c), at most twice
 * a second while points arrive. */
static gboolean
describe_cb (gpointer user_data)
{
  DsGraph *self = user_data;

  self->describe_id = 0;
  _ds_graph_describe (self, self->layers, &self->axes);

  return G_SOURCE_REMOVE;
}

static void
queue_describe (DsGraph *self)
{
  if (self->describe_id == 0)
    self->describe_id = g_timeout_add (500, describe_cb, self);
}

static void
layer_changed_cb (DsGraph      *self,
                  DsGraphLayer *layer)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  queue_describe (self);
}

void
ds_graph_add_layer (DsGraph      *self,
                    DsGraphLayer *layer)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (DS_IS_GRAPH_LAYER (layer));

  g_ptr_array_add (self->layers, g_object_ref (layer));
  g_signal_connect_object (layer, "changed", G_CALLBACK (layer_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  queue_describe (self);
}

void
ds_graph_remove_layer (DsGraph      *self,
                       DsGraphLayer *layer)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (DS_IS_GRAPH_LAYER (layer));

  g_signal_handlers_disconnect_by_func (layer, layer_changed_cb, self);
  if (g_ptr_array_remove (self->layers, layer))
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      queue_describe (self);
    }
}

guint
ds_graph_get_n_layers (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), 0);

  return self->layers->len;
}

DsGraphLayer *
ds_graph_get_layer (DsGraph *self,
                    guint    index)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->layers->len, NULL);

  return self->layers->pdata[index];
}

static void
ds_graph_buildable_add_child (GtkBuildable *buildable,
                              GtkBuilder   *builder,
                              GObject      *child,
                              const char   *type)
{
  if (DS_IS_GRAPH_LAYER (child))
    ds_graph_add_layer (DS_GRAPH (buildable), DS_GRAPH_LAYER (child));
  else
    parent_buildable_iface->add_child (buildable, builder, child, type);
}

static void
buildable_iface_init (GtkBuildableIface *iface)
{
  parent_buildable_iface = g_type_interface_peek_parent (iface);
  iface->add_child = ds_graph_buildable_add_child;
}

/* ---- Properties and life cycle ----------------------------------------- */

static void
ds_graph_dispose (GObject *object)
{
  DsGraph *self = (DsGraph *) object;

  while (self->layers->len > 0)
    ds_graph_remove_layer (self, self->layers->pdata[self->layers->len - 1]);
  g_clear_handle_id (&self->describe_id, g_source_remove);

  G_OBJECT_CLASS (ds_graph_parent_class)->dispose (object);
}

static void
ds_graph_finalize (GObject *object)
{
  DsGraph *self = (DsGraph *) object;

  g_clear_pointer (&self->layers, g_ptr_array_unref);

  G_OBJECT_CLASS (ds_graph_parent_class)->finalize (object);
}

static void
ds_graph_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  DsGraph *self = DS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_X_AXIS:
      g_value_set_enum (value, self->axes.x);
      break;

    case PROP_Y_AXIS:
      g_value_set_enum (value, self->axes.y[DS_GRAPH_SIDE_LEFT]);
      break;

    case PROP_Y2_AXIS:
      g_value_set_enum (value, self->axes.y[DS_GRAPH_SIDE_RIGHT]);
      break;

    case PROP_UNITS:
      g_value_set_int (value, self->axes.units);
      break;

    case PROP_X_MAX:
      g_value_set_double (value, self->axes.x_max);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  DsGraph *self = DS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_X_AXIS:
      ds_graph_set_x_axis (self, g_value_get_enum (value));
      break;

    case PROP_Y_AXIS:
      ds_graph_set_y_axis (self, DS_GRAPH_SIDE_LEFT, g_value_get_enum (value));
      break;

    case PROP_Y2_AXIS:
      ds_graph_set_y_axis (self, DS_GRAPH_SIDE_RIGHT, g_value_get_enum (value));
      break;

    case PROP_UNITS:
      ds_graph_set_units (self, g_value_get_int (value));
      break;

    case PROP_X_MAX:
      ds_graph_set_x_max (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_class_init (DsGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_graph_dispose;
  object_class->finalize = ds_graph_finalize;
  object_class->get_property = ds_graph_get_property;
  object_class->set_property = ds_graph_set_property;

  widget_class->snapshot = ds_graph_snapshot;
  widget_class->measure = ds_graph_measure;

  properties[PROP_X_AXIS] =
    g_param_spec_enum ("x-axis", NULL, NULL, DS_TYPE_GRAPH_AXIS, DS_GRAPH_AXIS_POSITION,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_Y_AXIS] =
    g_param_spec_enum ("y-axis", NULL, NULL, DS_TYPE_GRAPH_AXIS, DS_GRAPH_AXIS_RATE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_Y2_AXIS] =
    g_param_spec_enum ("y2-axis", NULL, NULL, DS_TYPE_GRAPH_AXIS, DS_GRAPH_AXIS_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNITS] =
    g_param_spec_int ("units", NULL, NULL, DS_UNITS_MB, DS_UNITS_MIB, DS_UNITS_MB,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_X_MAX] =
    g_param_spec_double ("x-max", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);

  g_type_ensure (DS_TYPE_GRAPH_LAYER);
}

static void
ds_graph_init (DsGraph *self)
{
  self->layers = g_ptr_array_new_with_free_func (g_object_unref);
  self->axes.x = DS_GRAPH_AXIS_POSITION;
  self->axes.y[DS_GRAPH_SIDE_LEFT] = DS_GRAPH_AXIS_RATE;
  self->axes.y[DS_GRAPH_SIDE_RIGHT] = DS_GRAPH_AXIS_NONE;

  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
ds_graph_new (void)
{
  return g_object_new (DS_TYPE_GRAPH, NULL);
}

DsGraphAxis
ds_graph_get_x_axis (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), DS_GRAPH_AXIS_NONE);

  return self->axes.x;
}

void
ds_graph_set_x_axis (DsGraph     *self,
                     DsGraphAxis  axis)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (axis != DS_GRAPH_AXIS_NONE && !_ds_graph_axis_is_y (axis));

  if (self->axes.x == axis)
    return;

  self->axes.x = axis;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_AXIS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

DsGraphAxis
ds_graph_get_y_axis (DsGraph      *self,
                     DsGraphSide   side)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), DS_GRAPH_AXIS_NONE);
  g_return_val_if_fail (side < DS_GRAPH_N_SIDES, DS_GRAPH_AXIS_NONE);

  return self->axes.y[side];
}

void
ds_graph_set_y_axis (DsGraph      *self,
                     DsGraphSide   side,
                     DsGraphAxis   axis)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (side < DS_GRAPH_N_SIDES);
  g_return_if_fail (_ds_graph_axis_is_y (axis) || (side == DS_GRAPH_SIDE_RIGHT && axis == DS_GRAPH_AXIS_NONE));

  if (self->axes.y[side] == axis)
    return;

  self->axes.y[side] = axis;
  g_object_notify_by_pspec (G_OBJECT (self), properties[side == DS_GRAPH_SIDE_LEFT ? PROP_Y_AXIS : PROP_Y2_AXIS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
ds_graph_get_x_max (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), 0);

  return self->axes.x_max;
}

void
ds_graph_set_x_max (DsGraph *self,
                    double   x_max)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  if (self->axes.x_max == x_max)
    return;

  self->axes.x_max = x_max;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_MAX]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

DsUnits
ds_graph_get_units (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), DS_UNITS_MB);

  return self->axes.units;
}

void
ds_graph_set_units (DsGraph *self,
                    DsUnits  units)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  if (self->axes.units == units)
    return;

  self->axes.units = units;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  queue_describe (self);
}
