/* ds-engine-private.h: what the engines share (not part of the core API)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-engine.h"

G_BEGIN_DECLS

/* The synchronous engine, one I/O at a time with pread/pwrite.  `sync` uses
 * these as they are; `threads` is the same engine with fan_out set, so the
 * run loop starts one thread (and one instance) per unit of queue depth. */
int  ds_engine_sync_init      (DsEngine *engine);
int  ds_engine_sync_queue     (DsEngine *engine,
                               DsIo     *io);
int  ds_engine_sync_commit    (DsEngine *engine);
int  ds_engine_sync_getevents (DsEngine *engine,
                               unsigned  min,
                               unsigned  max,
                               uint64_t  timeout_ns,
                               DsIo    **ret_ios);
void ds_engine_sync_cleanup   (DsEngine *engine);

G_END_DECLS
