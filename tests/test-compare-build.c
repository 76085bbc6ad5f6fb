/* test-compare-build.c: a comparison's rows and curves as the kinds fill
 * them (core/library/ds-compare-build.c), through the sinks themselves:
 * where a figure one result lacks goes, what a value that is no
 * measurement becomes, names escaped and cut, notes by letter, the better
 * column and the 0.5 % tie, curves per column and marks, the refusal of
 * curves that share no axis, word for word
 *
 * tests/test-compare.c and test-compare-kinds.c compare real results of
 * every kind; this is what they cannot reach in a kind's order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-compare-private.h"
#include "ds-error.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static void
test_row_free (DsCompareRow *row)
{
  g_free (row->key);
  g_free (row->section);
  g_free (row->name);
  g_free (row->measure);
  g_free (row->values);
  g_free (row);
}

static void
test_column_free (DsCompareColumn *column)
{
  g_free (column->label);
  g_free (column);
}

/* An empty comparison of @n columns A, B, ..., as ds_comparison_new()
 * makes one before the kinds fill it. */
static DsComparison *
comparison_new (guint n)
{
  DsComparison *cmp = g_new0 (DsComparison, 1);

  cmp->kind = DS_BENCH_WORKLOAD;
  cmp->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) test_column_free);
  cmp->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) test_row_free);
  cmp->notes = g_ptr_array_new_with_free_func (g_free);
  cmp->curves = g_ptr_array_new ();
  cmp->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      DsCompareColumn *col = g_new0 (DsCompareColumn, 1);

      col->letter = (char) ('A' + i);
      col->label = g_strdup_printf ("column %c", col->letter);
      g_ptr_array_add (cmp->columns, col);
    }
  return cmp;
}

static void
add (DsCompareBuilder *b,
     guint             column,
     const char       *key,
     const char       *section,
     double            value)
{
  b->column = column;
  ds_figures_add (&b->figures, key, section, key, "rate", DS_COMPARE_RATE, TRUE, value);
}

static char *
row_keys (const DsComparison *cmp)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < cmp->rows->len; i++)
    g_string_append_printf (s, "%s%s", i > 0 ? " " : "", ((DsCompareRow *) cmp->rows->pdata[i])->key);
  return g_string_free (s, FALSE);
}

static const DsCompareRow *
row_of (const DsComparison *cmp,
        const char         *key)
{
  for (guint i = 0; i < cmp->rows->len; i++)
    if (strcmp (((DsCompareRow *) cmp->rows->pdata[i])->key, key) == 0)
      return cmp->rows->pdata[i];
  ck_abort_msg ("no row %s", key);
  return NULL;
}

/* ---- rows --------------------------------------------------------------- */

/* A figure the first results did not have goes at the end of its section,
 * a new section at the end; a known key fills its row; NAN elsewhere. */
START_TEST (test_rows_order)
{
  g_autoptr (DsComparison) cmp = comparison_new (3);
  g_autofree char *keys = NULL;
  DsCompareBuilder b;
  const DsCompareRow *r;

  ds_compare_builder_init (&b, cmp);
  add (&b, 0, "r1", "Read", 1);
  add (&b, 0, "w1", "Write", 2);
  add (&b, 1, "r1", "Read", 3);
  add (&b, 1, "r2", "Read", 4);
  add (&b, 1, "x1", "Extra", 5);
  add (&b, 2, "w2", "Write", 6);
  add (&b, 2, "r3", "Read", 7);
  ck_assert_ptr_null (b.error);
  ds_compare_builder_clear (&b);

  keys = row_keys (cmp);
  ck_assert_str_eq (keys, "r1 r2 r3 w1 w2 x1");
  r = row_of (cmp, "r1");
  ck_assert_double_eq (r->values[0], 1);
  ck_assert_double_eq (r->values[1], 3);
  ck_assert (isnan (r->values[2]));
  r = row_of (cmp, "w2");
  ck_assert (isnan (r->values[0]) && isnan (r->values[1]));
  ck_assert_double_eq (r->values[2], 6);
  ck_assert_str_eq (r->section, "Write");
  ck_assert_str_eq (r->name, "w2");
  ck_assert_str_eq (r->measure, "rate");
  ck_assert_int_eq (r->unit, DS_COMPARE_RATE);
  ck_assert (r->higher_is_better);
  ck_assert_int_eq (r->best, -1);
}
END_TEST

/* A negative or non-finite value is "not measured", a zero is a value;
 * the last value given for a column is the one kept. */
