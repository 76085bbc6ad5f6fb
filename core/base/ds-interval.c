/* ds-interval.c: one interval of a workload's time series (see ds-interval.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-clock.h"
#include "ds-interval.h"
#include "ds-limits.h"

void
ds_interval_sum_add (DsIntervalSum        *sum,
                     const DsIntervalHist *hist)
{
  if (hist->ios == 0)
    return;

  sum->ios += hist->ios;
  sum->bytes += hist->bytes;
  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    sum->buckets[i] += hist->buckets[i];
}

void
ds_interval_sum_merge (DsIntervalSum       *dst,
                       const DsIntervalSum *src)
{
  dst->ios += src->ios;
  dst->bytes += src->bytes;
  for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
    dst->buckets[i] += src->buckets[i];
}

void
ds_interval_sum_to_dir (const DsIntervalSum *sum,
                        uint64_t             length_ns,
                        DsIntervalDir       *ret_dir)
{
  double seconds = (double) length_ns / DS_NS_PER_SEC;

  *ret_dir = (DsIntervalDir) { 0 };
  if (sum->ios == 0 || seconds <= 0)
    return;

  ret_dir->bytes_per_s = (double) sum->bytes / seconds;
  ret_dir->iops = (double) sum->ios / seconds;
  ret_dir->p50_s = (double) ds_log_buckets_percentile (sum->buckets, DS_INTERVAL_HIST_BUCKETS,
                                                       DS_INTERVAL_HIST_BITS, sum->ios, 50) / 1e9;
  ret_dir->p99_s = (double) ds_log_buckets_percentile (sum->buckets, DS_INTERVAL_HIST_BUCKETS,
                                                       DS_INTERVAL_HIST_BITS, sum->ios, 99) / 1e9;
}

/* ---- a series held to a number of points -------------------------------- */

static void
merge_dir (DsIntervalDir       *into,
           double               into_s,
           const DsIntervalDir *next,
           double               next_s,
           double               total_s)
{
  double ios_a = into->iops * into_s;
  double ios_b = next->iops * next_s;
  double ios = ios_a + ios_b;
  double bytes = into->bytes_per_s * into_s + next->bytes_per_s * next_s;

  into->bytes_per_s = total_s > 0 ? bytes / total_s : 0;
  into->iops = total_s > 0 ? ios / total_s : 0;
  into->p50_s = ios > 0 ? (into->p50_s * ios_a + next->p50_s * ios_b) / ios : 0;
  into->p99_s = MAX (into->p99_s, next->p99_s);
}

/* @into (from @into_start_s) followed by @next (from @next_start_s). */
static void
merge_points (DsIntervalPoint       *into,
              double                 into_start_s,
              const DsIntervalPoint *next,
              double                 next_start_s)
{
  double into_s = into->t_s - into_start_s;
  double next_s = next->t_s - next_start_s;
  double total_s = next->t_s - into_start_s;

  merge_dir (&into->read, into_s, &next->read, next_s, total_s);
  merge_dir (&into->write, into_s, &next->write, next_s, total_s);
  into->t_s = next->t_s;
}

void
ds_series_merge_init (DsSeriesMerge *merge,
                      guint          max_points)
{
  *merge = (DsSeriesMerge) {
    .points = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint)),
    .starts = g_array_new (FALSE, TRUE, sizeof (double)),
    .max_points = MAX (max_points, 2u) & ~1u,
    .factor = 1,
  };
}

/* Every two points one (max_points is even): the factor doubles. */
static void
halve (DsSeriesMerge *merge)
{
  guint n = merge->points->len / 2;

  for (guint i = 0; i < n; i++)
    {
      DsIntervalPoint a = g_array_index (merge->points, DsIntervalPoint, 2 * i);
      const DsIntervalPoint *b = &g_array_index (merge->points, DsIntervalPoint, 2 * i + 1);
      double a_start = g_array_index (merge->starts, double, 2 * i);

      merge_points (&a, a_start, b, g_array_index (merge->starts, double, 2 * i + 1));
      g_array_index (merge->points, DsIntervalPoint, i) = a;
      g_array_index (merge->starts, double, i) = a_start;
    }
  g_array_set_size (merge->points, n);
  g_array_set_size (merge->starts, n);
  merge->factor *= 2;
}

static void
push_pending (DsSeriesMerge *merge)
{
  g_array_append_val (merge->points, merge->pending);
  g_array_append_val (merge->starts, merge->pending_start_s);
  merge->pending_n = 0;
}

void
ds_series_merge_add (DsSeriesMerge         *merge,
                     const DsIntervalPoint *point,
                     double                 start_s)
{
  if (merge->pending_n == 0)
    {
      merge->pending = *point;
      merge->pending_start_s = start_s;
    }
  else
    {
      merge_points (&merge->pending, merge->pending_start_s, point, start_s);
    }

  if (++merge->pending_n < merge->factor)
    return;
  /* Full: every two points merged, and the group just completed is half
   * of one at the doubled factor. */
  if (merge->points->len >= merge->max_points)
    {
      halve (merge);
      if (merge->pending_n < merge->factor)
        return;
    }
  push_pending (merge);
}

GArray *
ds_series_merge_finish (DsSeriesMerge *merge,
                        guint         *ret_factor)
{
  GArray *points;

  if (merge->pending_n > 0)
    push_pending (merge);
  points = g_steal_pointer (&merge->points);
  if (ret_factor != NULL)
    *ret_factor = merge->factor;
  ds_series_merge_clear (merge);
  return points;
}

void
ds_series_merge_clear (DsSeriesMerge *merge)
{
  g_clear_pointer (&merge->points, g_array_unref);
  g_clear_pointer (&merge->starts, g_array_unref);
  merge->pending_n = 0;
  merge->factor = 1;
}

guint
ds_series_decimate (GArray *series,
                    guint   max_points)
{
  DsSeriesMerge merge;
  g_autoptr (GArray) merged = NULL;
  double start = 0;
  guint factor;

  if (series == NULL || series->len <= max_points)
    return 1;

  ds_series_merge_init (&merge, max_points);
  for (guint i = 0; i < series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (series, DsIntervalPoint, i);

      ds_series_merge_add (&merge, p, start);
      start = p->t_s;
    }
  merged = ds_series_merge_finish (&merge, &factor);
  g_array_set_size (series, 0);
  g_array_append_vals (series, merged->data, merged->len);
  return factor;
}

char *
ds_series_merged_note (guint  factor,
                       double interval_s)
{
  return g_strdup_printf (_("the series had more than %u intervals (DS_LIMIT_SERIES_POINTS): each "
                            "point merges %u intervals of %g s, its rates over their time, its "
                            "p99 the highest of theirs (an upper bound), its p50 the mean of "
                            "theirs weighted by their I/Os"),
                          DS_LIMIT_SERIES_POINTS, factor, interval_s);
}
