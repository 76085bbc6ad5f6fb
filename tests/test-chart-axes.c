/* test-chart-axes.c: the charts' scales, tick labels and series colours
 * (unit suite: no root, no display, no GTK initialised)
 *
 * One implementation (core/render/ds-chart-axes.c, ds-chart-style.c)
 * draws the axes of the graph on the screen and of the exported
 * pictures (issue 22, "One chart").  Its rule: ticks a round step apart,
 * 1, 2, 2.5 or 5 × 10^n, the smallest that leaves at most so many
 * intervals; never a tick outside the axis; a range that is no range
 * (0, negative, NaN) still gives an axis.  With the GUI built, the
 * Benchmark page's graph and the exported picture are scaled from the same
 * data and must agree tick for tick.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-transfer.h"
#include "ds-chart-axes.h"
#include "ds-render-private.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

#ifdef DS_TEST_HAVE_GRAPH
#include "ds-dots-layer.h"
#include "ds-graph-private.h"
#include "ds-line-layer.h"
#endif

/* Relative, for values that went through a multiplication or two. */
#define assert_close(a, b) assert_close_at ((a), (b), #a, __LINE__)

static void
assert_close_at (double      a,
                 double      b,
                 const char *what,
                 int         line)
{
  ck_assert_msg (fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b)), "line %d: %s = %.17g, not %.17g",
                 line, what, a, b);
}

/* The step's mantissa is one of 1, 2, 2.5, 5. */
static gboolean
is_round_step (double step)
{
  double mantissa = step / pow (10, floor (log10 (step)));

  return fabs (mantissa - 1) < 1e-9 || fabs (mantissa - 2) < 1e-9 ||
         fabs (mantissa - 2.5) < 1e-9 || fabs (mantissa - 5) < 1e-9 ||
         fabs (mantissa - 10) < 1e-9;
}

/* Every tick inside the scale, in order, a step apart. */
static void
assert_ticks_inside (const DsChartScale *scale)
{
  guint n = ds_chart_scale_n_ticks (scale);

  ck_assert_uint_gt (n, 0);
  for (guint i = 0; i < n; i++)
    {
      double v = ds_chart_scale_tick (scale, i);

      ck_assert_msg (v >= scale->min && v <= scale->max, "tick %u = %.17g outside [%g, %g]", i, v,
                     scale->min, scale->max);
      if (i > 0)
        ck_assert_msg (fabs (v - ds_chart_scale_tick (scale, i - 1) - scale->step) <= 1e-9 * scale->step,
                       "ticks %u and %u not %g apart", i - 1, i, scale->step);
    }
}

/* The brief's ranges, each with both axes' interval counts. */
START_TEST (test_steps)
{
  static const struct {
    double max;
    guint  intervals;
    double step;     /* the round step */
    double top;      /* the axis' end: the first multiple of it at or above max */
  } cases[] = {
    { 1, DS_CHART_Y_TICKS, 0.2, 1 },
    { 1, DS_CHART_X_TICKS, 0.1, 1 },
    { 97, DS_CHART_Y_TICKS, 20, 100 },
    { 97, DS_CHART_X_TICKS, 10, 100 },
    { 1234, DS_CHART_Y_TICKS, 200, 1400 },
    { 1234, DS_CHART_X_TICKS, 200, 1400 },
    { 1e9, DS_CHART_Y_TICKS, 2e8, 1e9 },
    { 1e9, DS_CHART_X_TICKS, 1e8, 1e9 },
    /* Where 2.5 is the step: HD Tune's 0-250-500-750 (1-2-5 would say
     * 5 and 5e8, and leave the top half of the axis empty). */
    { 18, DS_CHART_Y_TICKS, 2.5, 20 },
    { 2e9, DS_CHART_Y_TICKS, 2.5e8, 2e9 },
    { 1900, DS_CHART_Y_TICKS, 250, 2000 },
    { 0.02, DS_CHART_Y_TICKS, 0.0025, 0.02 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsChartScale scale;

      assert_close (ds_chart_nice_step (cases[i].max, cases[i].intervals), cases[i].step);
      ds_chart_scale_nice (cases[i].max, cases[i].intervals, &scale);
      ck_assert (scale.min == 0);
      assert_close (scale.step, cases[i].step);
      assert_close (scale.max, cases[i].top);
      assert_ticks_inside (&scale);
      ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), (guint) round (cases[i].top / cases[i].step) + 1);
      assert_close (ds_chart_scale_tick (&scale, ds_chart_scale_n_ticks (&scale) - 1), scale.max);
    }
}
END_TEST

