/* ds-workload-compare.c: a workload's figures, for a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-bench-workload.h"
#include "ds-figures.h"
#include "ds-result.h"

double
ds_workload_dir_percentile (const DsWorkloadDir *dir,
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
workload_dir (DsFigures           *f,
              const DsWorkloadDir *dir,
              gboolean             write,
              gboolean             timed)
{
  const char *d = write ? "write" : "read";
  const char *section = write ? "Workload, write" : "Workload, read";
  const struct { const char *fig, *name; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
    { "bandwidth", "Bandwidth", DS_COMPARE_RATE, TRUE, timed ? dir->bytes_per_s : NAN },
    { "iops", "Operations", DS_COMPARE_IOPS, TRUE, timed ? dir->iops : NAN },
    { "lat_mean", "Latency average", DS_COMPARE_TIME, FALSE, dir->lat_mean_s },
    { "lat_p50", "Latency p50", DS_COMPARE_TIME, FALSE, ds_workload_dir_percentile (dir, 50) },
    { "lat_p99", "Latency p99", DS_COMPARE_TIME, FALSE, ds_workload_dir_percentile (dir, 99) },
    { "lat_p99_9", "Latency p99.9", DS_COMPARE_TIME, FALSE, ds_workload_dir_percentile (dir, 99.9) },
    { "lat_max", "Latency maximum", DS_COMPARE_TIME, FALSE, dir->lat_max_s },
  };

  if (!dir->present)
    return;

  for (guint k = 0; k < G_N_ELEMENTS (figs); k++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", d, figs[k].fig);

      ds_figures_add (f, key, section, figs[k].name, "", figs[k].unit, figs[k].hib, figs[k].v);
    }
}

void
ds_workload_compare_rows (const DsResult *result,
                          DsFigures      *figures)
{
  const DsWorkloadData *data = result->data;

  workload_dir (figures, &data->read, FALSE, data->runtime_s > 0);
  workload_dir (figures, &data->write, TRUE, data->runtime_s > 0);
}
