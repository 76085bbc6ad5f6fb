/* ds-library-private.h: what the library's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-library.h"

G_BEGIN_DECLS

struct _DsLibrary {
  GObject    parent_instance;

  char      *dir;
  GPtrArray *items;       /* DsLibraryEntry, newest first */
  /* Bumped by every change made here, so a reload that started before one
   * does not undo it when it finishes. */
  guint      generation;
};

/* The entry of @id, or NULL with DS_ERROR_NOT_FOUND naming the folder. */
DsLibraryEntry *ds_library_require_entry (DsLibrary      *self,
                                          const char     *id,
                                          GError        **error);
/* Puts @entry in place of the one with its id (or adds it), in order,
 * with items-changed, as a change made here (see generation). */
void            ds_library_replace_entry (DsLibrary      *self,
                                          DsLibraryEntry *entry);

/* "YYYYMMDD-HHMMSS-KIND-DEVICE" (or the hint for KIND-DEVICE), UTC. */
char           *ds_library_file_stem     (const DsResult *result,
                                          const char     *name_hint);
/* Makes @dir if needed and writes @data as a new file "STEM.json" (else
 * "STEM-2.json", ...), never over another; safe on any thread. */
gboolean        ds_library_write_new     (const char     *dir,
                                          const char     *stem,
                                          const char     *data,
                                          gsize           length,
                                          char          **ret_id,
                                          char          **ret_path,
                                          GError        **error);

G_END_DECLS
