/* ds-render-transfer.c: a Benchmark comparison's transfer curves, overlaid
 * with their access-time dots, one panel per direction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-render-private.h"

/* ---- axes --------------------------------------------------------------- */

/* A step of 1, 2 or 5 times a power of ten giving about @n ticks to @max. */
static double
nice_step (double max,
           int    n)
{
  double raw = max / n;
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;

  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double
nice_max (double max)
{
  double step;

  if (!(max > 0) || !isfinite (max))
    return 1;
  step = nice_step (max, 5);
  return ceil (max * 1.05 / step) * step;
}

static char *
format_tick (double v)
{
  if (v == 0)
    return g_strdup ("0");
  if (fabs (v) >= 100 || v == floor (v))
    return g_strdup_printf ("%.0f", v);
  if (fabs (v) >= 1)
    return g_strdup_printf ("%.1f", v);
  return g_strdup_printf ("%.3g", v);
}

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
  double x0, y0, w, h;      /* the plot area */
  double x_max;             /* bytes, or 1 for a fraction */
  double rate_max;          /* bytes/s at the top */
  double access_max;        /* seconds at the top of the right axis */
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

static void
draw_axes (DsRenderCtx        *ctx,
           const Plot *p,
           gboolean    dots)
{
  cairo_t *cr = ctx->cr;
  gboolean mib = ctx->opts->units == DS_UNITS_MIB;
  double unit = mib ? 1048576.0 : 1e6;
  double top = p->rate_max / unit;
  double step = nice_step (top, 5);
  double gb = mib ? 1073741824.0 : 1e9;

  cairo_set_line_width (cr, 1);
  /* Horizontal grid and the rate axis. */
  for (double v = 0; v <= top * 1.0001; v += step)
    {
      double y = py (p, v * unit, p->rate_max);
      g_autofree char *label = format_tick (v);

      ds_render_set_color (cr, &ctx->fg, 0.12);
      cairo_move_to (cr, p->x0, round (y) + 0.5);
      cairo_line_to (cr, p->x0 + p->w, round (y) + 0.5);
      cairo_stroke (cr);
      ds_render_set_color (cr, &ctx->fg, 0.85);
      ds_render_text (ctx, label, p->x0 - 6, y - LINE / 2, DS_ALIGN_RIGHT, FALSE, 0);
    }
  ds_render_text (ctx, mib ? "MiB/s" : "MB/s", p->x0 - 6, p->y0 - LINE - 4, DS_ALIGN_RIGHT, TRUE, 0);

  if (dots)
    {
      double ms_top = p->access_max * 1e3;
      double ms_step = nice_step (ms_top, 5);

      for (double v = 0; v <= ms_top * 1.0001; v += ms_step)
        {
          g_autofree char *label = format_tick (v);
          ds_render_text (ctx, label, p->x0 + p->w + 6, py (p, v, ms_top) - LINE / 2, DS_ALIGN_LEFT, FALSE, 0);
        }
      ds_render_text (ctx, "ms", p->x0 + p->w + 6, p->y0 - LINE - 4, DS_ALIGN_LEFT, TRUE, 0);
    }

  /* Vertical grid and the position axis: tenths of each capacity, or GB
   * (GiB) in steps of 1, 2 or 5. */
  {
    gboolean percent = ctx->cmp->x_percent;
    double x_top = percent ? 100 : p->x_max / gb;
    double x_step = percent ? 10 : nice_step (x_top, 10);
    double scale = percent ? 0.01 : gb;

    for (double v = 0; v <= x_top * 1.0001; v += x_step)
      {
        double x = px (p, v * scale);
        g_autofree char *label = format_tick (v);

        ds_render_set_color (cr, &ctx->fg, 0.12);
        cairo_move_to (cr, round (x) + 0.5, p->y0);
        cairo_line_to (cr, round (x) + 0.5, p->y0 + p->h);
        cairo_stroke (cr);
        ds_render_set_color (cr, &ctx->fg, 0.85);
        ds_render_text (ctx, label, x, p->y0 + p->h + 4, DS_ALIGN_CENTER, FALSE, 0);
      }
    ds_render_text (ctx, percent ? "% of each tested capacity" : mib ? "GiB" : "GB",
             p->x0 + p->w, p->y0 + p->h + 4 + LINE, DS_ALIGN_RIGHT, TRUE, 0);
  }

  ds_render_set_color (cr, &ctx->fg, 0.6);
  cairo_rectangle (cr, round (p->x0) + 0.5, round (p->y0) + 0.5, round (p->w), round (p->h));
  cairo_stroke (cr);
}

/* The highest rate of any column's curve (bytes/s); every column's
 * access times are appended to @all_access. */
static double
collect (const DsComparison *cmp,
         gboolean            write,
         GArray             *all_access)
{
  double rate_max = 0;

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
            rate_max = MAX (rate_max, v);
        }
      for (guint i = 0; i < access->len; i++)
        g_array_append_val (all_access, g_array_index (access, DsAccessDot, i).access_s);
    }

  return rate_max;
}

