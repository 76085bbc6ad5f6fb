/* ds-test-file.c: the nameless test file a benchmark runs on in a folder
 * (see ds-test-file.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-run.h"
#include "ds-test-file.h"

#define MIB (UINT64_C (1) << 20)

/* Free space left to the filesystem: 1 % of what is free, at least 4 MiB
 * (metadata, the extent tree of the test file) and at most 256 MiB. */
#define MARGIN_MIN_BYTES (4 * MIB)
#define MARGIN_MAX_BYTES (256 * MIB)

/* What the report's header and the JSON "target" say: the folder, and
 * where known the filesystem's device and its model. */
static void
describe_filesystem (DsResult             *result,
                     const char           *dir,
                     const struct statvfs *vfs,
                     const DsTarget       *target)
{
  ds_target_info_clear (&result->target);
  result->target.path = g_strdup (dir);
  result->target.is_block = FALSE;
  result->target.size_bytes = (uint64_t) vfs->f_blocks * vfs->f_frsize;
  if (target->model != NULL && target->fs_device != NULL)
    result->target.model = g_strdup_printf ("%s (%s)", target->model, target->fs_device);
  else
    result->target.model = g_strdup (target->fs_device);
}

DsTarget *
ds_test_file_open (DsRun                   *run,
                   const char              *dir,
                   const DsTestFileRequest *request,
                   DsTestFileInfo          *ret_info,
                   GError                 **error)
{
  DsTarget *target;
  g_autoptr (GError) local = NULL;
  struct statvfs vfs;
  struct stat st;
  uint64_t free_bytes;
  uint64_t margin;
  uint64_t size;

  *ret_info = (DsTestFileInfo) { 0 };

  if (stat (dir, &st) != 0)
    {
      ds_set_error_from_errno (error, errno, dir);
      return NULL;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s is not a folder: %s runs in a folder of the filesystem "
                   "to test"), dir, request->what);
      return NULL;
    }
  if (statvfs (dir, &vfs) != 0)
    {
      ds_set_error_from_errno (error, errno, dir);
      return NULL;
    }
  /* What this user may allocate, less a margin for the filesystem. */
  free_bytes = (uint64_t) vfs.f_bavail * vfs.f_frsize;
  ret_info->fs_size_bytes = (uint64_t) vfs.f_blocks * vfs.f_frsize;
  ret_info->fs_free_bytes = free_bytes;
  margin = CLAMP (free_bytes / 100, MARGIN_MIN_BYTES, MARGIN_MAX_BYTES);
  size = MIN (request->want_bytes, free_bytes > margin ? free_bytes - margin : 0);
  size = ds_align_down (size, MIB);
  if (size < request->min_bytes)
    {
      g_autofree char *free_text = ds_format_size (free_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   _("not enough free space at %s for %s: %s free, it needs at "
                   "least %" PRIu64 " MiB plus %" PRIu64
                   " MiB for the filesystem"), dir, request->what, free_text,
                   request->min_bytes / MIB, margin / MIB);
      return NULL;
    }
  /* The note says what the free space cut, not the rounding to whole
   * MiB (10^9 bytes asked on a roomy disk is 953 MiB, said in the
   * settings, not blamed on the free space). */
  if (size < ds_align_down (request->want_bytes, MIB))
    {
      g_autofree char *want_text = ds_format_size (request->want_bytes);
      g_autofree char *size_text = ds_format_size (size);
      g_autofree char *free_text = ds_format_size (free_bytes);

      ds_result_add_note (run->result,
                          _("the test file is %s, not %s: %s is free at %s"),
                          size_text, want_text, free_text, dir);
    }

  /* O_DIRECT wherever the filesystem takes it; through the page cache
   * only where it does not, and only when asked (--buffered). */
  target = ds_target_open_tmpfile (dir, DS_TARGET_OPEN_WRITE, &local);
  if (target == NULL && g_error_matches (local, DS_ERROR, DS_ERROR_UNSUPPORTED))
    {
      if (!request->buffered_ok)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("%s; --buffered runs anyway, through the page cache"), local->message);
          return NULL;
        }
      g_clear_error (&local);
      target = ds_target_open_tmpfile (dir, DS_TARGET_OPEN_WRITE | DS_TARGET_OPEN_BUFFERED, &local);
    }
  if (target == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  describe_filesystem (run->result, dir, &vfs, target);
  target->size_bytes = size;

  ret_info->file_bytes = size;
  ret_info->tmpfile = target->tmpfile;
  ret_info->buffered = !target->direct;
  if (ret_info->buffered)
    ds_result_add_note (run->result,
                        _("buffered: the file was read and written through the "
                        "page cache, so the figures are the cache's as much "
                        "as the disk's"));

  return target;
}

int
ds_test_file_fill (DsRun       *run,
                   const char  *dir,
                   GError     **error)
{
  uint64_t file_bytes = run->target->size_bytes;
  int ret;

  if (ds_run_fill (run, file_bytes, error))
    return 0;

  /* The reservation's own message already says there is no room. */
  if (error != NULL && g_error_matches (*error, DS_ERROR, DS_ERROR_NO_SPACE))
    return -ENOSPC;
  if (run->error_errno == ENOSPC || run->error_errno == EDQUOT)
    ret = -ENOSPC;
  else
    ret = run->error_errno != 0 ? -run->error_errno : -EIO;

  return ds_test_file_wrap_error (ret, error, dir, file_bytes);
}

int
ds_test_file_wrap_error (int          ret,
                         GError     **error,
                         const char  *dir,
                         uint64_t     file_bytes)
{
  if (error == NULL || *error == NULL)
    return ret;

  if (ret == -ENOSPC)
    {
      g_autofree char *size = ds_format_size (file_bytes);
      g_autofree char *old = g_strdup ((*error)->message);

      g_clear_error (error);
      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   _("the filesystem at %s ran out of space for the %s test "
                   "file (%s); free some space or give a smaller --size"),
                   dir, size, old);
    }
  else if (ret == -EINVAL && !g_error_matches (*error, DS_ERROR, DS_ERROR_INVALID))
    {
      g_autofree char *old = g_strdup ((*error)->message);

      g_clear_error (error);
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("the filesystem at %s refused a direct I/O transfer (%s); "
                   "--buffered runs anyway, through the page cache"), dir, old);
    }

  return ret;
}