START_TEST (test_values)
{
  g_autoptr (DsComparison) cmp = comparison_new (6);
  const double given[] = { -1, NAN, INFINITY, -INFINITY, 0, 1e300 };
  DsCompareBuilder b;
  const DsCompareRow *r;

  ds_compare_builder_init (&b, cmp);
  for (guint c = 0; c < G_N_ELEMENTS (given); c++)
    add (&b, c, "v", "S", given[c]);
  add (&b, 5, "v", "S", 2);
  ds_compare_builder_clear (&b);

  r = row_of (cmp, "v");
  for (guint c = 0; c < 4; c++)
    ck_assert_msg (isnan (r->values[c]), "column %u: %g", c, r->values[c]);
  ck_assert_double_eq (r->values[4], 0);
  ck_assert_double_eq (r->values[5], 2);
}
END_TEST

/* A kind's names may come from a result file: escaped, cut to 120
 * characters, a missing measure empty; a section so escaped still keeps
 * its figures together. */
START_TEST (test_names_escaped)
{
  g_autoptr (DsComparison) cmp = comparison_new (2);
  g_autofree char *long_name = g_strnfill (300, 'n');
  g_autofree char *keys = NULL;
  DsCompareBuilder b;
  const DsCompareRow *r;

  ds_compare_builder_init (&b, cmp);
  b.column = 0;
  ds_figures_add (&b.figures, "k1", "Step \033[2J\n", long_name, NULL, DS_COMPARE_IOPS, TRUE, 1);
  ds_figures_add (&b.figures, "k2", "Other", "n", "m\tx", DS_COMPARE_TIME, FALSE, 1);
  b.column = 1;
  ds_figures_add (&b.figures, "k3", "Step \033[2J\n", "n3", "", DS_COMPARE_IOPS, TRUE, 1);
  ds_compare_builder_clear (&b);

  r = row_of (cmp, "k1");
  ck_assert_str_eq (r->section, "Step \\x1B[2J\\n");
  ck_assert_uint_eq (g_utf8_strlen (r->name, -1), 120);
  ck_assert (g_str_has_suffix (r->name, "n…"));
  ck_assert_str_eq (r->measure, "");
  r = row_of (cmp, "k2");
  ck_assert_str_eq (r->measure, "m\\tx");
  ck_assert (!r->higher_is_better);
  ck_assert_int_eq (r->unit, DS_COMPARE_TIME);
  keys = row_keys (cmp);
  ck_assert_str_eq (keys, "k1 k3 k2");
}
END_TEST

/* A note goes with its column's letter, on one line. */
START_TEST (test_notes)
{
  g_autoptr (DsComparison) cmp = comparison_new (3);
  DsCompareBuilder b;

  ds_compare_builder_init (&b, cmp);
  b.column = 2;
  ds_figures_note (&b.figures, "the drive is new\nsince A\033]0;x\007");
  b.column = 0;
  ds_figures_note (&b.figures, "first");
  ds_compare_builder_clear (&b);

  ck_assert_uint_eq (cmp->notes->len, 2);
  ck_assert_str_eq (cmp->notes->pdata[0], "C: the drive is new\\nsince A\\x1B]0;x\\x07");
  ck_assert_str_eq (cmp->notes->pdata[1], "A: first");
}
END_TEST

/* The better column: higher or lower as the row says; none with fewer
 * than two values, none when another is within 0.5 % of the best. */
START_TEST (test_best)
{
  struct {
    gboolean higher;
    double   v[3];
    int      best;
  } cases[] = {
    { TRUE, { 1, 2, 3 }, 2 },
    { FALSE, { 1, 2, 3 }, 0 },
    { TRUE, { 3, NAN, NAN }, -1 },
    { TRUE, { NAN, NAN, NAN }, -1 },
    { TRUE, { NAN, 5, 4 }, 1 },
    { TRUE, { 0, 0, NAN }, -1 },
    { TRUE, { 0, 1, NAN }, 1 },
    /* 0.5 % of the larger: 201 - 200 = 1 <= 1.005, a tie */
    { TRUE, { 200, 201, NAN }, -1 },
    { TRUE, { 200, 201.01, NAN }, 1 },
    { FALSE, { 200, 201, NAN }, -1 },
    { FALSE, { 200, 201.01, NAN }, 0 },
    /* A tie at the top marks nobody, whatever the third. */
    { TRUE, { 1000, 1004, 10 }, -1 },
    { TRUE, { 1000, 10, 1000 }, -1 },
    { FALSE, { 10, 1000, 10.04 }, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsComparison) cmp = comparison_new (3);
      DsCompareBuilder b;

      ds_compare_builder_init (&b, cmp);
      for (guint c = 0; c < 3; c++)
        {
          /* NAN: not measured there (the row is still made) */
          b.column = c;
          ds_figures_add (&b.figures, "k", "S", "n", "", DS_COMPARE_RATE, cases[i].higher, cases[i].v[c]);
        }
      ds_compare_builder_clear (&b);
      ds_compare_rows_find_best (cmp);
      ck_assert_msg (((DsCompareRow *) cmp->rows->pdata[0])->best == cases[i].best, "case %u: best %d, want %d",
                     i, ((DsCompareRow *) cmp->rows->pdata[0])->best, cases[i].best);
    }
}
END_TEST

