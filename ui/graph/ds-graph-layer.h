/* ds-graph-layer.h: one way of drawing a series on a DsGraph
 *
 * How to add a layer (a time series, histogram bars, a block map, several
 * runs overlaid, IOPS against queue depth with its knee…):
 *
 *  1. Write ui/graph/ds-<name>-layer.c/.h: a final subclass of DsGraphLayer (see
 *     ds-line-layer.c, the smallest) that implements draw(), and if it
 *     needs them get_y_extent() (what its axis must reach) and draw_over()
 *     (marks outside the plot area).  It draws the numbers of its DsSeries
 *     through ds_graph_plot_x() / ds_graph_plot_y(), in data units (bytes,
 *     seconds, bytes/s): it never picks scales, ticks, grid or colours of
 *     its own; the graph does, so every layer on a graph agrees.
 *  2. If it needs a quantity no axis has yet (time, queue depth, IOPS),
 *     add a DsGraphAxis value in ds-graph.h and its row in ds-graph.c's
 *     axis tables (title, units, ticks).
 *  3. List the file in ui/meson.build; put the layer in a page's template
 *     under its DsGraph, and give it its series from the page's code:
 *
 *       <object class="DsGraph" id="graph">
 *         <property name="x-axis">position</property>
 *         <property name="y-axis">rate</property>
 *         <child>
 *           <object class="DsLineLayer" id="read_layer">
 *             <property name="title" translatable="yes">Read</property>
 *             <property name="color">accent_color</property>
 *           </object>
 *         </child>
 *       </object>
 *
 *       ds_graph_layer_set_series (DS_GRAPH_LAYER (self->read_layer), self->read);
 *
 * Layers are listed in the legend in the order they were added and drawn
 * the other way round, so the first one stays on top.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <math.h>

#include "ds-series.h"

G_BEGIN_DECLS

/* Which vertical axis a layer's values are read on. */
typedef enum {
  DS_GRAPH_SIDE_LEFT,
  DS_GRAPH_SIDE_RIGHT,
} DsGraphSide;

#define DS_GRAPH_N_SIDES 2

/* When a layer has an entry in the legend (and a title). */
typedef enum {
  DS_GRAPH_LEGEND_ALWAYS,          /* from the start */
  DS_GRAPH_LEGEND_DRAWN,           /* once it has points */
  DS_GRAPH_LEGEND_DRAWN_OR_EMPTY,  /* once it has points, and while no
                                    * layer has any (names what a run
                                    * will draw) */
} DsGraphLegend;

/* Where a layer draws: the plot area and its scales, set by the graph for
 * each frame. */
typedef struct {
  double   left, top, width, height;   /* the plot area, in pixels */
  int      scale_factor;               /* device pixels per pixel */
  /* x runs from x_min to x_max in data units, or in log2 of them. */
  double   x_min, x_max;
  gboolean log2_x;
  /* Per vertical axis: display = data × y_factor (bytes/s → MB/s, s →
   * ms), and the axis runs from 0 to y_max in display units. */
  double   y_factor[DS_GRAPH_N_SIDES];
  double   y_max[DS_GRAPH_N_SIDES];
  GdkRGBA  error_color;                /* the theme's, for failed points */
} DsGraphPlot;

/* Data units to pixels. */
static inline double
ds_graph_plot_x (const DsGraphPlot *plot,
                 double             x)
{
  if (plot->log2_x)
    x = log2 (MAX (x, 1));

  return plot->left + (x - plot->x_min) / (plot->x_max - plot->x_min) * plot->width;
}

/* Values above the axis stay on its top edge (a layer that cannot show
 * them there marks them instead: ds_graph_layer_set_n_above()). */
static inline double
ds_graph_plot_y (const DsGraphPlot *plot,
                 DsGraphSide        axis,
                 double             y)
{
  return plot->top + plot->height -
         CLAMP (y * plot->y_factor[axis] / plot->y_max[axis], 0, 1) * plot->height;
}

