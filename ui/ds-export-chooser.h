/* ds-export-chooser.h: "where to save?", as the library and comparison ask it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A native Save chooser transient for @parent, titled @title, with @name
 * suggested, shown now; @response (GtkNativeDialog *, int response,
 * gpointer @user_data) gets the answer.  Transfer full: keep it until the
 * response, and destroy it if @parent goes first. */
GtkFileChooserNative *ds_export_chooser_new (GtkWindow  *parent,
                                             const char *title,
                                             const char *name,
                                             GCallback   response,
                                             gpointer    user_data);

G_END_DECLS
