/* ds-compare-rows.c: the figures of each kind, as comparison rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows come in the order the kind's report prints them, each direction its
 * own section.  Keys are "DIRECTION.FIGURE" (plus the row's JSON name for
 * table kinds), stable for scripts reading `compare --json`.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-random-access.h"
#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-compare-private.h"

#define add ds_compare_builder_add

static const char *
dir_name (gboolean write)
{
  return write ? "write" : "read";
}

/* ---- benchmark ---------------------------------------------------------- */

/* The mean rate of the points (that did not fail) in each slice of the
 * tested capacity: what lets two disks of different sizes be compared
 * along their surface (outer tracks first on a disk). */
static void
transfer_bands (const DsTransferDir *dir,
                uint64_t             span_bytes,
                double               ret_mean[DS_COMPARE_TRANSFER_BANDS])
{
  double sum[DS_COMPARE_TRANSFER_BANDS] = { 0 };
  unsigned n[DS_COMPARE_TRANSFER_BANDS] = { 0 };

  for (guint i = 0; dir->points != NULL && i < dir->points->len && span_bytes > 0; i++)
    {
      const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);
      double f = (double) p->offset_bytes / (double) span_bytes;
      int band = (int) (f * DS_COMPARE_TRANSFER_BANDS);

      if (p->error != 0)
        continue;
      band = CLAMP (band, 0, DS_COMPARE_TRANSFER_BANDS - 1);
      sum[band] += p->bytes_per_s;
      n[band]++;
    }

  for (int b = 0; b < DS_COMPARE_TRANSFER_BANDS; b++)
    ret_mean[b] = n[b] > 0 ? sum[b] / n[b] : NAN;
}

static void
transfer_dir (DsCompareBuilder    *b,
              const DsTransferDir *dir,
              uint64_t             span_bytes,
              gboolean             write)
{
  const char *d = dir_name (write);
  const char *section = write ? "Write transfer rate" : "Read transfer rate";
  double band[DS_COMPARE_TRANSFER_BANDS];
  char key[64];

  if (!dir->present)
    return;

#define KEY(fig) (g_snprintf (key, sizeof key, "%s.%s", d, fig), key)
  add (b, KEY ("transfer_min"), section, "Transfer Rate Minimum", "", DS_COMPARE_RATE, TRUE, dir->min_bytes_per_s);
  add (b, KEY ("transfer_max"), section, "Transfer Rate Maximum", "", DS_COMPARE_RATE, TRUE, dir->max_bytes_per_s);
  add (b, KEY ("transfer_avg"), section, "Transfer Rate Average", "", DS_COMPARE_RATE, TRUE, dir->avg_bytes_per_s);
  add (b, KEY ("access_time"), section, "Access Time", "", DS_COMPARE_TIME, FALSE, dir->access_time_s);
  add (b, KEY ("burst_rate"), section, "Burst Rate", "", DS_COMPARE_RATE, TRUE, dir->burst_bytes_per_s);
  add (b, KEY ("cpu_usage"), section, "CPU Usage", "", DS_COMPARE_PERCENT, FALSE, dir->cpu_percent);

  transfer_bands (dir, span_bytes, band);
  for (int i = 0; i < DS_COMPARE_TRANSFER_BANDS; i++)
    {
      unsigned from = (unsigned) (100 * i / DS_COMPARE_TRANSFER_BANDS);
      unsigned to = (unsigned) (100 * (i + 1) / DS_COMPARE_TRANSFER_BANDS);
      g_autofree char *fig = g_strdup_printf ("band_%u_%u", from, to);
      g_autofree char *name = g_strdup_printf ("Transfer Rate at %u–%u %%", from, to);

      add (b, KEY (fig), section, name, "", DS_COMPARE_RATE, TRUE, band[i]);
    }
#undef KEY
}

static void
transfer_rows (DsCompareBuilder *b,
               const DsResult   *result)
{
  const DsTransferData *data = result->data;

  transfer_dir (b, &data->read, data->span_bytes, FALSE);
  transfer_dir (b, &data->write, data->span_bytes, TRUE);
}

/* ---- extra tests -------------------------------------------------------- */

