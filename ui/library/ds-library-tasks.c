/* ds-library-tasks.c: what the library window reads or writes
 *
 * Rename and tag (a dialog, then ds_library_annotate_async() with what the
 * user changed in it), export (a
 * copy of the result as JSON, its text report or a fio job that
 * reproduces it, by the name's ending) and loading the results of a
 * comparison: files are read and written on worker threads, widgets are
 * touched only back on the main thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-compare-window.h"
#include "ds-error.h"
#include "ds-export-chooser.h"
#include "ds-fio.h"
#include "ds-library-window-private.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-save.h"

/* ---- Rename and tag ----------------------------------------------------- */

static void
annotate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (ds_library_annotate_finish (DS_LIBRARY (object), result, &error))
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  _ds_library_window_toast (DS_LIBRARY_WINDOW (user_data), error->message);
}

/* "RAID 10, FC 8G" → two tags. */
static gboolean
annotation_from_rows (DsAnnotation  *annotation,
                      const char    *label,
                      const char    *tags,
                      const char    *notes,
                      GError       **error)
{
  g_auto(GStrv) parts = g_strsplit (tags, ",", -1);

  if (!ds_annotation_set_label (annotation, label, error) ||
      !ds_annotation_set_notes (annotation, *notes != '\0' ? notes : NULL, error))
    return FALSE;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (*parts[i] != '\0' && !ds_annotation_add_tag (annotation, parts[i], error))
        return FALSE;
    }

  return TRUE;
}

static void
edit_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  DsLibraryWindow  *self)
{
  GtkEditable *label = g_object_get_data (G_OBJECT (dialog), "label");
  GtkEditable *tags = g_object_get_data (G_OBJECT (dialog), "tags");
  GtkEditable *notes = g_object_get_data (G_OBJECT (dialog), "notes");
  const char *id = g_object_get_data (G_OBJECT (dialog), "id");
  const char *const *shown = g_object_get_data (G_OBJECT (dialog), "shown");
  g_auto(DsAnnotation) before = { 0 };
  g_auto(DsAnnotation) after = { 0 };
  g_auto(DsLibraryEdit) edit = { 0 };
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "save") != 0)
    return;

  /* What the dialog showed, read as what it saves: only the fields the
   * user changed are changed, in the file as it is now (the CLI or
   * another window may have tagged it meanwhile). */
  if (!annotation_from_rows (&before, shown[0], shown[1], shown[2], NULL))
    ds_annotation_clear (&before);
  if (!annotation_from_rows (&after, gtk_editable_get_text (label), gtk_editable_get_text (tags),
                             gtk_editable_get_text (notes), &error))
    {
      _ds_library_window_toast (self, error->message);
      return;
    }

  ds_library_edit_init_diff (&edit, &before, &after);
  ds_library_annotate_async (self->library, id, &edit, self->cancellable,
                             annotate_done_cb, self);
}

static GtkEditable *
add_row (GtkListBox *list,
         const char *title,
         const char *text)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
  gtk_list_box_append (list, row);
  return GTK_EDITABLE (row);
}

