/* ds-library-private.h: what the library's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sys/stat.h>

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

/* ---- ds-library-entry-new.c: an entry's fields, for the index ----------- */

/* Every field of an entry (pointers borrowed from it, or given to
 * ds_library_entry_new_fields(), which copies them). */
typedef struct {
  const char        *id;
  const char        *path;
  DsLibraryStatus    status;
  const char        *error_message;
  DsBenchKind        kind;
  const char        *label;
  gboolean           custom_label;
  const char        *notes;
  const char *const *tags;
  const char        *device;
  const char        *device_path;
  const char        *model;
  const char        *serial;
  const char        *wwn;
  uint64_t           size_bytes;
  gint64             date_us;          /* Unix time, microseconds, UTC */
  const char        *hostname;
  const char        *summary;
  guint              n_warnings;
  const char        *headline_key;     /* NULL: no headline figure */
  const char        *headline_name;
  int                headline_unit;    /* DsCompareUnit */
  double             headline_value;
} DsLibraryEntryFields;

DsLibraryEntry *ds_library_entry_new_fields (const DsLibraryEntryFields *fields);
void            ds_library_entry_get_fields (DsLibraryEntry            *entry,
                                             DsLibraryEntryFields      *fields);

/* Loads the file @name of @dir (@st: its stat) into an entry (an
 * unreadable one when it cannot be read).  Safe on any thread. */
DsLibraryEntry *ds_library_load_entry    (const char     *dir,
                                          const char     *name,
                                          const struct stat *st);

/* Newest first (for g_ptr_array_sort of entries). */
int             ds_library_compare_entries (gconstpointer a,
                                            gconstpointer b);

/* ---- ds-library-scan.c, ds-library-index.c ------------------------------ */

/* Lists @dir: every "*.json" file as an entry, newest first, each taken
 * from the index (a cache in $XDG_CACHE_HOME) when the file's size, mtime,
 * ctime and inode are those the index holds, else loaded and put in the
 * index.  A missing, unusable or corrupt index is rebuilt; one that cannot
 * be made is done without (every file loaded).  Safe on any thread. */
GPtrArray      *ds_library_scan          (const char     *dir,
                                          GCancellable   *cancellable,
                                          GError        **error);
/* Where the index of @dir lives on this host (for this user). */
char           *ds_library_index_path    (const char     *dir);

/* The entry of @id, or NULL with DS_ERROR_NOT_FOUND naming the folder. */
DsLibraryEntry *ds_library_require_entry (DsLibrary      *self,
                                          const char     *id,
                                          GError        **error);
/* Puts @entry in place of the one with its id (or adds it), in order,
 * with items-changed, as a change made here (see generation). */
void            ds_library_replace_entry (DsLibrary      *self,
                                          DsLibraryEntry *entry);

/* Drops the entry of @id, if any, as a change made here. */
void            ds_library_drop_entry    (DsLibrary      *self,
                                          const char     *id);

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

/* ---- ds-library-edit.c -------------------------------------------------- */

void            ds_library_edit_copy     (DsLibraryEdit       *dst,
                                          const DsLibraryEdit *src);
/* Applies @edit to the file of the entry @id at @path in @dir, safely
 * against every other change (see ds-library-edit.c); the new entry.
 * Touches no DsLibrary: safe on a worker thread. */
DsLibraryEntry *ds_library_edit_file     (const char           *dir,
                                          const char           *id,
                                          const char           *path,
                                          const DsLibraryEdit  *edit,
                                          GError              **error);

/* ---- ds-library-lock.c -------------------------------------------------- */

/* A write lock on the result @id of the library in @dir, held until
 * released: every change to an existing result's file (an edit, a
 * deletion) is made under it, by every process and host.  Waits up to
 * 30 s for another holder (then DS_ERROR_FAILED saying so).  In a folder that does
 * not exist or is on a read-only filesystem nothing can change: the lock
 * is then an empty one, and what the caller does there fails on its own. */
typedef struct _DsLibraryLock DsLibraryLock;
DsLibraryLock  *ds_library_lock_entry     (const char     *dir,
                                           const char     *id,
                                           GError        **error);
void            ds_library_lock_release   (DsLibraryLock  *lock);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsLibraryLock, ds_library_lock_release)

/* ---- ds-library-write.c ------------------------------------------------- */

/* Writes @data to a new hidden file ".NAME.XXXXXX" beside @path, synced,
 * and returns its path; the mode (and, where allowed, the owner and
 * group) of @like, else 0644.  The file is locked while it is written. */
char           *ds_library_write_temp     (const char         *path,
                                           const char         *data,
                                           gsize               length,
                                           const struct stat  *like,
                                           GError            **error);
/* DS_ERROR (NO_SPACE, PERMISSION, NOT_FOUND, ...) for errno @e while
 * saving @path, saying what to do. */
void            ds_library_set_write_error (GError    **error,
                                            int         e,
                                            const char *path);
/* fsync of the folder holding @path, best effort. */
void            ds_library_fsync_dir      (const char     *path);

/* A temporary file a save left when it was killed (SIGKILL, a crash, a
 * power cut) is removed by the next listing of the folder once it is this
 * old and no process holds its lock: 15 minutes, far longer than a save
 * takes, even of a large result to a slow network folder. */
#define DS_LIBRARY_TEMP_STALE_S (15 * 60)
/* ".ID.json.XXXXXX". */
gboolean        ds_library_is_temp_name   (const char     *name);
void            ds_library_remove_stale_temp (const char  *dir,
                                              const char  *name);

G_END_DECLS
