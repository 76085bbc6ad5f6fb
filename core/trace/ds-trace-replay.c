/* ds-trace-replay.c: a trace replayed on a target, O_DIRECT,
 * incompressible data, io_uring.  Open loop: each I/O at its recorded time
 * (divided by the speed), whatever the earlier ones are doing; fidelity:
 * how near its time each I/O was issued, a replay that falls behind says
 * so.  Closed loop: in the trace's order, each I/O issued as soon as fewer
 * than the depth the trace had at that I/O are in flight (times are not
 * kept, the depth is); fidelity: the mean depth against the trace's.
 *
 * Writes go through the write gate (ds_target_open: --destroy-data must
 * name the target); --reads-only replays the reads only and needs none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <liburing.h>
#include <string.h>
#include <sys/prctl.h>

#include <glib/gi18n-lib.h>

#include "ds-buffer.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-histogram.h"
#include "ds-interval.h"
#include "ds-target.h"
#include "ds-trace.h"

#define MAX_IO_BYTES  (16u * 1024 * 1024)
#define START_DELAY   (20 * DS_NS_PER_MSEC)
/* Closer than this to an I/O's time the replayer spins instead of sleeping. */
#define SPIN_NS       (200 * DS_NS_PER_USEC)
#define SLICE_NS      (100 * DS_NS_PER_MSEC)

const double ds_trace_cdf_points[DS_TRACE_N_CDF] = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99 };

typedef struct {
  uint64_t issued;
  uint32_t bytes;
  uint8_t  op;
} Slot;

typedef struct {
  struct io_uring ring;
  gboolean        ring_ok;
  DsTarget       *target;
  uint8_t        *buffers;
  size_t          slot_bytes;
  Slot           *slots;
  unsigned       *free_slots, n_free, n_slots;
  DsHistogram     late, lat[3];   /* all, reads, writes */
  uint64_t        within_100us, within_1ms, late_max;
  uint64_t        first_issued, last_issued, last_completed;
  uint64_t        depth_t;        /* the in-flight count integrated up to */
  double          depth_area;
  DsTraceDepth    recorded;       /* closed loop: the trace's depth */
  const gint     *cancel;
  DsTraceLoop     loop;
  unsigned        fixed_depth;
  gboolean        timed;          /* the trace has issue times */
  DsTraceReplayResult *res;
  /* The interval's completions (reads, writes) for spec->interval_func. */
  uint64_t        iv_ns, iv_start;
  DsIntervalSum   iv[2];
  DsTraceReplayIntervalFunc iv_func;
  gpointer        iv_data;
} Replay;

typedef struct {
  uint64_t ios, writes, max_bytes, first, last;
  double   mean_depth;      /* the trace's, over what is replayed */
} Scan;

/* Whether @r is replayed, and before the window's end (FALSE: stop). */
static gboolean
wanted (const DsTraceReplaySpec *spec,
        const DsTraceRecord     *r)
{
  return r->op == DS_TRACE_OP_READ ||
         (!spec->reads_only && (r->op == DS_TRACE_OP_WRITE || r->op == DS_TRACE_OP_FLUSH));
}

static gboolean
in_window (const DsTraceReplaySpec *spec,
           uint64_t                 first,
           const DsTraceRecord     *r)
{
  return spec->window_ns == 0 || first == DS_TRACE_NO_TIME || r->issue_ns <= first ||
         r->issue_ns - first <= spec->window_ns;
}

static gboolean
scan_trace (DsTraceReader           *reader,
            const DsTraceReplaySpec *spec,
            Scan                    *scan,
            uint64_t                *span_bytes,
            GError                 **error)
{
  DsTraceRecord r;
  GError *local = NULL;
  DsTraceDepth depth;

  memset (scan, 0, sizeof *scan);
  scan->first = DS_TRACE_NO_TIME;
  *span_bytes = 0;
  ds_trace_depth_init (&depth);
  while (ds_trace_reader_next (reader, &r, &local))
    {
      if (!wanted (spec, &r))
        continue;
      if (!in_window (spec, scan->first, &r))
        break;
      ds_trace_depth_add (&depth, &r);
      if (r.op != DS_TRACE_OP_READ && r.op != DS_TRACE_OP_WRITE)
        continue;
      scan->ios++;
      scan->writes += r.op == DS_TRACE_OP_WRITE;
      scan->max_bytes = MAX (scan->max_bytes, MIN (r.bytes, MAX_IO_BYTES));
      scan->first = MIN (scan->first, r.issue_ns);
      scan->last = MAX (scan->last, r.issue_ns);
      *span_bytes = MAX (*span_bytes, r.offset + r.bytes);
    }
  scan->mean_depth = ds_trace_depth_finish (&depth);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ds_trace_reader_rewind (reader, error);
}

