/* ds-trace-profile.c: what a trace's workload is, in numbers: rates over
 * time, the mix, sizes, randomness, in-flight depth, burstiness, hot
 * regions, flushes and latency per interval, in two passes over the file
 * (memory: the intervals, and one interval's latencies)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-trace-profile-private.h"

#define MAX_INTERVALS 1000000u

typedef struct {
  DsTraceProfile *p;
  GArray         *heap;       /* completion times in flight, a min-heap */
  uint64_t        now;        /* where the depth is integrated to */
  guint           done_upto;  /* intervals before this have their percentiles */
  uint64_t        prev_end, run, window, window_count, prev_issue;
  gboolean        have_prev, have_issue;
  GHashTable     *sizes;      /* bytes -> DsTraceSize* */
} Pass;

static DsTraceInterval *
interval_at (DsTraceProfile *p,
             uint64_t        t)
{
  guint i = (guint) (t / p->interval_ns);

  while (p->intervals->len <= i)
    {
      DsTraceInterval iv = { 0 };

      iv.latencies = g_array_new (FALSE, FALSE, sizeof (uint64_t));
      g_array_append_val (p->intervals, iv);
    }
  return &g_array_index (p->intervals, DsTraceInterval, i);
}

void
ds_trace_heap_push (GArray   *h,
                    uint64_t  v)
{
  guint i = h->len;

  g_array_append_val (h, v);
  while (i > 0 && g_array_index (h, uint64_t, (i - 1) / 2) > v)
    {
      g_array_index (h, uint64_t, i) = g_array_index (h, uint64_t, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  g_array_index (h, uint64_t, i) = v;
}

void
ds_trace_heap_pop (GArray *h)
{
  uint64_t last = g_array_index (h, uint64_t, h->len - 1);
  guint i = 0, n = h->len - 1;

  g_array_set_size (h, n);
  while (n > 0)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && g_array_index (h, uint64_t, c + 1) < g_array_index (h, uint64_t, c))
        c++;
      if (g_array_index (h, uint64_t, c) >= last)
        break;
      g_array_index (h, uint64_t, i) = g_array_index (h, uint64_t, c);
      i = c;
    }
  if (n > 0)
    g_array_index (h, uint64_t, i) = last;
}

/* Integrates the depth (the heap's size) from pass->now to @t. */
static void
advance (Pass     *pass,
         uint64_t  t)
{
  DsTraceProfile *p = pass->p;
  double depth = pass->heap->len;

  while (pass->now < t)
    {
      uint64_t boundary = (pass->now / p->interval_ns + 1) * p->interval_ns;
      uint64_t end = MIN (t, boundary);
      DsTraceInterval *iv = interval_at (p, pass->now);

      iv->depth_ns += depth * (double) (end - pass->now);
      iv->max_depth = MAX (iv->max_depth, pass->heap->len);
      pass->now = end;
    }
}

static void
depth_to (Pass     *pass,
          uint64_t  t)
{
  while (pass->heap->len > 0 && g_array_index (pass->heap, uint64_t, 0) <= t)
    {
      uint64_t c = g_array_index (pass->heap, uint64_t, 0);

      advance (pass, c);
      ds_trace_heap_pop (pass->heap);
    }
  advance (pass, t);
}

