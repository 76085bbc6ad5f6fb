/* test-histogram.c: bucket bounds and percentiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-buffer.h"
#include "ds-histogram.h"
#include "ds-test-util.h"

/* Every value maps to a bucket whose range holds it, and the bucket's
 * reported value is within 1 % of it. */
START_TEST (test_bucket_error_bound)
{
  DsRng rng;
  double worst = 0;

  ds_rng_seed (&rng, 42);
  for (unsigned i = 0; i < 400000; i++)
    {
      /* Log-uniform over 1 ns .. 2^40 ns. */
      unsigned shift = (unsigned) ds_rng_below (&rng, 40);
      uint64_t v = (UINT64_C (1) << shift) + ds_rng_below (&rng, UINT64_C (1) << shift);
      unsigned idx = ds_histogram_bucket_index (v);
      uint64_t lo, hi, rep;
      double err;

      ds_histogram_bucket_range (idx, &lo, &hi);
      ck_assert_uint_le (lo, v);
      ck_assert_uint_lt (v, hi);
      rep = ds_histogram_bucket_value (idx);
      err = fabs ((double) rep - (double) v) / (double) v;
      if (err > worst)
        worst = err;
    }
  ck_assert_msg (worst < 0.01, "worst relative error %.4f %%", worst * 100);
  /* The documented bound: half a bucket, 1/128. */
  ck_assert_msg (worst <= 1.0 / 128 + 1e-9, "worst relative error %.5f above 1/128", worst);
}
END_TEST

START_TEST (test_buckets_contiguous)
{
  uint64_t prev_hi = 0;

  for (unsigned i = 0; i < DS_HIST_BUCKETS; i++)
    {
      uint64_t lo, hi;

      ds_histogram_bucket_range (i, &lo, &hi);
      ck_assert_uint_eq (lo, prev_hi);
      ck_assert_uint_gt (hi, lo);
      ck_assert_uint_eq (ds_histogram_bucket_index (lo), i);
      ck_assert_uint_eq (ds_histogram_bucket_index (hi - 1), i);
      prev_hi = hi;
    }
  /* Beyond the range: the last bucket, not out of bounds. */
  ck_assert_uint_eq (ds_histogram_bucket_index (UINT64_MAX), DS_HIST_BUCKETS - 1);
}
END_TEST

START_TEST (test_small_values_exact)
{
  for (uint64_t v = 0; v < DS_HIST_VAL * 2; v++)
    ck_assert_uint_eq (ds_histogram_bucket_value (ds_histogram_bucket_index (v)), v);
}
END_TEST

START_TEST (test_percentiles_uniform)
{
  g_autofree DsHistogram *h = g_new0 (DsHistogram, 1);

  /* 1..100000 µs: the p-th percentile is p × 1000 µs. */
  for (uint64_t v = 1; v <= 100000; v++)
    ds_histogram_add (h, v * 1000);
  ck_assert_uint_eq (h->count, 100000);

  const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };
  for (unsigned i = 0; i < G_N_ELEMENTS (ps); i++)
    {
      double want = ps[i] * 1000 * 1000;
      double got = (double) ds_histogram_percentile (h, ps[i]);
      ck_assert_msg (fabs (got - want) / want < 0.01, "p%g: %g vs %g", ps[i], got, want);
    }
  ck_assert_uint_le (ds_histogram_percentile (h, 0), 1000 * 1.01);
  ck_assert_uint_ge (ds_histogram_percentile (h, 100), 100000 * 1000 * 0.99);
}
END_TEST

START_TEST (test_empty_and_merge)
{
  g_autofree DsHistogram *a = g_new0 (DsHistogram, 1);
  g_autofree DsHistogram *b = g_new0 (DsHistogram, 1);

  ck_assert_uint_eq (ds_histogram_percentile (a, 50), 0);
  for (unsigned i = 0; i < 100; i++)
    ds_histogram_add (a, 1000);
  for (unsigned i = 0; i < 100; i++)
    ds_histogram_add (b, 1000000);
  ds_histogram_merge (a, b);
  ck_assert_uint_eq (a->count, 200);
  /* Within the bucket's error: 1000 is reported as its bucket's middle. */
  ck_assert_uint_le (ds_histogram_percentile (a, 50), 1010);
  ck_assert_uint_ge (ds_histogram_percentile (a, 50), 1000);
  ck_assert_uint_ge (ds_histogram_percentile (a, 51), 990000);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("histogram");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_bucket_error_bound);
  tcase_add_test (tc, test_buckets_contiguous);
  tcase_add_test (tc, test_small_values_exact);
  tcase_add_test (tc, test_percentiles_uniform);
  tcase_add_test (tc, test_empty_and_merge);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
