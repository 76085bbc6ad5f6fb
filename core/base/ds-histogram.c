/* ds-histogram.c: log-linear latency histogram (see ds-histogram.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-histogram.h"

void
ds_histogram_init (DsHistogram *hist)
{
  memset (hist, 0, sizeof *hist);
}

unsigned
ds_log_bucket_index (uint64_t value,
                     unsigned bits,
                     unsigned n_buckets)
{
  uint64_t sub = UINT64_C (1) << bits;
  unsigned msb;
  unsigned error_bits;
  unsigned index;

  if (value < sub)
    return (unsigned) value;

  /* Group g >= 1 holds [2^(g+bits-1), 2^(g+bits)) in 2^bits buckets of width
   * 2^(g-1); within it the bucket is the bits bits below the top bit. */
  msb = 63u - (unsigned) __builtin_clzll (value);
  error_bits = msb - bits;
  index = ((error_bits + 1) << bits) + (unsigned) ((value >> error_bits) & (sub - 1));

  return index < n_buckets ? index : n_buckets - 1;
}

void
ds_log_bucket_range (unsigned  index,
                     unsigned  bits,
                     uint64_t *ret_lo,
                     uint64_t *ret_hi)
{
  unsigned group = index >> bits;
  uint64_t offset = index & ((1u << bits) - 1);
  uint64_t lo;
  uint64_t width;

  if (group == 0)
    {
      lo = offset;
      width = 1;
    }
  else
    {
      width = UINT64_C (1) << (group - 1);
      lo = ((UINT64_C (1) << bits) + offset) << (group - 1);
    }

  *ret_lo = lo;
  *ret_hi = lo + width;
}

static uint64_t
bucket_middle (unsigned index,
               unsigned bits)
{
  uint64_t lo;
  uint64_t hi;

  ds_log_bucket_range (index, bits, &lo, &hi);
  if (hi - lo == 1)
    return lo;

  return lo + (hi - lo) / 2;
}

uint64_t
ds_log_buckets_percentile (const uint64_t *buckets,
                           unsigned        n_buckets,
                           unsigned        bits,
                           uint64_t        count,
                           double          percent)
{
  uint64_t rank;
  uint64_t seen = 0;

  if (count == 0)
    return 0;

  if (percent <= 0.0)
    percent = 0.0;
  if (percent > 100.0)
    percent = 100.0;

  /* The smallest value with at least percent% of samples at or below it
   * (nearest rank; at least the first sample). */
  rank = (uint64_t) ((percent / 100.0) * (double) count + 0.5);
  if (rank < 1)
    rank = 1;
  if (rank > count)
    rank = count;

  for (unsigned i = 0; i < n_buckets; i++)
    {
      seen += buckets[i];
      if (seen >= rank)
        return bucket_middle (i, bits);
    }

  return bucket_middle (n_buckets - 1, bits);
}

unsigned
ds_histogram_bucket_index (uint64_t value)
{
  return ds_log_bucket_index (value, DS_HIST_BITS, DS_HIST_BUCKETS);
}

void
ds_histogram_bucket_range (unsigned  index,
                           uint64_t *ret_lo,
                           uint64_t *ret_hi)
{
  ds_log_bucket_range (index, DS_HIST_BITS, ret_lo, ret_hi);
}

uint64_t
ds_histogram_bucket_value (unsigned index)
{
  return bucket_middle (index, DS_HIST_BITS);
}

void
ds_histogram_add (DsHistogram *hist,
                  uint64_t     value)
{
  hist->buckets[ds_histogram_bucket_index (value)]++;
  hist->count++;
}

void
ds_histogram_merge (DsHistogram       *dst,
                    const DsHistogram *src)
{
  for (unsigned i = 0; i < DS_HIST_BUCKETS; i++)
    dst->buckets[i] += src->buckets[i];
  dst->count += src->count;
}

uint64_t
ds_histogram_percentile (const DsHistogram *hist,
                         double             percent)
{
  return ds_log_buckets_percentile (hist->buckets, DS_HIST_BUCKETS, DS_HIST_BITS,
                                    hist->count, percent);
}
