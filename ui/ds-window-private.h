/* ds-window-private.h: what the window's files share
 *
 * ds-window.c is the view (the pages, and what the session's signals show
 * on them); ds-window-devices.c the device drop-down; ds-window-actions.c
 * the actions, their shortcuts and the file choosers; ds-window-start.c
 * Start, by hand and by a script.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-device-list.h"
#include "ds-page.h"
#include "ds-pages.h"
#include "ds-run-progress.h"
#include "ds-session.h"
#include "ds-window.h"

G_BEGIN_DECLS

struct _DsWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  DsSession            *session;
  DsDeviceList         *devices;
  char                 *device_path;     /* the selection, across refreshes */
  GtkSearchEntry       *device_search;   /* inside the drop-down's popover */
  guint                 inhibit_cookie;
  GtkFileChooserNative *chooser;
  GCancellable         *open_cancellable;
  guint                 pages_running;   /* _ds_window_is_running()'s count */
  GtkWindow            *library_window;  /* weak: the one open, or NULL */
  GtkWidget            *warnings_bar;    /* the visible result's warnings */

  /* Template widgets */
  GtkDropDown          *device_dropdown;
  GtkSpinner           *open_spinner;
  GtkButton            *start_button;
  AdwButtonContent     *start_content;
  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *view_stack;
  DsRunProgress        *run_progress;
  GtkLabel             *waiting_label;   /* "Waiting for permission…" */
  GtkInfoBar           *opened_bar;
  GtkLabel             *opened_label;
  AdwWindowTitle       *window_title;
  GtkListBox           *page_list;       /* one row a page, named as it */
  gboolean              pages_added;     /* the stack holds every page's place */
};

/* The visible page and its row of the page table (NULL: none). */
DsPage           *_ds_window_get_visible_page (DsWindow          *self);
const DsPageInfo *_ds_window_get_visible_info (DsWindow          *self);
/* The page that shows @kind (made now if it was not yet), or NULL. */
DsPage           *_ds_window_get_page         (DsWindow          *self,
                                               DsBenchKind        kind);
void              _ds_window_toast            (DsWindow          *self,
                                               const char        *message);
/* A test runs: the session's, or one a page runs itself (the monitor). */
gboolean          _ds_window_is_running       (DsWindow          *self);
/* Stops whatever runs (the session's run and the pages' own). */
void              _ds_window_stop             (DsWindow          *self);
/* After a page started a test of its own. */
void              _ds_window_page_started     (DsWindow          *self);
/* Calls @func for every page of the page table that was made. */
void              _ds_window_foreach_page     (DsWindow          *self,
                                               void             (*func) (DsWindow    *self,
                                                                         DsPage      *page,
                                                                         DsBenchKind  kind));

/* ds-window-devices.c: fills the drop-down and selects a device. */
void              _ds_window_devices_init     (DsWindow          *self);
/* Tells @page the device selected (for _ds_window_foreach_page()). */
void              _ds_window_set_page_device  (DsWindow          *self,
                                               DsPage            *page,
                                               DsBenchKind        kind);
/* The device selected, or NULL. */
const DsDevice   *_ds_window_get_device       (DsWindow          *self);
/* The visible page runs a test that makes its own target (the File
 * Benchmark's folder): the device drop-down does not apply to it. */
gboolean          _ds_window_page_ignores_device (DsWindow       *self);

/* ds-window-start.c: a start's error, on the visible page (or a toast). */
void              _ds_window_show_start_error (DsWindow          *self,
                                               const char        *message);

/* ds-window-actions.c */
void              _ds_window_class_actions_init (DsWindowClass   *klass);
void              _ds_window_update_actions   (DsWindow          *self);
void              _ds_window_open_result      (DsWindow          *self,
                                               const char        *path);
void              _ds_window_actions_dispose  (DsWindow          *self);

/* ds-window-pictures.c: the graph of the visible page, or NULL. */
GtkWidget        *_ds_window_get_visible_graph (DsWindow         *self);

/* The bar over a page showing an opened result (ds-window.c). */
void              _ds_window_update_opened    (DsWindow          *self);
/* A test a page ran itself (the monitor) is over (ds-window.c). */
void              _ds_window_page_finished_cb (DsWindow          *self,
                                               gboolean           success,
                                               DsPage            *page);
/* A page was made: it is told what the window knows (ds-window.c). */
void              _ds_window_page_made        (DsWindow          *self,
                                               DsPage            *page,
                                               DsBenchKind        kind);
/* ds-window-pages.c: every page's place in the stack; a page's widgets
 * when it is first shown or needed. */
void              _ds_window_add_pages        (DsWindow          *self);
DsPage           *_ds_window_ensure_page      (DsWindow          *self,
                                               const char        *name);
DsPage           *_ds_window_peek_page        (DsWindow          *self,
                                               const char        *name);
void              _ds_window_visible_page_changed_cb (DsWindow   *self,
                                                      GParamSpec *pspec,
                                                      AdwViewStack *stack);
void              _ds_window_page_row_selected_cb    (DsWindow      *self,
                                                      GtkListBoxRow *row,
                                                      GtkListBox    *box);

G_END_DECLS
