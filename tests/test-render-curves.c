/* test-render-curves.c: a kind's curves drawn with cairo, one panel per
 * curve (core/render/ds-render-curves.c)
 *
 * Unit suite: no display, no file.  Curves made by hand are drawn on an
 * image surface through the module's two entry points, and the pixels
 * are read back.  What it promises: a panel for every curve but the
 * Benchmark's (dots, or against the position), PANEL_HEIGHT apart; each
 * column's points in its colour, x from 0 (or the lowest point when one
 * is negative, or the points' span on a log axis) to a round number, y
 * from 0 to a round number above the highest with headroom; the first
 * column's line solid, the second's dashed; a NaN breaks the line and
 * has no marker; a column without the curve draws nothing; each
 * column's mark a dashed vertical line in its colour, labelled with its
 * letter and words; empty, all-NaN and one-point curves draw no series
 * and do not fail.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ds-chart-axes.h"
#include "ds-render-private.h"
#include "ds-test-util.h"

/* The plot box ds-render-curves.c gives a panel of the 1200-wide page:
 * 90 left of it for the y labels, 24 right, 2 lines above, 2.5 below. */
#define WIDTH  1200
#define X0     (MARGIN + 90.0)
#define W      (WIDTH - X0 - MARGIN - 24.0)
#define TOP    (LINE * 2)
#define H      (PANEL_HEIGHT - TOP - LINE * 2.5)

static DsCompareCurve *
curve_new (const char *key,
           const char *x_name,
           gboolean    x_log)
{
  DsCompareCurve *curve = g_new0 (DsCompareCurve, 1);

  curve->key = g_strdup (key);
  curve->title = g_strdup_printf ("%s against %s", key, x_name);
  curve->x_name = g_strdup (x_name);
  curve->y_name = g_strdup ("IOPS");
  curve->x_unit = DS_COMPARE_COUNT;
  curve->y_unit = DS_COMPARE_IOPS;
  curve->x_log = x_log;
  curve->points = g_new0 (GArray *, 2);
  curve->mark_x = g_new (double, 2);
  curve->mark_x[0] = curve->mark_x[1] = NAN;
  curve->mark_label = g_new0 (char *, 2);
  return curve;
}

static void
curve_free (gpointer data)
{
  DsCompareCurve *curve = data;

  for (guint c = 0; c < 2; c++)
    {
      if (curve->points[c] != NULL)
        g_array_unref (curve->points[c]);
      g_free (curve->mark_label[c]);
    }
  g_free (curve->points);
  g_free (curve->mark_x);
  g_free (curve->mark_label);
  g_free (curve->key);
  g_free (curve->title);
  g_free (curve->x_name);
  g_free (curve->y_name);
  g_free (curve);
}

/* Column @c's points: @n pairs x, y. */
static void
set_points (DsCompareCurve *curve,
            guint           c,
            guint           n,
            const double   *xy)
{
  curve->points[c] = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  g_array_append_vals (curve->points[c], xy, n);
}

/* Two columns, the curves to come. */
static DsComparison *
comparison_new (void)
{
  DsComparison *cmp = g_new0 (DsComparison, 1);

  cmp->kind = DS_BENCH_SWEEP;
  cmp->columns = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (cmp->columns, g_new0 (DsCompareColumn, 1));
  g_ptr_array_add (cmp->columns, g_new0 (DsCompareColumn, 1));
  cmp->curves = g_ptr_array_new_with_free_func (curve_free);
  return cmp;
}

static void
comparison_free (DsComparison *cmp)
{
  g_ptr_array_unref (cmp->columns);
  g_ptr_array_unref (cmp->curves);
  g_free (cmp);
}
/* (DsComparison's own cleanup frees what ds_comparison_new() made.) */
typedef DsComparison TestComparison;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestComparison, comparison_free)

/* The panels drawn from @y on a white page @height tall, black text. */
static cairo_surface_t *
draw (const DsComparison *cmp,
      double              y,
      int                 height)
{
  static const DsRenderOptions opts = { .units = DS_UNITS_MB };
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, height);
  cairo_t *cr = cairo_create (image);
  DsRenderCtx ctx = {
    .cr = cr, .cmp = cmp, .opts = &opts,
    .fg = { 0, 0, 0, 1 }, .bg = { 1, 1, 1, 1 },
    .font = pango_font_description_from_string ("Sans 10"),
    .width = WIDTH,
  };

  ds_chart_look_init (&ctx.look, &ctx.fg);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  ds_render_curve_panels_draw (&ctx, y);
  ck_assert_int_eq (cairo_status (cr), CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  pango_font_description_free (ctx.font);
  cairo_surface_flush (image);
  return image;
}

