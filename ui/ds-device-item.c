/* ds-device-item.c: a DsDevice in a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-device-item.h"

struct _DsDeviceItem
{
  GObject   parent_instance;

  DsDevice *device;
  char     *title;
};

G_DEFINE_FINAL_TYPE (DsDeviceItem, ds_device_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ds_device_item_finalize (GObject *object)
{
  DsDeviceItem *self = (DsDeviceItem *) object;

  g_clear_pointer (&self->device, ds_device_free);
  g_clear_pointer (&self->title, g_free);

  G_OBJECT_CLASS (ds_device_item_parent_class)->finalize (object);
}

static void
ds_device_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DsDeviceItem *self = DS_DEVICE_ITEM (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, ds_device_item_get_path (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_device_item_class_init (DsDeviceItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ds_device_item_finalize;
  object_class->get_property = ds_device_item_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ds_device_item_init (DsDeviceItem *self)
{
}

DsDeviceItem *
ds_device_item_new (DsDevice *device)
{
  DsDeviceItem *self;

  g_return_val_if_fail (device != NULL, NULL);

  self = g_object_new (DS_TYPE_DEVICE_ITEM, NULL);
  self->device = device;
  self->title = ds_device_describe (device);

  return self;
}

const DsDevice *
ds_device_item_get_device (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->device;
}

const char *
ds_device_item_get_path (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->device->path;
}

const char *
ds_device_item_get_title (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->title;
}
