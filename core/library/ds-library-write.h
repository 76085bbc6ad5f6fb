/* ds-library-write.h: durable, atomic file writes for the results library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DS_LIBRARY_WRITE_REPLACE    = 0,       /* rename over an existing file */
  DS_LIBRARY_WRITE_NO_REPLACE = 1 << 0,  /* fail with G_IO_ERROR_EXISTS */
} DsLibraryWriteFlags;

/* Writes @data to a hidden temporary file beside @path (".NAME.XXXXXX",
 * mode 0644), fsyncs it, renames it to @path (without replacing when asked)
 * and fsyncs the folder: a crash or a full disk leaves either the old file
 * or the new one, never half of one, and no temporary file.
 * Errors are DS_ERROR (NO_SPACE, PERMISSION, NOT_FOUND, ...) with a
 * message naming @path and saying what to do; G_IO_ERROR_EXISTS when
 * DS_LIBRARY_WRITE_NO_REPLACE and @path exists. */
gboolean ds_library_write_file (const char          *path,
                                const char          *data,
                                gsize                length,
                                DsLibraryWriteFlags  flags,
                                GError             **error);

G_END_DECLS