static gboolean
is_color (cairo_surface_t *image,
          int              x,
          int              y,
          DsChartColor     color)
{
  const guchar *data = cairo_image_surface_get_data (image);
  guint32 px = *(const guint32 *) (data + y * cairo_image_surface_get_stride (image) + x * 4);
  int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;

  return abs (r - (int) lround (color.red * 255)) < 8 &&
         abs (g - (int) lround (color.green * 255)) < 8 &&
         abs (b - (int) lround (color.blue * 255)) < 8;
}

/* @color at least half over white (a thin line's antialiased pixels):
 * each channel that differs from white says the same share of @color. */
static gboolean
is_tint (cairo_surface_t *image,
         int              x,
         int              y,
         DsChartColor     color)
{
  const guchar *data = cairo_image_surface_get_data (image);
  guint32 px = *(const guint32 *) (data + y * cairo_image_surface_get_stride (image) + x * 4);
  double want[3] = { color.red, color.green, color.blue };
  double lo = 2, hi = -1;

  for (int i = 0; i < 3; i++)
    {
      double got = ((px >> (16 - 8 * i)) & 0xff) / 255.0;

      if (1 - want[i] < 0.15)
        continue;
      lo = MIN (lo, (1 - got) / (1 - want[i]));
      hi = MAX (hi, (1 - got) / (1 - want[i]));
    }
  return lo >= 0.5 && hi <= 1.1 && hi - lo < 0.15;
}

/* Rows of [y0, y1) where @color tints a pixel of [x0, x1). */
static guint
rows_tinted (cairo_surface_t *image,
             DsChartColor     color,
             int              x0,
             int              y0,
             int              x1,
             int              y1)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      if (is_tint (image, x, y, color))
        {
          n++;
          break;
        }
  return n;
}

/* Pixels of @color in [x0, x1) × [y0, y1). */
static guint
count (cairo_surface_t *image,
       DsChartColor     color,
       double           x0,
       double           y0,
       double           x1,
       double           y1)
{
  guint n = 0;

  for (int y = MAX ((int) y0, 0); y < MIN ((int) y1, cairo_image_surface_get_height (image)); y++)
    for (int x = MAX ((int) x0, 0); x < MIN ((int) x1, WIDTH); x++)
      n += is_color (image, x, y, color);
  return n;
}

/* The box of @color's pixels in rows [y0, y1): left, top, right, bottom. */
static void
box (cairo_surface_t *image,
     DsChartColor     color,
     int              y0,
     int              y1,
     int              ret[4])
{
  ret[0] = ret[1] = G_MAXINT;
  ret[2] = ret[3] = -1;
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < WIDTH; x++)
      if (is_color (image, x, y, color))
        {
          ret[0] = MIN (ret[0], x), ret[1] = MIN (ret[1], y);
          ret[2] = MAX (ret[2], x), ret[3] = MAX (ret[3], y);
        }
}

#define A ds_chart_series_color (0)
#define B ds_chart_series_color (1)

static void
assert_near (int    got,
             double want,
             const char *what)
{
  ck_assert_msg (fabs (got - want) <= 1.5, "%s: %d, not %.1f", what, got, want);
}

/* The Benchmark's curves (dots, or against the position) are drawn by
 * its own panels: every other curve is one panel. */
START_TEST (test_panels_counted)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsComparison none = { 0 };
  DsCompareCurve *dots = curve_new ("read.access", "queue depth", FALSE);

  ck_assert_uint_eq (ds_render_curve_panels (&none), 0);
  ck_assert_uint_eq (ds_render_curve_panels (cmp), 0);
  dots->dots = TRUE;
  g_ptr_array_add (cmp->curves, dots);
  g_ptr_array_add (cmp->curves, curve_new ("read", "position", FALSE));
  ck_assert_uint_eq (ds_render_curve_panels (cmp), 0);
  g_ptr_array_add (cmp->curves, curve_new ("iops", "queue depth", TRUE));
  g_ptr_array_add (cmp->curves, curve_new ("lat_p99", "queue depth", TRUE));
  g_ptr_array_add (cmp->curves, curve_new ("rate", "bytes written", FALSE));
  ck_assert_uint_eq (ds_render_curve_panels (cmp), 3);
}
END_TEST

/* Two flat lines: x from 0 to 10 spans the box, y 0 to 120 (100 with
 * headroom, rounded up); A solid, B dashed; markers at the points. */
