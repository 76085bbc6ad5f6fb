/* ds-io-worker.c: one I/O thread of ds_io_run(): its buffers and engine,
 * the next offset, and the counting of each completion (no lock, no
 * allocation once it runs)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ds-io-loop-private.h"
#include "ds-error.h"
#include "ds-limits.h"

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
  uint32_t lbs = sh->ctx->target->logical_block_size;
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
      offset = ds_io_random_offset (&w->rng, plan->start_bytes, plan->span_bytes, len,
                                    sh->align);
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

  if (io->write)
    w->watch.written_bytes += io->len_bytes;
  else
    {
      w->watch.read_bytes += io->len_bytes;
      if (!sh->plan->untimed && w->reads_seen++ % DS_IO_ZERO_SAMPLE_EVERY == 0)
        {
          w->watch.zero_sampled++;
          if (ds_buffer_is_zero (io->buf, io->len_bytes))
            {
              if (w->watch.zero_found++ == 0 || io->offset_bytes < w->watch.zero_first_bytes)
                w->watch.zero_first_bytes = io->offset_bytes;
            }
        }
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
  DsTarget *target = sh->ctx->target;
  size_t slot_bytes = ds_align_up (sh->block_max, target->mem_align);
  int r;

  w->engine.ops = sh->ops;
  w->engine.fd = target->fd;
  w->engine.depth = sh->depth;
  w->engine.buffer_bytes = slot_bytes;
  w->engine.buffers = ds_buffer_alloc (slot_bytes * sh->depth, MAX (target->mem_align, 4096));
  w->ios = g_try_new0 (DsIo, sh->depth);
  w->done = g_try_new0 (DsIo *, sh->depth);
  if (w->engine.buffers == NULL || w->ios == NULL || w->done == NULL)
    {
      w->alloc_failed = DS_IO_ALLOC_BUFFERS;
      w->setup_failed = TRUE;
      return -ENOMEM;
    }

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
      w->stats.read.histogram = g_try_new0 (DsHistogram, 1);
      w->stats.write.histogram = g_try_new0 (DsHistogram, 1);
      if (w->stats.read.histogram == NULL || w->stats.write.histogram == NULL)
        {
          w->alloc_failed = DS_IO_ALLOC_HISTOGRAMS;
          w->setup_failed = TRUE;
          return -ENOMEM;
        }
    }

  r = sh->ops->init (&w->engine);
  if (r < 0)
    {
      w->setup_failed = TRUE;
      return r;
    }

  return 0;
}

void
ds_io_worker_teardown (Worker *w)
{
  if (!w->setup_failed && w->engine.ops != NULL && w->engine.ops->cleanup != NULL)
    w->engine.ops->cleanup (&w->engine);
  ds_buffer_free (w->engine.buffers);
  w->engine.buffers = NULL;
  g_clear_pointer (&w->ios, g_free);
  g_clear_pointer (&w->done, g_free);
}

/* The I/O yields the CPU to the rest of the program (the app's main loop,
 * the run's collector): see DS_IO_NICE and DS_IO_SCHED_IDLE.  On Linux
 * both are per thread.  Done once the thread's buffers and rings are
 * mapped: mapping memory takes the process's address-space lock, and a
 * thread in the idle class holding it while 15 others share the CPUs
 * kept the app's main loop waiting for it 10-65 ms when a Saturation
 * level started its threads (perf sched: the main thread asleep, woken
 * by a ds-io thread; issue 29).  A run of one thread runs on its
 * caller's (the CLI's main thread, the app's job thread): its scheduling
 * class is put back after the run where the kernel allows it (root;
 * otherwise a thread stays in the idle class, as its nice stays at
 * DS_IO_NICE: only root may raise a priority again).  Lowering one's own
 * priority is always allowed; were it refused the run would go on as
 * before. */
static void
yield_cpu (Worker *w)
{
  struct sched_param param = { 0 };

  w->caller_policy = SCHED_OTHER;
  (void) setpriority (PRIO_PROCESS, (id_t) gettid (), DS_IO_NICE);
  (void) pthread_getschedparam (pthread_self (), &w->caller_policy, &w->caller_param);
  w->idled = DS_IO_SCHED_IDLE && w->caller_policy != SCHED_IDLE &&
             pthread_setschedparam (pthread_self (), SCHED_IDLE, &param) == 0;
}

/* The worker's I/O slots: a stack of the free ones, and the count in
 * flight. */
typedef struct {
  DsIo    **free;
  unsigned  n_free;
  unsigned  inflight;
  gboolean  issuing;   /* FALSE once the run has issued its last I/O */
} Slots;

