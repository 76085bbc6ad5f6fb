/* ds-window-devices.c: the window's device drop-down
 *
 * The header bar's drop-down shows the DsDeviceList (kept up to date from
 * kernel uevents).  The window remembers the selected device by its path,
 * so a refresh, which replaces every item, keeps it; the first time, the
 * device used last is selected, or else the largest fixed disk
 * (ds_device_list_pick()), leaving out what cannot be opened at all (a
 * system disk a container keeps even root from: EPERM), so the window
 * starts on a device the user can measure, or on none.  Every page is
 * told the device.
 *
 * Its search finds a device by any word of its path, model, serial or
 * size (ds_device_item_matches()); see device_search_string().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-window-private.h"

/* The drop-down's rows: in the list, the model (shortened at its end when
 * long) then the size and path; on the button, only the path and size, so
 * the header bar keeps room for the view switcher (the whole title is the
 * button's tooltip).  @user_data is non-NULL for the button. */
static void
device_row_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *model = gtk_label_new (NULL);
  GtkWidget *where = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (model), 0);
  gtk_label_set_ellipsize (GTK_LABEL (model), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (model), 11);
  gtk_label_set_max_width_chars (GTK_LABEL (model), 16);
  gtk_label_set_xalign (GTK_LABEL (where), 0);
  if (user_data == NULL)
    gtk_widget_add_css_class (where, "dim-label");
  gtk_box_append (GTK_BOX (box), model);
  gtk_box_append (GTK_BOX (box), where);
  gtk_widget_set_visible (model, user_data == NULL);
  gtk_list_item_set_child (list_item, box);
}

static void
device_row_bind_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    gpointer                  user_data)
{
  DsDeviceItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *model = gtk_widget_get_first_child (box);
  GtkWidget *where = gtk_widget_get_next_sibling (model);
  const DsDevice *device = item ? ds_device_item_get_device (item) : NULL;
  g_autofree char *size = NULL;
  g_autofree char *place = NULL;

  if (device == NULL)
    {
      gtk_label_set_label (GTK_LABEL (model), item ? ds_device_item_get_title (item) : NULL);
      gtk_label_set_label (GTK_LABEL (where), NULL);
      return;
    }

  size = ds_format_size (device->size_bytes);
  if (user_data != NULL)
    place = g_strdup_printf ("%s · %s", device->path, size);
  else
    place = g_strdup_printf ("%s · %s", size, device->path);
  gtk_label_set_label (GTK_LABEL (model), device->model ? device->model : device->name);
  gtk_label_set_label (GTK_LABEL (where), place);
  gtk_widget_set_tooltip_text (box, ds_device_item_get_title (item));
}

static DsDeviceItem *
selected_item (DsWindow *self)
{
  gpointer item = gtk_drop_down_get_selected_item (self->device_dropdown);

  return item != NULL ? DS_DEVICE_ITEM (item) : NULL;
}

const DsDevice *
_ds_window_get_device (DsWindow *self)
{
  DsDeviceItem *item = selected_item (self);

  return item != NULL ? ds_device_item_get_device (item) : NULL;
}

const char *
ds_window_get_device_path (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return self->device_path;
}

void
_ds_window_set_page_device (DsWindow    *self,
                            DsPage      *page,
                            DsBenchKind  kind)
{
  DsDeviceItem *item = selected_item (self);

  ds_page_set_device (page, item ? ds_device_item_get_device (item) : NULL);
}

gboolean
_ds_window_page_ignores_device (DsWindow *self)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);

  return info != NULL && info->kind < DS_BENCH_N_KINDS && !ds_session_kind_needs_device (info->kind);
}

static void
device_selected_cb (DsWindow *self)
{
  DsDeviceItem *item;
  g_autofree char *tooltip = NULL;

  /* A refresh replaces every item: "refreshed" selects the device again. */
  if (ds_device_list_is_refreshing (self->devices))
    return;

  item = selected_item (self);
  g_free (self->device_path);
  self->device_path = item ? g_strdup (ds_device_item_get_path (item)) : NULL;

  _ds_window_foreach_page (self, _ds_window_set_page_device);

  /* The whole title, where the button shortens it. */
  if (item != NULL)
    tooltip = g_strdup_printf (_("Device: %s"), ds_device_item_get_title (item));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_dropdown),
                               tooltip ? tooltip : _("Device"));

  if (self->device_path != NULL)
    g_settings_set_string (self->settings, "last-device", self->device_path);

  _ds_window_update_actions (self);
}

