/* test-fio-log-agg.c: the intervals fio's logs are counted into
 * (core/fio/ds-fio-log-agg.c): rates over each interval, exact nearest-rank
 * percentiles, adjacent intervals merged past DS_LIMIT_SERIES_POINTS, and
 * the figures no device gives refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-limits.h"
#include "ds-test-util.h"

static void
add (DsFioLogAgg *agg,
     uint64_t     k_window,
     int          d,
     double       bytes,
     double       latency_ns)
{
  DsFioLogBucket *b = ds_fio_log_agg_bucket (agg, k_window);
  float ns = (float) latency_ns;

  b->bytes[d] += bytes;
  b->ios[d] += 1;
  if (latency_ns < 0)
    return;
  if (b->lat[d] == NULL)
    b->lat[d] = g_array_new (FALSE, FALSE, sizeof (float));
  g_array_append_val (b->lat[d], ns);
}

static GArray *
points_ok (DsFioLogAgg *agg)
{
  g_autoptr (GError) error = NULL;
  GArray *points = ds_fio_log_agg_points (agg, &error);

  ck_assert_msg (points != NULL, "%s", error ? error->message : "");
  return points;
}

#define POINT(a, i) (&g_array_index ((a), DsFioLogPoint, (i)))

/* Windows of 250 ms filled out of order (times that go back, windows
 * without I/O): one point per window with I/O, in time order, stamped at
 * its end, its rates over 250 ms; no latencies, no percentiles. */
START_TEST (test_rates_and_order)
{
  DsFioLogAgg agg;
  g_autoptr (GArray) points = NULL;

  ds_fio_log_agg_init (&agg, 250);
  add (&agg, 5, 0, 4096, -1);
  add (&agg, 0, 1, 8192, -1);
  add (&agg, 5, 0, 4096, -1);
  add (&agg, 2, 0, 65536, -1);
  add (&agg, 0, 0, 512, -1);
  points = points_ok (&agg);
  ds_fio_log_agg_clear (&agg);
  ds_fio_log_agg_clear (&agg);   /* twice: nothing left to free */

  ck_assert_uint_eq (points->len, 3);
  ck_assert_double_eq (POINT (points, 0)->t_s, 0.25);
  ck_assert_double_eq (POINT (points, 0)->read.bytes_per_s, 512 / 0.25);
  ck_assert_double_eq (POINT (points, 0)->read.iops, 4);
  ck_assert_double_eq (POINT (points, 0)->write.bytes_per_s, 8192 / 0.25);
  ck_assert_double_eq (POINT (points, 0)->write.iops, 4);
  ck_assert_double_eq (POINT (points, 1)->t_s, 0.75);
  ck_assert_double_eq (POINT (points, 1)->read.bytes_per_s, 65536 / 0.25);
  ck_assert_double_eq (POINT (points, 1)->write.iops, 0);
  ck_assert_double_eq (POINT (points, 2)->t_s, 1.5);
  ck_assert_double_eq (POINT (points, 2)->read.bytes_per_s, 8192 / 0.25);
  ck_assert_double_eq (POINT (points, 2)->read.iops, 8);
  for (guint i = 0; i < points->len; i++)
    {
      ck_assert_double_eq (POINT (points, i)->read.p50_s, 0);
      ck_assert_double_eq (POINT (points, i)->write.p99_s, 0);
    }

  /* Nothing logged: no points, no error. */
  ds_fio_log_agg_init (&agg, 1000);
  g_clear_pointer (&points, g_array_unref);
  points = points_ok (&agg);
  ck_assert_uint_eq (points->len, 0);
  ds_fio_log_agg_clear (&agg);
}
END_TEST

/* The smallest latency with at least 50 % (99 %) of the interval's at or
 * below it, per direction: 1..100 ns shuffled gives 50 and 99; three give
 * the 2nd and 3rd; one gives itself for both. */
