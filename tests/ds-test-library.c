/* ds-test-library.c: results of given figures, for the library, compare and fio tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-test-library.h"

static DsResult *
new_result (DsBenchKind  kind,
            const char  *model,
            uint64_t     size_bytes,
            const char  *started_at)
{
  DsBenchSpec spec;
  DsResult *r;

  ds_bench_spec_init (&spec, kind);
  spec.target_path = g_strdup ("/dev/loop9");
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup ("/dev/loop9");
  r->target.is_block = TRUE;
  r->target.size_bytes = size_bytes;
  r->target.model = g_strdup (model);
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->engine = g_strdup ("sync");
  r->complete = TRUE;
  g_free (r->started_at);
  r->started_at = g_strdup (started_at);
  g_free (r->hostname);
  r->hostname = g_strdup ("testhost");

  return r;
}

DsResult *
ds_test_library_transfer (const char *model,
                          uint64_t    size_bytes,
                          double      min_rate,
                          double      max_rate,
                          double      access_s,
                          const char *started_at)
{
  DsResult *r = new_result (DS_BENCH_TRANSFER, model, size_bytes, started_at);
  DsTransferData *d = r->data;
  double sum = 0;

  d->span_bytes = size_bytes;
  d->block_bytes = 65536;
  d->read.present = TRUE;
  for (unsigned i = 0; i < 200; i++)
    {
      DsTransferPoint p = {
        .offset_bytes = size_bytes / 200 * i,
        .bytes_per_s = min_rate + (max_rate - min_rate) * i / 199.0,
      };
      sum += p.bytes_per_s;
      g_array_append_val (d->read.points, p);
    }
  for (unsigned i = 0; i < 50; i++)
    {
      DsAccessPoint a = { .offset_bytes = size_bytes / 50 * i, .access_ns = (uint64_t) (access_s * 1e9) };
      g_array_append_val (d->read.access, a);
    }
  d->read.min_bytes_per_s = min_rate;
  d->read.max_bytes_per_s = max_rate;
  d->read.avg_bytes_per_s = sum / 200;
  d->read.access_time_s = access_s;
  d->read.burst_bytes_per_s = max_rate * 1.1;
  d->read.cpu_percent = 1.5;

  return r;
}

DsResult *
ds_test_library_workload (const char *model,
                          DsPattern   pattern,
                          double      bytes_per_s,
                          double      lat_mean_s,
                          const char *started_at)
{
  DsResult *r = new_result (DS_BENCH_WORKLOAD, model, UINT64_C (1) << 30, started_at);
  DsWorkloadData *d = r->data;
  DsWorkloadDir *dirs[2] = { &d->read, &d->write };
  gboolean want[2] = { pattern != DS_PATTERN_WRITE && pattern != DS_PATTERN_RANDWRITE,
                       pattern == DS_PATTERN_WRITE || pattern == DS_PATTERN_RANDWRITE ||
                       pattern == DS_PATTERN_RANDRW };

  r->spec.pattern = pattern;
  d->runtime_s = 10;
  d->engine = g_strdup ("sync");
  for (int i = 0; i < 2; i++)
    {
      DsWorkloadDir *dir = dirs[i];

      if (!want[i])
        continue;
      dir->present = TRUE;
      dir->bytes_per_s = bytes_per_s;
      dir->iops = bytes_per_s / 4096;
      dir->io_bytes = (uint64_t) (bytes_per_s * 10);
      dir->ios = dir->io_bytes / 4096;
      dir->lat_min_s = lat_mean_s / 4;
      dir->lat_mean_s = lat_mean_s;
      dir->lat_max_s = lat_mean_s * 20;
      dir->lat_stddev_s = lat_mean_s / 2;
      for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
        dir->lat_percentile_s[k] = lat_mean_s * (0.5 + ds_workload_percentiles[k] / 50.0);
    }

  return r;
}
