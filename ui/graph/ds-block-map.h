/* ds-block-map.h: the Error Scan's block map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-bench-error-scan.h"
#include "ds-series.h"

G_BEGIN_DECLS

#define DS_TYPE_BLOCK_MAP (ds_block_map_get_type ())
G_DECLARE_FINAL_TYPE (DsBlockMap, ds_block_map, DS, BLOCK_MAP, GtkWidget)

GtkWidget  *ds_block_map_new          (void);

/* The cells: a point per cell read, x = the cell's index, y = its
 * DsScanCell (cells with no point are not read yet). */
DsSeries   *ds_block_map_get_series   (DsBlockMap  *self);
void        ds_block_map_set_series   (DsBlockMap  *self,
                                       DsSeries    *series);
/* How the scanned range is cut: @n_cells cells of @cell_bytes from
 * @start_bytes (the last one ends at @end_bytes). Clears nothing. */
void        ds_block_map_set_geometry (DsBlockMap  *self,
                                       guint        n_cells,
                                       uint64_t     start_bytes,
                                       uint64_t     cell_bytes,
                                       uint64_t     end_bytes);
guint       ds_block_map_get_n_cells  (DsBlockMap  *self);
/* A cell's state as the map shows it. */
DsScanCell  ds_block_map_get_cell     (DsBlockMap  *self,
                                       guint        cell);
/* Where @cell was drawn in the last frame (its square, in the widget's
 * coordinates); FALSE before the first frame. */
gboolean    ds_block_map_get_cell_area (DsBlockMap  *self,
                                        guint        cell,
                                        GdkRectangle *ret_area);
/* Cells per square in the last frame (a large map is drawn with each
 * square the worst of several cells). */
guint       ds_block_map_get_cells_per_square (DsBlockMap *self);

/* The state in words ("< 5 ms", "Read error"…). */
const char *ds_block_map_state_label  (DsScanCell   state);
/* Draws one square of @state as the map does (colour and mark), in
 * @widget's theme: the legend uses it. */
void        ds_block_map_draw_square  (GtkWidget   *widget,
                                       cairo_t     *cr,
                                       DsScanCell   state,
                                       double       x,
                                       double       y,
                                       double       size);

G_END_DECLS
