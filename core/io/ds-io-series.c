/* ds-io-series.c: per-interval figures from the I/O threads, without locks
 * (see ds-io-series.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-clock.h"
#include "ds-io-series.h"
#include "ds-limits.h"

/* The newest intervals stay as they were collected (the last two may still
 * change at the end, and a point past the last completion is dropped);
 * older ones go, RAW_KEEP at a time, into a series held to max_points
 * (ds-interval.h: DsSeriesMerge), so a week at 100 ms keeps at most
 * DS_LIMIT_SERIES_POINTS points in memory, not 6 million. */
#define RAW_KEEP 1024u

/* The sums of one collected interval, kept for the last two so the last
 * point can be shortened or folded once the run's end is known. */
typedef struct {
  gboolean      valid;
  uint64_t      index;
  DsIntervalSum dir[2];
} Recent;

struct _DsIoSeries {
  uint64_t  t0_ns;
  uint64_t  interval_ns;
  gint64    consumed;          /* atomic: intervals below were collected */
  unsigned  n_rings;
  DsIoRing *rings;
  GArray   *points;            /* DsIntervalPoint; points[k - base] is
                                * interval k */
  uint64_t  base;              /* intervals moved into `merged` */
  DsSeriesMerge merged;        /* intervals 0 .. base - 1 */
  guint     max_points;
  Recent    recent[2];         /* by interval index % 2 */
  DsIntervalSum cumulative;    /* every interval collected, both directions */
};

DsIoSeries *
ds_io_series_new (unsigned n_rings,
                  uint64_t t0_ns,
                  uint64_t interval_ns)
{
  DsIoSeries *series = g_new0 (DsIoSeries, 1);

  g_return_val_if_fail (interval_ns > 0, series);

  series->interval_ns = interval_ns;
  series->n_rings = n_rings;
  series->rings = g_try_new0 (DsIoRing, n_rings);
  series->points = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  series->max_points = DS_LIMIT_SERIES_POINTS;
  ds_series_merge_init (&series->merged, series->max_points);
  if (series->rings == NULL)
    {
      series->n_rings = 0;
      ds_io_series_free (series);
      return NULL;
    }
  for (unsigned i = 0; i < n_rings; i++)
    {
      DsIoRing *ring = &series->rings[i];

      ring->series = series;
      /* A thousand threads' rings are 74 MB: the system may say no. */
      ring->slots = g_try_new0 (DsIoSlot, DS_IO_RING_SLOTS);
      if (ring->slots == NULL)
        {
          ds_io_series_free (series);
          return NULL;
        }
      ring->interval_ns = interval_ns;
      ring->writable = TRUE;
    }
  ds_io_series_start (series, t0_ns);

  return series;
}

void
ds_io_series_start (DsIoSeries *series,
                    uint64_t    t0_ns)
{
  series->t0_ns = t0_ns;
  for (unsigned i = 0; i < series->n_rings; i++)
    {
      series->rings[i].t0_ns = t0_ns;
      series->rings[i].next_ns = t0_ns + series->interval_ns;
    }
}

void
ds_io_series_free (DsIoSeries *series)
{
  if (series == NULL)
    return;

  for (unsigned i = 0; i < series->n_rings; i++)
    g_free (series->rings[i].slots);
  g_free (series->rings);
  g_clear_pointer (&series->points, g_array_unref);
  ds_series_merge_clear (&series->merged);
  g_free (series);
}

DsIoRing *
ds_io_series_ring (DsIoSeries *series,
                   unsigned    index)
{
  g_return_val_if_fail (index < series->n_rings, NULL);

  return &series->rings[index];
}

/* ---- the I/O thread's side ---------------------------------------------- */

gboolean
ds_io_ring_reclaim (DsIoRing *ring)
{
  uint64_t consumed = (uint64_t) __atomic_load_n (&ring->series->consumed, __ATOMIC_ACQUIRE);

  ring->writable = ring->current < consumed + DS_IO_RING_SLOTS;
  return ring->writable;
}

