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

G_END_DECLS
