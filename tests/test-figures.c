/* test-figures.c: what a kind gives a comparison (core/results/ds-figures.c
 * and the sinks of ds-figures.h), without a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The span a run tested, which the comparison draws curves against the
 * position on: the --capacity asked when it is smaller than the target,
 * else the target's size; the kinds whose figures depend on where they
 * were measured use it.  And the sinks' inline calls: every argument
 * handed on as given, and a sink without notes takes none.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-result.h"
#include "ds-test-util.h"

#define GB (UINT64_C (1000000000))

static DsResult *
result_new (DsBenchKind kind,
            uint64_t    capacity_bytes,
            uint64_t    size_bytes)
{
  DsResult *result = ds_result_new_blank (kind);

  result->spec.capacity_bytes = capacity_bytes;
  result->target.size_bytes = size_bytes;
  return result;
}

/* The whole target without --capacity; the capacity when it is smaller;
 * the target when the capacity is as large or larger (a run clamps to the
 * device, and an old result may say more than its target had); nothing
 * known, 0. */
START_TEST (test_tested_span)
{
  const struct {
    uint64_t capacity;
    uint64_t size;
    uint64_t expected;
  } cases[] = {
    { 0, 256 * GB, 256 * GB },
    { 10 * GB, 256 * GB, 10 * GB },
    { 1, 256 * GB, 1 },
    { 256 * GB, 256 * GB, 256 * GB },
    { 512 * GB, 256 * GB, 256 * GB },
    { 10 * GB, 0, 0 },
    { 0, 0, 0 },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsResult) result = result_new (DS_BENCH_TRANSFER, cases[i].capacity,
                                                cases[i].size);

      ck_assert_msg (ds_figures_tested_span (result) == cases[i].expected,
                     "capacity %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT,
                     cases[i].capacity, cases[i].size, ds_figures_tested_span (result));
    }
}
END_TEST

/* The kinds that measure at places on the disk (extra, random access,
 * block size) compare over the span their run tested; the transfer scan
 * over it too when its data does not say its own. */
START_TEST (test_kinds_span)
{
  const DsBenchKind kinds[] = { DS_BENCH_EXTRA, DS_BENCH_RANDOM_ACCESS, DS_BENCH_BLOCK_SIZE,
                                DS_BENCH_TRANSFER };

  for (unsigned i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const DsBenchOps *ops = ds_bench_get (kinds[i]);
      g_autoptr (DsResult) result = result_new (kinds[i], 10 * GB, 256 * GB);

      ck_assert_ptr_nonnull (ops);
      ck_assert_msg (ops->compare_span != NULL, "%s has no compare_span", ops->name);
      ck_assert_msg (ops->compare_span (result) == 10 * GB, "%s: %" G_GUINT64_FORMAT,
                     ops->name, ops->compare_span (result));
    }
}
END_TEST

/* ---- the sinks ---- */

typedef struct {
  DsFigures     figures;
  guint         n_added;
  char         *key;
  char         *section;
  char         *name;
  char         *measure;
  DsCompareUnit unit;
  gboolean      higher_is_better;
  double        value;
  GPtrArray    *notes;
} FigureSink;

static void
figure_add (DsFigures     *figures,
            const char    *key,
            const char    *section,
            const char    *name,
            const char    *measure,
            DsCompareUnit  unit,
            gboolean       higher_is_better,
            double         value)
{
  FigureSink *sink = (FigureSink *) figures;

  sink->n_added++;
  g_free (sink->key);
  g_free (sink->section);
  g_free (sink->name);
  g_free (sink->measure);
  sink->key = g_strdup (key);
  sink->section = g_strdup (section);
  sink->name = g_strdup (name);
  sink->measure = g_strdup (measure);
  sink->unit = unit;
  sink->higher_is_better = higher_is_better;
  sink->value = value;
}

static void
figure_note (DsFigures  *figures,
             const char *text)
{
  FigureSink *sink = (FigureSink *) figures;

  g_ptr_array_add (sink->notes, g_strdup (text));
}

static void
figure_sink_clear (FigureSink *sink)
{
  g_free (sink->key);
  g_free (sink->section);
  g_free (sink->name);
  g_free (sink->measure);
  g_clear_pointer (&sink->notes, g_ptr_array_unref);
}

/* ds_figures_add hands every argument on as given (a "not measured" NAN
 * too: the sink decides); ds_figures_note reaches a sink's note, and a
 * sink without one is passed over. */
