/* ds-graph-private.h: what the graph's files share
 *
 * ds-graph.c is the widget (layers, properties, the frame of each
 * snapshot); ds-graph-axes.c turns its axes into scales and draws the
 * grid, ticks and titles with the exported pictures' code
 * (core/render/ds-chart-axes.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-chart-axes.h"
#include "ds-graph.h"

G_BEGIN_DECLS

typedef struct {
  DsGraphAxis x;
  DsGraphAxis y[DS_GRAPH_N_SIDES];   /* y[RIGHT] may be NONE */
  DsUnits     units;                 /* of a rate axis */
  double      x_max;                 /* of a position axis; 0: the layers' */
} DsGraphAxes;

/* Grid steps in display units; y[RIGHT] is 0 without a right axis. */
typedef struct {
  double x;
  double y[DS_GRAPH_N_SIDES];
} DsGraphSteps;

gboolean _ds_graph_axis_is_y   (DsGraphAxis        axis);
/* Fills @plot's x range and y scales from @axes and what @layers
 * (DsGraphLayer) need: round numbers just above their largest values. */
void     _ds_graph_axes_scale  (const DsGraphAxes *axes,
                                GPtrArray         *layers,
                                DsGraphPlot       *plot,
                                DsGraphSteps      *ret_steps);
/* Grid lines, tick labels, axis titles with their units, and the frame. */
void     _ds_graph_axes_draw   (const DsGraphAxes  *axes,
                                GtkWidget          *widget,
                                cairo_t            *cr,
                                const DsGraphPlot  *plot,
                                const DsGraphSteps *steps,
                                const DsChartLook  *look);

/* "▲ 23 above 2 ms": per side, how many points lay above the axis
 * (@n_above), over the plot on the left, where the legend is not. */
void     _ds_graph_axes_draw_above (const DsGraphAxes  *axes,
                                    GtkWidget          *widget,
                                    cairo_t            *cr,
                                    const DsGraphPlot  *plot,
                                    const guint        *n_above,
                                    const DsChartLook  *look);
/* The unit of the vertical axis on @side ("MB/s", "ms") and the title of
 * the horizontal one, as the axes print them. */
const char *_ds_graph_axes_unit    (const DsGraphAxes *axes,
                                    DsGraphSide        side);
const char *_ds_graph_axes_x_title (const DsGraphAxes *axes);

/* ds-graph-a11y.c: sets the graph's accessible label and description from
 * its layers (what a screen reader says of the picture). */
void        _ds_graph_describe     (DsGraph           *self,
                                    GPtrArray         *layers,
                                    const DsGraphAxes *axes);

G_END_DECLS
