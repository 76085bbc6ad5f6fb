/* ds-sustain-compare.c: Sustained Write runs side by side: the rate at the
 * start, the cliff, the floor; and the rate against bytes written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bytes written, not time, is the axis: a drive's SLC cache ends after so
 * many bytes, whatever the speed that filled it, so two drives' cliffs
 * line up where their caches end.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-sustain.h"
#include "ds-bench-workload.h"
#include "ds-figures.h"
#include "ds-result.h"

#define SECTION "Sustained Write"

void
ds_sustain_compare_rows (const DsResult *result,
                         DsFigures      *f)
{
  const DsSustainData *data = result->data;
  const DsSustainAnalysis *a = &data->analysis;
  const DsWorkloadDir *w = data->run != NULL ? &data->run->write : NULL;
  gboolean timed = w != NULL && w->present && data->run->runtime_s > 0;
  g_autofree char *words = ds_sustain_cliff_words (data);

  ds_figures_add (f, "write.bytes_per_s", SECTION, "Average rate", "", DS_COMPARE_RATE, TRUE,
                  timed ? w->bytes_per_s : NAN);
  ds_figures_add (f, "write.bytes", SECTION, "Written", "", DS_COMPARE_BYTES, TRUE,
                  w != NULL && w->present ? (double) w->io_bytes : NAN);
  ds_figures_add (f, "start_bytes_per_s", SECTION, "Rate at the start", "", DS_COMPARE_RATE, TRUE,
                  a->start_bytes_per_s > 0 ? a->start_bytes_per_s : NAN);
  ds_figures_add (f, "cliff_bytes", SECTION, "Cliff after", "bytes written", DS_COMPARE_BYTES, TRUE,
                  a->cliff_found ? a->cliff_bytes : NAN);
  ds_figures_add (f, "cliff_t", SECTION, "Cliff after", "time", DS_COMPARE_TIME, TRUE,
                  a->cliff_found ? a->cliff_t_s : NAN);
  ds_figures_add (f, "floor_bytes_per_s", SECTION, "Floor (rate past the cliff)", "", DS_COMPARE_RATE,
                  TRUE, a->floor_bytes_per_s > 0 ? a->floor_bytes_per_s : NAN);
  ds_figures_add (f, "dips", SECTION, "Dips", "", DS_COMPARE_COUNT, FALSE,
                  a->dips != NULL ? (double) a->dips->len : NAN);
  ds_figures_add (f, "write.lat_p99", SECTION, "Latency p99", "", DS_COMPARE_TIME, FALSE,
                  w != NULL && w->present ? ds_workload_dir_percentile (w, 99) : NAN);
  if (data->has_recovery)
    ds_figures_add (f, "recovery.bytes_per_s", SECTION, "Rate after the pause", "", DS_COMPARE_RATE,
                    TRUE, data->recovery.bytes_per_s);
  if (words != NULL && *words != '\0')
    ds_figures_note (f, words);
}

void
ds_sustain_compare_curves (const DsResult *result,
                           DsCurves       *curves)
{
  const DsSustainData *data = result->data;
  DsCurveAxes axes = { "write.rate", "Write rate against bytes written", "bytes written",
                       DS_COMPARE_BYTES, FALSE, "write rate", DS_COMPARE_RATE, FALSE };
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  double bytes = 0, t = 0;

  if (data->run == NULL || data->run->series == NULL || data->run->series->len == 0)
    return;
  for (guint i = 0; i < data->run->series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (data->run->series, DsIntervalPoint, i);
      double dt = MAX (p->t_s - t, 0.0);
      DsCurveXY xy;

      bytes += p->write.bytes_per_s * dt;
      t = p->t_s;
      xy = (DsCurveXY) { bytes, p->write.bytes_per_s };
      g_array_append_val (points, xy);
    }
  ds_curves_add (curves, &axes, (const DsCurveXY *) points->data, points->len,
                 data->analysis.cliff_found ? data->analysis.cliff_bytes : NAN, "cliff");
}
