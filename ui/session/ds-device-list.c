/* ds-device-list.c: the block devices, kept up to date (a GListModel)
 *
 * The first listing is synchronous (the window opens with its devices);
 * later ones, after a uevent, run on a worker thread because listing
 * probes every device (libblkid reads them) and a busy disk can take a
 * while to answer.  The worker only builds a GPtrArray of DsDevice: the
 * items are replaced on the main thread, in one splice.
 *
 * The loop devices of snap packages (Ubuntu mounts every snap from one)
 * are listed last, or not at all unless "show-snaps" is set: they are
 * not what anyone measures, and there can be dozens of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <unistd.h>

#include "ds-device-list.h"

struct _DsDeviceList
{
  GObject          parent_instance;

  GListStore      *items;            /* DsDeviceItem */
  DsDeviceMonitor *monitor;
  guint            monitor_source;
  GCancellable    *cancellable;      /* of the refresh in progress */
  gboolean         frozen;
  gboolean         pending;          /* asked for while frozen */
  gboolean         refreshing;
  gboolean         show_snaps;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsDeviceList, ds_device_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  REFRESHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_SHOW_SNAPS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
ds_device_list_get_item_type (GListModel *model)
{
  return DS_TYPE_DEVICE_ITEM;
}

static guint
ds_device_list_get_n_items (GListModel *model)
{
  return g_list_model_get_n_items (G_LIST_MODEL (DS_DEVICE_LIST (model)->items));
}

static gpointer
ds_device_list_get_item (GListModel *model,
                         guint       position)
{
  return g_list_model_get_item (G_LIST_MODEL (DS_DEVICE_LIST (model)->items), position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = ds_device_list_get_item_type;
  iface->get_n_items = ds_device_list_get_n_items;
  iface->get_item = ds_device_list_get_item;
}

static void
items_changed_cb (DsDeviceList *self,
                  guint         position,
                  guint         removed,
                  guint         added,
                  GListModel   *store)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

GPtrArray *
ds_device_list_arrange (GPtrArray *devices,
                        gboolean   show_snaps)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) snaps = g_ptr_array_new ();

  for (guint i = 0; i < devices->len; i++)
    {
      DsDevice *device = devices->pdata[i];
      gboolean snap;

      /* Unbound loop devices and unset zram have nothing to measure. */
      if (device == NULL || device->size_bytes == 0)
        continue;

      snap = ds_device_is_snap (device);
      if (snap && !show_snaps)
        continue;

      devices->pdata[i] = NULL;
      g_ptr_array_add (snap ? snaps : items, ds_device_item_new (device));
    }

  /* In the core's order (disks, then their partitions, by name), the
   * snaps' loop devices last. */
  for (guint i = 0; i < snaps->len; i++)
    g_ptr_array_add (items, snaps->pdata[i]);

  return items;
}

/* Main thread: replaces the items with @devices (DsDevice*, taken). */
static void
apply (DsDeviceList *self,
       GPtrArray    *devices)
{
  g_autoptr(GPtrArray) items = ds_device_list_arrange (devices, self->show_snaps);

  self->refreshing = TRUE;
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  self->refreshing = FALSE;

  g_signal_emit (self, signals[REFRESHED], 0);
}

static void
list_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *devices = ds_device_list (&error);

  if (devices == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, devices, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;
  DsDeviceList *self;

  /* A cancelled refresh (a newer one, or the list is gone) stops here,
   * before @user_data is touched. */
  devices = g_task_propagate_pointer (G_TASK (result), &error);
  if (devices == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not list block devices: %s", error->message);
      return;
    }

  self = DS_DEVICE_LIST (user_data);
  g_clear_object (&self->cancellable);
  apply (self, devices);
}

void
ds_device_list_refresh (DsDeviceList *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DS_IS_DEVICE_LIST (self));

  if (self->frozen)
    {
      self->pending = TRUE;
      return;
    }

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  /* The task holds no reference: dispose cancels it, and a cancelled task
   * never reaches the list. */
  task = g_task_new (NULL, self->cancellable, list_done_cb, self);
  g_task_set_source_tag (task, ds_device_list_refresh);
  g_task_set_name (task, "[diskscope] list devices");
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, list_worker);
}

void
ds_device_list_set_frozen (DsDeviceList *self,
                           gboolean      frozen)
{
  g_return_if_fail (DS_IS_DEVICE_LIST (self));

  self->frozen = !!frozen;
  if (!self->frozen && self->pending)
    {
      self->pending = FALSE;
      ds_device_list_refresh (self);
    }
}

gboolean
ds_device_list_is_refreshing (DsDeviceList *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_LIST (self), FALSE);

  return self->refreshing;
}