static int
cmp_u64 (gconstpointer a,
         gconstpointer b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

static uint64_t
nearest_rank (GArray *sorted,
              double  percent)
{
  guint rank = (guint) ceil (percent / 100.0 * sorted->len);

  return g_array_index (sorted, uint64_t, rank > 0 ? rank - 1 : 0);
}

/* Percentiles of the intervals before @upto; their latencies freed. */
static void
finish_intervals (Pass  *pass,
                  guint  upto)
{
  for (; pass->done_upto < upto && pass->done_upto < pass->p->intervals->len; pass->done_upto++)
    {
      DsTraceInterval *iv = &g_array_index (pass->p->intervals, DsTraceInterval, pass->done_upto);

      if (iv->latencies->len > 0)
        {
          g_array_sort (iv->latencies, cmp_u64);
          iv->p50 = nearest_rank (iv->latencies, 50);
          iv->p99 = nearest_rank (iv->latencies, 99);
          iv->p999 = nearest_rank (iv->latencies, 99.9);
        }
      g_clear_pointer (&iv->latencies, g_array_unref);
    }
}

static void
count_pattern (Pass                *pass,
               const DsTraceRecord *r)
{
  DsTraceProfile *p = pass->p;
  DsTraceSize *size;

  if (r->op != DS_TRACE_OP_READ && r->op != DS_TRACE_OP_WRITE)
    return;
  size = g_hash_table_lookup (pass->sizes, GUINT_TO_POINTER (r->bytes));
  if (size == NULL)
    {
      size = g_new0 (DsTraceSize, 1);
      size->bytes = r->bytes;
      g_hash_table_insert (pass->sizes, GUINT_TO_POINTER (r->bytes), size);
    }
  if (r->op == DS_TRACE_OP_READ)
    size->reads++;
  else
    size->writes++;
  p->data_ios++;
  if (pass->have_prev)
    {
      uint64_t d = r->offset > pass->prev_end ? r->offset - pass->prev_end : pass->prev_end - r->offset;

      p->seeks[d == 0 ? 0 : MIN ((guint) g_bit_storage (d), SEEK_BUCKETS - 1)]++;
      if (d == 0)
        {
          p->sequential++;
          pass->run++;
        }
      else
        {
          p->runs[MIN ((guint) g_bit_storage (pass->run) - 1, RUN_BUCKETS - 1)]++;
          pass->run = 1;
        }
    }
  else
    pass->run = 1;
  pass->prev_end = r->offset + r->bytes;
  pass->have_prev = TRUE;
}

static void
count_time (Pass                *pass,
            const DsTraceRecord *r)
{
  DsTraceProfile *p = pass->p;
  uint64_t window = r->issue_ns / BURST_NS;

  if (pass->have_issue)
    {
      double gap = (double) (r->issue_ns - pass->prev_issue), delta = gap - p->gap_mean;

      p->gaps++;
      p->gap_mean += delta / (double) p->gaps;
      p->gap_m2 += delta * (gap - p->gap_mean);
    }
  pass->have_issue = TRUE;
  pass->prev_issue = r->issue_ns;
  if (window != pass->window)
    {
      pass->window = window;
      pass->window_count = 0;
    }
  pass->window_count++;
  p->peak_window = MAX (p->peak_window, pass->window_count);
}

static void
count_latency (Pass                *pass,
               DsTraceInterval     *iv,
               const DsTraceRecord *r)
{
  DsTraceProfile *p = pass->p;
  uint64_t lat;

  if (r->complete_ns == DS_TRACE_NO_TIME || r->complete_ns < r->issue_ns)
    {
      p->incomplete++;
      return;
    }
  lat = r->complete_ns - r->issue_ns;
  if (r->op == DS_TRACE_OP_READ || r->op == DS_TRACE_OP_WRITE)
    {
      ds_histogram_add (&p->latency[0], lat);
      ds_histogram_add (&p->latency[r->op == DS_TRACE_OP_READ ? 1 : 2], lat);
      if (iv->latencies != NULL)
        g_array_append_val (iv->latencies, lat);
    }
  depth_to (pass, r->issue_ns);
  ds_trace_heap_push (pass->heap, r->complete_ns);
}

static void
add_record (Pass                *pass,
            const DsTraceRecord *r)
{
  DsTraceProfile *p = pass->p;
  DsTraceInterval *iv = interval_at (p, p->has_times ? r->issue_ns : 0);

  if (p->has_times)
    finish_intervals (pass, (guint) (r->issue_ns / p->interval_ns));
  iv->ops[r->op]++;
  iv->bytes[r->op] += r->bytes;
  if (p->span_bytes > 0 && (r->op == DS_TRACE_OP_READ || r->op == DS_TRACE_OP_WRITE))
    iv->heat[MIN (r->offset / ((p->span_bytes + HEAT_ROWS - 1) / HEAT_ROWS), HEAT_ROWS - 1)]++;
  p->fua += (r->flags & DS_TRACE_FLAG_FUA) != 0;
  p->preflush += (r->flags & DS_TRACE_FLAG_PREFLUSH) != 0;
  p->sync += (r->flags & DS_TRACE_FLAG_SYNC) != 0;
  p->errors += r->error != 0;
  g_hash_table_insert (p->pid_counts, GUINT_TO_POINTER (r->pid),
                       GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (p->pid_counts, GUINT_TO_POINTER (r->pid))) + 1));
  if (p->first_issue == DS_TRACE_NO_TIME)
    p->first_issue = r->issue_ns;
  p->last_issue = MAX (p->last_issue, r->issue_ns);
  count_pattern (pass, r);
  if (p->has_times)
    count_time (pass, r);
  if (p->has_latency)
    count_latency (pass, iv, r);
}

