/* ds-device.c: block devices, their identity, geometry, queue and in-use state
 *
 * Everything comes from sysfs (/sys/class/block/NAME), which every kernel
 * has, with libudev's database on top for identity where udevd keeps one
 * (/run/udev/data).  Mounts come from /proc/self/mountinfo, swap from
 * /proc/swaps, signatures from libblkid (read-only probe; a device the user
 * may not open simply has no known signature).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>
#include <libudev.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-units.h"

#define SYS_CLASS_BLOCK "/sys/class/block"

typedef struct blkid_struct_probe DsBlkidProbe;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsBlkidProbe, blkid_free_probe)

typedef struct udev DsUdev;
typedef struct udev_device DsUdevDevice;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsUdevDevice, udev_device_unref)

/* One line of /proc/self/mountinfo that matters here. */
typedef struct {
  unsigned  major;
  unsigned  minor;
  char     *mountpoint;
  char     *source;
} MountEntry;

static void
mount_entry_free (gpointer data)
{
  MountEntry *entry = data;

  g_free (entry->mountpoint);
  g_free (entry->source);
  g_free (entry);
}

/* ---- small sysfs helpers ---- */

/* The stripped contents of DIR/REL, or NULL if missing or empty. */
static char *
read_attr (const char *dir,
           const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  g_strstrip (contents);
  if (contents[0] == '\0')
    return NULL;

  return g_steal_pointer (&contents);
}

static gboolean
read_u64 (const char *dir,
          const char *rel,
          uint64_t   *ret_value)
{
  g_autofree char *text = read_attr (dir, rel);
  char *end = NULL;
  guint64 v;

  if (text == NULL)
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || end == text)
    return FALSE;

  *ret_value = v;
  return TRUE;
}

static uint64_t
read_u64_or (const char *dir,
             const char *rel,
             uint64_t    fallback)
{
  uint64_t v;

  return read_u64 (dir, rel, &v) ? v : fallback;
}

static gboolean
attr_exists (const char *dir,
             const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; a lone word is itself. */
static char *
parse_scheduler (const char *text)
{
  const char *open, *close;

  if (text == NULL)
    return NULL;
  open = strchr (text, '[');
  close = open ? strchr (open, ']') : NULL;
  if (open != NULL && close != NULL && close > open + 1)
    return g_strndup (open + 1, close - open - 1);
  if (strchr (text, ' ') == NULL)
    return g_strdup (text);

  return NULL;
}

/* Natural order: loop2 before loop10, sda before sdb, vda1 before vda10. */
static int
natural_compare (const char *a,
                 const char *b)
{
  while (*a && *b)
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          guint64 na = g_ascii_strtoull (a, (char **) &a, 10);
          guint64 nb = g_ascii_strtoull (b, (char **) &b, 10);

          if (na != nb)
            return na < nb ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (unsigned char) *a < (unsigned char) *b ? -1 : 1;
      a++;
      b++;
    }

  return (unsigned char) *a - (unsigned char) *b;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return natural_compare (*(const char *const *) a, *(const char *const *) b);
}

static char **
ptr_array_to_strv (GPtrArray *array)
{
  g_ptr_array_add (array, NULL);
  return (char **) g_ptr_array_free (array, FALSE);
}

/* Names of the subdirectories of DIR/REL (holders/), sorted. */
static char **
list_dir_names (const char *dir,
                const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new ();
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  return ptr_array_to_strv (names);
}

/* Child partitions of a disk: its subdirectories that have a `partition`
 * attribute. */
