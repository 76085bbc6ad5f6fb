/* ds-graph.h: the transfer-rate / access-time / block-size plot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-series.h"
#include "ds-units.h"

G_BEGIN_DECLS

typedef enum {
  DS_GRAPH_TRANSFER,    /* x: position (GB); left: rate; right: access ms */
  DS_GRAPH_SCATTER,     /* x: position (GB); left: access ms (dots) */
  DS_GRAPH_BLOCK_SIZE,  /* x: block size, log2; left: rate (read/write) */
} DsGraphMode;

#define DS_TYPE_GRAPH_MODE (ds_graph_mode_get_type ())
GType ds_graph_mode_get_type (void);

#define DS_TYPE_GRAPH (ds_graph_get_type ())
G_DECLARE_FINAL_TYPE (DsGraph, ds_graph, DS, GRAPH, GtkWidget)

GtkWidget  *ds_graph_new          (void);
DsGraphMode ds_graph_get_mode     (DsGraph     *self);
void        ds_graph_set_mode     (DsGraph     *self,
                                   DsGraphMode  mode);
/* The x range for position modes: the tested capacity in bytes. */
double      ds_graph_get_x_max    (DsGraph     *self);
void        ds_graph_set_x_max    (DsGraph     *self,
                                   double       x_max);
DsUnits     ds_graph_get_units    (DsGraph     *self);
void        ds_graph_set_units    (DsGraph     *self,
                                   DsUnits      units);

/* Rates in bytes/s over x (bytes); access times in seconds over x. */
void        ds_graph_set_read     (DsGraph     *self,
                                   DsSeries    *series);
void        ds_graph_set_write    (DsGraph     *self,
                                   DsSeries    *series);
void        ds_graph_set_access   (DsGraph     *self,
                                   DsSeries    *series);
/* Scatter mode: clouds of dots drawn each in its own colour, with @labels
 * in the legend (Random Access: one per transfer size).  0 clears. */
void        ds_graph_set_groups   (DsGraph           *self,
                                   DsSeries *const   *series,
                                   const char *const *labels,
                                   guint              n_groups);
guint       ds_graph_get_n_groups (DsGraph     *self);
DsSeries   *ds_graph_get_group    (DsGraph     *self,
                                   guint        index);
void        ds_graph_get_group_color (DsGraph  *self,
                                   guint        index,
                                   GdkRGBA     *ret_color);
/* The series drawn (not a new reference; NULL when none). */
DsSeries   *ds_graph_get_read     (DsGraph     *self);
DsSeries   *ds_graph_get_write    (DsGraph     *self);
DsSeries   *ds_graph_get_access   (DsGraph     *self);

G_END_DECLS
