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

static void
set_errno_error (GError     **error,
                 int          e,
                 const char  *path,
                 const char  *doing)
{
  g_set_error (error, DS_ERROR, ds_error_from_errno (e),
               _("could not save to %s: %s: %s"), path, doing, g_strerror (e));
}

/* Where a save to @path goes: the regular file it names (through a symbolic
 * link to one), or a new file in an existing, writable folder.  Fills
 * *@ret_real (the file to replace or create), *@ret_exists and, when it
 * exists, *@ret_st. */
static gboolean
resolve (const char   *path,
         char        **ret_real,
         gboolean     *ret_exists,
         struct stat  *ret_st,
         GError      **error)
{
  g_autofree char *real = NULL;
  g_autofree char *dir = NULL;
  struct stat lst, st;

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
          g_autofree char *link = g_file_read_link (path, NULL);

          /* Followed only to a regular file: never into a device, a pipe
           * (/proc/self/fd/1) or a name that is not there yet. */
          if (stat (path, &st) != 0)
            {
              int e = errno;

              g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                           _("could not save to %s: it is a symbolic link to %s, "
                           "which %s; Diskscope follows a link only to an "
                           "existing regular file"), path, link ? link : "?",
                           e == ENOENT ? _("does not exist") : g_strerror (e));
              return FALSE;
            }
          if (!S_ISREG (st.st_mode))
            {
              g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                           _("could not save to %s: it is a symbolic link to %s, "
                           "%s; Diskscope saves only to regular files and never "
                           "replaces anything else"),
                           path, link ? link : "?", ds_describe_file_type (st.st_mode));
              return FALSE;
            }
          real = realpath (path, NULL);
          if (real == NULL)
            {
              set_errno_error (error, errno, path, _("resolving the link"));
              return FALSE;
            }
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
          st = lst;
          real = g_strdup (path);
        }
      *ret_exists = TRUE;
      *ret_st = st;
    }
  else if (errno == ENOENT || errno == ENOTDIR)
    {
      real = g_strdup (path);
      *ret_exists = FALSE;
    }
  else
    {
      set_errno_error (error, errno, path, _("looking it up"));
      return FALSE;
    }

  /* The temporary file goes beside it: the folder must take a new file. */
  dir = g_path_get_dirname (real);
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

  *ret_real = g_steal_pointer (&real);
  return TRUE;
}

static gboolean
same_name (const char *a,
           const char *b)
{
  g_autofree char *ca = g_canonicalize_filename (a, NULL);
  g_autofree char *cb = g_canonicalize_filename (b, NULL);

  return g_str_equal (ca, cb);
}

gboolean
ds_save_check_destination (const char  *path,
                           const char  *not_this,
                           GError     **error)
{
  g_autofree char *real = NULL;
  gboolean exists = FALSE;
  struct stat st, target;

  if (g_strcmp0 (path, "-") == 0)
    return TRUE;
  if (!resolve (path, &real, &exists, &st, error))
    return FALSE;

  /* Saving over the run's own target would replace what is measured (or
   * take the name a --create file is about to have). */
  if (not_this != NULL &&
      ((exists && stat (not_this, &target) == 0 &&
        target.st_dev == st.st_dev && target.st_ino == st.st_ino) ||
       same_name (real, not_this)))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("could not save to %s: it is the run's own target (%s); "
                   "name another file for the result"), path, not_this);
      return FALSE;
    }

  return TRUE;
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

gboolean
ds_save_contents_atomic (const char  *path,
                         const void  *data,
                         gsize        len,
                         GError     **error)
{
  g_autofree char *real = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  gboolean exists = FALSE;
  struct stat st;
  int fd;
  int r;

  if (g_strcmp0 (path, "-") == 0)
    return write_stdout (data, len, error);
  if (!resolve (path, &real, &exists, &st, error))
    return FALSE;

  dir = g_path_get_dirname (real);
  base = g_path_get_basename (real);
  tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      set_errno_error (error, errno, path, _("creating a temporary file beside it"));
      return FALSE;
    }

  /* The replacement keeps what the user set on the old file. */
  if (exists)
    {
      (void) fchmod (fd, st.st_mode & 07777);
      if (geteuid () == 0)
        (void) fchown (fd, st.st_uid, st.st_gid);
    }

  r = write_all (fd, data, len);
  if (r == 0 && fsync (fd) != 0)
    r = -errno;
  if (close (fd) != 0 && r == 0)
    r = -errno;
  if (r == 0 && rename (tmp, real) != 0)
    r = -errno;
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
