/* ds-device.c: block devices: enumeration, lookup, identity, geometry
 * and queue settings
 *
 * Everything comes from sysfs (/sys/class/block/NAME), which every kernel
 * has, with libudev's database on top for identity where udevd keeps one
 * (/run/udev/data).  In-use state and signatures: ds-device-usage.c; the
 * uevent monitor: ds-device-monitor.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <libudev.h>

#include "ds-device-facts.h"
#include "ds-error.h"
#include "ds-units.h"

typedef struct udev DsUdev;
typedef struct udev_device DsUdevDevice;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsUdevDevice, udev_device_unref)

/* ---- identity ---- */

/* ID_MODEL uses '_' for spaces. */
static char *
udev_string (DsUdevDevice *udev_device,
             const char   *key)
{
  const char *value;
  char *copy;

  if (udev_device == NULL)
    return NULL;
  value = udev_device_get_property_value (udev_device, key);
  if (value == NULL || value[0] == '\0')
    return NULL;
  copy = g_strdup (value);
  g_strdelimit (copy, "_", ' ');
  g_strstrip (copy);

  return copy;
}

static char *
transport_from_path (const char *devpath)
{
  if (devpath == NULL)
    return NULL;
  if (strstr (devpath, "/usb") != NULL)
    return g_strdup ("usb");
  if (strstr (devpath, "/nvme") != NULL)
    return g_strdup ("nvme");
  if (strstr (devpath, "/ata") != NULL)
    return g_strdup ("sata");
  if (strstr (devpath, "/virtio") != NULL)
    return g_strdup ("virtio");
  if (strstr (devpath, "/mmc") != NULL)
    return g_strdup ("mmc");
  if (strstr (devpath, "/host") != NULL && strstr (devpath, "/target") != NULL)
    return g_strdup ("scsi");

  return NULL;
}

static void
fill_identity (DsDevice     *device,
               const char   *sysdir,
               DsUdevDevice *udev_device)
{
  g_autofree char *devdir = g_build_filename (sysdir, "device", NULL);

  device->model = udev_string (udev_device, "ID_MODEL");
  device->vendor = udev_string (udev_device, "ID_VENDOR");
  device->serial = udev_string (udev_device, "ID_SERIAL_SHORT");
  device->wwn = udev_string (udev_device, "ID_WWN_WITH_EXTENSION");
  if (device->wwn == NULL)
    device->wwn = udev_string (udev_device, "ID_WWN");
  device->firmware = udev_string (udev_device, "ID_REVISION");
  device->transport = udev_string (udev_device, "ID_BUS");
  if (device->transport != NULL)
    {
      g_autofree char *lower = g_ascii_strdown (device->transport, -1);

      g_free (device->transport);
      device->transport = g_steal_pointer (&lower);
    }

  if (device->model == NULL)
    device->model = ds_sysfs_read_attr (devdir, "model");
  if (device->vendor == NULL)
    device->vendor = ds_sysfs_read_attr (devdir, "vendor");
  if (device->serial == NULL)
    device->serial = ds_sysfs_read_attr (devdir, "serial");
  if (device->serial == NULL)
    device->serial = ds_sysfs_read_attr (sysdir, "serial");     /* virtio-blk */
  if (device->wwn == NULL)
    device->wwn = ds_sysfs_read_attr (sysdir, "wwid");        /* NVMe */
  if (device->wwn == NULL)
    device->wwn = ds_sysfs_read_attr (devdir, "wwid");        /* SCSI */
  if (device->serial == NULL)
    device->serial = ds_sysfs_read_attr (sysdir, "wwid");
  if (device->serial == NULL)
    device->serial = ds_sysfs_read_attr (devdir, "wwid");
  if (device->firmware == NULL)
    device->firmware = ds_sysfs_read_attr (devdir, "firmware_rev");
  if (device->firmware == NULL)
    device->firmware = ds_sysfs_read_attr (devdir, "rev");
  if (device->transport == NULL)
    {
      char *real = realpath (sysdir, NULL);

      device->transport = transport_from_path (real);
      free (real);
    }

  /* virtio reports its PCI vendor id; say what it is. */
  if (g_strcmp0 (device->vendor, "0x1af4") == 0)
    g_clear_pointer (&device->vendor, g_free);
  if (device->model == NULL && g_strcmp0 (device->transport, "virtio") == 0)
    device->model = g_strdup ("Virtio block device");
  if (device->transport != NULL && g_str_equal (device->transport, "ata"))
    {
      g_free (device->transport);
      device->transport = g_strdup ("sata");
    }
}

