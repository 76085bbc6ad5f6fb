/* ds-fio-log.c: fio's --write_bw_log / --write_iops_log / --write_lat_log
 * files as a workload's time series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio writes PREFIX_bw.N.log, PREFIX_iops.N.log and PREFIX_lat.N.log
 * (also _clat, _slat) for its N-th job, one line per entry:
 *
 *   time (ms since the job started), value, direction (0 read, 1 write,
 *   2 trim), block size, offset[, priority]
 *
 * bw values are KiB/s, iops values per second, latencies ns.  Two kinds:
 *
 *   averaged (log_avg_msec=X): one entry per direction per X ms holding
 *     the mean over that window, block size 0.  bw and iops give the
 *     series' rates; latency means give no percentiles, so p50 and p99
 *     stay 0 (and the caller says so).
 *   raw (no log_avg_msec): one entry per I/O, with its block size.  The
 *     latency log alone gives everything: per 1 s interval the I/Os and
 *     bytes that completed in it, and the median and 99th percentile of
 *     their latencies (exact: sorted, nearest rank).
 *
 * The points have the shape of a Diskscope workload's series,
 * results.series: [{t_s, read: {bytes_per_s, iops, p50_s, p99_s},
 * write: {...}}], t_s being the end of each interval.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-fio.h"

/* fio logs of a long run with every I/O are big; past this, not ours. */
#define MAX_LOG_BYTES (G_GINT64_CONSTANT (1) << 31)
#define MAX_LOG_JOBS  4096
#define RAW_INTERVAL_MS 1000

typedef struct {
  uint64_t t_ms;
  double   value;
  unsigned ddir;
  uint64_t bs;
} Entry;

/* Reads one log: FALSE with @error naming the file and line when a line is
 * not fio's; a missing file gives an empty array and no error. */
static GArray *
read_log (const char  *path,
          gboolean    *ret_exists,
          GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  gsize length = 0;
  unsigned line_no = 0;
  char *line, *next;

  *ret_exists = FALSE;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&entries);
  *ret_exists = TRUE;

  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "%s", local->message);
      return NULL;
    }
  if ((gint64) length > MAX_LOG_BYTES || memchr (text, '\0', length) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: not an fio log (binary, compressed with log_compression, or over 2 GiB)"), path);
      return NULL;
    }

  for (line = text; line != NULL && *line != '\0'; line = next)
    {
      char *fields[6] = { 0 };
      unsigned n = 0;
      Entry e = { 0 };
      guint64 v;
      char *end;

      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      line_no++;
      g_strstrip (line);
      if (*line == '\0')
        continue;

      for (char *f = line; f != NULL && n < G_N_ELEMENTS (fields); n++)
        {
          fields[n] = f;
          f = strchr (f, ',');
          if (f != NULL)
            *f++ = '\0';
          g_strstrip (fields[n]);
        }

      if (n < 4 ||
          !g_ascii_string_to_unsigned (fields[0], 10, 0, G_GUINT64_CONSTANT (1) << 50, &e.t_ms, NULL) ||
          !g_ascii_string_to_unsigned (fields[2], 10, 0, 2, &v, NULL) ||
          !g_ascii_string_to_unsigned (fields[3], 10, 0, G_GUINT64_CONSTANT (1) << 40, &e.bs, NULL))
        goto bad;
      e.ddir = (unsigned) v;
      errno = 0;
      e.value = g_ascii_strtod (fields[1], &end);
      if (errno != 0 || end == fields[1] || *end != '\0' || !isfinite (e.value) || e.value < 0 ||
          e.value > 1e18)
        goto bad;
      g_array_append_val (entries, e);
      continue;

    bad:
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s:%u: not an fio log line (time, value, direction, block size, offset)"),
                   path, line_no);
      return NULL;
    }

  return g_steal_pointer (&entries);
}

/* PREFIX_KIND.N.log, or PREFIX_KIND.log for N = 0 (per_job_logs=0);
 * fio --client names the copy it gets from a server PREFIX_KIND.N.log.HOST. */
static char *
log_path (const char *prefix,
          const char *kind,
          guint       n,
          const char *host)
{
  g_autofree char *number = n > 0 ? g_strdup_printf (".%u", n) : g_strdup ("");

  return g_strdup_printf ("%s_%s%s.log%s%s", prefix, kind, number, host ? "." : "", host ? host : "");
}

