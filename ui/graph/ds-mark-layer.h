/* ds-mark-layer.h: a finding marked on a graph (a knee, a cliff, a floor,
 * a cache's size)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-graph-layer.h"

G_BEGIN_DECLS

#define DS_TYPE_MARK_LAYER (ds_mark_layer_get_type ())
G_DECLARE_FINAL_TYPE (DsMarkLayer, ds_mark_layer, DS, MARK_LAYER, DsGraphLayer)

DsGraphLayer  *ds_mark_layer_new             (void);
/* GTK_ORIENTATION_VERTICAL (the default): a dashed line across the plot
 * at each point's x, with a ring on the point itself when its y is above
 * 0; HORIZONTAL: a dashed line at each point's y. */
GtkOrientation ds_mark_layer_get_orientation (DsMarkLayer    *self);
void           ds_mark_layer_set_orientation (DsMarkLayer    *self,
                                              GtkOrientation  orientation);

G_END_DECLS
