/* ds-io-series.h: per-interval figures from the I/O threads, without locks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each I/O thread owns a ring of DS_IO_RING_SLOTS interval slots (a
 * histogram and byte count per direction, ds-interval.h), allocated before
 * the run.  A completion goes into the slot of the interval its end time
 * falls in: two adds and an increment, no lock, no allocation, no system
 * call.  When a thread first sees a time in a later interval it seals the
 * earlier ones (one atomic store, release).  The thread that started the
 * run collects: once every thread has sealed interval k it sums the slots,
 * zeroes them, and only then publishes k as consumed (release), so a thread
 * reuses a slot only after it was read.  One producer and one consumer per
 * ring: a single-producer, single-consumer queue of intervals.
 *
 * Should the collector ever fall DS_IO_RING_SLOTS intervals behind (it
 * polls several times per interval; this takes a stall of seconds), a
 * thread does not wait: it counts the I/O in the run's totals as always and
 * in DsIoStats.series_dropped_ios instead of the series, and the result
 * says so.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-interval.h"

G_BEGIN_DECLS

#define DS_IO_RING_SLOTS 8

typedef struct _DsIoSeries DsIoSeries;

typedef struct {
  DsIntervalHist dir[2];       /* [0] reads, [1] writes */
} DsIoSlot;

/* One I/O thread's ring.  Only `sealed` and `done` are read by another
 * thread (the collector), and only through atomics. */
typedef struct {
  DsIoSeries *series;
  DsIoSlot   *slots;           /* DS_IO_RING_SLOTS, zeroed */
  uint64_t    t0_ns;
  uint64_t    interval_ns;
  uint64_t    current;         /* the interval being filled */
  uint64_t    next_ns;         /* when it ends */
  gboolean    writable;        /* its slot has been consumed and zeroed */
  uint64_t    dropped_ios;
  gint64      sealed;          /* atomic: intervals below are final */
  gint        done;            /* atomic: the thread has finished */
} DsIoRing;

/* @n_rings rings for intervals of @interval_ns counted from @t0_ns; NULL
 * when the memory for them cannot be had (each ring is DS_IO_RING_SLOTS
 * DsIoSlots). */
DsIoSeries *ds_io_series_new      (unsigned     n_rings,
                                   uint64_t     t0_ns,
                                   uint64_t     interval_ns);
/* Counts from @t0_ns instead: before any thread adds. */
void        ds_io_series_start    (DsIoSeries  *series,
                                   uint64_t     t0_ns);
void        ds_io_series_free     (DsIoSeries  *series);
DsIoRing   *ds_io_series_ring     (DsIoSeries  *series,
                                   unsigned     index);

/* The I/O thread's side. */
void        ds_io_ring_advance    (DsIoRing    *ring,
                                   uint64_t     now_ns);
gboolean    ds_io_ring_reclaim    (DsIoRing    *ring);
/* The thread is done: everything it wrote is final. */
void        ds_io_ring_finish     (DsIoRing    *ring);

/* A counted completion. */
static inline void
ds_io_ring_add (DsIoRing *ring,
                gboolean  write,
                uint64_t  end_ns,
                uint64_t  latency_ns,
                uint32_t  bytes)
{
  if (G_UNLIKELY (end_ns >= ring->next_ns))
    ds_io_ring_advance (ring, end_ns);
  if (G_UNLIKELY (!ring->writable) && !ds_io_ring_reclaim (ring))
    {
      ring->dropped_ios++;
      return;
    }
  /* A completion seen after the thread moved on (the threads engine times
   * it on its helper thread) counts in the current interval. */
  ds_interval_hist_add (&ring->slots[ring->current % DS_IO_RING_SLOTS].dir[write ? 1 : 0],
                        latency_ns, bytes);
}

/* Time passes with nothing completing (a slow I/O in flight): seal what is
 * over so the collector need not wait for this thread. */
static inline void
ds_io_ring_tick (DsIoRing *ring,
                 uint64_t  now_ns)
{
  if (G_UNLIKELY (now_ns >= ring->next_ns))
    ds_io_ring_advance (ring, now_ns);
}

/* The collector's side (the thread that started the run). */
typedef void (*DsIoSeriesFunc) (const DsIntervalPoint *point,
                                unsigned               index,
                                gpointer               user_data);

/* The latencies of every I/O collected so far (reads and writes, all
 * threads): a live histogram, on the collector's thread. */
const DsIntervalSum *ds_io_series_cumulative (DsIoSeries *series);

/* Sums every interval all threads have sealed, appends the points, and
 * calls @func for each (may be NULL). */
void        ds_io_series_collect  (DsIoSeries     *series,
                                   DsIoSeriesFunc  func,
                                   gpointer        user_data);
/* After the threads were joined: collects the rest; the last interval ends
 * at @last_ns (the last counted completion; 0 if none), and one shorter
 * than half an interval is folded into the one before it, so no point's
 * rate comes from a sliver of time.  Calls @func for the points it adds or
 * changes. */
void        ds_io_series_finish   (DsIoSeries     *series,
                                   uint64_t        last_ns,
                                   DsIoSeriesFunc  func,
                                   gpointer        user_data);
/* The points (DsIntervalPoint), which the caller then owns: at most
 * DS_LIMIT_SERIES_POINTS (or what ds_io_series_set_max_points() said),
 * adjacent intervals merged past that (ds-interval.h: DsSeriesMerge);
 * *@ret_merged: the intervals in one point (1: none merged). */
GArray     *ds_io_series_steal_points (DsIoSeries *series,
                                       guint      *ret_merged);
/* A lower bound than DS_LIMIT_SERIES_POINTS (tests), before the run. */
void        ds_io_series_set_max_points (DsIoSeries *series,
                                         guint       max_points);
uint64_t    ds_io_series_dropped_ios  (DsIoSeries *series);

G_END_DECLS
