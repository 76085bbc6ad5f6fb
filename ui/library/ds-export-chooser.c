/* ds-export-chooser.c: "where to save?", then the export on a worker
 *
 * The library window (a result as JSON, a report or a fio job) and the
 * comparison window (images and tables) export alike: a native chooser,
 * the writing on a worker thread (a large result or a PDF takes a
 * moment), and a toast that says how it went.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-export-chooser.h"

typedef struct {
  GtkFileChooserNative **slot;
  AdwToastOverlay       *toasts;
  char                  *done;
  DsExportFunc           func;
  gpointer               data;
  GDestroyNotify         destroy;
  GCancellable          *cancellable;
  char                  *path;      /* once answered */
} Export;

static void
export_free (gpointer user_data)
{
  Export *export = user_data;

  if (export->data != NULL && export->destroy != NULL)
    export->destroy (export->data);
  g_clear_object (&export->toasts);
  g_clear_object (&export->cancellable);
  g_free (export->done);
  g_free (export->path);
  g_free (export);
}

static void
closure_free (gpointer  user_data,
              GClosure *closure)
{
  export_free (user_data);
}

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Export *export = task_data;
  GError *error = NULL;

  if (export->func (export->data, export->path, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Export *export = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    adw_toast_overlay_add_toast (export->toasts, adw_toast_new (export->done));
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    adw_toast_overlay_add_toast (export->toasts, adw_toast_new (error->message));
}

static void
response_cb (GtkNativeDialog *chooser,
             int              response,
             Export          *export)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL)
    path = g_file_get_path (file);

  if (path != NULL)
    {
      /* The job takes the data from the chooser's closure. */
      Export *job = g_new0 (Export, 1);
      g_autoptr(GTask) task = NULL;

      job->toasts = g_object_ref (export->toasts);
      job->done = g_strdup (export->done);
      job->func = export->func;
      job->data = g_steal_pointer (&export->data);
      job->destroy = export->destroy;
      job->cancellable = export->cancellable ? g_object_ref (export->cancellable) : NULL;
      job->path = g_steal_pointer (&path);

      task = g_task_new (NULL, job->cancellable, export_done_cb, NULL);
      g_task_set_source_tag (task, ds_export_ask);
      g_task_set_task_data (task, job, export_free);
      g_task_run_in_thread (task, export_thread);
    }

  /* Last: this may drop the chooser, and with it @export. */
  g_clear_object (export->slot);
}

void
ds_export_ask (GtkWindow             *parent,
               GtkFileChooserNative **chooser_slot,
               AdwToastOverlay       *toasts,
               const char            *title,
               const char            *name,
               const char            *done,
               DsExportFunc           func,
               gpointer               data,
               GDestroyNotify         destroy,
               GCancellable          *cancellable)
{
  Export *export = g_new0 (Export, 1);
  GtkFileChooserNative *chooser;

  g_return_if_fail (*chooser_slot == NULL);

  export->slot = chooser_slot;
  export->toasts = g_object_ref (toasts);
  export->done = g_strdup (done);
  export->func = func;
  export->data = data;
  export->destroy = destroy;
  export->cancellable = cancellable ? g_object_ref (cancellable) : NULL;

  chooser = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect_data (chooser, "response", G_CALLBACK (response_cb), export, closure_free, 0);
  *chooser_slot = chooser;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
