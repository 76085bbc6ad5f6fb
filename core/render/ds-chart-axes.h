/* ds-chart-axes.h: a chart's scales, ticks, grid, tick labels and axis
 * titles, on the screen and in the exported pictures alike (cairo and
 * Pango, no GTK)
 *
 * The graph widget (ui/graph/ds-graph-axes.c) and the comparison pictures
 * (ds-render-transfer.c, ds-render-curves.c) pick their scales and draw
 * their axes here, so the same range gets the same ticks in both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "ds-chart-style.h"

G_BEGIN_DECLS

/* At most this many intervals along each axis. */
#define DS_CHART_X_TICKS 10
#define DS_CHART_Y_TICKS 8
/* A vertical axis reaches this much above its largest value. */
#define DS_CHART_HEADROOM 1.05
/* The least a rate axis reaches (MB/s), and a latency axis on the right
 * (ms): a slow disk's curve is not blown up to look like a fast one's. */
#define DS_CHART_RATE_FLOOR       10
#define DS_CHART_LATENCY_FLOOR_MS 0.1

/* An axis from @min to @max (in the units its labels say), a tick at
 * every multiple of @step between them. */
typedef struct {
  double min;
  double max;
  double step;
} DsChartScale;

/* The smallest "round" step, 1, 2, 2.5 or 5 × 10^n, that cuts @span into
 * at most @max_intervals; 1 for a span that is not a positive number. */
double   ds_chart_nice_step      (double        span,
                                  guint         max_intervals);
/* 0 to the first multiple of the step at or above @max (at least one
 * step): a vertical axis.  A @max that is not a positive number gives 0
 * to 1. */
void     ds_chart_scale_nice     (double        max,
                                  guint         max_intervals,
                                  DsChartScale *ret_scale);
/* @min to @max as given (a position, a time window), with a round step;
 * an empty or reversed range becomes @min to @min + 1. */
void     ds_chart_scale_span     (double        min,
                                  double        max,
                                  guint         max_intervals,
                                  DsChartScale *ret_scale);
/* 0 to @n_intervals round steps, together at or above @max: a right axis
 * on the left one's grid lines (the same number of intervals). */
void     ds_chart_scale_shared   (double        max,
                                  guint         n_intervals,
                                  DsChartScale *ret_scale);
/* The @percent-th percentile of @n values sorted from the lowest: the
 * nearest rank (index rounded), 0 for none. */
double   ds_chart_percentile     (const double *sorted,
                                  guint         n,
                                  double        percent);
/* Where a cloud of @n dots (access times) tops out, from its slowest dot
 * and its 99th percentile: the slowest, but from DS_CHART_DOTS_BULK dots on
 * at most twice the p99, so that a few slow outliers (drawn at the top
 * edge) do not flatten the rest. */
#define DS_CHART_DOTS_BULK 100
double   ds_chart_dots_top       (double        slowest,
                                  double        p99,
                                  guint         n);
/* The ticks: how many, and the @index-th from the lowest, never outside
 * [min, max]. */
guint    ds_chart_scale_n_ticks  (const DsChartScale *scale);
double   ds_chart_scale_tick     (const DsChartScale *scale,
                                  guint               index);

/* A tick's label: @value with the decimals @step needs ("2.5", "7.5",
 * "10"), no trailing zeros, no exponent, never "-0". */
char    *ds_chart_format_tick    (double        value,
                                  double        step);

/* ---- drawing ------------------------------------------------------------ */

/* The plot area, in user units (pixels on the screen). */
typedef struct {
  double left, top, width, height;
} DsChartArea;

typedef enum {
  DS_CHART_EDGE_BOTTOM,   /* the horizontal axis */
  DS_CHART_EDGE_LEFT,
  DS_CHART_EDGE_RIGHT,
} DsChartEdge;

/* A label for @value (a tick @step apart from the next); NULL: none. */
typedef char *(*DsChartFormatFunc) (double   value,
                                    double   step,
                                    gpointer user_data);

typedef struct {
  DsChartScale       scale;
  DsChartEdge        edge;
  gboolean           grid;         /* a line across the area at each tick */
  DsChartFormatFunc  format;       /* NULL: ds_chart_format_tick() */
  gpointer           format_data;
} DsChartAxis;

/* Colours of the frame: grid lines and frame, tick labels and titles. */
typedef struct {
  DsChartColor grid;
  DsChartColor text;
} DsChartLook;

/* The look on a background whose text colour is @fg: faint grid lines,
 * labels a little lighter than the text. */
void     ds_chart_look_init      (DsChartLook        *look,
                                  const DsChartColor *fg);
/* Where @value falls along @edge of @area, on the pixel grid (a line
 * there is sharp). */
double   ds_chart_axis_position  (const DsChartArea  *area,
                                  const DsChartAxis  *axis,
                                  double              value);
/* @text from @layout's font, aligned at (@x, @y): @x_align 0 puts its
 * left edge there, 0.5 its centre, 1 its right edge; @y_align likewise
 * from its top. */
void     ds_chart_draw_text      (cairo_t            *cr,
                                  PangoLayout        *layout,
                                  const char         *text,
                                  double              x,
                                  double              y,
                                  double              x_align,
                                  double              y_align);
/* @axis' grid lines (when it has them) and tick labels outside @area. */
void     ds_chart_draw_axis      (cairo_t            *cr,
                                  PangoLayout        *layout,
                                  const DsChartArea  *area,
                                  const DsChartAxis  *axis,
                                  const DsChartLook  *look);
/* The axes' titles with their units (each may be NULL): the horizontal
 * one centred under the labels, the vertical ones above their labels. */
void     ds_chart_draw_titles    (cairo_t            *cr,
                                  PangoLayout        *layout,
                                  const DsChartArea  *area,
                                  const char         *x_title,
                                  const char         *left_title,
                                  const char         *right_title,
                                  const DsChartLook  *look);
void     ds_chart_draw_frame     (cairo_t            *cr,
                                  const DsChartArea  *area,
                                  const DsChartLook  *look);

G_END_DECLS