static char **
list_partitions (const char *sysdir)
{
  g_autoptr (GDir) d = g_dir_open (sysdir, 0, NULL);
  GPtrArray *names = g_ptr_array_new ();
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *part = g_build_filename (sysdir, name, "partition", NULL);

      if (g_file_test (part, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);

  return ptr_array_to_strv (names);
}

/* ---- mounts and swaps ---- */

static GPtrArray *
read_mounts (void)
{
  GPtrArray *mounts = g_ptr_array_new_with_free_func (mount_entry_free);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &contents, NULL, NULL))
    return mounts;

  /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER */
  lines = g_strsplit (contents, "\n", -1);
  for (size_t i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", -1);
      unsigned major, minor;
      MountEntry *entry;
      guint n = g_strv_length (fields);
      guint sep;

      if (n < 7 || sscanf (fields[2], "%u:%u", &major, &minor) != 2)
        continue;

      entry = g_new0 (MountEntry, 1);
      entry->major = major;
      entry->minor = minor;
      /* Spaces and friends are octal escapes (\040): g_strcompress undoes them. */
      entry->mountpoint = g_strcompress (fields[4]);
      for (sep = 6; sep < n && strcmp (fields[sep], "-") != 0; sep++)
        ;
      if (sep + 2 < n)
        entry->source = g_strcompress (fields[sep + 2]);
      g_ptr_array_add (mounts, entry);
    }

  return mounts;
}

/* Mount points of MAJOR:MINOR (or of a mount whose source is @path). */
static char **
mountpoints_for (GPtrArray  *mounts,
                 unsigned    major,
                 unsigned    minor,
                 const char *path)
{
  GPtrArray *points = g_ptr_array_new ();

  for (guint i = 0; i < mounts->len; i++)
    {
      MountEntry *entry = g_ptr_array_index (mounts, i);
      gboolean match = entry->major == major && entry->minor == minor;

      /* btrfs and friends report an anonymous 0:N; the source still names
       * the device. */
      if (!match && entry->major == 0 && entry->source != NULL &&
          g_strcmp0 (entry->source, path) == 0)
        match = TRUE;
      if (match && !g_ptr_array_find_with_equal_func (points, entry->mountpoint,
                                                      g_str_equal, NULL))
        g_ptr_array_add (points, g_strdup (entry->mountpoint));
    }

  return ptr_array_to_strv (points);
}

/* TRUE if MAJOR:MINOR is an active swap area. */
static gboolean
is_swap (unsigned major,
         unsigned minor)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/swaps", &contents, NULL, NULL))
    return FALSE;

  lines = g_strsplit (contents, "\n", -1);
  for (size_t i = 1; lines[i] != NULL; i++)
    {
      g_autofree char *escaped = NULL;
      g_autofree char *filename = NULL;
      char *space = strpbrk (lines[i], " \t");
      struct stat st;

      if (space == NULL)
        continue;
      escaped = g_strndup (lines[i], space - lines[i]);
      filename = g_strcompress (escaped);
      if (stat (filename, &st) == 0 && S_ISBLK (st.st_mode) &&
          major (st.st_rdev) == major && minor (st.st_rdev) == minor)
        return TRUE;
    }

  return FALSE;
}

/* ---- signatures ---- */

/* Reads the first filesystem or partition-table signature of @path with
 * libblkid.  Leaves both NULL when there is none or the device cannot be
 * opened (no permission: `list` still works for a plain user). */
