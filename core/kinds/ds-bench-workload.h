/* ds-bench-workload.h: fio / CrystalDiskMark style workloads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The percentiles reported, as fio's default list. */
#define DS_WORKLOAD_N_PERCENTILES 17
extern const double ds_workload_percentiles[DS_WORKLOAD_N_PERCENTILES];

typedef struct {
  gboolean present;
  uint64_t io_bytes;
  uint64_t ios;
  double   bytes_per_s;
  double   iops;
  double   lat_min_s;
  double   lat_mean_s;
  double   lat_max_s;
  double   lat_stddev_s;
  double   lat_percentile_s[DS_WORKLOAD_N_PERCENTILES];
} DsWorkloadDir;

typedef struct {
  double        runtime_s;
  char         *engine;
  DsWorkloadDir read;
  DsWorkloadDir write;
  double        cpu_user_s;
  double        cpu_system_s;
} DsWorkloadData;

G_END_DECLS
