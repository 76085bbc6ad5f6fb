/* ds-test-file.c: the nameless test file a benchmark runs on in a folder
 * (see ds-test-file.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

/* The fill writes in blocks of this size. */
#define FILL_BLOCK_BYTES (8 * MIB)

/* Opens a nameless file in @dir: O_TMPFILE, else a hidden unique name
 * unlinked at once.  Returns the fd or -errno (-EINVAL: O_DIRECT refused). */
static int
open_test_file (const char *dir,
                gboolean    direct,
                gboolean   *ret_tmpfile)
{
  int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  int fd;

  fd = open (dir, O_TMPFILE | flags, 0600);
  if (fd >= 0)
    {
      *ret_tmpfile = TRUE;
      return fd;
    }
  /* EOPNOTSUPP: the filesystem has no O_TMPFILE; EISDIR: the kernel does
   * not know the flag.  Anything else (EINVAL for O_DIRECT, EACCES, EROFS,
   * ENOSPC) is the answer. */
  if (errno != EOPNOTSUPP && errno != EISDIR)
    return -errno;

  for (unsigned attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *path = g_strdup_printf ("%s/.diskscope-test-%d-%08x",
                                               dir, (int) getpid (), g_random_int ());

      fd = open (path, O_CREAT | O_EXCL | flags, 0600);
      if (fd >= 0)
        {
          /* No name from here on: nothing to clean up, ever. */
          unlink (path);
          *ret_tmpfile = FALSE;
          return fd;
        }
      if (errno == EEXIST)
        continue;
      if (errno == EINVAL)
        {
          /* The inode may exist already when only O_DIRECT failed (O_EXCL
           * made sure it is ours). */
          unlink (path);
          return -EINVAL;
        }
      return -errno;
    }

  return -EEXIST;
}

/* The O_DIRECT alignment of @fd (STATX_DIOALIGN, Linux 6.1), else the
 * filesystem block size capped to [512, 4096]. */
static void
set_alignment (DsTarget *target,
               gboolean  direct)
{
  struct stat st;

  target->logical_block_size = 4096;
  target->mem_align = 4096;
  if (fstat (target->fd, &st) == 0 && st.st_blksize >= 512 && st.st_blksize <= 4096 &&
      (st.st_blksize & (st.st_blksize - 1)) == 0)
    target->logical_block_size = (uint32_t) st.st_blksize;

#ifdef STATX_DIOALIGN
  {
    struct statx stx;

    if (direct &&
        statx (target->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
        (stx.stx_mask & STATX_DIOALIGN) &&
        stx.stx_dio_offset_align >= 1 &&
        (stx.stx_dio_offset_align & (stx.stx_dio_offset_align - 1)) == 0 &&
        stx.stx_dio_mem_align >= 1 &&
        (stx.stx_dio_mem_align & (stx.stx_dio_mem_align - 1)) == 0)
      {
        target->logical_block_size = MAX (stx.stx_dio_offset_align, 512u);
        target->mem_align = MAX (stx.stx_dio_mem_align, 512u);
      }
  }
#endif

  /* Through the page cache any size goes: HD Tune's 0.5 KB row included. */
  if (!direct)
    target->logical_block_size = 512;
  target->physical_block_size = target->logical_block_size;
}

/* Fills in what the report's header and the JSON "target" say: the folder,
 * and where known the filesystem's device and its model. */
static void
describe_filesystem (DsResult            *result,
                     const char          *dir,
                     const struct statvfs *vfs)
{
  struct stat st;

  ds_target_info_clear (&result->target);
  result->target.path = g_strdup (dir);
  result->target.is_block = FALSE;
  result->target.size_bytes = (uint64_t) vfs->f_blocks * vfs->f_frsize;

  if (stat (dir, &st) == 0)
    {
      g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u",
                                               major (st.st_dev), minor (st.st_dev));
      g_autofree char *target = g_file_read_link (link, NULL);

      if (target != NULL)
        {
          g_autofree char *name = g_path_get_basename (target);
          g_autofree char *dev = g_strdup_printf ("/dev/%s", name);
          g_autoptr (DsDevice) device = ds_device_lookup (dev, NULL);

          if (device != NULL && device->model != NULL)
            result->target.model = g_strdup_printf ("%s (%s)", device->model, dev);
          else
            result->target.model = g_steal_pointer (&dev);
        }
    }
}

/* Opens the file in @dir (O_DIRECT unless the filesystem refuses it and
 * @buffered_ok), with the messages users need when it cannot be made. */
static int
open_for_run (const char  *dir,
              const char  *what,
              gboolean     buffered_ok,
              gboolean    *ret_direct,
              gboolean    *ret_tmpfile,
              GError     **error)
{
  int fd = open_test_file (dir, TRUE, ret_tmpfile);

  *ret_direct = TRUE;
  if (fd == -EINVAL)
    {
      /* EINVAL from an open that asks O_DIRECT: is it the O_DIRECT? */
      gboolean tmpfile;
      int probe = open_test_file (dir, FALSE, &tmpfile);

      if (probe >= 0 && !buffered_ok)
        {
          close (probe);
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       "the filesystem at %s does not support direct I/O; "
                       "--buffered runs anyway, through the page cache", dir);
          return -EINVAL;
        }
      fd = probe;
      *ret_tmpfile = tmpfile;
      *ret_direct = FALSE;
    }
  if (fd < 0)
    {
      int e = -fd;

      if (e == ENOSPC || e == EDQUOT)
        g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                     "no room for a test file at %s (%s)", dir, g_strerror (e));
      else if (e == EACCES || e == EPERM)
        g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                     "cannot create a test file in %s (%s): pick a folder you "
                     "can write to", dir, g_strerror (e));
      else if (e == EROFS)
        g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                     "%s is on a read-only filesystem: %s writes a test file",
                     dir, what);
      else
        g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                     "cannot create a test file in %s: %s", dir, g_strerror (e));
    }

  return fd;
}