START_TEST (test_percentiles_nearest_rank)
{
  DsFioLogAgg agg;
  g_autoptr (GArray) points = NULL;
  GRand *rand = g_rand_new_with_seed (22);
  guint order[100];

  for (guint i = 0; i < 100; i++)
    order[i] = i + 1;
  for (guint i = 99; i > 0; i--)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1), t = order[i];

      order[i] = order[j];
      order[j] = t;
    }
  g_rand_free (rand);

  ds_fio_log_agg_init (&agg, 1000);
  for (guint i = 0; i < 100; i++)
    add (&agg, 0, 0, 4096, order[i]);
  add (&agg, 0, 1, 4096, 30);
  add (&agg, 0, 1, 4096, 10);
  add (&agg, 0, 1, 4096, 20);
  add (&agg, 1, 0, 4096, 7777);
  points = points_ok (&agg);
  ds_fio_log_agg_clear (&agg);

  ck_assert_uint_eq (points->len, 2);
  ck_assert_double_eq (POINT (points, 0)->read.p50_s, 50e-9);
  ck_assert_double_eq (POINT (points, 0)->read.p99_s, 99e-9);
  ck_assert_double_eq (POINT (points, 0)->write.p50_s, 20e-9);
  ck_assert_double_eq (POINT (points, 0)->write.p99_s, 30e-9);
  ck_assert_double_eq (POINT (points, 1)->read.p50_s, 7777e-9);
  ck_assert_double_eq (POINT (points, 1)->read.p99_s, 7777e-9);
  ck_assert_double_eq (POINT (points, 1)->write.p50_s, 0);
}
END_TEST

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* A real per-I/O latency log (tests/fixtures/fio-logs/raw_lat.1.log, fio
 * 3.33, a 2 s randrw run) counted into 1 s windows, against what this
 * test counts itself from the file: per second and direction the I/Os,
 * their bytes, and the nearest-rank percentiles of their latencies. */
START_TEST (test_real_log_by_hand)
{
  g_autofree char *path = g_build_filename (DS_TEST_FIXTURES_DIR, "fio-logs", "raw_lat.1.log", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) points = NULL;
  GArray *lat[3][2] = { { NULL } };   /* by second and direction, as doubles */
  double bytes[3][2] = { { 0 } };
  guint n = 0;
  DsFioLogAgg agg;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  ds_fio_log_agg_init (&agg, 1000);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long t_ms, ddir, bs;
      double ns;

      if (*lines[i] == '\0')
        continue;
      ck_assert_int_eq (sscanf (lines[i], "%lu, %lf, %lu, %lu", &t_ms, &ns, &ddir, &bs), 4);
      ck_assert (t_ms / 1000 < 3 && ddir < 2);
      add (&agg, t_ms / 1000, (int) ddir, (double) bs, ns);
      if (lat[t_ms / 1000][ddir] == NULL)
        lat[t_ms / 1000][ddir] = g_array_new (FALSE, FALSE, sizeof (double));
      g_array_append_val (lat[t_ms / 1000][ddir], ns);
      bytes[t_ms / 1000][ddir] += (double) bs;
      n++;
    }
  ck_assert_uint_eq (n, 3139);
  points = points_ok (&agg);
  ds_fio_log_agg_clear (&agg);

  ck_assert_uint_eq (points->len, 3);
  for (guint s = 0; s < 3; s++)
    for (int d = 0; d < 2; d++)
      {
        const DsFioLogDir *got = d ? &POINT (points, s)->write : &POINT (points, s)->read;
        GArray *l = lat[s][d];
        double p50 = 0, p99 = 0;

        if (l != NULL)
          {
            g_array_sort (l, compare_doubles);
            p50 = g_array_index (l, double, (guint) ceil (0.50 * l->len) - 1) / 1e9;
            p99 = g_array_index (l, double, (guint) ceil (0.99 * l->len) - 1) / 1e9;
          }
        ck_assert_double_eq (POINT (points, s)->t_s, s + 1.0);
        ck_assert_double_eq (got->iops, l ? l->len : 0);
        ck_assert_double_eq (got->bytes_per_s, bytes[s][d]);
        /* Kept as floats: 24 bits, 6e-8 of the value. */
        ck_assert_double_eq_tol (got->p50_s, p50, p50 * 1e-7 + 1e-15);
        ck_assert_double_eq_tol (got->p99_s, p99, p99 * 1e-7 + 1e-15);
        if (l != NULL)
          g_array_unref (l);
      }
  /* The second that holds most (1 s .. 2 s): reads and writes both. */
  ck_assert_double_gt (POINT (points, 1)->read.iops, 1000);
  ck_assert_double_gt (POINT (points, 1)->write.p99_s, POINT (points, 1)->write.p50_s);
}
END_TEST

