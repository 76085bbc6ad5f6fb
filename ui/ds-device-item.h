/* ds-device-item.h: a DsDevice in a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ds-device.h"

G_BEGIN_DECLS

#define DS_TYPE_DEVICE_ITEM (ds_device_item_get_type ())
G_DECLARE_FINAL_TYPE (DsDeviceItem, ds_device_item, DS, DEVICE_ITEM, GObject)

/* Takes @device. */
DsDeviceItem   *ds_device_item_new        (DsDevice     *device);
const DsDevice *ds_device_item_get_device (DsDeviceItem *self);
const char     *ds_device_item_get_path   (DsDeviceItem *self);
/* "QEMU HARDDISK (256 GB, /dev/vda)" */
const char     *ds_device_item_get_title  (DsDeviceItem *self);

G_END_DECLS
