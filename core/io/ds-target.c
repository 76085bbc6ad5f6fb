/* ds-target.c: a block device or regular file opened for a run
 *
 * The write rules are not here: ds_target_open() asks ds-safety once
 * (probe the facts, decide) and then opens what it was allowed to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-safety.h"
#include "ds-target.h"
#include "ds-target-private.h"
#include "ds-udisks.h"

/* STATX_DIOALIGN (Linux 6.1) tells the O_DIRECT alignment a file needs.
 * Older headers lack the constant; the fields then live in the spare area
 * we cannot name, so without them we fall back to st_blksize. */
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#define DS_HAVE_DIOALIGN_FIELDS 0
#else
#define DS_HAVE_DIOALIGN_FIELDS 1
#endif

/* Alignment bounds for files: a sector at least, a page at most without
 * DIOALIGN (st_blksize on some filesystems is a 1 MiB "preferred" size that
 * has nothing to do with what O_DIRECT requires). */
#define FILE_ALIGN_MIN 512u
#define FILE_ALIGN_MAX 4096u

static gboolean
is_power_of_two (uint64_t v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* ---- what a regular file sits on ---------------------------------------- */

/* The block device under a regular file's filesystem, for its rotational
 * flag, model and physical block size.  NULL for virtual filesystems. */
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

/* Everything a regular file target needs besides its size: the O_DIRECT
 * alignment (STATX_DIOALIGN, else the filesystem block size capped to
 * [512, 4096]; through the page cache any multiple of 512 goes) and the
 * device its filesystem is on. */
static void
describe_file (DsTarget          *target,
               const struct stat *st)
{
  g_autoptr (DsDevice) device = underlying_device (st);
  uint32_t fs_block = (uint32_t) CLAMP ((uint64_t) st->st_blksize, FILE_ALIGN_MIN, FILE_ALIGN_MAX);

  target->kind = DS_TARGET_FILE;
  if (!is_power_of_two (fs_block))
    fs_block = FILE_ALIGN_MAX;
  target->logical_block_size = fs_block;
  target->mem_align = fs_block;

#if DS_HAVE_DIOALIGN_FIELDS
  {
    struct statx stx;

    if (target->direct &&
        statx (target->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
        (stx.stx_mask & STATX_DIOALIGN) &&
        is_power_of_two (stx.stx_dio_offset_align) &&
        is_power_of_two (stx.stx_dio_mem_align))
      {
        target->logical_block_size = MAX (stx.stx_dio_offset_align, FILE_ALIGN_MIN);
        target->mem_align = MAX (stx.stx_dio_mem_align, FILE_ALIGN_MIN);
      }
  }
#endif
  if (!target->direct)
    target->logical_block_size = FILE_ALIGN_MIN;

  target->physical_block_size = target->logical_block_size;
  if (device != NULL)
    {
      target->rotational = device->rotational;
      target->model = g_steal_pointer (&device->model);
      target->fs_device = g_steal_pointer (&device->path);
      target->physical_block_size = MAX (target->logical_block_size,
                                         device->physical_block_size);
    }
}

/* ---- opening ------------------------------------------------------------ */

static DsTarget *
target_new (const char *path,
            int         fd,
            gboolean    write,
            gboolean    direct)
{
  DsTarget *target = g_new0 (DsTarget, 1);

  target->path = g_strdup (path);
  target->fd = fd;
  target->writable = write;
  target->direct = direct;

  return target;
}

static gboolean
describe_block (DsTarget  *target,
                GError   **error)
{
  g_autoptr (DsDevice) device = NULL;
  uint64_t size = 0;
  int logical = 0;
  unsigned int physical = 0;

  target->kind = DS_TARGET_BLOCK;
  if (ioctl (target->fd, BLKGETSIZE64, &size) != 0)
    {
      ds_set_error_from_errno (error, errno, target->path);
      return FALSE;
    }
  if (ioctl (target->fd, BLKSSZGET, &logical) != 0 || logical <= 0)
    logical = 512;
  if (ioctl (target->fd, BLKPBSZGET, &physical) != 0 || physical == 0)
    physical = (unsigned int) logical;

  target->size_bytes = size;
  target->logical_block_size = (uint32_t) logical;
  target->physical_block_size = MAX ((uint32_t) physical, (uint32_t) logical);
  target->mem_align = MAX (512u, (uint32_t) logical);

  device = ds_device_lookup_identity (target->path, NULL);
  if (device != NULL)
    {
      target->rotational = device->rotational;
      target->model = g_steal_pointer (&device->model);
      target->serial = g_steal_pointer (&device->serial);
      target->wwn = g_steal_pointer (&device->wwn);
    }

  if (size == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s has no medium / size 0 (an unbound loop device, "
                   "an unset zram device or an empty drive)"), target->path);
      return FALSE;
    }

  return TRUE;
}

/* Opens a nameless file in @dir; the fd or -errno. */
static int
open_nameless (const char *dir,
               int         oflags,
               gboolean   *ret_tmpfile)
{
  int fd = open (dir, O_TMPFILE | oflags, 0600);

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

      fd = open (path, O_CREAT | O_EXCL | oflags, 0600);
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
        unlink (path);   /* O_EXCL made sure it was ours */
      return -errno;
    }

  return -EEXIST;
}

