/* ds-error.h: the core's error domain, and how core functions fail
 *
 * One error channel per function:
 *
 *  - Core functions that can fail take a `GError **error` (last) and return
 *    gboolean (FALSE on failure) or a pointer (NULL on failure), GLib style.
 *    @error is set exactly when they fail; ret_ out-parameters are left
 *    alone then.  The errno behind a failure, where the result must record
 *    it, travels beside the GError (DsRun.error_errno), never as a second
 *    return value.
 *  - The engines (ds-engine*.c, DsEngineOps) return 0 or a negative errno
 *    and never touch a GError, systemd style: they sit in the timed loop,
 *    and their caller turns an errno into a message once
 *    (ds_set_error_from_errno()).
 *  - Not converted yet, because every kind implements or calls them:
 *    DsBenchOps.run, ds_run_io(), ds_run_check_cancelled() and
 *    ds_block_size_sweep() return 0 or -errno *and* set @error on failure.
 *    Their callers take the message from the GError and use the int only
 *    as "it failed".  New code does not add to this list.
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
/* The user's stop: when *@cancel (g_atomic_int_set by a front end) is
 * non-zero, sets DS_ERROR_CANCELLED and returns -ECANCELED; else 0.  NULL
 * @cancel is never set. */
int  ds_check_cancelled      (const gint  *cancel,
                              GError     **error);

void ds_set_error_from_errno (GError    **error,
                              int         errno_value,
                              const char *what);

G_END_DECLS
