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

G_END_DECLS
