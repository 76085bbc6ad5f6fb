/* ds-replay-trace.h: the Replay page's worker: captures a device's
 * requests into a trace file and profiles it, or profiles a trace the
 * user opened, away from the main thread
 *
 * The page polls it from a timeout on the main thread: the worker never
 * touches a widget.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-trace.h"

G_BEGIN_DECLS

typedef struct _DsReplayTrace DsReplayTrace;

/* Starts the worker on a trace for the page: with @device, captures its
 * requests for @duration_ns (0: until stopped) into @path; without, @path
 * is a file the user opened: a blktrace file or a fio iolog is imported
 * into a new capture file first (ds_replay_trace_new_path()).  Then it
 * profiles the capture file (intervals of @interval_ns). */
DsReplayTrace  *ds_replay_trace_start    (const char            *device,
                                          const char            *path,
                                          uint64_t               duration_ns,
                                          uint64_t               interval_ns);
/* The capture's progress so far; TRUE once the worker is done. */
gboolean        ds_replay_trace_poll     (DsReplayTrace         *job,
                                          DsTraceProgress       *ret_progress);
/* Stops the capture early (what it recorded is kept and profiled). */
void            ds_replay_trace_stop     (DsReplayTrace         *job);
/* Joins the worker and frees @job: the profile, or NULL with @error.
 * @ret_capture (may be NULL) gets the capture's counts; @ret_path (may be
 * NULL) the capture file profiled (an import's new file). */
DsTraceProfile *ds_replay_trace_finish   (DsReplayTrace         *job,
                                          DsTraceCaptureResult  *ret_capture,
                                          char                 **ret_path,
                                          GError               **error);

/* Stops the worker, joins it and frees @job and what it made (a page
 * going away). */
void            ds_replay_trace_free     (DsReplayTrace         *job);

/* Where the app keeps its captures: $XDG_DATA_HOME/diskscope/traces,
 * made if missing; a new file's name for @device_path there. */
char           *ds_replay_trace_new_path (const char            *device_path,
                                          GError               **error);

G_END_DECLS
