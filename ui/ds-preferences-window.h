/* ds-preferences-window.h: units, accuracy, block and file sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DS_TYPE_PREFERENCES_WINDOW (ds_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (DsPreferencesWindow, ds_preferences_window, DS, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *ds_preferences_window_new (GtkWindow *parent);

G_END_DECLS