/* A fresh list: the same device stays selected; the first time, or when
 * it went away, the one used last or else the largest fixed disk, of
 * those that can be opened. */
static void
devices_refreshed_cb (DsWindow *self)
{
  g_autofree char *last = g_settings_get_string (self->settings, "last-device");
  guint position;

  if (ds_device_list_find (self->devices, self->device_path, &position) ||
      ds_device_list_pick (G_LIST_MODEL (self->devices), last, ds_device_list_can_open, &position))
    gtk_drop_down_set_selected (self->device_dropdown, position);
  else
    gtk_drop_down_set_selected (self->device_dropdown, GTK_INVALID_LIST_POSITION);

  device_selected_cb (self);

  /* A new selection makes the drop-down drop its search filter, while the
   * search entry still shows what was typed: filter again. */
  if (self->device_search != NULL &&
      gtk_editable_get_text (GTK_EDITABLE (self->device_search))[0] != '\0')
    g_signal_emit_by_name (self->device_search, "search-changed");
}

/* GtkDropDown's search in GTK 4.8 keeps the items whose expression's
 * string starts with the text typed (4.12 adds a match mode), which would
 * find "/dev/loop11" only by the start of its model's name.  So the
 * expression answers for each item with the typed text itself when the
 * item matches it anywhere (ds_device_item_matches()), and with its title
 * when not: the drop-down's own prefix test then keeps exactly the
 * matching items.  The typed text is read from the drop-down's search
 * entry, which has it before the drop-down filters again. */
static char *
device_search_string (DsDeviceItem *item,
                      DsWindow     *self)
{
  const char *search = self->device_search != NULL
                       ? gtk_editable_get_text (GTK_EDITABLE (self->device_search)) : NULL;

  if (item == NULL)
    return NULL;
  if (search != NULL && search[0] != '\0' && ds_device_item_matches (item, search))
    return g_strdup (search);

  return g_strdup (ds_device_item_get_title (item));
}

static GtkSearchEntry *
find_search_entry (GtkWidget *widget)
{
  if (GTK_IS_SEARCH_ENTRY (widget))
    return GTK_SEARCH_ENTRY (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkSearchEntry *found = find_search_entry (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

gboolean
ds_window_select_device (DsWindow    *self,
                         const char  *path,
                         GError     **error)
{
  guint position;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (!ds_device_list_lookup (self->devices, path, &position, error))
    return FALSE;

  gtk_drop_down_set_selected (self->device_dropdown, position);
  return TRUE;
}

void
_ds_window_devices_init (DsWindow *self)
{
  g_autoptr(GtkExpression) expression = NULL;
  g_autoptr(GtkListItemFactory) button_factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list_factory = gtk_signal_list_item_factory_new ();

  self->device_search = find_search_entry (GTK_WIDGET (self->device_dropdown));
  if (self->device_search != NULL)
    g_object_set (self->device_search, "placeholder-text", _("Path, model, serial or size"), NULL);
  expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                            G_CALLBACK (device_search_string), self, NULL);
  gtk_drop_down_set_expression (self->device_dropdown, expression);
  g_signal_connect (button_factory, "setup", G_CALLBACK (device_row_setup_cb), GINT_TO_POINTER (1));
  g_signal_connect (button_factory, "bind", G_CALLBACK (device_row_bind_cb), GINT_TO_POINTER (1));
  gtk_drop_down_set_factory (self->device_dropdown, button_factory);
  g_signal_connect (list_factory, "setup", G_CALLBACK (device_row_setup_cb), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (device_row_bind_cb), NULL);
  gtk_drop_down_set_list_factory (self->device_dropdown, list_factory);

  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (self->devices));
  g_signal_connect_object (self->device_dropdown, "notify::selected-item",
                           G_CALLBACK (device_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->devices, "refreshed",
                           G_CALLBACK (devices_refreshed_cb), self, G_CONNECT_SWAPPED);
  g_settings_bind (self->settings, "show-snap-devices", self->devices, "show-snaps",
                   G_SETTINGS_BIND_GET);

  /* The list is there already: select the device used last. */
  devices_refreshed_cb (self);
}
