/* ds-render-curves.c: a kind's curves overlaid, one panel per curve
 * (sweep: IOPS and p99 against the level; sustain: the rate against bytes
 * written; cache: IOPS and access time against the working set), each
 * column's mark (knee, cliff, estimate) a dashed line in its colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-annotation.h"
#include "ds-render-private.h"

#define PLOT_LEFT   90.0
#define PLOT_RIGHT  24.0
#define PLOT_TOP    (LINE * 2)
#define PLOT_BOTTOM (LINE * 2.5)
static gboolean
drawn (const DsCompareCurve *curve)
{
  /* The Benchmark's own panels (ds-render-transfer.c) draw its curves
   * against the position, with the access-time dots. */
  return !curve->dots && g_strcmp0 (curve->x_name, "position") != 0;
}

guint
ds_render_curve_panels (const DsComparison *cmp)
{
  guint n = 0;

  for (guint i = 0; cmp->curves != NULL && i < cmp->curves->len; i++)
    if (drawn (cmp->curves->pdata[i]))
      n++;

  return n;
}

static double
to_x (const DsCompareCurve *curve,
      double                v,
      double                lo,
      double                hi,
      double                x0,
      double                w)
{
  if (curve->x_log)
    {
      v = log2 (MAX (v, 1e-12));
      lo = log2 (MAX (lo, 1e-12));
      hi = log2 (MAX (hi, 1e-12));
    }
  return hi > lo ? x0 + w * (v - lo) / (hi - lo) : x0 + w / 2;
}

static char *
x_label (const DsCompareCurve *curve,
         double                v,
         DsUnits               units)
{
  if (curve->x_unit == DS_COMPARE_COUNT)
    return g_strdup_printf ("%.0f", v);
  return ds_compare_format_value (curve->x_unit, v, units);
}

/* How an axis in a figure's unit is labelled: in display units (MB/s,
 * ms) where @per_display data units make one, ticks round in those;
 * sizes (per_display 0) as the tables write them ("1 GiB"). */
typedef struct {
  DsCompareUnit unit;
  DsUnits       units;
  double        per_display;
  const char   *suffix;
} TickUnits;

static TickUnits
tick_units (DsCompareUnit unit,
            DsUnits       units)
{
  switch (unit)
    {
    case DS_COMPARE_RATE:
      return (TickUnits) { unit, units, units == DS_UNITS_MIB ? 1048576.0 : 1e6,
                           units == DS_UNITS_MIB ? " MiB/s" : " MB/s" };
    case DS_COMPARE_TIME:
      return (TickUnits) { unit, units, 1e-3, " ms" };
    case DS_COMPARE_IOPS:
      return (TickUnits) { unit, units, 1, " IOPS" };
    case DS_COMPARE_PERCENT:
      return (TickUnits) { unit, units, 1, "%" };
    case DS_COMPARE_BYTES:
      return (TickUnits) { unit, units, 0, "" };
    case DS_COMPARE_COUNT:
    case DS_COMPARE_RATIO:
    default:
      return (TickUnits) { unit, units, 1, "" };
    }
}

/* 0 to a round number of display units at or above @max (data units). */
static void
scale_nice (double           max,
            const TickUnits *u,
            guint            max_intervals,
            DsChartScale    *ret_scale)
{
  double per = u->per_display > 0 ? u->per_display : 1;

  ds_chart_scale_nice (max / per, max_intervals, ret_scale);
  ret_scale->max *= per;
  ret_scale->step *= per;
}

/* A tick: the number as every axis writes it (ds_chart_format_tick()) and
 * the unit: "2.5 ms", "5000 IOPS", "250 MB/s". */
static char *
format_value_tick (double   v,
                   double   step,
                   gpointer user_data)
{
  const TickUnits *u = user_data;
  g_autofree char *number = NULL;

  if (!(u->per_display > 0))
    return ds_compare_format_value (u->unit, v, u->units);
  number = ds_chart_format_tick (v / u->per_display, step / u->per_display);
  return g_strdup_printf ("%s%s", number, u->suffix);
}

