/* ds-error.h: the core's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DS_ERROR (ds_error_quark ())

typedef enum {
  DS_ERROR_FAILED,      /* anything else; message says what */
  DS_ERROR_INVALID,     /* bad parameters (CLI exit 2) */
  DS_ERROR_NOT_FOUND,   /* no such device or file */
  DS_ERROR_PERMISSION,  /* EACCES/EPERM; message says how to fix it */
  DS_ERROR_BUSY,        /* EBUSY, O_EXCL refused */
  DS_ERROR_REFUSED,     /* the write-safety gate said no (CLI exit 3) */
  DS_ERROR_IO,          /* EIO and friends mid-run; offset in the result */
  DS_ERROR_VANISHED,    /* the device went away mid-run */
  DS_ERROR_NO_SPACE,    /* ENOSPC */
  DS_ERROR_UNSUPPORTED, /* e.g. O_DIRECT refused by the filesystem */
  DS_ERROR_CANCELLED,   /* the user stopped the run (CLI exit 130) */
  DS_ERROR_CORRUPT,     /* a result file that cannot be loaded */
} DsError;

GQuark ds_error_quark (void);

/* Maps an errno to the closest DsError code. */
DsError ds_error_from_errno (int errno_value);

/* Sets @error from a negative or positive errno, with a message that names
 * @what (usually the device path) and, where the user can fix it, says how. */
void ds_set_error_from_errno (GError    **error,
                              int         errno_value,
                              const char *what);

G_END_DECLS