static int
cmp_size (gconstpointer a,
          gconstpointer b)
{
  const DsTraceSize *x = a, *y = b;
  uint64_t nx = x->reads + x->writes, ny = y->reads + y->writes;

  return nx > ny ? -1 : nx < ny ? 1 : (x->bytes < y->bytes ? -1 : x->bytes > y->bytes);
}

static void
finish_pass (Pass *pass)
{
  DsTraceProfile *p = pass->p;
  GHashTableIter iter;
  gpointer value;

  if (p->has_latency)
    {
      while (pass->heap->len > 0)
        depth_to (pass, g_array_index (pass->heap, uint64_t, 0));
      p->depth_end = pass->now;
    }
  finish_intervals (pass, G_MAXUINT);
  if (pass->have_prev)
    p->runs[MIN ((guint) g_bit_storage (pass->run) - 1, RUN_BUCKETS - 1)]++;
  g_hash_table_iter_init (&iter, pass->sizes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_append_val (p->sizes, *(DsTraceSize *) value);
  g_array_sort (p->sizes, cmp_size);
  for (guint i = 0; i < p->intervals->len; i++)
    {
      const DsTraceInterval *iv = &g_array_index (p->intervals, DsTraceInterval, i);

      p->depth_ns += iv->depth_ns;
      p->max_depth = MAX (p->max_depth, iv->max_depth);
    }
}

static gboolean
wanted (const DsTraceProfile *p,
        const DsTraceRecord  *r)
{
  return p->pids == NULL || g_hash_table_contains (p->pids, GUINT_TO_POINTER (r->pid));
}

/* The process table; with @process, the pids of that name (a profile of
 * one program's I/O: a database's, without the backup's or udev's probes). */
static gboolean
read_processes (DsTraceReader  *reader,
                DsTraceProfile *p,
                const char     *process,
                GError        **error)
{
  GArray *list = ds_trace_reader_processes (reader, error);

  if (list == NULL)
    return FALSE;
  p->processes = list;
  if (process == NULL)
    return ds_trace_reader_rewind (reader, error);
  p->pids = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < list->len; i++)
    if (strcmp (g_array_index (list, DsTraceProcess, i).comm, process) == 0)
      g_hash_table_add (p->pids, GUINT_TO_POINTER (g_array_index (list, DsTraceProcess, i).pid));
  if (g_hash_table_size (p->pids) == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("no process named “%s” in this trace"), process);
      return FALSE;
    }
  return ds_trace_reader_rewind (reader, error);
}

/* The first pass: how far the offsets reach (the heat map's height). */
static gboolean
span_pass (DsTraceReader  *reader,
           DsTraceProfile *p,
           GError        **error)
{
  DsTraceRecord r;
  uint64_t end = 0, last = 0;
  GError *local = NULL;

  while (ds_trace_reader_next (reader, &r, &local))
    if (wanted (p, &r))
      {
        if (r.op == DS_TRACE_OP_READ || r.op == DS_TRACE_OP_WRITE)
          end = MAX (end, r.offset + MIN (r.bytes, G_MAXUINT64 - r.offset));
        if (p->has_times)
          last = MAX (last, r.issue_ns);
      }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  /* The intervals are held in memory: a bound, whatever the file says. */
  if (last / p->interval_ns >= MAX_INTERVALS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the trace spans %.0f s: more than %u intervals of %.3f s (a longer --interval)"),
                   (double) last / 1e9, MAX_INTERVALS, (double) p->interval_ns / 1e9);
      return FALSE;
    }
  p->span_bytes = p->header.device_bytes > 0 ? MAX (p->header.device_bytes, end) : end;
  return ds_trace_reader_rewind (reader, error);
}

