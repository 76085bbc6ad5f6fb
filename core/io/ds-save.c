/* ds-save.c: how Diskscope writes a file (see ds-save.h for the rules)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-safety.h"
#include "ds-save.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static void
set_errno_error (GError     **error,
                 int          e,
                 const char  *path,
                 const char  *doing)
{
  g_set_error (error, DS_ERROR, ds_error_from_errno (e),
               _("could not save to %s: %s: %s"), path, doing, g_strerror (e));
}

/* Where a save goes: the file to replace or create, and what is there. */
typedef struct {
  char        *real;     /* the regular file (through a link), or the new name */
  gboolean     exists;
  struct stat  st;       /* when it exists */
} Destination;

static void
destination_clear (Destination *dest)
{
  g_clear_pointer (&dest->real, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Destination, destination_clear)

/* A symbolic link is followed only to a regular file: never into a device,
 * a pipe (/proc/self/fd/1) or a name that is not there yet (a file is
 * never created through a link). */
static gboolean
resolve_link (const char   *path,
              Destination  *dest,
              GError      **error)
{
  g_autofree char *link = g_file_read_link (path, NULL);

  if (stat (path, &dest->st) != 0)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("could not save to %s: it is a symbolic link to %s, "
                   "which %s; Diskscope follows a link only to an "
                   "existing regular file"), path, link ? link : "?",
                   e == ENOENT ? _("does not exist") : g_strerror (e));
      return FALSE;
    }
  if (!S_ISREG (dest->st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("could not save to %s: it is a symbolic link to %s, "
                   "%s; Diskscope saves only to regular files and never "
                   "replaces anything else"),
                   path, link ? link : "?", ds_describe_file_type (dest->st.st_mode));
      return FALSE;
    }
  dest->real = realpath (path, NULL);
  if (dest->real == NULL)
    {
      set_errno_error (error, errno, path, _("resolving the link"));
      return FALSE;
    }

  return TRUE;
}

/* The folder of @dest must exist and take a new file (the temporary file
 * goes beside the destination). */
static gboolean
check_folder (const char         *path,
              const Destination  *dest,
              GError            **error)
{
  g_autofree char *dir = g_path_get_dirname (dest->real);
  struct stat st;

  if (stat (dir, &st) != 0)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                   _("could not save to %s: the folder %s %s"), path, dir,
                   e == ENOENT ? _("does not exist") : g_strerror (e));
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("could not save to %s: %s is not a folder"), path, dir);
      return FALSE;
    }
  if (faccessat (AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
    {
      int e = errno;

      if (e == EROFS)
        g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                     _("could not save to %s: the folder %s is on a read-only "
                     "filesystem"), path, dir);
      else
        g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                     _("could not save to %s: you cannot create files in the "
                     "folder %s (%s)"), path, dir, g_strerror (e));
      return FALSE;
    }

  return TRUE;
}

/* Where a save to @path goes: the regular file it names (through a
 * symbolic link to one), or a new file in an existing, writable folder. */
static gboolean
resolve (const char   *path,
         Destination  *dest,
         GError      **error)
{
  struct stat lst;

  if (path == NULL || path[0] == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("could not save: the file name is empty (“”)"));
      return FALSE;
    }

  if (lstat (path, &lst) == 0)
    {
      if (S_ISLNK (lst.st_mode))
        {
          if (!resolve_link (path, dest, error))
            return FALSE;
        }
      else if (!S_ISREG (lst.st_mode))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                       _("could not save to %s: it is %s; Diskscope saves only "
                       "to regular files and never replaces anything else"),
                       path, ds_describe_file_type (lst.st_mode));
          return FALSE;
        }
      else
        {
          dest->st = lst;
          dest->real = g_strdup (path);
        }
      dest->exists = TRUE;

      /* A file its owner made read-only (or immutable) is not replaced
       * behind its back: the folder would let the rename through.  A
       * read-only filesystem is said by the folder's check. */
      if (faccessat (AT_FDCWD, dest->real, W_OK, AT_EACCESS) != 0 &&
          (errno == EACCES || errno == EPERM))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                       _("could not save to %s: the file is read-only for you "
                       "(mode %04o); Diskscope replaces only a file you may "
                       "write"), path, (unsigned) (dest->st.st_mode & 07777));
          return FALSE;
        }
    }
  else if (errno == ENOENT || errno == ENOTDIR)
    {
      dest->real = g_strdup (path);
      dest->exists = FALSE;
    }
  else
    {
      set_errno_error (error, errno, path, _("looking it up"));
      return FALSE;
    }

  return check_folder (path, dest, error);
}

static gboolean
same_name (const char *a,
           const char *b)
{
  g_autofree char *ca = g_canonicalize_filename (a, NULL);
  g_autofree char *cb = g_canonicalize_filename (b, NULL);

  return g_str_equal (ca, cb);
}

/* @dest (saved to as @path) is @other: the same name, or the same file
 * through a link or a second (hard) link. */
static gboolean
is_same_file (const char        *path,
              const Destination *dest,
              const char        *other)
{
  struct stat st;

  if (dest->exists && stat (other, &st) == 0 &&
      st.st_dev == dest->st.st_dev && st.st_ino == dest->st.st_ino)
    return TRUE;

  return same_name (dest->real, other) || same_name (path, other);
}