/* Each column's curve in its colour, pattern and markers, and its mark. */
static void
draw_series (DsRenderCtx          *ctx,
             const DsCompareCurve *curve,
             const double          box[4],
             double                lo,
             double                hi,
             double                ymax)
{
  cairo_t *cr = ctx->cr;
  guint n = ctx->cmp->columns->len;
  double x0 = box[0], y0 = box[1], w = box[2], h = box[3];

  for (guint c = 0; c < n; c++)
    {
      GArray *pts = curve->points[c];
      DsRenderColor color = ds_chart_series_color (c);
      g_autofree double *xs = NULL;
      g_autofree double *ys = NULL;
      gboolean pen = FALSE;

      if (pts == NULL || pts->len == 0)
        continue;
      xs = g_new (double, pts->len);
      ys = g_new (double, pts->len);
      ds_chart_set_color (cr, &color, 1);
      cairo_set_line_width (cr, 1.6);
      ds_chart_series_set_dash (cr, c, 1.6);
      for (guint k = 0; k < pts->len; k++)
        {
          const DsCurveXY *p = &g_array_index (pts, DsCurveXY, k);

          xs[k] = to_x (curve, p->x, lo, hi, x0, w);
          ys[k] = isnan (p->y) ? NAN : y0 + h - h * p->y / ymax;
          if (isnan (ys[k]))
            pen = FALSE;
          else if (!pen)
            cairo_move_to (cr, xs[k], ys[k]), pen = TRUE;
          else
            cairo_line_to (cr, xs[k], ys[k]);
        }
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      for (guint k = 0; k < pts->len && pts->len <= 64; k++)
        if (!isnan (ys[k]))
          ds_chart_series_marker (cr, c, xs[k], ys[k], 6);
      if (pts->len > 64)
        ds_chart_series_markers (cr, c, xs, ys, pts->len, 6);

      if (!isnan (curve->mark_x[c]))
        {
          double mx = to_x (curve, curve->mark_x[c], lo, hi, x0, w);
          g_autofree char *label = g_strdup_printf ("%c %s", 'A' + c,
                                                    curve->mark_label[c] ? curve->mark_label[c] : "");
          ds_chart_mark_set_dash (cr, 1.6);
          cairo_move_to (cr, mx, y0);
          cairo_line_to (cr, mx, y0 + h);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          ds_render_text (ctx, label, mx + 3, y0 + 2 + c * LINE, DS_ALIGN_LEFT, TRUE, 0);
        }
    }
}

/* Log axes (levels, sets): a tick at each point of the first column that
 * has the curve, as far apart as the labels need. */
static void
draw_log_ticks (DsRenderCtx          *ctx,
                PangoLayout          *layout,
                const DsCompareCurve *curve,
                const DsChartArea    *area,
                double                lo,
                double                hi)
{
  ds_chart_set_color (ctx->cr, &ctx->look.text, 1);
  for (guint c = 0; c < ctx->cmp->columns->len; c++)
    if (curve->points[c] != NULL)
      {
        double last = -INFINITY;

        for (guint k = 0; k < curve->points[c]->len; k++)
          {
            const DsCurveXY *p = &g_array_index (curve->points[c], DsCurveXY, k);
            double tx = to_x (curve, p->x, lo, hi, area->left, area->width);
            g_autofree char *label = NULL;

            if (tx - last < (curve->x_unit == DS_COMPARE_BYTES ? 64 : 28))
              continue;
            label = x_label (curve, p->x, ctx->opts->units);
            ds_chart_draw_text (ctx->cr, layout, label, tx, area->top + area->height + 6, 0.5, 0);
            last = tx;
          }
        break;
      }
}

/* The axes as the graphs on the screen draw them (ds-chart-axes.c), the
 * ticks in the figure's unit; the x ticks of a log axis at the points. */
