/* test-stats.c: Welford statistics against a two-pass reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-buffer.h"
#include "ds-stats.h"
#include "ds-test-util.h"

START_TEST (test_against_two_pass)
{
  enum { N = 100000 };
  g_autofree uint64_t *values = g_new (uint64_t, N);
  DsStats s;
  DsRng rng;
  double sum = 0, mean, m2 = 0;
  uint64_t min = UINT64_MAX, max = 0;

  ds_rng_seed (&rng, 7);
  ds_stats_init (&s);
  for (unsigned i = 0; i < N; i++)
    {
      /* Latency-like: 1e9 offset tests numerical stability. */
      values[i] = UINT64_C (1000000000) + ds_rng_below (&rng, 100000);
      ds_stats_add (&s, values[i]);
      sum += (double) values[i];
      min = MIN (min, values[i]);
      max = MAX (max, values[i]);
    }
  mean = sum / N;
  for (unsigned i = 0; i < N; i++)
    m2 += ((double) values[i] - mean) * ((double) values[i] - mean);

  ck_assert_uint_eq (s.n, N);
  ck_assert_uint_eq (s.min, min);
  ck_assert_uint_eq (s.max, max);
  ck_assert_double_eq_tol (s.mean, mean, 1e-3);
  ck_assert_double_eq_tol (ds_stats_stddev (&s), sqrt (m2 / (N - 1)), 1e-3);
}
END_TEST

START_TEST (test_merge_equals_single)
{
  DsStats all, a, b;
  DsRng rng;

  ds_rng_seed (&rng, 9);
  ds_stats_init (&all);
  ds_stats_init (&a);
  ds_stats_init (&b);
  for (unsigned i = 0; i < 5000; i++)
    {
      uint64_t v = ds_rng_below (&rng, 1000000);
      ds_stats_add (&all, v);
      ds_stats_add (i % 3 ? &a : &b, v);
    }
  ds_stats_merge (&a, &b);
  ck_assert_uint_eq (a.n, all.n);
  ck_assert_uint_eq (a.min, all.min);
  ck_assert_uint_eq (a.max, all.max);
  ck_assert_double_eq_tol (a.mean, all.mean, 1e-6);
  ck_assert_double_eq_tol (ds_stats_stddev (&a), ds_stats_stddev (&all), 1e-6);
}
END_TEST

START_TEST (test_empty_and_one)
{
  DsStats s, empty;

  ds_stats_init (&s);
  ds_stats_init (&empty);
  ck_assert_double_eq (ds_stats_stddev (&s), 0);
  ds_stats_add (&s, 42);
  ds_stats_merge (&s, &empty);
  ck_assert_uint_eq (s.n, 1);
  ck_assert_double_eq (s.mean, 42);
  ck_assert_double_eq (ds_stats_stddev (&s), 0);
  ds_stats_merge (&empty, &s);
  ck_assert_uint_eq (empty.min, 42);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("stats");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_against_two_pass);
  tcase_add_test (tc, test_merge_equals_single);
  tcase_add_test (tc, test_empty_and_one);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
