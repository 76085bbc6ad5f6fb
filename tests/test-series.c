/* test-series.c: the per-interval rings of the I/O threads and their
 * collector (io/ds-io-series.c), fed by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "ds-clock.h"
#include "ds-io-series.h"
#include "ds-test-util.h"

#define note ds_test_note

#define T0   (UINT64_C (1000) * DS_NS_PER_SEC)
#define IV   (100 * DS_NS_PER_MSEC)
#define US   DS_NS_PER_USEC
#define MS   DS_NS_PER_MSEC

static void
count_point (const DsIntervalPoint *point,
             unsigned               index,
             gpointer               user_data)
{
  (*(unsigned *) user_data)++;
}

static const DsIntervalPoint *
point_at (GArray   *points,
          unsigned  i)
{
  ck_assert_uint_lt (i, points->len);
  return &g_array_index (points, DsIntervalPoint, i);
}

/* Figures per interval, sealing, and the short last interval folded into
 * the one before it. */
START_TEST (test_points_from_rings)
{
  DsIoSeries *series = ds_io_series_new (2, T0, IV);
  DsIoRing *r0 = ds_io_series_ring (series, 0);
  DsIoRing *r1 = ds_io_series_ring (series, 1);
  g_autoptr (GArray) points = NULL;
  unsigned emitted = 0;
  const DsIntervalPoint *p;

  /* Interval 0: 100 reads of 4 KiB at 10 µs on one thread, 50 writes of
   * 8 KiB at 1 ms on the other. */
  for (unsigned i = 0; i < 100; i++)
    ds_io_ring_add (r0, FALSE, T0 + i * 500 * US, 10 * US, 4096);
  for (unsigned i = 0; i < 50; i++)
    ds_io_ring_add (r1, TRUE, T0 + i * MS, MS, 8192);
  /* Interval 1 on thread 0 seals its interval 0, but thread 1 has not
   * moved on: nothing can be collected yet. */
  for (unsigned i = 0; i < 10; i++)
    ds_io_ring_add (r0, FALSE, T0 + IV + i * US, 20 * US, 4096);
  ds_io_series_collect (series, count_point, &emitted);
  ck_assert_uint_eq (emitted, 0);

  /* Thread 1 sees time pass (a slow I/O in flight): interval 0 is done. */
  ds_io_ring_tick (r1, T0 + IV + 50 * MS);
  ds_io_series_collect (series, count_point, &emitted);
  ck_assert_uint_eq (emitted, 1);

  ds_io_ring_finish (r0);
  ds_io_ring_finish (r1);
  /* The last completion 30 ms into interval 1: a sliver, folded. */
  ds_io_series_finish (series, T0 + IV + 30 * MS, count_point, &emitted);
  points = ds_io_series_steal_points (series, NULL);
  ck_assert_uint_eq (ds_io_series_dropped_ios (series), 0);
  ds_io_series_free (series);

  ck_assert_uint_eq (points->len, 1);
  p = point_at (points, 0);
  ck_assert_double_eq_tol (p->t_s, 0.13, 1e-9);
  ck_assert_double_eq_tol (p->read.iops, 110 / 0.13, 1e-6);
  ck_assert_double_eq_tol (p->read.bytes_per_s, 110 * 4096 / 0.13, 1e-3);
  ck_assert_double_eq_tol (p->write.iops, 50 / 0.13, 1e-6);
  /* Percentiles within the 5-bit histogram's 1.6 %. */
  ck_assert_msg (fabs (p->read.p50_s - 10e-6) / 10e-6 < 0.016, "p50 %g", p->read.p50_s);
  ck_assert_msg (fabs (p->read.p99_s - 20e-6) / 20e-6 < 0.016, "p99 %g", p->read.p99_s);
  ck_assert_msg (fabs (p->write.p99_s - 1e-3) / 1e-3 < 0.016, "write p99 %g", p->write.p99_s);
  ck_assert_uint_eq (emitted, 2);
}
END_TEST

/* A last interval of more than half an interval stands on its own, and an
 * interval without I/O is a point of zeros (a stall shows as one). */
START_TEST (test_gap_and_long_tail)
{
  DsIoSeries *series = ds_io_series_new (1, T0, IV);
  DsIoRing *r = ds_io_series_ring (series, 0);
  g_autoptr (GArray) points = NULL;

  ds_io_ring_add (r, FALSE, T0 + 10 * MS, 50 * US, 4096);
  ds_io_ring_add (r, FALSE, T0 + 2 * IV + 80 * MS, 50 * US, 4096);
  ds_io_ring_finish (r);
  ds_io_series_finish (series, T0 + 2 * IV + 80 * MS, NULL, NULL);
  points = ds_io_series_steal_points (series, NULL);
  ds_io_series_free (series);

  ck_assert_uint_eq (points->len, 3);
  ck_assert_double_eq_tol (point_at (points, 0)->t_s, 0.1, 1e-9);
  ck_assert_double_eq_tol (point_at (points, 0)->read.iops, 10, 1e-9);
  ck_assert_double_eq_tol (point_at (points, 1)->t_s, 0.2, 1e-9);
  ck_assert_double_eq (point_at (points, 1)->read.iops, 0);
  ck_assert_double_eq (point_at (points, 1)->read.p99_s, 0);
  ck_assert_double_eq_tol (point_at (points, 2)->t_s, 0.28, 1e-9);
  ck_assert_double_eq_tol (point_at (points, 2)->read.iops, 1 / 0.08, 1e-9);
}
END_TEST

