/* ds-result-load.c: a result file into a DsResult, whatever the file is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way in for `diskscope-cli report`, the app's Open and the
 * results library.  A path may name anything: a FIFO (reading it blocks
 * until someone writes), /dev/zero (endless), a directory, a 10 GB file,
 * a file that grows while it is read.  So: open without blocking, refuse
 * what is not a regular file, check the size before reading, read no more
 * than DS_JSON_MAX_FILE_BYTES + 1 whatever fstat() said, then check the
 * bytes against the DS_JSON_MAX_* bounds (ds_json_check_bounds()) before
 * json-glib builds a tree.
 *
 * Thread safety: nothing here or below touches global state (no caches,
 * no interned strings, no locale), so any of these may run on any thread,
 * several at once.  ds_result_load_async() runs ds_result_load() on a
 * GTask worker thread for callers that must not block (the app).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
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

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_autofree char *why = ds_text_sanitize_short (local->message, 200);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not a Diskscope result: the JSON is broken or cut short (%s)"), why);
      return NULL;
    }

  return ds_result_from_json (json_parser_get_root (parser), error);
}

static const char *
describe_file_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a folder";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";

  return "not a regular file";
}

/* Reads the regular file @fd into a new buffer (NUL-terminated), never
 * more than DS_JSON_MAX_FILE_BYTES + 1 bytes.  -errno, or -EFBIG if the
 * file holds more than DS_JSON_MAX_FILE_BYTES. */
static int
read_bounded (int     fd,
              gsize   size_hint,
              char  **ret_data,
              gsize  *ret_length)
{
  gsize capacity = MIN (size_hint, DS_JSON_MAX_FILE_BYTES) + 1;
  g_autofree char *data = g_malloc (capacity + 1);
  gsize length = 0;

  for (;;)
    {
      ssize_t n;

      if (length == capacity)
        {
          /* The file is longer than fstat() said (it grows, or it is a
           * /proc file that says 0): grow, up to the bound and one. */
          if (capacity > DS_JSON_MAX_FILE_BYTES)
            return -EFBIG;
          capacity = MIN (capacity * 2 + 4096, DS_JSON_MAX_FILE_BYTES + 1);
          data = g_realloc (data, capacity + 1);
        }

      n = read (fd, data + length, capacity - length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      if (n == 0)
        break;
      length += (gsize) n;
    }

  if (length > DS_JSON_MAX_FILE_BYTES)
    return -EFBIG;

  data[length] = '\0';
  *ret_data = g_steal_pointer (&data);
  *ret_length = length;
  return 0;
}

DsResult *
ds_result_load (const char  *path,
                GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *data = NULL;
  g_autofree char *name = ds_text_sanitize (path);
  gsize length = 0;
  struct stat st;
  DsResult *result;
  int fd;
  int r;

  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
   * right after).  O_NOCTTY: a terminal named here must not become ours. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, DS_ERROR,
                   e == ENOENT || e == ENOTDIR ? DS_ERROR_NOT_FOUND :
                   e == EACCES || e == EPERM ? DS_ERROR_PERMISSION :
                   e == ENXIO ? DS_ERROR_CORRUPT : DS_ERROR_FAILED,
                   e == ENXIO ? _("%s: not a result file (a socket or a device that is not there)") :
                   "%s: %s", name, g_strerror (e));
      return NULL;
    }

  if (fstat (fd, &st) < 0)
    {
      int e = errno;

      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "%s: %s", name, g_strerror (e));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s is %s, not a result file"), name, describe_file_type (st.st_mode));
      return NULL;
    }
  if ((uint64_t) st.st_size > DS_JSON_MAX_FILE_BYTES)
    {
      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: %" PRIu64 " bytes, more than a result holds (%"
                   PRIu64 " MiB, the cap DS_JSON_MAX_FILE_BYTES)"),
                   name, (uint64_t) st.st_size, DS_JSON_MAX_FILE_BYTES >> 20);
      return NULL;
    }

  r = read_bounded (fd, (gsize) st.st_size, &data, &length);
  close (fd);
  if (r == -EFBIG)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: more than %" PRIu64 " MiB, more than a result holds "
                   "(the cap DS_JSON_MAX_FILE_BYTES)"), name, DS_JSON_MAX_FILE_BYTES >> 20);
      return NULL;
    }
  if (r < 0)
    {
      g_set_error (error, DS_ERROR, r == -EISDIR ? DS_ERROR_CORRUPT : DS_ERROR_FAILED,
                   "%s: %s", name, g_strerror (-r));
      return NULL;
    }

  result = ds_result_load_data (data, (gssize) length, &local);
  if (result == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s: %s", name, local->message);

  return result;
}

/* ---- off the caller's thread -------------------------------------------- */

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  DsResult *result;

  if (g_task_return_error_if_cancelled (task))
    return;

  result = ds_result_load (task_data, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) ds_result_free);
}

void
ds_result_load_async (const char          *path,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_result_load_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_in_thread);
}

DsResult *
ds_result_load_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_result_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
