/* ds-io-loop.c: the I/O loop every kind uses (see ds-io-loop.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-io-loop.h"
#include "ds-io-series.h"
#include "ds-run.h"

/* How long getevents() may block before the loop looks at the cancel flag
 * and the deadline again.  Well under the 100 ms a Stop may take. */
#define POLL_NS (20 * DS_NS_PER_MSEC)

void
ds_io_stats_init (DsIoStats *stats)
{
  *stats = (DsIoStats) { .error_offset_bytes = -1 };
  ds_stats_init (&stats->read.latency_ns);
  ds_stats_init (&stats->write.latency_ns);
}

void
ds_io_stats_clear (DsIoStats *stats)
{
  g_clear_pointer (&stats->read.histogram, g_free);
  g_clear_pointer (&stats->write.histogram, g_free);
  g_clear_pointer (&stats->series, g_array_unref);
}

/* State the threads of one ds_run_io() share: only atomics, no locks. */
typedef struct {
  DsRun          *run;
  const DsIoPlan *plan;
  const DsEngineOps *ops;
  unsigned        depth;          /* per thread */
  uint64_t        block_max;      /* largest I/O */
  uint64_t        max_ios;        /* 0 = unlimited */
  uint64_t        max_bytes;
  uint64_t        t_start_ns;     /* when the first thread may start */
  uint64_t        ramp_end_ns;
  uint64_t        deadline_ns;    /* 0 = none */
  gint64          issued_ios;     /* atomic */
  gint64          issued_bytes;   /* atomic */
  gint            stop;           /* atomic: any thread saw an error */
  DsIoSeries     *series;         /* NULL unless plan->interval_ns */
  gint            finished;       /* atomic: threads that have returned */
} Shared;

typedef struct {
  Shared    *shared;
  unsigned   id;
  DsRng      rng;
  DsEngine   engine;
  DsIo      *ios;
  DsIo     **done;
  DsIoStats  stats;
  DsIoRing  *ring;                /* this thread's series ring, or NULL */
  uint64_t   first_ns;            /* first counted I/O's start */
  uint64_t   last_ns;             /* last counted completion */
  int        error;               /* negative errno of the first failure */
  int64_t    error_offset;
  gboolean   error_write;
  gboolean   setup_failed;
} Worker;

static uint64_t
thread_cpu_ns (gboolean system)
{
  struct rusage ru;
  const struct timeval *tv;

  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return 0;
  tv = system ? &ru.ru_stime : &ru.ru_utime;

  return (uint64_t) tv->tv_sec * DS_NS_PER_SEC + (uint64_t) tv->tv_usec * DS_NS_PER_USEC;
}

/* Picks the next I/O, or returns FALSE when a limit says stop issuing. */
static gboolean
next_io (Worker *w,
         DsIo   *io)
{
  Shared *sh = w->shared;
  const DsIoPlan *plan = sh->plan;
  uint32_t lbs = sh->run->target->logical_block_size;
  uint64_t len = plan->block_bytes;
  uint64_t index;
  uint64_t offset;

  if (plan->block_max_bytes > plan->block_bytes)
    {
      /* A random multiple of the logical block in [block, block_max]. */
      uint64_t steps = (plan->block_max_bytes - plan->block_bytes) / lbs + 1;
      len = plan->block_bytes + ds_rng_below (&w->rng, steps) * lbs;
    }

  index = (uint64_t) __atomic_fetch_add (&sh->issued_ios, 1, __ATOMIC_RELAXED);
  if (sh->max_ios != 0 && index >= sh->max_ios)
    return FALSE;

  if (plan->next_offset != NULL)
    {
      offset = plan->next_offset (plan->user, index, len);
    }
  else if (plan->random)
    {
      uint64_t slots = (plan->span_bytes - len) / lbs + 1;
      offset = plan->start_bytes + ds_rng_below (&w->rng, slots) * lbs;
    }
  else
    {
      uint64_t pos = (uint64_t) __atomic_fetch_add (&sh->issued_bytes, (gint64) len,
                                                    __ATOMIC_RELAXED);

      if (sh->max_bytes != 0 && pos >= sh->max_bytes)
        return FALSE;
      if (plan->wrap)
        {
          /* Whole blocks only: restart at the region's start. */
          uint64_t usable = plan->span_bytes - plan->span_bytes % len;
          pos %= usable;
        }
      else if (pos + len > plan->span_bytes)
        {
          return FALSE;
        }
      offset = plan->start_bytes + pos;
    }

  if (plan->random || plan->next_offset != NULL)
    {
      uint64_t before = (uint64_t) __atomic_fetch_add (&sh->issued_bytes, (gint64) len,
                                                       __ATOMIC_RELAXED);
      if (sh->max_bytes != 0 && before >= sh->max_bytes)
        return FALSE;
    }

  io->offset_bytes = offset;
  io->len_bytes = (uint32_t) len;
  if (plan->read_percent >= 100)
    io->write = false;
  else if (plan->read_percent == 0)
    io->write = true;
  else
    io->write = ds_rng_below (&w->rng, 100) >= plan->read_percent;
  io->result = 0;
  io->start_ns = 0;
  io->end_ns = 0;

  return TRUE;
}

