/* ds-write-confirm-dialog.h: "type the device name" before a write test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DS_TYPE_WRITE_CONFIRM_DIALOG (ds_write_confirm_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DsWriteConfirmDialog, ds_write_confirm_dialog, DS, WRITE_CONFIRM_DIALOG,
                      AdwMessageDialog)

/* Asks, transient for @parent, to type @target_path.  "confirmed" is
 * emitted only when the user chose to destroy the data with exactly that
 * text typed; any other answer emits nothing. */
GtkWidget  *ds_write_confirm_dialog_new        (GtkWindow            *parent,
                                                const char           *target_path);
const char *ds_write_confirm_dialog_get_target (DsWriteConfirmDialog *self);
/* Words for an erase rather than a write test: @method_words says what
 * happens to every byte ("overwritten with zeros"). */
void        ds_write_confirm_dialog_set_erase  (DsWriteConfirmDialog *self,
                                                const char           *method_words);

/* Tells the user why a write test may not run at all (mounted, in use,
 * read-only): nothing to confirm. */
void        ds_write_confirm_dialog_refuse     (GtkWindow            *parent,
                                                const char           *message);

G_END_DECLS
