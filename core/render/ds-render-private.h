/* ds-render-private.h: what the drawing files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "ds-chart-axes.h"
#include "ds-render.h"

G_BEGIN_DECLS

#define DEFAULT_WIDTH 1200.0
#define MARGIN        16.0
#define LINE          18.0    /* a line of text */
#define PANEL_HEIGHT  420.0   /* one transfer-curve panel */
#define BAR_HEIGHT    12.0
#define BAR_GAP       3.0
#define GROUP_GAP     9.0
#define LABEL_WIDTH   280.0   /* bar charts: the figure names */
#define VALUE_WIDTH   130.0   /* bar charts: room for the value after a bar */

typedef struct {
  cairo_t               *cr;
  const DsComparison    *cmp;
  const DsRenderOptions *opts;
  DsRenderColor          fg;
  DsRenderColor          bg;
  DsChartLook            look;   /* the axes' colours, from fg */
  PangoFontDescription  *font;
  double                 width;
} DsRenderCtx;

typedef enum { DS_ALIGN_LEFT, DS_ALIGN_RIGHT, DS_ALIGN_CENTER } DsAlign;

/* A layout in the picture's font (bold or not), for ds_chart_draw_text(). */
PangoLayout *ds_render_layout (DsRenderCtx *ctx,
                               gboolean     bold);
/* Draws @text with its top at @y, aligned at @x; ellipsized to @max_width
 * when > 0.  Returns the width drawn. */
double   ds_render_text      (DsRenderCtx *ctx,
                              const char  *text,
                              double       x,
                              double       y,
                              DsAlign      align,
                              gboolean     bold,
                              double       max_width);

/* ds-render-transfer.c: the Benchmark comparison's curves. */
gboolean ds_render_direction_present (const DsComparison *cmp,
                                      gboolean            write);
/* A direction's extents over every column: the highest rate (bytes/s)
 * and where the access-time dots top out (s: each column's as the page's
 * dots layer has it, ds_chart_dots_top(), and the highest of those).
 * Returns how many dots there are. */
guint    ds_render_transfer_extents  (const DsComparison *cmp,
                                      gboolean            write,
                                      double             *ret_rate_max,
                                      double             *ret_access_top);
/* A panel's scales, as the Benchmark page's graph picks them
 * (ds-graph-axes.c): the position (GB, GiB with MiB/s, or % of each
 * capacity), the rate from the highest @rate_max (bytes/s) and the access
 * time in ms, on the rate's grid lines, from @access_ms. */
void     ds_render_transfer_scales   (const DsComparison *cmp,
                                      DsUnits             units,
                                      double              rate_max,
                                      double              access_ms,
                                      DsChartScale       *ret_position,
                                      DsChartScale       *ret_rate,
                                      DsChartScale       *ret_access);
/* One direction's panel (PANEL_HEIGHT tall) from @y. */
void     ds_render_transfer_panel    (DsRenderCtx *ctx,
                                      double       y,
                                      gboolean     write);

/* ds-render-curves.c: every other kind's curves, one panel (PANEL_HEIGHT
 * tall) per curve key. */
guint    ds_render_curve_panels      (const DsComparison *cmp);
void     ds_render_curve_panels_draw (DsRenderCtx *ctx,
                                      double       y);

G_END_DECLS