DsTraceProfile *
ds_trace_profile_new (const char  *path,
                      uint64_t     interval_ns,
                      const char  *process,
                      GError     **error)
{
  g_autoptr (DsTraceReader) reader = ds_trace_reader_open (path, error);
  g_autoptr (DsTraceProfile) p = NULL;
  Pass pass = { 0 };
  DsTraceRecord r;
  GError *local = NULL;

  if (reader == NULL)
    return NULL;
  p = g_new0 (DsTraceProfile, 1);
  p->header = *ds_trace_reader_header (reader);
  p->interval_ns = interval_ns > 0 ? interval_ns : UINT64_C (1000000000);
  p->intervals = g_array_new (FALSE, TRUE, sizeof (DsTraceInterval));
  p->sizes = g_array_new (FALSE, TRUE, sizeof (DsTraceSize));
  p->first_issue = DS_TRACE_NO_TIME;
  p->pid_counts = g_hash_table_new (NULL, NULL);
  p->has_times = (p->header.flags & DS_TRACE_HAS_TIMES) != 0;
  p->has_latency = p->has_times && (p->header.flags & DS_TRACE_HAS_COMPLETIONS) != 0;
  for (unsigned i = 0; i < 3; i++)
    ds_histogram_init (&p->latency[i]);
  if (!read_processes (reader, p, process, error))
    return NULL;
  if (!span_pass (reader, p, error))
    return NULL;
  pass.p = p;
  pass.heap = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  pass.sizes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  while (ds_trace_reader_next (reader, &r, &local))
    if (wanted (p, &r))
      add_record (&pass, &r);
  finish_pass (&pass);
  g_array_unref (pass.heap);
  g_hash_table_unref (pass.sizes);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  ds_trace_profile_summarise (p);
  return g_steal_pointer (&p);
}

void
ds_trace_profile_free (DsTraceProfile *p)
{
  for (guint i = 0; i < p->intervals->len; i++)
    g_clear_pointer (&g_array_index (p->intervals, DsTraceInterval, i).latencies, g_array_unref);
  g_array_unref (p->intervals);
  g_array_unref (p->sizes);
  g_clear_pointer (&p->pids, g_hash_table_unref);
  g_clear_pointer (&p->pid_counts, g_hash_table_unref);
  g_clear_pointer (&p->processes, g_array_unref);
  g_free (p);
}

const DsTraceSummary *
ds_trace_profile_summary (const DsTraceProfile *p)
{
  return &p->summary;
}

guint
ds_trace_profile_n_intervals (const DsTraceProfile *p)
{
  return p->intervals->len;
}

gboolean
ds_trace_profile_interval (const DsTraceProfile   *p,
                           guint                   index,
                           DsTraceIntervalFigures *ret)
{
  const DsTraceInterval *iv;
  uint64_t start, end, first, last;
  double secs;

  g_return_val_if_fail (index < p->intervals->len, FALSE);

  iv = &g_array_index (p->intervals, DsTraceInterval, index);
  /* The part of the interval the requests span: the first and last are
   * cut at the first and last issue, so their rates are not diluted by a
   * capture's idle start and end. */
  first = p->first_issue != DS_TRACE_NO_TIME ? p->first_issue : 0;
  last = MAX (p->last_issue, first);
  start = MAX ((uint64_t) index * p->interval_ns, first);
  end = MIN ((uint64_t) (index + 1) * p->interval_ns, last);
  if (start >= (uint64_t) (index + 1) * p->interval_ns || (uint64_t) index * p->interval_ns > last)
    return FALSE;       /* before the first request or after the last */
  if (end <= start)
    end = start + 1;    /* one request alone */
  secs = (double) (end - start) / 1e9;
  ret->t_s = (double) (end - first) / 1e9;
  ret->read_iops = iv->ops[DS_TRACE_OP_READ] / secs;
  ret->iops = (iv->ops[DS_TRACE_OP_READ] + iv->ops[DS_TRACE_OP_WRITE]) / secs;
  ret->bytes_per_s = (iv->bytes[DS_TRACE_OP_READ] + iv->bytes[DS_TRACE_OP_WRITE]) / secs;
  ret->p99_ns = iv->p99;
  return TRUE;
}