/* Every error stops the run; the worker's first is the one it reports
 * (with the I/O's place when an I/O failed, @io). */
static void
worker_fail (Worker     *w,
             int         r,
             const DsIo *io)
{
  if (w->error == 0)
    {
      w->error = r;
      if (io != NULL)
        {
          w->error_offset = (int64_t) io->offset_bytes;
          w->error_write = io->write;
        }
    }
  g_atomic_int_set (&w->shared->stop, 1);
}

/* Queues the next I/Os into the free slots while the run issues, and
 * commits what it queued. */
static void
issue (Worker *w,
       Slots  *slots)
{
  const DsEngineOps *ops = w->shared->ops;
  unsigned queued = 0;
  int r;

  while (slots->issuing && slots->n_free > 0)
    {
      DsIo *io = slots->free[slots->n_free - 1];

      if (!next_io (w, io))
        {
          slots->issuing = FALSE;
          break;
        }
      if (io->write)
        ds_buffer_refresh (io->buf, io->len_bytes, &w->rng);

      r = ops->queue (&w->engine, io);
      if (r < 0)
        {
          worker_fail (w, r, io);
          slots->issuing = FALSE;
          break;
        }
      slots->n_free--;
      slots->inflight++;
      queued++;
    }

  if (queued > 0 && ops->commit != NULL)
    {
      r = ops->commit (&w->engine);
      if (r < 0 && w->error == 0)
        {
          worker_fail (w, r, NULL);
          slots->issuing = FALSE;
        }
    }
}

/* Reaps at least one I/O in flight, accounts what completed, and stops
 * issuing at the stop flag, a cancel or the deadline.  FALSE when the
 * engine cannot reap (it cannot go on; its cleanup reaps). */
static gboolean
reap (Worker *w,
      Slots  *slots)
{
  Shared *sh = w->shared;
  int r;

  r = sh->ops->getevents (&w->engine, 1, sh->depth, DS_IO_POLL_NS, w->done);
  if (r < 0)
    {
      worker_fail (w, r, NULL);
      return FALSE;
    }

  for (int i = 0; i < r; i++)
    {
      DsIo *io = w->done[i];

      slots->inflight--;
      slots->free[slots->n_free++] = io;
      account (w, io);
    }

  if (slots->issuing || w->ring != NULL)
    {
      uint64_t now = r > 0 ? w->done[r - 1]->end_ns : ds_clock_ns ();

      if (w->ring != NULL)
        ds_io_ring_tick (w->ring, now);
      if (slots->issuing &&
          (g_atomic_int_get (&sh->stop) || (sh->ctx->cancel != NULL && g_atomic_int_get (sh->ctx->cancel)) ||
           (sh->deadline_ns != 0 && now >= sh->deadline_ns)))
        slots->issuing = FALSE;
    }

  return TRUE;
}

static void
worker_run (Worker *w)
{
  Shared *sh = w->shared;
  Slots slots = { .issuing = TRUE };
  uint64_t user0 = thread_cpu_ns (FALSE);
  uint64_t sys0 = thread_cpu_ns (TRUE);
  int r;

  r = worker_setup (w);
  if (r < 0)
    {
      w->error = r;
      g_atomic_int_set (&sh->stop, 1);
    }
  /* Only now: its buffers and the engine's rings are mapped at the
   * thread's own priority. */
  yield_cpu (w);
  ds_io_wait_for_start (sh);
  if (r < 0)
    return;

  slots.free = g_new (DsIo *, sh->depth);
  for (unsigned i = 0; i < sh->depth; i++)
    slots.free[i] = &w->ios[sh->depth - 1 - i];
  slots.n_free = sh->depth;

  /* Keep the queue full until the last I/O is issued, then drain it. */
  for (;;)
    {
      issue (w, &slots);
      if (slots.inflight == 0 || !reap (w, &slots))
        break;
    }

  g_free (slots.free);
  w->stats.cpu_user_ns = thread_cpu_ns (FALSE) - user0;
  w->stats.cpu_system_ns = thread_cpu_ns (TRUE) - sys0;
}

gpointer
ds_io_worker_main (gpointer data)
{
  Worker *w = data;

  worker_run (w);
  if (w->ring != NULL)
    ds_io_ring_finish (w->ring);
  if (w->idled)
    (void) pthread_setschedparam (pthread_self (), w->caller_policy, &w->caller_param);
  g_atomic_int_inc (&w->shared->finished);

  return NULL;
}