/* Past DS_LIMIT_SERIES_POINTS windows, the next new one first merges
 * adjacent intervals two by two: bytes and I/Os summed over twice the
 * time, latencies pooled (percentiles over both halves' I/Os), and later
 * windows fall into the merged intervals. */
START_TEST (test_merged_past_the_limit)
{
  const guint64 n = DS_LIMIT_SERIES_POINTS;
  DsFioLogAgg agg;
  g_autoptr (GArray) points = NULL;
  DsFioLogBucket *b;
  double total = 0, sum = 0;

  ds_fio_log_agg_init (&agg, 1000);
  for (guint64 k = 0; k < n; k++)
    {
      add (&agg, k, 0, (double) (k + 1), k < 4 ? (double) (100 + k) : -1);
      total += (double) (k + 1);
    }
  ck_assert_uint_eq (agg.factor, 1);
  ck_assert_uint_eq (g_hash_table_size (agg.buckets), n);

  /* Window n: the intervals become 2 s, n/2 of them, and a new one. */
  add (&agg, n, 1, 512, 9);
  total += 512;
  ck_assert_uint_eq (agg.factor, 2);
  ck_assert_uint_eq (g_hash_table_size (agg.buckets), n / 2 + 1);
  /* Windows 6 and 7 are now one interval. */
  b = ds_fio_log_agg_bucket (&agg, 6);
  ck_assert_ptr_eq (b, ds_fio_log_agg_bucket (&agg, 7));
  ck_assert_double_eq (b->bytes[0], 7 + 8);
  ck_assert_double_eq (b->ios[0], 2);

  points = points_ok (&agg);
  ds_fio_log_agg_clear (&agg);
  ck_assert_uint_eq (points->len, n / 2 + 1);
  ck_assert_double_eq (POINT (points, 0)->t_s, 2);
  ck_assert_double_eq (POINT (points, 0)->read.bytes_per_s, (1 + 2) / 2.0);
  ck_assert_double_eq (POINT (points, 0)->read.iops, 1);
  /* Windows 0 and 1 held 100 and 101 ns: pooled, p50 the 1st, p99 the 2nd. */
  ck_assert_double_eq (POINT (points, 0)->read.p50_s, 100e-9);
  ck_assert_double_eq (POINT (points, 0)->read.p99_s, 101e-9);
  ck_assert_double_eq (POINT (points, 1)->read.p99_s, 103e-9);
  ck_assert_double_eq (POINT (points, 2)->read.p99_s, 0);
  ck_assert_double_eq (POINT (points, n / 2)->t_s, (double) (n + 2));
  ck_assert_double_eq (POINT (points, n / 2)->write.bytes_per_s, 256);
  ck_assert_double_eq (POINT (points, n / 2)->write.p50_s, 9e-9);
  /* Every byte is in one interval. */
  for (guint i = 0; i < points->len; i++)
    sum += (POINT (points, i)->read.bytes_per_s + POINT (points, i)->write.bytes_per_s) * 2;
  ck_assert_double_eq (sum, total);
}
END_TEST