static void
probe_signature (const char  *path,
                 char       **ret_type,
                 char       **ret_label)
{
  g_autoptr (DsBlkidProbe) probe = NULL;
  const char *value = NULL;
  int rc;

  *ret_type = NULL;
  *ret_label = NULL;

  probe = blkid_new_probe_from_filename (path);
  if (probe == NULL)
    return;

  blkid_probe_enable_superblocks (probe, 1);
  blkid_probe_set_superblocks_flags (probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
  blkid_probe_enable_partitions (probe, 1);
  blkid_probe_set_partitions_flags (probe, BLKID_PARTS_MAGIC);

  rc = blkid_do_safeprobe (probe);
  if (rc == -2)
    {
      /* Ambiguous (say, remains of two filesystems): still something a
       * write would destroy, so name the first one found. */
      blkid_reset_probe (probe);
      rc = blkid_do_probe (probe);
    }
  if (rc != 0)
    return;

  if (blkid_probe_lookup_value (probe, "TYPE", &value, NULL) == 0 ||
      blkid_probe_lookup_value (probe, "PTTYPE", &value, NULL) == 0)
    *ret_type = g_strdup (value);
  if (blkid_probe_lookup_value (probe, "LABEL", &value, NULL) == 0 &&
      value[0] != '\0')
    *ret_label = g_strdup (value);
}

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
  device->firmware = udev_string (udev_device, "ID_REVISION");
  device->transport = udev_string (udev_device, "ID_BUS");
  if (device->transport != NULL)
    {
      g_autofree char *lower = g_ascii_strdown (device->transport, -1);

      g_free (device->transport);
      device->transport = g_steal_pointer (&lower);
    }

  if (device->model == NULL)
    device->model = read_attr (devdir, "model");
  if (device->vendor == NULL)
    device->vendor = read_attr (devdir, "vendor");
  if (device->serial == NULL)
    device->serial = read_attr (devdir, "serial");
  if (device->serial == NULL)
    device->serial = read_attr (sysdir, "serial");     /* virtio-blk */
  if (device->serial == NULL)
    device->serial = read_attr (sysdir, "wwid");
  if (device->serial == NULL)
    device->serial = read_attr (devdir, "wwid");
  if (device->firmware == NULL)
    device->firmware = read_attr (devdir, "firmware_rev");
  if (device->firmware == NULL)
    device->firmware = read_attr (devdir, "rev");
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
  if (attr_exists (sysdir, "partition"))
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
  if (attr_exists (sysdir, "device"))
    return DS_DEVICE_DISK;

  return DS_DEVICE_OTHER;
}