static DsDeviceType
classify (const char *name,
          const char *sysdir)
{
  if (ds_sysfs_attr_exists (sysdir, "partition"))
    return DS_DEVICE_PARTITION;
  if (g_str_has_prefix (name, "loop"))
    return DS_DEVICE_LOOP;
  if (g_str_has_prefix (name, "zram"))
    return DS_DEVICE_ZRAM;
  if (g_str_has_prefix (name, "nvme"))
    return DS_DEVICE_NVME;
  if (g_str_has_prefix (name, "md"))
    return DS_DEVICE_MD;
  if (g_str_has_prefix (name, "dm-"))
    return DS_DEVICE_DM;
  if (ds_sysfs_attr_exists (sysdir, "device"))
    return DS_DEVICE_DISK;

  return DS_DEVICE_OTHER;
}

/* The model a kind of device has (the kernel names no vendor for them),
 * and a loop device's backing file and direct I/O. */
static void
fill_kind (DsDevice   *device,
           const char *sysdir)
{
  switch (device->type)
    {
    case DS_DEVICE_LOOP:
      g_free (device->model);
      device->model = g_strdup ("Loop device");
      device->backing_file = ds_sysfs_read_attr (sysdir, "loop/backing_file");
      if (device->backing_file != NULL)
        device->loop_direct_io = (int) ds_sysfs_read_u64_or (sysdir, "loop/dio", 0) != 0;
      break;

    case DS_DEVICE_ZRAM:
      g_free (device->model);
      device->model = g_strdup ("zram");
      break;

    case DS_DEVICE_DM:
      {
        g_autofree char *dm_name = ds_sysfs_read_attr (sysdir, "dm/name");

        if (device->model == NULL)
          device->model = dm_name ? g_strdup_printf ("Device mapper: %s", dm_name)
                                  : g_strdup ("Device mapper");
      }
      break;

    case DS_DEVICE_MD:
      {
        g_autofree char *level = ds_sysfs_read_attr (sysdir, "md/level");

        if (device->model == NULL)
          device->model = level ? g_strdup_printf ("Linux RAID (%s)", level)
                                : g_strdup ("Linux RAID");
      }
      break;

    case DS_DEVICE_DISK:
    case DS_DEVICE_PARTITION:
    case DS_DEVICE_NVME:
    case DS_DEVICE_OTHER:
    default:
      break;
    }
}

/* Size, blocks and queue settings (a partition's queue is its disk's, in
 * @diskdir). */
static void
fill_geometry (DsDevice   *device,
               const char *sysdir,
               const char *diskdir)
{
  g_autofree char *scheduler = NULL;

  /* size is always in 512-byte sectors, whatever the logical block size. */
  device->size_bytes = ds_sysfs_read_u64_or (sysdir, "size", 0) * 512;
  device->logical_block_size = (uint32_t) ds_sysfs_read_u64_or (diskdir, "queue/logical_block_size", 512);
  device->physical_block_size = (uint32_t) ds_sysfs_read_u64_or (diskdir, "queue/physical_block_size",
                                                        device->logical_block_size);
  device->rotational = ds_sysfs_read_u64_or (diskdir, "queue/rotational", 0) != 0;
  device->removable = ds_sysfs_read_u64_or (diskdir, "removable", 0) != 0;
  device->read_only = ds_sysfs_read_u64_or (sysdir, "ro", 0) != 0;
  scheduler = ds_sysfs_read_attr (diskdir, "queue/scheduler");
  device->scheduler = ds_sysfs_parse_scheduler (scheduler);
  device->write_cache = ds_sysfs_read_attr (diskdir, "queue/write_cache");
  device->max_sectors_kb = (uint32_t) ds_sysfs_read_u64_or (diskdir, "queue/max_sectors_kb", 0);
}

/* A partition's identity is its disk's. */
static void
fill_partition_identity (DsDevice   *device,
                         const char *diskdir,
                         DsUdev     *udev)
{
  g_autoptr (DsUdevDevice) parent_udev = NULL;
  DsDevice *parent_identity = g_new0 (DsDevice, 1);

  if (udev != NULL)
    parent_udev = udev_device_new_from_syspath (udev, diskdir);
  fill_identity (parent_identity, diskdir, parent_udev);
  device->model = g_steal_pointer (&parent_identity->model);
  device->vendor = g_steal_pointer (&parent_identity->vendor);
  device->transport = g_steal_pointer (&parent_identity->transport);
  ds_device_free (parent_identity);
}