#define DS_TYPE_GRAPH_LAYER (ds_graph_layer_get_type ())
G_DECLARE_DERIVABLE_TYPE (DsGraphLayer, ds_graph_layer, DS, GRAPH_LAYER, GObject)

struct _DsGraphLayerClass
{
  GObjectClass parent_class;

  /* The largest value, in data units, the layer's axis must show (0:
   * nothing to show).  Default: the series' largest good value. */
  double (*get_y_extent) (DsGraphLayer      *self);
  /* Draws the series inside the plot area (clipped to it) in @color. */
  void   (*draw)         (DsGraphLayer      *self,
                          cairo_t           *cr,
                          const DsGraphPlot *plot,
                          const GdkRGBA     *color);
  /* Optional: drawn after every layer and not clipped (marks that reach
   * past the axis, such as failed points). */
  void   (*draw_over)    (DsGraphLayer      *self,
                          cairo_t           *cr,
                          const DsGraphPlot *plot);
  /* Optional: the legend's key, drawn leftwards from @right and centred
   * on @y; returns its width.  Default: a square in @color. */
  double (*draw_key)     (DsGraphLayer      *self,
                          cairo_t           *cr,
                          double             right,
                          double             y,
                          const GdkRGBA     *color);
};

DsSeries     *ds_graph_layer_get_series   (DsGraphLayer      *self);
void          ds_graph_layer_set_series   (DsGraphLayer      *self,
                                           DsSeries          *series);
/* The legend's text (NULL: no entry). */
const char   *ds_graph_layer_get_title    (DsGraphLayer      *self);
void          ds_graph_layer_set_title    (DsGraphLayer      *self,
                                           const char        *title);
/* A colour of the theme by name ("accent_color", "orange_4"…), so dark
 * and high-contrast styles apply, or "#rrggbb" (a series colour:
 * ds_graph_palette_color()). */
const char   *ds_graph_layer_get_color    (DsGraphLayer      *self);
void          ds_graph_layer_set_color    (DsGraphLayer      *self,
                                           const char        *color);
DsGraphSide   ds_graph_layer_get_y_axis   (DsGraphLayer      *self);
void          ds_graph_layer_set_y_axis   (DsGraphLayer      *self,
                                           DsGraphSide        y_axis);
DsGraphLegend ds_graph_layer_get_legend   (DsGraphLayer      *self);
void          ds_graph_layer_set_legend   (DsGraphLayer      *self,
                                           DsGraphLegend      legend);

/* For the graph. */
gboolean      ds_graph_layer_has_points   (DsGraphLayer      *self);
double        ds_graph_layer_get_x_extent (DsGraphLayer      *self);
double        ds_graph_layer_get_y_extent (DsGraphLayer      *self);
void          ds_graph_layer_draw         (DsGraphLayer      *self,
                                           cairo_t           *cr,
                                           const DsGraphPlot *plot,
                                           const GdkRGBA     *color);
void          ds_graph_layer_draw_over    (DsGraphLayer      *self,
                                           cairo_t           *cr,
                                           const DsGraphPlot *plot);
double        ds_graph_layer_draw_key     (DsGraphLayer      *self,
                                           cairo_t           *cr,
                                           double             right,
                                           double             y,
                                           const GdkRGBA     *color);
/* For subclasses: the layer looks different; the graph redraws. */
void          ds_graph_layer_changed      (DsGraphLayer      *self);
/* For subclasses, from draw(): how many points lay above the top of the
 * axis in this frame (the graph says so over the plot: "▲ 3 above 2 ms").
 * The graph reads it back with ds_graph_layer_get_n_above(). */
void          ds_graph_layer_set_n_above  (DsGraphLayer      *self,
                                           guint              n_above);
guint         ds_graph_layer_get_n_above  (DsGraphLayer      *self);

G_END_DECLS
