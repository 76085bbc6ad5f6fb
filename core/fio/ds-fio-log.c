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
 *
 * Logs are read line by line through the program's bounded opener
 * (io/ds-file-read.c), never whole: what is kept is one bucket per
 * interval (and, for raw latency logs, each I/O's latency until the end,
 * as a float: 4 bytes an I/O, DS_FIO_LOG_MAX_ENTRIES at most).  A log is
 * anyone's file, so its times are held to DS_LIMIT_DURATION_MAX_NS and its
 * averaging window to an hour (the loader's longest interval); times that
 * go back (fio's per_job_logs=0 writes each job's entries after the
 * other's) are accepted and said.  A series of more than
 * DS_LIMIT_SERIES_POINTS intervals is merged, adjacent intervals two by
 * two, while it is read: bytes and I/Os summed over the merged time, and
 * (raw logs) the percentiles taken over every I/O of the merged interval,
 * so they stay exact.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-file-read.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-limits.h"
#include "ds-text.h"

#define MAX_LOG_JOBS     4096
#define RAW_INTERVAL_MS  1000
/* The loader's longest interval (ds-workload-json.c): an hour. */
#define MAX_WINDOW_MS    (UINT64_C (3600) * 1000)
#define MAX_TIME_MS      (DS_LIMIT_DURATION_MAX_NS / 1000000)

typedef struct {
  uint64_t t_ms;
  double   value;
  unsigned ddir;
  uint64_t bs;
} Entry;

/* What every log of one series has cost so far. */
typedef struct {
  uint64_t entries;
  guint    backwards;       /* times that went back, in all logs */
} Budget;

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

/* One line into @e; FALSE with the reason (a static string) when it is
 * not fio's. */
static gboolean
parse_entry (char        *line,
             Entry       *e,
             const char **ret_why)
{
  char *fields[6] = { 0 };
  unsigned n = 0;
  guint64 v;
  char *end;

  for (char *f = line; f != NULL && n < G_N_ELEMENTS (fields); n++)
    {
      fields[n] = f;
      f = strchr (f, ',');
      if (f != NULL)
        *f++ = '\0';
      g_strstrip (fields[n]);
    }

  *ret_why = N_("not an fio log line (time, value, direction, block size, offset)");
  if (n < 4)
    return FALSE;
  if (fields[0][0] == '-')
    {
      *ret_why = N_("a negative time: not an fio log line");
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (fields[0], 10, 0, G_MAXUINT64, &e->t_ms, NULL) ||
      !g_ascii_string_to_unsigned (fields[2], 10, 0, 2, &v, NULL) ||
      !g_ascii_string_to_unsigned (fields[3], 10, 0, G_GUINT64_CONSTANT (1) << 40, &e->bs, NULL))
    return FALSE;
  if (e->t_ms > MAX_TIME_MS)
    {
      *ret_why = N_("a time past a week after the job started (the longest run, "
                    "DS_LIMIT_DURATION_MAX_NS): not a log of a real run");
      return FALSE;
    }
  e->ddir = (unsigned) v;
  errno = 0;
  e->value = g_ascii_strtod (fields[1], &end);
  if (errno != 0 || end == fields[1] || *end != '\0' || !isfinite (e->value) || e->value < 0 ||
      e->value > 1e18)
    return FALSE;

  return TRUE;
}

typedef gboolean (*EntryFunc) (const Entry *e,
                               gpointer     user);

/* Calls @func for every entry of the log at @path (stopping when it says
 * FALSE); a missing file is no error (*@ret_exists FALSE). */
static gboolean
each_entry (const char  *path,
            Budget      *budget,
            EntryFunc    func,
            gpointer     user,
            gboolean    *ret_exists,
            GError     **error)
{
  g_autoptr (DsLineReader) reader = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *name = NULL;
  uint64_t last_t = 0;
  char *line;

  if (ret_exists != NULL)
    *ret_exists = FALSE;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (ret_exists != NULL)
    *ret_exists = TRUE;

  reader = ds_line_reader_open (path, _("an fio log"), DS_FIO_LOG_MAX_BYTES, "DS_FIO_LOG_MAX_BYTES",
                                DS_FIO_LOG_MAX_LINE_BYTES, error);
  if (reader == NULL)
    return FALSE;

  while (ds_line_reader_next (reader, &line, &local))
    {
      const char *why;
      Entry e = { 0 };

      g_strstrip (line);
      if (*line == '\0')
        continue;
      if (!parse_entry (line, &e, &why))
        {
          name = ds_text_sanitize (path);
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s:%" G_GUINT64_FORMAT ": %s",
                       name, ds_line_reader_line (reader), _(why));
          return FALSE;
        }
      if (++budget->entries > DS_FIO_LOG_MAX_ENTRIES)
        {
          name = ds_text_sanitize (path);
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s: the logs of this job hold more than %" PRIu64 " entries "
                         "(DS_FIO_LOG_MAX_ENTRIES): log with log_avg_msec for a run this long"),
                       name, DS_FIO_LOG_MAX_ENTRIES);
          return FALSE;
        }
      if (e.t_ms < last_t)
        budget->backwards++;
      last_t = e.t_ms;
      if (!func (&e, user))
        return TRUE;
    }
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  return TRUE;
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

