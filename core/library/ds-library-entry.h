/* ds-library-entry.h: one saved result, as the library lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-result.h"

G_BEGIN_DECLS

#define DS_TYPE_LIBRARY_ENTRY (ds_library_entry_get_type ())
G_DECLARE_FINAL_TYPE (DsLibraryEntry, ds_library_entry, DS, LIBRARY_ENTRY, GObject)

/* What a list shows, read once from the file: an entry is an immutable
 * snapshot (a relabelled result is a new entry), safe to make on a worker
 * thread and hand to the main thread.  It holds no figures: load the
 * result with ds_library_entry_load().
 *
 * Read-only properties, for list views and expressions: "id", "path",
 * "readable", "error-message", "kind-name", "label", "custom-label",
 * "notes", "tags", "device", "device-path", "size-bytes", "date",
 * "hostname", "summary", "status". */

typedef enum {
  DS_LIBRARY_STATUS_COMPLETE,   /* ran to the end */
  DS_LIBRARY_STATUS_STOPPED,    /* stopped by the user: partial figures */
  DS_LIBRARY_STATUS_FAILED,     /* an error ended it: partial figures */
  DS_LIBRARY_STATUS_UNREADABLE, /* the file is not a result we can read */
} DsLibraryStatus;

/* From a loaded result (the entry copies what it needs). */
DsLibraryEntry *ds_library_entry_new_for_result (const char     *id,
                                                 const char     *path,
                                                 const DsResult *result);
/* For a file that could not be loaded: @error says why; @mtime_s dates it. */
DsLibraryEntry *ds_library_entry_new_unreadable (const char     *id,
                                                 const char     *path,
                                                 const GError   *error,
                                                 gint64          mtime_s);

/* The file name without ".json": unique in its folder. */
const char   *ds_library_entry_get_id            (DsLibraryEntry *self);
const char   *ds_library_entry_get_path          (DsLibraryEntry *self);
DsLibraryStatus ds_library_entry_get_status      (DsLibraryEntry *self);
gboolean      ds_library_entry_is_readable       (DsLibraryEntry *self);
/* Why it is unreadable (names the file); NULL when readable. */
const char   *ds_library_entry_get_error_message (DsLibraryEntry *self);

/* Meaningful only when readable. */
DsBenchKind   ds_library_entry_get_kind          (DsLibraryEntry *self);
/* "benchmark", "workload", ...; "?" when unreadable. */
const char   *ds_library_entry_get_kind_name     (DsLibraryEntry *self);
/* The user's label, else the default: the model and path and the date
 * ("Loop device /dev/loop2 · 2026-12-01 10:00"), or the host and path for
 * a result without a model (a fio import); the file name when unreadable.
 * Never NULL. */
const char   *ds_library_entry_get_label         (DsLibraryEntry *self);
gboolean      ds_library_entry_has_custom_label  (DsLibraryEntry *self);
const char   *ds_library_entry_get_notes         (DsLibraryEntry *self);
/* NULL-terminated, never NULL (maybe empty). */
const char *const *ds_library_entry_get_tags     (DsLibraryEntry *self);
gboolean      ds_library_entry_has_tag           (DsLibraryEntry *self,
                                                  const char     *tag);
/* The target's path (for runs and imports alike), else the model; NULL
 * when unreadable. */
const char   *ds_library_entry_get_device        (DsLibraryEntry *self);
const char   *ds_library_entry_get_device_path   (DsLibraryEntry *self);
uint64_t      ds_library_entry_get_size_bytes    (DsLibraryEntry *self);
/* When the run started (else the file's modification time), UTC. */
GDateTime    *ds_library_entry_get_date          (DsLibraryEntry *self);
const char   *ds_library_entry_get_hostname      (DsLibraryEntry *self);
/* One line: "read", "read + write", "randread 4 KB, QD 32, 1 thread". */
const char   *ds_library_entry_get_summary       (DsLibraryEntry *self);

/* What the target said of itself (NULL where unknown). */
const char   *ds_library_entry_get_model         (DsLibraryEntry *self);
const char   *ds_library_entry_get_serial        (DsLibraryEntry *self);
const char   *ds_library_entry_get_wwn           (DsLibraryEntry *self);
/* How many warnings the result holds (a cache that cut a figure, ...). */
guint         ds_library_entry_get_n_warnings    (DsLibraryEntry *self);
/* The kind's headline figure (its average rate, ...): a stable @key
 * ("read.transfer_avg"), a @name for people, its DsCompareUnit and value.
 * FALSE when the result has none (nothing measured, or a kind without
 * figures to compare). */
gboolean      ds_library_entry_get_headline      (DsLibraryEntry  *self,
                                                  const char     **key,
                                                  const char     **name,
                                                  int             *unit,
                                                  double          *value);
/* Which physical device the result is of: "wwn:…" or "serial:…" when the
 * result recorded one, else the model, capacity and host ("model:…"), or
 * the path, capacity and host ("path:…").  Results of one device share
 * it, whatever /dev name the device had. */
char         *ds_library_entry_dup_device_key    (DsLibraryEntry *self);

/* TRUE when @text (case-insensitive) is in the id, label, notes, a tag,
 * the device (path, model, serial, WWN), the kind or the host: the search
 * of a library view. */
gboolean      ds_library_entry_matches           (DsLibraryEntry *self,
                                                  const char     *text);

/* Loads the whole result (blocking: use a worker thread in a GUI). */
DsResult     *ds_library_entry_load              (DsLibraryEntry *self,
                                                  GError        **error);

/* "randread 4 KB, QD 32, 4 threads" etc.: what ran (shared with the
 * comparison's column headers). */
char         *ds_result_describe                 (const DsResult *result);

G_END_DECLS
