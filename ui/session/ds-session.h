/* ds-session.h: the runs and results behind a window (no widgets)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ds-bench.h"
#include "ds-library.h"
#include "ds-result.h"
#include "ds-save.h"
#include "ds-units.h"

G_BEGIN_DECLS

#define DS_TYPE_SESSION (ds_session_get_type ())
G_DECLARE_FINAL_TYPE (DsSession, ds_session, DS, SESSION, GObject)

/* What a spec's writes need before it may run (ds_session_check_write). */
typedef enum {
  DS_WRITE_NONE,      /* it writes nothing of the user's: run it */
  DS_WRITE_CONFIRM,   /* it destroys data: the user must name the target */
  DS_WRITE_REFUSED,   /* it may not write there at all (mounted, in use…) */
} DsWriteCheck;

/* @settings: the app's settings (ds_settings_new()); the session reads
 * accuracy, block-size, capacity, file-size and units from them. */
DsSession      *ds_session_new            (GSettings          *settings);
GSettings      *ds_session_get_settings   (DsSession          *self);
/* The units the figures and reports are in (the "units" setting). */
DsUnits         ds_session_get_units      (DsSession          *self);
/* 0: the accuracy from the settings; 1..5 overrides it (--accuracy). */
void            ds_session_set_accuracy   (DsSession          *self,
                                           unsigned            accuracy);

/* A spec for @kind from the settings (accuracy and what it implies, block
 * size, capacity tested, file size); @target_path may be NULL (the page adds it).  Clear it
 * with ds_bench_spec_clear(). */
void            ds_session_init_spec      (DsSession          *self,
                                           DsBenchSpec        *spec,
                                           DsBenchKind         kind,
                                           const char         *target_path);
/* Whether @kind measures a device the user picks (else it makes its own
 * target: the file benchmark's test file in a folder). */
gboolean        ds_session_kind_needs_device (DsBenchKind      kind);
/* Whether @spec may start now: no test running, and every rule of
 * ds_bench_spec_validate() met. */
gboolean        ds_session_check_spec     (DsSession          *self,
                                           const DsBenchSpec  *spec,
                                           GError            **error);
/* The one place that decides what a write needs: read on before you
 * change it.  DS_WRITE_REFUSED sets @error with the reason. */
DsWriteCheck    ds_session_check_write    (DsSession          *self,
                                           const DsBenchSpec  *spec,
                                           GError            **error);

/* Runs @spec on a worker thread ("run-started", then "samples" on this
 * thread, then "run-finished").  Refused (FALSE with @error) while a test
 * runs, for a spec ds_bench_spec_validate() refuses, and for a write that
 * is not confirmed: spec->destroy_data must name spec->target_path. */
gboolean        ds_session_start          (DsSession          *self,
                                           const DsBenchSpec  *spec,
                                           GError            **error);
/* ds_session_start() for a @spec that ds_session_check_spec() has just
 * accepted and, for a write test, ds_session_check_write() let through
 * and the user confirmed (spec->destroy_data): the spec is not checked
 * again, here or by the run (one check a run); the core's gate checks
 * the confirmation when it opens the target.  Refused while a test runs
 * and for a write test without a confirmation. */
gboolean        ds_session_start_checked  (DsSession          *self,
                                           const DsBenchSpec  *spec,
                                           GError            **error);
/* ds_session_init_spec() + ds_session_start(): a read test of @kind. */
gboolean        ds_session_start_kind     (DsSession          *self,
                                           DsBenchKind         kind,
                                           const char         *target_path,
                                           GError            **error);
/* Asks the run to stop (within 100 ms); "run-finished" follows. */
void            ds_session_stop           (DsSession          *self);
/* Stops and blocks until the worker thread has returned (closing). */
void            ds_session_stop_and_wait  (DsSession          *self);
gboolean        ds_session_is_running     (DsSession          *self);
/* The kind running, or DS_BENCH_N_KINDS. */
DsBenchKind     ds_session_get_running_kind (DsSession        *self);
/* 0..1, as of the last samples delivered. */
double          ds_session_get_progress   (DsSession          *self);

/* The last result of @kind (run or opened), or NULL. */
const DsResult *ds_session_get_result     (DsSession          *self,
                                           DsBenchKind         kind);
/* Why the last run failed, as the page shows it; NULL when it succeeded
 * or the user stopped it. */
const char     *ds_session_get_last_error (DsSession          *self);

/* The text report of @kind's result in the session's units. */
char           *ds_session_get_report     (DsSession          *self,
                                           DsBenchKind         kind,
                                           GError            **error);
gboolean        ds_session_save_report    (DsSession          *self,
                                           DsBenchKind         kind,
                                           const char         *path,
                                           GError            **error);
/* The JSON result (diskscope-result/1), saved atomically.  Both saves
 * follow ds-save.h's rules and keep what ds_session_get_save_keep()
 * names. */
gboolean        ds_session_save_result    (DsSession          *self,
                                           DsBenchKind         kind,
                                           const char         *path,
                                           GError            **error);

/* Loads a saved result on a worker thread and, back on this thread, makes
 * it its kind's result ("result-opened") unless a newer open or a run
 * started meanwhile (then the finish gives G_IO_ERROR_CANCELLED).  Refused
 * while a test runs. */
void            ds_session_open_result_async  (DsSession           *self,
                                               const char          *path,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* The kind opened, or DS_BENCH_N_KINDS with @error. */
DsBenchKind     ds_session_open_result_finish (DsSession           *self,
                                               GAsyncResult        *result,
                                               GError             **error);
/* The file @kind's result was opened from, or NULL when it is a run of
 * this session (or there is none).  The result keeps its own device,
 * date and settings (ds_session_get_result()->target, ->started_at…):
 * show those, not the device selected now. */
const char     *ds_session_get_result_file    (DsSession           *self,
                                               DsBenchKind          kind);
/* What a save of @kind's report, result or picture must never replace
 * (ds-save.h): @kind's target, and every file the session opened a
 * result from.  Filled in place (keep.inputs points into files): use
 * &ret_keep->keep, do not copy it; valid until the session changes. */
typedef struct {
  DsSaveKeep  keep;
  const char *files[DS_BENCH_N_KINDS + 1];
} DsSessionKeep;

void            ds_session_get_save_keep      (DsSession           *self,
                                               DsBenchKind          kind,
                                               DsSessionKeep       *ret_keep);
/* Puts an opened result away: @kind's result is again the last run's, or
 * none ("result-closed").  Nothing happens unless it was opened. */
void            ds_session_close_result       (DsSession           *self,
                                               DsBenchKind          kind);

/* The message for a failed result, or NULL if it did not fail (a run the
 * user stopped is not a failure); pages show the same words. */
char           *ds_session_describe_error (const DsResult     *result);

/* The results library every finished or stopped run is saved in:
 * $DISKSCOPE_RESULTS_DIR, else $XDG_DATA_HOME/diskscope/results (as the
 * CLI's).  Transfer none. */
DsLibrary      *ds_session_get_library    (DsSession          *self);
/* Why the last run could not be saved in the library (as of
 * "result-saved", which follows "run-finished" once the file is written),
 * or NULL when it was. */
const char     *ds_session_get_library_error (DsSession       *self);

G_END_DECLS
