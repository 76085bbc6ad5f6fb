/* ds-write-confirm-dialog.c: "type the device name" before a write test
 *
 * A write test overwrites the target.  The user confirms by typing its
 * path: the Destroy button is enabled only while the entry holds exactly
 * that, and only that text confirms (a "destroy" response reached another
 * way, with anything else typed, does nothing).  The core's gate checks
 * the typed name again when the run opens the target.  Whether a spec
 * needs this at all is decided in one place: ds_session_check_write().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-page.h"
#include "ds-write-confirm-dialog.h"

struct _DsWriteConfirmDialog
{
  AdwMessageDialog  parent_instance;

  char             *target_path;

  /* Template widgets */
  GtkEntry         *entry;
};

G_DEFINE_FINAL_TYPE (DsWriteConfirmDialog, ds_write_confirm_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum {
  CONFIRMED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
typed_target (DsWriteConfirmDialog *self)
{
  return g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->target_path) == 0;
}

static void
entry_changed_cb (DsWriteConfirmDialog *self,
                  GtkEditable          *entry)
{
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "destroy",
                                           typed_target (self));
}

static void
ds_write_confirm_dialog_response (AdwMessageDialog *dialog,
                                  const char       *response)
{
  DsWriteConfirmDialog *self = DS_WRITE_CONFIRM_DIALOG (dialog);

  if (g_strcmp0 (response, "destroy") == 0 && typed_target (self))
    g_signal_emit (self, signals[CONFIRMED], 0);
}

static void
ds_write_confirm_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DS_TYPE_WRITE_CONFIRM_DIALOG);

  G_OBJECT_CLASS (ds_write_confirm_dialog_parent_class)->dispose (object);
}

static void
ds_write_confirm_dialog_finalize (GObject *object)
{
  DsWriteConfirmDialog *self = (DsWriteConfirmDialog *) object;

  g_clear_pointer (&self->target_path, g_free);

  G_OBJECT_CLASS (ds_write_confirm_dialog_parent_class)->finalize (object);
}

static void
ds_write_confirm_dialog_class_init (DsWriteConfirmDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->dispose = ds_write_confirm_dialog_dispose;
  object_class->finalize = ds_write_confirm_dialog_finalize;
  dialog_class->response = ds_write_confirm_dialog_response;

  /**
   * DsWriteConfirmDialog::confirmed:
   *
   * The user typed the target's path and chose to destroy its data.
   */
  signals[CONFIRMED] =
    g_signal_new ("confirmed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "ui/ds-write-confirm-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DsWriteConfirmDialog, entry);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
}

static void
ds_write_confirm_dialog_init (DsWriteConfirmDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ds_write_confirm_dialog_new (GtkWindow  *parent,
                             const char *target_path)
{
  DsWriteConfirmDialog *self;
  g_autofree char *heading = NULL;

  g_return_val_if_fail (target_path != NULL, NULL);

  self = g_object_new (DS_TYPE_WRITE_CONFIRM_DIALOG, "transient-for", parent, NULL);
  self->target_path = g_strdup (target_path);

  /* The heading wraps between words, never inside the path. */
  heading = ds_markup_unbreakable (_("Destroy All Data on %s?"), target_path);
  adw_message_dialog_set_heading_use_markup (ADW_MESSAGE_DIALOG (self), TRUE);
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), heading);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (self),
                                  _("A write test overwrites the device with test data. "
                                    "Everything stored on %s will be lost, and it cannot be undone.\n\n"
                                    "Type the device path to confirm."),
                                  target_path);
  gtk_entry_set_placeholder_text (self->entry, target_path);

  return GTK_WIDGET (self);
}

const char *
ds_write_confirm_dialog_get_target (DsWriteConfirmDialog *self)
{
  g_return_val_if_fail (DS_IS_WRITE_CONFIRM_DIALOG (self), NULL);

  return self->target_path;
}

void
ds_write_confirm_dialog_set_erase (DsWriteConfirmDialog *self,
                                   const char           *method_words)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (self);

  g_return_if_fail (DS_IS_WRITE_CONFIRM_DIALOG (self));

  adw_message_dialog_format_heading (dialog, _("Erase Everything on %s?"), self->target_path);
  /* Translators: the device, what happens to its bytes, the device */
  adw_message_dialog_format_body (dialog,
                                  _("Every byte of %s will be %s: its partitions, file systems "
                                    "and files are lost for good.\n\nType the device path to confirm."),
                                  self->target_path, method_words);
  adw_message_dialog_set_response_label (dialog, "destroy", _("_Erase Everything"));
}

void
ds_write_confirm_dialog_refuse (GtkWindow  *parent,
                                const char *message)
{
  GtkWidget *dialog = adw_message_dialog_new (parent, _("Write Test Refused"), message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}
