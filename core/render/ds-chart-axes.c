/* ds-chart-axes.c: scales, ticks and the drawing of a chart's axes
 *
 * One rule for every axis on the screen and in the pictures: the ticks
 * are a round step apart, 1, 2, 2.5 or 5 × 10^n, the smallest that
 * leaves at most so many intervals.  2.5 is in the list for the rates
 * HD Tune users read: 0-250-500-750 MB/s rather than 0-200-…-800 or
 * 0-500-1000 with half the axis empty.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-chart-axes.h"

/* Room between the plot area and its tick labels, and from the area's
 * bottom edge to the bottom of the horizontal axis' title (the graph
 * leaves 40 pixels under its plot, the pictures 45 units). */
#define LABEL_GAP_SIDE    8
#define LABEL_GAP_BELOW    6
#define X_TITLE_BELOW  38

/* Floating point: 0.1 × 3 is 0.30000000000000004.  Comparisons of
 * multiples of a step allow this much of a step; a step chosen for a
 * span, this much less of the span (far less: an axis that fits then
 * never needs one interval more). */
#define STEP_EPSILON 1e-9
#define SPAN_EPSILON 1e-12

/* A scale with a step this small for its span is a caller's mistake;
 * its ticks stop here rather than loop for ever. */
#define MAX_TICKS 1000

double
ds_chart_nice_step (double span,
                    guint  max_intervals)
{
  static const double mantissas[] = { 1, 2, 2.5, 5, 10 };
  double raw, magnitude;

  if (!(span > 0) || !isfinite (span))
    return 1;

  raw = span / MAX (max_intervals, 1);
  magnitude = pow (10, floor (log10 (raw)));
  if (!(magnitude > 0) || !isfinite (magnitude))
    return 1;

  for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
    if (mantissas[i] * magnitude >= raw * (1 - SPAN_EPSILON))
      return mantissas[i] * magnitude;

  return 10 * magnitude;
}

void
ds_chart_scale_nice (double        max,
                     guint         max_intervals,
                     DsChartScale *ret_scale)
{
  double step, intervals;

  if (!(max > 0) || !isfinite (max))
    max = 1;
  step = ds_chart_nice_step (max, max_intervals);
  intervals = MAX (ceil (max / step - STEP_EPSILON), 1);
  *ret_scale = (DsChartScale) { 0, intervals * step, step };
}

void
ds_chart_scale_span (double        min,
                     double        max,
                     guint         max_intervals,
                     DsChartScale *ret_scale)
{
  if (!isfinite (min))
    min = 0;
  if (!(max > min) || !isfinite (max))
    max = min + 1;
  *ret_scale = (DsChartScale) { min, max, ds_chart_nice_step (max - min, max_intervals) };
}

void
ds_chart_scale_shared (double        max,
                       guint         n_intervals,
                       DsChartScale *ret_scale)
{
  double step;

  n_intervals = MAX (n_intervals, 1);
  if (!(max > 0) || !isfinite (max))
    max = 1;
  /* Each try is at least 1 % above the last: this ends. */
  step = ds_chart_nice_step (max, n_intervals);
  while (step * n_intervals < max)
    step = ds_chart_nice_step (step * n_intervals * 1.01, n_intervals);
  *ret_scale = (DsChartScale) { 0, step * n_intervals, step };
}

double
ds_chart_percentile (const double *sorted,
                     guint         n,
                     double        percent)
{
  guint index;

  if (n == 0)
    return 0;
  index = (guint) (CLAMP (percent, 0, 100) / 100.0 * (n - 1) + 0.5);
  return sorted[MIN (index, n - 1)];
}

double
ds_chart_dots_top (double slowest,
                   double p99,
                   guint  n)
{
  return n >= DS_CHART_DOTS_BULK ? MIN (slowest, 2 * p99) : slowest;
}

static gboolean
scale_is_valid (const DsChartScale *scale)
{
  return isfinite (scale->min) && isfinite (scale->max) && scale->max >= scale->min &&
         scale->step > 0 && isfinite (scale->step);
}

/* The lowest multiple of the step in the scale (a window of time that
 * scrolls starts anywhere). */
static double
first_tick (const DsChartScale *scale)
{
  return ceil (scale->min / scale->step - STEP_EPSILON) * scale->step;
}

guint
ds_chart_scale_n_ticks (const DsChartScale *scale)
{
  double n;

  if (!scale_is_valid (scale))
    return 0;
  n = floor ((scale->max - first_tick (scale)) / scale->step + STEP_EPSILON) + 1;
  return n < 1 ? 0 : (guint) MIN (n, MAX_TICKS);
}

double
ds_chart_scale_tick (const DsChartScale *scale,
                     guint               index)
{
  double v;

  g_return_val_if_fail (scale_is_valid (scale), 0);

  v = first_tick (scale) + index * scale->step;
  if (fabs (v) < scale->step * STEP_EPSILON)
    v = 0;
  return CLAMP (v, scale->min, scale->max);
}

/* How many decimals multiples of @step need: 0 for 5 or 250, 1 for
 * 2.5, 2 for 0.25. */
static int
step_decimals (double step)
{
  int decimals = 0;

  step = fabs (step);
  if (!(step > 0) || !isfinite (step))
    return 0;
  for (double scaled = step; decimals < 12; decimals++, scaled *= 10)
    if (fabs (scaled - round (scaled)) <= 1e-6 * MAX (scaled, 1))
      break;
  return decimals;
}

