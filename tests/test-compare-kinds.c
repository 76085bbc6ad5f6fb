/* test-compare-kinds.c: each kind's comparison hooks and fio refusals, on
 * results made in memory (no device, no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-error-scan.h"
#include "ds-bench-health.h"
#include "ds-bench-sweep.h"
#include "ds-compare.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static const DsCompareRow *
find_row (const DsComparison *cmp,
          const char         *key)
{
  for (guint i = 0; i < cmp->rows->len; i++)
    if (strcmp (((DsCompareRow *) cmp->rows->pdata[i])->key, key) == 0)
      return cmp->rows->pdata[i];
  return NULL;
}

static gboolean
has_note (const DsComparison *cmp,
          const char         *part)
{
  for (guint i = 0; i < cmp->notes->len; i++)
    if (strstr (cmp->notes->pdata[i], part) != NULL)
      return TRUE;
  return FALSE;
}

/* A sweep over @levels (queue depth, or threads), IOPS growing to a knee
 * at the third level. */
static DsResult *
sweep_result (gboolean       over_threads,
              const unsigned *levels,
              guint          n,
              double         scale)
{
  DsResult *r = ds_test_result_new (DS_BENCH_SWEEP, "/dev/sdx", FALSE);
  DsSweepData *data = r->data;

  data->over_threads = over_threads;
  data->step_time_s = 2;
  for (guint i = 0; i < n; i++)
    {
      DsSweepStep step = {
        .queue_depth = over_threads ? 1 : levels[i],
        .threads = over_threads ? levels[i] : 1,
        .outstanding = levels[i],
        .complete = TRUE,
        .runtime_s = 2,
        .ios = 1000,
        .iops = scale * 1000 * MIN (levels[i], 4u),
        .lat_p99_s = 0.001 * levels[i],
        .lat_mean_s = 0.0005 * levels[i],
      };

      g_array_append_val (data->levels, levels[i]);
      g_array_append_val (data->steps, step);
    }
  ds_sweep_update_knee (data);
  r->complete = TRUE;
  return r;
}

START_TEST (test_sweep_levels_and_curves)
{
  static const unsigned la[] = { 1, 2, 4, 8, 16 };
  static const unsigned lb[] = { 1, 2, 4 };
  g_autoptr (DsResult) a = sweep_result (FALSE, la, G_N_ELEMENTS (la), 1.0);
  g_autoptr (DsResult) b = sweep_result (FALSE, lb, G_N_ELEMENTS (lb), 2.0);
  DsResult *pair[2] = { a, b };
  g_autoptr (GError) error = NULL;
  g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, &error);
  const DsCompareRow *qd4, *qd16;
  const DsCompareCurve *iops;

  ck_assert_msg (cmp != NULL, "%s", error ? error->message : "");
  /* Levels line up by value; B has no QD 16. */
  qd4 = find_row (cmp, "qd4.iops");
  qd16 = find_row (cmp, "qd16.iops");
  ck_assert (qd4 != NULL && qd16 != NULL);
  ck_assert_double_eq_tol (qd4->values[0], 4000, 1e-9);
  ck_assert_double_eq_tol (qd4->values[1], 8000, 1e-9);
  ck_assert_double_eq_tol (ds_compare_row_ratio (qd4, 1), 2.0, 1e-9);
  ck_assert (isnan (qd16->values[1]));
  ck_assert_int_eq (qd4->best, 1);
  /* IOPS and p99 against the queue depth, overlaid, knees marked. */
  iops = ds_comparison_find_curve (cmp, "iops");
  ck_assert (iops != NULL && ds_comparison_find_curve (cmp, "lat_p99") != NULL);
  ck_assert_str_eq (iops->x_name, "queue depth");
  ck_assert_uint_eq (iops->points[0]->len, 5);
  ck_assert_uint_eq (iops->points[1]->len, 3);
  ck_assert (!isnan (iops->mark_x[0]));
  ck_assert_msg (find_row (cmp, "knee.level") != NULL, "no knee row");
}
END_TEST

