/* ds-library.h: the results library, a folder of saved results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A library is a folder of result files (schema diskscope-result/1), by
 * default $XDG_DATA_HOME/diskscope/results; any folder works, so a team
 * pools results in a shared one.  Each file is one run, named
 * "YYYYMMDD-HHMMSS-KIND-DEVICE.json" after its start (UTC); the name
 * without ".json" is the result's id.  The user's label, notes and tags
 * live in the file itself (ds-annotation.h).  Files are written atomically
 * (ds-library-write.h); a file that cannot be read is listed as unreadable,
 * never fatal.  Hidden files (temporary ones among them) are not listed;
 * a listing removes the temporary files killed saves left behind.  Edits
 * and deletions lock the result they change (ds-library-lock.c, the
 * hidden file ".diskscope-lock"), so several CLIs, the app and other
 * hosts can share one folder.
 *
 * DsLibrary is a GListModel of DsLibraryEntry, newest first, for a list
 * view; the CLI uses the same calls synchronously.  Every method runs on
 * the thread that made the library; only the scans behind
 * ds_library_reload_async() and ds_library_annotate_async() run on a
 * worker, and their results are applied when _finish() is called.
 */
#pragma once

#include <gio/gio.h>

#include "ds-annotation.h"
#include "ds-library-entry.h"
#include "ds-result.h"

G_BEGIN_DECLS

#define DS_TYPE_LIBRARY (ds_library_get_type ())
G_DECLARE_FINAL_TYPE (DsLibrary, ds_library, DS, LIBRARY, GObject)

/* $XDG_DATA_HOME/diskscope/results (~/.local/share/diskscope/results). */
char           *ds_library_default_dir   (void);

/* A library over @dir (NULL: the default).  Empty until reloaded; the
 * folder is made on the first save. */
DsLibrary      *ds_library_new           (const char    *dir);
const char     *ds_library_get_dir       (DsLibrary     *self);

/* Reads the folder again.  A missing folder is an empty library; one that
 * cannot be read is an error (naming it).  Each file is loaded in full, so
 * an unreadable one is found now. */
gboolean        ds_library_reload        (DsLibrary     *self,
                                          GCancellable  *cancellable,
                                          GError       **error);
/* The same on a worker thread; the model changes (once, with one
 * items-changed) in _finish().  If the library was changed by a save,
 * annotate or remove in between, _finish() keeps those changes and leaves
 * the model as it is. */
void            ds_library_reload_async  (DsLibrary          *self,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean        ds_library_reload_finish (DsLibrary     *self,
                                          GAsyncResult  *result,
                                          GError       **error);

/* The entry with id @id exactly; NULL if none.  Transfer none. */
DsLibraryEntry *ds_library_get_entry     (DsLibrary     *self,
                                          const char    *id);
/* What a user typed: an id, an id with ".json", a unique beginning of an
 * id, or a text found in exactly one id.  DS_ERROR_NOT_FOUND, or
 * DS_ERROR_INVALID listing the candidates when several match.
 * Transfer full. */
DsLibraryEntry *ds_library_lookup        (DsLibrary     *self,
                                          const char    *text,
                                          GError       **error);

/* The entry of the same run as @result (its kind, start, host and
 * target), if the library holds one: what an import of a copy of a
 * result already there finds.  Transfer none. */
DsLibraryEntry *ds_library_find_run      (DsLibrary       *self,
                                          const DsResult  *result);

/* Saves @result as a new file (never over another) and adds its entry.
 * @name_hint ("fio-host1-randread") replaces "KIND-DEVICE" in the file
 * name when not NULL.  Transfer none. */
DsLibraryEntry *ds_library_save          (DsLibrary       *self,
                                          const DsResult  *result,
                                          const char      *name_hint,
                                          GError         **error);

/* The same, with the file written on a worker thread: @result is
 * serialized before this returns (it may be freed then), and the entry is
 * added in _finish() (transfer none).  A cancel does not stop the write. */
void            ds_library_save_async    (DsLibrary          *self,
                                          const DsResult     *result,
                                          const char         *name_hint,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
DsLibraryEntry *ds_library_save_finish   (DsLibrary          *self,
                                          GAsyncResult       *result,
                                          GError            **error);

/* A change to a result's label, notes and tags.  It is applied to what
 * the result's file holds when the change is made, not to what a list
 * showed earlier: two programs that tag one result at once both get
 * their tag, and an edit never undoes another's. */
typedef struct {
  gboolean  set_label;
  char     *label;          /* NULL or blank: the default label */
  gboolean  set_notes;
  char     *notes;          /* NULL or blank: none */
  GStrv     add_tags;       /* NULL or NULL-terminated */
  GStrv     remove_tags;
  /* A tag of remove_tags that the result does not have is an error
   * (DS_ERROR_FAILED, "it has no tag …"); else it is nothing to do. */
  gboolean  require_tags;
} DsLibraryEdit;

void      ds_library_edit_clear (DsLibraryEdit *edit);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsLibraryEdit, ds_library_edit_clear)
/* What an editor changed: @after (what it saves) against @before (what it
 * showed); fields equal in both are left as the file has them. */
void      ds_library_edit_init_diff (DsLibraryEdit       *edit,
                                     const DsAnnotation  *before,
                                     const DsAnnotation  *after);
/* Applies @edit to @annotation; DS_ERROR_INVALID for a label, notes or tag
 * that breaks the rules (ds-annotation.h), and nothing changed then. */
gboolean  ds_library_edit_apply   (const DsLibraryEdit *edit,
                                   DsAnnotation        *annotation,
                                   GError             **error);

/* Applies @edit to the result @id's file and replaces the file atomically
 * (the old one stays whole until the new one is complete, with the old
 * one's mode).  Safe against every other change made at the same time by
 * this or another process or host (ds-library-lock.c): no edit is lost,
 * and a result deleted meanwhile stays deleted (DS_ERROR_NOT_FOUND, and
 * its entry is dropped).  An entry that is a symbolic link is edited in
 * the file it points to (which must be a regular file in a folder this
 * user may write); the link stays.  The entry is replaced by a new one
 * (*@ret_entry, transfer none, when not NULL). */
gboolean        ds_library_annotate      (DsLibrary           *self,
                                          const char          *id,
                                          const DsLibraryEdit *edit,
                                          DsLibraryEntry     **ret_entry,
                                          GError             **error);
/* The same on a worker thread (@edit is copied); the entry is replaced
 * in _finish(). */
void            ds_library_annotate_async  (DsLibrary           *self,
                                            const char          *id,
                                            const DsLibraryEdit *edit,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean        ds_library_annotate_finish (DsLibrary     *self,
                                            GAsyncResult  *result,
                                            GError       **error);

/* Deletes the file of @id and drops its entry (a GUI that offers undo
 * hides the entry first and calls this when the undo is gone).  Under the
 * result's lock, so an edit running at the same time cannot bring the
 * file back.  An entry that is a symbolic link: the link goes, the file
 * it points to stays. */
gboolean        ds_library_remove        (DsLibrary     *self,
                                          const char    *id,
                                          GError       **error);

G_END_DECLS