/* ---- curves ------------------------------------------------------------- */

static const DsCurveAxes qd_axes = {
  .key = "iops", .title = "IOPS against queue depth", .x_name = "queue depth", .x_unit = DS_COMPARE_COUNT,
  .x_log = TRUE, .y_name = "IOPS", .y_unit = DS_COMPARE_IOPS, .dots = FALSE,
};

/* Each column's points and mark, on the axes of the first; a column
 * without the curve has none. */
START_TEST (test_curves)
{
  g_autoptr (DsComparison) cmp = comparison_new (3);
  const DsCurveXY a[] = { { 1, 100 }, { 2, 180 }, { 4, NAN } };
  const DsCurveXY c[] = { { 1, 90 }, { 2, 150 } };
  const DsCurveXY c2[] = { { 8, 1 } };
  const DsCurveAxes dots = { .key = "lat", .title = "t", .x_name = "x", .x_unit = DS_COMPARE_BYTES,
                             .y_name = "y", .y_unit = DS_COMPARE_TIME, .dots = TRUE };
  const DsCompareCurve *curve;
  DsCompareBuilder b;

  ds_compare_builder_init (&b, cmp);
  b.column = 0;
  ds_curves_add (&b.curves, &qd_axes, a, G_N_ELEMENTS (a), 2, "knee");
  b.column = 2;
  ds_curves_add (&b.curves, &qd_axes, c, G_N_ELEMENTS (c), NAN, NULL);
  ds_curves_add (&b.curves, &dots, c2, 1, NAN, NULL);
  ck_assert_ptr_null (b.error);
  ds_compare_builder_clear (&b);

  ck_assert_uint_eq (cmp->curves->len, 2);
  curve = ds_comparison_find_curve (cmp, "iops");
  ck_assert_ptr_eq (curve, cmp->curves->pdata[0]);
  ck_assert_str_eq (curve->title, "IOPS against queue depth");
  ck_assert_str_eq (curve->x_name, "queue depth");
  ck_assert_str_eq (curve->y_name, "IOPS");
  ck_assert_int_eq (curve->x_unit, DS_COMPARE_COUNT);
  ck_assert_int_eq (curve->y_unit, DS_COMPARE_IOPS);
  ck_assert (curve->x_log && !curve->dots);
  ck_assert_uint_eq (curve->points[0]->len, 3);
  ck_assert_double_eq (g_array_index (curve->points[0], DsCurveXY, 1).y, 180);
  ck_assert (isnan (g_array_index (curve->points[0], DsCurveXY, 2).y));
  ck_assert_ptr_null (curve->points[1]);
  ck_assert_uint_eq (curve->points[2]->len, 2);
  ck_assert_double_eq (curve->mark_x[0], 2);
  ck_assert_str_eq (curve->mark_label[0], "knee");
  ck_assert (isnan (curve->mark_x[1]) && curve->mark_label[1] == NULL);
  ck_assert (isnan (curve->mark_x[2]) && curve->mark_label[2] == NULL);

  curve = ds_comparison_find_curve (cmp, "lat");
  ck_assert_ptr_eq (curve, cmp->curves->pdata[1]);
  ck_assert (curve->dots && !curve->x_log);
  ck_assert_ptr_null (curve->points[0]);
  ck_assert_uint_eq (curve->points[2]->len, 1);
  ck_assert_ptr_null (ds_comparison_find_curve (cmp, "none"));

}
END_TEST

/* The same builder given a column's curve twice keeps the last. */
START_TEST (test_curve_replaced)
{
  g_autoptr (DsComparison) cmp = comparison_new (2);
  const DsCurveXY a[] = { { 1, 100 }, { 2, 180 }, { 4, 190 } };
  const DsCurveXY a2[] = { { 1, 1 } };
  const DsCompareCurve *curve;
  DsCompareBuilder b;

  ds_compare_builder_init (&b, cmp);
  b.column = 1;
  ds_curves_add (&b.curves, &qd_axes, a, G_N_ELEMENTS (a), 4, "knee");
  ds_curves_add (&b.curves, &qd_axes, a2, 1, NAN, NULL);
  ds_compare_builder_clear (&b);

  ck_assert_uint_eq (cmp->curves->len, 1);
  curve = cmp->curves->pdata[0];
  ck_assert_uint_eq (curve->points[1]->len, 1);
  ck_assert_double_eq (g_array_index (curve->points[1], DsCurveXY, 0).y, 1);
  ck_assert (isnan (curve->mark_x[1]));
  ck_assert_ptr_null (curve->mark_label[1]);
}
END_TEST