/* The replay's in-flight count integrated up to @now (before it changes). */
static void
inflight_to (Replay   *rp,
             uint64_t  now)
{
  if (rp->depth_t != 0 && now > rp->depth_t)
    rp->depth_area += (double) (rp->n_slots - rp->n_free) * (double) (now - rp->depth_t);
  rp->depth_t = MAX (now, rp->depth_t);
}

/* The interval that ended at @end (after @length_ns) to the caller. */
static void
interval_emit (Replay   *rp,
               uint64_t  end,
               uint64_t  length_ns)
{
  DsIntervalPoint point = { .t_s = (double) (end - rp->first_issued) / 1e9 };

  ds_interval_sum_to_dir (&rp->iv[0], length_ns, &point.read);
  ds_interval_sum_to_dir (&rp->iv[1], length_ns, &point.write);
  rp->iv_func (&point, rp->iv_data);
  memset (rp->iv, 0, sizeof rp->iv);
}

/* Every interval over by @now; with @last, the part since the last one
 * too (the replay's end) if it is at least half an interval. */
static void
interval_flush (Replay   *rp,
                uint64_t  now,
                gboolean  last)
{
  if (rp->iv_func == NULL || rp->first_issued == 0)
    return;
  while (now >= rp->iv_start + rp->iv_ns)
    {
      rp->iv_start += rp->iv_ns;
      interval_emit (rp, rp->iv_start, rp->iv_ns);
    }
  /* The last part, when it is at least half an interval: a shorter one's
   * few I/Os over a few ms would draw a spike the replay never had (they
   * are in the totals all the same). */
  if (last && now >= rp->iv_start + rp->iv_ns / 2 && rp->iv[0].ios + rp->iv[1].ios > 0)
    interval_emit (rp, now, now - rp->iv_start);
}

static void
reap_one (Replay              *rp,
          struct io_uring_cqe *cqe,
          uint64_t             now)
{
  unsigned slot = (unsigned) io_uring_cqe_get_data64 (cqe);
  Slot *s = &rp->slots[slot];
  uint64_t lat = now - s->issued;

  inflight_to (rp, now);
  rp->last_completed = MAX (rp->last_completed, now);

  if (cqe->res < 0)
    rp->res->errors++;
  interval_flush (rp, now, FALSE);
  if (s->op == DS_TRACE_OP_READ || s->op == DS_TRACE_OP_WRITE)
    {
      ds_histogram_add (&rp->lat[0], lat);
      ds_histogram_add (&rp->lat[s->op == DS_TRACE_OP_READ ? 1 : 2], lat);
      if (rp->iv_func != NULL && cqe->res >= 0)
        {
          DsIntervalSum *sum = &rp->iv[s->op == DS_TRACE_OP_READ ? 0 : 1];

          sum->ios++;
          sum->bytes += s->bytes;
          sum->buckets[ds_log_bucket_index (lat, DS_INTERVAL_HIST_BITS, DS_INTERVAL_HIST_BUCKETS)]++;
        }
    }
  rp->free_slots[rp->n_free++] = slot;
  io_uring_cqe_seen (&rp->ring, cqe);
}

static void
reap (Replay *rp)
{
  struct io_uring_cqe *cqe;
  uint64_t now = ds_clock_ns ();

  while (io_uring_peek_cqe (&rp->ring, &cqe) == 0)
    reap_one (rp, cqe, now);
}

static int
wait_one (Replay   *rp,
          uint64_t  timeout_ns)
{
  struct io_uring_cqe *cqe;
  struct __kernel_timespec ts = { .tv_sec = (long long) (timeout_ns / DS_NS_PER_SEC),
                                  .tv_nsec = (long long) (timeout_ns % DS_NS_PER_SEC) };
  int ret = io_uring_wait_cqe_timeout (&rp->ring, &cqe, timeout_ns ? &ts : NULL);

  if (ret == 0)
    reap_one (rp, cqe, ds_clock_ns ());
  return ret == -ETIME || ret == -EINTR ? 0 : ret;
}

