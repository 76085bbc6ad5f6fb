/* ds-target.c: a block device or regular file opened for a run, and the
 * write-safety gate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-target.h"
#include "ds-units.h"

/* STATX_DIOALIGN (Linux 6.1) tells the O_DIRECT alignment a file needs.
 * Older headers lack the constant; the fields then live in the spare area
 * we cannot name, so without them we fall back to st_blksize. */
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#define DS_HAVE_DIOALIGN_FIELDS 0
#else
#define DS_HAVE_DIOALIGN_FIELDS 1
#endif

/* Alignment bounds for files without DIOALIGN: a sector at least, a page at
 * most (st_blksize on some filesystems is a 1 MiB "preferred" size that has
 * nothing to do with what O_DIRECT requires). */
#define FILE_ALIGN_MIN 512u
#define FILE_ALIGN_MAX 4096u

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

#define ds_autofd __attribute__ ((cleanup (close_fd)))

static gboolean
is_power_of_two (uint64_t v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* Stat the path; ENOENT and friends become errors naming @path. */
static gboolean
stat_path (const char   *path,
           struct stat  *st,
           GError      **error)
{
  if (stat (path, st) == 0)
    return TRUE;

  ds_set_error_from_errno (error, errno, path);
  return FALSE;
}

static void
set_not_block_or_file (GError     **error,
                       const char  *path)
{
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               "%s is neither a block device nor a regular file", path);
}

/* TRUE if @confirm names the same block device as @st (a path, a symlink
 * to it, or a bare name like "loop0"). */
static gboolean
confirm_matches (const char        *confirm,
                 const struct stat *st)
{
  g_autofree char *candidate = NULL;
  struct stat cst;

  if (confirm == NULL || confirm[0] == '\0')
    return FALSE;

  if (strchr (confirm, '/') == NULL)
    candidate = g_build_filename ("/dev", confirm, NULL);
  else
    candidate = g_strdup (confirm);

  if (stat (candidate, &cst) != 0 || !S_ISBLK (cst.st_mode))
    return FALSE;

  return cst.st_rdev == st->st_rdev;
}

/* BLKROGET: the kernel's own read-only flag (sysfs `ro` can lag behind a
 * BLKROSET).  FALSE when the device cannot be opened to ask. */
static gboolean
ioctl_read_only (const char *path)
{
  ds_autofd int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  int ro = 0;

  if (fd < 0)
    return FALSE;
  if (ioctl (fd, BLKROGET, &ro) != 0)
    return FALSE;

  return ro != 0;
}

static char *
describe_signature (const DsDevice *device)
{
  const char *sig = device->signature;
  gboolean table = g_str_equal (sig, "gpt") || g_str_equal (sig, "dos") ||
                   g_str_equal (sig, "atari") || g_str_equal (sig, "bsd") ||
                   g_str_equal (sig, "mac") || g_str_equal (sig, "sgi") ||
                   g_str_equal (sig, "sun");
  const char *article = strchr ("aeiouAEIOU", sig[0]) != NULL ? "an" : "a";

  if (table)
    return g_strdup_printf ("contains a %s partition table", sig);
  if (device->signature_label != NULL)
    return g_strdup_printf ("contains %s %s filesystem labelled “%s”",
                            article, sig, device->signature_label);
  if (g_str_equal (sig, "swap"))
    return g_strdup ("contains a swap area");

  return g_strdup_printf ("contains %s %s filesystem", article, sig);
}

