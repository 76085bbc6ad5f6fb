/* ds-interval.h: one interval of a workload's time series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A workload result holds a series: one point per interval (1 s unless the
 * spec says otherwise, never under 100 ms) with each direction's rate, IOPS
 * and latency percentiles over the I/Os that completed in it.  The JSON is
 * `results.series: [{t_s, read:{bytes_per_s, iops, p50_s, p99_s}, write:{…}}]`
 * (ds-bench-workload.c); a page gets the same points live, one
 * DS_SAMPLE_INTERVAL sample per interval (ds-bench.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-histogram.h"

G_BEGIN_DECLS

typedef struct {
  double bytes_per_s;
  double iops;
  double p50_s;            /* 0 when no I/O completed in the interval */
  double p99_s;
} DsIntervalDir;

/* Also typedef'd in ds-bench.h (a DsSample carries one). */
typedef struct _DsIntervalPoint DsIntervalPoint;
struct _DsIntervalPoint {
  double        t_s;       /* the interval's end, seconds after the measured
                            * part began; the interval is (previous t_s, t_s]
                            * (the first starts at 0) */
  DsIntervalDir read;
  DsIntervalDir write;
};

/* The latencies of one direction in one interval, kept by each I/O thread
 * in its own ring (io/ds-io-series.c).  The log-linear scheme of
 * ds-histogram.h with 5 bits per power of two instead of 6: a value is
 * reported as its bucket's middle, at most half a bucket off, 1/2^(5+1) =
 * 1.6 % (the whole run's histogram keeps 0.8 %); 36 groups of 32 cover
 * 0 .. 2^40 ns (18 minutes).  32-bit counts: 4 × 10^9 I/Os in one interval
 * is beyond any device.  4.6 KB per direction keeps a ring of 8 intervals
 * per thread small even at a thousand threads. */
#define DS_INTERVAL_HIST_BITS    5
#define DS_INTERVAL_HIST_BUCKETS (36 * (1u << DS_INTERVAL_HIST_BITS))

typedef struct {
  uint32_t ios;
  uint64_t bytes;
  uint32_t buckets[DS_INTERVAL_HIST_BUCKETS];
} DsIntervalHist;

static inline void
ds_interval_hist_add (DsIntervalHist *hist,
                      uint64_t        latency_ns,
                      uint32_t        bytes)
{
  hist->ios++;
  hist->bytes += bytes;
  hist->buckets[ds_log_bucket_index (latency_ns, DS_INTERVAL_HIST_BITS,
                                     DS_INTERVAL_HIST_BUCKETS)]++;
}

/* The sum of several threads' histograms for one interval and direction. */
/* Also typedef'd in ds-bench.h (an interval sample carries one). */
typedef struct _DsIntervalSum DsIntervalSum;
struct _DsIntervalSum {
  uint64_t ios;
  uint64_t bytes;
  uint64_t buckets[DS_INTERVAL_HIST_BUCKETS];
};

void ds_interval_sum_add    (DsIntervalSum        *sum,
                             const DsIntervalHist *hist);
void ds_interval_sum_merge  (DsIntervalSum        *dst,
                             const DsIntervalSum  *src);
/* Rates over @length_ns and the percentiles of @sum. */
void ds_interval_sum_to_dir (const DsIntervalSum  *sum,
                             uint64_t              length_ns,
                             DsIntervalDir        *ret_dir);

/* ---- a series held to a number of points -------------------------------
 *
 * A series longer than its bound (DS_LIMIT_SERIES_POINTS: what a result
 * file may hold) is merged, adjacent intervals two by two, as often as
 * needed: each point then stands for `factor` intervals.  Merging is
 * truthful where the figures allow it and says what it cannot be:
 *   - bytes and I/Os are summed and divided by the merged time (from the
 *     first interval's start to the last one's end), so the rates are the
 *     merged interval's own;
 *   - p99 is the highest of the merged intervals' p99: an upper bound of
 *     the merged interval's (at most 1 % of each interval's I/Os are above
 *     its p99, so at most 1 % of all are above the highest);
 *   - p50 is the mean of their p50, weighted by their I/Os: between the
 *     lowest and the highest, not the merged interval's median (which the
 *     points alone cannot give).
 * Both are associative, so merging two by two again and again gives what
 * merging k at once would.  A result with a merged series says so in a
 * note and in "series_merged". */
typedef struct {
  GArray          *points;         /* DsIntervalPoint, merged */
  GArray          *starts;         /* double: each point's start (s) */
  guint            max_points;     /* even, >= 2 */
  guint            factor;         /* intervals per point */
  guint            pending_n;      /* intervals in `pending` */
  DsIntervalPoint  pending;
  double           pending_start_s;
} DsSeriesMerge;

void     ds_series_merge_init   (DsSeriesMerge         *merge,
                                 guint                  max_points);
/* The next interval, (@start_s, @point->t_s]. */
void     ds_series_merge_add    (DsSeriesMerge         *merge,
                                 const DsIntervalPoint *point,
                                 double                 start_s);
/* The merged points (the caller owns them) and how many intervals each
 * stands for (the last may stand for fewer); @merge is empty again. */
GArray  *ds_series_merge_finish (DsSeriesMerge         *merge,
                                 guint                 *ret_factor);
void     ds_series_merge_clear  (DsSeriesMerge         *merge);

/* What a result with a merged series says in its notes: @factor
 * intervals of @interval_s in one point, and what that does to them. */
char    *ds_series_merged_note  (guint                  factor,
                                 double                 interval_s);

/* @series (DsIntervalPoint, each interval starting where the one before
 * ended, the first at 0) merged in place to at most @max_points; returns
 * the factor (1: it was short enough, untouched). */
guint    ds_series_decimate     (GArray                *series,
                                 guint                  max_points);

G_END_DECLS