/* Until @when, completing what completes meanwhile. */
static int
wait_until (Replay   *rp,
            uint64_t  when)
{
  for (;;)
    {
      uint64_t now;
      int ret;

      reap (rp);
      now = ds_clock_ns ();
      if (now >= when)
        return 0;
      interval_flush (rp, now, FALSE);    /* a quiet stretch's intervals, on time */
      if (rp->cancel != NULL && g_atomic_int_get (rp->cancel))
        return -ECANCELED;
      /* Long waits in slices of 100 ms, so that a stop is seen; one wait
       * a turn, the time read again after it (a completion ends a wait
       * early: sleeping on from the time before it made every I/O after
       * a slow one late). */
      if (when - now <= SPIN_NS)
        continue;
      if (rp->n_free < rp->n_slots)
        {
          if ((ret = wait_one (rp, MIN (when - now - SPIN_NS, SLICE_NS))) < 0)
            return ret;
        }
      else
        g_usleep ((gulong) (MIN (when - now - SPIN_NS, SLICE_NS) / 1000));
    }
}

/* Until fewer than @depth are in flight (closed loop). */
static int
wait_depth (Replay   *rp,
            unsigned  depth)
{
  int ret;

  reap (rp);
  while (rp->n_slots - rp->n_free >= depth)
    {
      if (rp->cancel != NULL && g_atomic_int_get (rp->cancel))
        return -ECANCELED;
      if ((ret = wait_one (rp, SLICE_NS)) < 0)
        return ret;
    }
  return 0;
}

/* Where @r lands on the target: aligned to its blocks, wrapped past its end. */
static gboolean
map_io (Replay              *rp,
        const DsTraceRecord *r,
        uint64_t            *ret_offset,
        uint32_t            *ret_len)
{
  uint64_t lbs = rp->target->logical_block_size, size = rp->target->size_bytes;
  uint32_t len = (uint32_t) ds_align_up (MAX (r->bytes, 1), lbs);
  uint64_t off = ds_align_down (r->offset, lbs);

  if (len > rp->slot_bytes || len > size)
    return FALSE;
  if (off + len > size)
    {
      off = ds_align_down (off % (size - len + 1), lbs);
      rp->res->wrapped++;
    }
  *ret_offset = off;
  *ret_len = len;
  return TRUE;
}

/* Open loop: at @when (DS_TRACE_NO_TIME: closed loop, once fewer than
 * @depth are in flight). */
static int
issue (Replay              *rp,
       const DsTraceRecord *r,
       uint64_t             when,
       unsigned             depth)
{
  struct io_uring_sqe *sqe;
  unsigned slot;
  uint64_t offset = 0, now, late;
  uint32_t len = 0;
  int ret;

  if (r->op != DS_TRACE_OP_FLUSH && !map_io (rp, r, &offset, &len))
    {
      rp->res->skipped++;
      return 0;
    }
  if (when == DS_TRACE_NO_TIME)
    {
      if ((ret = wait_depth (rp, depth)) < 0)
        return ret;
    }
  else if ((ret = wait_until (rp, when)) < 0)
    return ret;
  rp->res->waited += rp->n_free == 0 && when != DS_TRACE_NO_TIME;
  while (rp->n_free == 0)       /* all in flight: this one will be late */
    if ((ret = wait_one (rp, 0)) < 0)
      return ret;
  inflight_to (rp, ds_clock_ns ());
  slot = rp->free_slots[--rp->n_free];
  rp->res->max_depth = MAX (rp->res->max_depth, rp->n_slots - rp->n_free);
  sqe = io_uring_get_sqe (&rp->ring);
  if (r->op == DS_TRACE_OP_FLUSH)
    io_uring_prep_fsync (sqe, rp->target->fd, 0);
  else if (r->op == DS_TRACE_OP_WRITE)
    io_uring_prep_write (sqe, rp->target->fd, rp->buffers + (size_t) slot * rp->slot_bytes, len, offset);
  else
    io_uring_prep_read (sqe, rp->target->fd, rp->buffers + (size_t) slot * rp->slot_bytes, len, offset);
  io_uring_sqe_set_data64 (sqe, slot);
  now = ds_clock_ns ();
  rp->slots[slot].issued = now;
  rp->slots[slot].op = r->op;
  rp->slots[slot].bytes = len;
  ret = io_uring_submit (&rp->ring);
  if (ret < 0)
    return ret;
  if (when != DS_TRACE_NO_TIME)
    {
      late = now > when ? now - when : 0;
      ds_histogram_add (&rp->late, late);
      rp->within_100us += late <= 100 * DS_NS_PER_USEC;
      rp->within_1ms += late <= DS_NS_PER_MSEC;
      rp->late_max = MAX (rp->late_max, late);
    }
  if (rp->first_issued == 0)
    rp->first_issued = rp->depth_t = rp->iv_start = now;
  rp->last_issued = now;
  rp->res->ios++;
  rp->res->reads += r->op == DS_TRACE_OP_READ;
  rp->res->writes += r->op == DS_TRACE_OP_WRITE;
  rp->res->flushes += r->op == DS_TRACE_OP_FLUSH;
  rp->res->bytes += len;
  return 0;
}