gboolean
ds_device_list_find (DsDeviceList *self,
                     const char   *path,
                     guint        *ret_position)
{
  guint n;

  g_return_val_if_fail (DS_IS_DEVICE_LIST (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 0; path != NULL && i < n; i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      if (g_strcmp0 (ds_device_item_get_path (item), path) == 0)
        {
          if (ret_position != NULL)
            *ret_position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* A whole disk that stays: not a loop, zram, partition or mapping, not
 * removable. */
static gboolean
is_fixed_disk (const DsDevice *device)
{
  return (device->type == DS_DEVICE_DISK || device->type == DS_DEVICE_NVME ||
          device->type == DS_DEVICE_MD) && !device->removable;
}

gboolean
ds_device_list_can_open (const DsDevice *device)
{
  int fd = open (device->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

  if (fd >= 0)
    {
      close (fd);
      return TRUE;
    }

  return errno == EACCES;
}

gboolean
ds_device_list_pick (GListModel         *model,
                     const char         *last_path,
                     DsDeviceUsableFunc  usable,
                     guint              *ret_position)
{
  guint n = g_list_model_get_n_items (model);
  guint best = G_MAXUINT, first = G_MAXUINT, any = G_MAXUINT;
  uint64_t best_size = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (model, i);
      const DsDevice *device = ds_device_item_get_device (item);

      if (usable != NULL && !usable (device))
        continue;
      if (any == G_MAXUINT)
        any = i;
      if (last_path != NULL && g_strcmp0 (device->path, last_path) == 0)
        {
          *ret_position = i;
          return TRUE;
        }
      if (is_fixed_disk (device) && (best == G_MAXUINT || device->size_bytes > best_size))
        {
          best = i;
          best_size = device->size_bytes;
        }
      if (first == G_MAXUINT && !ds_device_is_snap (device))
        first = i;
    }

  if (best == G_MAXUINT)
    best = first;
  if (best == G_MAXUINT)
    best = any;
  if (best == G_MAXUINT)
    return FALSE;

  *ret_position = best;
  return TRUE;
}

gboolean
ds_device_list_get_show_snaps (DsDeviceList *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_LIST (self), FALSE);

  return self->show_snaps;
}

void
ds_device_list_set_show_snaps (DsDeviceList *self,
                               gboolean      show_snaps)
{
  g_return_if_fail (DS_IS_DEVICE_LIST (self));

  show_snaps = !!show_snaps;
  if (self->show_snaps == show_snaps)
    return;

  self->show_snaps = show_snaps;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SNAPS]);
  ds_device_list_refresh (self);
}

gboolean
ds_device_list_lookup (DsDeviceList  *self,
                       const char    *path,
                       guint         *ret_position,
                       GError       **error)
{
  g_autoptr(DsDevice) device = NULL;
  guint position;

  g_return_val_if_fail (DS_IS_DEVICE_LIST (self), FALSE);

  if (ds_device_list_find (self, path, ret_position))
    return TRUE;

  device = ds_device_lookup (path, error);
  if (device == NULL)
    return FALSE;

  if (!ds_device_list_find (self, device->path, &position))
    {
      g_autoptr(DsDeviceItem) item = ds_device_item_new (g_steal_pointer (&device));

      g_list_store_append (self->items, item);
      position = g_list_model_get_n_items (G_LIST_MODEL (self->items)) - 1;
    }

  if (ret_position != NULL)
    *ret_position = position;
  return TRUE;
}

static gboolean
monitor_ready_cb (int          fd,
                  GIOCondition condition,
                  gpointer     user_data)
{
  DsDeviceList *self = user_data;

  if (ds_device_monitor_drain (self->monitor))
    ds_device_list_refresh (self);

  return G_SOURCE_CONTINUE;
}

static void
ds_device_list_dispose (GObject *object)
{
  DsDeviceList *self = (DsDeviceList *) object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->monitor_source, g_source_remove);
  g_clear_pointer (&self->monitor, ds_device_monitor_free);

  G_OBJECT_CLASS (ds_device_list_parent_class)->dispose (object);
}

static void
ds_device_list_finalize (GObject *object)
{
  DsDeviceList *self = (DsDeviceList *) object;

  g_clear_object (&self->items);

  G_OBJECT_CLASS (ds_device_list_parent_class)->finalize (object);
}

static void
ds_device_list_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DsDeviceList *self = DS_DEVICE_LIST (object);

  switch (prop_id)
    {
    case PROP_SHOW_SNAPS:
      g_value_set_boolean (value, self->show_snaps);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_device_list_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DsDeviceList *self = DS_DEVICE_LIST (object);

  switch (prop_id)
    {
    case PROP_SHOW_SNAPS:
      ds_device_list_set_show_snaps (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_device_list_class_init (DsDeviceListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ds_device_list_dispose;
  object_class->finalize = ds_device_list_finalize;
  object_class->get_property = ds_device_list_get_property;
  object_class->set_property = ds_device_list_set_property;

  properties[PROP_SHOW_SNAPS] =
    g_param_spec_boolean ("show-snaps", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DsDeviceList::refreshed:
   *
   * The items were replaced by a fresh listing (a selection kept by
   * position is lost: find the device again by its path).
   */
  signals[REFRESHED] =
    g_signal_new ("refreshed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
ds_device_list_init (DsDeviceList *self)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;

  self->items = g_list_store_new (DS_TYPE_DEVICE_ITEM);
  g_signal_connect_object (self->items, "items-changed", G_CALLBACK (items_changed_cb), self,
                           G_CONNECT_SWAPPED);

  /* Devices come and go (losetup, USB): follow the kernel's uevents. */
  self->monitor = ds_device_monitor_new (&error);
  if (self->monitor != NULL)
    self->monitor_source = g_unix_fd_add (ds_device_monitor_get_fd (self->monitor),
                                          G_IO_IN, monitor_ready_cb, self);
  else
    g_debug ("No device monitor: %s", error->message);
  g_clear_error (&error);

  devices = ds_device_list (&error);
  if (devices != NULL)
    apply (self, devices);
  else
    g_warning ("Could not list block devices: %s", error->message);
}

DsDeviceList *
ds_device_list_new (void)
{
  return g_object_new (DS_TYPE_DEVICE_LIST, NULL);
}
