/* ds-stats.c: Welford running statistics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-stats.h"

void
ds_stats_init (DsStats *stats)
{
  *stats = (DsStats) { .min = UINT64_MAX };
}

void
ds_stats_add (DsStats  *stats,
              uint64_t  value)
{
  double delta;

  stats->n++;
  if (value < stats->min)
    stats->min = value;
  if (value > stats->max)
    stats->max = value;

  /* Welford: mean_n = mean_{n-1} + (x - mean_{n-1}) / n,
   * M2_n = M2_{n-1} + (x - mean_{n-1}) (x - mean_n). */
  delta = (double) value - stats->mean;
  stats->mean += delta / (double) stats->n;
  stats->m2 += delta * ((double) value - stats->mean);
}

void
ds_stats_merge (DsStats       *dst,
                const DsStats *src)
{
  double delta;
  uint64_t n;

  if (src->n == 0)
    return;
  if (dst->n == 0)
    {
      *dst = *src;
      return;
    }

  /* Chan et al.: combine two partitions' mean and M2 exactly. */
  n = dst->n + src->n;
  delta = src->mean - dst->mean;
  dst->mean += delta * (double) src->n / (double) n;
  dst->m2 += src->m2 + delta * delta * (double) dst->n * (double) src->n / (double) n;
  dst->n = n;
  if (src->min < dst->min)
    dst->min = src->min;
  if (src->max > dst->max)
    dst->max = src->max;
}

double
ds_stats_stddev (const DsStats *stats)
{
  if (stats->n < 2)
    return 0.0;

  /* Sample standard deviation, as fio reports it. */
  return sqrt (stats->m2 / (double) (stats->n - 1));
}
