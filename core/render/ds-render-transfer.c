/* ds-render-transfer.c: a Benchmark comparison's transfer curves, overlaid
 * with their access-time dots, one panel per direction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-render-private.h"

/* ---- transfer curves ---------------------------------------------------- */

gboolean
ds_render_direction_present (const DsComparison *cmp,
                   gboolean            write)
{
  for (guint c = 0; c < cmp->columns->len; c++)
    if (ds_comparison_get_curve (cmp, c, write, NULL, NULL))
      return TRUE;

  return FALSE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef struct {
  double       x0, y0, w, h;  /* the plot area */
  double       x_max;         /* bytes, or 1 for a fraction */
  double       rate_max;      /* bytes/s at the top */
  double       access_max;    /* seconds at the top of the right axis */
  DsChartScale position;      /* GB (GiB), or % of each capacity */
  DsChartScale rate;          /* MB/s (MiB/s) */
  DsChartScale access;        /* ms, on the rate's grid lines */
} Plot;

static double
px (const Plot *p, double x)
{
  return p->x0 + p->w * CLAMP (x / p->x_max, 0, 1);
}

static double
py (const Plot *p, double v, double max)
{
  return p->y0 + p->h - p->h * CLAMP (v / max, 0, 1);
}

/* The axes as the Benchmark page draws them (ds-chart-axes.c): the rate
 * on the left, the access time on the right on the same grid lines, the
 * position below. */
static void
draw_axes (DsRenderCtx *ctx,
           const Plot  *p,
           gboolean     dots)
{
  g_autoptr (PangoLayout) layout = ds_render_layout (ctx, FALSE);
  gboolean mib = ctx->opts->units == DS_UNITS_MIB;
  DsChartArea area = { p->x0, p->y0, p->w, p->h };
  DsChartAxis rate = { .scale = p->rate, .edge = DS_CHART_EDGE_LEFT, .grid = TRUE };
  DsChartAxis access = { .scale = p->access, .edge = DS_CHART_EDGE_RIGHT };
  DsChartAxis position = { .scale = p->position, .edge = DS_CHART_EDGE_BOTTOM, .grid = TRUE };

  ds_chart_draw_axis (ctx->cr, layout, &area, &rate, &ctx->look);
  if (dots)
    ds_chart_draw_axis (ctx->cr, layout, &area, &access, &ctx->look);
  ds_chart_draw_axis (ctx->cr, layout, &area, &position, &ctx->look);
  ds_chart_draw_titles (ctx->cr, layout, &area,
                        ctx->cmp->x_percent ? "Position (% of each tested capacity)" :
                        mib ? "Position (GiB)" : "Position (GB)",
                        mib ? "MiB/s" : "MB/s", dots ? "ms" : NULL, &ctx->look);
  ds_chart_draw_frame (ctx->cr, &area, &ctx->look);
}

/* Where one column's access-time dots top out (s), as the Benchmark
 * page's dots layer has it (ds_chart_dots_top()). */
static double
dots_top (GArray *access)
{
  g_autoptr (GArray) times = g_array_sized_new (FALSE, FALSE, sizeof (double), access->len);
  const double *sorted;

  if (access->len == 0)
    return 0;
  for (guint i = 0; i < access->len; i++)
    g_array_append_val (times, g_array_index (access, DsAccessDot, i).access_s);
  g_array_sort (times, compare_doubles);
  sorted = (const double *) (gpointer) times->data;
  return ds_chart_dots_top (sorted[times->len - 1], ds_chart_percentile (sorted, times->len, 99), times->len);
}

guint
ds_render_transfer_extents (const DsComparison *cmp,
                            gboolean            write,
                            double             *ret_rate_max,
                            double             *ret_access_top)
{
  guint n_dots = 0;

  *ret_rate_max = 0;
  *ret_access_top = 0;
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      g_autoptr (GArray) points = NULL;
      g_autoptr (GArray) access = NULL;

      if (!ds_comparison_get_curve (cmp, c, write, &points, &access))
        continue;
      for (guint i = 0; i < points->len; i++)
        {
          double v = g_array_index (points, DsCurvePoint, i).bytes_per_s;
          if (!isnan (v))
            *ret_rate_max = MAX (*ret_rate_max, v);
        }
      *ret_access_top = MAX (*ret_access_top, dots_top (access));
      n_dots += access->len;
    }

  return n_dots;
}

void
ds_render_transfer_scales (const DsComparison *cmp,
                           DsUnits             units,
                           double              rate_max,
                           double              access_ms,
                           DsChartScale       *ret_position,
                           DsChartScale       *ret_rate,
                           DsChartScale       *ret_access)
{
  gboolean mib = units == DS_UNITS_MIB;
  double unit = mib ? 1048576.0 : 1e6;   /* bytes/s in an MB/s (MiB/s) */

  if (cmp->x_percent)
    ds_chart_scale_span (0, 100, DS_CHART_X_TICKS, ret_position);
  else
    ds_chart_scale_span (0, (double) MAX (cmp->x_max_bytes, 1) / (mib ? 1073741824.0 : 1e9),
                         DS_CHART_X_TICKS, ret_position);
  ds_chart_scale_nice (MAX (rate_max / unit * DS_CHART_HEADROOM, DS_CHART_RATE_FLOOR),
                       DS_CHART_Y_TICKS, ret_rate);
  /* On the rate's grid lines: as many intervals. */
  ds_chart_scale_shared (MAX (access_ms * DS_CHART_HEADROOM, DS_CHART_LATENCY_FLOOR_MS),
                         (guint) round (ret_rate->max / ret_rate->step), ret_access);
}

