/* ds-session.c: the runs and results behind a window (no widgets)
 *
 * The session owns what a window shows but does not draw: the job of the
 * run in progress, the last result of each kind (run or opened), the error
 * the last run ended with, the spec built from the settings, and saving,
 * opening and reporting.  It never touches GTK, so everything a script or
 * a test does through it needs no display; the window listens to its
 * signals and puts what they say on the pages.
 *
 * Threads: the run happens in DsJob's worker and a result file is parsed
 * on a GTask thread; both come back to the thread that owns the session
 * (the main thread) before anything here changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-error.h"
#include "ds-job.h"
#include "ds-session-private.h"
#include "ds-target.h"


G_DEFINE_FINAL_TYPE (DsSession, ds_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  RUN_STARTED,
  SAMPLES,
  RUN_FINISHED,
  RESULT_OPENED,
  RESULT_CLOSED,
  RESULT_SAVED,
  WAITING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Settings and specs ------------------------------------------------ */

static DsUnits
settings_units (GSettings *settings)
{
  return g_settings_get_enum (settings, "units") == 1 ? DS_UNITS_MIB : DS_UNITS_MB;
}

static void
units_changed_cb (DsSession  *self,
                  const char *key,
                  GSettings  *settings)
{
  DsUnits units = settings_units (settings);

  if (units == self->units)
    return;

  self->units = units;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

/* ---- Runs -------------------------------------------------------------- */

static void
job_waiting_cb (DsSession  *self,
                const char *message,
                DsJob      *job)
{
  if (job == self->job)
    g_signal_emit (self, signals[WAITING], 0, message);
}

static void
job_samples_cb (DsSession *self,
                GArray    *samples,
                DsJob     *job)
{
  if (job != self->job || samples->len == 0)
    return;

  g_signal_emit (self, signals[SAMPLES], 0, (guint) self->job_kind, samples);
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *async_result,
             gpointer      user_data)
{
  g_autoptr(DsSession) self = user_data;
  DsJob *job = DS_JOB (object);
  g_autoptr(DsResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GApplication *app = g_application_get_default ();
  const DsResult *kept = NULL;
  DsBenchKind kind;
  gboolean success = FALSE;

  result = ds_job_run_finish (job, async_result, &error);

  if (app != NULL)
    g_application_release (app);

  if (job != self->job)
    return;

  kind = self->job_kind;
  g_clear_pointer (&self->last_error, g_free);

  if (result != NULL)
    {
      success = result->error == NULL && result->complete;
      self->last_error = ds_session_describe_error (result);
      if (result->kind < DS_BENCH_N_KINDS)
        {
          kind = result->kind;
          g_clear_pointer (&self->results[kind], ds_result_free);
          self->results[kind] = g_steal_pointer (&result);
          kept = self->results[kind];
        }
    }
  else
    self->last_error = g_strdup (error ? error->message : _("The test failed."));

  g_clear_object (&self->job);
  self->job_kind = DS_BENCH_N_KINDS;
  if (kept != NULL)
    _ds_session_save_to_library (self, kept);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);

  g_signal_emit (self, signals[RUN_FINISHED], 0, (guint) kind, kept, success);
}

gboolean
ds_session_check_spec (DsSession          *self,
                       const DsBenchSpec  *spec,
                       GError            **error)
{
  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  if (self->job != NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A test is already running."));
      return FALSE;
    }

  return ds_bench_spec_validate (spec, error);
}

gboolean
ds_session_start (DsSession          *self,
                  const DsBenchSpec  *spec,
                  GError            **error)
{
  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  if (!ds_session_check_spec (self, spec, error))
    return FALSE;

  /* A write test: named by the gate's rule (the path typed, or a
   * script's --destroy-data: a link to it, its name).  One probe here,
   * which also refuses a target that may not be written at all; the core
   * checks it again when it opens the target. */
  if (ds_bench_spec_is_write_test (spec) && spec->destroy_data != NULL &&
      !ds_target_check_write (spec->target_path, spec->destroy_data, error))
    return FALSE;

  return ds_session_start_checked (self, spec, error);
}

gboolean
ds_session_start_checked (DsSession          *self,
                          const DsBenchSpec  *spec,
                          GError            **error)
{
  GApplication *app = g_application_get_default ();

  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  if (self->job != NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A test is already running."));
      return FALSE;
    }
  /* Never a write without the user's words; whether they name the
   * target is the core's gate's to say when it opens it. */
  if (ds_bench_spec_is_write_test (spec) && spec->destroy_data == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("A write test destroys the data on %s: confirm it by typing its name."),
                   spec->target_path);
      return FALSE;
    }

  /* A result still loading would land on the page this run uses, and one
   * opened there is put away: the page shows the run. */
  self->open_generation++;
  ds_session_close_result (self, spec->kind);

  self->job = ds_job_new_checked (spec);
  self->job_kind = spec->kind;
  g_signal_connect_object (self->job, "samples", G_CALLBACK (job_samples_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->job, "waiting", G_CALLBACK (job_waiting_cb), self,
                           G_CONNECT_SWAPPED);

  /* Keeps the application (and so the callback) alive until the worker
   * has returned, even when the last window closes first. */
  if (app != NULL)
    g_application_hold (app);

  g_signal_emit (self, signals[RUN_STARTED], 0, (guint) spec->kind, ds_job_get_spec (self->job));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);

  ds_job_run_async (self->job, NULL, job_done_cb, g_object_ref (self));

  return TRUE;
}