START_TEST (test_lines_placed)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *curve = curve_new ("iops", "threads", FALSE);
  const double a[] = { 0, 100, 5, 100, 10, 100 };
  const double b[] = { 0, 50, 5, 50, 10, 50 };
  double ya = 20 + TOP + H - H * 100 / 120, yb = 20 + TOP + H - H * 50 / 120;
  cairo_surface_t *image;
  guint solid = 0, dashed = 0;
  int got[4];
  DsChartScale y_scale;

  ds_chart_scale_nice (100 * DS_CHART_HEADROOM, DS_CHART_Y_TICKS, &y_scale);
  ck_assert_double_eq (y_scale.max, 120);
  set_points (curve, 0, 3, a);
  set_points (curve, 1, 3, b);
  g_ptr_array_add (cmp->curves, curve);
  image = draw (cmp, 20, 460);

  box (image, A, 0, 460, got);
  assert_near (got[0], X0 - 3, "A left");
  assert_near (got[2], X0 + W + 2, "A right");
  assert_near (got[1], ya - 3, "A top");
  assert_near (got[3], ya + 2, "A bottom");
  box (image, B, 0, 460, got);
  assert_near (got[0], X0 - 3, "B left");
  assert_near (got[2], X0 + W + 2, "B right");
  assert_near (got[1], yb - 3, "B top");
  assert_near (got[3], yb + 2, "B bottom");

  for (int x = X0 + 10; x < X0 + W - 10; x++)
    {
      solid += count (image, A, x, ya - 1, x + 1, ya + 1) > 0;
      dashed += count (image, B, x, yb - 1, x + 1, yb + 1) > 0;
    }
  ck_assert_msg (solid > (W - 20) * 0.97, "A drawn at %u of %d columns", solid, (int) W - 20);
  ck_assert_msg (dashed > (W - 20) * 0.3 && dashed < (W - 20) * 0.85, "B drawn at %u of %d columns",
                 dashed, (int) W - 20);

  /* The title, above the box, in the text's colour. */
  ck_assert_uint_gt (count (image, (DsChartColor) { 0, 0, 0, 1 }, MARGIN, 20, 300, 20 + LINE), 20);
  cairo_surface_destroy (image);
}
END_TEST

/* A NaN is a gap: no line to or from it, no marker; a column without
 * the curve draws nothing. */
START_TEST (test_gaps)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *curve = curve_new ("iops", "threads", FALSE);
  const double a[] = { 0, 100, 2, 100, 4, NAN, 6, 100, 8, 100, 10, 100 };
  double ya = TOP + H - H * 100 / 120;
  cairo_surface_t *image;

  set_points (curve, 0, 6, a);
  g_ptr_array_add (cmp->curves, curve);
  image = draw (cmp, 0, PANEL_HEIGHT);

  ck_assert_uint_gt (count (image, A, X0 + W * 0.05, ya - 4, X0 + W * 0.15, ya + 4), 0.09 * W);
  ck_assert_uint_eq (count (image, A, X0 + W * 0.2 + 4, 0, X0 + W * 0.6 - 4, PANEL_HEIGHT), 0);
  /* The marker after the gap, alone before the line goes on. */
  ck_assert_uint_ge (count (image, A, X0 + W * 0.6 - 3, ya - 3, X0 + W * 0.6, ya + 4), 6);
  ck_assert_uint_gt (count (image, A, X0 + W * 0.65, ya - 4, X0 + W * 0.75, ya + 4), 0.09 * W);
  ck_assert_uint_eq (count (image, B, 0, 0, WIDTH, PANEL_HEIGHT), 0);
  cairo_surface_destroy (image);
}
END_TEST

/* Each column's mark: a dashed vertical line across the box in its
 * colour, at its x, labelled with its letter (and words) at the top. */