static void
account (Worker     *w,
         const DsIo *io)
{
  Shared *sh = w->shared;
  DsIoDirStats *dir;
  uint64_t lat;

  if (io->result != (int64_t) io->len_bytes)
    {
      if (w->error == 0)
        {
          w->error = io->result < 0 ? (int) io->result : -EIO;
          w->error_offset = (int64_t) io->offset_bytes;
          w->error_write = io->write;
        }
      g_atomic_int_set (&sh->stop, 1);
      return;
    }

  /* The ramp: I/O that started before it ended is not counted. */
  if (io->start_ns < sh->ramp_end_ns)
    return;

  lat = io->end_ns - io->start_ns;
  dir = io->write ? &w->stats.write : &w->stats.read;
  dir->ios++;
  dir->bytes += io->len_bytes;
  ds_stats_add (&dir->latency_ns, lat);
  if (dir->histogram != NULL)
    ds_histogram_add (dir->histogram, lat);
  if (w->ring != NULL)
    ds_io_ring_add (w->ring, io->write, io->end_ns, lat, io->len_bytes);

  if (w->first_ns == 0 || io->start_ns < w->first_ns)
    w->first_ns = io->start_ns;
  if (io->end_ns > w->last_ns)
    w->last_ns = io->end_ns;

  if (sh->plan->on_complete != NULL)
    sh->plan->on_complete (sh->plan->user, io);
}

static int
worker_setup (Worker *w)
{
  Shared *sh = w->shared;
  DsTarget *target = sh->run->target;
  size_t slot_bytes = ds_align_up (sh->block_max, target->mem_align);
  int r;

  w->engine.ops = sh->ops;
  w->engine.fd = target->fd;
  w->engine.depth = sh->depth;
  w->engine.buffer_bytes = slot_bytes;
  w->engine.buffers = ds_buffer_alloc (slot_bytes * sh->depth, MAX (target->mem_align, 4096));
  w->ios = g_new0 (DsIo, sh->depth);
  w->done = g_new0 (DsIo *, sh->depth);
  if (w->engine.buffers == NULL)
    return -ENOMEM;

  /* Incompressible from the start; refreshed before every write. */
  if (sh->plan->read_percent < 100)
    ds_buffer_fill (w->engine.buffers, slot_bytes * sh->depth, &w->rng);

  for (unsigned i = 0; i < sh->depth; i++)
    {
      w->ios[i].slot = i;
      w->ios[i].buf = w->engine.buffers + (size_t) i * slot_bytes;
    }

  if (sh->plan->histogram)
    {
      w->stats.read.histogram = g_new0 (DsHistogram, 1);
      w->stats.write.histogram = g_new0 (DsHistogram, 1);
    }

  r = sh->ops->init (&w->engine);
  if (r < 0)
    {
      w->setup_failed = TRUE;
      return r;
    }

  return 0;
}

