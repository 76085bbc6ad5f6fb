/* ds-job.h: one benchmark run on a worker thread, bridged to the main loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ds-bench.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* How often samples reach the main loop while a run goes. */
#define DS_JOB_FLUSH_INTERVAL_MS 100

#define DS_TYPE_JOB (ds_job_get_type ())
G_DECLARE_FINAL_TYPE (DsJob, ds_job, DS, JOB, GObject)

DsJob             *ds_job_new        (const DsBenchSpec   *spec);
/* For a @spec the caller has just checked with ds_bench_spec_validate()
 * (ds_session_check_spec()): the run does not check it again
 * (DsRunOptions.validated).  The core's gate still checks a write's
 * confirmation when it opens the target. */
DsJob             *ds_job_new_checked (const DsBenchSpec  *spec);
const DsBenchSpec *ds_job_get_spec   (DsJob               *self);
/* 0..1, from the last sample delivered. */
double             ds_job_get_progress (DsJob             *self);
gboolean           ds_job_is_running (DsJob               *self);

/* Runs ds_run() on a worker thread.  "samples" is emitted on the main
 * thread in batches while it goes; the callback gets the result. */
void               ds_job_run_async  (DsJob               *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
/* Delivers the samples still pending, then returns the result (always one,
 * even for a failed or cancelled run: see result->error). */
DsResult          *ds_job_run_finish (DsJob               *self,
                                      GAsyncResult        *result,
                                      GError             **error);

/* Asks the run to stop (it does within 100 ms); no more samples are
 * delivered after this. */
void               ds_job_cancel     (DsJob               *self);
/* Cancels and blocks until the worker thread has returned. */
void               ds_job_cancel_and_wait (DsJob          *self);

G_END_DECLS
