/* ds-line-layer.h: a curve through a series' points
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-graph-layer.h"

G_BEGIN_DECLS

#define DS_TYPE_LINE_LAYER (ds_line_layer_get_type ())
G_DECLARE_FINAL_TYPE (DsLineLayer, ds_line_layer, DS, LINE_LAYER, DsGraphLayer)

DsGraphLayer *ds_line_layer_new      (void);
/* A light wash under the curve (the Benchmark page's transfer rate). */
gboolean      ds_line_layer_get_fill (DsLineLayer *self);
void          ds_line_layer_set_fill (DsLineLayer *self,
                                      gboolean     fill);

/* Series @style's line pattern and markers (ds_chart_series_set_dash()),
 * so that overlaid curves differ without colour; -1 (the default): a
 * plain line. */
int           ds_line_layer_get_style (DsLineLayer *self);
void          ds_line_layer_set_style (DsLineLayer *self,
                                       int          style);
/* With a style: a marker on every point (a device's runs, few and each
 * one a run), not one every so many pixels (a dense curve). */
void          ds_line_layer_set_every_point (DsLineLayer *self,
                                             gboolean     every_point);

G_END_DECLS
