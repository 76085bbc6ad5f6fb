/* ds-result-load.c: a result file into a DsResult, whatever the file is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way in for `diskscope-cli report`, the app's Open and the
 * results library.  A path may name anything: a FIFO (reading it blocks
 * until someone writes), /dev/zero (endless), a directory, a 10 GB file,
 * a file that grows while it is read.  The program's one bounded opener
 * (io/ds-file-read.c) opens without blocking, refuses what is not a
 * regular file, checks the size before reading and reads no more than
 * DS_JSON_MAX_FILE_BYTES + 1 whatever fstat() said; the bytes are then
 * checked against the DS_JSON_MAX_* bounds (ds_json_check_bounds()), the
 * long lists of points are read into columns (ds_json_pack()), and
 * json-glib builds a tree of the rest.
 *
 * Thread safety: nothing here or below touches global state (no caches,
 * no interned strings, no locale), so any of these may run on any thread,
 * several at once.  ds_result_load_async() runs ds_result_load() on a
 * GTask worker thread for callers that must not block (the app).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-error.h"
#include "ds-file-read.h"
#include "ds-limits.h"
#include "ds-result-json.h"
#include "ds-text.h"

DsResult *
ds_result_load_data (const char  *data,
                     gssize       length,
                     GError     **error)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (DsJsonPack) pack = NULL;
  g_autoptr (GString) packed = NULL;
  DsResult *result;

  if (data == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("the result file is empty"));
      return NULL;
    }
  if (length < 0)
    length = (gssize) strlen (data);
  if (length == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("the result file is empty"));
      return NULL;
    }

  if (!ds_json_check_bounds (data, (gsize) length, error))
    return NULL;

  /* The long lists of points go into columns; json-glib reads the rest. */
  pack = ds_json_pack (data, (gsize) length, &packed);
  if (packed != NULL)
    {
      data = packed->str;
      length = (gssize) packed->len;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_autofree char *why = ds_text_sanitize_short (local->message, 200);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not a Diskscope result: the JSON is broken or cut short (%s)"), why);
      return NULL;
    }

  ds_json_pack_set_current (pack);
  result = ds_result_from_json (json_parser_get_root (parser), &local);
  ds_json_pack_set_current (NULL);
  if (result == NULL)
    {
      /* The reasons quote the file ("unknown row “…”"): anyone's text,
       * made safe to print here once for every kind's reader. */
      g_autofree char *why = ds_text_sanitize_short (local->message, 400);

      g_set_error (error, local->domain, local->code, "%s", why);
    }
  return result;
}

/* A file that is not a result: perhaps another program's output a kind
 * reads.  NULL with @error left as it is when no kind takes it. */
static DsResult *
load_foreign (const char  *path,
              const char  *data,
              gsize        length,
              GError     **error)
{
  for (guint k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = ds_bench_get ((DsBenchKind) k);
      GError *local = NULL;
      DsResult *result;

      if (ops == NULL || ops->from_foreign == NULL)
        continue;
      result = ops->from_foreign (path, data, length, &local);
      if (result != NULL)
        return result;
      /* That program's output, which says why it cannot be shown (about
       * a drive smartctl could not read): that is the news. */
      if (!g_error_matches (local, DS_ERROR, DS_ERROR_CORRUPT))
        {
          g_clear_error (error);
          g_propagate_error (error, local);
          return NULL;
        }
      g_clear_error (&local);
    }

  return NULL;
}

DsResult *
ds_result_load_full (const char         *path,
                     DsResultLoadFlags   flags,
                     GError            **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  DsResult *result;

  if (!ds_file_read_bounded (path, _("a result file"), DS_JSON_MAX_FILE_BYTES,
                             "DS_JSON_MAX_FILE_BYTES", &data, &length, error))
    return NULL;

  result = ds_result_load_data (data, (gssize) length, &local);
  if (result == NULL)
    {
      g_autofree char *name = ds_text_sanitize (path);
      GError *corrupt = g_error_new (DS_ERROR, DS_ERROR_CORRUPT, "%s: %s", name, local->message);

      if ((flags & DS_RESULT_LOAD_FOREIGN) != 0)
        result = load_foreign (path, data, length, &corrupt);
      if (result == NULL)
        g_propagate_error (error, corrupt);
      else
        g_error_free (corrupt);
    }

  return result;
}

DsResult *
ds_result_load (const char  *path,
                GError     **error)
{
  return ds_result_load_full (path, DS_RESULT_LOAD_DEFAULT, error);
}

/* ---- off the caller's thread -------------------------------------------- */

typedef struct {
  char              *path;
  DsResultLoadFlags  flags;
} LoadTask;

static void
load_task_free (gpointer data)
{
  LoadTask *load = data;

  g_free (load->path);
  g_free (load);
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  LoadTask *load = task_data;
  GError *error = NULL;
  DsResult *result;

  if (g_task_return_error_if_cancelled (task))
    return;

  result = ds_result_load_full (load->path, load->flags, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) ds_result_free);
}

void
ds_result_load_full_async (const char          *path,
                           DsResultLoadFlags    flags,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadTask *load;

  g_return_if_fail (path != NULL);

  load = g_new0 (LoadTask, 1);
  load->path = g_strdup (path);
  load->flags = flags;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_result_load_async);
  g_task_set_name (task, "[diskscope] load result");
  g_task_set_task_data (task, load, load_task_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_in_thread);
}

void
ds_result_load_async (const char          *path,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  ds_result_load_full_async (path, DS_RESULT_LOAD_DEFAULT, cancellable, callback, user_data);
}

DsResult *
ds_result_load_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_result_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
