/* ds-export-chooser.h: "where to save?", then the export on a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Writes what @data describes to @path; runs on a worker thread. */
typedef gboolean (*DsExportFunc) (gpointer     data,
                                  const char  *path,
                                  GError     **error);

/* Shows a native Save chooser transient for @parent (@title, @name
 * suggested) and stores it in *@chooser_slot, which the caller destroys
 * if @parent goes first.  On an answer the slot is cleared and @func
 * (@data, path) runs on a worker thread; a toast on @toasts then says
 * @done or the error.  @data is freed with @destroy when all is over. */
void ds_export_ask (GtkWindow             *parent,
                    GtkFileChooserNative **chooser_slot,
                    AdwToastOverlay       *toasts,
                    const char            *title,
                    const char            *name,
                    const char            *done,
                    DsExportFunc           func,
                    gpointer               data,
                    GDestroyNotify         destroy,
                    GCancellable          *cancellable);

G_END_DECLS