static gboolean
setup (Replay                  *rp,
       const DsTraceReplaySpec *spec,
       const Scan              *scan,
       GError                 **error)
{
  gboolean writes = scan->writes > 0 && !spec->reads_only;
  DsRng rng;
  int ret;

  rp->target = ds_target_open (spec->target, writes ? DS_TARGET_OPEN_WRITE : DS_TARGET_OPEN_READ,
                               spec->confirm, error);
  if (rp->target == NULL)
    return FALSE;
  rp->n_slots = spec->max_in_flight ? spec->max_in_flight : 256;
  rp->res->max_in_flight = rp->n_slots;
  rp->slot_bytes = ds_align_up (MAX (scan->max_bytes, rp->target->logical_block_size),
                                rp->target->logical_block_size);
  rp->buffers = ds_buffer_alloc (rp->slot_bytes * rp->n_slots, MAX (rp->target->mem_align, 4096));
  if (rp->buffers == NULL)
    {
      ds_set_error_from_errno (error, -ENOMEM, spec->target);
      return FALSE;
    }
  ds_rng_seed (&rng, (uint64_t) g_get_real_time ());
  ds_buffer_fill (rp->buffers, rp->slot_bytes * rp->n_slots, &rng);   /* incompressible */
  rp->slots = g_new0 (Slot, rp->n_slots);
  rp->free_slots = g_new (unsigned, rp->n_slots);
  for (unsigned i = 0; i < rp->n_slots; i++)
    rp->free_slots[rp->n_free++] = i;
  if ((ret = io_uring_queue_init (rp->n_slots * 2, &rp->ring, 0)) < 0)
    {
      ds_set_error_from_errno (error, ret, "io_uring");
      return FALSE;
    }
  rp->ring_ok = TRUE;
  ds_histogram_init (&rp->late);
  for (unsigned i = 0; i < 3; i++)
    ds_histogram_init (&rp->lat[i]);
  return TRUE;
}

static void
teardown (Replay *rp)
{
  if (rp->ring_ok)
    io_uring_queue_exit (&rp->ring);
  if (rp->buffers != NULL)
    ds_buffer_free (rp->buffers);
  g_free (rp->slots);
  g_free (rp->free_slots);
  g_clear_pointer (&rp->target, ds_target_free);
}

static gboolean
run (Replay                  *rp,
     const DsTraceReplaySpec *spec,
     DsTraceReader           *reader,
     const Scan              *scan,
     GError                 **error)
{
  DsTraceRecord r;
  uint64_t t0 = ds_clock_ns () + START_DELAY;
  double speed = spec->speed > 0 ? spec->speed : 1.0;
  GError *local = NULL;
  int ret = 0;

  while (ret == 0 && ds_trace_reader_next (reader, &r, &local))
    {
      if (spec->cancel != NULL && g_atomic_int_get (spec->cancel))
        {
          rp->res->cancelled = TRUE;
          break;
        }
      if (!wanted (spec, &r))
        {
          rp->res->skipped++;
          continue;
        }
      if (!in_window (spec, scan->first, &r))
        break;
      if (spec->loop == DS_TRACE_LOOP_CLOSED)
        {
          /* Not inside MIN (): it would count @r twice. */
          unsigned depth = spec->depth ? spec->depth : ds_trace_depth_add (&rp->recorded, &r);

          ret = issue (rp, &r, DS_TRACE_NO_TIME, MIN (depth, rp->n_slots));
        }
      else
        ret = issue (rp, &r, t0 + (uint64_t) ((double) (MAX (r.issue_ns, scan->first) - scan->first) / speed), 0);
      if (ret == -ECANCELED)
        {
          rp->res->cancelled = TRUE;
          ret = 0;
          break;
        }
    }
  while (ret == 0 && rp->n_free < rp->n_slots)
    ret = wait_one (rp, 0);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (ret < 0)
    {
      ds_set_error_from_errno (error, ret, spec->target);
      return FALSE;
    }
  return TRUE;
}