/* ---- reading ------------------------------------------------------------ */

/* The logs of one series: per job, each kind's path (lat: else clat). */
typedef struct {
  GPtrArray *bw;
  GPtrArray *iops;
  GPtrArray *lat;
} Logs;

static void
logs_clear (Logs *logs)
{
  g_clear_pointer (&logs->bw, g_ptr_array_unref);
  g_clear_pointer (&logs->iops, g_ptr_array_unref);
  g_clear_pointer (&logs->lat, g_ptr_array_unref);
}

/* Job @job's logs, or (0) every job's there is (1, 2, ... until none is
 * there), or PREFIX_KIND.log of per_job_logs=0.  FALSE when there is none. */
static gboolean
find_logs (const char *prefix,
           const char *host,
           guint       job,
           Logs       *logs)
{
  guint first = job ? job : any_log (prefix, 1, host) ? 1 : 0;
  guint last = job ? job : first == 0 ? 0 : MAX_LOG_JOBS;

  logs->bw = g_ptr_array_new_with_free_func (g_free);
  logs->iops = g_ptr_array_new_with_free_func (g_free);
  logs->lat = g_ptr_array_new_with_free_func (g_free);
  for (guint n = first; n <= last; n++)
    {
      g_autofree char *lat = log_path (prefix, "lat", n, host);

      if (!any_log (prefix, n, host))
        break;
      g_ptr_array_add (logs->bw, log_path (prefix, "bw", n, host));
      g_ptr_array_add (logs->iops, log_path (prefix, "iops", n, host));
      /* Without a total-latency log, the completion latency's. */
      g_ptr_array_add (logs->lat, g_file_test (lat, G_FILE_TEST_EXISTS) ?
                                  g_steal_pointer (&lat) : log_path (prefix, "clat", n, host));
    }

  return logs->bw->len > 0;
}

static gboolean
take_first (const Entry *e,
            gpointer     user)
{
  *(Entry *) user = *e;
  return FALSE;
}

/* The first entry of any of @paths; FALSE in *@ret_found when all are
 * empty or missing. */
static gboolean
first_entry (GPtrArray *paths,
             Budget    *budget,
             Entry     *ret_entry,
             gboolean  *ret_found,
             GError   **error)
{
  *ret_found = FALSE;
  for (guint i = 0; i < paths->len && !*ret_found; i++)
    {
      uint64_t before = budget->entries;

      if (!each_entry (paths->pdata[i], budget, take_first, ret_entry, NULL, error))
        return FALSE;
      *ret_found = budget->entries > before;
      budget->entries = before;
    }
  return TRUE;
}

