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
/* Whether every word of @search (case-insensitive) is found in the
 * device's path, name, model, vendor, serial, transport or size ("loop11",
 * "samsung 1tb", "2 GiB", "S4EWNX0R"). */
gboolean        ds_device_item_matches    (DsDeviceItem *self,
                                           const char   *search);

/* A loop device a snap package is mounted from (backing file under
 * /var/lib/snapd): there to run software, nothing to measure. */
gboolean        ds_device_is_snap         (const DsDevice *device);

G_END_DECLS
