/* ds-interval.c: one interval of a workload's time series (see ds-interval.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-clock.h"
#include "ds-interval.h"

void
ds_interval_sum_add (DsIntervalSum        *sum,
                     const DsIntervalHist *hist)
{
  if (hist->ios == 0)
    return;

  sum->ios += hist->ios;
  sum->bytes += hist->bytes;
  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    sum->buckets[i] += hist->buckets[i];
}

void
ds_interval_sum_merge (DsIntervalSum       *dst,
                       const DsIntervalSum *src)
{
  dst->ios += src->ios;
  dst->bytes += src->bytes;
  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    dst->buckets[i] += src->buckets[i];
}

void
ds_interval_sum_to_dir (const DsIntervalSum *sum,
                        uint64_t             length_ns,
                        DsIntervalDir       *ret_dir)
{
  double seconds = (double) length_ns / DS_NS_PER_SEC;

  *ret_dir = (DsIntervalDir) { 0 };
  if (sum->ios == 0 || seconds <= 0)
    return;

  ret_dir->bytes_per_s = (double) sum->bytes / seconds;
  ret_dir->iops = (double) sum->ios / seconds;
  ret_dir->p50_s = (double) ds_log_buckets_percentile (sum->buckets, DS_INTERVAL_HIST_BUCKETS,
                                                       DS_INTERVAL_HIST_BITS, sum->ios, 50) / 1e9;
  ret_dir->p99_s = (double) ds_log_buckets_percentile (sum->buckets, DS_INTERVAL_HIST_BUCKETS,
                                                       DS_INTERVAL_HIST_BITS, sum->ios, 99) / 1e9;
}