/* Builds the record of /sys/class/block/@name.  @mounts from read_mounts();
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
  g_autofree char *scheduler = NULL;
  g_autoptr (DsUdevDevice) udev_device = NULL;
  g_autoptr (DsDevice) device = NULL;
  DsDevice *parent_identity = NULL;
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

  dev = read_attr (sysdir, "dev");
  if (dev == NULL || sscanf (dev, "%u:%u", &device->major, &device->minor) != 2)
    return NULL;

  /* Partitions have no queue/ or device/: those belong to the disk. */
  if (device->type == DS_DEVICE_PARTITION)
    {
      diskdir = g_path_get_dirname (sysdir);
      device->parent = g_path_get_basename (diskdir);
    }
  else
    diskdir = g_strdup (sysdir);

  if (udev != NULL)
    udev_device = udev_device_new_from_syspath (udev, sysdir);

  if (device->type == DS_DEVICE_PARTITION)
    {
      g_autoptr (DsUdevDevice) parent_udev = NULL;

      parent_identity = g_new0 (DsDevice, 1);
      if (udev != NULL)
        parent_udev = udev_device_new_from_syspath (udev, diskdir);
      fill_identity (parent_identity, diskdir, parent_udev);
      device->model = g_steal_pointer (&parent_identity->model);
      device->vendor = g_steal_pointer (&parent_identity->vendor);
      device->transport = g_steal_pointer (&parent_identity->transport);
      g_clear_pointer (&parent_identity, ds_device_free);
    }
  else
    fill_identity (device, sysdir, udev_device);

  switch (device->type)
    {
    case DS_DEVICE_LOOP:
      g_free (device->model);
      device->model = g_strdup ("Loop device");
      device->backing_file = read_attr (sysdir, "loop/backing_file");
      if (device->backing_file != NULL)
        device->loop_direct_io = (int) read_u64_or (sysdir, "loop/dio", 0) != 0;
      break;

    case DS_DEVICE_ZRAM:
      g_free (device->model);
      device->model = g_strdup ("zram");
      break;

    case DS_DEVICE_DM:
      {
        g_autofree char *dm_name = read_attr (sysdir, "dm/name");

        if (device->model == NULL)
          device->model = dm_name ? g_strdup_printf ("Device mapper: %s", dm_name)
                                  : g_strdup ("Device mapper");
      }
      break;

    case DS_DEVICE_MD:
      {
        g_autofree char *level = read_attr (sysdir, "md/level");

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

  /* size is always in 512-byte sectors, whatever the logical block size. */
  device->size_bytes = read_u64_or (sysdir, "size", 0) * 512;
  device->logical_block_size = (uint32_t) read_u64_or (diskdir, "queue/logical_block_size", 512);
  device->physical_block_size = (uint32_t) read_u64_or (diskdir, "queue/physical_block_size",
                                                        device->logical_block_size);
  device->rotational = read_u64_or (diskdir, "queue/rotational", 0) != 0;
  device->removable = read_u64_or (diskdir, "removable", 0) != 0;
  device->read_only = read_u64_or (sysdir, "ro", 0) != 0;
  scheduler = read_attr (diskdir, "queue/scheduler");
  device->scheduler = parse_scheduler (scheduler);
  device->write_cache = read_attr (diskdir, "queue/write_cache");
  device->max_sectors_kb = (uint32_t) read_u64_or (diskdir, "queue/max_sectors_kb", 0);

  device->mountpoints = mountpoints_for (mounts, device->major, device->minor, device->path);
  device->holders = list_dir_names (sysdir, "holders");
  if (device->type == DS_DEVICE_PARTITION)
    device->partitions = g_new0 (char *, 1);
  else
    device->partitions = list_partitions (sysdir);

  if (probe && device->size_bytes > 0)
    probe_signature (device->path, &device->signature, &device->signature_label);

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
  g_autoptr (GPtrArray) mounts = read_mounts ();
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
                   "Cannot list block devices: %s (is /sys mounted?)",
                   local_error->message);
      return NULL;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

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
          g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                       "%s is not a block device", path);
          return NULL;
        }

      syslink = g_strdup_printf ("/sys/dev/block/%u:%u",
                                 major (st.st_rdev), minor (st.st_rdev));
      real = realpath (syslink, NULL);
      if (real == NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                       "%s: the kernel does not know this block device "
                       "(%u:%u is not in /sys/dev/block)",
                       path, major (st.st_rdev), minor (st.st_rdev));
          return NULL;
        }
      sysreal = g_strdup (real);
      free (real);
      name = g_path_get_basename (sysreal);
    }

  mounts = read_mounts ();
  udev = udev_if_database ();
  device = device_new_from_sysfs (name, mounts, udev, probe);
  if (device == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   "%s: no such block device in " SYS_CLASS_BLOCK, path);
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

static void
append_reason (GString    *reason,
               const char *text)
{
  if (reason->len > 0)
    g_string_append (reason, "; ");
  g_string_append (reason, text);
}

static char *
join_quoted (char **names)
{
  return g_strjoinv (", ", names);
}