static void
extra_dir (DsCompareBuilder *b,
           GArray           *rows,
           gboolean          write)
{
  const char *section = write ? "Extra Tests, write" : "Extra Tests, read";

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);
      const char *name = ds_extra_row_name (row->row);
      const char *title = ds_extra_row_title (row->row);
      g_autofree char *k_iops = g_strdup_printf ("%s.%s.iops", dir_name (write), name);
      g_autofree char *k_time = g_strdup_printf ("%s.%s.access_time", dir_name (write), name);
      g_autofree char *k_rate = g_strdup_printf ("%s.%s.rate", dir_name (write), name);

      if (name == NULL)
        continue;
      add (b, k_iops, section, title, "IOPS", DS_COMPARE_IOPS, TRUE, row->iops);
      add (b, k_time, section, title, "access time", DS_COMPARE_TIME, FALSE, row->access_time_s);
      add (b, k_rate, section, title, "rate", DS_COMPARE_RATE, TRUE, row->bytes_per_s);
    }
}

static void
extra_rows (DsCompareBuilder *b,
            const DsResult   *result)
{
  const DsExtraData *data = result->data;

  if (data->read_present)
    extra_dir (b, data->read, FALSE);
  if (data->write_present)
    extra_dir (b, data->write, TRUE);
}

/* ---- random access ------------------------------------------------------ */

static void
random_access_dir (DsCompareBuilder        *b,
                   const DsRandomAccessDir *dir,
                   gboolean                 write)
{
  const char *section = write ? "Random Access, write" : "Random Access, read";

  if (!dir->present)
    return;

  for (guint i = 0; dir->rows != NULL && i < dir->rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      g_autofree char *title = ds_random_access_row_title (row);
      g_autofree char *id = row->transfer_bytes ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->transfer_bytes)
                                                : g_strdup ("random");
      const struct { const char *fig, *measure; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
        { "iops", "IOPS", DS_COMPARE_IOPS, TRUE, row->iops },
        { "avg_access", "avg. access time", DS_COMPARE_TIME, FALSE, row->avg_access_s },
        { "p99_access", "p99 access time", DS_COMPARE_TIME, FALSE, row->p99_s },
        { "max_access", "max. access time", DS_COMPARE_TIME, FALSE, row->max_access_s },
        { "rate", "avg. speed", DS_COMPARE_RATE, TRUE, row->bytes_per_s },
      };

      for (guint f = 0; f < G_N_ELEMENTS (figs); f++)
        {
          g_autofree char *key = g_strdup_printf ("%s.%s.%s", dir_name (write), id, figs[f].fig);

          add (b, key, section, title, figs[f].measure, figs[f].unit, figs[f].hib,
               row->ios > 0 ? figs[f].v : NAN);
        }
    }
}

static void
random_access_rows (DsCompareBuilder *b,
                    const DsResult   *result)
{
  const DsRandomAccessData *data = result->data;

  random_access_dir (b, &data->read, FALSE);
  random_access_dir (b, &data->write, TRUE);
}

/* ---- block size (also the file benchmark's) ----------------------------- */

static void
block_size_table (DsCompareBuilder *b,
                  GArray           *rows,
                  const char       *prefix,
                  const char       *section_prefix)
{
  for (int pass = 0; pass < 2; pass++)
    {
      gboolean write = pass == 1;
      g_autofree char *section = g_strdup_printf ("%s, %s speed", section_prefix,
                                                  write ? "write" : "read");

      for (guint i = 0; rows != NULL && i < rows->len; i++)
        {
          const DsBlockSizeRow *row = &g_array_index (rows, DsBlockSizeRow, i);
          double v = write ? row->write_bytes_per_s : row->read_bytes_per_s;
          g_autofree char *name = ds_block_size_format (row->block_bytes);
          g_autofree char *key = g_strdup_printf ("%s%s.%" G_GUINT64_FORMAT, prefix,
                                                  dir_name (write), row->block_bytes);

          if (v < 0)
            continue;
          add (b, key, section, name, "", DS_COMPARE_RATE, TRUE, v);
        }
    }
}