START_TEST (test_marks)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *curve = curve_new ("iops", "threads", FALSE);
  const double a[] = { 0, 100, 10, 100 };
  const double b[] = { 0, 50, 10, 50 };
  double ma = X0 + W / 2, mb = X0 + W / 4;
  double ya = TOP + H - H * 100 / 120, yb = TOP + H - H * 50 / 120;
  cairo_surface_t *image;
  guint on_a, on_b;

  set_points (curve, 0, 2, a);
  set_points (curve, 1, 2, b);
  g_ptr_array_add (cmp->curves, curve);

  /* No mark: nothing vertical. */
  image = draw (cmp, 0, PANEL_HEIGHT);
  ck_assert_uint_eq (rows_tinted (image, A, ma - 2, TOP, ma + 2, ya - 4), 0);
  cairo_surface_destroy (image);

  curve->mark_x[0] = 5;
  curve->mark_label[0] = g_strdup ("knee");
  curve->mark_x[1] = 2.5;
  image = draw (cmp, 0, PANEL_HEIGHT);
  /* Rows of the box below the lines, the mark's pixel columns on them:
   * dashed 3 on, 2 off. */
  on_a = rows_tinted (image, A, ma - 1, ya + 4, ma + 2, TOP + H);
  on_b = rows_tinted (image, B, mb - 1, yb + 4, mb + 2, TOP + H);
  ck_assert_msg (on_a > (TOP + H - ya - 4) * 0.5 && on_a < (TOP + H - ya - 4) * 0.7,
                 "A's mark: %u rows", on_a);
  ck_assert_msg (on_b > (TOP + H - yb - 4) * 0.5 && on_b < (TOP + H - yb - 4) * 0.7,
                 "B's mark: %u rows", on_b);
  ck_assert_uint_eq (rows_tinted (image, B, ma - 1, yb + 4, ma + 2, TOP + H), 0);
  /* The labels, one line apart: "A knee" wider than "B ". */
  on_a = count (image, A, ma + 3, TOP, ma + 80, TOP + LINE);
  on_b = count (image, B, mb + 3, TOP + LINE, mb + 80, TOP + 2 * LINE);
  ck_assert_uint_gt (on_a, 20);
  ck_assert_uint_gt (on_b, 5);
  ck_assert_uint_gt (on_a, on_b);
  ck_assert_uint_eq (count (image, B, mb + 3, TOP, mb + 80, TOP + LINE - 2), 0);
  cairo_surface_destroy (image);
}
END_TEST

/* Levels doubling on a log axis: evenly apart, from the first to the
 * last; the markers there, only the line between them. */
START_TEST (test_log_axis)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *curve = curve_new ("iops", "queue depth", TRUE);
  const double a[] = { 1, 100, 2, 100, 4, 100, 8, 100, 16, 100 };
  double ya = TOP + H - H * 100 / 120;
  cairo_surface_t *image;

  set_points (curve, 0, 5, a);
  g_ptr_array_add (cmp->curves, curve);
  image = draw (cmp, 0, PANEL_HEIGHT);
  for (guint k = 0; k <= 4; k++)
    {
      double x = X0 + W * k / 4;
      guint marker = count (image, A, x - 3, ya - 3, x + 3, ya + 3);
      guint line = count (image, A, x + W / 8 - 3, ya - 3, x + W / 8 + 3, ya + 3);

      ck_assert_msg (marker >= 12, "no marker at level %u: %u pixels", 1u << k, marker);
      if (k < 4)
        ck_assert_msg (line > 0 && line < 10, "between %u and %u: %u pixels", 1u << k,
                       2u << k, line);
    }
  cairo_surface_destroy (image);
}
END_TEST

/* One panel per drawn curve, PANEL_HEIGHT apart from @y: the Benchmark's
 * curves take no room among them. */
START_TEST (test_panels_stacked)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *first = curve_new ("iops", "threads", FALSE);
  DsCompareCurve *dots = curve_new ("read.access", "threads", FALSE);
  DsCompareCurve *second = curve_new ("lat_p99", "threads", FALSE);
  const double a1[] = { 0, 100, 10, 100 };
  const double a2[] = { 0, 50, 10, 100 };
  double y = 30;
  cairo_surface_t *image;
  int got[4];

  set_points (first, 0, 2, a1);
  set_points (dots, 0, 2, a1);
  dots->dots = TRUE;
  set_points (second, 0, 2, a2);
  g_ptr_array_add (cmp->curves, first);
  g_ptr_array_add (cmp->curves, dots);
  g_ptr_array_add (cmp->curves, second);
  image = draw (cmp, y, (int) (y + 3 * PANEL_HEIGHT));

  box (image, A, 0, (int) (y + PANEL_HEIGHT), got);
  assert_near (got[1], y + TOP + H - H * 100 / 120 - 3, "first top");
  assert_near (got[3], y + TOP + H - H * 100 / 120 + 2, "first bottom");
  /* The second rises from 50 to 100, a panel lower. */
  box (image, A, (int) (y + PANEL_HEIGHT), (int) (y + 3 * PANEL_HEIGHT), got);
  assert_near (got[1], y + PANEL_HEIGHT + TOP + H - H * 100 / 120 - 3, "second top");
  assert_near (got[3], y + PANEL_HEIGHT + TOP + H - H * 50 / 120 + 2, "second bottom");
  /* Nothing in a third. */
  ck_assert_uint_eq (count (image, A, 0, y + 2 * PANEL_HEIGHT, WIDTH, y + 3 * PANEL_HEIGHT), 0);
  ck_assert_uint_eq (count (image, (DsChartColor) { 0, 0, 0, 1 }, 0, y + 2 * PANEL_HEIGHT, WIDTH,
                            y + 3 * PANEL_HEIGHT), 0);
  cairo_surface_destroy (image);
}
END_TEST