START_TEST (test_figures_sink)
{
  FigureSink sink = { .figures = { .add = figure_add, .note = figure_note } };
  FigureSink quiet = { .figures = { .add = figure_add } };

  sink.notes = g_ptr_array_new_with_free_func (g_free);
  ds_figures_add (&sink.figures, "rnd4k-q32t1.read.iops", "Random 4 KiB", "Q32T1", "IOPS",
                  DS_COMPARE_IOPS, TRUE, 95000.5);
  ck_assert_uint_eq (sink.n_added, 1);
  ck_assert_str_eq (sink.key, "rnd4k-q32t1.read.iops");
  ck_assert_str_eq (sink.section, "Random 4 KiB");
  ck_assert_str_eq (sink.name, "Q32T1");
  ck_assert_str_eq (sink.measure, "IOPS");
  ck_assert_int_eq (sink.unit, DS_COMPARE_IOPS);
  ck_assert (sink.higher_is_better);
  ck_assert_double_eq (sink.value, 95000.5);

  ds_figures_add (&sink.figures, "read.access_time", "Read", "Access time", NULL,
                  DS_COMPARE_TIME, FALSE, NAN);
  ck_assert_uint_eq (sink.n_added, 2);
  ck_assert_ptr_null (sink.measure);
  ck_assert_int_eq (sink.unit, DS_COMPARE_TIME);
  ck_assert (!sink.higher_is_better);
  ck_assert (isnan (sink.value));

  ds_figures_note (&sink.figures, "the cliff came at 12 GB");
  ck_assert_uint_eq (sink.notes->len, 1);
  ck_assert_str_eq (g_ptr_array_index (sink.notes, 0), "the cliff came at 12 GB");

  ds_figures_note (&quiet.figures, "nobody hears this");
  ds_figures_add (&quiet.figures, "qd16.iops", "", "QD 16", "", DS_COMPARE_IOPS, TRUE, -1);
  ck_assert_uint_eq (quiet.n_added, 1);
  ck_assert_double_eq (quiet.value, -1);

  figure_sink_clear (&sink);
  figure_sink_clear (&quiet);
}
END_TEST

typedef struct {
  DsCurves           curves;
  const DsCurveAxes *axes;
  const DsCurveXY   *points;
  guint              n;
  double             mark_x;
  const char        *mark_label;
} CurveSink;

static void
curve_add (DsCurves          *curves,
           const DsCurveAxes *axes,
           const DsCurveXY   *points,
           guint              n,
           double             mark_x,
           const char        *mark_label)
{
  CurveSink *sink = (CurveSink *) curves;

  sink->axes = axes;
  sink->points = points;
  sink->n = n;
  sink->mark_x = mark_x;
  sink->mark_label = mark_label;
}

/* ds_curves_add hands the axes, the points (a NAN gap kept), their count
 * and the mark on as given; no mark is NAN with no label. */
START_TEST (test_curves_sink)
{
  const DsCurveAxes axes = {
    .key = "iops", .title = "IOPS against queue depth", .x_name = "queue depth",
    .x_unit = DS_COMPARE_COUNT, .x_log = TRUE, .y_name = "IOPS", .y_unit = DS_COMPARE_IOPS,
  };
  const DsCurveXY points[] = { { 1, 9000 }, { 2, 17000 }, { 4, NAN }, { 8, 52000 } };
  CurveSink sink = { .curves = { .add = curve_add } };

  ds_curves_add (&sink.curves, &axes, points, G_N_ELEMENTS (points), 4, "knee");
  ck_assert_ptr_eq (sink.axes, &axes);
  ck_assert_ptr_eq (sink.points, points);
  ck_assert_uint_eq (sink.n, 4);
  ck_assert_double_eq (sink.mark_x, 4);
  ck_assert_str_eq (sink.mark_label, "knee");
  ck_assert (isnan (sink.points[2].y));

  ds_curves_add (&sink.curves, &axes, points, 1, NAN, NULL);
  ck_assert_uint_eq (sink.n, 1);
  ck_assert (isnan (sink.mark_x));
  ck_assert_ptr_null (sink.mark_label);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("figures");
  TCase *tc = tcase_create ("figures");

  tcase_add_test (tc, test_tested_span);
  tcase_add_test (tc, test_kinds_span);
  tcase_add_test (tc, test_figures_sink);
  tcase_add_test (tc, test_curves_sink);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