gboolean
ds_session_start_kind (DsSession    *self,
                       DsBenchKind   kind,
                       const char   *target_path,
                       GError      **error)
{
  DsBenchSpec spec;
  gboolean ok;

  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);

  ds_session_init_spec (self, &spec, kind, target_path);
  ok = ds_session_start (self, &spec, error);
  ds_bench_spec_clear (&spec);

  return ok;
}

void
ds_session_stop (DsSession *self)
{
  g_return_if_fail (DS_IS_SESSION (self));

  if (self->job != NULL)
    ds_job_cancel (self->job);
}

void
ds_session_stop_and_wait (DsSession *self)
{
  g_return_if_fail (DS_IS_SESSION (self));

  if (self->job != NULL)
    ds_job_cancel_and_wait (self->job);
  _ds_session_join_saves (self);
}

gboolean
ds_session_is_running (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), FALSE);

  return self->job != NULL;
}

DsBenchKind
ds_session_get_running_kind (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), DS_BENCH_N_KINDS);

  return self->job != NULL ? self->job_kind : DS_BENCH_N_KINDS;
}

double
ds_session_get_progress (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), 0);

  return self->job != NULL ? ds_job_get_progress (self->job) : 0;
}

const DsResult *
ds_session_get_result (DsSession   *self,
                       DsBenchKind  kind)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return kind < DS_BENCH_N_KINDS ? self->results[kind] : NULL;
}

const char *
ds_session_get_last_error (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return self->last_error;
}

/* ---- Opened results (ds-session-files.c) ------------------------------ */

gboolean
_ds_session_open_is_current (DsSession *self,
                             guint      generation)
{
  return generation == self->open_generation && self->job == NULL;
}

guint
_ds_session_next_open (DsSession *self)
{
  return ++self->open_generation;
}

void
_ds_session_take_opened (DsSession  *self,
                         DsResult   *result,
                         const char *path)
{
  DsBenchKind kind = result->kind;

  /* The run's own result waits behind the opened one; an opened one
   * replaces the one opened before it. */
  if (self->opened_files[kind] == NULL)
    {
      g_clear_pointer (&self->behind[kind], ds_result_free);
      self->behind[kind] = g_steal_pointer (&self->results[kind]);
    }
  g_clear_pointer (&self->results[kind], ds_result_free);
  self->results[kind] = result;
  g_free (self->opened_files[kind]);
  self->opened_files[kind] = g_strdup (path);

  g_signal_emit (self, signals[RESULT_OPENED], 0, (guint) kind);
}

const char *
ds_session_get_result_file (DsSession   *self,
                            DsBenchKind  kind)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return kind < DS_BENCH_N_KINDS ? self->opened_files[kind] : NULL;
}

void
ds_session_close_result (DsSession   *self,
                         DsBenchKind  kind)
{
  g_return_if_fail (DS_IS_SESSION (self));

  if (kind >= DS_BENCH_N_KINDS || self->opened_files[kind] == NULL)
    return;

  g_clear_pointer (&self->opened_files[kind], g_free);
  g_clear_pointer (&self->results[kind], ds_result_free);
  self->results[kind] = g_steal_pointer (&self->behind[kind]);

  g_signal_emit (self, signals[RESULT_CLOSED], 0, (guint) kind);
}

char *
ds_session_describe_error (const DsResult *result)
{
  if (result == NULL || result->error == NULL)
    return NULL;

  if (result->cancelled ||
      g_error_matches (result->error, DS_ERROR, DS_ERROR_CANCELLED))
    return NULL;

  /* The core's message usually gives the offset already: say it once.
   * What was measured stays on the page, whether the run stopped there or
   * went on past a bad range. */
  if (result->error_offset_bytes >= 0)
    {
      g_autofree char *bytes = g_strdup_printf ("%" G_GINT64_FORMAT, result->error_offset_bytes);

      if (strstr (result->error->message, bytes) == NULL)
        return g_strdup_printf (_("%s (at %.2f GB)."), result->error->message,
                                result->error_offset_bytes / 1e9);
    }

  if (g_str_has_suffix (result->error->message, "."))
    return g_strdup (result->error->message);
  return g_strdup_printf ("%s.", result->error->message);
}