/* From a millionth to a trillion: the step is round, the smallest round
 * one that fits, and the axis ends at or above the value, less than a
 * step above it. */
START_TEST (test_steps_everywhere)
{
  static const double candidates[] = { 1, 2, 2.5, 5 };

  for (double max = 1e-6; max < 1e12; max *= 1.0137)
    for (guint n = 4; n <= 10; n += 3)
      {
        DsChartScale scale;
        double step = ds_chart_nice_step (max, n);
        double magnitude = pow (10, floor (log10 (step)));

        ck_assert_msg (is_round_step (step), "step %.17g for %g", step, max);
        ck_assert_msg (max / step <= n * (1 + 1e-9), "%g in steps of %g: over %u intervals", max, step, n);
        /* The next round step down would need more intervals. */
        for (guint k = 0; k < G_N_ELEMENTS (candidates); k++)
          {
            double smaller = candidates[k] * magnitude;

            if (smaller < step * (1 - 1e-9))
              ck_assert_msg (max / smaller > n, "%g: %g fits %u intervals, not only %g", max, smaller, n, step);
          }

        ds_chart_scale_nice (max, n, &scale);
        ck_assert_msg (scale.max >= max && scale.max - scale.step < max * (1 + 1e-9),
                       "%g: the axis ends at %.17g (step %g)", max, scale.max, scale.step);
        ck_assert_uint_le (ds_chart_scale_n_ticks (&scale), n + 1);
        assert_ticks_inside (&scale);
      }
}
END_TEST

/* An axis that does not start at 0 (a time window that scrolls): its
 * ticks are the multiples of the step inside it. */
START_TEST (test_span)
{
  DsChartScale scale;

  ds_chart_scale_span (3.3, 63.3, DS_CHART_X_TICKS, &scale);
  ck_assert (scale.min == 3.3 && scale.max == 63.3);
  assert_close (scale.step, 10);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), 6);
  assert_close (ds_chart_scale_tick (&scale, 0), 10);
  assert_close (ds_chart_scale_tick (&scale, 5), 60);
  assert_ticks_inside (&scale);

  /* A capacity of 500.1 GB: ticks every 100 GB, none past the end. */
  ds_chart_scale_span (0, 500.1, DS_CHART_X_TICKS, &scale);
  assert_close (scale.step, 100);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), 6);
  assert_ticks_inside (&scale);

  /* Float noise: 0.1 × 3 is not 0.3, yet 0.3 is the last tick of 0-0.3. */
  ds_chart_scale_span (0, 0.3, 3, &scale);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), 4);
  ck_assert (ds_chart_scale_tick (&scale, 3) <= 0.3);
}
END_TEST

/* A right axis on the left one's grid lines: as many intervals, a round
 * step, at or above its largest value. */
START_TEST (test_shared)
{
  static const double maxima[] = { 0.1, 0.37, 7.3, 12, 99.9, 1e4, 3.3e7 };

  for (guint i = 0; i < G_N_ELEMENTS (maxima); i++)
    for (guint n = 1; n <= 8; n++)
      {
        DsChartScale scale;

        ds_chart_scale_shared (maxima[i], n, &scale);
        ck_assert (is_round_step (scale.step));
        assert_close (scale.max, scale.step * n);
        ck_assert_msg (scale.max >= maxima[i], "%g over %u: %g", maxima[i], n, scale.max);
        ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), n + 1);
        assert_ticks_inside (&scale);
      }
}
END_TEST

/* No range is still an axis: 0 to 1, never a division by zero, NaN or
 * an endless loop of ticks. */