void
ds_io_ring_advance (DsIoRing *ring,
                    uint64_t  now_ns)
{
  uint64_t k = (now_ns - ring->t0_ns) / ring->interval_ns;

  if (now_ns < ring->t0_ns || k <= ring->current)
    return;

  ring->current = k;
  ring->next_ns = ring->t0_ns + (k + 1) * ring->interval_ns;
  /* Everything before k is final: what this thread wrote there is visible
   * to the collector once it sees the new value. */
  __atomic_store_n (&ring->sealed, (gint64) k, __ATOMIC_RELEASE);
  ds_io_ring_reclaim (ring);
}

void
ds_io_ring_finish (DsIoRing *ring)
{
  __atomic_store_n (&ring->sealed, G_MAXINT64, __ATOMIC_RELEASE);
  __atomic_store_n (&ring->done, 1, __ATOMIC_RELEASE);
}

/* ---- the collector's side ----------------------------------------------- */

static void
set_point (DsIoSeries   *series,
           uint64_t      k,
           const Recent *sums,
           uint64_t      length_ns,
           double        t_s)
{
  DsIntervalPoint *point = &g_array_index (series->points, DsIntervalPoint, k - series->base);

  point->t_s = t_s;
  ds_interval_sum_to_dir (&sums->dir[0], length_ns, &point->read);
  ds_interval_sum_to_dir (&sums->dir[1], length_ns, &point->write);
}

/* Sums interval @k over every ring, zeroes the slots, publishes it as
 * consumed and appends its point (a whole interval long). */
static void
collect_one (DsIoSeries *series,
             uint64_t    k)
{
  Recent *sums = &series->recent[k % 2];

  memset (sums, 0, sizeof *sums);
  sums->valid = TRUE;
  sums->index = k;

  for (unsigned i = 0; i < series->n_rings; i++)
    {
      DsIoSlot *slot = &series->rings[i].slots[k % DS_IO_RING_SLOTS];

      for (unsigned d = 0; d < 2; d++)
        if (slot->dir[d].ios != 0)
          {
            ds_interval_sum_add (&sums->dir[d], &slot->dir[d]);
            memset (&slot->dir[d], 0, sizeof slot->dir[d]);
          }
    }
  for (unsigned d = 0; d < 2; d++)
    ds_interval_sum_merge (&series->cumulative, &sums->dir[d]);

  g_array_set_size (series->points, (guint) (k - series->base) + 1);
  set_point (series, k, sums, series->interval_ns,
             (double) ((k + 1) * series->interval_ns) / DS_NS_PER_SEC);

  /* The slots are zero again: the threads may reuse them. */
  __atomic_store_n (&series->consumed, (gint64) k + 1, __ATOMIC_RELEASE);
}

static void
emit_from (DsIoSeries     *series,
           uint64_t        first,
           DsIoSeriesFunc  func,
           gpointer        user_data)
{
  for (uint64_t k = MAX (first, series->base);
       func != NULL && k < series->base + series->points->len; k++)
    func (&g_array_index (series->points, DsIntervalPoint, k - series->base), (unsigned) k, user_data);
}

/* Interval k starts where k - 1 ended. */
static double
start_of (DsIoSeries *series,
          uint64_t    k)
{
  return (double) (k * series->interval_ns) / DS_NS_PER_SEC;
}

/* Moves the oldest RAW_KEEP points into the merged series once 2 ×
 * RAW_KEEP are waiting (none of them can change any more). */
static void
archive_old (DsIoSeries *series)
{
  if (series->points->len < 2 * RAW_KEEP)
    return;

  for (guint i = 0; i < RAW_KEEP; i++)
    ds_series_merge_add (&series->merged, &g_array_index (series->points, DsIntervalPoint, i),
                         start_of (series, series->base + i));
  g_array_remove_range (series->points, 0, RAW_KEEP);
  series->base += RAW_KEEP;
}

void
ds_io_series_collect (DsIoSeries     *series,
                      DsIoSeriesFunc  func,
                      gpointer        user_data)
{
  gint64 ready = G_MAXINT64;
  uint64_t first = (uint64_t) series->consumed;

  for (unsigned i = 0; i < series->n_rings; i++)
    {
      DsIoRing *ring = &series->rings[i];

      if (__atomic_load_n (&ring->done, __ATOMIC_ACQUIRE))
        continue;
      ready = MIN (ready, __atomic_load_n (&ring->sealed, __ATOMIC_ACQUIRE));
    }
  /* Every thread done: ds_io_series_finish() takes the rest. */
  if (ready == G_MAXINT64)
    return;

  for (uint64_t k = first; k < (uint64_t) ready; k++)
    collect_one (series, k);
  emit_from (series, first, func, user_data);
  archive_old (series);
}

