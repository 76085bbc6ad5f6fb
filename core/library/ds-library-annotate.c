/* ds-library-annotate.c: relabelling a saved result (its label, notes
 * and tags), here or on a worker thread (the file's side: ds-library-edit.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-error.h"
#include "ds-library.h"
#include "ds-library-private.h"

/* A result deleted meanwhile is gone from the list too. */
static void
drop_if_gone (DsLibrary    *self,
              const char   *id,
              const GError *error)
{
  if (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND))
    ds_library_drop_entry (self, id);
}

gboolean
ds_library_annotate (DsLibrary            *self,
                     const char           *id,
                     const DsLibraryEdit  *edit,
                     DsLibraryEntry      **ret_entry,
                     GError              **error)
{
  g_autoptr (DsLibraryEntry) updated = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *key = g_strdup (id);   /* @id may be the entry's own */
  DsLibraryEntry *entry;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);

  entry = ds_library_require_entry (self, key, error);
  if (entry == NULL)
    return FALSE;

  updated = ds_library_edit_file (self->dir, key, ds_library_entry_get_path (entry), edit, &local);
  if (updated == NULL)
    {
      drop_if_gone (self, key, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  ds_library_replace_entry (self, updated);
  if (ret_entry != NULL)
    *ret_entry = updated;
  return TRUE;
}

typedef struct {
  char          *dir;
  char          *id;
  char          *path;
  DsLibraryEdit  edit;
} AnnotateData;

static void
annotate_data_free (AnnotateData *data)
{
  g_free (data->dir);
  g_free (data->id);
  g_free (data->path);
  ds_library_edit_clear (&data->edit);
  g_free (data);
}

static void
annotate_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  AnnotateData *data = task_data;
  GError *error = NULL;
  DsLibraryEntry *entry;

  if (g_task_return_error_if_cancelled (task))
    return;

  entry = ds_library_edit_file (data->dir, data->id, data->path, &data->edit, &error);
  if (entry == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, entry, g_object_unref);
}

void
ds_library_annotate_async (DsLibrary           *self,
                           const char          *id,
                           const DsLibraryEdit *edit,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  DsLibraryEntry *entry;
  AnnotateData *data;

  g_return_if_fail (DS_IS_LIBRARY (self));
  g_return_if_fail (edit != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_library_annotate_async);

  entry = ds_library_require_entry (self, id, &error);
  if (entry == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (AnnotateData, 1);
  data->dir = g_strdup (self->dir);
  data->id = g_strdup (id);
  data->path = g_strdup (ds_library_entry_get_path (entry));
  ds_library_edit_copy (&data->edit, edit);
  g_task_set_task_data (task, data, (GDestroyNotify) annotate_data_free);
  g_task_run_in_thread (task, annotate_thread);
}

gboolean
ds_library_annotate_finish (DsLibrary     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_autoptr (DsLibraryEntry) entry = NULL;
  g_autoptr (GError) local = NULL;
  AnnotateData *data;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_library_annotate_async, FALSE);

  entry = g_task_propagate_pointer (G_TASK (result), &local);
  if (entry == NULL)
    {
      data = g_task_get_task_data (G_TASK (result));
      if (data != NULL)
        drop_if_gone (self, data->id, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  ds_library_replace_entry (self, entry);
  return TRUE;
}