gboolean
ds_save_same_file (const char *a,
                   const char *b)
{
  struct stat sa, sb;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (g_str_equal (a, "-") || g_str_equal (b, "-"))
    return g_str_equal (a, b);
  if (stat (a, &sa) == 0 && stat (b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;

  return same_name (a, b);
}

/* What @keep protects is never the destination. */
static gboolean
check_keep (const char         *path,
            const Destination  *dest,
            const DsSaveKeep   *keep,
            GError            **error)
{
  if (keep == NULL)
    return TRUE;

  /* Saving over the run's own target would replace what is measured (or
   * take the name a --create file is about to have). */
  if (keep->target != NULL && is_same_file (path, dest, keep->target))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("could not save to %s: it is the run's own target (%s); "
                   "name another file for the result"), path, keep->target);
      return FALSE;
    }

  /* Nor over what the output is made from: `compare a.json b.json --png
   * a.json` would lose result a. */
  for (guint i = 0; keep->inputs != NULL && keep->inputs[i] != NULL; i++)
    if (is_same_file (path, dest, keep->inputs[i]))
      {
        g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                     _("could not save to %s: it is one of the inputs (%s), "
                     "which would be lost; name another file"), path, keep->inputs[i]);
        return FALSE;
      }

  return TRUE;
}

gboolean
ds_save_check (const char        *path,
               const DsSaveKeep  *keep,
               GError           **error)
{
  g_auto (Destination) dest = { 0 };

  if (g_strcmp0 (path, "-") == 0)
    return TRUE;

  return resolve (path, &dest, error) && check_keep (path, &dest, keep, error);
}

gboolean
ds_save_check_destination (const char  *path,
                           const char  *not_this,
                           GError     **error)
{
  const DsSaveKeep keep = { .target = not_this };

  return ds_save_check (path, &keep, error);
}

/* write(2) until done; -errno on failure. */
static int
write_all (int         fd,
           const char *data,
           gsize       len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return -errno;
        }
      data += n;
      len -= (gsize) n;
    }

  return 0;
}

static gboolean
write_stdout (const void  *data,
              gsize        len,
              GError     **error)
{
  int r = write_all (STDOUT_FILENO, data, len);

  if (r < 0)
    {
      g_set_error (error, DS_ERROR, ds_error_from_errno (-r),
                   _("could not write to stdout: %s"), g_strerror (-r));
      return FALSE;
    }

  return TRUE;
}

/* The replacement keeps what the user set on the old file: its owner and
 * group where we may (root; the group when we belong to it), then its
 * mode (after chown, which may clear set-id bits). */
static void
keep_attributes (int                fd,
                 const struct stat *st)
{
  if (geteuid () == 0)
    (void) fchown (fd, st->st_uid, st->st_gid);
  else if (st->st_gid != getegid ())
    (void) fchown (fd, (uid_t) -1, st->st_gid);
  (void) fchmod (fd, st->st_mode & 07777);
}

/* rename(2) of the finished temporary file onto @dest, which must still be
 * what resolve() found: the same regular file, or still nothing (then a
 * name that appeared meanwhile, a FIFO or a link, is not replaced).
 * -errno on failure (-EEXIST: something took the name). */
static int
rename_into_place (const char        *tmp,
                   const Destination *dest)
{
  struct stat now;

  if (dest->exists)
    {
      if (lstat (dest->real, &now) != 0)
        return -errno;
      if (!S_ISREG (now.st_mode) || now.st_dev != dest->st.st_dev ||
          now.st_ino != dest->st.st_ino)
        return -EEXIST;
      return rename (tmp, dest->real) == 0 ? 0 : -errno;
    }

  if (renameat2 (AT_FDCWD, tmp, AT_FDCWD, dest->real, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
    return -errno;
  /* A filesystem without RENAME_NOREPLACE: link(2) never replaces. */
  if (link (tmp, dest->real) != 0)
    return -errno;
  (void) unlink (tmp);
  return 0;
}

gboolean
ds_save_file (const char        *path,
              const void        *data,
              gsize              len,
              const DsSaveKeep  *keep,
              GError           **error)
{
  g_auto (Destination) dest = { 0 };
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  int fd;
  int r;

  if (g_strcmp0 (path, "-") == 0)
    return write_stdout (data, len, error);
  if (!resolve (path, &dest, error) || !check_keep (path, &dest, keep, error))
    return FALSE;

  dir = g_path_get_dirname (dest.real);
  base = g_path_get_basename (dest.real);
  tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      set_errno_error (error, errno, path, _("creating a temporary file beside it"));
      return FALSE;
    }

  if (dest.exists)
    keep_attributes (fd, &dest.st);

  r = write_all (fd, data, len);
  if (r == 0 && fsync (fd) != 0)
    r = -errno;
  if (close (fd) != 0 && r == 0)
    r = -errno;
  if (r == 0)
    {
      r = rename_into_place (tmp, &dest);
      if (r == -EEXIST)
        {
          unlink (tmp);
          g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                       _("could not save to %s: something else took its place "
                       "while it was written; nothing was replaced"), path);
          return FALSE;
        }
    }
  if (r < 0)
    {
      unlink (tmp);
      set_errno_error (error, -r, path, _("writing"));
      return FALSE;
    }

  /* The rename itself on the disk. */
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }

  return TRUE;
}

gboolean
ds_save_contents_atomic (const char  *path,
                         const void  *data,
                         gsize        len,
                         GError     **error)
{
  return ds_save_file (path, data, len, NULL, error);
}