gboolean
ds_target_check_write (const char  *path,
                       const char  *confirm,
                       GError     **error)
{
  g_autoptr (DsDevice) device = NULL;
  g_autofree char *what = NULL;
  g_autofree char *signature = NULL;
  g_autofree char *reason = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);

  if (!stat_path (path, &st, error))
    return FALSE;
  if (S_ISREG (st.st_mode))
    return TRUE;
  if (!S_ISBLK (st.st_mode))
    {
      set_not_block_or_file (error, path);
      return FALSE;
    }

  device = ds_device_lookup (path, error);
  if (device == NULL)
    return FALSE;

  what = ds_device_describe (device);
  if (device->signature != NULL)
    signature = describe_signature (device);

  /* Hard refusals: no confirmation overrides these. */
  if (device->read_only || ioctl_read_only (path))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   "Refusing to write to %s: the device is read-only",
                   what);
      return FALSE;
    }

  if (ds_device_in_use (device, &reason))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   "Refusing to write to %s: it is in use (%s)%s%s. "
                   "Unmount it and stop what uses it first",
                   what, reason,
                   signature ? " and " : "", signature ? signature : "");
      return FALSE;
    }

  /* The user must name the device: a write test destroys its data. */
  if (!confirm_matches (confirm, &st))
    {
      g_autofree char *named = NULL;

      if (confirm != NULL && confirm[0] != '\0')
        named = g_strdup_printf (" The confirmation names %s, not %s.", confirm, path);

      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   "Refusing to write to %s: a write test destroys the data "
                   "on it%s%s.%s Confirm by naming the device "
                   "(diskscope-cli: --destroy-data=%s)",
                   what,
                   signature ? ", and it " : "", signature ? signature : "",
                   named ? named : "", path);
      return FALSE;
    }

  /* Confirmed, and the signature (if any) was the user's call. */
  return TRUE;
}

/* The block device a regular file lives on, for its rotational flag,
 * model and physical block size.  NULL for virtual filesystems. */
static DsDevice *
underlying_device (const struct stat *st)
{
  g_autofree char *name = g_strdup_printf ("/sys/dev/block/%u:%u",
                                           major (st->st_dev), minor (st->st_dev));
  g_autofree char *base = NULL;
  char *real;

  if (major (st->st_dev) == 0)
    return NULL;
  real = realpath (name, NULL);
  if (real == NULL)
    return NULL;
  base = g_path_get_basename (real);
  free (real);

  return ds_device_lookup_identity (base, NULL);
}

/* Sets the alignment of a regular file from STATX_DIOALIGN, or from the
 * filesystem block size capped to [512, 4096]. */
static void
file_alignment (DsTarget          *target,
                const struct stat *st)
{
  uint32_t fs_block = (uint32_t) CLAMP ((uint64_t) st->st_blksize,
                                        FILE_ALIGN_MIN, FILE_ALIGN_MAX);

  if (!is_power_of_two (fs_block))
    fs_block = FILE_ALIGN_MAX;
  target->logical_block_size = fs_block;
  target->mem_align = MAX (FILE_ALIGN_MIN, fs_block);

#if DS_HAVE_DIOALIGN_FIELDS
  {
    struct statx stx;

    if (statx (target->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
        (stx.stx_mask & STATX_DIOALIGN) &&
        is_power_of_two (stx.stx_dio_offset_align) &&
        is_power_of_two (stx.stx_dio_mem_align))
      {
        target->logical_block_size = stx.stx_dio_offset_align;
        /* ds_buffer_alloc wants at least pointer alignment. */
        target->mem_align = MAX (stx.stx_dio_mem_align, (uint32_t) sizeof (void *));
      }
  }
#endif
}

static void
set_open_error (GError     **error,
                int          e,
                const char  *path,
                gboolean     direct)
{
  switch (e)
    {
    case EBUSY:
      g_set_error (error, DS_ERROR, DS_ERROR_BUSY,
                   "%s is in use by another program (mounted, or opened "
                   "exclusively)", path);
      break;

    case EINVAL:
      if (direct)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       "%s does not support direct I/O (O_DIRECT): its "
                       "filesystem cannot bypass the page cache", path);
          break;
        }
      ds_set_error_from_errno (error, e, path);
      break;

    case EROFS:
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   "%s is on a read-only filesystem or device: it cannot be "
                   "written", path);
      break;

    default:
      ds_set_error_from_errno (error, e, path);
      break;
    }
}

