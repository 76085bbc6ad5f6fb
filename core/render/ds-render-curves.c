/* ds-render-curves.c: a kind's curves overlaid, one panel per curve
 * (sweep: IOPS and p99 against the level; sustain: the rate against bytes
 * written; cache: IOPS and access time against the working set), each
 * column's mark (knee, cliff, estimate) a dashed line in its colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-render-private.h"

#define PLOT_LEFT   90.0
#define PLOT_RIGHT  24.0
#define PLOT_TOP    (LINE * 2)
#define PLOT_BOTTOM (LINE * 2.5)
#define TICKS       5

/* The top of the y-axis: 1, 2 or 5 times a power of ten, five ticks to
 * it, above the highest point. */
static double
nice_max (double max)
{
  double raw, mag, f, step;

  if (!(max > 0) || !isfinite (max))
    return 1;
  raw = max * 1.05 / TICKS;
  mag = pow (10, floor (log10 (raw)));
  f = raw / mag;
  step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  return step * TICKS;
}

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
      DsRenderColor color = ds_render_series_color (c);
      g_autofree double *xs = NULL;
      g_autofree double *ys = NULL;
      gboolean pen = FALSE;

      if (pts == NULL || pts->len == 0)
        continue;
      xs = g_new (double, pts->len);
      ys = g_new (double, pts->len);
      ds_render_set_color (cr, &color, 1);
      cairo_set_line_width (cr, 1.6);
      ds_render_series_set_dash (cr, c, 1.6);
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
          ds_render_series_marker (cr, c, xs[k], ys[k], 6);
      if (pts->len > 64)
        ds_render_series_markers (cr, c, xs, ys, pts->len, 6);

      if (!isnan (curve->mark_x[c]))
        {
          double mx = to_x (curve, curve->mark_x[c], lo, hi, x0, w);
          g_autofree char *label = g_strdup_printf ("%c %s", 'A' + c,
                                                    curve->mark_label[c] ? curve->mark_label[c] : "");
          static const double dash[] = { 4, 3 };

          cairo_set_dash (cr, dash, 2, 0);
          cairo_move_to (cr, mx, y0);
          cairo_line_to (cr, mx, y0 + h);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          ds_render_text (ctx, label, mx + 3, y0 + 2 + c * LINE, DS_ALIGN_LEFT, TRUE, 0);
        }
    }
}

static void
panel (DsRenderCtx          *ctx,
       const DsCompareCurve *curve,
       double                y)
{
  cairo_t *cr = ctx->cr;
  guint n = ctx->cmp->columns->len;
  double lo = INFINITY, hi = -INFINITY, ymax = 0;
  double x0 = MARGIN + PLOT_LEFT, w = ctx->width - x0 - MARGIN - PLOT_RIGHT;
  double y0 = y + PLOT_TOP, h = PANEL_HEIGHT - PLOT_TOP - PLOT_BOTTOM;

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
  if (!curve->x_log)
    lo = MIN (lo, 0), hi = nice_max (hi);
  ymax = nice_max (ymax);

  ds_render_set_color (cr, &ctx->fg, 1);
  ds_render_text (ctx, curve->title, MARGIN, y, DS_ALIGN_LEFT, TRUE, 0);

  /* Axes, the y ticks in the figure's unit, the x ticks at the points of
   * the first column that has the curve (levels, sets). */
  cairo_set_line_width (cr, 1);
  ds_render_set_color (cr, &ctx->fg, 0.6);
  cairo_rectangle (cr, x0, y0, w, h);
  cairo_stroke (cr);
  for (int t = 0; t <= TICKS; t++)
    {
      double v = ymax * t / TICKS;
      double ty = y0 + h - h * t / TICKS;
      g_autofree char *label = ds_compare_format_value (curve->y_unit, v, ctx->opts->units);

      ds_render_set_color (cr, &ctx->fg, 0.12);
      cairo_move_to (cr, x0, ty);
      cairo_line_to (cr, x0 + w, ty);
      cairo_stroke (cr);
      ds_render_set_color (cr, &ctx->fg, 0.8);
      ds_render_text (ctx, label, x0 - 6, ty - LINE / 2, DS_ALIGN_RIGHT, FALSE, PLOT_LEFT - 8);
    }
  if (!curve->x_log)
    {
      for (int t = 0; t <= TICKS; t++)
        {
          double v = lo + (hi - lo) * t / TICKS;
          g_autofree char *label = x_label (curve, v, ctx->opts->units);

          ds_render_set_color (cr, &ctx->fg, 0.8);
          ds_render_text (ctx, label, to_x (curve, v, lo, hi, x0, w), y0 + h + 4, DS_ALIGN_CENTER, FALSE, 0);
        }
    }
  else
    {
      /* Log axes (levels, sets): a tick at each point of the first column
       * that has the curve, as far apart as the labels need. */
      for (guint c = 0; c < n; c++)
        if (curve->points[c] != NULL)
          {
            double last = -INFINITY;

            for (guint k = 0; k < curve->points[c]->len; k++)
              {
                const DsCurveXY *p = &g_array_index (curve->points[c], DsCurveXY, k);
                double tx = to_x (curve, p->x, lo, hi, x0, w);
                g_autofree char *label = NULL;

                if (tx - last < (curve->x_unit == DS_COMPARE_BYTES ? 64 : 28))
                  continue;
                label = x_label (curve, p->x, ctx->opts->units);
                ds_render_set_color (cr, &ctx->fg, 0.8);
                ds_render_text (ctx, label, tx, y0 + h + 4, DS_ALIGN_CENTER, FALSE, 0);
                last = tx;
              }
            break;
          }
    }
  {
    g_autofree char *axis = g_strdup_printf ("%s%s", curve->x_name, curve->x_log ? " (log scale)" : "");
    ds_render_set_color (cr, &ctx->fg, 0.8);
    ds_render_text (ctx, axis, x0 + w / 2, y0 + h + LINE + 4, DS_ALIGN_CENTER, FALSE, 0);
  }

  draw_series (ctx, curve, (const double[4]) { x0, y0, w, h }, lo, hi, ymax);
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