char *
ds_chart_format_tick (double value,
                      double step)
{
  int decimals = step_decimals (step);
  char *text;
  gsize len;

  if (!isfinite (value))
    return g_strdup ("");
  text = g_strdup_printf ("%.*f", decimals, value);
  len = strlen (text);
  if (decimals > 0)
    {
      while (len > 0 && text[len - 1] == '0')
        text[--len] = '\0';
      if (len > 0 && text[len - 1] == '.')
        text[--len] = '\0';
    }
  if (strcmp (text, "-0") == 0)
    memmove (text, text + 1, 2);
  return text;
}

/* ---- drawing ------------------------------------------------------------ */

void
ds_chart_look_init (DsChartLook        *look,
                    const DsChartColor *fg)
{
  look->grid = *fg;
  look->grid.alpha *= 0.12;
  look->text = *fg;
  look->text.alpha *= 0.75;
}

double
ds_chart_axis_position (const DsChartArea *area,
                        const DsChartAxis *axis,
                        double             value)
{
  double span = axis->scale.max - axis->scale.min;
  double fraction = span > 0 ? (value - axis->scale.min) / span : 0;

  if (axis->edge == DS_CHART_EDGE_BOTTOM)
    return round (area->left + fraction * area->width) + 0.5;
  return round (area->top + area->height - fraction * area->height) + 0.5;
}

void
ds_chart_draw_text (cairo_t     *cr,
                    PangoLayout *layout,
                    const char  *text,
                    double       x,
                    double       y,
                    double       x_align,
                    double       y_align)
{
  int width, height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, round (x - width * x_align), round (y - height * y_align));
  pango_cairo_show_layout (cr, layout);
}

static void
draw_grid (cairo_t           *cr,
           const DsChartArea *area,
           const DsChartAxis *axis,
           const DsChartLook *look)
{
  guint n = ds_chart_scale_n_ticks (&axis->scale);

  for (guint i = 0; i < n; i++)
    {
      double p = ds_chart_axis_position (area, axis, ds_chart_scale_tick (&axis->scale, i));

      if (axis->edge == DS_CHART_EDGE_BOTTOM)
        {
          cairo_move_to (cr, p, area->top);
          cairo_line_to (cr, p, area->top + area->height);
        }
      else
        {
          cairo_move_to (cr, area->left, p);
          cairo_line_to (cr, area->left + area->width, p);
        }
    }
  ds_chart_set_color (cr, &look->grid, 1);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

void
ds_chart_draw_axis (cairo_t           *cr,
                    PangoLayout       *layout,
                    const DsChartArea *area,
                    const DsChartAxis *axis,
                    const DsChartLook *look)
{
  guint n = ds_chart_scale_n_ticks (&axis->scale);

  cairo_save (cr);
  cairo_new_path (cr);
  if (axis->grid)
    draw_grid (cr, area, axis, look);

  ds_chart_set_color (cr, &look->text, 1);
  for (guint i = 0; i < n; i++)
    {
      double v = ds_chart_scale_tick (&axis->scale, i);
      double p = ds_chart_axis_position (area, axis, v);
      g_autofree char *label = axis->format ? axis->format (v, axis->scale.step, axis->format_data)
                                            : ds_chart_format_tick (v, axis->scale.step);

      if (label == NULL)
        continue;
      switch (axis->edge)
        {
        case DS_CHART_EDGE_BOTTOM:
          ds_chart_draw_text (cr, layout, label, p, area->top + area->height + LABEL_GAP_BELOW, 0.5, 0);
          break;
        case DS_CHART_EDGE_LEFT:
          ds_chart_draw_text (cr, layout, label, area->left - LABEL_GAP_SIDE, p, 1, 0.5);
          break;
        case DS_CHART_EDGE_RIGHT:
        default:
          ds_chart_draw_text (cr, layout, label, area->left + area->width + LABEL_GAP_SIDE, p, 0, 0.5);
          break;
        }
    }
  cairo_restore (cr);
}

void
ds_chart_draw_titles (cairo_t           *cr,
                      PangoLayout       *layout,
                      const DsChartArea *area,
                      const char        *x_title,
                      const char        *left_title,
                      const char        *right_title,
                      const DsChartLook *look)
{
  cairo_save (cr);
  ds_chart_set_color (cr, &look->text, 1);
  if (x_title != NULL)
    ds_chart_draw_text (cr, layout, x_title, area->left + area->width / 2,
                        area->top + area->height + X_TITLE_BELOW, 0.5, 1);
  if (left_title != NULL)
    ds_chart_draw_text (cr, layout, left_title, area->left - LABEL_GAP_SIDE, area->top - LABEL_GAP_SIDE, 1, 1);
  if (right_title != NULL)
    ds_chart_draw_text (cr, layout, right_title, area->left + area->width + LABEL_GAP_SIDE,
                        area->top - LABEL_GAP_SIDE, 0, 1);
  cairo_restore (cr);
}

void
ds_chart_draw_frame (cairo_t           *cr,
                     const DsChartArea *area,
                     const DsChartLook *look)
{
  cairo_save (cr);
  ds_chart_set_color (cr, &look->grid, 1);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, area->left + 0.5, area->top + 0.5, area->width - 1, area->height - 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}
