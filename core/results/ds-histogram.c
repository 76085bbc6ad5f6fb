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
ds_histogram_bucket_index (uint64_t value)
{
  unsigned msb;
  unsigned error_bits;
  unsigned index;

  if (value < DS_HIST_VAL)
    return (unsigned) value;

  /* Group g >= 1 holds [2^(g+BITS-1), 2^(g+BITS)) in 2^BITS buckets of width
   * 2^(g-1); within it the bucket is the BITS bits below the top bit. */
  msb = 63u - (unsigned) __builtin_clzll (value);
  error_bits = msb - DS_HIST_BITS;
  index = ((error_bits + 1) << DS_HIST_BITS) +
          (unsigned) ((value >> error_bits) & (DS_HIST_VAL - 1));

  return index < DS_HIST_BUCKETS ? index : DS_HIST_BUCKETS - 1;
}

void
ds_histogram_bucket_range (unsigned  index,
                           uint64_t *ret_lo,
                           uint64_t *ret_hi)
{
  unsigned group = index >> DS_HIST_BITS;
  uint64_t offset = index & (DS_HIST_VAL - 1);
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
      lo = (DS_HIST_VAL + offset) << (group - 1);
    }

  *ret_lo = lo;
  *ret_hi = lo + width;
}

uint64_t
ds_histogram_bucket_value (unsigned index)
{
  uint64_t lo;
  uint64_t hi;

  ds_histogram_bucket_range (index, &lo, &hi);
  if (hi - lo == 1)
    return lo;

  return lo + (hi - lo) / 2;
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
  uint64_t rank;
  uint64_t seen = 0;

  if (hist->count == 0)
    return 0;

  if (percent <= 0.0)
    percent = 0.0;
  if (percent > 100.0)
    percent = 100.0;

  /* The smallest value with at least percent% of samples at or below it
   * (nearest rank; at least the first sample). */
  rank = (uint64_t) ((percent / 100.0) * (double) hist->count + 0.5);
  if (rank < 1)
    rank = 1;
  if (rank > hist->count)
    rank = hist->count;

  for (unsigned i = 0; i < DS_HIST_BUCKETS; i++)
    {
      seen += hist->buckets[i];
      if (seen >= rank)
        return ds_histogram_bucket_value (i);
    }

  return ds_histogram_bucket_value (DS_HIST_BUCKETS - 1);
}
