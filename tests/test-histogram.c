/* test-histogram.c: bucket bounds and percentiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ds-buffer.h"
#include "ds-histogram.h"
#include "ds-interval.h"
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

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  uint64_t x = *(const uint64_t *) a;
  uint64_t y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

/* A synthetic run's latencies (ns): a body of cache and flash hits (5 µs ..
 * 200 µs, skewed low), 2 % of slow I/Os at 1 .. 5 ms and 0.05 % stalls near
 * 40 ms: the shape that makes p99 and p99.99 differ from the mean. */
static uint64_t *
synthetic_latencies (unsigned n)
{
  uint64_t *raw = g_new (uint64_t, n);
  DsRng rng;

  ds_rng_seed (&rng, 20240611);
  for (unsigned i = 0; i < n; i++)
    {
      uint64_t pick = ds_rng_below (&rng, 10000);

      if (pick < 5)
        raw[i] = 38000000 + ds_rng_below (&rng, 4000000);
      else if (pick < 205)
        raw[i] = 1000000 + ds_rng_below (&rng, 4000000);
      else
        raw[i] = 5000 + ds_rng_below (&rng, 14000) * ds_rng_below (&rng, 14000) / 1000;
    }

  return raw;
}

/* The histogram's percentiles equal the nearest-rank percentiles of the
 * raw per-I/O latencies within one bucket width: the run's histogram (6
 * bits) and the series' (5 bits) alike. */
START_TEST (test_percentiles_match_raw_latencies)
{
  const unsigned n = 200000;
  g_autofree uint64_t *raw = synthetic_latencies (n);
  g_autofree DsHistogram *h = g_new0 (DsHistogram, 1);
  g_autofree DsIntervalHist *ih = g_new0 (DsIntervalHist, 1);
  g_autofree DsIntervalSum *sum = g_new0 (DsIntervalSum, 1);
  const double ps[] = { 50, 90, 99, 99.9, 99.99 };

  for (unsigned i = 0; i < n; i++)
    {
      ds_histogram_add (h, raw[i]);
      ds_interval_hist_add (ih, raw[i], 4096);
    }
  ds_interval_sum_add (sum, ih);
  ck_assert_uint_eq (sum->ios, n);
  ck_assert_uint_eq (sum->bytes, (uint64_t) n * 4096);
  qsort (raw, n, sizeof *raw, compare_u64);

  for (unsigned i = 0; i < G_N_ELEMENTS (ps); i++)
    {
      uint64_t rank = (uint64_t) (ps[i] / 100.0 * n + 0.5);
      uint64_t want = raw[rank - 1];
      uint64_t got6 = ds_histogram_percentile (h, ps[i]);
      uint64_t got5 = ds_log_buckets_percentile (sum->buckets, DS_INTERVAL_HIST_BUCKETS,
                                                 DS_INTERVAL_HIST_BITS, sum->ios, ps[i]);
      uint64_t lo, hi;
      double diff6 = fabs ((double) got6 - (double) want);
      double diff5 = fabs ((double) got5 - (double) want);

      ds_histogram_bucket_range (ds_histogram_bucket_index (want), &lo, &hi);
      ck_assert_msg (diff6 <= (double) (hi - lo),
                     "p%g: histogram %" G_GUINT64_FORMAT " ns, raw %" G_GUINT64_FORMAT
                     " ns, more than one bucket (%" G_GUINT64_FORMAT " ns) apart",
                     ps[i], got6, want, hi - lo);
      ds_log_bucket_range (ds_log_bucket_index (want, DS_INTERVAL_HIST_BITS, DS_INTERVAL_HIST_BUCKETS),
                           DS_INTERVAL_HIST_BITS, &lo, &hi);
      ck_assert_msg (diff5 <= (double) (hi - lo),
                     "p%g: interval histogram %" G_GUINT64_FORMAT " ns, raw %" G_GUINT64_FORMAT
                     " ns, more than one bucket (%" G_GUINT64_FORMAT " ns) apart",
                     ps[i], got5, want, hi - lo);
    }
  /* The tail is really there: p99.99 is a stall, p99 a slow I/O. */
  ck_assert_uint_ge (ds_histogram_percentile (h, 99.99), 30000000);
  ck_assert_uint_ge (ds_histogram_percentile (h, 99), 1000000);
  ck_assert_uint_le (ds_histogram_percentile (h, 50), 200000);
}
END_TEST

/* The 5-bit scheme's buckets tile the range as the 6-bit one's do, with
 * the documented 1.6 % bound. */
START_TEST (test_interval_buckets)
{
  uint64_t prev_hi = 0;
  double worst = 0;

  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    {
      uint64_t lo, hi, mid;

      ds_log_bucket_range (i, DS_INTERVAL_HIST_BITS, &lo, &hi);
      ck_assert_uint_eq (lo, prev_hi);
      ck_assert_uint_eq (ds_log_bucket_index (lo, DS_INTERVAL_HIST_BITS, DS_INTERVAL_HIST_BUCKETS), i);
      ck_assert_uint_eq (ds_log_bucket_index (hi - 1, DS_INTERVAL_HIST_BITS, DS_INTERVAL_HIST_BUCKETS), i);
      mid = hi - lo == 1 ? lo : lo + (hi - lo) / 2;
      if (lo > 0)
        worst = MAX (worst, (double) (mid - lo) / (double) lo);
      prev_hi = hi;
    }
  /* 2^40 ns, 18 minutes, is covered. */
  ck_assert_uint_ge (prev_hi, UINT64_C (1) << 40);
  ck_assert_msg (worst <= 1.0 / 64 + 1e-9, "worst error %.4f", worst);
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
  tcase_add_test (tc, test_percentiles_match_raw_latencies);
  tcase_add_test (tc, test_interval_buckets);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
