/* ds-library-lock.c: one result at a time, across processes and hosts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every change to an existing result (a new label, tags or notes, its
 * deletion) takes a write lock on one byte of the folder's lock file,
 * ".diskscope-lock", at an offset drawn from the result's id.  Results
 * with different ids nearly never share a byte (when they do, they just
 * wait for each other); the file itself holds nothing and is never
 * removed, so no process can lock a file another has just replaced.
 *
 * The locks are open file description locks (F_OFD_SETLK): two threads of
 * the app exclude each other as two processes do, and closing some other
 * descriptor of the file does not drop them (as it does for classic POSIX
 * locks).  They are byte-range locks, the kind NFS (v4, and v3 with lockd)
 * carries to the server, so several hosts sharing a library folder
 * exclude each other too; flock(2), which Linux's NFS client only emulates
 * with such locks, is the fallback for a kernel without OFD locks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-library-private.h"

#define LOCK_NAME ".diskscope-lock"

/* How long a change waits for another one to the same result: edits hold
 * the lock for a rename, or at worst for the load of a large result. */
#define LOCK_WAIT_US    (30 * G_USEC_PER_SEC)
#define LOCK_POLL_MIN_US 500
#define LOCK_POLL_MAX_US (50 * 1000)

struct _DsLibraryLock {
  int fd;   /* -1: nothing to lock (a read-only folder) */
};

/* The id's byte: 2^30 of them, so two ids of a library of 10 000
 * results share one with a chance of about 1 in 10^5 (and then only
 * wait for each other). */
static off_t
lock_offset (const char *id)
{
  return (off_t) (g_str_hash (id) & ((1u << 30) - 1));
}

/* Opens (or makes) the lock file.  A new one is writable by whoever may
 * write the folder (0664 in a group's 2775 folder): a team shares it. */
static int
open_lock_file (const char  *dir,
                GError     **error)
{
  g_autofree char *path = g_build_filename (dir, LOCK_NAME, NULL);
  const int flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  struct stat st;
  int fd = open (path, flags | O_CREAT | O_EXCL, 0666);
  int e;

  if (fd >= 0)
    {
      if (stat (dir, &st) == 0)
        (void) fchmod (fd, 0666 & st.st_mode);
    }
  else if (errno == EEXIST)
    fd = open (path, flags);

  if (fd < 0)
    {
      e = errno;
      if (e == EROFS || e == ENOENT)
        return -e;   /* nothing can change there: no lock needed */
      g_set_error (error, DS_ERROR, e == EACCES || e == EPERM ? DS_ERROR_PERMISSION : ds_error_from_errno (e),
                   _("cannot lock the results folder: %s: %s (whoever owns it can "
                   "make it writable for all who share the folder: chmod a+w)"),
                   path, g_strerror (e));
      return -1;
    }

  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("cannot lock the results folder: %s is not a regular file "
                   "(remove it: Diskscope makes it again)"), path);
      return -1;
    }

  return fd;
}

/* 0 when locked, -EAGAIN when another holds it, else -errno. */
static int
try_lock (int   fd,
          off_t offset)
{
  struct flock fl = {
    .l_type = F_WRLCK,
    .l_whence = SEEK_SET,
    .l_start = offset,
    .l_len = 1,
  };

  if (fcntl (fd, F_OFD_SETLK, &fl) == 0)
    return 0;
  if (errno == EAGAIN || errno == EACCES)
    return -EAGAIN;
  if (errno != EINVAL)
    return -errno;

  /* No OFD locks (Linux before 3.15): the whole file. */
  if (flock (fd, LOCK_EX | LOCK_NB) == 0)
    return 0;
  return errno == EWOULDBLOCK ? -EAGAIN : -errno;
}

DsLibraryLock *
ds_library_lock_entry (const char  *dir,
                       const char  *id,
                       GError     **error)
{
  g_autofree DsLibraryLock *lock = g_new0 (DsLibraryLock, 1);
  gint64 deadline = g_get_monotonic_time () + LOCK_WAIT_US;
  gulong pause_us = LOCK_POLL_MIN_US;
  int r;

  g_return_val_if_fail (dir != NULL && id != NULL, NULL);

  lock->fd = open_lock_file (dir, error);
  if (lock->fd == -EROFS || lock->fd == -ENOENT)
    {
      lock->fd = -1;
      return g_steal_pointer (&lock);
    }
  if (lock->fd < 0)
    return NULL;

  while ((r = try_lock (lock->fd, lock_offset (id))) == -EAGAIN)
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                       _("%s is being changed by another program (it has held its "
                       "lock in %s/%s for %.0f s): try again later"),
                       id, dir, LOCK_NAME, (double) LOCK_WAIT_US / G_USEC_PER_SEC);
          close (lock->fd);
          return NULL;
        }
      g_usleep (g_random_int_range ((gint32) pause_us / 2, (gint32) pause_us + 1));
      pause_us = MIN (pause_us * 2, LOCK_POLL_MAX_US);
    }

  if (r < 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("cannot lock %s in %s: %s (a network folder must be mounted "
                   "with locking: NFS v4, or v3 with lockd)"),
                   id, dir, g_strerror (-r));
      close (lock->fd);
      return NULL;
    }

  return g_steal_pointer (&lock);
}

void
ds_library_lock_release (DsLibraryLock *lock)
{
  if (lock == NULL)
    return;
  /* Closing the only descriptor of the description drops its locks. */
  if (lock->fd >= 0)
    close (lock->fd);
  g_free (lock);
}
