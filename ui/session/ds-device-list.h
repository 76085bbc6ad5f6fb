/* ds-device-list.h: the block devices, kept up to date (a GListModel)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ds-device-item.h"

G_BEGIN_DECLS

#define DS_TYPE_DEVICE_LIST (ds_device_list_get_type ())
G_DECLARE_FINAL_TYPE (DsDeviceList, ds_device_list, DS, DEVICE_LIST, GObject)

/* Lists the devices now, then follows the kernel's uevents (a device
 * attached or removed shows up by itself).  Items are DsDeviceItem. */
DsDeviceList *ds_device_list_new            (void);
/* Lists again, on a worker thread; "refreshed" follows on this thread. */
void          ds_device_list_refresh        (DsDeviceList  *self);
/* While frozen (a test runs, the drop-down is locked) the list does not
 * change: refreshes wait, and the last one asked for runs on thaw. */
void          ds_device_list_set_frozen     (DsDeviceList  *self,
                                             gboolean       frozen);
/* TRUE while a refresh replaces the items: selection changes seen then
 * are the list's doing, not the user's. */
gboolean      ds_device_list_is_refreshing  (DsDeviceList  *self);
/* Whether the loop devices of snap packages are listed (last); they are
 * not by default.  Changing it lists the devices again. */
gboolean      ds_device_list_get_show_snaps (DsDeviceList  *self);
void          ds_device_list_set_show_snaps (DsDeviceList  *self,
                                             gboolean       show_snaps);
gboolean      ds_device_list_find           (DsDeviceList  *self,
                                             const char    *path,
                                             guint         *ret_position);
/* Finds @path, resolving a symlink and adding a device the list does not
 * have yet (a scripted --device can come before the uevent). */
gboolean      ds_device_list_lookup         (DsDeviceList  *self,
                                             const char    *path,
                                             guint         *ret_position,
                                             GError       **error);

/* Whether a window may start on @device (ds_device_list_pick()). */
typedef gboolean (*DsDeviceUsableFunc) (const DsDevice *device);

/* The device a window starts on, in @model (DsDeviceItem), among those
 * @usable accepts (NULL: all): @last_path if it is there, else the
 * largest whole disk that is not a loop device and not removable, else
 * the first device that is not a snap's, else a snap's.  FALSE when there
 * is none. */
gboolean      ds_device_list_pick           (GListModel    *model,
                                             const char    *last_path,
                                             DsDeviceUsableFunc usable,
                                             guint         *ret_position);
/* A DsDeviceUsableFunc: @device opens for reading now, or only the
 * permission is missing (udisks2 may open it when polkit agrees).  Not
 * when the kernel refuses it otherwise: EPERM (a container's or a
 * lockdown's rule, where even root cannot open the system disk), no
 * medium, gone. */
gboolean      ds_device_list_can_open       (const DsDevice *device);
/* What a listing (DsDevice*, as ds_device_list() gives them) shows, as
 * DsDeviceItem*: devices of size 0 left out, snaps last or left out.
 * Takes the devices it keeps out of @devices (their slots become NULL). */
GPtrArray    *ds_device_list_arrange        (GPtrArray     *devices,
                                             gboolean       show_snaps);

G_END_DECLS
