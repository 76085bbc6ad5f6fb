/* ds-engine-threads.c: the fallback where io_uring is refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each instance is exactly the sync engine; fan_out makes the run loop start
 * one thread per unit of queue depth, each with its own instance, so QD N
 * means N blocking pread/pwrite calls in flight at once.
 */
#include "config.h"

#include "ds-engine-private.h"

const DsEngineOps ds_engine_threads = {
  .name      = "threads",
  .max_depth = 1,
  .fan_out   = true,
  .init      = ds_engine_sync_init,
  .queue     = ds_engine_sync_queue,
  .commit    = ds_engine_sync_commit,
  .getevents = ds_engine_sync_getevents,
  .cleanup   = ds_engine_sync_cleanup,
};
