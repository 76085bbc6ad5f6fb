/* ds-histogram.h: log-linear latency histogram
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

/* Values (nanoseconds) below 2^DS_HIST_BITS are counted exactly.  Above that
 * the range [2^k, 2^(k+1)) is split into 2^DS_HIST_BITS equal buckets (the
 * scheme of fio's stat.h).  A value is reported as the middle of its bucket,
 * so the relative error is at most half a bucket over the bucket's lower
 * bound: 2^(k-BITS) / 2 / 2^k = 1 / 2^(BITS+1) = 1/128 = 0.78 % < 1 %.
 * DS_HIST_GROUPS groups of 64 cover 0 .. 2^(GROUPS+BITS-1) ns, about 18
 * minutes; larger values land in the last bucket. */
#define DS_HIST_BITS    6
#define DS_HIST_VAL     (1u << DS_HIST_BITS)
#define DS_HIST_GROUPS  35
#define DS_HIST_BUCKETS (DS_HIST_GROUPS * DS_HIST_VAL)

typedef struct {
  uint64_t count;
  uint64_t buckets[DS_HIST_BUCKETS];
} DsHistogram;

void     ds_histogram_init         (DsHistogram       *hist);
void     ds_histogram_add          (DsHistogram       *hist,
                                    uint64_t           value);
void     ds_histogram_merge        (DsHistogram       *dst,
                                    const DsHistogram *src);
/* @percent in [0, 100]; returns 0 for an empty histogram. */
uint64_t ds_histogram_percentile   (const DsHistogram *hist,
                                    double             percent);
unsigned ds_histogram_bucket_index (uint64_t           value);
/* The value a bucket reports (its middle) and its bounds [lo, hi). */
uint64_t ds_histogram_bucket_value (unsigned           index);
void     ds_histogram_bucket_range (unsigned           index,
                                    uint64_t          *ret_lo,
                                    uint64_t          *ret_hi);

/* The same scheme with @bits bits per power of two and @n_buckets buckets
 * (DsHistogram is bits = DS_HIST_BITS; the per-interval histograms of a
 * workload's series use fewer: ds-interval.h).  Values past the last
 * bucket land in it. */
unsigned ds_log_bucket_index       (uint64_t           value,
                                    unsigned           bits,
                                    unsigned           n_buckets);
void     ds_log_bucket_range       (unsigned           index,
                                    unsigned           bits,
                                    uint64_t          *ret_lo,
                                    uint64_t          *ret_hi);
/* The nearest-rank @percent of @count values counted in @buckets, as the
 * middle of its bucket; 0 when @count is 0. */
uint64_t ds_log_buckets_percentile (const uint64_t    *buckets,
                                    unsigned           n_buckets,
                                    unsigned           bits,
                                    uint64_t           count,
                                    double             percent);