DsTarget *
ds_target_open_tmpfile (const char         *dir,
                        DsTargetOpenFlags   flags,
                        GError            **error)
{
  gboolean direct = (flags & DS_TARGET_OPEN_BUFFERED) == 0;
  int oflags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  g_autoptr (DsTarget) target = NULL;
  gboolean tmpfile = FALSE;
  struct stat st;
  int fd;

  fd = open_nameless (dir, oflags, &tmpfile);
  if (fd == -EINVAL && direct)
    {
      /* Is it the O_DIRECT?  Then say so; else the other open's answer. */
      fd = open_nameless (dir, oflags & ~O_DIRECT, &tmpfile);
      if (fd >= 0)
        {
          close (fd);
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("the filesystem at %s does not support direct I/O (O_DIRECT)"), dir);
          return NULL;
        }
    }
  if (fd < 0)
    {
      int e = -fd;

      if (e == ENOSPC || e == EDQUOT)
        g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                     _("no room for a test file at %s (%s)"), dir, g_strerror (e));
      else if (e == EACCES || e == EPERM)
        g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                     _("cannot create a test file in %s (%s): pick a folder you "
                     "can write to"), dir, g_strerror (e));
      else if (e == EROFS)
        g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                     _("%s is on a read-only filesystem: a test file cannot be "
                     "written there"), dir);
      else
        g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                     _("cannot create a test file in %s: %s"), dir, g_strerror (e));
      return NULL;
    }

  target = target_new (dir, fd, TRUE, direct);
  target->created = TRUE;
  target->tmpfile = tmpfile;
  if (fstat (fd, &st) != 0)
    {
      ds_set_error_from_errno (error, errno, dir);
      return NULL;
    }
  describe_file (target, &st);

  return g_steal_pointer (&target);
}

/* --create: the file is made in its folder, nameless unless KEEP. */
static DsTarget *
open_created (const char         *path,
              DsTargetOpenFlags   flags,
              GError            **error)
{
  gboolean direct = (flags & DS_TARGET_OPEN_BUFFERED) == 0;
  g_autoptr (DsTarget) target = NULL;
  struct stat st;
  int fd;

  if ((flags & DS_TARGET_OPEN_KEEP) == 0)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      target = ds_target_open_tmpfile (dir, flags, error);
      if (target != NULL)
        {
          g_free (target->path);
          target->path = g_strdup (path);
        }
      return g_steal_pointer (&target);
    }

  /* O_EXCL: a file that appeared since the gate looked is not replaced. */
  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | (direct ? O_DIRECT : 0), 0644);
  if (fd < 0)
    {
      _ds_target_set_open_error (error, errno, path, direct);
      return NULL;
    }
  target = target_new (path, fd, TRUE, direct);
  target->created = TRUE;
  if (fstat (fd, &st) != 0)
    {
      ds_set_error_from_errno (error, errno, path);
      return NULL;
    }
  describe_file (target, &st);

  return g_steal_pointer (&target);
}

/* The write gate: probes @path and decides for what @flags ask.  On
 * success *@facts is filled (the caller clears it) and *@ret_intent says
 * what was allowed. */
static gboolean
pass_gate (const char         *path,
           DsTargetOpenFlags   flags,
           const char         *confirm,
           DsTargetFacts      *facts,
           DsSafetyIntent     *ret_intent,
           GError            **error)
{
  gboolean write = (flags & (DS_TARGET_OPEN_WRITE | DS_TARGET_OPEN_CREATE)) != 0;
  DsSafetyIntent intent;

  intent = (flags & DS_TARGET_OPEN_CREATE) ? DS_SAFETY_CREATE :
           (flags & DS_TARGET_OPEN_ERASE) ? DS_SAFETY_ERASE :
           write ? DS_SAFETY_WRITE : DS_SAFETY_READ;
  ds_safety_probe (facts, path, confirm, intent != DS_SAFETY_READ);
  *ret_intent = intent;
  if (ds_safety_decide (facts, intent, error))
    return TRUE;

  ds_target_facts_clear (facts);
  return FALSE;
}

/* Takes @fd (closed on failure) for @path after the gate allowed it:
 * checks it is what the gate looked at and describes it. */
