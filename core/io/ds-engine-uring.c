/* ds-engine-uring.c: io_uring with registered buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * queue() only fills a submission entry; commit() hands everything queued to
 * the kernel with one io_uring_enter(), stamping start_ns on those I/Os right
 * before it; getevents() waits in the kernel for @min completions (bounded
 * by @timeout_ns so the run can check cancellation), then takes the whole
 * ready batch, stamping end_ns once for it.  The buffers are registered,
 * so the kernel does not map pages per I/O; where registering is refused
 * (RLIMIT_MEMLOCK for a non-root user) plain reads and writes give the same
 * answers, a little slower.
 *
 * The file is not registered (neither is it by fio's default): the kernel
 * drops a registered file from its deferred ring teardown, after the
 * process closed everything, and a block device opened O_EXCL stayed
 * claimed for ~30 ms after the run (measured on 6.18, with or without
 * io_uring_unregister_files() first), so the next write test on it, or a
 * mkfs, was refused with EBUSY.  The cost of a file reference per I/O was
 * within noise: 4 KiB random reads at QD32 on zram, 1.08 M IOPS registered
 * against 1.05 M not (median of three each).
 */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <string.h>
#include <sys/uio.h>

#include "ds-clock.h"
#include "ds-engine.h"

typedef struct {
  struct io_uring       ring;
  bool                  fixed_buffers;
  /* Queued in the SQ ring: pending[0 .. n_queued); of these, the first
   * n_sent the kernel has taken (a submission it refused with -EAGAIN or
   * -EBUSY is retried by getevents() once completions made room). */
  unsigned              n_queued;
  unsigned              n_sent;
  unsigned              in_flight;   /* taken by the kernel, not yet reaped */
  unsigned              capacity;    /* SQ entries */
  DsIo                **pending;
  struct io_uring_cqe **cqes;
} UringState;

static void
uring_state_free (UringState *state)
{
  if (state == NULL)
    return;

  /* Also unregisters the buffers. */
  io_uring_queue_exit (&state->ring);
  g_free (state->pending);
  g_free (state->cqes);
  g_free (state);
}

static void
uring_cleanup (DsEngine *engine)
{
  g_assert (engine != NULL);

  g_clear_pointer ((UringState **) &engine->priv, uring_state_free);
}

static int
uring_init (DsEngine *engine)
{
  struct io_uring_params params = { 0 };
  UringState *state;
  unsigned entries;
  int ret;

  g_assert (engine != NULL);
  g_assert (engine->priv == NULL);

  if (engine->fd < 0)
    return -EBADF;
  if (engine->depth == 0 || engine->depth > ds_engine_uring.max_depth)
    return -EINVAL;

  state = g_new0 (UringState, 1);

  /* The kernel rounds SQ entries up to a power of two; its CQ ring is twice
   * that, so @depth I/Os in flight can never overflow it.
   * The ring is set up and used by one thread only (the run loop's), so
   * as fio does: SINGLE_ISSUER + DEFER_TASKRUN (6.1) run completions only
   * when this thread waits for them, in batches, without an interrupt
   * per completion.  Older kernels say EINVAL and step down to
   * COOP_TASKRUN (5.19), then to a plain ring.  On zram at QD32 the plain
   * ring did 60 % of the I/O of the COOP_TASKRUN one. */
  {
    static const unsigned flag_sets[] = {
      IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
      IORING_SETUP_COOP_TASKRUN,
      0,
    };

    entries = engine->depth;
    ret = -EINVAL;
    for (unsigned i = 0; i < G_N_ELEMENTS (flag_sets) && ret == -EINVAL; i++)
      {
        memset (&params, 0, sizeof params);
        params.flags = flag_sets[i];
        ret = io_uring_queue_init_params (entries, &state->ring, &params);
      }
  }
  if (ret < 0)
    {
      g_free (state);
      return ret;
    }

  state->capacity = state->ring.sq.ring_entries;
  state->pending = g_new0 (DsIo *, state->capacity);
  state->cqes = g_new0 (struct io_uring_cqe *, state->ring.cq.ring_entries);

  if (engine->buffers != NULL && engine->buffer_bytes > 0)
    {
      g_autofree struct iovec *iovecs = g_new (struct iovec, engine->depth);

      for (unsigned slot = 0; slot < engine->depth; slot++)
        {
          iovecs[slot].iov_base = engine->buffers + (size_t) slot * engine->buffer_bytes;
          iovecs[slot].iov_len = engine->buffer_bytes;
        }
      /* The kernel copies the vector; failing (ENOMEM under
       * RLIMIT_MEMLOCK) only costs speed. */
      state->fixed_buffers = io_uring_register_buffers (&state->ring, iovecs,
                                                        engine->depth) == 0;
    }

  engine->priv = state;

  return 0;
}

