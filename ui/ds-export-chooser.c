/* ds-export-chooser.c: "where to save?", as the library and comparison ask it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-export-chooser.h"

GtkFileChooserNative *
ds_export_chooser_new (GtkWindow  *parent,
                       const char *title,
                       const char *name,
                       GCallback   response,
                       gpointer    user_data)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), NULL);

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", response, user_data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
  return chooser;
}