/* Raw logs: every entry is one I/O, counted in the second it completed in. */
typedef struct {
  DsFioLogAgg *agg;
  gboolean  latencies;
} RawAdd;

static gboolean
raw_add (const Entry *e,
         gpointer     user)
{
  RawAdd *add = user;
  DsFioLogBucket *b;

  if (e->ddir > 1)
    return TRUE;
  b = ds_fio_log_agg_bucket (add->agg, e->t_ms / RAW_INTERVAL_MS);
  b->bytes[e->ddir] += (double) e->bs;
  b->ios[e->ddir] += 1;
  if (add->latencies)
    {
      float ns = (float) e->value;

      if (b->lat[e->ddir] == NULL)
        b->lat[e->ddir] = g_array_new (FALSE, FALSE, sizeof (float));
      g_array_append_val (b->lat[e->ddir], ns);
    }
  return TRUE;
}

/* The averaging window of averaged logs: the most common step between one
 * direction's consecutive entries, rounded to 10 ms (fio stamps a window's
 * entry a few ms late). */
typedef struct {
  int64_t last[3];
  int64_t keys[64];
  guint   counts[64];
  guint   n;
} Steps;

static gboolean
step_add (const Entry *e,
          gpointer     user)
{
  Steps *s = user;

  if (s->last[e->ddir] >= 0 && (int64_t) e->t_ms > s->last[e->ddir])
    {
      int64_t step = (((int64_t) e->t_ms - s->last[e->ddir]) + 5) / 10 * 10;
      guint k = 0;

      while (k < s->n && s->keys[k] != step)
        k++;
      if (k < s->n)
        s->counts[k]++;
      else if (s->n < G_N_ELEMENTS (s->keys))
        {
          s->keys[s->n] = step;
          s->counts[s->n++] = 1;
        }
    }
  s->last[e->ddir] = (int64_t) e->t_ms;
  return TRUE;
}

typedef struct {
  DsFioLogAgg *agg;
  gboolean  bw;             /* KiB/s; else I/Os per second */
} AvgAdd;

static gboolean
avg_add (const Entry *e,
         gpointer     user)
{
  AvgAdd *add = user;
  uint64_t w = add->agg->window_ms;
  /* An entry stamped at T covers (T - window, T]: window k ends at the
   * nearest multiple of the window. */
  uint64_t k = (e->t_ms + w / 2) / w;
  double seconds = (double) w / 1e3;
  DsFioLogBucket *b;

  if (e->ddir > 1 || k == 0)
    return TRUE;
  b = ds_fio_log_agg_bucket (add->agg, k - 1);
  if (add->bw)
    b->bytes[e->ddir] += e->value * 1024 * seconds;
  else
    b->ios[e->ddir] += e->value * seconds;
  return TRUE;
}

static gboolean
each_log (GPtrArray *paths,
          Budget    *budget,
          EntryFunc  func,
          gpointer   user,
          GError   **error)
{
  for (guint i = 0; i < paths->len; i++)
    if (!each_entry (paths->pdata[i], budget, func, user, NULL, error))
      return FALSE;
  return TRUE;
}

