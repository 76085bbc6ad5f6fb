/* ds-device-features.c: what a block device can do (TRIM, queues, link, SMART)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ds-device-features.h"

static char *
read_text (const char *dir,
           const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strstrip (text);
  if (*text == '\0')
    return NULL;

  return g_steal_pointer (&text);
}

static uint64_t
read_number (const char *dir,
             const char *rel)
{
  g_autofree char *text = read_text (dir, rel);

  return text != NULL ? g_ascii_strtoull (text, NULL, 10) : 0;
}

static unsigned
count_entries (const char *dir,
               const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  unsigned n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;

  return n;
}

/* SATA: the "ataN" in the device's sysfs path names its link. */
static char *
sata_link_speed (const char *device_real)
{
  g_auto (GStrv) parts = g_strsplit (device_real, "/", -1);

  for (unsigned i = 0; parts[i] != NULL; i++)
    if (g_str_has_prefix (parts[i], "ata") && g_ascii_isdigit (parts[i][3]))
      {
        g_autofree char *link = g_strdup_printf ("/sys/class/ata_link/link%s", parts[i] + 3);
        g_autofree char *speed = read_text (link, "sata_spd");

        /* "<unknown>" when the link is down. */
        if (speed != NULL && g_ascii_isdigit (speed[0]))
          return g_steal_pointer (&speed);
        return NULL;
      }

  return NULL;
}

/* NVMe: the PCIe function of the controller. */
static char *
pcie_link_speed (const char *sysdir)
{
  g_autofree char *pci = g_build_filename (sysdir, "device", "device", NULL);
  g_autofree char *speed = read_text (pci, "current_link_speed");
  g_autofree char *width = read_text (pci, "current_link_width");

  if (speed == NULL || strstr (speed, "Unknown") != NULL)
    return NULL;
  if (width != NULL && g_ascii_isdigit (width[0]))
    return g_strdup_printf ("%s x%s", speed, width);

  return g_steal_pointer (&speed);
}

/* USB: the first directory up the device's path that has a "speed" and an
 * "idVendor" is the USB device it is behind. */
static char *
usb_link_speed (const char *device_real)
{
  g_autofree char *dir = g_strdup (device_real);

  while (strlen (dir) > strlen ("/sys/devices"))
    {
      g_autofree char *vendor = read_text (dir, "idVendor");
      char *slash;

      if (vendor != NULL)
        {
          g_autofree char *speed = read_text (dir, "speed");

          return speed ? g_strdup_printf ("%s Mbps (USB)", speed) : NULL;
        }
      slash = strrchr (dir, '/');
      if (slash == NULL)
        break;
      *slash = '\0';
    }

  return NULL;
}

static DsSmartSource
smart_source (const DsDevice *device)
{
  const char *transport = device->transport ? device->transport : "";

  switch (device->type)
    {
    case DS_DEVICE_LOOP:
    case DS_DEVICE_ZRAM:
    case DS_DEVICE_MD:
    case DS_DEVICE_DM:
      return DS_SMART_NONE;
    case DS_DEVICE_NVME:
      return DS_SMART_NVME;
    case DS_DEVICE_DISK:
    case DS_DEVICE_PARTITION:
    case DS_DEVICE_OTHER:
    default:
      break;
    }

  if (g_str_equal (transport, "virtio") || g_str_equal (transport, "xen"))
    return DS_SMART_NONE;
  if (g_str_equal (transport, "nvme"))
    return DS_SMART_NVME;
  if (g_str_equal (transport, "ata") || g_str_equal (transport, "sata"))
    return DS_SMART_ATA;
  if (g_str_equal (transport, "usb"))
    return DS_SMART_USB;
  if (g_str_equal (transport, "scsi") || g_str_equal (transport, "sas"))
    return DS_SMART_SCSI;

  return DS_SMART_UNKNOWN;
}

DsDeviceFeatures *
ds_device_features_read (const DsDevice *device)
{
  DsDeviceFeatures *f = g_new0 (DsDeviceFeatures, 1);
  g_autofree char *sysdir = NULL;
  g_autofree char *device_link = NULL;
  g_autofree char *device_real = NULL;
  g_autofree char *zoned = NULL;

  g_return_val_if_fail (device != NULL, f);

  /* The queue is the disk's: a partition has none of its own. */
  sysdir = g_build_filename ("/sys/block", device->parent ? device->parent : device->name, NULL);

  f->discard_max_bytes = read_number (sysdir, "queue/discard_max_bytes");
  f->discard = f->discard_max_bytes > 0;
  f->discard_granularity = f->discard ? read_number (sysdir, "queue/discard_granularity") : 0;
  f->write_zeroes_max_bytes = read_number (sysdir, "queue/write_zeroes_max_bytes");
  f->fua = read_number (sysdir, "queue/fua") != 0;
  f->nr_requests = (unsigned) read_number (sysdir, "queue/nr_requests");
  f->hw_queues = count_entries (sysdir, "mq");
  f->device_queue_depth = (unsigned) read_number (sysdir, "device/queue_depth");
  zoned = read_text (sysdir, "queue/zoned");
  if (zoned != NULL && !g_str_equal (zoned, "none"))
    f->zoned = g_steal_pointer (&zoned);

  device_link = g_build_filename (sysdir, "device", NULL);
  device_real = realpath (device_link, NULL);
  if (device->type == DS_DEVICE_NVME)
    f->link_speed = pcie_link_speed (sysdir);
  else if (device_real != NULL && strstr (device_real, "/usb") != NULL)
    f->link_speed = usb_link_speed (device_real);
  else if (device_real != NULL)
    f->link_speed = sata_link_speed (device_real);

  f->smart = smart_source (device);
  if (f->smart == DS_SMART_ATA && device_real != NULL && strstr (device_real, "/usb") != NULL)
    f->smart = DS_SMART_USB;

  return f;
}

void
ds_device_features_free (DsDeviceFeatures *features)
{
  if (features == NULL)
    return;

  g_free (features->link_speed);
  g_free (features->zoned);
  g_free (features);
}

const char *
ds_smart_source_to_string (DsSmartSource source)
{
  switch (source)
    {
    case DS_SMART_NONE:
      return "Not available (virtual device)";
    case DS_SMART_ATA:
      return "ATA SMART";
    case DS_SMART_NVME:
      return "NVMe health log";
    case DS_SMART_SCSI:
      return "SCSI log pages";
    case DS_SMART_USB:
      return "Only if the USB bridge passes it on";
    case DS_SMART_UNKNOWN:
    default:
      return "Unknown";
    }
}
