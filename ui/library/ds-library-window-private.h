/* ds-library-window-private.h: what the library window's files share
 *
 * ds-library-window.c is the list, the search, open and delete;
 * ds-library-columns.c the table's columns;
 * ds-library-history-view.c a device's history;
 * ds-library-devices.c the header's device filter;
 * ds-library-tasks.c what reads or writes result files: rename and tag,
 * export, and loading results for a comparison.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-library-history.h"
#include "ds-library-window.h"

G_BEGIN_DECLS

struct _DsLibraryWindow
{
  AdwWindow             parent_instance;

  DsSession            *session;
  DsLibrary            *library;
  GtkCustomFilter      *filter;
  GtkMultiSelection    *selection;
  GHashTable           *deleting;            /* ids hidden, waiting for their undo */
  GCancellable         *cancellable;         /* reloads, edits, exports */
  GCancellable         *compare_cancellable; /* the comparison being loaded */
  gboolean              reloading;
  gint64                dir_mtime_ns;        /* the folder's, as last read */
  GtkFileChooserNative *chooser;
  GPtrArray            *devices;             /* DsLibraryDevice, as the drop-down lists them */
  GHashTable           *device_ids;          /* the shown device's run ids; NULL: all */
  guint                 update_devices_id;
  gboolean              updating_devices;

  /* Template widgets */
  GtkSearchEntry       *search_entry;
  GtkDropDown          *device_dropdown;
  GtkSpinner           *spinner;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkColumnView        *column_view;
  AdwStatusPage        *empty_page;
  GtkLabel             *count_label;
};

/* The selected entries (transfer container, refs held). */
GPtrArray      *_ds_library_window_selected       (DsLibraryWindow *self);
/* The one readable entry selected, or NULL (transfer full). */
DsLibraryEntry *_ds_library_window_selected_one   (DsLibraryWindow *self);
void            _ds_library_window_update_actions (DsLibraryWindow *self);
void            _ds_library_window_toast          (DsLibraryWindow *self,
                                                   const char      *message);

/* ds-library-columns.c: adds the table's columns. */
void            _ds_library_window_add_columns      (DsLibraryWindow      *self);
/* An entry's kind as the window's switcher names its page ("Extra
 * Tests"); NULL when the entry is unreadable. */
char           *_ds_library_kind_text               (DsLibraryEntry       *entry);

/* ds-library-history-view.c: History (Ctrl+H), the selected result's
 * device over time. */
void            _ds_library_window_class_history_init (DsLibraryWindowClass *klass);

/* ds-library-devices.c: the device filter. */
void            _ds_library_window_devices_init     (DsLibraryWindow      *self);
void            _ds_library_window_devices_dispose  (DsLibraryWindow      *self);
/* The library's devices as the drop-down lists them, made now if the
 * library changed since (DsLibraryDevice; the window's). */
GPtrArray      *_ds_library_window_devices          (DsLibraryWindow      *self);
/* The device chosen in the drop-down, or NULL (all devices). */
DsLibraryDevice *_ds_library_window_shown_device    (DsLibraryWindow      *self);
/* FALSE when a device is chosen and @entry is not one of its runs. */
gboolean        _ds_library_window_device_shows     (DsLibraryWindow      *self,
                                                     DsLibraryEntry       *entry);

/* ds-library-tasks.c */
void            _ds_library_window_class_tasks_init (DsLibraryWindowClass *klass);
void            _ds_library_window_tasks_dispose    (DsLibraryWindow      *self);
/* Writes @result, read from @source (its library file; NULL: none), to
 * @path as JSON, or as its text report (".txt") or a fio job that
 * reproduces it (".fio"); never over @source or the result's target
 * (ds-save.h); blocking. */
gboolean        _ds_library_export_result           (const DsResult       *result,
                                                     const char           *source,
                                                     const char           *path,
                                                     DsUnits               units,
                                                     GError              **error);
/* Loads @entries on a worker thread and opens a comparison window. */
void            _ds_library_window_compare          (DsLibraryWindow      *self,
                                                     GPtrArray            *entries);

G_END_DECLS