static DsTarget *
adopt_fd (const char    *path,
          int            fd,
          DsTargetFacts *facts,
          gboolean       write,
          gboolean       direct,
          GError       **error)
{
  g_autoptr (DsTarget) target = target_new (path, fd, write, direct);
  struct stat st;

  /* What was opened must be what the gate looked at (a path can be
   * replaced in between). */
  if (fstat (fd, &st) != 0 ||
      (facts->kind == DS_FACTS_BLOCK && (!S_ISBLK (st.st_mode) || st.st_rdev != facts->dev)) ||
      (facts->kind == DS_FACTS_FILE &&
       (!S_ISREG (st.st_mode) || st.st_dev != facts->dev || st.st_ino != facts->ino)))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("%s changed while it was being opened: not testing it"), path);
      return NULL;
    }

  if (S_ISBLK (st.st_mode))
    {
      if (!describe_block (target, error))
        return NULL;
    }
  else
    {
      target->size_bytes = (uint64_t) st.st_size;
      describe_file (target, &st);
    }

  return g_steal_pointer (&target);
}

DsTarget *
ds_target_open (const char         *path,
                DsTargetOpenFlags   flags,
                const char         *confirm,
                GError            **error)
{
  return ds_target_open_full (path, flags, confirm, NULL, error);
}

DsTarget *
ds_target_open_full (const char           *path,
                     DsTargetOpenFlags     flags,
                     const char           *confirm,
                     const DsTargetAccess *access,
                     GError              **error)
{
  DsTarget *target;
  DsTargetFacts facts;
  DsSafetyIntent intent;
  gboolean write = (flags & (DS_TARGET_OPEN_WRITE | DS_TARGET_OPEN_CREATE)) != 0;
  gboolean direct = (flags & DS_TARGET_OPEN_BUFFERED) == 0;
  int oflags;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (!pass_gate (path, flags, confirm, &facts, &intent, error))
    return NULL;
  if (intent == DS_SAFETY_CREATE)
    {
      ds_target_facts_clear (&facts);
      return open_created (path, flags, error);
    }

  oflags = O_CLOEXEC | (write ? O_RDWR : O_RDONLY) | (direct ? O_DIRECT : 0);
  if (facts.kind == DS_FACTS_BLOCK && write)
    oflags |= O_EXCL;     /* fails with EBUSY if mounted or opened
                           * exclusively by anyone else */
  fd = open (path, oflags);
  if (fd < 0)
    {
      int e = errno;

      if ((e == EACCES || e == EPERM) && facts.kind == DS_FACTS_BLOCK &&
          geteuid () != 0 && (access == NULL || !access->no_udisks))
        fd = _ds_target_open_via_udisks (path, e, write, direct, access, error);
      else
        _ds_target_set_open_error (error, e, path, direct);
      if (fd < 0)
        {
          ds_target_facts_clear (&facts);
          return NULL;
        }
    }

  target = adopt_fd (path, fd, &facts, write, direct, error);
  ds_target_facts_clear (&facts);

  return target;
}

DsTarget *
ds_target_open_fd (const char         *path,
                   int                 fd,
                   DsTargetOpenFlags   flags,
                   const char         *confirm,
                   GError            **error)
{
  DsTarget *target;
  DsTargetFacts facts;
  DsSafetyIntent intent;
  gboolean write = (flags & DS_TARGET_OPEN_WRITE) != 0;
  gboolean direct = (flags & DS_TARGET_OPEN_BUFFERED) == 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail ((flags & DS_TARGET_OPEN_CREATE) == 0, NULL);

  if (!pass_gate (path, flags, confirm, &facts, &intent, error))
    {
      close (fd);
      return NULL;
    }
  if (!_ds_target_adjust_fd_mode (fd, path, write, direct, error))
    {
      close (fd);
      ds_target_facts_clear (&facts);
      return NULL;
    }

  target = adopt_fd (path, fd, &facts, write, direct, error);
  ds_target_facts_clear (&facts);

  return target;
}

gboolean
ds_target_check_write (const char  *path,
                       const char  *confirm,
                       GError     **error)
{
  DsTargetFacts facts;
  gboolean allowed;

  g_return_val_if_fail (path != NULL, FALSE);

  ds_safety_probe (&facts, path, confirm, TRUE);
  allowed = ds_safety_decide (&facts, DS_SAFETY_WRITE, error);
  ds_target_facts_clear (&facts);

  return allowed;
}

void
ds_target_free (DsTarget *target)
{
  if (target == NULL)
    return;

  if (target->fd >= 0)
    close (target->fd);
  g_free (target->path);
  g_free (target->model);
  g_free (target->serial);
  g_free (target->wwn);
  g_free (target->fs_device);
  g_free (target);
}