static gboolean
read_averaged (Logs      *logs,
               Budget    *budget,
               DsFioLogAgg *agg,
               GError   **error)
{
  Steps steps = { .last = { -1, -1, -1 } };
  GPtrArray *timing = logs->bw;
  gboolean found = FALSE;
  Entry first;
  uint64_t window_ms = 1000;
  guint best = 0;

  /* The window from the bandwidth logs, else the IOPS or latency ones. */
  if (!first_entry (logs->bw, budget, &first, &found, error))
    return FALSE;
  if (!found)
    {
      timing = logs->iops;
      if (!first_entry (logs->iops, budget, &first, &found, error))
        return FALSE;
    }
  if (!found)
    timing = logs->lat;
  if (!each_log (timing, budget, step_add, &steps, error))
    return FALSE;
  /* That pass only timed the logs: count the entries once. */
  budget->entries = 0;
  budget->backwards = 0;
  for (guint k = 1; k < steps.n; k++)
    if (steps.counts[k] > steps.counts[best])
      best = k;
  if (steps.n > 0 && steps.keys[best] > 0)
    window_ms = (uint64_t) steps.keys[best];
  if (window_ms > MAX_WINDOW_MS)
    {
      g_autofree char *name = ds_text_sanitize (timing->pdata[0]);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: its entries are %" PRIu64 " ms apart: fio's log_avg_msec is "
                     "at most an hour for a series (or the times are not fio's)"),
                   name, window_ms);
      return FALSE;
    }

  ds_fio_log_agg_init (agg, window_ms);
  {
    AvgAdd bw = { agg, TRUE };
    AvgAdd iops = { agg, FALSE };

    return each_log (logs->bw, budget, avg_add, &bw, error) &&
           each_log (logs->iops, budget, avg_add, &iops, error);
  }
}

GArray *
ds_fio_logs_read (const char    *prefix,
                  const char    *host,
                  guint          job,
                  DsFioLogInfo  *ret_info,
                  GError       **error)
{
  Logs logs = { 0 };
  DsFioLogAgg agg = { 0 };
  Budget budget = { 0 };
  Entry first = { 0 };
  gboolean found = FALSE;
  gboolean raw = FALSE;
  gboolean percentiles = FALSE;
  gboolean ok;
  GArray *series = NULL;

  g_return_val_if_fail (prefix != NULL && ret_info != NULL, NULL);

  if (!find_logs (prefix, host, job, &logs))
    {
      g_autofree char *bw_path = log_path (prefix, "bw", job ? job : 1, host);
      g_autofree char *lat_path = log_path (prefix, "lat", job ? job : 1, host);

      logs_clear (&logs);
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("no fio logs %s, %s or the like "
                     "(fio --write_bw_log=PREFIX --write_iops_log=PREFIX --write_lat_log=PREFIX)"),
                   bw_path, lat_path);
      return NULL;
    }

  /* Raw logs carry each I/O's block size; averaged ones 0. */
  ok = first_entry (logs.lat, &budget, &first, &found, error);
  if (ok && !found)
    ok = first_entry (logs.bw, &budget, &first, &found, error);
  raw = found && first.bs != 0;

  if (ok && raw)
    {
      gboolean latencies = FALSE;
      GPtrArray *from;
      RawAdd add = { &agg, FALSE };

      /* Everything from one kind of log: latency, else bandwidth, else IOPS. */
      ok = first_entry (logs.lat, &budget, &first, &latencies, error);
      from = latencies ? logs.lat : logs.bw;
      if (ok && !latencies)
        {
          ok = first_entry (logs.bw, &budget, &first, &found, error);
          if (ok && !found)
            from = logs.iops;
        }
      add.latencies = latencies;
      ds_fio_log_agg_init (&agg, RAW_INTERVAL_MS);
      ok = ok && each_log (from, &budget, raw_add, &add, error);
      percentiles = latencies;
    }
  else if (ok)
    {
      ok = read_averaged (&logs, &budget, &agg, error);
    }

  if (ok)
    {
      series = agg.buckets != NULL ? ds_fio_log_agg_points (&agg, error) :
               g_array_new (FALSE, TRUE, sizeof (DsFioLogPoint));
      if (series == NULL)
        {
          g_autofree char *name = ds_text_sanitize (prefix);

          g_prefix_error (error, _("the fio logs at %s: "), name);
        }
    }
  if (series != NULL)
    {
      *ret_info = (DsFioLogInfo) {
        .interval_s = (double) (agg.buckets != NULL ? agg.window_ms * agg.factor : 1000) / 1e3,
        .percentiles = percentiles,
        .merged = agg.buckets != NULL ? (guint) agg.factor : 1,
        .backwards = budget.backwards,
      };
    }

  ds_fio_log_agg_clear (&agg);
  logs_clear (&logs);
  return series;
}
