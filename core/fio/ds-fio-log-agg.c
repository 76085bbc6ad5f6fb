/* ds-fio-log-agg.c: the intervals of fio's logs, kept while they are read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One bucket per interval (a hash: fio logs only the intervals with I/O,
 * and times may go back), with what completed in it by direction and, for
 * raw latency logs, each I/O's latency until the end, when its interval's
 * percentiles are taken (nearest rank, exact).  Past
 * DS_LIMIT_SERIES_POINTS intervals, adjacent ones are merged two by two
 * (and the window that new entries fall in doubles): bytes and I/Os summed
 * over the merged time, latencies pooled, so the percentiles of a merged
 * interval are those of all its I/Os.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-limits.h"



static void
bucket_free (gpointer data)
{
  DsFioLogBucket *b = data;

  for (int d = 0; d < 2; d++)
    if (b->lat[d] != NULL)
      g_array_unref (b->lat[d]);
  g_free (b);
}

void
ds_fio_log_agg_init (DsFioLogAgg *agg,
          uint64_t  window_ms)
{
  agg->buckets = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, bucket_free);
  agg->window_ms = window_ms;
  agg->factor = 1;
}

void
ds_fio_log_agg_clear (DsFioLogAgg *agg)
{
  g_clear_pointer (&agg->buckets, g_hash_table_unref);
}

static void
bucket_merge (DsFioLogBucket *into,
              DsFioLogBucket *from)
{
  for (int d = 0; d < 2; d++)
    {
      into->bytes[d] += from->bytes[d];
      into->ios[d] += from->ios[d];
      if (from->lat[d] == NULL)
        continue;
      if (into->lat[d] == NULL)
        into->lat[d] = g_steal_pointer (&from->lat[d]);
      else
        g_array_append_vals (into->lat[d], from->lat[d]->data, from->lat[d]->len);
    }
}

/* Twice as long intervals: adjacent ones merged. */
static void
agg_coarsen (DsFioLogAgg *agg)
{
  GHashTable *merged = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, bucket_free);
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, agg->buckets);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      guint64 k = *(guint64 *) key / 2;
      DsFioLogBucket *into = g_hash_table_lookup (merged, &k);

      if (into == NULL)
        {
          guint64 *nk = g_new (guint64, 1);

          *nk = k;
          g_hash_table_iter_steal (&it);
          g_free (key);
          g_hash_table_insert (merged, nk, value);
          continue;
        }
      bucket_merge (into, value);
    }
  g_hash_table_unref (agg->buckets);
  agg->buckets = merged;
  agg->factor *= 2;
}

/* The bucket of window @k_window, made as needed; a new one past
 * DS_LIMIT_SERIES_POINTS intervals first merges them two by two. */
DsFioLogBucket *
ds_fio_log_agg_bucket (DsFioLogAgg *agg,
            uint64_t  k_window)
{
  guint64 k = k_window / agg->factor;
  DsFioLogBucket *b = g_hash_table_lookup (agg->buckets, &k);
  guint64 *key;

  if (b != NULL)
    return b;
  while (g_hash_table_size (agg->buckets) >= DS_LIMIT_SERIES_POINTS)
    {
      agg_coarsen (agg);
      k = k_window / agg->factor;
      b = g_hash_table_lookup (agg->buckets, &k);
      if (b != NULL)
        return b;
    }
  key = g_new (guint64, 1);
  *key = k;
  b = g_new0 (DsFioLogBucket, 1);
  g_hash_table_insert (agg->buckets, key, b);
  return b;
}

static int
compare_floats (gconstpointer a,
                gconstpointer b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least @percent % at or below. */
static double
percentile (GArray *sorted,
            double  percent)
{
  gsize rank = (gsize) ceil (percent / 100.0 * sorted->len);

  return (double) g_array_index (sorted, float, MAX (rank, 1) - 1);
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const DsFioLogPoint *x = a, *y = b;

  return x->t_s < y->t_s ? -1 : x->t_s > y->t_s;
}

/* The buckets as points in time order: rates over each interval. */
GArray *
ds_fio_log_agg_points (DsFioLogAgg  *agg,
                       GError      **error)
{
  double interval_s = (double) (agg->window_ms * agg->factor) / 1e3;
  GArray *series = g_array_sized_new (FALSE, TRUE, sizeof (DsFioLogPoint),
                                      g_hash_table_size (agg->buckets));
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, agg->buckets);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      DsFioLogBucket *b = value;
      DsFioLogPoint p = { .t_s = (double) (*(guint64 *) key + 1) * interval_s };

      for (int d = 0; d < 2; d++)
        {
          DsFioLogDir *dir = d == 1 ? &p.write : &p.read;

          dir->bytes_per_s = b->bytes[d] / interval_s;
          dir->iops = b->ios[d] / interval_s;
          /* What the result file may hold (the loader refuses more): a
           * log that sums to more is not of a real run. */
          if (!(dir->bytes_per_s <= DS_JSON_MAX_BYTES_PER_S) || !(dir->iops <= DS_JSON_MAX_IOPS))
            {
              g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                           _("the logs give %.3g bytes/s or %.3g I/Os per second in the interval "
                             "ending at %g s: more than a device does (at most %.0e and %.0e)"),
                           dir->bytes_per_s, dir->iops, p.t_s, DS_JSON_MAX_BYTES_PER_S, DS_JSON_MAX_IOPS);
              g_array_unref (series);
              return NULL;
            }
          if (b->lat[d] != NULL && b->lat[d]->len > 0)
            {
              g_array_sort (b->lat[d], compare_floats);
              dir->p50_s = percentile (b->lat[d], 50) / 1e9;
              dir->p99_s = percentile (b->lat[d], 99) / 1e9;
              if (!(dir->p99_s <= DS_JSON_MAX_LATENCY_S))
                {
                  g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                               _("the logs give a latency of %.3g s in the interval ending at %g s: "
                                 "not a real I/O's (at most %.0e s)"),
                               dir->p99_s, p.t_s, DS_JSON_MAX_LATENCY_S);
                  g_array_unref (series);
                  return NULL;
                }
            }
        }
      g_array_append_val (series, p);
    }
  g_array_sort (series, compare_points);
  return series;
}