DsTarget *
ds_target_open (const char         *path,
                DsTargetOpenFlags   flags,
                const char         *confirm,
                GError            **error)
{
  g_autoptr (DsTarget) target = NULL;
  gboolean write = (flags & DS_TARGET_OPEN_WRITE) != 0;
  gboolean direct = (flags & DS_TARGET_OPEN_BUFFERED) == 0;
  gboolean create = (flags & DS_TARGET_OPEN_CREATE) != 0;
  gboolean exists;
  struct stat st;
  int oflags;

  g_return_val_if_fail (path != NULL, NULL);

  exists = stat (path, &st) == 0;
  if (!exists && !(create && errno == ENOENT))
    {
      ds_set_error_from_errno (error, errno, path);
      return NULL;
    }
  if (exists && !S_ISBLK (st.st_mode) && !S_ISREG (st.st_mode))
    {
      set_not_block_or_file (error, path);
      return NULL;
    }

  /* The gate comes before any write open of a block device. */
  if (exists && S_ISBLK (st.st_mode) && write &&
      !ds_target_check_write (path, confirm, error))
    return NULL;

  oflags = O_CLOEXEC | (write ? O_RDWR : O_RDONLY);
  if (direct)
    oflags |= O_DIRECT;
  if (exists && S_ISBLK (st.st_mode) && write)
    oflags |= O_EXCL;     /* on a block device: fails with EBUSY if mounted
                           * or opened exclusively by anyone else */
  if (!exists)
    oflags |= O_CREAT;

  target = g_new0 (DsTarget, 1);
  target->path = g_strdup (path);
  target->fd = open (path, oflags, 0600);
  if (target->fd < 0)
    {
      set_open_error (error, errno, path, direct);
      return NULL;
    }
  target->writable = write;
  target->direct = direct;

  /* Re-check on the descriptor: the path may have changed under us. */
  if (fstat (target->fd, &st) != 0)
    {
      ds_set_error_from_errno (error, errno, path);
      return NULL;
    }

  if (S_ISBLK (st.st_mode))
    {
      g_autoptr (DsDevice) device = NULL;
      uint64_t size = 0;
      int logical = 0;
      unsigned int physical = 0;

      target->kind = DS_TARGET_BLOCK;
      if (ioctl (target->fd, BLKGETSIZE64, &size) != 0)
        {
          ds_set_error_from_errno (error, errno, path);
          return NULL;
        }
      if (ioctl (target->fd, BLKSSZGET, &logical) != 0 || logical <= 0)
        logical = 512;
      if (ioctl (target->fd, BLKPBSZGET, &physical) != 0 || physical == 0)
        physical = (unsigned int) logical;

      target->size_bytes = size;
      target->logical_block_size = (uint32_t) logical;
      target->physical_block_size = MAX ((uint32_t) physical, (uint32_t) logical);
      target->mem_align = MAX (512u, (uint32_t) logical);

      device = ds_device_lookup_identity (path, NULL);
      if (device != NULL)
        {
          target->rotational = device->rotational;
          target->model = g_steal_pointer (&device->model);
        }

      if (size == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       "%s has no medium / size 0 (an unbound loop device, "
                       "an unset zram device or an empty drive)", path);
          return NULL;
        }
    }
  else if (S_ISREG (st.st_mode))
    {
      g_autoptr (DsDevice) device = underlying_device (&st);

      target->kind = DS_TARGET_FILE;
      target->size_bytes = (uint64_t) st.st_size;
      file_alignment (target, &st);
      target->physical_block_size = target->logical_block_size;
      if (device != NULL)
        {
          target->rotational = device->rotational;
          target->model = g_steal_pointer (&device->model);
          target->physical_block_size = MAX (target->logical_block_size,
                                             device->physical_block_size);
        }

      /* A file opened for writing may start empty (the file benchmark
       * grows it); reading an empty one measures nothing. */
      if (target->size_bytes == 0 && !write)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       "%s has no medium / size 0: an empty file cannot be "
                       "read", path);
          return NULL;
        }
    }
  else
    {
      set_not_block_or_file (error, path);
      return NULL;
    }

  return g_steal_pointer (&target);
}

void
ds_target_free (DsTarget *target)
{
  if (target == NULL)
    return;

  close_fd (&target->fd);
  g_free (target->path);
  g_free (target->model);
  g_free (target);
}
