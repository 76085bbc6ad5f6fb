/* ds-stats.h: Welford running statistics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

/* Welford's online algorithm: numerically stable mean and variance in one
 * pass, mergeable (Chan et al.) so per-thread statistics combine exactly. */
typedef struct {
  uint64_t n;
  uint64_t min;
  uint64_t max;
  double   mean;
  double   m2;
} DsStats;

void   ds_stats_init   (DsStats       *stats);
void   ds_stats_add    (DsStats       *stats,
                        uint64_t       value);
void   ds_stats_merge  (DsStats       *dst,
                        const DsStats *src);
double ds_stats_stddev (const DsStats *stats);
