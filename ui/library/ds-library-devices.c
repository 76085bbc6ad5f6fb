/* ds-library-devices.c: the library window's device filter
 *
 * A storage team's library holds the runs of many drives; the header's
 * drop-down groups them by physical device (ds_library_get_devices: by
 * WWN or serial, never by /dev name) and shows one device's runs, or all.
 * The list of devices is made again when the library changes, at most
 * once per main-loop turn, and keeps the device shown (found again by one
 * of its runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-library-history.h"
#include "ds-library-window-private.h"

/* The ids of the shown device's runs, or NULL: all devices. */
static GHashTable *
ids_of (const DsLibraryDevice *device)
{
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < device->entries->len; i++)
    g_hash_table_add (ids, g_strdup (ds_library_entry_get_id (device->entries->pdata[i])));
  return ids;
}

gboolean
_ds_library_window_device_shows (DsLibraryWindow *self,
                                 DsLibraryEntry  *entry)
{
  return self->device_ids == NULL ||
         g_hash_table_contains (self->device_ids, ds_library_entry_get_id (entry));
}

DsLibraryDevice *
_ds_library_window_shown_device (DsLibraryWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->device_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION && selected > 0 && self->devices != NULL &&
      selected - 1 < self->devices->len)
    return self->devices->pdata[selected - 1];
  return NULL;
}

static void
device_selected_cb (DsLibraryWindow *self)
{
  DsLibraryDevice *device;

  if (self->updating_devices)
    return;
  device = _ds_library_window_shown_device (self);
  /* All devices before and after: the rows stand as they are (a save
   * into a library of 10 000 runs filters nothing again). */
  if (device == NULL && self->device_ids == NULL)
    return;
  g_clear_pointer (&self->device_ids, g_hash_table_unref);
  if (device != NULL)
    self->device_ids = ids_of (device);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  _ds_library_window_update_actions (self);
}

/* The device of the new list that holds one of @ids (the runs of the
 * device shown before), as its position in the drop-down; 0 (all) when
 * none does. */
static guint
position_of (GPtrArray  *devices,
             GHashTable *ids)
{
  if (ids == NULL)
    return 0;
  for (guint i = 0; i < devices->len; i++)
    {
      DsLibraryDevice *device = devices->pdata[i];

      for (guint j = 0; j < device->entries->len; j++)
        if (g_hash_table_contains (ids, ds_library_entry_get_id (device->entries->pdata[j])))
          return i + 1;
    }
  return 0;
}

static gboolean
update_devices_cb (gpointer user_data)
{
  DsLibraryWindow *self = user_data;
  g_autoptr(GPtrArray) devices = ds_library_get_devices (self->library);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint position;

  self->update_devices_id = 0;

  gtk_string_list_append (names, _("All Devices"));
  for (guint i = 0; i < devices->len; i++)
    {
      DsLibraryDevice *device = devices->pdata[i];
      g_autofree char *what = ds_library_device_describe (device);
      g_autofree char *name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u run", "%s: %u runs",
                                                            device->entries->len),
                                               what, device->entries->len);

      gtk_string_list_append (names, name);
    }

  position = position_of (devices, self->device_ids);
  self->updating_devices = TRUE;
  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->device_dropdown, position);
  self->updating_devices = FALSE;
  /* One device has nothing to choose between. */
  gtk_widget_set_visible (GTK_WIDGET (self->device_dropdown), devices->len > 1);

  g_clear_pointer (&self->devices, g_ptr_array_unref);
  self->devices = g_steal_pointer (&devices);
  device_selected_cb (self);

  return G_SOURCE_REMOVE;
}

static void
library_changed_cb (DsLibraryWindow *self)
{
  if (self->update_devices_id == 0)
    self->update_devices_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, update_devices_cb, self, NULL);
}

void
_ds_library_window_devices_init (DsLibraryWindow *self)
{
  g_signal_connect_object (self->library, "items-changed", G_CALLBACK (library_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->device_dropdown, "notify::selected", G_CALLBACK (device_selected_cb), self,
                           G_CONNECT_SWAPPED);
  /* After the first frame: a library of 10 000 runs lists its rows first. */
  library_changed_cb (self);
}

void
_ds_library_window_devices_dispose (DsLibraryWindow *self)
{
  g_clear_handle_id (&self->update_devices_id, g_source_remove);
  g_clear_pointer (&self->devices, g_ptr_array_unref);
  g_clear_pointer (&self->device_ids, g_hash_table_unref);
}

GPtrArray *
_ds_library_window_devices (DsLibraryWindow *self)
{
  if (self->update_devices_id != 0)
    {
      g_clear_handle_id (&self->update_devices_id, g_source_remove);
      update_devices_cb (self);
    }
  return self->devices;
}

gboolean
ds_library_window_show_device (DsLibraryWindow *self,
                               const char      *text)
{
  g_return_val_if_fail (DS_IS_LIBRARY_WINDOW (self), FALSE);

  _ds_library_window_devices (self);
  if (text == NULL)
    {
      gtk_drop_down_set_selected (self->device_dropdown, 0);
      return TRUE;
    }
  for (guint i = 0; self->devices != NULL && i < self->devices->len; i++)
    if (ds_library_device_matches (self->devices->pdata[i], text))
      {
        gtk_drop_down_set_selected (self->device_dropdown, i + 1);
        return TRUE;
      }
  return FALSE;
}
