/* ds-library-window.h: the results library, as a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-session.h"

G_BEGIN_DECLS

#define DS_TYPE_LIBRARY_WINDOW (ds_library_window_get_type ())
G_DECLARE_FINAL_TYPE (DsLibraryWindow, ds_library_window, DS, LIBRARY_WINDOW, AdwWindow)

/* Lists @session's library (reloaded from its folder now), transient for
 * @parent.  "open-result" (const char *path) asks the main window to show
 * a result. */
DsLibraryWindow *ds_library_window_new        (GtkWindow       *parent,
                                               DsSession       *session);
/* The model the list shows (filtered by the search and pending deletes,
 * in the chosen order) and its selection, for tests. */
GtkSelectionModel *ds_library_window_get_selection (DsLibraryWindow *self);
/* Types @text into the search entry. */
void             ds_library_window_search     (DsLibraryWindow *self,
                                               const char      *text);
/* Shows only the runs of the device @text names (its WWN or serial, or a
 * part of its model or path: ds_library_device_matches()), or all of them
 * when @text is NULL; FALSE when no device is so named. */
gboolean         ds_library_window_show_device (DsLibraryWindow *self,
                                                const char      *text);
/* Commits every delete still waiting for its undo (as closing does). */
void             ds_library_window_flush_deletes (DsLibraryWindow *self);

G_END_DECLS