static void
block_size_rows (DsCompareBuilder *b,
                 const DsResult   *result)
{
  const DsBlockSizeData *data = result->data;

  block_size_table (b, data->rows, "", "Block Size");
}

/* ---- file benchmark ----------------------------------------------------- */

static void
file_rows (DsCompareBuilder *b,
           const DsResult   *result)
{
  const DsFileData *data = result->data;
  const char *section = "File Benchmark";

  add (b, "sequential_read", section, "Sequential read", "", DS_COMPARE_RATE, TRUE,
       data->sequential_read_bytes_per_s);
  add (b, "sequential_write", section, "Sequential write", "", DS_COMPARE_RATE, TRUE,
       data->sequential_write_bytes_per_s);
  add (b, "random_read", section, "Random read", "", DS_COMPARE_IOPS, TRUE, data->random_read_iops);
  add (b, "random_write", section, "Random write", "", DS_COMPARE_IOPS, TRUE, data->random_write_iops);
  add (b, "random_read_qd32", section, "Random read (queue depth = 32)", "", DS_COMPARE_IOPS, TRUE,
       data->random_read_qd32_iops);
  add (b, "random_write_qd32", section, "Random write (queue depth = 32)", "", DS_COMPARE_IOPS, TRUE,
       data->random_write_qd32_iops);
  block_size_table (b, data->block_size, "block_size.", "File Benchmark block size");
}

/* ---- workload ----------------------------------------------------------- */

static double
percentile (const DsWorkloadDir *dir,
            double               percent)
{
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    if (ds_workload_percentiles[k] == percent)
      return dir->lat_percentile_s[k] > 0 ? dir->lat_percentile_s[k] : NAN;

  return NAN;
}

/* @timed: the run measured a time (not an fio import with runtime 0):
 * else it has no rates to compare. */
static void
workload_dir (DsCompareBuilder    *b,
              const DsWorkloadDir *dir,
              gboolean             write,
              gboolean             timed)
{
  const char *d = dir_name (write);
  const char *section = write ? "Workload, write" : "Workload, read";
  const struct { const char *fig, *name; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
    { "bandwidth", "Bandwidth", DS_COMPARE_RATE, TRUE, timed ? dir->bytes_per_s : NAN },
    { "iops", "Operations", DS_COMPARE_IOPS, TRUE, timed ? dir->iops : NAN },
    { "lat_mean", "Latency average", DS_COMPARE_TIME, FALSE, dir->lat_mean_s },
    { "lat_p50", "Latency p50", DS_COMPARE_TIME, FALSE, percentile (dir, 50) },
    { "lat_p99", "Latency p99", DS_COMPARE_TIME, FALSE, percentile (dir, 99) },
    { "lat_p99_9", "Latency p99.9", DS_COMPARE_TIME, FALSE, percentile (dir, 99.9) },
    { "lat_max", "Latency maximum", DS_COMPARE_TIME, FALSE, dir->lat_max_s },
  };

  if (!dir->present)
    return;

  for (guint f = 0; f < G_N_ELEMENTS (figs); f++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", d, figs[f].fig);

      add (b, key, section, figs[f].name, "", figs[f].unit, figs[f].hib, figs[f].v);
    }
}

static void
workload_rows (DsCompareBuilder *b,
               const DsResult   *result)
{
  const DsWorkloadData *data = result->data;

  workload_dir (b, &data->read, FALSE, data->runtime_s > 0);
  workload_dir (b, &data->write, TRUE, data->runtime_s > 0);
}

void
ds_compare_rows_add_result (DsCompareBuilder *b,
                            const DsResult   *result)
{
  if (result->data == NULL)
    return;

  switch (result->kind)
    {
    case DS_BENCH_TRANSFER: transfer_rows (b, result); break;
    case DS_BENCH_EXTRA: extra_rows (b, result); break;
    case DS_BENCH_RANDOM_ACCESS: random_access_rows (b, result); break;
    case DS_BENCH_BLOCK_SIZE: block_size_rows (b, result); break;
    case DS_BENCH_FILE: file_rows (b, result); break;
    case DS_BENCH_WORKLOAD: workload_rows (b, result); break;
    case DS_BENCH_N_KINDS:
    default: break;
    }
}
