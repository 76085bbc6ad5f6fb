/* ds-cache-compare.c: Cache Probe runs side by side: IOPS and access time
 * against the working set, each estimate marked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Working sets are matched by their size, so a probe up to 64 GiB and one
 * up to 4 GiB share their first rows.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-cache.h"
#include "ds-figures.h"
#include "ds-result.h"
#include "ds-units.h"

void
ds_cache_compare_rows (const DsResult *result,
                       DsFigures      *f)
{
  const DsCacheData *data = result->data;
  const DsCacheEstimate *e = &data->estimate;
  const char *section = data->write ? "Cache Probe, writes by working set" : "Cache Probe, by working set";
  g_autofree char *words = ds_cache_words (data);

  for (guint i = 0; data->sets != NULL && i < data->sets->len; i++)
    {
      const DsCacheSet *set = &g_array_index (data->sets, DsCacheSet, i);
      g_autofree char *size = ds_format_size (set->bytes);
      const struct { const char *fig, *measure; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
        { "iops", "IOPS", DS_COMPARE_IOPS, TRUE, set->iops },
        { "lat_mean", "access time", DS_COMPARE_TIME, FALSE, set->lat_mean_s },
        { "lat_p99", "p99 access time", DS_COMPARE_TIME, FALSE, set->lat_p99_s },
      };

      for (guint k = 0; k < G_N_ELEMENTS (figs); k++)
        {
          g_autofree char *key = g_strdup_printf ("set.%" G_GUINT64_FORMAT ".%s", set->bytes, figs[k].fig);

          ds_figures_add (f, key, section, size, figs[k].measure, figs[k].unit, figs[k].hib,
                          set->ios > 0 && figs[k].v > 0 ? figs[k].v : NAN);
        }
    }

  ds_figures_add (f, "estimate.bytes", "Cache Probe estimate", "Cache size", "", DS_COMPARE_BYTES, TRUE,
                  e->found ? e->estimate_bytes : NAN);
  ds_figures_add (f, "estimate.drop", "Cache Probe estimate", "IOPS past the edge / before it", "",
                  DS_COMPARE_RATIO, TRUE, e->found ? e->drop_ratio : NAN);
  ds_figures_add (f, "estimate.hot_latency", "Cache Probe estimate", "Access time, from the cache", "",
                  DS_COMPARE_TIME, FALSE, e->hot_latency_s > 0 ? e->hot_latency_s : NAN);
  ds_figures_add (f, "estimate.cold_latency", "Cache Probe estimate", "Access time, past the cache", "",
                  DS_COMPARE_TIME, FALSE, e->cold_latency_s > 0 ? e->cold_latency_s : NAN);
  if (words != NULL && *words != '\0')
    ds_figures_note (f, words);
}

void
ds_cache_compare_curves (const DsResult *result,
                         DsCurves       *curves)
{
  const DsCacheData *data = result->data;
  DsCurveAxes iops = { "iops", "IOPS against the working set", "working set", DS_COMPARE_BYTES, TRUE,
                       "IOPS", DS_COMPARE_IOPS, FALSE };
  DsCurveAxes lat = { "lat_mean", "Access time against the working set", "working set", DS_COMPARE_BYTES,
                      TRUE, "access time", DS_COMPARE_TIME, FALSE };
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
  double mark = data->estimate.found ? data->estimate.estimate_bytes : NAN;

  if (data->sets == NULL || data->sets->len == 0)
    return;
  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *set = &g_array_index (data->sets, DsCacheSet, i);
      DsCurveXY pi = { (double) set->bytes, set->ios > 0 ? set->iops : NAN };
      DsCurveXY pl = { (double) set->bytes, set->ios > 0 && set->lat_mean_s > 0 ? set->lat_mean_s : NAN };

      g_array_append_val (a, pi);
      g_array_append_val (b, pl);
    }
  ds_curves_add (curves, &iops, (const DsCurveXY *) a->data, a->len, mark, "estimate");
  ds_curves_add (curves, &lat, (const DsCurveXY *) b->data, b->len, mark, "estimate");
}