static void
draw_axes (DsRenderCtx          *ctx,
           const DsCompareCurve *curve,
           const DsChartArea    *area,
           const DsChartScale   *x_scale,
           const DsChartScale   *y_scale)
{
  g_autoptr (PangoLayout) layout = ds_render_layout (ctx, FALSE);
  g_autofree char *name = ds_printable_text (curve->x_name);
  g_autofree char *x_title = g_strdup_printf ("%s%s", name, curve->x_log ? " (log scale)" : "");
  TickUnits y_units = tick_units (curve->y_unit, ctx->opts->units);
  TickUnits x_units = tick_units (curve->x_unit, ctx->opts->units);
  DsChartAxis y_axis = { .scale = *y_scale, .edge = DS_CHART_EDGE_LEFT, .grid = TRUE,
                         .format = format_value_tick, .format_data = &y_units };
  DsChartAxis x_axis = { .scale = *x_scale, .edge = DS_CHART_EDGE_BOTTOM, .grid = TRUE,
                         .format = format_value_tick, .format_data = &x_units };

  ds_chart_draw_axis (ctx->cr, layout, area, &y_axis, &ctx->look);
  if (curve->x_log)
    draw_log_ticks (ctx, layout, curve, area, x_scale->min, x_scale->max);
  else
    ds_chart_draw_axis (ctx->cr, layout, area, &x_axis, &ctx->look);
  ds_chart_draw_titles (ctx->cr, layout, area, x_title, NULL, NULL, &ctx->look);
  ds_chart_draw_frame (ctx->cr, area, &ctx->look);
}

static void
panel (DsRenderCtx          *ctx,
       const DsCompareCurve *curve,
       double                y)
{
  guint n = ctx->cmp->columns->len;
  double lo = INFINITY, hi = -INFINITY, ymax = 0;
  double x0 = MARGIN + PLOT_LEFT, w = ctx->width - x0 - MARGIN - PLOT_RIGHT;
  double y0 = y + PLOT_TOP, h = PANEL_HEIGHT - PLOT_TOP - PLOT_BOTTOM;
  TickUnits x_units = tick_units (curve->x_unit, ctx->opts->units);
  TickUnits y_units = tick_units (curve->y_unit, ctx->opts->units);
  DsChartScale x_scale, y_scale;

  for (guint c = 0; c < n; c++)
    for (guint k = 0; curve->points[c] != NULL && k < curve->points[c]->len; k++)
      {
        const DsCurveXY *p = &g_array_index (curve->points[c], DsCurveXY, k);

        lo = MIN (lo, p->x);
        hi = MAX (hi, p->x);
        if (!isnan (p->y))
          ymax = MAX (ymax, p->y);
      }
  if (!isfinite (lo))
    lo = 0, hi = 1;
  /* A log axis spans the points; a linear one starts at 0. */
  if (curve->x_log)
    x_scale = (DsChartScale) { lo, hi, 1 };
  else if (lo < 0)
    ds_chart_scale_span (lo, hi, DS_CHART_X_TICKS, &x_scale);
  else
    scale_nice (hi, &x_units, DS_CHART_X_TICKS, &x_scale);
  scale_nice (ymax * DS_CHART_HEADROOM, &y_units, DS_CHART_Y_TICKS, &y_scale);

  ds_chart_set_color (ctx->cr, &ctx->fg, 1);
  ds_render_text (ctx, curve->title, MARGIN, y, DS_ALIGN_LEFT, TRUE, 0);
  draw_axes (ctx, curve, &(DsChartArea) { x0, y0, w, h }, &x_scale, &y_scale);
  draw_series (ctx, curve, (const double[4]) { x0, y0, w, h }, x_scale.min, x_scale.max, y_scale.max);
}

void
ds_render_curve_panels_draw (DsRenderCtx *ctx,
                             double       y)
{
  for (guint i = 0; ctx->cmp->curves != NULL && i < ctx->cmp->curves->len; i++)
    {
      const DsCompareCurve *curve = ctx->cmp->curves->pdata[i];

      if (!drawn (curve))
        continue;
      panel (ctx, curve, y);
      y += PANEL_HEIGHT;
    }
}