START_TEST (test_degenerate)
{
  static const double bad[] = { 0, -0.0, -5, -INFINITY, INFINITY, NAN };
  DsChartScale scale;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      ck_assert (ds_chart_nice_step (bad[i], DS_CHART_Y_TICKS) == 1);
      ds_chart_scale_nice (bad[i], DS_CHART_Y_TICKS, &scale);
      ck_assert_msg (scale.min == 0 && scale.max == 1 && scale.step > 0 && isfinite (scale.step),
                     "max %g: %g to %g step %g", bad[i], scale.min, scale.max, scale.step);
      assert_ticks_inside (&scale);
      ds_chart_scale_shared (bad[i], 4, &scale);
      ck_assert (scale.max > 0 && isfinite (scale.max));
      assert_ticks_inside (&scale);
      ds_chart_scale_span (0, bad[i], DS_CHART_X_TICKS, &scale);
      ck_assert (scale.min == 0 && scale.max == 1);
      assert_ticks_inside (&scale);
    }

  /* 0 intervals asked: one. */
  ck_assert (ds_chart_nice_step (7, 0) == 10);
  ds_chart_scale_shared (7, 0, &scale);
  ck_assert (scale.max == 10 && scale.step == 10);
  /* 0..0 and a reversed range. */
  ds_chart_scale_span (5, 5, DS_CHART_X_TICKS, &scale);
  ck_assert (scale.min == 5 && scale.max == 6);
  ds_chart_scale_span (NAN, -3, DS_CHART_X_TICKS, &scale);
  ck_assert (scale.min == 0 && scale.max == 1);

  /* Scales no one should make have no ticks rather than wrong ones. */
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&(DsChartScale) { 0, 1, 0 }), 0);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&(DsChartScale) { 0, 1, -1 }), 0);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&(DsChartScale) { 0, NAN, 1 }), 0);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&(DsChartScale) { 1, 0, 1 }), 0);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&(DsChartScale) { 0, INFINITY, 1 }), 0);
  /* A step far too small: bounded. */
  ck_assert_uint_le (ds_chart_scale_n_ticks (&(DsChartScale) { 0, 1, 1e-12 }), 1000);
}
END_TEST