static gboolean
any_log (const char *prefix,
         guint       n,
         const char *host)
{
  const char *kinds[] = { "bw", "iops", "lat", "clat" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *path = log_path (prefix, kinds[k], n, host);

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  return FALSE;
}

guint
ds_fio_logs_count (const char *prefix,
                   const char *host)
{
  guint n = 0;

  g_return_val_if_fail (prefix != NULL, 0);

  while (n < MAX_LOG_JOBS && any_log (prefix, n + 1, host))
    n++;
  return n;
}

static DsFioLogDir *
dir_of (DsFioLogPoint *p,
        unsigned       ddir)
{
  return ddir == 1 ? &p->write : &p->read;
}

/* The point for interval @k (ending at (k + 1) × @interval_ms), made as
 * needed; points are kept in a hash by k and sorted at the end. */
static DsFioLogPoint *
point_at (GHashTable *points,
          guint64     k,
          double      interval_s)
{
  DsFioLogPoint *p = g_hash_table_lookup (points, &k);

  if (p == NULL)
    {
      guint64 *key = g_new (guint64, 1);

      *key = k;
      p = g_new0 (DsFioLogPoint, 1);
      p->t_s = (double) (k + 1) * interval_s;
      g_hash_table_insert (points, key, p);
    }

  return p;
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const DsFioLogPoint *x = a, *y = b;

  return x->t_s < y->t_s ? -1 : x->t_s > y->t_s;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least @percent % at or below. */
static double
percentile (GArray *sorted,
            double  percent)
{
  gsize rank = (gsize) ceil (percent / 100.0 * sorted->len);

  return g_array_index (sorted, double, MAX (rank, 1) - 1);
}

/* The averaging window of averaged logs: the most common step between
 * one direction's consecutive entries, rounded to whole milliseconds. */
static uint64_t
averaging_ms (GArray *entries)
{
  gint64 last[3] = { -1, -1, -1 };
  gint64 keys[64];
  guint counts[64];
  guint n = 0;
  guint best = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);

      if (last[e->ddir] >= 0 && (gint64) e->t_ms > last[e->ddir])
        {
          /* fio stamps a window's entry a few ms late: round to 10 ms. */
          gint64 step = (((gint64) e->t_ms - last[e->ddir]) + 5) / 10 * 10;
          guint k = 0;

          while (k < n && keys[k] != step)
            k++;
          if (k < n)
            counts[k]++;
          else if (n < G_N_ELEMENTS (keys))
            {
              keys[n] = step;
              counts[n++] = 1;
            }
        }
      last[e->ddir] = (gint64) e->t_ms;
    }

  for (guint k = 1; k < n; k++)
    if (counts[k] > counts[best])
      best = k;

  return n > 0 && keys[best] > 0 ? (uint64_t) keys[best] : 1000;
}