void
ds_io_series_finish (DsIoSeries     *series,
                     uint64_t        last_ns,
                     DsIoSeriesFunc  func,
                     gpointer        user_data)
{
  uint64_t iv = series->interval_ns;
  uint64_t first = (uint64_t) series->consumed;
  uint64_t changed = first;
  uint64_t last_k;
  uint64_t max_current = 0;
  uint64_t start_ns;
  uint64_t length_ns;
  Recent *cur;
  Recent *prev;

  if (last_ns < series->t0_ns || last_ns == 0)
    {
      /* Nothing was counted: no series. */
      g_array_set_size (series->points, 0);
      return;
    }

  last_k = (last_ns - series->t0_ns) / iv;
  for (unsigned i = 0; i < series->n_rings; i++)
    max_current = MAX (max_current, series->rings[i].current);
  for (uint64_t k = first; k <= MAX (max_current, last_k); k++)
    collect_one (series, k);

  /* Intervals after the last completion are outside the measured time
   * (those already merged stay: empty intervals, a stall of minutes). */
  if (last_k < series->base)
    {
      g_array_set_size (series->points, 0);
      return;
    }
  if (series->base + series->points->len > last_k + 1)
    g_array_set_size (series->points, (guint) (last_k + 1 - series->base));

  /* The last interval ends with the last completion. */
  cur = &series->recent[last_k % 2];
  prev = &series->recent[(last_k + 1) % 2];
  start_ns = series->t0_ns + last_k * iv;
  length_ns = MAX (last_ns - start_ns, 1);
  if (cur->valid && cur->index == last_k)
    {
      double t_s = (double) (last_ns - series->t0_ns) / DS_NS_PER_SEC;

      if (length_ns < iv / 2 && last_k > series->base && prev->valid && prev->index == last_k - 1)
        {
          for (unsigned d = 0; d < 2; d++)
            ds_interval_sum_merge (&prev->dir[d], &cur->dir[d]);
          g_array_set_size (series->points, (guint) (last_k - series->base));
          set_point (series, last_k - 1, prev, iv + length_ns, t_s);
          changed = MIN (changed, last_k - 1);
        }
      else
        {
          set_point (series, last_k, cur, length_ns, t_s);
          changed = MIN (changed, last_k);
        }
    }

  emit_from (series, changed, func, user_data);
}

const DsIntervalSum *
ds_io_series_cumulative (DsIoSeries *series)
{
  return &series->cumulative;
}

GArray *
ds_io_series_steal_points (DsIoSeries *series,
                           guint      *ret_merged)
{
  guint factor = 1;

  if (series->base == 0 && series->points->len <= series->max_points)
    {
      if (ret_merged != NULL)
        *ret_merged = 1;
      return g_steal_pointer (&series->points);
    }

  for (guint i = 0; i < series->points->len; i++)
    ds_series_merge_add (&series->merged, &g_array_index (series->points, DsIntervalPoint, i),
                         start_of (series, series->base + i));
  g_array_set_size (series->points, 0);
  {
    GArray *points = ds_series_merge_finish (&series->merged, &factor);

    ds_series_merge_init (&series->merged, series->max_points);
    if (ret_merged != NULL)
      *ret_merged = factor;
    return points;
  }
}

void
ds_io_series_set_max_points (DsIoSeries *series,
                             guint       max_points)
{
  g_return_if_fail (series->base == 0 && series->points->len == 0);

  series->max_points = MAX (max_points, 2u);
  ds_series_merge_clear (&series->merged);
  ds_series_merge_init (&series->merged, series->max_points);
}

uint64_t
ds_io_series_dropped_ios (DsIoSeries *series)
{
  uint64_t dropped = 0;

  for (unsigned i = 0; i < series->n_rings; i++)
    dropped += series->rings[i].dropped_ios;

  return dropped;
}