gboolean
ds_device_in_use (const DsDevice  *device,
                  char           **ret_reason)
{
  g_autoptr (GString) reason = g_string_new (NULL);
  g_autoptr (GPtrArray) mounts = NULL;

  g_return_val_if_fail (device != NULL, FALSE);

  if (device->mountpoints != NULL && device->mountpoints[0] != NULL)
    {
      g_autofree char *where = join_quoted (device->mountpoints);
      g_autofree char *text = g_strdup_printf ("mounted at %s", where);

      append_reason (reason, text);
    }
  if (device->holders != NULL && device->holders[0] != NULL)
    {
      g_autofree char *who = join_quoted (device->holders);
      g_autofree char *text = g_strdup_printf ("held by %s", who);

      append_reason (reason, text);
    }
  if (device->major != 0 && is_swap (device->major, device->minor))
    append_reason (reason, "used as swap");

  /* A disk is in use when any of its partitions is. */
  for (size_t i = 0; device->partitions != NULL && device->partitions[i] != NULL; i++)
    {
      const char *part = device->partitions[i];
      g_autofree char *dir = g_build_filename (SYS_CLASS_BLOCK, part, NULL);
      g_autofree char *dev = read_attr (dir, "dev");
      g_autofree char *part_path = g_build_filename ("/dev", part, NULL);
      g_auto (GStrv) points = NULL;
      g_auto (GStrv) holders = NULL;
      unsigned major, minor;

      if (dev == NULL || sscanf (dev, "%u:%u", &major, &minor) != 2)
        continue;
      if (mounts == NULL)
        mounts = read_mounts ();

      points = mountpoints_for (mounts, major, minor, part_path);
      if (points[0] != NULL)
        {
          g_autofree char *where = join_quoted (points);
          g_autofree char *text = g_strdup_printf ("%s is mounted at %s", part, where);

          append_reason (reason, text);
        }
      holders = list_dir_names (dir, "holders");
      if (holders[0] != NULL)
        {
          g_autofree char *who = join_quoted (holders);
          g_autofree char *text = g_strdup_printf ("%s is held by %s", part, who);

          append_reason (reason, text);
        }
      if (is_swap (major, minor))
        {
          g_autofree char *text = g_strdup_printf ("%s is used as swap", part);

          append_reason (reason, text);
        }
    }

  if (reason->len == 0)
    {
      if (ret_reason != NULL)
        *ret_reason = NULL;
      return FALSE;
    }

  if (ret_reason != NULL)
    *ret_reason = g_string_free (g_steal_pointer (&reason), FALSE);
  return TRUE;
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

/* ---- monitor ---- */

struct _DsDeviceMonitor {
  struct udev         *udev;
  struct udev_monitor *monitor;
};

DsDeviceMonitor *
ds_device_monitor_new (GError **error)
{
  g_autoptr (DsDeviceMonitor) self = g_new0 (DsDeviceMonitor, 1);
  int rc;

  self->udev = udev_new ();
  if (self->udev == NULL)
    {
      ds_set_error_from_errno (error, errno ? errno : ENOMEM, "udev");
      return NULL;
    }

  /* "kernel": raw uevents from the kernel, so this works without udevd
   * (but before udev rules have run: re-read, do not trust properties). */
  self->monitor = udev_monitor_new_from_netlink (self->udev, "kernel");
  if (self->monitor == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   "Cannot watch for devices coming and going: kernel "
                   "uevents are not available here (%s)", g_strerror (errno));
      return NULL;
    }

  rc = udev_monitor_filter_add_match_subsystem_devtype (self->monitor, "block", NULL);
  if (rc >= 0)
    rc = udev_monitor_enable_receiving (self->monitor);
  if (rc < 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   "Cannot watch for devices coming and going: %s",
                   g_strerror (-rc));
      return NULL;
    }

  /* The socket is non-blocking already (libudev opens it with
   * SOCK_NONBLOCK); make sure, drain must never block. */
  {
    int fd = udev_monitor_get_fd (self->monitor);
    int fl = fcntl (fd, F_GETFL);

    if (fl >= 0 && !(fl & O_NONBLOCK))
      (void) fcntl (fd, F_SETFL, fl | O_NONBLOCK);
  }

  return g_steal_pointer (&self);
}

int
ds_device_monitor_get_fd (DsDeviceMonitor *monitor)
{
  g_return_val_if_fail (monitor != NULL, -1);

  return udev_monitor_get_fd (monitor->monitor);
}

gboolean
ds_device_monitor_drain (DsDeviceMonitor *monitor)
{
  struct udev_device *event;
  gboolean any = FALSE;

  g_return_val_if_fail (monitor != NULL, FALSE);

  while ((event = udev_monitor_receive_device (monitor->monitor)) != NULL)
    {
      if (g_strcmp0 (udev_device_get_subsystem (event), "block") == 0)
        any = TRUE;
      udev_device_unref (event);
    }

  return any;
}

void
ds_device_monitor_free (DsDeviceMonitor *monitor)
{
  if (monitor == NULL)
    return;

  if (monitor->monitor != NULL)
    udev_monitor_unref (monitor->monitor);
  if (monitor->udev != NULL)
    udev_unref (monitor->udev);
  g_free (monitor);
}