GArray *
ds_fio_logs_read (const char  *prefix,
                  const char  *host,
                  guint        job,
                  double      *ret_interval_s,
                  gboolean    *ret_percentiles,
                  GError     **error)
{
  g_autoptr (GHashTable) points = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GArray) bw = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr (GArray) iops = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr (GArray) lat = g_array_new (FALSE, FALSE, sizeof (Entry));
  gboolean found = FALSE;
  gboolean raw = FALSE;
  uint64_t interval_ms;
  double interval_s;
  GArray *series;

  g_return_val_if_fail (prefix != NULL, NULL);

  /* Job @job, or every job (1, 2, ... until none is there) summed; fio
   * writes PREFIX_bw.log (n = 0) with per_job_logs=0. */
  guint first = job ? job : any_log (prefix, 1, host) ? 1 : 0;
  guint last = job ? job : first == 0 ? 0 : MAX_LOG_JOBS;

  for (guint n = first; n <= last; n++)
    {
      const struct { const char *kind; GArray *into; } logs[] = {
        { "bw", bw }, { "iops", iops }, { "lat", lat },
      };
      gboolean any = FALSE;

      for (guint l = 0; l < G_N_ELEMENTS (logs); l++)
        {
          g_autofree char *path = log_path (prefix, logs[l].kind, n, host);
          g_autoptr (GArray) entries = NULL;
          gboolean exists;

          entries = read_log (path, &exists, error);
          if (entries == NULL)
            return NULL;
          /* Without a total-latency log, the completion latency's. */
          if (!exists && logs[l].into == lat)
            {
              g_free (path);
              path = log_path (prefix, "clat", n, host);
              g_array_unref (entries);
              entries = read_log (path, &exists, error);
              if (entries == NULL)
                return NULL;
            }
          any |= exists;
          g_array_append_vals (logs[l].into, entries->data, entries->len);
        }
      if (!any)
        break;
      found = TRUE;
    }

  if (!found)
    {
      g_autofree char *bw_path = log_path (prefix, "bw", job ? job : 1, host);
      g_autofree char *lat_path = log_path (prefix, "lat", job ? job : 1, host);

      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("no fio logs %s, %s or the like "
                     "(fio --write_bw_log=PREFIX --write_iops_log=PREFIX --write_lat_log=PREFIX)"),
                   bw_path, lat_path);
      return NULL;
    }

  /* Raw logs carry each I/O's block size; averaged ones 0. */
  for (guint i = 0; i < lat->len && !raw; i++)
    raw = g_array_index (lat, Entry, i).bs != 0;
  for (guint i = 0; i < bw->len && !raw; i++)
    raw = g_array_index (bw, Entry, i).bs != 0;

  if (raw)
    {
      GArray *from = lat->len > 0 ? lat : bw->len > 0 ? bw : iops;
      g_autoptr (GHashTable) lats = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                           (GDestroyNotify) g_array_unref);
      GHashTableIter it;
      gpointer key, value;

      interval_ms = RAW_INTERVAL_MS;
      interval_s = interval_ms / 1e3;
      for (guint i = 0; i < from->len; i++)
        {
          const Entry *e = &g_array_index (from, Entry, i);
          guint64 k = e->t_ms / interval_ms;
          DsFioLogPoint *p;
          DsFioLogDir *d;

          if (e->ddir > 1)
            continue;
          p = point_at (points, k, interval_s);
          d = dir_of (p, e->ddir);
          d->bytes_per_s += (double) e->bs / interval_s;
          d->iops += 1.0 / interval_s;
          if (from == lat)
            {
              /* Latencies per interval and direction: key 2k + ddir. */
              guint64 lk = 2 * k + e->ddir;
              GArray *values = g_hash_table_lookup (lats, &lk);
              double s = e->value / 1e9;

              if (values == NULL)
                {
                  guint64 *kk = g_new (guint64, 1);

                  *kk = lk;
                  values = g_array_new (FALSE, FALSE, sizeof (double));
                  g_hash_table_insert (lats, kk, values);
                }
              g_array_append_val (values, s);
            }
        }

      g_hash_table_iter_init (&it, lats);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          guint64 lk = *(guint64 *) key;
          GArray *values = value;
          DsFioLogDir *d = dir_of (point_at (points, lk / 2, interval_s), (unsigned) (lk % 2));

          g_array_sort (values, compare_doubles);
          d->p50_s = percentile (values, 50);
          d->p99_s = percentile (values, 99);
        }
      *ret_percentiles = lat->len > 0;
    }
  else
    {
      interval_ms = averaging_ms (bw->len > 0 ? bw : iops->len > 0 ? iops : lat);
      interval_s = interval_ms / 1e3;
      for (guint i = 0; i < bw->len; i++)
        {
          const Entry *e = &g_array_index (bw, Entry, i);
          /* An entry stamped at T covers (T - window, T]: interval k ends
           * at the nearest multiple of the window. */
          guint64 k = (e->t_ms + interval_ms / 2) / interval_ms;

          if (e->ddir <= 1 && k > 0)
            dir_of (point_at (points, k - 1, interval_s), e->ddir)->bytes_per_s += e->value * 1024;
        }
      for (guint i = 0; i < iops->len; i++)
        {
          const Entry *e = &g_array_index (iops, Entry, i);
          guint64 k = (e->t_ms + interval_ms / 2) / interval_ms;

          if (e->ddir <= 1 && k > 0)
            dir_of (point_at (points, k - 1, interval_s), e->ddir)->iops += e->value;
        }
      *ret_percentiles = FALSE;
    }

  series = g_array_sized_new (FALSE, FALSE, sizeof (DsFioLogPoint), g_hash_table_size (points));
  {
    GHashTableIter it;
    gpointer value;

    g_hash_table_iter_init (&it, points);
    while (g_hash_table_iter_next (&it, NULL, &value))
      g_array_append_vals (series, value, 1);
  }
  g_array_sort (series, compare_points);
  *ret_interval_s = interval_s;

  return series;
}