static void
edit_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(DsLibraryEntry) entry = _ds_library_window_selected_one (self);
  g_autofree char *tags = NULL;
  GtkWidget *dialog, *list;
  GtkEditable *label_row;
  const char *label;
  const char *notes;

  if (entry == NULL)
    return;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Rename and Tag"),
                                   _("An empty label goes back to the model and date."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"), "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  tags = g_strjoinv (", ", (char **) ds_library_entry_get_tags (entry));
  label = ds_library_entry_has_custom_label (entry) ? ds_library_entry_get_label (entry) : "";
  notes = ds_library_entry_get_notes (entry) != NULL ? ds_library_entry_get_notes (entry) : "";
  label_row = add_row (GTK_LIST_BOX (list), _("Label"), label);
  g_object_set_data (G_OBJECT (dialog), "label", label_row);
  g_object_set_data (G_OBJECT (dialog), "tags",
                     add_row (GTK_LIST_BOX (list), _("Tags, separated by commas"), tags));
  g_object_set_data (G_OBJECT (dialog), "notes", add_row (GTK_LIST_BOX (list), _("Notes"), notes));
  {
    const char *shown[] = { label, tags, notes, NULL };

    g_object_set_data_full (G_OBJECT (dialog), "shown", g_strdupv ((char **) shown),
                            (GDestroyNotify) g_strfreev);
  }
  g_object_set_data_full (G_OBJECT (dialog), "id", g_strdup (ds_library_entry_get_id (entry)), g_free);
  gtk_widget_set_size_request (list, 360, -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), list);

  g_signal_connect_object (dialog, "response", G_CALLBACK (edit_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (GTK_WIDGET (label_row));
}

/* ---- Export -------------------------------------------------------------- */

typedef struct {
  DsLibraryEntry *entry;
  DsUnits         units;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_object (&data->entry);
  g_free (data);
}

/* By the name's ending: ".fio" a fio job, ".txt" the text report, any
 * other the result itself (JSON); under ds-save.h's rules, never over the
 * result's target nor its own file (@source). */
gboolean
_ds_library_export_result (const DsResult  *result,
                           const char      *source,
                           const char      *path,
                           DsUnits          units,
                           GError         **error)
{
  const char *inputs[] = { source, NULL };
  const DsSaveKeep keep = { .target = result->spec.target_path, .inputs = inputs };
  g_autofree char *text = NULL;

  if (!g_str_has_suffix (path, ".fio") && !g_str_has_suffix (path, ".txt"))
    return ds_result_save_from (result, path, inputs, error);

  if (!ds_save_check (path, &keep, error))
    return FALSE;
  if (g_str_has_suffix (path, ".fio"))
    text = ds_fio_job_from_result (result, NULL, error);
  else
    text = ds_report_text (result, units);

  return text != NULL && ds_save_file (path, text, strlen (text), &keep, error);
}

static gboolean
export_entry (gpointer     user_data,
              const char  *path,
              GError     **error)
{
  ExportData *data = user_data;
  g_autoptr(DsResult) result = ds_library_entry_load (data->entry, error);

  return result != NULL &&
         _ds_library_export_result (result, ds_library_entry_get_path (data->entry), path,
                                    data->units, error);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(DsLibraryEntry) entry = _ds_library_window_selected_one (self);
  const char *extension = g_variant_get_string (param, NULL);
  g_autofree char *name = NULL;
  ExportData *data;

  if (entry == NULL || self->chooser != NULL)
    return;

  name = g_strdup_printf ("%s.%s", ds_library_entry_get_id (entry), extension);
  data = g_new0 (ExportData, 1);
  data->entry = g_steal_pointer (&entry);
  data->units = ds_session_get_units (self->session);
  ds_export_ask (GTK_WINDOW (self), &self->chooser, self->toast_overlay, _("Export Result"), name,
                 _("Result exported"), export_entry, data, (GDestroyNotify) export_data_free,
                 self->cancellable);
}

/* ---- Compare ------------------------------------------------------------- */

static void
compare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GPtrArray *entries = task_data;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);

  for (guint i = 0; i < entries->len; i++)
    {
      GError *error = NULL;
      DsResult *result = ds_library_entry_load (entries->pdata[i], &error);

      if (result == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (results, result);
      if (g_task_return_error_if_cancelled (task))
        return;
    }

  g_task_return_pointer (task, g_steal_pointer (&results), (GDestroyNotify) g_ptr_array_unref);
}

static void
compare_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (object);
  GPtrArray *entries = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GStrvBuilder) sources = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) files = g_strv_builder_new ();
  g_auto(GStrv) source_names = NULL;
  g_auto(GStrv) file_names = NULL;
  g_autoptr(GError) error = NULL;
  DsCompareWindow *window;

  results = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->compare_cancellable);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  _ds_library_window_update_actions (self);

  if (results == NULL)
    {
      _ds_library_window_toast (self, error->message);
      return;
    }

  for (guint i = 0; i < entries->len; i++)
    {
      g_strv_builder_add (sources, ds_library_entry_get_id (entries->pdata[i]));
      g_strv_builder_add (files, ds_library_entry_get_path (entries->pdata[i]));
    }
  source_names = g_strv_builder_end (sources);
  file_names = g_strv_builder_end (files);

  window = ds_compare_window_new (GTK_WINDOW (self), g_steal_pointer (&results),
                                  (const char *const *) source_names,
                                  ds_session_get_units (self->session), &error);
  if (window == NULL)
    {
      _ds_library_window_toast (self, error->message);
      return;
    }
  ds_compare_window_set_inputs (window, (const char *const *) file_names);
  gtk_window_present (GTK_WINDOW (window));
}

void
_ds_library_window_compare (DsLibraryWindow *self,
                            GPtrArray       *entries)
{
  g_autoptr(GTask) task = NULL;

  if (self->compare_cancellable != NULL)
    return;

  self->compare_cancellable = g_cancellable_new ();
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);
  _ds_library_window_update_actions (self);

  task = g_task_new (self, self->compare_cancellable, compare_done_cb, NULL);
  g_task_set_source_tag (task, _ds_library_window_compare);
  g_task_set_task_data (task, g_ptr_array_ref (entries), (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, compare_thread);
}

/* ---- Life cycle ---------------------------------------------------------- */

void
_ds_library_window_tasks_dispose (DsLibraryWindow *self)
{
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->compare_cancellable);
}

void
_ds_library_window_class_tasks_init (DsLibraryWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "library.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "library.export", "s", export_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "library.edit", NULL);
}
