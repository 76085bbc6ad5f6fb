/* ds-library-write.c: durable, atomic file writes for the results library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * g_file_set_contents() renames a temporary file over the target too, but
 * fsyncs only when the target existed, cannot refuse to replace, and says
 * "Failed to write file" for a full disk.  A library keeps evidence, so a
 * new result is made durable before it is listed, two runs saving at the
 * same second never overwrite each other (RENAME_NOREPLACE), and the error
 * says which folder is full or read-only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-library-private.h"
#include "ds-library-write.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

void
ds_library_set_write_error (GError     **error,
                            int          e,
                            const char  *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  switch (e)
    {
    case ENOSPC:
    case EDQUOT:
      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   _("could not save %s: no space left in %s (%s); nothing was "
                   "written there"),
                   path, dir, g_strerror (e));
      break;
    case EROFS:
      g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                   _("could not save %s: %s is on a read-only filesystem"), path, dir);
      break;
    case EACCES:
    case EPERM:
      g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                   _("could not save %s: %s (check who owns %s)"),
                   path, g_strerror (e), dir);
      break;
    case ENOENT:
    case ENOTDIR:
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("could not save %s: the folder %s does not exist"), path, dir);
      break;
    default:
      g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                   _("could not save %s: %s"), path, g_strerror (e));
      break;
    }
}

static int
write_all (int         fd,
           const char *data,
           gsize       length)
{
  while (length > 0)
    {
      ssize_t n = write (fd, data, length);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return -errno;
        }
      if (n == 0)
        return -EIO;
      data += n;
      length -= (gsize) n;
    }

  return 0;
}

/* rename(2) that refuses to replace: renameat2 where the filesystem knows
 * it, else link + unlink (atomic on every local filesystem and on NFS). */
static int
rename_no_replace (const char *from,
                   const char *to)
{
  if (renameat2 (AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
    return -errno;

  if (link (from, to) < 0)
    return -errno;
  (void) unlink (from);
  return 0;
}

static void
fsync_dir (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return;
  /* Best effort: some filesystems refuse fsync on a folder. */
  (void) fsync (fd);
  close (fd);
}

/* With DS_LIBRARY_WRITE_REPLACE: what is at @path now, if anything, may be
 * replaced (a regular file, whose *@ret_st is kept, or a link); FALSE
 * with the error otherwise. */
static gboolean
check_replaced (const char   *path,
                struct stat  *ret_st,
                gboolean     *ret_keep,
                GError      **error)
{
  *ret_keep = FALSE;
  if (lstat (path, ret_st) != 0)
    return TRUE;
  if (S_ISREG (ret_st->st_mode))
    *ret_keep = TRUE;
  else if (!S_ISLNK (ret_st->st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("could not save %s: it is not a regular file; the results library "
                   "replaces nothing else"), path);
      return FALSE;
    }

  return TRUE;
}

/* Locks a temporary file while it is written, so that the stale-file
 * cleanup (below) can tell it from one a killed save left behind.  Best
 * effort: without the lock the file's age alone protects it. */
static void
hold_temp (int fd)
{
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };

  (void) fcntl (fd, F_OFD_SETLK, &fl);
}

char *
ds_library_write_temp (const char         *path,
                       const char         *data,
                       gsize               length,
                       const struct stat  *like,
                       GError            **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  int fd;
  int r;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      ds_library_set_write_error (error, errno, path);
      return NULL;
    }
  hold_temp (fd);

  r = 0;
  if (like != NULL)
    {
      /* The file it replaces keeps its mode (set before a byte is written:
       * a private result is never readable on the way), and its owner and
       * group where this user may give them (root editing a user's). */
      if (fchmod (fd, like->st_mode & 0777) < 0)
        r = -errno;
      (void) !fchown (fd, geteuid () == 0 ? like->st_uid : (uid_t) -1, like->st_gid);
    }
  if (r == 0)
    r = write_all (fd, data, length);
  if (r == 0 && fsync (fd) < 0)
    r = -errno;
  if (close (fd) < 0 && r == 0)
    r = -errno;

  if (r < 0)
    {
      (void) unlink (tmp);
      ds_library_set_write_error (error, -r, path);
      return NULL;
    }

  return g_steal_pointer (&tmp);
}

void
ds_library_fsync_dir (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  fsync_dir (dir);
}

gboolean
ds_library_write_file (const char          *path,
                       const char          *data,
                       gsize                length,
                       DsLibraryWriteFlags  flags,
                       GError             **error)
{
  g_autofree char *tmp = NULL;
  struct stat old;
  gboolean keep = FALSE;
  int r = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (!(flags & DS_LIBRARY_WRITE_NO_REPLACE) && !check_replaced (path, &old, &keep, error))
    return FALSE;
  /* A result its owner made private stays private. */
  tmp = ds_library_write_temp (path, data, length, keep ? &old : NULL, error);
  if (tmp == NULL)
    return FALSE;

  if (flags & DS_LIBRARY_WRITE_NO_REPLACE)
    r = rename_no_replace (tmp, path);
  else if (rename (tmp, path) < 0)
    r = -errno;

  if (r < 0)
    {
      (void) unlink (tmp);
      if (r == -EEXIST)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s already exists"), path);
      else
        ds_library_set_write_error (error, -r, path);
      return FALSE;
    }

  ds_library_fsync_dir (path);
  return TRUE;
}

/* ---- temporary files a killed save left --------------------------------- */

/* ".ID.json.XXXXXX": what ds_library_write_temp() makes for a result. */
gboolean
ds_library_is_temp_name (const char *name)
{
  gsize len = strlen (name);

  if (name[0] != '.' || len < strlen (".x.json.XXXXXX") || name[len - 7] != '.')
    return FALSE;
  for (gsize i = len - 6; i < len; i++)
    if (!g_ascii_isalnum (name[i]))
      return FALSE;

  return strncmp (name + len - 12, ".json", 5) == 0;
}

void
ds_library_remove_stale_temp (const char *dir,
                              const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
  struct stat st, held;
  int fd;

  if (!ds_library_is_temp_name (name) || lstat (path, &st) < 0 || !S_ISREG (st.st_mode) ||
      (gint64) st.st_mtime > g_get_real_time () / G_USEC_PER_SEC - DS_LIBRARY_TEMP_STALE_S)
    return;

  /* A save still writing it holds its lock; a killed one holds nothing.
   * Only a file this user may write (and so may have written) goes. */
  fd = open (path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return;
  if (fcntl (fd, F_OFD_SETLK, &fl) == 0 && fstat (fd, &held) == 0 &&
      lstat (path, &st) == 0 && st.st_ino == held.st_ino && st.st_dev == held.st_dev)
    (void) unlink (path);
  close (fd);
}