DsTarget *
ds_test_file_open (DsRun                   *run,
                   const char              *dir,
                   const DsTestFileRequest *request,
                   DsTestFileInfo          *ret_info,
                   GError                 **error)
{
  DsTarget *target;
  struct statvfs vfs;
  struct stat st;
  uint64_t free_bytes;
  uint64_t margin;
  uint64_t size;
  gboolean direct;
  int fd;

  *ret_info = (DsTestFileInfo) { 0 };

  if (stat (dir, &st) != 0)
    {
      ds_set_error_from_errno (error, errno, dir);
      return NULL;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "%s is not a folder: %s runs in a folder of the filesystem "
                   "to test", dir, request->what);
      return NULL;
    }
  if (statvfs (dir, &vfs) != 0)
    {
      ds_set_error_from_errno (error, errno, dir);
      return NULL;
    }
  describe_filesystem (run->result, dir, &vfs);

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
                   "not enough free space at %s for %s: %s free, it needs at "
                   "least %" G_GUINT64_FORMAT " MiB plus %" G_GUINT64_FORMAT
                   " MiB for the filesystem", dir, request->what, free_text,
                   request->min_bytes / MIB, margin / MIB);
      return NULL;
    }
  if (size < request->want_bytes)
    {
      g_autofree char *want_text = ds_format_size (request->want_bytes);
      g_autofree char *size_text = ds_format_size (size);
      g_autofree char *free_text = ds_format_size (free_bytes);

      ds_result_add_note (run->result,
                          "the test file is %s, not %s: %s is free at %s",
                          size_text, want_text, free_text, dir);
    }

  fd = open_for_run (dir, request->what, request->buffered_ok, &direct,
                     &ret_info->tmpfile, error);
  if (fd < 0)
    return NULL;

  ret_info->file_bytes = size;
  ret_info->buffered = !direct;
  if (ret_info->buffered)
    ds_result_add_note (run->result,
                        "buffered: the file was read and written through the "
                        "page cache, so the figures are the cache's as much "
                        "as the disk's");

  target = g_new0 (DsTarget, 1);
  target->path = g_strdup_printf ("the test file in %s", dir);
  target->fd = fd;
  target->kind = DS_TARGET_FILE;
  target->writable = TRUE;
  target->direct = direct;
  target->size_bytes = size;
  set_alignment (target, direct);

  return target;
}

static int
no_room (GError     **error,
         const char  *dir,
         uint64_t     file_bytes)
{
  g_autofree char *size = ds_format_size (file_bytes);

  g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
               "the filesystem at %s has no room for the %s test file "
               "(No space left on device); free some space or give a "
               "smaller --size", dir, size);
  return -ENOSPC;
}

int
ds_test_file_fill (DsRun       *run,
                   const char  *dir,
                   GError     **error)
{
  uint64_t file_bytes = run->target->size_bytes;
  DsIoPlan plan = {
    .random = FALSE,
    .read_percent = 0,
    .start_bytes = 0,
    .span_bytes = file_bytes,
    .block_bytes = MIN ((uint64_t) FILL_BLOCK_BYTES, file_bytes),
    .depth = 1,
    .threads = 1,
    .max_bytes = file_bytes,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = TRUE, .name = "fill" };
  DsIoStats stats;
  int ret;

  /* Reserve the blocks first where the filesystem can: ENOSPC comes now,
   * before anything was measured, and the file is less fragmented.  The
   * extents stay unwritten until the fill below writes every byte. */
  if (fallocate (run->target->fd, 0, 0, (off_t) file_bytes) != 0)
    {
      int e = errno;

      if (e == ENOSPC || e == EDQUOT)
        return no_room (error, dir, file_bytes);
      if (e == EIO)
        {
          ds_set_error_from_errno (error, e, run->target->path);
          return -e;
        }
      /* EOPNOTSUPP and friends: the writes will allocate. */
    }

  ds_run_emit (run, &phase);
  ret = ds_run_io (run, &plan, &stats, error);
  ds_io_stats_clear (&stats);
  if (ret == -ENOSPC)
    {
      g_clear_error (error);
      return no_room (error, dir, file_bytes);
    }
  if (ret < 0)
    return ret;

  /* The block mapping (unwritten -> written extents) on the disk too. */
  if (fdatasync (run->target->fd) != 0)
    {
      int e = errno;

      ds_set_error_from_errno (error, e, run->target->path);
      return -e;
    }

  return 0;
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
                   "the filesystem at %s ran out of space for the %s test "
                   "file (%s); free some space or give a smaller --size",
                   dir, size, old);
    }
  else if (ret == -EINVAL && !g_error_matches (*error, DS_ERROR, DS_ERROR_INVALID))
    {
      g_autofree char *old = g_strdup ((*error)->message);

      g_clear_error (error);
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   "the filesystem at %s refused a direct I/O transfer (%s); "
                   "--buffered runs anyway, through the page cache", dir, old);
    }

  return ret;
}
