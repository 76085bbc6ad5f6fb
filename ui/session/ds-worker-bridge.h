/* ds-worker-bridge.h: what a worker thread produces, handed to the main loop
 *
 * The one pattern DsJob (a benchmark run) and DsMonitorJob (the disk
 * monitor's sampler) share: the worker appends to a batch under a mutex
 * and schedules at most one main-loop source at a time; that source, on
 * the main thread, swaps the batch out and delivers it only while the
 * owner is alive (a weak reference) and the run has not been cancelled
 * since it started (a generation).  No GTK, no signal is touched off the
 * main thread.  Reference counted: the worker keeps the bridge after the
 * owner is gone, and ends on its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _DsWorkerBridge DsWorkerBridge;

/* A new, empty batch. */
typedef gpointer (*DsWorkerBatchNew)     (void);
/* Main thread: @batch (not empty or empty) for the living @owner; the
 * bridge frees it after. */
typedef void     (*DsWorkerBatchDeliver) (gpointer owner,
                                          gpointer batch);
/* Main thread: a one-off call posted by the worker (ds_worker_bridge_post). */
typedef void     (*DsWorkerBridgeFunc)   (gpointer owner,
                                          gpointer data);

/* @delay_ms: how long a batch gathers before it is delivered (0: as soon
 * as the main loop is idle).  Flushes run in the thread-default main
 * context of the caller. */
DsWorkerBridge *ds_worker_bridge_new     (gpointer              owner,
                                          guint                 delay_ms,
                                          const char           *source_name,
                                          DsWorkerBatchNew      batch_new,
                                          GDestroyNotify        batch_free,
                                          DsWorkerBatchDeliver  deliver);
DsWorkerBridge *ds_worker_bridge_ref     (DsWorkerBridge *self);
void            ds_worker_bridge_unref   (DsWorkerBridge *self);

/* Main thread: the worker is about to start (running, this generation). */
void            ds_worker_bridge_begin   (DsWorkerBridge *self);
/* Worker: it has returned; wakes ds_worker_bridge_wait(). */
void            ds_worker_bridge_end     (DsWorkerBridge *self);
gboolean        ds_worker_bridge_is_running (DsWorkerBridge *self);
/* Main thread: blocks until the worker has returned. */
void            ds_worker_bridge_wait    (DsWorkerBridge *self);

/* The flag the core's loop polls (non-zero: stop). */
gint           *ds_worker_bridge_get_cancel_flag (DsWorkerBridge *self);
/* Any thread: tells the worker to stop; from the main thread, also drops
 * what is still on its way (a new generation). */
void            ds_worker_bridge_cancel  (DsWorkerBridge *self);
/* Only the stop flag (the owner is going away). */
void            ds_worker_bridge_stop    (DsWorkerBridge *self);

/* Worker: the batch to append to, with the lock held... */
gpointer        ds_worker_bridge_lock    (DsWorkerBridge *self);
/* ...and released; schedules a delivery unless one is on its way. */
void            ds_worker_bridge_unlock  (DsWorkerBridge *self);
/* Main thread: delivers what waits now (a run's end: the last batch). */
void            ds_worker_bridge_flush   (DsWorkerBridge *self);
/* Worker: @func (owner, @data) on the main thread, in order with the
 * run's end (default priority), if the owner is alive and the run not
 * cancelled; @data is freed with @free_data either way. */
void            ds_worker_bridge_post    (DsWorkerBridge     *self,
                                          DsWorkerBridgeFunc  func,
                                          gpointer            data,
                                          GDestroyNotify      free_data);

G_END_DECLS