/* A collector that falls behind never blocks a thread: what does not fit
 * the ring is counted as dropped, and the slots come back once collected. */
START_TEST (test_full_ring_drops)
{
  DsIoSeries *series = ds_io_series_new (1, T0, IV);
  DsIoRing *r = ds_io_series_ring (series, 0);
  g_autoptr (GArray) points = NULL;
  uint64_t dropped;

  for (unsigned k = 0; k < DS_IO_RING_SLOTS + 2; k++)
    for (unsigned i = 0; i < 5; i++)
      ds_io_ring_add (r, FALSE, T0 + k * IV + i * MS, 10 * US, 4096);
  dropped = ds_io_series_dropped_ios (series);
  ck_assert_uint_eq (dropped, 2 * 5);

  /* Collected: the thread writes again. */
  ds_io_series_collect (series, NULL, NULL);
  ds_io_ring_add (r, FALSE, T0 + (DS_IO_RING_SLOTS + 1) * IV + 50 * MS, 10 * US, 4096);
  ck_assert_uint_eq (ds_io_series_dropped_ios (series), dropped);
  ds_io_ring_finish (r);
  ds_io_series_finish (series, T0 + (DS_IO_RING_SLOTS + 1) * IV + 60 * MS, NULL, NULL);
  points = ds_io_series_steal_points (series, NULL);
  ds_io_series_free (series);

  ck_assert_uint_eq (points->len, DS_IO_RING_SLOTS + 2);
  for (unsigned k = 0; k < DS_IO_RING_SLOTS; k++)
    ck_assert_double_eq_tol (point_at (points, k)->read.iops, 50, 1e-9);
  /* The two intervals that did not fit have no I/O but the one written
   * after the collector caught up. */
  ck_assert_double_eq (point_at (points, DS_IO_RING_SLOTS)->read.iops, 0);
  ck_assert_double_eq_tol (point_at (points, DS_IO_RING_SLOTS + 1)->read.iops, 1 / 0.06, 1e-9);
}
END_TEST

/* Threads adding as fast as they can while this thread collects: every
 * completion is in exactly one point or counted as dropped. */
#define N_THREADS 4
#define PER_THREAD 400000

typedef struct {
  DsIoRing *ring;
  unsigned  id;
} Feeder;

static gpointer
feed (gpointer data)
{
  Feeder *f = data;

  /* Simulated time: 40 intervals, each thread at its own pace. */
  for (unsigned i = 0; i < PER_THREAD; i++)
    {
      ds_io_ring_add (f->ring, i % 3 == 0, T0 + (uint64_t) i * 40 * IV / PER_THREAD + f->id,
                      (10 + i % 200) * US, 4096);
      /* A pace the collector can follow most of the time. */
      if (i % 2000 == 0)
        g_usleep (50);
    }
  ds_io_ring_finish (f->ring);

  return NULL;
}

START_TEST (test_concurrent_totals)
{
  DsIoSeries *series = ds_io_series_new (N_THREADS, T0, IV);
  Feeder feeders[N_THREADS];
  GThread *threads[N_THREADS];
  g_autoptr (GArray) points = NULL;
  double counted = 0;
  double prev_t = 0;
  uint64_t dropped;

  for (unsigned i = 0; i < N_THREADS; i++)
    {
      feeders[i] = (Feeder) { .ring = ds_io_series_ring (series, i), .id = i };
      threads[i] = g_thread_new ("feed", feed, &feeders[i]);
    }
  for (unsigned spins = 0; spins < 2000; spins++)
    {
      ds_io_series_collect (series, NULL, NULL);
      g_usleep (100);
    }
  for (unsigned i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);
  ds_io_series_finish (series, T0 + 40 * IV - 1, NULL, NULL);
  points = ds_io_series_steal_points (series, NULL);
  dropped = ds_io_series_dropped_ios (series);
  ds_io_series_free (series);

  for (guint i = 0; i < points->len; i++)
    {
      const DsIntervalPoint *p = point_at (points, i);

      counted += (p->read.iops + p->write.iops) * (p->t_s - prev_t);
      prev_t = p->t_s;
    }
  note ("%u points, %.0f counted, %" G_GUINT64_FORMAT " dropped", points->len, counted, dropped);
  ck_assert_uint_eq (points->len, 40);
  ck_assert_double_eq_tol (counted + (double) dropped, N_THREADS * PER_THREAD, 0.5);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("series");
  TCase *tc = tcase_create ("rings");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_points_from_rings);
  tcase_add_test (tc, test_gap_and_long_tail);
  tcase_add_test (tc, test_full_ring_drops);
  tcase_add_test (tc, test_concurrent_totals);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
