/* ds-save.h: how Diskscope writes a file (results, reports, screenshots)
 *
 * One rule for every save path, the CLI's --output and the app's Save
 * alike:
 *   - "-" is stdout;
 *   - a destination that exists must be a regular file, or a symbolic link
 *     to one: a device, FIFO, socket or folder (or a link to one, or a
 *     link to nothing) is refused and never opened;
 *   - a regular file is replaced atomically: a temporary file in the same
 *     folder, written, fsync'd, renamed over the old one (which keeps its
 *     mode and owner), and the folder fsync'd.  A crash leaves the old file
 *     or the new one, never half of either.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Checks, without writing anything, that @path can be saved to under the
 * rules above (the folder exists and is writable), and that it is not
 * @not_this (the run's own target: a device or file; NULL for none).
 * Errors: DS_ERROR_INVALID (an empty name), DS_ERROR_REFUSED (not a
 * regular file, the target itself, a read-only filesystem),
 * DS_ERROR_NOT_FOUND (no such folder), DS_ERROR_PERMISSION; every message
 * names @path. */
gboolean ds_save_check_destination (const char  *path,
                                    const char  *not_this,
                                    GError     **error);

/* Writes @len bytes of @data to @path under the rules above (the check is
 * made again).  Errors as ds_save_check_destination(), and those of the
 * write itself (DS_ERROR_NO_SPACE, DS_ERROR_IO...) naming @path ("stdout"
 * for "-"); on failure nothing is left behind and an existing file is
 * untouched. */
gboolean ds_save_contents_atomic   (const char  *path,
                                    const void  *data,
                                    gsize        len,
                                    GError     **error);

G_END_DECLS
