/* ds-device.h: block devices, their identity, geometry, queue and in-use state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
  DS_DEVICE_DISK,       /* sd*, vd*, hd*, mmcblk* and other whole disks */
  DS_DEVICE_PARTITION,
  DS_DEVICE_LOOP,
  DS_DEVICE_ZRAM,
  DS_DEVICE_NVME,
  DS_DEVICE_MD,
  DS_DEVICE_DM,
  DS_DEVICE_OTHER,
} DsDeviceType;

typedef struct {
  char        *name;            /* "loop0", "sda1" (sysfs name) */
  char        *path;            /* "/dev/loop0" */
  char        *parent;          /* for partitions: the disk's name; else NULL */
  DsDeviceType type;
  unsigned     major;
  unsigned     minor;

  /* Identity; NULL where unknown. */
  char        *model;
  char        *vendor;
  char        *serial;
  char        *wwn;             /* the World Wide Name ("0x5000c500a1b2c3d4",
                                 * "naa.…", "eui.…"); NULL where none */
  char        *firmware;
  char        *transport;       /* "sata", "nvme", "usb", "virtio", ... */

  /* Geometry. */
  uint64_t     size_bytes;
  uint32_t     logical_block_size;
  uint32_t     physical_block_size;

  /* Queue settings. */
  gboolean     rotational;
  gboolean     removable;
  gboolean     read_only;
  char        *scheduler;       /* the active one, e.g. "mq-deadline", "none" */
  char        *write_cache;     /* "write back", "write through"; NULL if unknown */
  uint32_t     max_sectors_kb;

  /* Loop devices. */
  char        *backing_file;    /* NULL if not a loop device or unbound */
  int          loop_direct_io;  /* 1, 0, or -1 when unknown / not loop */

  /* In-use state. */
  char       **mountpoints;     /* NULL-terminated, never NULL */
  char       **holders;         /* sysfs holders/ names, never NULL */
  char       **partitions;      /* names of child partitions, never NULL */
  char        *signature;       /* libblkid: fs type ("ext4") or partition
                                 * table ("gpt", "dos"); NULL if none */
  char        *signature_label;
} DsDevice;

void          ds_device_free         (DsDevice        *device);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsDevice, ds_device_free)

/* All block devices, disks followed by their partitions, sorted by name.
 * Devices with size 0 (unbound loop, unset zram) are included; callers filter.
 * Returns a GPtrArray of DsDevice* (free func set), or NULL with @error. */
GPtrArray    *ds_device_list         (GError         **error);

/* Looks up one device by a path (/dev/X, a symlink to it, or a sysfs name).
 * NULL with DS_ERROR_NOT_FOUND if nothing is there, DS_ERROR_INVALID if
 * what is there is not a block device. */
DsDevice     *ds_device_lookup       (const char      *path,
                                      GError         **error);

/* The same without reading the device (no signature probe: signature and
 * signature_label are NULL): for opening a target, where a buffered read of
 * the device would show up in what is measured. */
DsDevice     *ds_device_lookup_identity (const char   *path,
                                         GError      **error);

/* TRUE if something uses the device: mounted (it or a partition), holders,
 * swap.  @ret_reason gets a user-facing sentence ("mounted at /mnt"). */
gboolean      ds_device_in_use       (const DsDevice  *device,
                                      char           **ret_reason);

/* The programs that have the block device @rdev open, from /proc/PID/fd:
 * "systemd-udevd (pid 412), fio (pid 9120)"; NULL when none does (or none
 * this process may see).  This process is left out. */
char         *ds_block_device_openers (dev_t           rdev);

const char   *ds_device_type_to_string (DsDeviceType   type);

/* A one-line description for menus: "QEMU HARDDISK (256 GB, /dev/vda)". */
char         *ds_device_describe     (const DsDevice  *device);

/* Watches for block devices coming and going (kernel uevents via libudev's
 * netlink monitor; works without udevd).  Poll the fd; when readable, call
 * ds_device_monitor_drain(): TRUE if a block device was added, removed or
 * changed, and the device list should be re-read. */
typedef struct _DsDeviceMonitor DsDeviceMonitor;

DsDeviceMonitor *ds_device_monitor_new   (GError         **error);
int              ds_device_monitor_get_fd (DsDeviceMonitor *monitor);
gboolean         ds_device_monitor_drain (DsDeviceMonitor *monitor);
void             ds_device_monitor_free  (DsDeviceMonitor *monitor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsDeviceMonitor, ds_device_monitor_free)

G_END_DECLS
