/* ds-session-private.h: what the session's files share
 *
 * ds-session.c runs the tests and keeps the results; ds-session-files.c
 * saves, reports and opens them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-job.h"
#include "ds-library.h"
#include "ds-session.h"

G_BEGIN_DECLS

struct _DsSession
{
  GObject      parent_instance;

  GSettings   *settings;
  DsUnits      units;
  unsigned     accuracy;          /* 0: from the settings */

  DsJob       *job;               /* the run in progress, or NULL */
  DsBenchKind  job_kind;
  DsResult    *results[DS_BENCH_N_KINDS];
  /* A result opened from a file: the file, and the run's result it
   * stands in front of (back when the opened one is closed). */
  char        *opened_files[DS_BENCH_N_KINDS];
  DsResult    *behind[DS_BENCH_N_KINDS];
  char        *last_error;        /* of the last run, NULL if none */

  /* Bumped by every open and every run: an open that comes back with an
   * older number was overtaken and is dropped. */
  guint        open_generation;

  DsLibrary   *library;           /* every run is saved here */
  char        *library_error;     /* why the last run was not saved */
  guint        pending_saves;     /* files being written on a worker */
};

/* Opening: each open takes a number; its result is applied only while
 * that number is the last one given and no run has started. */
guint    _ds_session_next_open       (DsSession *self);
gboolean _ds_session_open_is_current (DsSession *self,
                                      guint      generation);
/* Makes @result (taken), opened from @path, its kind's result and says
 * so ("result-opened"). */
void     _ds_session_take_opened     (DsSession  *self,
                                      DsResult   *result,
                                      const char *path);

/* Saves a finished or stopped run in the library on a worker
 * (ds-session-files.c), then "result-saved"; on failure the library error
 * says why. */
void     _ds_session_save_to_library (DsSession      *self,
                                      const DsResult *result);

/* Waits (running the main context) for the saves under way. */
void     _ds_session_join_saves      (DsSession      *self);
/* Emits "result-saved" (ds-session.c has the signals). */
void     _ds_session_emit_saved      (DsSession      *self,
                                      DsLibraryEntry *entry);

G_END_DECLS
