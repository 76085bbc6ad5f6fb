/* ds-graph.h: a plot of layers over shared axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-graph-layer.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* What an axis measures: the graph turns the layers' data units into the
 * units it labels, and picks ticks and titles (ds-graph.c's axis tables). */
typedef enum {
  DS_GRAPH_AXIS_NONE,        /* no axis (the right side) */
  DS_GRAPH_AXIS_POSITION,    /* x: bytes into the device, labelled in GB */
  DS_GRAPH_AXIS_BLOCK_SIZE,  /* x: bytes, on a log2 scale from 0.5K to 8M */
  DS_GRAPH_AXIS_RATE,        /* y: bytes/s, in MB/s or MiB/s (the units) */
  DS_GRAPH_AXIS_LATENCY,     /* y: seconds, in ms */
  DS_GRAPH_AXIS_TIME,        /* x: seconds into a run; with x_max set, the
                              * last x_max seconds (a window that scrolls) */
  DS_GRAPH_AXIS_LATENCY_LOG, /* x: nanoseconds, on a log scale in decades */
  DS_GRAPH_AXIS_IOPS,        /* y: I/Os per second */
  DS_GRAPH_AXIS_LATENCY_US,  /* y: seconds, in µs */
  DS_GRAPH_AXIS_COUNT,       /* y: how many I/Os (a histogram's bars) */
  DS_GRAPH_AXIS_FRACTION,    /* x: 0..1 of each device's capacity, in % */
  DS_GRAPH_AXIS_OUTSTANDING, /* x: I/Os in flight, on a log2 scale from 1
                              * (a sweep's levels; x_max: the last one) */
  DS_GRAPH_AXIS_SET_SIZE,    /* x: bytes, on a log2 scale from 16 MiB (a
                              * cache probe's working sets) */
  DS_GRAPH_AXIS_DATE,        /* x: seconds since 1970 (UTC), labelled in
                              * local dates (a device's history) */
  DS_GRAPH_AXIS_NUMBER,      /* y: a plain number, its name said beside the
                              * graph (a count of sectors, a share) */
} DsGraphAxis;

#define DS_TYPE_GRAPH (ds_graph_get_type ())
G_DECLARE_FINAL_TYPE (DsGraph, ds_graph, DS, GRAPH, GtkWidget)

GtkWidget    *ds_graph_new          (void);
DsGraphAxis   ds_graph_get_x_axis   (DsGraph      *self);
void          ds_graph_set_x_axis   (DsGraph      *self,
                                     DsGraphAxis   axis);
/* The left and the right vertical axes (the right one shares the left's
 * grid lines; DS_GRAPH_AXIS_NONE leaves it out). */
DsGraphAxis   ds_graph_get_y_axis   (DsGraph      *self,
                                     DsGraphSide   side);
void          ds_graph_set_y_axis   (DsGraph      *self,
                                     DsGraphSide   side,
                                     DsGraphAxis   axis);
/* The x range of a position axis: the tested capacity in bytes (0: as
 * far as the points go, at least 1 GB); of a time axis: the seconds
 * shown, from 0 while the points fit, then the newest at the right (the
 * Workloads page gives a run's length, the Disk Monitor its window; 0:
 * as far as the points go). */
double        ds_graph_get_x_max    (DsGraph      *self);
void          ds_graph_set_x_max    (DsGraph      *self,
                                     double        x_max);
DsUnits       ds_graph_get_units    (DsGraph      *self);
void          ds_graph_set_units    (DsGraph      *self,
                                     DsUnits       units);

/* Layers are also added as <child> objects in a template. */
void          ds_graph_add_layer    (DsGraph      *self,
                                     DsGraphLayer *layer);
void          ds_graph_remove_layer (DsGraph      *self,
                                     DsGraphLayer *layer);
guint         ds_graph_get_n_layers (DsGraph      *self);
DsGraphLayer *ds_graph_get_layer    (DsGraph      *self,
                                     guint         index);

/* The series colours as "#rrggbb" (the exported pictures' palette,
 * ds-chart-style.h), for layers that need one colour each (the Random
 * Access page's transfer sizes). */
const char   *ds_graph_palette_color (guint        index);
/* A named colour of the theme ("accent_color", "warning_color"…), with
 * libadwaita's value when the theme lacks it: for widgets that draw in
 * the graph's colours (the block map). */
void          ds_graph_lookup_color  (GtkWidget   *widget,
                                      const char  *name,
                                      GdkRGBA     *ret_color);

G_END_DECLS
