/* ds-session-files.c: a session's results on disk
 *
 * The text report and the JSON result of each kind, and opening a saved
 * result: the file is parsed on a worker thread (a large one takes a
 * while), and applied back on the session's thread only if no newer open
 * and no run came in between.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-save.h"
#include "ds-session-private.h"

static const DsResult *
require_result (DsSession    *self,
                DsBenchKind   kind,
                GError      **error)
{
  const DsResult *result = ds_session_get_result (self, kind);

  if (result == NULL)
    g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("This page has no result yet."));

  return result;
}

char *
ds_session_get_report (DsSession    *self,
                       DsBenchKind   kind,
                       GError      **error)
{
  const DsResult *result;

  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  result = require_result (self, kind, error);
  return result != NULL ? ds_report_text (result, self->units) : NULL;
}

void
ds_session_get_save_keep (DsSession     *self,
                          DsBenchKind    kind,
                          DsSessionKeep *ret_keep)
{
  const DsResult *result;
  guint n = 0;

  g_return_if_fail (DS_IS_SESSION (self));

  *ret_keep = (DsSessionKeep) { 0 };
  result = ds_session_get_result (self, kind);
  ret_keep->keep.target = result != NULL ? result->spec.target_path : NULL;
  for (guint k = 0; k < DS_BENCH_N_KINDS; k++)
    if (self->opened_files[k] != NULL)
      ret_keep->files[n++] = self->opened_files[k];
  ret_keep->keep.inputs = ret_keep->files;
}

gboolean
ds_session_save_report (DsSession    *self,
                        DsBenchKind   kind,
                        const char   *path,
                        GError      **error)
{
  g_autofree char *text = NULL;
  DsSessionKeep keep;

  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  ds_session_get_save_keep (self, kind, &keep);
  if (!ds_save_check (path, &keep.keep, error))
    return FALSE;
  text = ds_session_get_report (self, kind, error);
  return text != NULL && ds_save_file (path, text, strlen (text), &keep.keep, error);
}

gboolean
ds_session_save_result (DsSession    *self,
                        DsBenchKind   kind,
                        const char   *path,
                        GError      **error)
{
  const DsResult *result;
  DsSessionKeep keep;

  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  result = require_result (self, kind, error);
  ds_session_get_save_keep (self, kind, &keep);
  return result != NULL && ds_result_save_from (result, path, keep.keep.inputs, error);
}

/* ---- Opening ----------------------------------------------------------- */

/* What an open remembers while the file loads. */
typedef struct {
  guint  generation;   /* _ds_session_next_open()'s */
  char  *path;
} OpenData;

static void
open_data_free (gpointer data)
{
  OpenData *open = data;

  g_free (open->path);
  g_free (open);
}

/* Main thread: the file is parsed; apply it if nothing overtook it. */
static void
open_loaded_cb (GObject      *object,
                GAsyncResult *async_result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DsSession *self = g_task_get_source_object (task);
  OpenData *open = g_task_get_task_data (task);
  g_autoptr(DsResult) result = NULL;
  GError *error = NULL;
  DsBenchKind kind;

  result = ds_result_load_finish (async_result, &error);
  if (result == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!_ds_session_open_is_current (self, open->generation))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "overtaken by another result or a run");
      return;
    }

  kind = result->kind;
  if (kind >= DS_BENCH_N_KINDS)
    {
      g_task_return_new_error (task, DS_ERROR, DS_ERROR_CORRUPT, _("The result is of an unknown kind."));
      return;
    }

  _ds_session_take_opened (self, g_steal_pointer (&result), open->path);

  g_task_return_int (task, kind);
}

void
ds_session_open_result_async (DsSession           *self,
                              const char          *path,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  OpenData *open;

  g_return_if_fail (DS_IS_SESSION (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_session_open_result_async);

  if (self->job != NULL)
    {
      g_task_return_new_error (task, DS_ERROR, DS_ERROR_BUSY, _("A test is running."));
      return;
    }

  open = g_new0 (OpenData, 1);
  open->generation = _ds_session_next_open (self);
  open->path = g_strdup (path);
  g_task_set_task_data (task, open, open_data_free);

  /* The core's one load, off this thread (a large file takes a while to
   * parse).  Not a Diskscope result: perhaps a saved `smartctl --json`
   * output, shown on the Health page as if read from the drive (and
   * saying it was not); if it is not that either, the loader says why. */
  ds_result_load_full_async (path, DS_RESULT_LOAD_FOREIGN, cancellable, open_loaded_cb,
                             g_steal_pointer (&task));
}

DsBenchKind
ds_session_open_result_finish (DsSession     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  GError *local = NULL;
  gssize kind;

  g_return_val_if_fail (DS_IS_SESSION (self), DS_BENCH_N_KINDS);
  g_return_val_if_fail (g_task_is_valid (result, self), DS_BENCH_N_KINDS);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_session_open_result_async,
                        DS_BENCH_N_KINDS);

  kind = g_task_propagate_int (G_TASK (result), &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return DS_BENCH_N_KINDS;
    }

  return (DsBenchKind) kind;
}

/* ---- The results library ----------------------------------------------- */

static void
library_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(DsSession) self = user_data;
  g_autoptr(GError) error = NULL;
  GApplication *app = g_application_get_default ();
  DsLibraryEntry *entry;

  entry = ds_library_save_finish (DS_LIBRARY (object), result, &error);
  self->pending_saves--;
  if (app != NULL)
    g_application_release (app);

  g_clear_pointer (&self->library_error, g_free);
  if (entry == NULL)
    self->library_error = g_strdup_printf (_("The result was not saved in the library: %s"),
                                           error->message);
  _ds_session_emit_saved (self, entry);
}

void
_ds_session_save_to_library (DsSession      *self,
                             const DsResult *result)
{
  GApplication *app = g_application_get_default ();

  /* Refused before the target was opened: nothing was measured. */
  if (result->data == NULL || (!result->complete && result->target.size_bytes == 0))
    return;

  /* The app stays until the file is written (a scripted run quits as soon
   * as the run ends). */
  if (app != NULL)
    g_application_hold (app);
  self->pending_saves++;
  ds_library_save_async (self->library, result, NULL, NULL, library_saved_cb, g_object_ref (self));
}

/* Closing: the files being written are finished first (as a run is
 * joined), for at most 10 s. */
void
_ds_session_join_saves (DsSession *self)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (self->pending_saves > 0 && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

DsLibrary *
ds_session_get_library (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return self->library;
}

const char *
ds_session_get_library_error (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return self->library_error;
}
