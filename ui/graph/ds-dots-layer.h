/* ds-dots-layer.h: a cloud of dots, one per point of a series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-graph-layer.h"

G_BEGIN_DECLS

#define DS_TYPE_DOTS_LAYER (ds_dots_layer_get_type ())
G_DECLARE_FINAL_TYPE (DsDotsLayer, ds_dots_layer, DS, DOTS_LAYER, DsGraphLayer)

DsGraphLayer *ds_dots_layer_new (void);

G_END_DECLS