START_TEST (test_sweep_axes_refused)
{
  static const unsigned l[] = { 1, 2, 4 };
  g_autoptr (DsResult) a = sweep_result (FALSE, l, 3, 1.0);
  g_autoptr (DsResult) b = sweep_result (TRUE, l, 3, 1.0);
  DsResult *pair[2] = { a, b };
  g_autoptr (GError) error = NULL;
  g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, &error);

  ck_assert (cmp == NULL);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "queue depth") != NULL && strstr (error->message, "threads") != NULL &&
                 strstr (error->message, "share no axis") != NULL, "%s", error->message);
}
END_TEST

static DsResult *
scan_result (const uint64_t *bad,
             guint           n_bad)
{
  DsResult *r = ds_test_result_new (DS_BENCH_ERROR_SCAN, "/dev/sdx", FALSE);
  DsScanData *data = r->data;

  data->blocks_read = 1000;
  data->bytes_read = 1000 * 131072;
  data->elapsed_ns = 1000000000;
  data->buckets[0] = 990;
  data->buckets[5] = 10 - n_bad;
  for (guint i = 0; i < n_bad; i++)
    ds_range_list_add (&data->bad, bad[i], 4096);
  data->error_blocks = n_bad;
  r->complete = TRUE;
  return r;
}

START_TEST (test_scan_twice_shows_what_is_new)
{
  static const uint64_t first[] = { 1 << 20 };
  static const uint64_t second[] = { 1 << 20, 5 << 20 };
  g_autoptr (DsResult) a = scan_result (first, 1);
  g_autoptr (DsResult) b = scan_result (second, 2);
  DsResult *pair[2] = { a, b };
  g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, NULL);
  const DsCompareRow *old_range, *new_range, *ranges;
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;

  ck_assert (cmp != NULL);
  old_range = find_row (cmp, "bad.1048576");
  new_range = find_row (cmp, "bad.5242880");
  ranges = find_row (cmp, "bad_ranges");
  ck_assert (old_range != NULL && new_range != NULL && ranges != NULL);
  ck_assert_double_eq_tol (old_range->values[0], 4096, 1e-9);
  ck_assert (isnan (new_range->values[0]));           /* new in B */
  ck_assert_double_eq_tol (new_range->values[1], 4096, 1e-9);
  ck_assert_double_eq_tol (ds_compare_row_ratio (ranges, 1), 2.0, 1e-9);

  job = ds_fio_job_from_result (a, "/dev/null", &error);
  ck_assert (job == NULL);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_msg (strstr (error->message, "cannot be expressed as a fio job, because") != NULL, "%s",
                 error->message);
}
END_TEST

START_TEST (test_health_same_drive)
{
  g_autofree char *f1 = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_11.json", NULL);
  g_autofree char *f2 = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_12.json", NULL);
  g_autofree char *f3 = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "WDC_WD20EFRX-68EUZN0_17.json", NULL);
  g_autoptr (DsResult) a = ds_health_result_from_file (f1, NULL);
  g_autoptr (DsResult) b = ds_health_result_from_file (f2, NULL);
  g_autoptr (DsResult) c = ds_health_result_from_file (f3, NULL);
  DsResult *same[2] = { a, b };
  DsResult *other[2] = { a, c };
  g_autoptr (DsComparison) s = NULL;
  g_autoptr (DsComparison) o = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;
  const DsCompareRow *realloc;

  ck_assert (a != NULL && b != NULL && c != NULL);
  s = ds_comparison_new (same, NULL, 2, NULL);
  o = ds_comparison_new (other, NULL, 2, NULL);
  ck_assert (s != NULL && o != NULL);
  /* Reallocated sectors: 1 then 304, by how much it changed. */
  realloc = find_row (s, "ata.5.raw");
  ck_assert (realloc != NULL);
  ck_assert_double_eq_tol (ds_compare_row_ratio (realloc, 1), 304.0, 1e-9);
  ck_assert (has_note (s, "the same drive"));
  ck_assert (has_note (o, "different drives"));

  job = ds_fio_job_from_result (a, "/dev/null", &error);
  ck_assert (job == NULL && g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("compare-kinds");
  s = suite_create ("compare-kinds");
  tc = tcase_create ("core");
  tcase_add_test (tc, test_sweep_levels_and_curves);
  tcase_add_test (tc, test_sweep_axes_refused);
  tcase_add_test (tc, test_scan_twice_shows_what_is_new);
  tcase_add_test (tc, test_health_same_drive);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
