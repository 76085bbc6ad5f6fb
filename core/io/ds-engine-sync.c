/* ds-engine-sync.c: pread/pwrite, one I/O at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The I/O happens in queue(): the clock is read right before the system
 * call and right after it returns, so the latency is the kernel's and the
 * device's, nothing of ours.  The finished I/O is kept until getevents()
 * hands it back, which is how an asynchronous engine behaves too (fio's
 * engines/sync.c does the same for psync).
 */
#include "config.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-engine-private.h"

typedef struct {
  unsigned  capacity;   /* engine->depth: how many may wait for getevents() */
  unsigned  n_done;
  DsIo     *done[];
} SyncState;

int
ds_engine_sync_init (DsEngine *engine)
{
  SyncState *state;
  unsigned capacity;

  g_assert (engine != NULL);
  g_assert (engine->priv == NULL);

  if (engine->fd < 0)
    return -EBADF;

  /* max_depth is 1, but a caller that queues several before reaping still
   * gets each one back. */
  capacity = MAX (engine->depth, 1u);
  state = g_malloc0 (sizeof (SyncState) + capacity * sizeof (DsIo *));
  state->capacity = capacity;
  engine->priv = state;

  return 0;
}

int
ds_engine_sync_queue (DsEngine *engine,
                      DsIo     *io)
{
  SyncState *state = engine->priv;
  ssize_t n;

  g_assert (state != NULL);
  g_assert (io != NULL);

  if (state->n_done >= state->capacity)
    return -EBUSY;

  do
    {
      io->start_ns = ds_clock_ns ();
      if (io->write)
        n = pwrite (engine->fd, io->buf, io->len_bytes, (off_t) io->offset_bytes);
      else
        n = pread (engine->fd, io->buf, io->len_bytes, (off_t) io->offset_bytes);
      io->end_ns = ds_clock_ns ();
    }
  while (n < 0 && errno == EINTR);

  /* A short transfer is reported as it is: the run loop decides. */
  io->result = n < 0 ? -(int64_t) errno : (int64_t) n;
  state->done[state->n_done++] = io;

  return 0;
}

int
ds_engine_sync_commit (DsEngine *engine)
{
  (void) engine;

  return 0;
}

static void
sleep_ns (uint64_t ns)
{
  struct timespec ts = {
    .tv_sec = (time_t) (ns / DS_NS_PER_SEC),
    .tv_nsec = (long) (ns % DS_NS_PER_SEC),
  };

  while (nanosleep (&ts, &ts) < 0 && errno == EINTR)
    ;
}

int
ds_engine_sync_getevents (DsEngine *engine,
                          unsigned  min,
                          unsigned  max,
                          uint64_t  timeout_ns,
                          DsIo    **ret_ios)
{
  SyncState *state = engine->priv;
  unsigned n;

  g_assert (state != NULL);
  g_assert (ret_ios != NULL || max == 0);

  /* Nothing can complete behind our back: with nothing done, waiting is
   * only what an asynchronous engine would do (the timeout), never more. */
  if (state->n_done == 0)
    {
      if (min > 0)
        sleep_ns (timeout_ns);
      return 0;
    }

  n = MIN (state->n_done, max);
  for (unsigned i = 0; i < n; i++)
    ret_ios[i] = state->done[i];
  /* Keep the rest in order (only when max < n_done, so never at QD1). */
  for (unsigned i = n; i < state->n_done; i++)
    state->done[i - n] = state->done[i];
  state->n_done -= n;

  return (int) n;
}

void
ds_engine_sync_cleanup (DsEngine *engine)
{
  g_assert (engine != NULL);

  g_clear_pointer (&engine->priv, g_free);
}

const DsEngineOps ds_engine_sync = {
  .name      = "sync",
  .max_depth = 1,
  .fan_out   = false,
  .init      = ds_engine_sync_init,
  .queue     = ds_engine_sync_queue,
  .commit    = ds_engine_sync_commit,
  .getevents = ds_engine_sync_getevents,
  .cleanup   = ds_engine_sync_cleanup,
};