START_TEST (test_labels)
{
  static const struct {
    double      value;
    double      step;
    const char *label;
  } cases[] = {
    { 0, 2.5, "0" },
    { 2.5, 2.5, "2.5" },
    { 5, 2.5, "5" },
    { 7.5, 2.5, "7.5" },
    { 0.1 * 3, 0.1, "0.3" },              /* 0.30000000000000004 */
    { 0.75, 0.25, "0.75" },
    { 0.0025 * 3, 0.0025, "0.0075" },
    { 1500, 250, "1500" },
    { 1e6, 2e5, "1000000" },              /* "%g" said "1e+06" */
    { 2.5e8 * 3, 2.5e8, "750000000" },
    { -0.0, 1, "0" },                     /* never "-0" */
    { -1e-17, 0.1, "0" },
    { -20, 10, "-20" },
    { 12.5, 12.5, "12.5" },
    { NAN, 1, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = ds_chart_format_tick (cases[i].value, cases[i].step);

      ck_assert_msg (strcmp (label, cases[i].label) == 0, "%.17g (step %g): \"%s\", not \"%s\"",
                     cases[i].value, cases[i].step, label, cases[i].label);
    }
}
END_TEST

/* The labels of whole axes read as HD Tune's: 0, 2.5, 5 … 20. */
START_TEST (test_axis_labels)
{
  static const char *const expected[] = { "0", "2.5", "5", "7.5", "10", "12.5", "15", "17.5", "20" };
  g_autoptr (GString) joined = g_string_new (NULL);
  DsChartScale scale;

  ds_chart_scale_nice (18, DS_CHART_Y_TICKS, &scale);
  ck_assert_uint_eq (ds_chart_scale_n_ticks (&scale), G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *label = ds_chart_format_tick (ds_chart_scale_tick (&scale, i), scale.step);

      g_string_append_printf (joined, "%s ", label);
      ck_assert_msg (strcmp (label, expected[i]) == 0, "%s", joined->str);
    }
}
END_TEST

START_TEST (test_palette)
{
  for (guint a = 0; a < 8; a++)
    {
      DsChartColor ca = ds_chart_series_color (a);
      g_autofree char *name = g_strdup_printf ("#%02x%02x%02x", (guint) round (ca.red * 255),
                                               (guint) round (ca.green * 255), (guint) round (ca.blue * 255));

      /* The name the screen's layers use is the export's colour. */
      ck_assert_str_eq (ds_chart_series_color_name (a), name);
      ck_assert (ca.alpha == 1);
      /* Eight apart, then again from the first. */
      ck_assert_str_eq (ds_chart_series_color_name (a + 8), ds_chart_series_color_name (a));
      for (guint b = a + 1; b < 8; b++)
        {
          DsChartColor cb = ds_chart_series_color (b);
          double apart = fabs (ca.red - cb.red) + fabs (ca.green - cb.green) + fabs (ca.blue - cb.blue);

          ck_assert_msg (apart > 0.15, "series %u and %u are %g apart", a, b, apart);
        }
    }
  /* GNOME's blue and orange first, as the comparisons always had them. */
  ck_assert_str_eq (ds_chart_series_color_name (0), "#1c71d8");
  ck_assert_str_eq (ds_chart_series_color_name (1), "#e66100");
}
END_TEST

#ifdef DS_TEST_HAVE_GRAPH
static DsSeries *
rate_series (const DsComparison *cmp,
             guint               column,
             GArray            **ret_access)
{
  g_autoptr (GArray) points = NULL;
  DsSeries *series = ds_series_new ();

  ck_assert (ds_comparison_get_curve (cmp, column, FALSE, &points, ret_access));
  for (guint i = 0; i < points->len; i++)
    {
      const DsCurvePoint *p = &g_array_index (points, DsCurvePoint, i);

      ds_series_append (series, p->x, isnan (p->bytes_per_s) ? 0 : p->bytes_per_s, isnan (p->bytes_per_s));
    }
  return series;
}

/* 150 more access times on @r, spread over 1 to 1.6 times @access_s,
 * and two outliers 40 times slower (1 % of the 200 dots): over
 * DS_CHART_DOTS_BULK dots, where the slow few must not set the scale. */
static void
add_dots (DsResult *r,
          double    access_s)
{
  DsTransferData *d = r->data;

  for (guint i = 0; i < 150; i++)
    {
      double s = i % 75 == 7 ? access_s * 40 : access_s * (1 + (i % 7) / 10.0);
      DsAccessPoint a = { .offset_bytes = d->span_bytes / 150 * i, .access_ns = (uint64_t) (s * 1e9) };

      g_array_append_val (d->read.access, a);
    }
}

/* The Benchmark page's graph (ds-graph-axes.c, its widget never made)
 * and the exported picture (ds-render-transfer.c), scaled from the same
 * curves and access times: the same ticks on every axis, in decimal units
 * (position in GB, MB/s) and binary ones (GiB, MiB/s), with the same
 * position title. */
START_TEST (test_screen_is_export)
{
  DsUnits units = _i % 2 == 0 ? DS_UNITS_MB : DS_UNITS_MIB;
  gboolean many = _i >= 2;
  double position_unit = units == DS_UNITS_MIB ? 1073741824.0 : 1e9;
  /* Bytes/s, lowest and highest; the last two just under a round top
   * (with its 1.05 of headroom: 99.96 of 100, 199.5 of 200). */
  static const double rates[][2] = { { 150e6, 170e6 }, { 40e6, 90e6 }, { 1e6, 3e6 }, { 2.1e9, 2.4e9 },
                                     { 310e6, 318e6 }, { 90e6, 95.2e6 }, { 185e6, 190e6 } };

  for (guint r = 0; r < G_N_ELEMENTS (rates); r++)
    {
      /* Access times of a disk (6 ms and up) and of an SSD (50 µs and
       * up: under the axis' 0.1 ms floor). */
      double seek_s = r % 2 ? 0.006 * (r + 1) : 50e-6 * (r + 1);
      g_autoptr (DsResult) a = ds_test_library_transfer ("Disk", UINT64_C (500) * 1000000000, rates[r][0],
                                                         rates[r][1], seek_s, "2020-01-01T00:00:00Z");
      g_autoptr (DsResult) b = ds_test_library_transfer ("Disk", UINT64_C (500) * 1000000000, rates[r][0] / 2,
                                                         rates[r][1] / 2, seek_s / 2, "2020-01-02T00:00:00Z");
      DsResult *results[2] = { a, b };
      g_autoptr (DsComparison) cmp = NULL;
      g_autoptr (GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);
      DsGraphAxes axes = {
        .x = DS_GRAPH_AXIS_POSITION,
        .y = { DS_GRAPH_AXIS_RATE, DS_GRAPH_AXIS_LATENCY },
        .units = units,
      };
      DsChartScale position, rate, access;
      DsGraphPlot plot = { .width = 800, .height = 300 };
      DsGraphSteps steps;
      double rate_max = 0, access_top = 0;

      if (many)
        {
          add_dots (a, seek_s);
          add_dots (b, seek_s / 2);
        }
      cmp = ds_comparison_new (results, NULL, 2, NULL);
      axes.x_max = (double) cmp->x_max_bytes;
      ck_assert (!cmp->x_percent);
      for (guint c = 0; c < 2; c++)
        {
          g_autoptr (GArray) access_s = NULL;
          g_autoptr (DsSeries) series = rate_series (cmp, c, &access_s);
          g_autoptr (DsSeries) dots = ds_series_new ();
          DsGraphLayer *line = ds_line_layer_new ();
          DsGraphLayer *cloud = ds_dots_layer_new ();

          ds_graph_layer_set_series (line, series);
          g_ptr_array_add (layers, line);
          /* 50 dots: both scale to the slowest; 200 with two
           * outliers: both to at most twice the p99 (the outliers' 40
           * times the access time would be the top otherwise). */
          ck_assert_uint_eq (access_s->len, many ? 200 : 50);
          for (guint i = 0; i < access_s->len; i++)
            {
              const DsAccessDot *d = &g_array_index (access_s, DsAccessDot, i);

              ds_series_append (dots, d->x, d->access_s, 0);
            }
          ds_graph_layer_set_series (cloud, dots);
          ds_graph_layer_set_y_axis (cloud, DS_GRAPH_SIDE_RIGHT);
          g_ptr_array_add (layers, cloud);
          rate_max = MAX (rate_max, ds_series_get_max_y (series));
        }

      _ds_graph_axes_scale (&axes, layers, &plot, &steps);
      /* The picture's own extents, then its scales. */
      {
        double export_rate_max;

        ck_assert_uint_eq (ds_render_transfer_extents (cmp, FALSE, &export_rate_max, &access_top),
                           many ? 400 : 100);
        assert_close (export_rate_max, rate_max);
        /* Many: twice the p99 of the first column (1.6 times its access
         * time), not its outliers' 40 times. */
        assert_close (access_top, many ? 2 * 1.6 * seek_s : seek_s);
      }
      ds_render_transfer_scales (cmp, units, rate_max, access_top * 1e3, &position, &rate, &access);

      assert_close (plot.y_max[DS_GRAPH_SIDE_LEFT], rate.max);
      assert_close (steps.y[DS_GRAPH_SIDE_LEFT], rate.step);
      assert_close (plot.y_max[DS_GRAPH_SIDE_RIGHT], access.max);
      assert_close (steps.y[DS_GRAPH_SIDE_RIGHT], access.step);
      assert_close (plot.x_max / position_unit, position.max);
      assert_close (steps.x / position_unit, position.step);
      ck_assert_str_eq (_ds_graph_axes_x_title (&axes),
                        units == DS_UNITS_MIB ? "Position (GiB)" : "Position (GB)");
      ck_assert_uint_eq (ds_chart_scale_n_ticks (&rate), ds_chart_scale_n_ticks (&access));
    }
}
END_TEST
#endif

int
main (void)
{
  Suite *s = suite_create ("chart-axes");
  TCase *tc = tcase_create ("axes");

  tcase_add_test (tc, test_steps);
  tcase_add_test (tc, test_steps_everywhere);
  tcase_add_test (tc, test_span);
  tcase_add_test (tc, test_shared);
  tcase_add_test (tc, test_degenerate);
  tcase_add_test (tc, test_labels);
  tcase_add_test (tc, test_axis_labels);
  tcase_add_test (tc, test_palette);
#ifdef DS_TEST_HAVE_GRAPH
  tcase_add_loop_test (tc, test_screen_is_export, 0, 4);
#endif
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