/* Builds the record of /sys/class/block/@name.  @mounts from ds_mounts_read();
 * @udev may be NULL (no database); @probe: read the device for signatures. */
static DsDevice *
device_new_from_sysfs (const char *name,
                       GPtrArray  *mounts,
                       DsUdev     *udev,
                       gboolean    probe)
{
  g_autofree char *link = g_build_filename (SYS_CLASS_BLOCK, name, NULL);
  g_autofree char *sysdir = NULL;
  g_autofree char *diskdir = NULL;
  g_autofree char *dev = NULL;
  g_autoptr (DsUdevDevice) udev_device = NULL;
  g_autoptr (DsDevice) device = NULL;
  char *real;

  real = realpath (link, NULL);
  if (real == NULL)
    return NULL;
  sysdir = g_strdup (real);
  free (real);

  device = g_new0 (DsDevice, 1);
  device->name = g_strdup (name);
  device->path = g_build_filename ("/dev", name, NULL);
  device->type = classify (name, sysdir);
  device->loop_direct_io = -1;

  dev = ds_sysfs_read_attr (sysdir, "dev");
  if (dev == NULL || sscanf (dev, "%u:%u", &device->major, &device->minor) != 2)
    return NULL;

  /* Partitions have no queue/ or device/: those belong to the disk. */
  if (device->type == DS_DEVICE_PARTITION)
    {
      diskdir = g_path_get_dirname (sysdir);
      device->parent = g_path_get_basename (diskdir);
      fill_partition_identity (device, diskdir, udev);
    }
  else
    {
      diskdir = g_strdup (sysdir);
      if (udev != NULL)
        udev_device = udev_device_new_from_syspath (udev, sysdir);
      fill_identity (device, sysdir, udev_device);
    }
  fill_kind (device, sysdir);
  fill_geometry (device, sysdir, diskdir);

  device->mountpoints = ds_mounts_points_for (mounts, device->major, device->minor, device->path);
  device->holders = ds_sysfs_list_dir_names (sysdir, "holders");
  if (device->type == DS_DEVICE_PARTITION)
    device->partitions = g_new0 (char *, 1);
  else
    device->partitions = ds_sysfs_list_partitions (sysdir);

  if (probe && device->size_bytes > 0)
    ds_device_probe_signature (device->path, &device->signature, &device->signature_label);

  return g_steal_pointer (&device);
}

/* A udev context only when udevd keeps a database: without one every
 * property lookup is a wasted syscall. */
static DsUdev *
udev_if_database (void)
{
  if (!g_file_test ("/run/udev/data", G_FILE_TEST_IS_DIR))
    return NULL;

  return udev_new ();
}

/* ---- public API ---- */

void
ds_device_free (DsDevice *device)
{
  if (device == NULL)
    return;

  g_free (device->name);
  g_free (device->path);
  g_free (device->parent);
  g_free (device->model);
  g_free (device->vendor);
  g_free (device->serial);
  g_free (device->wwn);
  g_free (device->firmware);
  g_free (device->transport);
  g_free (device->scheduler);
  g_free (device->write_cache);
  g_free (device->backing_file);
  g_strfreev (device->mountpoints);
  g_strfreev (device->holders);
  g_strfreev (device->partitions);
  g_free (device->signature);
  g_free (device->signature_label);
  g_free (device);
}