static void
worker_teardown (Worker *w)
{
  if (!w->setup_failed && w->engine.ops != NULL && w->engine.ops->cleanup != NULL)
    w->engine.ops->cleanup (&w->engine);
  ds_buffer_free (w->engine.buffers);
  w->engine.buffers = NULL;
  g_clear_pointer (&w->ios, g_free);
  g_clear_pointer (&w->done, g_free);
}

static void
worker_run (Worker *w)
{
  Shared *sh = w->shared;
  const DsEngineOps *ops = sh->ops;
  DsIo **free_ios;
  unsigned n_free;
  unsigned inflight = 0;
  gboolean issuing = TRUE;
  uint64_t user0 = thread_cpu_ns (FALSE);
  uint64_t sys0 = thread_cpu_ns (TRUE);
  int r;

  r = worker_setup (w);
  if (r < 0)
    {
      w->error = r;
      g_atomic_int_set (&sh->stop, 1);
      return;
    }

  /* A stack of free I/O slots. */
  free_ios = g_new (DsIo *, sh->depth);
  for (unsigned i = 0; i < sh->depth; i++)
    free_ios[i] = &w->ios[sh->depth - 1 - i];
  n_free = sh->depth;

  for (;;)
    {
      unsigned queued = 0;

      while (issuing && n_free > 0)
        {
          DsIo *io = free_ios[n_free - 1];

          if (!next_io (w, io))
            {
              issuing = FALSE;
              break;
            }
          if (io->write)
            ds_buffer_refresh (io->buf, io->len_bytes, &w->rng);

          r = ops->queue (&w->engine, io);
          if (r < 0)
            {
              if (w->error == 0)
                {
                  w->error = r;
                  w->error_offset = (int64_t) io->offset_bytes;
                  w->error_write = io->write;
                }
              g_atomic_int_set (&sh->stop, 1);
              issuing = FALSE;
              break;
            }
          n_free--;
          inflight++;
          queued++;
        }

      if (queued > 0 && ops->commit != NULL)
        {
          r = ops->commit (&w->engine);
          if (r < 0 && w->error == 0)
            {
              w->error = r;
              g_atomic_int_set (&sh->stop, 1);
              issuing = FALSE;
            }
        }

      if (inflight == 0)
        break;

      r = ops->getevents (&w->engine, 1, sh->depth, POLL_NS, w->done);
      if (r < 0)
        {
          if (w->error == 0)
            w->error = r;
          g_atomic_int_set (&sh->stop, 1);
          /* An engine that cannot reap cannot go on; its cleanup reaps. */
          break;
        }

      for (int i = 0; i < r; i++)
        {
          DsIo *io = w->done[i];

          inflight--;
          free_ios[n_free++] = io;
          account (w, io);
        }

      if (issuing || w->ring != NULL)
        {
          uint64_t now = r > 0 ? w->done[r - 1]->end_ns : ds_clock_ns ();

          if (w->ring != NULL)
            ds_io_ring_tick (w->ring, now);
          if (issuing &&
              (g_atomic_int_get (&sh->stop) || ds_run_cancelled (sh->run) ||
               (sh->deadline_ns != 0 && now >= sh->deadline_ns)))
            issuing = FALSE;
        }
    }

  g_free (free_ios);
  w->stats.cpu_user_ns = thread_cpu_ns (FALSE) - user0;
  w->stats.cpu_system_ns = thread_cpu_ns (TRUE) - sys0;
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;

  worker_run (w);
  if (w->ring != NULL)
    ds_io_ring_finish (w->ring);
  g_atomic_int_inc (&w->shared->finished);

  return NULL;
}

static const DsEngineOps *
resolve_engine (DsRun          *run,
                unsigned        depth,
                GError        **error)
{
  int why = 0;

  if (!run->engine_auto)
    return run->engine;

  if (depth <= 1)
    return &ds_engine_sync;
  if (ds_engine_uring_available (&why))
    return &ds_engine_uring;

  if (!run->noted_fallback)
    {
      ds_result_add_note (run->result,
                          "io_uring is not available here (%s): queue depth "
                          "%u ran on the threads engine (one thread per "
                          "queued I/O)", g_strerror (why), depth);
      run->noted_fallback = TRUE;
    }

  return &ds_engine_threads;
}