/* Levels below zero: the x axis spans them (not from 0); over 64 points
 * still a line with markers across. */
START_TEST (test_negative_and_many)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *curve = curve_new ("rate", "offset", FALSE);
  double many[400];
  double ya = TOP + H - H * 100 / 120;
  cairo_surface_t *image;
  int got[4];
  guint drawn = 0;

  for (guint i = 0; i < 200; i++)
    many[2 * i] = -10 + 20.0 * i / 199, many[2 * i + 1] = 100;
  set_points (curve, 0, 200, many);
  g_ptr_array_add (cmp->curves, curve);
  image = draw (cmp, 0, PANEL_HEIGHT);
  /* The line from end to end; so many markers one every 64 units,
   * the first half of that in. */
  box (image, A, 0, PANEL_HEIGHT, got);
  assert_near (got[0], X0, "left");
  assert_near (got[2], X0 + W - 1, "right");
  assert_near (got[1], ya - 3, "top");
  for (int x = X0; x < X0 + W; x++)
    drawn += count (image, A, x, ya - 1, x + 1, ya + 1) > 0;
  ck_assert_uint_ge (drawn, W - 2);
  ck_assert_uint_eq (count (image, A, X0, ya - 3, X0 + 28, ya - 1), 0);
  ck_assert_uint_gt (count (image, A, X0 + 28, ya - 3, X0 + 44, ya - 1), 0);
  drawn = count (image, A, X0, ya - 3, X0 + W, ya - 1);
  ck_assert_msg (drawn >= 14 && drawn < 16 * 8, "%u marker pixels above the line", drawn);
  cairo_surface_destroy (image);
}
END_TEST

/* Nothing to draw (no points, every y NaN) draws the axes only; one
 * level on a log axis sits in the middle. */
START_TEST (test_degenerate)
{
  g_autoptr (TestComparison) cmp = comparison_new ();
  DsCompareCurve *empty = curve_new ("iops", "threads", FALSE);
  DsCompareCurve *nans = curve_new ("lat_p99", "threads", FALSE);
  DsCompareCurve *one = curve_new ("iops", "queue depth", TRUE);
  const double n[] = { 1, NAN, 2, NAN };
  const double o[] = { 32, 100 };
  double y1 = 2 * PANEL_HEIGHT, ya = y1 + TOP + H - H * 100 / 120;
  cairo_surface_t *image;
  int got[4];

  set_points (nans, 0, 2, n);
  set_points (one, 1, 1, o);
  g_ptr_array_add (cmp->curves, empty);
  g_ptr_array_add (cmp->curves, nans);
  g_ptr_array_add (cmp->curves, one);
  image = draw (cmp, 0, 3 * PANEL_HEIGHT);
  ck_assert_uint_eq (count (image, A, 0, 0, WIDTH, 3 * PANEL_HEIGHT), 0);
  ck_assert_uint_eq (count (image, B, 0, 0, WIDTH, 2 * PANEL_HEIGHT), 0);
  /* The frames and titles are there. */
  ck_assert_uint_gt (count (image, (DsChartColor) { 0, 0, 0, 1 }, 0, 0, WIDTH, PANEL_HEIGHT), 100);
  ck_assert_uint_gt (count (image, (DsChartColor) { 0, 0, 0, 1 }, 0, PANEL_HEIGHT, WIDTH,
                            2 * PANEL_HEIGHT), 100);
  box (image, B, 0, 3 * PANEL_HEIGHT, got);
  assert_near ((got[0] + got[2]) / 2.0, X0 + W / 2, "one level's x");
  assert_near ((got[1] + got[3]) / 2.0, ya, "one level's y");
  cairo_surface_destroy (image);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("render-curves");
  TCase *tc = tcase_create ("render-curves");

  tcase_add_test (tc, test_panels_counted);
  tcase_add_test (tc, test_lines_placed);
  tcase_add_test (tc, test_gaps);
  tcase_add_test (tc, test_marks);
  tcase_add_test (tc, test_log_axis);
  tcase_add_test (tc, test_panels_stacked);
  tcase_add_test (tc, test_negative_and_many);
  tcase_add_test (tc, test_degenerate);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
