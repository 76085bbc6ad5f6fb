/* ds-library-index-private.h: the library's index, as the listing uses it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds-library-index.c keeps the index (a SQLite cache, see there);
 * ds-library-scan.c lists a folder, taking from it each file's entry that
 * is still current and giving it back the files it loaded.
 */
#pragma once

#include <sys/stat.h>

#include <sqlite3.h>

#include "ds-library-private.h"

G_BEGIN_DECLS

/* What identifies one version of a file. */
typedef struct {
  gint64 size;
  gint64 mtime_ns;
  gint64 ctime_ns;
  gint64 inode;
} FileStamp;

/* One row of the index: a file's entry as it was when it had @stamp. */
typedef struct {
  FileStamp       stamp;
  DsLibraryEntry *entry;
  gboolean        seen;
} Row;

/* A file the listing loaded (new, changed or replaced): its row to write. */
typedef struct {
  char           *name;
  FileStamp       stamp;
  struct stat     st;
  DsLibraryEntry *entry;   /* NULL until loaded */
} Change;

/* The index's rows of @dir (Row by file name; empty for a new or remade
 * index); NULL and no database when there is no index. */
GHashTable *ds_library_index_rows  (const char *dir,
                                    sqlite3   **ret_db,
                                    char      **ret_path);
/* One transaction: the rows of @changes (Change), and, when @rows is not
 * NULL, no rows of files gone (those of @rows not seen).  Best effort: an
 * index not written is only a slower next listing. */
void        ds_library_index_write (sqlite3    *db,
                                    const char *path,
                                    GPtrArray  *changes,
                                    GHashTable *rows);

G_END_DECLS
