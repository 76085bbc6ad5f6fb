/* ds-target-access.c: why a target could not be opened, and the other ways
 * in: a permission error that says how to get access, udisks2 (polkit
 * deciding) when the user may not open a block device, and the checks an
 * fd opened elsewhere must pass.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-target-private.h"
#include "ds-udisks.h"

/* ---- errors ------------------------------------------------------------- */

/* Permission denied on a device to a plain user: say who may open it and
 * how to become one of them. */
static void
set_permission_error (GError     **error,
                      int          e,
                      const char  *path)
{
  struct stat st;
  struct group *gr;

  if (geteuid () == 0 || stat (path, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      ds_set_error_from_errno (error, e, path);
      return;
    }

  if ((st.st_mode & (S_IRGRP | S_IWGRP)) != 0 && (gr = getgrgid (st.st_gid)) != NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                 _("%s: %s. Run Diskscope as root, or add your user to the "
                 "group “%s”, which may open %s (sudo usermod -aG %s $USER, "
                 "then log in again)"), path, g_strerror (e), gr->gr_name,
                 path, gr->gr_name);
  else
    {
      struct passwd *pw = getpwuid (st.st_uid);

      g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                   _("%s: %s. Only its owner, %s, may open it (mode %04o): run "
                   "Diskscope as root (sudo), or let a group you are in open "
                   "it (udev usually gives disks to the group “disk”)"),
                   path, g_strerror (e), pw != NULL ? pw->pw_name : "root",
                   (unsigned) (st.st_mode & 07777));
    }
}

void
_ds_target_set_open_error (GError     **error,
                           int          e,
                           const char  *path,
                           gboolean     direct)
{
  switch (e)
    {
    case EBUSY:
      g_set_error (error, DS_ERROR, DS_ERROR_BUSY,
                   _("%s is in use by another program (mounted, or opened "
                   "exclusively)"), path);
      break;

    case EINVAL:
      if (direct)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("%s does not support direct I/O (O_DIRECT): its "
                       "filesystem cannot bypass the page cache"), path);
          break;
        }
      ds_set_error_from_errno (error, e, path);
      break;

    case EROFS:
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("%s is on a read-only filesystem or device: it cannot be "
                   "written"), path);
      break;

    case EACCES:
    case EPERM:
      set_permission_error (error, e, path);
      break;

    default:
      ds_set_error_from_errno (error, e, path);
      break;
    }
}

/* ---- fds from elsewhere -------------------------------------------------- */

/* An fd someone else opened (udisks2, a caller) must be what a run needs:
 * readable and writable for a write, O_DIRECT unless BUFFERED (set here
 * when it is missing), close-on-exec. */
gboolean
_ds_target_adjust_fd_mode (int          fd,
                           const char  *path,
                           gboolean     write,
                           gboolean     direct,
                           GError     **error)
{
  int fl = fcntl (fd, F_GETFL);
  int want;

  if (fl < 0)
    {
      ds_set_error_from_errno (error, errno, path);
      return FALSE;
    }
  if (write && (fl & O_ACCMODE) != O_RDWR)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                   _("%s was opened for reading only: it cannot be written"), path);
      return FALSE;
    }

  want = direct ? (fl | O_DIRECT) : (fl & ~O_DIRECT);
  if (want != fl && fcntl (fd, F_SETFL, want) != 0)
    {
      _ds_target_set_open_error (error, errno, path, direct);
      return FALSE;
    }
  (void) fcntl (fd, F_SETFD, FD_CLOEXEC);

  return TRUE;
}

/* Our own open() of a block device was refused (@e): udisks2 may open it
 * for us (polkit deciding).  The fd, or -1 with @error set: udisks2's
 * refusal, or our own permission error when udisks2 is not there. */
int
_ds_target_open_via_udisks (const char           *path,
                            int                   e,
                            gboolean              write,
                            gboolean              direct,
                            const DsTargetAccess *access,
                            GError              **error)
{
  g_autoptr (GError) local = NULL;
  int fd;

  fd = ds_udisks_open_device (path, write, access, &local);
  if (fd < 0)
    {
      if (!g_error_matches (local, DS_ERROR, DS_ERROR_UNSUPPORTED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return -1;
        }
      _ds_target_set_open_error (error, e, path, direct);
      if (error != NULL && *error != NULL)
        {
          g_autofree char *own = g_steal_pointer (&(*error)->message);

          (*error)->message = g_strdup_printf ("%s. udisks2 could not open it "
                                               "instead: %s", own, local->message);
        }
      return -1;
    }

  if (!_ds_target_adjust_fd_mode (fd, path, write, direct, error))
    {
      close (fd);
      return -1;
    }

  return fd;
}
