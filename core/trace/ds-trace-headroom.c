/* ds-trace-headroom.c: what a trace recorded of itself (its in-flight
 * depth, its latency from issue and completion times), and the headroom
 * search: the trace replayed open loop faster and faster until the
 * target's p99 passes a limit or the target falls behind
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-histogram.h"
#include "ds-trace.h"
#include "ds-trace-profile-private.h"

#define LOWEST_FACTOR 0.125

void
ds_trace_depth_init (DsTraceDepth *d)
{
  d->heap = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  d->now = d->start = DS_TRACE_NO_TIME;
  d->area = 0;
}

/* Moves @d to @t: what completed by then leaves, the depth integrated. */
static void
depth_move (DsTraceDepth *d,
            uint64_t      t)
{
  while (d->heap->len > 0 && g_array_index (d->heap, uint64_t, 0) <= t)
    {
      uint64_t top = g_array_index (d->heap, uint64_t, 0);

      d->area += (double) d->heap->len * (double) (top - d->now);
      d->now = top;
      ds_trace_heap_pop (d->heap);
    }
  d->area += (double) d->heap->len * (double) (t - d->now);
  d->now = t;
}

unsigned
ds_trace_depth_add (DsTraceDepth        *d,
                    const DsTraceRecord *r)
{
  unsigned depth;

  if (d->start == DS_TRACE_NO_TIME)
    d->start = d->now = r->issue_ns;
  depth_move (d, MAX (r->issue_ns, d->now));
  depth = d->heap->len + 1;
  if (r->complete_ns != DS_TRACE_NO_TIME && r->complete_ns > r->issue_ns)
    ds_trace_heap_push (d->heap, r->complete_ns);
  return depth;
}

double
ds_trace_depth_finish (DsTraceDepth *d)
{
  double mean = 0;

  while (d->heap->len > 0)
    depth_move (d, g_array_index (d->heap, uint64_t, 0));
  if (d->start != DS_TRACE_NO_TIME && d->now > d->start)
    mean = d->area / (double) (d->now - d->start);
  g_array_unref (d->heap);
  d->heap = NULL;
  return mean;
}


