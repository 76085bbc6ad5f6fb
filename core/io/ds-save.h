/* ds-save.h: how Diskscope writes a file (results, reports, screenshots)
 *
 * One rule for every file the program writes outside its results
 * library (the CLI's --output, compare's tables and pictures, export-fio's
 * job, the app's Save, Export and screenshots):
 *   - "-" is stdout;
 *   - a destination that exists must be a regular file you may write, or a
 *     symbolic link to one (then the file it points to is replaced and the
 *     link stays): a device, FIFO, socket or folder, a link to one, a link
 *     to nothing (no file is ever created through a link) and a read-only
 *     file are refused and never opened;
 *   - never the run's own target, nor any file the output is made from
 *     (DsSaveKeep), by name, through a link or a hard link;
 *   - a regular file is replaced atomically: a temporary file in the same
 *     folder, written, fsync'd, renamed over the old one (keeping its mode,
 *     and its owner and group where the user may set them), and the folder
 *     fsync'd.  A crash leaves the old file or the new one, never half of
 *     either.  What is at the name is checked again just before the
 *     rename: a file that was swapped meanwhile, or a name that appeared,
 *     is not replaced.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a save must never replace.  Either member may be NULL. */
typedef struct {
  const char        *target;   /* the run's own target: a device or file */
  const char *const *inputs;   /* NULL-terminated: the files the output is
                                * made from (results, a smartctl output) */
} DsSaveKeep;

/* Checks, without writing anything, that @path can be saved to under the
 * rules above (the folder exists and is writable) and is nothing @keep
 * (NULL: nothing) protects.  Errors: DS_ERROR_INVALID (an empty name),
 * DS_ERROR_REFUSED (not a regular file, the target or an input, a
 * read-only filesystem), DS_ERROR_NOT_FOUND (no such folder),
 * DS_ERROR_PERMISSION (a folder or file you may not write); every message
 * names @path. */
gboolean ds_save_check      (const char        *path,
                             const DsSaveKeep  *keep,
                             GError           **error);

/* Writes @len bytes of @data to @path under the rules above (checked
 * again).  Errors as ds_save_check(), and those of the write itself
 * (DS_ERROR_NO_SPACE, DS_ERROR_IO...) naming @path ("stdout" for "-"); on
 * failure nothing is left behind and an existing file is untouched. */
gboolean ds_save_file       (const char        *path,
                             const void        *data,
                             gsize              len,
                             const DsSaveKeep  *keep,
                             GError           **error);

/* @a and @b name the same file (the same name once canonical, or one file
 * through links): two outputs of one command that would overwrite each
 * other.  "-" is the same only as "-". */
gboolean ds_save_same_file  (const char        *a,
                             const char        *b);

/* ds_save_check() with only a target to keep (@not_this; NULL: none). */
gboolean ds_save_check_destination (const char  *path,
                                    const char  *not_this,
                                    GError     **error);

/* ds_save_file() with nothing to keep. */
gboolean ds_save_contents_atomic   (const char  *path,
                                    const void  *data,
                                    gsize        len,
                                    GError     **error);

G_END_DECLS
