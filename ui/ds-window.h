/* ds-window.h: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-session.h"

G_BEGIN_DECLS

#define DS_TYPE_WINDOW (ds_window_get_type ())
G_DECLARE_FINAL_TYPE (DsWindow, ds_window, DS, WINDOW, AdwApplicationWindow)

DsWindow   *ds_window_new             (AdwApplication *application);
/* The runs and results the window shows: scripts and tests save, open,
 * stop and read the last error through it (ds-session.h). */
DsSession  *ds_window_get_session     (DsWindow    *self);

/* For scripting (--device, --page, --folder, --start, --screenshot) and
 * tests: what the user does by hand. */
gboolean    ds_window_select_device   (DsWindow    *self,
                                       const char  *path,
                                       GError     **error);
const char *ds_window_get_device_path (DsWindow    *self);
/* A page by its name in the page table (ds-pages.h). */
gboolean    ds_window_set_page        (DsWindow    *self,
                                       const char  *name);
/* The page widget named @name (a DsPage), made now if it was never shown;
 * NULL for a name the page table does not hold. */
GtkWidget  *ds_window_get_page_widget (DsWindow    *self,
                                       const char  *name);
/* The File Benchmark's folder (it must exist). */
gboolean    ds_window_set_folder      (DsWindow    *self,
                                       const char  *path,
                                       GError     **error);
/* Starts the visible page's test, as Start does: a write test asks for
 * its confirmation first. */
gboolean    ds_window_start           (DsWindow    *self,
                                       GError     **error);
/* A script's Start (diskscope --start): as ds_window_start(), but nothing
 * is asked.  A write test runs only when @destroy_data names its target by
 * the rule diskscope-cli's --destroy-data=TARGET follows (the write gate
 * decides); without it, or on a target that may not be written at all,
 * FALSE with the gate's DS_ERROR_REFUSED, and nothing is written.  The
 * page shows the error, as after Start. */
gboolean    ds_window_start_confirmed (DsWindow    *self,
                                       const char  *destroy_data,
                                       GError     **error);
/* A script's setting of the visible page's controls (diskscope --write,
 * --preset NAME, --reads-only …; ds_page_set_option()): @option without
 * its dashes, @value NULL for a switch.  FALSE with
 * G_OPTION_ERROR_UNKNOWN_OPTION when the page has no such setting, or
 * G_OPTION_ERROR_BAD_VALUE for a value it does not offer. */
gboolean    ds_window_set_page_option (DsWindow    *self,
                                       const char  *option,
                                       const char  *value,
                                       GError     **error);
/* A PNG of the visible page (graph and figures) as it is on screen, with
 * a caption under it (device, test and settings, date, version) that is
 * also in the PNG's text chunks (Title, Description, Creation Time,
 * Software). */
gboolean    ds_window_save_screenshot (DsWindow    *self,
                                       const char  *path,
                                       GError     **error);
/* The same for the visible page's graph alone (G_IO_ERROR_NOT_FOUND on a
 * page without one). */
gboolean    ds_window_save_graph      (DsWindow    *self,
                                       const char  *path,
                                       GError     **error);

G_END_DECLS
