/* ds-mark-compare.c: Workloads (mark) side by side, as CrystalDiskMark's
 * grid: each row's read, write and mix figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows are matched by what they ran, not by their place in the preset:
 * pattern, block size, queue depth and threads make the key
 * ("randread.4096.q32t1.read.bytes_per_s"), so six results of one preset,
 * or of two presets that share rows, line up row by row.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-mark.h"
#include "ds-bench-workload.h"
#include "ds-figures.h"
#include "ds-preset.h"
#include "ds-result.h"

static const char *
direction_name (DsMarkDirection direction)
{
  switch (direction)
    {
    case DS_MARK_READ: return "read";
    case DS_MARK_WRITE: return "write";
    case DS_MARK_MIX:
    case DS_MARK_N_DIRECTIONS:
    default: return "mix";
    }
}

/* The step's p99 latency: of its direction, the slower of the two for a
 * mix (NAN before a run ended). */
static double
step_p99 (const DsMarkStep *step)
{
  double r, w;

  if (step->result == NULL)
    return NAN;
  r = step->result->read.present ? ds_workload_dir_percentile (&step->result->read, 99) : NAN;
  w = step->result->write.present ? ds_workload_dir_percentile (&step->result->write, 99) : NAN;
  if (step->direction == DS_MARK_READ)
    return r;
  if (step->direction == DS_MARK_WRITE)
    return w;
  return isnan (r) ? w : isnan (w) ? r : MAX (r, w);
}

void
ds_mark_compare_rows (const DsResult *result,
                      DsFigures      *figures)
{
  const DsMarkData *data = result->data;

  for (guint i = 0; data->steps != NULL && i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];
      const char *d = direction_name (step->direction);
      g_autofree char *section = g_strdup_printf ("Workloads, %s", d);
      const char *name = step->label ? step->label : "?";
      gboolean measured = step->result != NULL;
      const struct { const char *fig, *measure; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
        { "bytes_per_s", "MB/s", DS_COMPARE_RATE, TRUE, measured ? step->bytes_per_s : NAN },
        { "iops", "IOPS", DS_COMPARE_IOPS, TRUE, measured ? step->iops : NAN },
        { "lat_mean", "mean latency", DS_COMPARE_TIME, FALSE, measured ? step->lat_mean_s : NAN },
        { "lat_p99", "p99 latency", DS_COMPARE_TIME, FALSE, step_p99 (step) },
      };

      for (guint k = 0; k < G_N_ELEMENTS (figs); k++)
        {
          g_autofree char *key = g_strdup_printf ("%s.%" G_GUINT64_FORMAT ".q%ut%u.%s.%s",
                                                  ds_pattern_to_string (step->pattern),
                                                  step->block_size_bytes, step->queue_depth,
                                                  step->threads, d, figs[k].fig);

          ds_figures_add (figures, key, section, name, figs[k].measure, figs[k].unit,
                          figs[k].hib, figs[k].v);
        }
    }
}