static void
summarise (Replay     *rp,
           const Scan *scan,
           double      speed)
{
  DsTraceReplayResult *res = rp->res;
  uint64_t n = res->ios;

  res->loop = rp->loop;
  if (rp->timed && scan->last > scan->first && scan->ios > 1)
    res->recorded_iops = (double) (scan->ios - 1) / ((double) (scan->last - scan->first) / 1e9) * speed;
  if (rp->last_completed > rp->first_issued && rp->first_issued != 0)
    res->mean_depth = rp->depth_area / (double) (rp->last_completed - rp->first_issued);
  res->recorded_mean_depth = rp->fixed_depth ? (double) rp->fixed_depth : scan->mean_depth;
  if (rp->last_issued > rp->first_issued && res->reads + res->writes > 1)
    res->achieved_iops = (double) (res->reads + res->writes - 1) /
                         ((double) (rp->last_issued - rp->first_issued) / 1e9);
  res->duration_s = (double) (rp->last_issued - rp->first_issued) / 1e9;
  if (n > 0)
    {
      res->within_100us = (double) rp->within_100us / (double) n;
      res->within_1ms = (double) rp->within_1ms / (double) n;
    }
  res->late_p50_ns = ds_histogram_percentile (&rp->late, 50);
  res->late_p99_ns = ds_histogram_percentile (&rp->late, 99);
  res->late_max_ns = rp->late_max;
  res->p50_ns = ds_histogram_percentile (&rp->lat[0], 50);
  res->p99_ns = ds_histogram_percentile (&rp->lat[0], 99);
  res->p999_ns = ds_histogram_percentile (&rp->lat[0], 99.9);
  res->read_p50_ns = ds_histogram_percentile (&rp->lat[1], 50);
  res->read_p99_ns = ds_histogram_percentile (&rp->lat[1], 99);
  res->read_p999_ns = ds_histogram_percentile (&rp->lat[1], 99.9);
  res->write_p50_ns = ds_histogram_percentile (&rp->lat[2], 50);
  res->write_p99_ns = ds_histogram_percentile (&rp->lat[2], 99);
  res->write_p999_ns = ds_histogram_percentile (&rp->lat[2], 99.9);
  for (unsigned i = 0; i < DS_TRACE_N_CDF; i++)
    res->cdf_ns[i] = ds_histogram_percentile (&rp->lat[0], ds_trace_cdf_points[i]);
  res->target_bytes = rp->target->size_bytes;
}

/* What the loop needs of the trace: issue times (open loop), completion
 * times or a depth (closed loop). */
static gboolean
check_trace (const DsTraceReplaySpec *spec,
             const DsTraceHeader     *header,
             GError                 **error)
{
  if (spec->loop == DS_TRACE_LOOP_CLOSED)
    {
      if (spec->depth == 0 && !(header->flags & DS_TRACE_HAS_COMPLETIONS))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("%s has no completion times (a fio iolog): its depth is not known; "
                         "give the closed loop a depth (--depth N)"), spec->trace);
          return FALSE;
        }
      return TRUE;
    }
  if (!(header->flags & DS_TRACE_HAS_TIMES))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s has no issue times (a fio iolog of version 2): nothing to replay on time"),
                   spec->trace);
      return FALSE;
    }
  return TRUE;
}

gboolean
ds_trace_replay (const DsTraceReplaySpec *spec,
                 DsTraceReplayResult     *ret_result,
                 GError                 **error)
{
  g_autoptr (DsTraceReader) reader = ds_trace_reader_open (spec->trace, error);
  DsTraceReplayResult res = { 0 };
  Replay *rp;
  Scan scan;
  gboolean ok;

  if (reader == NULL)
    return FALSE;
  /* Sleeps end on time, not up to 50 µs later (the default slack). */
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (!check_trace (spec, ds_trace_reader_header (reader), error) ||
      !scan_trace (reader, spec, &scan, &res.trace_span_bytes, error))
    return FALSE;
  rp = g_new0 (Replay, 1);
  rp->res = &res;
  rp->cancel = spec->cancel;
  rp->loop = spec->loop;
  rp->timed = (ds_trace_reader_header (reader)->flags & DS_TRACE_HAS_TIMES) != 0;
  rp->fixed_depth = spec->loop == DS_TRACE_LOOP_CLOSED ? spec->depth : 0;
  rp->iv_func = spec->interval_ns > 0 ? spec->interval_func : NULL;
  rp->iv_ns = spec->interval_ns;
  rp->iv_data = spec->interval_data;
  ds_trace_depth_init (&rp->recorded);
  ok = setup (rp, spec, &scan, error) && run (rp, spec, reader, &scan, error);
  if (ok)
    interval_flush (rp, rp->last_completed, TRUE);
  if (ok)
    summarise (rp, &scan, spec->loop == DS_TRACE_LOOP_OPEN && spec->speed > 0 ? spec->speed : 1.0);
  ds_trace_depth_finish (&rp->recorded);
  teardown (rp);
  g_free (rp);
  if (ok)
    *ret_result = res;
  return ok;
}
