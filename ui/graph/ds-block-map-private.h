/* ds-block-map-private.h: what the block map's files share
 *
 * ds-block-map.c is the widget (its cells, layout, frame and tooltips);
 * ds-block-map-look.c says how each state looks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-block-map.h"

G_BEGIN_DECLS

/* DsScanCell's states, DS_SCAN_UNREAD .. DS_SCAN_ERROR. */
#define DS_BLOCK_MAP_N_STATES (DS_SCAN_ERROR + 1)

/* The colour of a square of @state in @widget's theme (its opacity
 * included). */
void     ds_block_map_state_color    (GtkWidget  *widget,
                                      DsScanCell  state,
                                      GdkRGBA    *ret_color);
/* Whether a square of @state carries a mark (a dot, a bar, a cross). */
gboolean ds_block_map_state_has_mark (DsScanCell  state);
/* Draws the mark of @state, if any, over the square at @x, @y. */
void     ds_block_map_draw_mark      (GtkWidget  *widget,
                                      cairo_t    *cr,
                                      DsScanCell  state,
                                      double      x,
                                      double      y,
                                      double      size);

G_END_DECLS
