/* ds-application-script.c: the window driven from the command line
 *
 * A script's options (ds-application.c) applied once to the first
 * window: its page and target, a result to open, the page's own settings
 * (_ds_page_options), Start; then a screenshot and the exit status
 * (diskscope-cli's) once the run or the opened result has been drawn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-application-private.h"
#include "ds-bench.h"
#include "ds-error.h"
#include "ds-pages.h"

const DsPageOption _ds_page_options[DS_N_PAGE_OPTIONS] = {
  { "write", FALSE },
  { "preset", TRUE },
  { "reads-only", FALSE },
  { "size", TRUE },
  { "duration", TRUE },
  { "count", TRUE },
  { "random", FALSE },
  { "quick", FALSE },
  { "trace", TRUE },
  { "speed", TRUE },
};

static int
status_for_error (const GError *error)
{
  if (error->domain == G_OPTION_ERROR)
    return STATUS_USAGE;
  if (error->domain != DS_ERROR)
    return STATUS_FAILED;

  switch (error->code)
    {
    case DS_ERROR_INVALID:
      return STATUS_USAGE;
    case DS_ERROR_REFUSED:
    case DS_ERROR_BUSY:
      return STATUS_REFUSED;
    default:
      return STATUS_FAILED;
    }
}

static void
script_finish (DsApplication *self,
               DsWindow      *window,
               int            status)
{
  if (self->screenshot != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!ds_window_save_screenshot (window, self->screenshot, &error))
        {
          g_printerr ("diskscope: %s\n", error->message);
          if (status == STATUS_OK)
            status = STATUS_FAILED;
        }
    }

  if (self->quit_when_done)
    {
      self->exit_status = status;
      g_application_quit (G_APPLICATION (self));
    }
}

/* The screenshot waits for a frame or two, so that what it shows is what
 * the last samples and the result drew. */
static gboolean
script_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  DsApplication *self = user_data;

  if (++self->frames < 3)
    return G_SOURCE_CONTINUE;

  script_finish (self, DS_WINDOW (widget), self->run_status);
  return G_SOURCE_REMOVE;
}

/* Style transitions (the Start button turning back from red) take 200 ms
 * in Adwaita: let them end before the frames are counted. */
#define SCRIPT_SETTLE_MS 400

static gboolean
script_settled_cb (gpointer user_data)
{
  DsApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      self->exit_status = STATUS_FAILED;
      g_application_quit (G_APPLICATION (self));
      return G_SOURCE_REMOVE;
    }

  self->frames = 0;
  gtk_widget_queue_draw (GTK_WIDGET (window));
  gtk_widget_add_tick_callback (GTK_WIDGET (window), script_tick_cb, self, NULL);

  return G_SOURCE_REMOVE;
}

static void
script_after_frames (DsApplication *self,
                     DsWindow      *window,
                     int            status)
{
  self->run_status = status;
  g_timeout_add (SCRIPT_SETTLE_MS, script_settled_cb, self);
}

static void
run_finished_cb (DsWindow      *window,
                 gboolean       success,
                 DsApplication *self)
{
  g_signal_handlers_disconnect_by_func (window, run_finished_cb, self);

  if (!success)
    {
      const char *message = ds_session_get_last_error (ds_window_get_session (window));

      if (message != NULL)
        g_printerr ("diskscope: %s\n", message);
      else
        g_printerr (_("diskscope: the test did not succeed\n"));
    }

  script_after_frames (self, window, success ? STATUS_OK : STATUS_FAILED);
}

static void
script_opened_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(DsApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (ds_session_open_result_finish (DS_SESSION (object), result, &error) >= DS_BENCH_N_KINDS)
    g_printerr ("diskscope: %s\n", error->message);

  if (window != NULL && (self->screenshot != NULL || self->quit_when_done))
    script_after_frames (self, DS_WINDOW (window), error == NULL ? STATUS_OK : STATUS_FAILED);
}

/* Says why the script stops here, and ends it with @status (the window
 * stays open without --quit-when-done). */
static void
script_fail (DsApplication *self,
             DsWindow      *window,
             int            status,
             const char    *message)
{
  g_printerr ("diskscope: %s\n", message);
  script_after_frames (self, window, status);
}

/* The page settings given (--write, --preset …), on the page shown. */
static gboolean
apply_page_options (DsApplication  *self,
                    DsWindow       *window,
                    GError        **error)
{
  for (guint i = 0; i < DS_N_PAGE_OPTIONS; i++)
    if (self->option_given[i] &&
        !ds_window_set_page_option (window, _ds_page_options[i].name, self->option_value[i], error))
      return FALSE;

  return TRUE;
}

void
_ds_application_apply_script (DsApplication *self,
              DsWindow      *window)
{
  g_autoptr(GError) error = NULL;

  if (self->scripted)
    return;
  self->scripted = TRUE;

  if (self->accuracy > 0)
    ds_session_set_accuracy (ds_window_get_session (window), self->accuracy);

  if ((self->device != NULL && !ds_window_select_device (window, self->device, &error)) ||
      (self->folder != NULL && !ds_window_set_folder (window, self->folder, &error)))
    {
      script_fail (self, window, STATUS_FAILED, error->message);
      return;
    }
  if (self->folder != NULL && self->page == NULL)
    ds_window_set_page (window, "file");

  if (self->page != NULL && !ds_window_set_page (window, self->page))
    {
      g_autofree char *message = g_strdup_printf (_("no page called “%s”"), self->page);

      script_fail (self, window, STATUS_USAGE, message);
      return;
    }

  if (!apply_page_options (self, window, &error))
    {
      script_fail (self, window, STATUS_USAGE, error->message);
      return;
    }

  /* A saved result is shown on its own page; --start is not for it. */
  if (self->open != NULL)
    {
      ds_session_open_result_async (ds_window_get_session (window), self->open, NULL,
                                    script_opened_cb, g_object_ref (self));
      return;
    }

  if (self->start)
    {
      g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), self);
      /* Never a dialog: --destroy-data confirms a write, or it is refused. */
      if (!ds_window_start_confirmed (window, self->destroy_data, &error))
        {
          g_signal_handlers_disconnect_by_func (window, run_finished_cb, self);
          script_fail (self, window, status_for_error (error), error->message);
        }
    }
  else if (self->screenshot != NULL || self->quit_when_done)
    script_after_frames (self, window, STATUS_OK);
}