/* ---- Life cycle -------------------------------------------------------- */

void
_ds_session_emit_saved (DsSession      *self,
                        DsLibraryEntry *entry)
{
  g_signal_emit (self, signals[RESULT_SAVED], 0, entry);
}

static void
ds_session_dispose (GObject *object)
{
  DsSession *self = (DsSession *) object;

  /* A running job holds the session (its callback's reference): this is
   * only reached with one when the session is disposed on purpose. */
  if (self->job != NULL)
    {
      ds_job_cancel_and_wait (self->job);
      g_clear_object (&self->job);
    }

  G_OBJECT_CLASS (ds_session_parent_class)->dispose (object);
}

static void
ds_session_finalize (GObject *object)
{
  DsSession *self = (DsSession *) object;

  for (guint i = 0; i < DS_BENCH_N_KINDS; i++)
    {
      g_clear_pointer (&self->results[i], ds_result_free);
      g_clear_pointer (&self->behind[i], ds_result_free);
      g_clear_pointer (&self->opened_files[i], g_free);
    }
  g_clear_pointer (&self->last_error, g_free);
  g_clear_pointer (&self->library_error, g_free);
  g_clear_object (&self->library);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ds_session_parent_class)->finalize (object);
}

static void
ds_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  DsSession *self = DS_SESSION (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, ds_session_is_running (self));
      break;

    case PROP_UNITS:
      g_value_set_int (value, self->units);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_session_class_init (DsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ds_session_dispose;
  object_class->finalize = ds_session_finalize;
  object_class->get_property = ds_session_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNITS] =
    g_param_spec_int ("units", NULL, NULL, DS_UNITS_MB, DS_UNITS_MIB, DS_UNITS_MB,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DsSession::run-started:
   * @kind: the DsBenchKind
   * @spec: (type gpointer): the const DsBenchSpec that runs
   */
  signals[RUN_STARTED] =
    g_signal_new ("run-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_POINTER);

  /**
   * DsSession::samples:
   * @kind: the DsBenchKind running
   * @samples: (element-type DsSample): a batch, oldest first
   *
   * On the session's thread, about ten times a second while a run goes.
   */
  signals[SAMPLES] =
    g_signal_new ("samples", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_ARRAY);

  /**
   * DsSession::run-finished:
   * @kind: the DsBenchKind that ran
   * @result: (type gpointer) (nullable): the const DsResult now kept for
   *   @kind, or NULL when the run gave none (the last error says why)
   * @success: it ran to the end without an error
   */
  signals[RUN_FINISHED] =
    g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_POINTER, G_TYPE_BOOLEAN);

  /**
   * DsSession::result-opened:
   * @kind: the DsBenchKind whose result a saved file replaced
   */
  /**
   * DsSession::result-saved:
   * @entry: (nullable): the run's entry in the library, or NULL when it
   *   could not be saved (ds_session_get_library_error() says why)
   */
  signals[RESULT_SAVED] =
    g_signal_new ("result-saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DS_TYPE_LIBRARY_ENTRY);

  signals[RESULT_OPENED] =
    g_signal_new ("result-opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  /**
   * DsSession::result-closed:
   * @kind: the DsBenchKind whose opened result was closed
   *
   * The result of @kind is again the last run's (or none).
   */
  signals[RESULT_CLOSED] =
    g_signal_new ("result-closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  /**
   * DsSession::waiting:
   * @message: (nullable): what the run waits for, as a sentence (udisks2
   *   asks polkit for the device; the device is busy), NULL once the wait
   *   is over
   */
  signals[WAITING] =
    g_signal_new ("waiting", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ds_session_init (DsSession *self)
{
  self->job_kind = DS_BENCH_N_KINDS;
}

DsSession *
ds_session_new (GSettings *settings)
{
  DsSession *self;
  const char *dir;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (DS_TYPE_SESSION, NULL);
  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::units", G_CALLBACK (units_changed_cb), self,
                           G_CONNECT_SWAPPED);
  self->units = settings_units (settings);
  dir = g_getenv ("DISKSCOPE_RESULTS_DIR");
  self->library = ds_library_new (dir != NULL && *dir != '\0' ? dir : NULL);

  return self;
}
