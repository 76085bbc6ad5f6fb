/* ds-sweep-compare.c: Saturation (sweep) runs side by side: the table by
 * level, and IOPS and p99 latency against the level, each knee marked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Levels are matched by their value (queue depth 16 with queue depth 16),
 * so a sweep of 1…256 and one of 1…32 share their first six rows.  A sweep
 * over threads and one over queue depth share no axis: their curves say
 * so (the comparison refuses them).
 */
#include "config.h"

#include <math.h>

#include "ds-bench-sweep.h"
#include "ds-figures.h"
#include "ds-result.h"

static unsigned
step_level (const DsSweepData *data,
            const DsSweepStep *step)
{
  return data->over_threads ? step->threads : step->queue_depth;
}

void
ds_sweep_compare_rows (const DsResult *result,
                       DsFigures      *figures)
{
  const DsSweepData *data = result->data;
  const char *axis = data->over_threads ? "threads" : "queue depth";
  const char *tag = data->over_threads ? "t" : "qd";
  g_autofree char *section = g_strdup_printf ("Saturation, by %s", axis);
  g_autofree char *knee_words = ds_sweep_knee_words (data);

  for (guint i = 0; data->steps != NULL && i < data->steps->len; i++)
    {
      const DsSweepStep *step = &g_array_index (data->steps, DsSweepStep, i);
      unsigned level = step_level (data, step);
      g_autofree char *name = g_strdup_printf ("%s %u%s", data->over_threads ? "Threads" : "QD", level,
                                               data->knee.found && data->knee.index == i ? " (knee)" : "");
      const struct { const char *fig, *measure; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
        { "iops", "IOPS", DS_COMPARE_IOPS, TRUE, step->iops },
        { "bytes_per_s", "MB/s", DS_COMPARE_RATE, TRUE, step->bytes_per_s },
        { "lat_mean", "mean latency", DS_COMPARE_TIME, FALSE, step->lat_mean_s },
        { "lat_p99", "p99 latency", DS_COMPARE_TIME, FALSE, step->lat_p99_s > 0 ? step->lat_p99_s : NAN },
      };

      for (guint k = 0; k < G_N_ELEMENTS (figs); k++)
        {
          g_autofree char *key = g_strdup_printf ("%s%u.%s", tag, level, figs[k].fig);

          ds_figures_add (figures, key, section, name, figs[k].measure, figs[k].unit, figs[k].hib,
                          step->ios > 0 ? figs[k].v : NAN);
        }
    }

  /* The knee: where more in flight stops paying. */
  ds_figures_add (figures, "knee.level", "Saturation knee", "Knee", axis, DS_COMPARE_COUNT, TRUE,
                  data->knee.found ? (double) (data->over_threads ? data->knee.threads
                                                                  : data->knee.queue_depth) : NAN);
  ds_figures_add (figures, "knee.iops", "Saturation knee", "Knee", "IOPS", DS_COMPARE_IOPS, TRUE,
                  data->knee.found ? data->knee.iops : NAN);
  ds_figures_add (figures, "knee.lat_p99", "Saturation knee", "Knee", "p99 latency", DS_COMPARE_TIME,
                  FALSE, data->knee.found && data->knee.p99_s > 0 ? data->knee.p99_s : NAN);
  if (knee_words != NULL && *knee_words != '\0')
    ds_figures_note (figures, knee_words);
}

void
ds_sweep_compare_curves (const DsResult *result,
                         DsCurves       *curves)
{
  const DsSweepData *data = result->data;
  const char *axis = data->over_threads ? "threads" : "queue depth";
  g_autofree char *t_iops = g_strdup_printf ("IOPS against %s", axis);
  g_autofree char *t_p99 = g_strdup_printf ("p99 latency against %s", axis);
  DsCurveAxes iops = { "iops", t_iops, axis, DS_COMPARE_COUNT, TRUE, "IOPS", DS_COMPARE_IOPS, FALSE };
  DsCurveAxes p99 = { "lat_p99", t_p99, axis, DS_COMPARE_COUNT, TRUE, "p99 latency", DS_COMPARE_TIME, FALSE };
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  double knee_x = NAN;

  if (data->steps == NULL || data->steps->len == 0)
    return;
  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsSweepStep *step = &g_array_index (data->steps, DsSweepStep, i);
      DsCurveXY pi = { step_level (data, step), step->ios > 0 ? step->iops : NAN };
      DsCurveXY pl = { step_level (data, step), step->ios > 0 && step->lat_p99_s > 0 ? step->lat_p99_s : NAN };

      g_array_append_val (a, pi);
      g_array_append_val (b, pl);
      if (data->knee.found && data->knee.index == i)
        knee_x = step_level (data, step);
    }
  ds_curves_add (curves, &iops, (const DsCurveXY *) a->data, a->len, knee_x, "knee");
  ds_curves_add (curves, &p99, (const DsCurveXY *) b->data, b->len, knee_x, "knee");
}