/* On the collecting thread: one interval's point to the sink. */
static void
emit_point (const DsIntervalPoint *point,
            unsigned               index,
            gpointer               user_data)
{
  DsRun *run = user_data;
  DsSample sample = {
    .kind = DS_SAMPLE_INTERVAL,
    .index = index,
    .elapsed_ns = (uint64_t) (point->t_s * DS_NS_PER_SEC),
    .value = point->read.bytes_per_s + point->write.bytes_per_s,
    .interval = point,
  };

  ds_run_emit (run, &sample);
}

/* The thread that started the run, while the I/O threads run: collects
 * the series a few times per interval (at most every 50 ms) until all of
 * the @n_threads started have returned. */
static void
collect_while_running (Shared   *sh,
                       unsigned  n_threads)
{
  uint64_t poll_ns = CLAMP (sh->plan->interval_ns / 4, 5 * DS_NS_PER_MSEC, 50 * DS_NS_PER_MSEC);

  while ((unsigned) g_atomic_int_get (&sh->finished) < n_threads)
    {
      g_usleep (poll_ns / DS_NS_PER_USEC);
      ds_io_series_collect (sh->series, emit_point, sh->run);
    }
}

static void
merge_dir (DsIoDirStats       *dst,
           const DsIoDirStats *src)
{
  dst->ios += src->ios;
  dst->bytes += src->bytes;
  ds_stats_merge (&dst->latency_ns, &src->latency_ns);
  if (src->histogram != NULL)
    {
      if (dst->histogram == NULL)
        dst->histogram = g_new0 (DsHistogram, 1);
      ds_histogram_merge (dst->histogram, src->histogram);
    }
}