gboolean
ds_trace_recorded_latency (const char     *path,
                           uint64_t        window_ns,
                           gboolean        reads_only,
                           DsTraceLatency *ret,
                           GError        **error)
{
  g_autoptr (DsTraceReader) reader = ds_trace_reader_open (path, error);
  DsHistogram *lat = NULL;
  DsTraceRecord r;
  GError *local = NULL;
  uint64_t first = DS_TRACE_NO_TIME, last = 0, n = 0;

  memset (ret, 0, sizeof *ret);
  if (reader == NULL)
    return FALSE;
  if ((ds_trace_reader_header (reader)->flags & (DS_TRACE_HAS_COMPLETIONS | DS_TRACE_HAS_TIMES)) !=
      (DS_TRACE_HAS_COMPLETIONS | DS_TRACE_HAS_TIMES))
    return TRUE;
  lat = g_new (DsHistogram, 3);     /* all, reads, writes */
  for (unsigned i = 0; i < 3; i++)
    ds_histogram_init (&lat[i]);
  while (ds_trace_reader_next (reader, &r, &local))
    {
      if (r.op != DS_TRACE_OP_READ && (reads_only || r.op != DS_TRACE_OP_WRITE))
        continue;
      if (first == DS_TRACE_NO_TIME)
        first = r.issue_ns;
      if (window_ns != 0 && r.issue_ns > first && r.issue_ns - first > window_ns)
        break;
      last = MAX (last, r.issue_ns);
      n++;
      if (r.complete_ns == DS_TRACE_NO_TIME || r.complete_ns < r.issue_ns)
        continue;
      ds_histogram_add (&lat[0], r.complete_ns - r.issue_ns);
      ds_histogram_add (&lat[r.op == DS_TRACE_OP_READ ? 1 : 2], r.complete_ns - r.issue_ns);
    }
  if (local == NULL)
    {
      ret->has_latency = lat[0].count > 0;
      ret->ios = lat[0].count;
      if (n > 1 && last > first)
        ret->iops = (double) (n - 1) / ((double) (last - first) / 1e9);
      ret->p50_ns = ds_histogram_percentile (&lat[0], 50);
      ret->p99_ns = ds_histogram_percentile (&lat[0], 99);
      ret->p999_ns = ds_histogram_percentile (&lat[0], 99.9);
      ret->read_p99_ns = ds_histogram_percentile (&lat[1], 99);
      ret->write_p99_ns = ds_histogram_percentile (&lat[2], 99);
      for (unsigned i = 0; i < DS_TRACE_N_CDF; i++)
        ret->cdf_ns[i] = ds_histogram_percentile (&lat[0], ds_trace_cdf_points[i]);
    }
  g_free (lat);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

gboolean
ds_trace_replay_held (const DsTraceReplayResult *r,
                      uint64_t                   p99_ns)
{
  return r->p99_ns <= p99_ns && r->waited == 0 && r->recorded_iops > 0 &&
         r->achieved_iops >= 0.95 * r->recorded_iops;
}

/* One step at @factor, added to @h->steps.  FALSE on an error. */
static gboolean
step (const DsTraceHeadroomSpec *spec,
      double                     factor,
      DsTraceHeadroom           *h,
      gboolean                  *ret_held,
      GError                   **error)
{
  DsTraceHeadroomStep st = { .factor = factor };
  DsTraceReplaySpec replay = spec->replay;

  replay.loop = DS_TRACE_LOOP_OPEN;
  replay.speed = factor;
  replay.window_ns = spec->step_ns ? (uint64_t) ((double) spec->step_ns * factor) : 0;
  if (!ds_trace_replay (&replay, &st.result, error))
    return FALSE;
  st.held = ds_trace_replay_held (&st.result, spec->p99_ns);
  h->cancelled = st.result.cancelled;
  g_array_append_val (h->steps, st);
  if (spec->step_func != NULL)
    spec->step_func (&st, spec->step_data);
  *ret_held = st.held;
  return TRUE;
}

/* The bracket: lo held (0: none), hi did not (0: none, up to the maximum). */
static gboolean
bracket (const DsTraceHeadroomSpec *spec,
         DsTraceHeadroom           *h,
         double                    *lo,
         double                    *hi,
         GError                   **error)
{
  double max = spec->max_factor > 0 ? spec->max_factor : 1000, f = 1;
  gboolean held;

  *lo = *hi = 0;
  if (!step (spec, f, h, &held, error))
    return FALSE;
  if (held)
    {
      *lo = f;
      while (!h->cancelled && *hi == 0 && f < max)
        {
          f = MIN (f * 2, max);
          if (!step (spec, f, h, &held, error))
            return FALSE;
          *(held ? lo : hi) = f;
        }
      return TRUE;
    }
  *hi = f;
  while (!h->cancelled && *lo == 0 && f > LOWEST_FACTOR)
    {
      f /= 2;
      if (!step (spec, f, h, &held, error))
        return FALSE;
      *(held ? lo : hi) = f;
    }
  return TRUE;
}

gboolean
ds_trace_headroom_search (const DsTraceHeadroomSpec *spec,
                          DsTraceHeadroom           *ret,
                          GError                   **error)
{
  unsigned steps = spec->bisect_steps ? spec->bisect_steps : 3;
  double lo, hi;
  gboolean held;

  memset (ret, 0, sizeof *ret);
  ret->steps = g_array_new (FALSE, FALSE, sizeof (DsTraceHeadroomStep));
  if (!bracket (spec, ret, &lo, &hi, error))
    return FALSE;
  /* Bisect between the two; a factor that did not hold once is not
   * tried again above the one that did. */
  for (unsigned i = 0; i < steps && lo > 0 && hi > 0 && !ret->cancelled; i++)
    {
      double mid = round ((lo + hi) / 2 * 100) / 100;

      if (mid <= lo || mid >= hi)
        break;
      if (!step (spec, mid, ret, &held, error))
        return FALSE;
      *(held ? &lo : &hi) = mid;
    }
  ret->factor = lo;
  ret->failed_factor = hi;
  return TRUE;
}

void
ds_trace_headroom_clear (DsTraceHeadroom *h)
{
  g_clear_pointer (&h->steps, g_array_unref);
}