/* The plot area of the panel at @y and its scales; sorts @all_access. */
static Plot
plot_place (DsRenderCtx *ctx,
            double       y,
            gboolean     dots,
            double       rate_max,
            GArray      *all_access)
{
  const DsComparison *cmp = ctx->cmp;
  Plot p = { 0 };

  p.x0 = MARGIN + 64;
  p.y0 = y + LINE * 2.5;
  p.w = ctx->width - p.x0 - MARGIN - (dots ? 56 : 16);
  p.h = PANEL_HEIGHT - LINE * 2.5 - LINE * 2.5;
  p.x_max = cmp->x_percent ? 1.0 : (double) MAX (cmp->x_max_bytes, 1);
  p.rate_max = ctx->opts->units == DS_UNITS_MIB ?
               nice_max (rate_max / 1048576.0) * 1048576.0 : nice_max (rate_max / 1e6) * 1e6;
  if (dots)
    {
      /* The 98th percentile sets the scale: a few slow outliers would
       * flatten the rest; they are drawn at the top edge. */
      g_array_sort (all_access, compare_doubles);
      p.access_max = nice_max (g_array_index (all_access, double,
                                              (guint) (0.98 * (all_access->len - 1))) * 1e3) / 1e3;
    }

  return p;
}

static void
draw_access_dots (cairo_t             *cr,
                  const Plot          *p,
                  const DsRenderColor *color,
                  GArray              *access)
{
  ds_render_set_color (cr, color, 0.45);
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
  ds_render_series_set_dash (cr, c, 1.6);
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
    ds_render_series_markers (cr, c, xs, ys, points->len, 6);
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
  g_autoptr (GArray) all_access = g_array_new (FALSE, FALSE, sizeof (double));
  double rate_max = collect (cmp, write, all_access);
  gboolean dots = ctx->opts->show_access && all_access->len > 0;
  Plot p = plot_place (ctx, y, dots, rate_max, all_access);

  ds_render_set_color (cr, &ctx->fg, 1);
  ds_render_text (ctx, write ? "Write transfer rate" : "Read transfer rate", MARGIN, y, DS_ALIGN_LEFT, TRUE, 0);
  draw_axes (ctx, &p, dots);

  cairo_save (cr);
  cairo_rectangle (cr, p.x0, p.y0 - 3, p.w, p.h + 3);
  cairo_clip (cr);
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      g_autoptr (GArray) points = NULL;
      g_autoptr (GArray) access = NULL;
      DsRenderColor color = ds_render_series_color (c);

      if (!ds_comparison_get_curve (cmp, c, write, &points, &access))
        continue;

      if (dots)
        draw_access_dots (cr, &p, &color, access);
      ds_render_set_color (cr, &color, 1);
      draw_curve (cr, &p, c, points);
      draw_failed (cr, &p, points);
    }
  cairo_restore (cr);
}