GPtrArray *
ds_device_list (GError **error)
{
  g_autoptr (GPtrArray) mounts = ds_mounts_read ();
  g_autoptr (DsUdev) udev = udev_if_database ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) devices = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_device_free);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GError) local_error = NULL;
  const char *name;

  dir = g_dir_open (SYS_CLASS_BLOCK, 0, &local_error);
  if (dir == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("Cannot list block devices: %s (is /sys mounted?)"),
                   local_error->message);
      return NULL;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, ds_compare_names);

  /* Whole devices in natural order, each followed by its partitions. */
  for (guint i = 0; i < names->len; i++)
    {
      DsDevice *device = device_new_from_sysfs (g_ptr_array_index (names, i), mounts, udev, TRUE);

      if (device == NULL)
        continue;
      g_hash_table_insert (by_name, device->name, device);
    }

  for (guint i = 0; i < names->len; i++)
    {
      DsDevice *device = g_hash_table_lookup (by_name, g_ptr_array_index (names, i));

      if (device == NULL || device->type == DS_DEVICE_PARTITION)
        continue;
      g_hash_table_steal (by_name, device->name);
      g_ptr_array_add (devices, device);
      for (size_t p = 0; device->partitions[p] != NULL; p++)
        {
          DsDevice *part = g_hash_table_lookup (by_name, device->partitions[p]);

          if (part == NULL)
            continue;
          g_hash_table_steal (by_name, part->name);
          g_ptr_array_add (devices, part);
        }
    }

  /* Partitions whose disk vanished between the two reads. */
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, by_name);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        g_ptr_array_add (devices, value);
        g_hash_table_iter_steal (&iter);
      }
  }

  return g_steal_pointer (&devices);
}

static DsDevice *
lookup (const char  *path,
        gboolean     probe,
        GError     **error)
{
  g_autoptr (GPtrArray) mounts = NULL;
  g_autoptr (DsUdev) udev = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *syslink = NULL;
  g_autofree char *sysreal = NULL;
  g_autofree char *name = NULL;
  struct stat st;
  DsDevice *device;
  char *real;

  g_return_val_if_fail (path != NULL, NULL);

  /* A bare sysfs name ("loop0") is accepted too. */
  if (strchr (path, '/') == NULL && path[0] != '\0')
    {
      g_autofree char *dir = g_build_filename (SYS_CLASS_BLOCK, path, NULL);

      if (g_file_test (dir, G_FILE_TEST_IS_DIR))
        name = g_strdup (path);
    }

  if (name == NULL)
    {
      real = realpath (path, NULL);
      if (real == NULL)
        {
          ds_set_error_from_errno (error, errno, path);
          return NULL;
        }
      resolved = g_strdup (real);
      free (real);

      if (stat (resolved, &st) != 0)
        {
          ds_set_error_from_errno (error, errno, path);
          return NULL;
        }
      if (!S_ISBLK (st.st_mode))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("%s is not a block device"), path);
          return NULL;
        }

      syslink = g_strdup_printf ("/sys/dev/block/%u:%u",
                                 major (st.st_rdev), minor (st.st_rdev));
      real = realpath (syslink, NULL);
      if (real == NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                       _("%s: the kernel does not know this block device "
                       "(%u:%u is not in /sys/dev/block)"),
                       path, major (st.st_rdev), minor (st.st_rdev));
          return NULL;
        }
      sysreal = g_strdup (real);
      free (real);
      name = g_path_get_basename (sysreal);
    }

  mounts = ds_mounts_read ();
  udev = udev_if_database ();
  device = device_new_from_sysfs (name, mounts, udev, probe);
  if (device == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("%s: no such block device in %s"), path, SYS_CLASS_BLOCK);
      return NULL;
    }

  return device;
}

DsDevice *
ds_device_lookup (const char  *path,
                  GError     **error)
{
  return lookup (path, TRUE, error);
}

DsDevice *
ds_device_lookup_identity (const char  *path,
                           GError     **error)
{
  return lookup (path, FALSE, error);
}

const char *
ds_device_type_to_string (DsDeviceType type)
{
  switch (type)
    {
    case DS_DEVICE_DISK:
      return "disk";
    case DS_DEVICE_PARTITION:
      return "partition";
    case DS_DEVICE_LOOP:
      return "loop";
    case DS_DEVICE_ZRAM:
      return "zram";
    case DS_DEVICE_NVME:
      return "nvme";
    case DS_DEVICE_MD:
      return "md";
    case DS_DEVICE_DM:
      return "dm";
    case DS_DEVICE_OTHER:
    default:
      return "other";
    }
}

char *
ds_device_describe (const DsDevice *device)
{
  g_autofree char *size = NULL;
  const char *model;

  g_return_val_if_fail (device != NULL, NULL);

  size = ds_format_size (device->size_bytes);
  model = device->model;
  if (model == NULL)
    model = device->type == DS_DEVICE_PARTITION ? "Partition"
                                                : ds_device_type_to_string (device->type);

  return g_strdup_printf ("%s (%s, %s)", model, size, device->path);
}

