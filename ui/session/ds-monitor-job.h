/* ds-monitor-job.h: the disk monitor's sampler on a worker thread,
 * bridged to the main loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ds-monitor.h"

G_BEGIN_DECLS

#define DS_TYPE_MONITOR_JOB (ds_monitor_job_get_type ())
G_DECLARE_FINAL_TYPE (DsMonitorJob, ds_monitor_job, DS, MONITOR_JOB, GObject)

/* Watches @device ("/dev/sda"; NULL: every disk).  NULL with
 * DS_ERROR_NOT_FOUND when the kernel counts no I/O for it. */
DsMonitorJob *ds_monitor_job_new        (const char          *device,
                                         GError             **error);
/* Samples every @interval_ns on a worker thread until @count samples were
 * delivered (0: until cancelled).  "sample" is emitted on this thread for
 * each; the callback comes after the last. */
void          ds_monitor_job_run_async  (DsMonitorJob        *self,
                                         uint64_t             interval_ns,
                                         guint                count,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
/* TRUE when it ran to its count or was cancelled; FALSE with why when
 * sampling failed (the device went away). */
gboolean      ds_monitor_job_run_finish (DsMonitorJob        *self,
                                         GAsyncResult        *result,
                                         GError             **error);
/* No more samples after this; the callback follows within 50 ms. */
void          ds_monitor_job_cancel     (DsMonitorJob        *self);
/* Cancels and blocks until the worker thread has returned. */
void          ds_monitor_job_cancel_and_wait (DsMonitorJob   *self);
gboolean      ds_monitor_job_is_running (DsMonitorJob        *self);

G_END_DECLS