int
ds_run_io (DsRun           *run,
           const DsIoPlan  *plan,
           DsIoStats       *ret_stats,
           GError         **error)
{
  DsTarget *target = run->target;
  const DsEngineOps *ops;
  Shared sh = { 0 };
  Worker *workers;
  unsigned n_threads;
  unsigned depth;
  uint64_t first = UINT64_MAX;
  uint64_t last = 0;
  Worker *failed = NULL;
  int ret = 0;

  g_return_val_if_fail (target != NULL, -EINVAL);
  g_return_val_if_fail (plan->depth >= 1, -EINVAL);

  ds_io_stats_init (ret_stats);

  if (plan->block_bytes == 0 ||
      !ds_is_aligned (plan->block_bytes, target->logical_block_size) ||
      !ds_is_aligned (plan->start_bytes, target->logical_block_size) ||
      plan->span_bytes < MAX (plan->block_bytes, plan->block_max_bytes) ||
      plan->start_bytes + plan->span_bytes > target->size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "%s: the test region (offset %" G_GUINT64_FORMAT ", %"
                   G_GUINT64_FORMAT " bytes, block %" G_GUINT64_FORMAT
                   ") does not fit the device (%" G_GUINT64_FORMAT
                   " bytes, %u-byte blocks)",
                   target->path, plan->start_bytes, plan->span_bytes,
                   plan->block_bytes, target->size_bytes,
                   target->logical_block_size);
      return -EINVAL;
    }

  ops = resolve_engine (run, plan->depth, error);
  depth = plan->depth;
  n_threads = MAX (plan->threads, 1);
  if (depth > ops->max_depth)
    {
      if (!ops->fan_out)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       "the %s engine runs at queue depth %u at most; use "
                       "io_uring or threads for queue depth %u",
                       ops->name, ops->max_depth, depth);
          return -EINVAL;
        }
      n_threads *= depth / ops->max_depth;
      depth = ops->max_depth;
    }

  g_free (run->result->engine);
  run->result->engine = g_strdup (ops->name);

  sh.run = run;
  sh.plan = plan;
  sh.ops = ops;
  sh.depth = depth;
  sh.block_max = MAX (plan->block_bytes, plan->block_max_bytes);
  sh.max_ios = plan->max_ios;
  sh.max_bytes = plan->max_bytes;
  sh.t_start_ns = ds_clock_ns ();
  sh.ramp_end_ns = sh.t_start_ns + plan->ramp_ns;
  if (plan->duration_ns != 0)
    sh.deadline_ns = sh.ramp_end_ns + plan->duration_ns;
  if (plan->interval_ns != 0)
    sh.series = ds_io_series_new (n_threads, sh.ramp_end_ns, plan->interval_ns);

  workers = g_new0 (Worker, n_threads);
  for (unsigned i = 0; i < n_threads; i++)
    {
      workers[i].shared = &sh;
      workers[i].id = i;
      workers[i].error_offset = -1;
      if (sh.series != NULL)
        workers[i].ring = ds_io_series_ring (sh.series, i);
      ds_rng_seed (&workers[i].rng, ds_rng_next (&run->rng));
      ds_io_stats_init (&workers[i].stats);
    }

  /* With a series this thread collects it while the I/O threads run. */
  if (n_threads == 1 && sh.series == NULL)
    {
      worker_main (&workers[0]);
    }
  else
    {
      GThread **threads = g_new0 (GThread *, n_threads);

      for (unsigned i = 0; i < n_threads; i++)
        threads[i] = g_thread_new ("ds-io", worker_main, &workers[i]);
      if (sh.series != NULL)
        collect_while_running (&sh, n_threads);
      for (unsigned i = 0; i < n_threads; i++)
        g_thread_join (threads[i]);
      g_free (threads);
    }

  for (unsigned i = 0; i < n_threads; i++)
    {
      Worker *w = &workers[i];

      merge_dir (&ret_stats->read, &w->stats.read);
      merge_dir (&ret_stats->write, &w->stats.write);
      ret_stats->cpu_user_ns += w->stats.cpu_user_ns;
      ret_stats->cpu_system_ns += w->stats.cpu_system_ns;
      if (w->first_ns != 0 && w->first_ns < first)
        first = w->first_ns;
      if (w->last_ns > last)
        last = w->last_ns;
      if (w->error != 0 && failed == NULL)
        failed = w;
      worker_teardown (w);
      ds_io_stats_clear (&w->stats);
    }

  /* Throughput is total bytes over the wall time from the first counted
   * I/O's submission to the last completion (all threads). */
  if (last > first)
    ret_stats->elapsed_ns = last - first;

  if (sh.series != NULL)
    {
      ds_io_series_finish (sh.series, last, emit_point, run);
      ret_stats->series = ds_io_series_steal_points (sh.series);
      ret_stats->series_dropped_ios = ds_io_series_dropped_ios (sh.series);
      g_clear_pointer (&sh.series, ds_io_series_free);
    }

  if (failed != NULL)
    {
      int e = -failed->error;

      ret_stats->error_errno = e;
      ret_stats->error_offset_bytes = failed->error_offset;
      if (run->error_errno == 0)
        {
          run->error_errno = e;
          run->error_offset_bytes = failed->error_offset;
        }

      if (failed->error_offset >= 0)
        {
          DsError code = ds_error_from_errno (e);

          if (code == DS_ERROR_FAILED || code == DS_ERROR_INVALID ||
              code == DS_ERROR_NOT_FOUND)
            code = DS_ERROR_IO;
          g_set_error (error, DS_ERROR, code,
                       "%s: %s error at offset %" G_GINT64_FORMAT
                       " (%.3f GB): %s",
                       target->path, failed->error_write ? "write" : "read",
                       failed->error_offset, failed->error_offset / 1e9,
                       g_strerror (e));
        }
      else
        {
          ds_set_error_from_errno (error, e, target->path);
        }
      ret = -e;
    }
  else if (ds_run_check_cancelled (run, error) < 0)
    {
      ret_stats->cancelled = TRUE;
      ret = -ECANCELED;
    }

  g_free (workers);

  return ret;
}