/* The plot area of the panel at @y and its scales: the access time's
 * axis reaches @access_top (s); slower dots are drawn at the top edge. */
static Plot
plot_place (DsRenderCtx *ctx,
            double       y,
            gboolean     dots,
            double       rate_max,
            double       access_top)
{
  const DsComparison *cmp = ctx->cmp;
  double access_ms = dots ? access_top * 1e3 : 0;
  Plot p = { 0 };

  p.x0 = MARGIN + 64;
  p.y0 = y + LINE * 2.5;
  p.w = ctx->width - p.x0 - MARGIN - (dots ? 56 : 16);
  p.h = PANEL_HEIGHT - LINE * 2.5 - LINE * 2.5;
  p.x_max = cmp->x_percent ? 1.0 : (double) MAX (cmp->x_max_bytes, 1);
  ds_render_transfer_scales (cmp, ctx->opts->units, rate_max, access_ms, &p.position, &p.rate, &p.access);
  p.rate_max = p.rate.max * (ctx->opts->units == DS_UNITS_MIB ? 1048576.0 : 1e6);
  p.access_max = p.access.max / 1e3;

  return p;
}

static void
draw_access_dots (cairo_t             *cr,
                  const Plot          *p,
                  const DsRenderColor *color,
                  GArray              *access)
{
  ds_chart_set_color (cr, color, 0.45);
  for (guint i = 0; i < access->len; i++)
    {
      const DsAccessDot *d = &g_array_index (access, DsAccessDot, i);
      cairo_arc (cr, px (p, d->x), py (p, MIN (d->access_s, p->access_max), p->access_max),
                 1.6, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

/* Column @c's curve, broken where a point failed, then its markers. */
static void
draw_curve (cairo_t    *cr,
            const Plot *p,
            guint       c,
            GArray     *points)
{
  gboolean drawing = FALSE;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.6);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  ds_chart_series_set_dash (cr, c, 1.6);
  for (guint i = 0; i < points->len; i++)
    {
      const DsCurvePoint *pt = &g_array_index (points, DsCurvePoint, i);

      if (isnan (pt->bytes_per_s))
        {
          drawing = FALSE;
          continue;
        }
      if (drawing)
        cairo_line_to (cr, px (p, pt->x), py (p, pt->bytes_per_s, p->rate_max));
      else
        cairo_move_to (cr, px (p, pt->x), py (p, pt->bytes_per_s, p->rate_max));
      drawing = TRUE;
    }
  cairo_stroke (cr);
  cairo_restore (cr);
  {
    g_autofree double *xs = g_new (double, MAX (points->len, 1));
    g_autofree double *ys = g_new (double, MAX (points->len, 1));

    for (guint i = 0; i < points->len; i++)
      {
        const DsCurvePoint *pt = &g_array_index (points, DsCurvePoint, i);

        xs[i] = px (p, pt->x);
        ys[i] = isnan (pt->bytes_per_s) ? NAN : py (p, pt->bytes_per_s, p->rate_max);
      }
    ds_chart_series_markers (cr, c, xs, ys, points->len, 6);
  }
}

/* Failed points: a cross on the x-axis, in the series' colour. */
static void
draw_failed (cairo_t    *cr,
             const Plot *p,
             GArray     *points)
{
  cairo_set_line_width (cr, 1.6);
  for (guint i = 0; i < points->len; i++)
    {
      const DsCurvePoint *pt = &g_array_index (points, DsCurvePoint, i);
      double x = px (p, pt->x), yb = p->y0 + p->h - 5;

      if (!isnan (pt->bytes_per_s))
        continue;
      cairo_move_to (cr, x - 4, yb - 4);
      cairo_line_to (cr, x + 4, yb + 4);
      cairo_move_to (cr, x - 4, yb + 4);
      cairo_line_to (cr, x + 4, yb - 4);
      cairo_stroke (cr);
    }
}

void
ds_render_transfer_panel (DsRenderCtx *ctx,
                          double       y,
                          gboolean     write)
{
  const DsComparison *cmp = ctx->cmp;
  cairo_t *cr = ctx->cr;
  double rate_max, access_top;
  guint n_dots = ds_render_transfer_extents (cmp, write, &rate_max, &access_top);
  gboolean dots = ctx->opts->show_access && n_dots > 0;
  Plot p = plot_place (ctx, y, dots, rate_max, access_top);

  ds_chart_set_color (cr, &ctx->fg, 1);
  ds_render_text (ctx, write ? "Write transfer rate" : "Read transfer rate", MARGIN, y, DS_ALIGN_LEFT, TRUE, 0);
  draw_axes (ctx, &p, dots);

  cairo_save (cr);
  cairo_rectangle (cr, p.x0, p.y0 - 3, p.w, p.h + 3);
  cairo_clip (cr);
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      g_autoptr (GArray) points = NULL;
      g_autoptr (GArray) access = NULL;
      DsRenderColor color = ds_chart_series_color (c);

      if (!ds_comparison_get_curve (cmp, c, write, &points, &access))
        continue;

      if (dots)
        draw_access_dots (cr, &p, &color, access);
      ds_chart_set_color (cr, &color, 1);
      draw_curve (cr, &p, c, points);
      draw_failed (cr, &p, points);
    }
  cairo_restore (cr);
}