static int
uring_queue (DsEngine *engine,
             DsIo     *io)
{
  UringState *state = engine->priv;
  struct io_uring_sqe *sqe;
  int fd = engine->fd;

  g_assert (state != NULL);
  g_assert (io != NULL);

  if (state->n_queued >= state->capacity)
    return -EBUSY;
  sqe = io_uring_get_sqe (&state->ring);
  if (sqe == NULL)
    return -EBUSY;

  if (state->fixed_buffers && io->slot < engine->depth)
    {
      if (io->write)
        io_uring_prep_write_fixed (sqe, fd, io->buf, io->len_bytes,
                                   io->offset_bytes, (int) io->slot);
      else
        io_uring_prep_read_fixed (sqe, fd, io->buf, io->len_bytes,
                                  io->offset_bytes, (int) io->slot);
    }
  else
    {
      if (io->write)
        io_uring_prep_write (sqe, fd, io->buf, io->len_bytes, io->offset_bytes);
      else
        io_uring_prep_read (sqe, fd, io->buf, io->len_bytes, io->offset_bytes);
    }
  io_uring_sqe_set_data (sqe, io);

  state->pending[state->n_queued++] = io;

  return 0;
}

/* Hands the queued entries the kernel has not taken yet to it.  With
 * @may_wait and nothing in flight (so no completion will ever make room),
 * a refusal is retried for up to a second before it is returned. */
static int
uring_submit_pending (UringState *state,
                      bool        may_wait)
{
  unsigned retries = 0;

  while (state->n_sent < state->n_queued)
    {
      uint64_t now_ns = ds_clock_ns ();
      int ret;

      for (unsigned i = state->n_sent; i < state->n_queued; i++)
        state->pending[i]->start_ns = now_ns;

      ret = io_uring_submit (&state->ring);
      if (ret > 0)
        {
          state->n_sent += (unsigned) ret;
          state->in_flight += (unsigned) ret;
          continue;
        }
      if (ret == -EINTR)
        continue;
      if (ret == 0 || ret == -EAGAIN || ret == -EBUSY)
        {
          /* Out of kernel resources for now: reaping frees them, and
           * getevents() tries again. */
          if (state->in_flight > 0)
            return 0;
          if (!may_wait || ++retries > 10000)
            return ret == 0 ? -EAGAIN : ret;
          g_usleep (100);
          continue;
        }

      return ret;
    }

  state->n_queued = 0;
  state->n_sent = 0;

  return 0;
}

static int
uring_commit (DsEngine *engine)
{
  UringState *state = engine->priv;

  g_assert (state != NULL);

  return uring_submit_pending (state, true);
}

/* Takes what the CQ ring holds, up to @max, with one timestamp. */
static unsigned
uring_reap (UringState *state,
            unsigned    max,
            DsIo      **ret_ios)
{
  uint64_t now_ns;
  unsigned n;

  n = io_uring_peek_batch_cqe (&state->ring, state->cqes,
                               MIN (max, state->ring.cq.ring_entries));
  if (n == 0)
    return 0;

  now_ns = ds_clock_ns ();
  for (unsigned i = 0; i < n; i++)
    {
      DsIo *io = io_uring_cqe_get_data (state->cqes[i]);

      io->result = state->cqes[i]->res;
      io->end_ns = now_ns;
      ret_ios[i] = io;
    }
  io_uring_cq_advance (&state->ring, n);
  state->in_flight -= MIN (n, state->in_flight);

  return n;
}

static int
uring_getevents (DsEngine *engine,
                 unsigned  min,
                 unsigned  max,
                 uint64_t  timeout_ns,
                 DsIo    **ret_ios)
{
  UringState *state = engine->priv;
  uint64_t deadline_ns;
  unsigned count;
  int ret;

  g_assert (state != NULL);
  g_assert (ret_ios != NULL || max == 0);

  if (state->n_sent < state->n_queued)
    {
      ret = uring_submit_pending (state, false);
      if (ret < 0 && state->in_flight == 0)
        return ret;
    }

  min = MIN (min, max);
  /* Never wait for more than can come (with nothing in flight, the wait
   * is the timeout: the caller asked for it). */
  if (state->in_flight > 0)
    min = MIN (min, state->in_flight);

  count = uring_reap (state, max, ret_ios);
  if (count >= min)
    return (int) count;

  deadline_ns = ds_clock_ns () + timeout_ns;
  while (count < min)
    {
      struct io_uring_cqe *cqe = NULL;
      struct __kernel_timespec ts;
      uint64_t now_ns = ds_clock_ns ();
      uint64_t left_ns = deadline_ns > now_ns ? deadline_ns - now_ns : 0;

      ts.tv_sec = (long long) (left_ns / DS_NS_PER_SEC);
      ts.tv_nsec = (long long) (left_ns % DS_NS_PER_SEC);
      ret = io_uring_wait_cqes (&state->ring, &cqe, min - count, &ts, NULL);
      if (ret == -ETIME || (ret == -EINTR && left_ns == 0))
        break;
      if (ret == -EINTR)
        continue;
      if (ret < 0)
        return count > 0 ? (int) count : ret;

      count += uring_reap (state, max - count, ret_ios + count);
    }

  return (int) count;
}

gboolean
ds_engine_uring_available (int *ret_errno)
{
  struct io_uring ring;
  int ret;

  ret = io_uring_queue_init (1, &ring, 0);
  if (ret < 0)
    {
      if (ret_errno != NULL)
        *ret_errno = -ret;
      return FALSE;
    }
  io_uring_queue_exit (&ring);

  return TRUE;
}

const DsEngineOps ds_engine_uring = {
  .name      = "io_uring",
  .max_depth = 4096,
  .fan_out   = false,
  .init      = uring_init,
  .queue     = uring_queue,
  .commit    = uring_commit,
  .getevents = uring_getevents,
  .cleanup   = uring_cleanup,
};
