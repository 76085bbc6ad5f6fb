/* ds-library-history-view.c: the library window's History: the selected
 * result's device (matched by WWN or serial, not its /dev name) and each
 * test's headline figure over time, as `results history DEVICE` prints it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-library-history.h"
#include "ds-library-window-private.h"

static GtkWidget *
history_window (DsLibraryWindow       *self,
                const DsLibraryDevice *device)
{
  g_autofree char *text = ds_library_device_history (device, DS_UNITS_MB);
  g_autofree char *what = ds_library_device_describe (device);
  g_autofree char *title = g_strdup_printf (_("History of %s"), what);
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 420);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), scrolled);
  adw_window_set_content (ADW_WINDOW (window), box);

  return window;
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(DsLibraryEntry) entry = _ds_library_window_selected_one (self);
  g_autoptr(GPtrArray) devices = NULL;
  DsLibraryDevice *device;

  if (entry == NULL)
    return;
  /* From the entries the list holds (the index): no file is read. */
  devices = ds_library_get_devices (self->library);
  device = ds_library_device_of (devices, entry);
  if (device == NULL)
    return;
  gtk_window_present (GTK_WINDOW (history_window (self, device)));
}

void
_ds_library_window_class_history_init (DsLibraryWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "library.history", NULL, history_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_CONTROL_MASK, "library.history", NULL);
}
