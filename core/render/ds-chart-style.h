/* ds-chart-style.h: how each series of a chart looks, on the screen and in
 * the exported pictures alike (cairo only, no GTK)
 *
 * Colour is not the only difference between series: column @column's
 * curve also has its own line pattern (solid, dashed, dotted, dash-dot,
 * long dashes) and point marker (circle, square, triangle, diamond,
 * inverted triangle), and its legend key shows both.  The graph widget
 * (ui/graph/) and the comparison pictures (ds-render.c) both draw with
 * these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double red, green, blue, alpha;
} DsChartColor;

/* Sets @color on @cr with its alpha times @alpha. */
void          ds_chart_set_color          (cairo_t            *cr,
                                           const DsChartColor *color,
                                           double              alpha);

/* The colour of column @column's curve, bars and legend (a palette that
 * stays apart for the colour-blind, cycling after eight), and the same
 * colour as "#rrggbb", for what names colours (the graph's layers,
 * Pango markup). */
DsChartColor  ds_chart_series_color       (guint               column);
const char   *ds_chart_series_color_name  (guint               column);

/* All draw with the source and line width set on @cr. */
/* Sets @column's dash pattern on @cr (scaled by the line width). */
void          ds_chart_series_set_dash    (cairo_t            *cr,
                                           guint               column,
                                           double              line_width);
/* Fills @column's marker centred on (@x, @y), @size across. */
void          ds_chart_series_marker      (cairo_t            *cr,
                                           guint               column,
                                           double              x,
                                           double              y,
                                           double              size);
/* Markers along a polyline of @n points (device units; a NaN in @y is a
 * gap), one every DS_CHART_MARKER_SPACING along x, shifted per column
 * so that overlapping curves do not hide each other's markers. */
#define DS_CHART_MARKER_SPACING 64.0
void          ds_chart_series_markers     (cairo_t            *cr,
                                           guint               column,
                                           const double       *x,
                                           const double       *y,
                                           guint               n,
                                           double              size);
/* A legend key @width wide, centred on @y: a stretch of the line in its
 * pattern with the marker in the middle. */
void          ds_chart_series_key         (cairo_t            *cr,
                                           guint               column,
                                           double              x,
                                           double              y,
                                           double              width,
                                           double              line_width);

/* A finding marked across the plot (a knee, a cliff, an estimate): the
 * dashes of its line, scaled by the line width. */
void          ds_chart_mark_set_dash      (cairo_t            *cr,
                                           double              line_width);

G_END_DECLS
