/* ds-window.h: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-result.h"

G_BEGIN_DECLS

#define DS_TYPE_WINDOW (ds_window_get_type ())
G_DECLARE_FINAL_TYPE (DsWindow, ds_window, DS, WINDOW, AdwApplicationWindow)

DsWindow *ds_window_new             (AdwApplication *application);

/* For scripting (--device, --page, --start, --screenshot) and tests. */
gboolean  ds_window_select_device   (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);
const char *ds_window_get_device_path (DsWindow  *self);
gboolean  ds_window_set_page        (DsWindow    *self,
                                     const char  *name);
/* The File Benchmark's folder (it must exist). */
gboolean  ds_window_set_folder      (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);
/* 0: the accuracy from the settings. */
void      ds_window_set_accuracy    (DsWindow    *self,
                                     unsigned     accuracy);
/* Starts the visible page's test (read tests only: a write test goes
 * through its confirmation dialog). */
gboolean  ds_window_start           (DsWindow    *self,
                                     GError     **error);
void      ds_window_stop            (DsWindow    *self);
gboolean  ds_window_is_running      (DsWindow    *self);
/* The error the last run ended with, as the page shows it; NULL when it
 * succeeded or was stopped. */
const char *ds_window_get_last_error (DsWindow   *self);
/* What the menu does, without the file chooser (for scripts and tests). */
gboolean  ds_window_save_report     (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);
gboolean  ds_window_save_result     (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);
/* Shows a saved run on its page (and makes it the page's result). */
gboolean  ds_window_open_result     (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);
/* The visible page's result (the last run or the one opened), or NULL. */
const DsResult *ds_window_get_result (DsWindow   *self);
/* A PNG of the visible page (graph and figures) as it is on screen. */
gboolean  ds_window_save_screenshot (DsWindow    *self,
                                     const char  *path,
                                     GError     **error);

G_END_DECLS
