/* ds-library-annotate.c: relabelling a saved result (its label, notes
 * and tags), here or on a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-error.h"
#include "ds-library.h"
#include "ds-library-private.h"
#include "ds-library-write.h"
#include "ds-result-json.h"

/* Load, annotate, save over: shared by the sync and async paths (no
 * DsLibrary access). */
static DsLibraryEntry *
annotate_file (const char          *id,
               const char          *path,
               const DsAnnotation  *annotation,
               GError             **error)
{
  g_autoptr (DsResult) result = ds_result_load (path, error);
  g_autofree char *data = NULL;
  gsize length = 0;

  if (result == NULL)
    return NULL;

  ds_annotation_clear (&result->annotation);
  ds_annotation_copy (&result->annotation, annotation);
  data = ds_result_to_data (result, &length);
  if (!ds_library_write_file (path, data, length, DS_LIBRARY_WRITE_REPLACE, error))
    return NULL;

  return ds_library_entry_new_for_result (id, path, result);
}

gboolean
ds_library_annotate (DsLibrary           *self,
                     const char          *id,
                     const DsAnnotation  *annotation,
                     DsLibraryEntry     **ret_entry,
                     GError             **error)
{
  g_autoptr (DsLibraryEntry) updated = NULL;
  DsLibraryEntry *entry;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (annotation != NULL, FALSE);

  entry = ds_library_require_entry (self, id, error);
  if (entry == NULL)
    return FALSE;

  updated = annotate_file (id, ds_library_entry_get_path (entry), annotation, error);
  if (updated == NULL)
    return FALSE;

  ds_library_replace_entry (self, updated);
  if (ret_entry != NULL)
    *ret_entry = updated;
  return TRUE;
}

typedef struct {
  char         *id;
  char         *path;
  DsAnnotation  annotation;
} AnnotateData;

static void
annotate_data_free (AnnotateData *data)
{
  g_free (data->id);
  g_free (data->path);
  ds_annotation_clear (&data->annotation);
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

  entry = annotate_file (data->id, data->path, &data->annotation, &error);
  if (entry == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, entry, g_object_unref);
}

void
ds_library_annotate_async (DsLibrary           *self,
                           const char          *id,
                           const DsAnnotation  *annotation,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  DsLibraryEntry *entry;
  AnnotateData *data;

  g_return_if_fail (DS_IS_LIBRARY (self));
  g_return_if_fail (annotation != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_library_annotate_async);

  entry = ds_library_require_entry (self, id, &error);
  if (entry == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (AnnotateData, 1);
  data->id = g_strdup (id);
  data->path = g_strdup (ds_library_entry_get_path (entry));
  ds_annotation_copy (&data->annotation, annotation);
  g_task_set_task_data (task, data, (GDestroyNotify) annotate_data_free);
  g_task_run_in_thread (task, annotate_thread);
}

gboolean
ds_library_annotate_finish (DsLibrary     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_autoptr (DsLibraryEntry) entry = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_library_annotate_async, FALSE);

  entry = g_task_propagate_pointer (G_TASK (result), error);
  if (entry == NULL)
    return FALSE;

  ds_library_replace_entry (self, entry);
  return TRUE;
}

