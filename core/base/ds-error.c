/* ds-error.c: the core's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "ds-error.h"

G_DEFINE_QUARK (ds-error-quark, ds_error)

DsError
ds_error_from_errno (int errno_value)
{
  switch (ABS (errno_value))
    {
    case ENOENT:
      return DS_ERROR_NOT_FOUND;
    case EACCES:
    case EPERM:
      return DS_ERROR_PERMISSION;
    case EBUSY:
    case ETXTBSY:
      return DS_ERROR_BUSY;
    case EROFS:
      return DS_ERROR_REFUSED;
    case EIO:
    case EILSEQ:
    case EBADMSG:
    case ENODATA:
      return DS_ERROR_IO;
    case ENODEV:
    case ENXIO:
    case ESHUTDOWN:
    case ENOTCONN:
      return DS_ERROR_VANISHED;
    case ENOSPC:
    case EDQUOT:
      return DS_ERROR_NO_SPACE;
    case EOPNOTSUPP:
    case ENOSYS:
      return DS_ERROR_UNSUPPORTED;
    case ECANCELED:
      return DS_ERROR_CANCELLED;
    case EINVAL:
    case ENOTBLK:
      return DS_ERROR_INVALID;
    default:
      return DS_ERROR_FAILED;
    }
}

void
ds_set_error_from_errno (GError     **error,
                         int          errno_value,
                         const char  *what)
{
  int e = ABS (errno_value);
  DsError code = ds_error_from_errno (e);

  switch (code)
    {
    case DS_ERROR_PERMISSION:
      if (geteuid () == 0)
        {
          /* Root was refused: the usual advice would be wrong. */
          g_set_error (error, DS_ERROR, code,
                       _("%s: %s, even as root: something outside Diskscope "
                       "blocks this device (a container or virtual-machine "
                       "sandbox, or a security module such as SELinux or "
                       "AppArmor)"), what, g_strerror (e));
          break;
        }
      g_set_error (error, DS_ERROR, code,
                   _("%s: %s. Run Diskscope as root, or add your user to the "
                   "group that owns the device (usually “disk”: "
                   "sudo usermod -aG disk $USER, then log in again)"),
                   what, g_strerror (e));
      break;

    case DS_ERROR_VANISHED:
      g_set_error (error, DS_ERROR, code,
                   _("%s: the device is gone (%s): it was removed or detached"),
                   what, g_strerror (e));
      break;

    case DS_ERROR_NO_SPACE:
      g_set_error (error, DS_ERROR, code,
                   _("%s: no space left on the filesystem (%s): free some "
                   "space or choose a smaller test size"),
                   what, g_strerror (e));
      break;

    default:
      g_set_error (error, DS_ERROR, code, "%s: %s", what, g_strerror (e));
      break;
    }
}

int
ds_check_cancelled (const gint  *cancel,
                    GError     **error)
{
  if (cancel == NULL || g_atomic_int_get (cancel) == 0)
    return 0;

  g_set_error (error, DS_ERROR, DS_ERROR_CANCELLED, _("the run was stopped by the user"));
  return -ECANCELED;
}