/* Past the limit, a window whose merged interval is already there adds
 * to it (the even windows fill it; window 1 falls into window 0's). */
START_TEST (test_merge_finds_the_merged_interval)
{
  const guint64 n = DS_LIMIT_SERIES_POINTS;
  DsFioLogAgg agg;
  DsFioLogBucket *zero;

  ds_fio_log_agg_init (&agg, 1000);
  for (guint64 k = 0; k < n; k++)
    add (&agg, 2 * k, 0, 1, -1);
  zero = ds_fio_log_agg_bucket (&agg, 0);
  ck_assert_ptr_eq (ds_fio_log_agg_bucket (&agg, 1), zero);
  ck_assert_uint_eq (agg.factor, 2);
  ck_assert_uint_eq (g_hash_table_size (agg.buckets), n);
  ck_assert_double_eq (zero->ios[0], 1);
  ds_fio_log_agg_clear (&agg);
}
END_TEST

/* @agg's points refused, saying @why. */
static void
assert_refused (DsFioLogAgg *agg,
                const char  *why)
{
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_null (ds_fio_log_agg_points (agg, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s", error ? error->message : "");
  ck_assert_msg (strstr (error->message, why) != NULL, "%s", error->message);
  ds_fio_log_agg_clear (agg);
}

/* What a result file may hold (DS_JSON_MAX_*) and no more: a rate or a
 * latency past it (or not a number) is no real run's, and refused naming
 * the interval; at the bound, accepted. */
START_TEST (test_refuses_what_no_device_does)
{
  DsFioLogAgg agg;
  GArray *points;

  ds_fio_log_agg_init (&agg, 1000);
  ds_fio_log_agg_bucket (&agg, 0)->bytes[0] = DS_JSON_MAX_BYTES_PER_S;
  ds_fio_log_agg_bucket (&agg, 0)->ios[1] = DS_JSON_MAX_IOPS;
  add (&agg, 0, 0, 0, DS_JSON_MAX_LATENCY_S * 1e9);
  points = points_ok (&agg);
  ck_assert_double_eq (POINT (points, 0)->read.bytes_per_s, DS_JSON_MAX_BYTES_PER_S);
  g_array_unref (points);
  ds_fio_log_agg_clear (&agg);

  ds_fio_log_agg_init (&agg, 1000);
  ds_fio_log_agg_bucket (&agg, 4)->bytes[1] = 2 * DS_JSON_MAX_BYTES_PER_S;
  assert_refused (&agg, "in the interval ending at 5 s: more than a device does");

  ds_fio_log_agg_init (&agg, 500);
  ds_fio_log_agg_bucket (&agg, 0)->ios[0] = DS_JSON_MAX_IOPS;   /* over 0.5 s */
  assert_refused (&agg, "I/Os per second in the interval ending at 0.5 s");

  ds_fio_log_agg_init (&agg, 1000);
  ds_fio_log_agg_bucket (&agg, 0)->bytes[0] = NAN;
  assert_refused (&agg, "more than a device does");

  ds_fio_log_agg_init (&agg, 1000);
  add (&agg, 2, 1, 4096, 2 * DS_JSON_MAX_LATENCY_S * 1e9);
  assert_refused (&agg, "a latency of 2e+06 s in the interval ending at 3 s: not a real I/O's");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-log-agg");
  TCase *tc = tcase_create ("agg");

  /* Two cases fill DS_LIMIT_SERIES_POINTS windows: a second, more under
   * a sanitizer. */
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_rates_and_order);
  tcase_add_test (tc, test_percentiles_nearest_rank);
  tcase_add_test (tc, test_real_log_by_hand);
  tcase_add_test (tc, test_merged_past_the_limit);
  tcase_add_test (tc, test_merge_finds_the_merged_interval);
  tcase_add_test (tc, test_refuses_what_no_device_does);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
