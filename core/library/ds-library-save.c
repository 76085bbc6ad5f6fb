/* ds-library-save.c: a new result into the library, now or on a worker
 *
 * ds_library_save() writes on the calling thread (the CLI).  A GUI must
 * not wait for the disk on its main thread (the file is synced before it
 * is renamed, which can take a second on a busy disk), so
 * ds_library_save_async() turns the result into its JSON text at once (the
 * caller may free the result as soon as the call returns), writes it on a
 * worker, makes the entry there from the text it wrote, and adds it to the
 * model in _finish(), on the library's thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-library-private.h"
#include "ds-result-json.h"

DsLibraryEntry *
ds_library_save (DsLibrary       *self,
                 const DsResult  *result,
                 const char      *name_hint,
                 GError         **error)
{
  g_autofree char *stem = NULL;
  g_autofree char *data = NULL;
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autoptr (DsLibraryEntry) entry = NULL;
  gsize length = 0;

  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (result != NULL, NULL);

  stem = ds_library_file_stem (result, name_hint);
  data = ds_result_to_data (result, &length);
  if (!ds_library_write_new (self->dir, stem, data, length, &id, &path, error))
    return NULL;

  entry = ds_library_entry_new_for_result (id, path, result);
  ds_library_replace_entry (self, entry);
  return entry;   /* the model holds a reference */
}

typedef struct {
  char  *dir;
  char  *stem;
  char  *data;
  gsize  length;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_free (data->dir);
  g_free (data->stem);
  g_free (data->data);
  g_free (data);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autoptr (DsResult) result = NULL;
  GError *error = NULL;

  if (!ds_library_write_new (data->dir, data->stem, data->data, data->length, &id, &path, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* What was written, read back: the entry lists the file as it is. */
  result = ds_result_load_data (data->data, (gssize) data->length, &error);
  if (result == NULL)
    g_task_return_pointer (task, ds_library_entry_new_unreadable (id, path, error, g_get_real_time () / G_USEC_PER_SEC),
                           g_object_unref);
  else
    g_task_return_pointer (task, ds_library_entry_new_for_result (id, path, result), g_object_unref);
  g_clear_error (&error);
}

void
ds_library_save_async (DsLibrary           *self,
                       const DsResult      *result,
                       const char          *name_hint,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  SaveData *data;

  g_return_if_fail (DS_IS_LIBRARY (self));
  g_return_if_fail (result != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_library_save_async);
  /* The file is written whatever happens to the caller: a cancel only
   * means it no longer waits for the answer. */
  g_task_set_check_cancellable (task, FALSE);

  data = g_new0 (SaveData, 1);
  data->dir = g_strdup (self->dir);
  data->stem = ds_library_file_stem (result, name_hint);
  data->data = ds_result_to_data (result, &data->length);
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_free);
  g_task_run_in_thread (task, save_thread);
}

DsLibraryEntry *
ds_library_save_finish (DsLibrary     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_autoptr (DsLibraryEntry) entry = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_library_save_async, NULL);

  entry = g_task_propagate_pointer (G_TASK (result), error);
  if (entry == NULL)
    return NULL;

  ds_library_replace_entry (self, entry);
  return entry;   /* the model holds a reference */
}