/* Curves of one key on other axes (names or units): refused, naming the
 * first column that has the curve and the one that differs; the first
 * refusal is the one kept, and the refused points are not taken. */
START_TEST (test_curve_axes_refused)
{
  const DsCurveXY p[] = { { 1, 1 } };
  const DsCurveAxes threads = { .key = "iops", .title = "IOPS against threads", .x_name = "threads",
                                .x_unit = DS_COMPARE_COUNT, .y_name = "IOPS", .y_unit = DS_COMPARE_IOPS };
  const DsCurveAxes other_unit = { .key = "iops", .title = "t", .x_name = "queue depth",
                                   .x_unit = DS_COMPARE_BYTES, .y_name = "IOPS", .y_unit = DS_COMPARE_IOPS };
  const DsCurveAxes other_y = { .key = "iops", .title = "t", .x_name = "queue depth",
                                .x_unit = DS_COMPARE_COUNT, .y_name = "p99", .y_unit = DS_COMPARE_TIME };

  {
    g_autoptr (DsComparison) cmp = comparison_new (4);
    DsCompareBuilder b;

    ds_compare_builder_init (&b, cmp);
    b.column = 1;
    ds_curves_add (&b.curves, &qd_axes, p, 1, NAN, NULL);
    b.column = 3;
    ds_curves_add (&b.curves, &threads, p, 1, NAN, NULL);
    b.column = 2;
    ds_curves_add (&b.curves, &other_y, p, 1, NAN, NULL);
    ck_assert (g_error_matches (b.error, DS_ERROR, DS_ERROR_INVALID));
    ck_assert_str_eq (b.error->message,
                      "B's IOPS is against queue depth and D's against threads: curves that share no axis "
                      "cannot be overlaid, so these results do not compare (compare runs that varied the "
                      "same thing)");
    ck_assert_ptr_null (((DsCompareCurve *) cmp->curves->pdata[0])->points[3]);
    ds_compare_builder_clear (&b);
    ck_assert_ptr_null (b.error);
  }
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (DsComparison) cmp = comparison_new (2);
      DsCompareBuilder b;

      ds_compare_builder_init (&b, cmp);
      b.column = 0;
      ds_curves_add (&b.curves, &qd_axes, p, 1, NAN, NULL);
      b.column = 1;
      ds_curves_add (&b.curves, i == 0 ? &other_unit : &other_y, p, 1, NAN, NULL);
      ck_assert_msg (b.error != NULL, "case %u passed", i);
      ck_assert_msg (g_str_has_prefix (b.error->message, "A's IOPS is against queue depth and B's against queue depth:"),
                     "%s", b.error->message);
      ds_compare_builder_clear (&b);
    }
}
END_TEST

/* ---- results ------------------------------------------------------------ */

/* A result without data or of no kind adds nothing; a workload adds its
 * figures in its column. */
START_TEST (test_add_result)
{
  g_autoptr (DsResult) w = ds_test_library_workload ("Disk", DS_PATTERN_RANDREAD, 4e8, 1e-4,
                                                    "2020-01-01T00:00:00Z");
  g_autoptr (DsComparison) cmp = comparison_new (3);
  DsCompareBuilder b;
  gpointer data = w->data;
  DsBenchKind kind = w->kind;

  ds_compare_builder_init (&b, cmp);
  w->data = NULL;
  ds_compare_builder_add_result (&b, 0, w);
  w->data = data;
  ck_assert_uint_eq (cmp->rows->len, 0);
  w->kind = DS_BENCH_N_KINDS;
  ds_compare_builder_add_result (&b, 1, w);
  w->kind = kind;
  ck_assert_uint_eq (cmp->rows->len, 0);
  ck_assert_uint_eq (b.column, 1);

  ds_compare_builder_add_result (&b, 2, w);
  ds_compare_builder_clear (&b);
  ck_assert_uint_gt (cmp->rows->len, 0);
  ck_assert_double_eq (row_of (cmp, "read.bandwidth")->values[2], 4e8);
  ck_assert (isnan (row_of (cmp, "read.bandwidth")->values[0]));
  ck_assert (isnan (row_of (cmp, "read.bandwidth")->values[1]));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("compare-build");
  TCase *tc = tcase_create ("rows");
  TCase *tc_curves = tcase_create ("curves");

  tcase_add_test (tc, test_rows_order);
  tcase_add_test (tc, test_values);
  tcase_add_test (tc, test_names_escaped);
  tcase_add_test (tc, test_notes);
  tcase_add_test (tc, test_best);
  tcase_add_test (tc, test_add_result);
  suite_add_tcase (s, tc);
  tcase_add_test (tc_curves, test_curves);
  tcase_add_test (tc_curves, test_curve_replaced);
  tcase_add_test (tc_curves, test_curve_axes_refused);
  suite_add_tcase (s, tc_curves);

  return ds_test_run_suite (s);
}
