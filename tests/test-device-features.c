/* test-device-features.c: what a block device can do, as the Info page
 * lists it (core/device/ds-device-features.c), without root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The module reads /sys/block/NAME; a device named by a relative path
 * ("../../tmp/ds-device-features-X/sdz") reads a fake sysfs folder made
 * here instead: its queue/ attributes, mq/ folders and device/ link (into
 * a fake /sys/devices tree for the link speeds).  A SATA link's speed is
 * read from /sys/class/ata_link, which no fake tree replaces: it is
 * checked only where this machine has one.  Where SMART comes from is a
 * table of the device's type and transport.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-device-features.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-device-features-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

/* Writes @text to @rel under the fake tree, making its folders. */
static void
put (const char *rel,
     const char *text)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  ck_assert_int_eq (g_mkdir_with_parents (parent, 0755), 0);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
}

static void
make_dir (const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);

  ck_assert_int_eq (g_mkdir_with_parents (path, 0755), 0);
}

/* sysfs's device/ link of disk @disk, to @target in the fake tree. */
static void
link_device (const char *disk,
             const char *target)
{
  g_autofree char *link = g_build_filename (dir, disk, "device", NULL);
  g_autofree char *to = g_build_filename (dir, target, NULL);

  make_dir (disk);
  make_dir (target);
  ck_assert_int_eq (symlink (to, link), 0);
}

/* /sys/block/NAME for the fake disk @disk: up from /sys/block to /. */
static char *
sys_name (const char *disk)
{
  return g_strconcat ("../..", dir, "/", disk, NULL);
}

/* A device record with what the features are read from: name, parent,
 * type and transport. */
static DsDevice *
device_new (const char   *disk,
            const char   *parent,
            DsDeviceType  type,
            const char   *transport)
{
  DsDevice *device = g_new0 (DsDevice, 1);

  device->name = sys_name (disk);
  device->parent = parent != NULL ? sys_name (parent) : NULL;
  device->type = type;
  device->transport = g_strdup (transport);
  device->mountpoints = g_new0 (char *, 1);
  device->holders = g_new0 (char *, 1);
  device->partitions = g_new0 (char *, 1);
  device->loop_direct_io = -1;
  return device;
}

/* Every queue attribute read: discard with its granularity and largest
 * size, write zeroes, FUA, requests per queue, one hardware queue per
 * mq/ folder, the device's own queue depth, a zoned model. */
START_TEST (test_queue)
{
  g_autoptr (DsDevice) device = device_new ("sdz", NULL, DS_DEVICE_DISK, "sata");
  g_autoptr (DsDeviceFeatures) f = NULL;

  put ("sdz/queue/discard_max_bytes", "2147450880\n");
  put ("sdz/queue/discard_granularity", "4096\n");
  put ("sdz/queue/write_zeroes_max_bytes", "33550336\n");
  put ("sdz/queue/fua", "1\n");
  put ("sdz/queue/nr_requests", "64\n");
  put ("sdz/queue/zoned", "host-managed\n");
  make_dir ("sdz/mq/0");
  make_dir ("sdz/mq/1");
  make_dir ("sdz/mq/2");
  make_dir ("sdz/mq/3");
  put ("sdz/device/queue_depth", "32\n");

  f = ds_device_features_read (device);
  ck_assert (f->discard);
  ck_assert_uint_eq (f->discard_max_bytes, UINT64_C (2147450880));
  ck_assert_uint_eq (f->discard_granularity, 4096);
  ck_assert_uint_eq (f->write_zeroes_max_bytes, UINT64_C (33550336));
  ck_assert (f->fua);
  ck_assert_uint_eq (f->nr_requests, 64);
  ck_assert_uint_eq (f->hw_queues, 4);
  ck_assert_uint_eq (f->device_queue_depth, 32);
  ck_assert_str_eq (f->zoned, "host-managed");
  ck_assert_ptr_null (f->link_speed);
  ck_assert_int_eq (f->smart, DS_SMART_ATA);
}
END_TEST

/* No discard (discard_max_bytes 0): no granularity either, whatever the
 * file says; FUA 0 is none; zoned "none" is not zoned; missing attributes
 * are 0 or NULL (unknown), not errors. */
START_TEST (test_queue_none)
{
  g_autoptr (DsDevice) device = device_new ("sdz", NULL, DS_DEVICE_DISK, NULL);
  g_autoptr (DsDevice) missing = device_new ("sdy", NULL, DS_DEVICE_DISK, NULL);
  g_autoptr (DsDeviceFeatures) f = NULL;
  g_autoptr (DsDeviceFeatures) m = NULL;

  put ("sdz/queue/discard_max_bytes", "0\n");
  put ("sdz/queue/discard_granularity", "4096\n");
  put ("sdz/queue/fua", "0\n");
  put ("sdz/queue/zoned", "none\n");
  put ("sdz/queue/write_zeroes_max_bytes", "\n");

  f = ds_device_features_read (device);
  ck_assert (!f->discard);
  ck_assert_uint_eq (f->discard_granularity, 0);
  ck_assert_uint_eq (f->discard_max_bytes, 0);
  ck_assert_uint_eq (f->write_zeroes_max_bytes, 0);
  ck_assert (!f->fua);
  ck_assert_ptr_null (f->zoned);
  ck_assert_uint_eq (f->hw_queues, 0);

  m = ds_device_features_read (missing);
  ck_assert (!m->discard);
  ck_assert_uint_eq (m->nr_requests, 0);
  ck_assert_uint_eq (m->device_queue_depth, 0);
  ck_assert_uint_eq (m->hw_queues, 0);
  ck_assert_ptr_null (m->zoned);
  ck_assert_ptr_null (m->link_speed);
  ck_assert_int_eq (m->smart, DS_SMART_UNKNOWN);
}
END_TEST

/* A partition has no queue of its own: its disk's is read. */
START_TEST (test_partition_reads_its_disk)
{
  g_autoptr (DsDevice) part = device_new ("sdz1", "sdz", DS_DEVICE_PARTITION, "sata");
  g_autoptr (DsDeviceFeatures) f = NULL;

  put ("sdz/queue/discard_max_bytes", "4294966784\n");
  put ("sdz/queue/discard_granularity", "512\n");
  put ("sdz/queue/nr_requests", "2\n");
  put ("sdz1/queue/nr_requests", "999\n");

  f = ds_device_features_read (part);
  ck_assert (f->discard);
  ck_assert_uint_eq (f->discard_granularity, 512);
  ck_assert_uint_eq (f->nr_requests, 2);
  ck_assert_int_eq (f->smart, DS_SMART_ATA);
}
END_TEST

/* NVMe: the PCIe function's link, "SPEED xWIDTH"; without a width (or a
 * width that is no number) the speed alone; an unknown speed is none. */
START_TEST (test_link_pcie)
{
  const struct {
    const char *speed;
    const char *width;
    const char *expected;
  } cases[] = {
    { "8.0 GT/s PCIe\n", "4\n", "8.0 GT/s PCIe x4" },
    { "16.0 GT/s PCIe\n", NULL, "16.0 GT/s PCIe" },
    { "2.5 GT/s PCIe\n", "Unknown\n", "2.5 GT/s PCIe" },
    { "Unknown\n", "4\n", NULL },
    { NULL, "4\n", NULL },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *disk = g_strdup_printf ("nvme%un1", i);
      g_autofree char *pci = g_strdup_printf ("devices/pci0000:00/0000:00:0%u.0/nvme/nvme%u", i, i);
      g_autofree char *speed = g_strdup_printf ("%s/device/current_link_speed", pci);
      g_autofree char *width = g_strdup_printf ("%s/device/current_link_width", pci);
      g_autoptr (DsDevice) device = device_new (disk, NULL, DS_DEVICE_NVME, "nvme");
      g_autoptr (DsDeviceFeatures) f = NULL;

      link_device (disk, pci);
      if (cases[i].speed != NULL)
        put (speed, cases[i].speed);
      if (cases[i].width != NULL)
        put (width, cases[i].width);

      f = ds_device_features_read (device);
      if (cases[i].expected == NULL)
        ck_assert_msg (f->link_speed == NULL, "case %u: %s", i, f->link_speed);
      else
        ck_assert_msg (f->link_speed != NULL && g_str_equal (f->link_speed, cases[i].expected),
                       "case %u: %s", i, f->link_speed ? f->link_speed : "(none)");
      ck_assert_int_eq (f->smart, DS_SMART_NVME);
    }
}
END_TEST

/* USB: the first folder up the device's real path with an idVendor is
 * the USB device, and its speed is the link's, in Mbps; one without a
 * speed says nothing.  A SATA disk behind a USB bridge gets its SMART
 * only if the bridge passes it on. */
START_TEST (test_link_usb)
{
  const char *usb_dev = "devices/pci0000:00/0000:00:14.0/usb2/2-1";
  const char *scsi = "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host3/target3:0:0/3:0:0:0";
  g_autofree char *vendor = g_strdup_printf ("%s/idVendor", usb_dev);
  g_autofree char *speed = g_strdup_printf ("%s/speed", usb_dev);
  g_autofree char *speed_path = NULL;
  g_autoptr (DsDevice) device = device_new ("sdz", NULL, DS_DEVICE_DISK, "sata");
  g_autoptr (DsDeviceFeatures) f = NULL;
  g_autoptr (DsDeviceFeatures) no_speed = NULL;

  link_device ("sdz", scsi);
  put (vendor, "152d\n");
  put (speed, "5000\n");
  /* The hub above has its own, slower speed: not the one asked. */
  put ("devices/pci0000:00/0000:00:14.0/usb2/idVendor", "1d6b\n");
  put ("devices/pci0000:00/0000:00:14.0/usb2/speed", "480\n");

  f = ds_device_features_read (device);
  ck_assert_str_eq (f->link_speed, "5000 Mbps (USB)");
  ck_assert_int_eq (f->smart, DS_SMART_USB);

  speed_path = g_build_filename (dir, speed, NULL);
  ck_assert_int_eq (g_unlink (speed_path), 0);
  no_speed = ds_device_features_read (device);
  ck_assert_ptr_null (no_speed->link_speed);
}
END_TEST

/* SATA: the link of the "ataN" in the disk's real path.  A port this
 * machine does not have: no speed, and no harm; path parts that are no
 * port ("ata", "atapi") are passed over.  Where the machine has an ATA
 * link, a fake disk on its port reads its speed as sysfs says it, when
 * the link is up ("<unknown>" when down: none). */
START_TEST (test_link_sata)
{
  g_autoptr (DsDevice) device = device_new ("sdz", NULL, DS_DEVICE_DISK, "sata");
  g_autoptr (DsDevice) odd = device_new ("sdy", NULL, DS_DEVICE_DISK, "sata");
  g_autoptr (DsDevice) real = device_new ("sdx", NULL, DS_DEVICE_DISK, "sata");
  g_autoptr (DsDeviceFeatures) f = NULL;
  g_autoptr (DsDeviceFeatures) o = NULL;
  g_autoptr (DsDeviceFeatures) r = NULL;
  g_autofree char *spd_path = NULL;
  g_autofree char *spd = NULL;
  g_autofree char *path = NULL;
  g_autofree char *real_path = NULL;
  unsigned port = 4095;

  /* The highest port this machine has (0: none). */
  while (port > 0)
    {
      g_autofree char *link = g_strdup_printf ("/sys/class/ata_link/link%u", port);

      if (g_file_test (link, G_FILE_TEST_EXISTS))
        break;
      port--;
    }
  path = g_strdup_printf ("devices/pci0000:00/0000:00:1f.2/ata%u/host2/target2:0:0/2:0:0:0",
                          port + 1);
  link_device ("sdz", path);
  f = ds_device_features_read (device);
  ck_assert_ptr_null (f->link_speed);
  ck_assert_int_eq (f->smart, DS_SMART_ATA);

  link_device ("sdy", "devices/platform/atapi/ata/host0/target0:0:0/0:0:0:0");
  o = ds_device_features_read (odd);
  ck_assert_ptr_null (o->link_speed);

  if (port == 0)
    {
      ds_test_note ("SKIP no ATA link on this machine: no real link speed is read");
      return;
    }
  real_path = g_strdup_printf ("devices/pci0000:00/0000:00:1f.2/ata%u/host1/target1:0:0/1:0:0:0",
                               port);
  link_device ("sdx", real_path);
  spd_path = g_strdup_printf ("/sys/class/ata_link/link%u/sata_spd", port);
  if (g_file_get_contents (spd_path, &spd, NULL, NULL))
    g_strstrip (spd);
  r = ds_device_features_read (real);
  if (spd != NULL && g_ascii_isdigit (spd[0]))
    ck_assert_str_eq (r->link_speed, spd);
  else
    ck_assert_ptr_null (r->link_speed);
}
END_TEST

/* Where SMART comes from: none for virtual devices of every type, the
 * NVMe log for an NVMe type or transport, else by transport (virtio and
 * xen: none; ata and sata; usb; scsi and sas); an unknown or missing
 * transport is unknown. */
START_TEST (test_smart_source)
{
  const struct {
    DsDeviceType  type;
    const char   *transport;
    DsSmartSource expected;
  } cases[] = {
    { DS_DEVICE_LOOP, "sata", DS_SMART_NONE },
    { DS_DEVICE_ZRAM, NULL, DS_SMART_NONE },
    { DS_DEVICE_MD, "sata", DS_SMART_NONE },
    { DS_DEVICE_DM, "nvme", DS_SMART_NONE },
    { DS_DEVICE_NVME, NULL, DS_SMART_NVME },
    { DS_DEVICE_NVME, "usb", DS_SMART_NVME },
    { DS_DEVICE_DISK, "virtio", DS_SMART_NONE },
    { DS_DEVICE_DISK, "xen", DS_SMART_NONE },
    { DS_DEVICE_DISK, "nvme", DS_SMART_NVME },
    { DS_DEVICE_DISK, "ata", DS_SMART_ATA },
    { DS_DEVICE_PARTITION, "sata", DS_SMART_ATA },
    { DS_DEVICE_DISK, "usb", DS_SMART_USB },
    { DS_DEVICE_DISK, "scsi", DS_SMART_SCSI },
    { DS_DEVICE_OTHER, "sas", DS_SMART_SCSI },
    { DS_DEVICE_DISK, "fc", DS_SMART_UNKNOWN },
    { DS_DEVICE_DISK, "", DS_SMART_UNKNOWN },
    { DS_DEVICE_OTHER, NULL, DS_SMART_UNKNOWN },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsDevice) device = device_new ("nothing-here", NULL, cases[i].type,
                                                cases[i].transport);
      g_autoptr (DsDeviceFeatures) f = ds_device_features_read (device);

      ck_assert_msg (f->smart == cases[i].expected, "%s over %s: %s, not %s",
                     ds_device_type_to_string (cases[i].type),
                     cases[i].transport ? cases[i].transport : "(none)",
                     ds_smart_source_to_string (f->smart),
                     ds_smart_source_to_string (cases[i].expected));
    }
}
END_TEST

/* Each source's words, as the CLI prints them; a value out of range is
 * "Unknown"; freeing NULL is nothing. */
START_TEST (test_smart_words)
{
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_UNKNOWN), "Unknown");
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_NONE), "Not available (virtual device)");
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_ATA), "ATA SMART");
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_NVME), "NVMe health log");
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_SCSI), "SCSI log pages");
  ck_assert_str_eq (ds_smart_source_to_string (DS_SMART_USB), "Only if the USB bridge passes it on");
  ck_assert_str_eq (ds_smart_source_to_string ((DsSmartSource) 99), "Unknown");
  ds_device_features_free (NULL);
}
END_TEST

/* This machine's first block device, read only: never NULL, and its
 * discard granularity is there only with discard. */
START_TEST (test_real_device)
{
  g_autoptr (GDir) d = g_dir_open ("/sys/block", 0, NULL);
  const char *name = d != NULL ? g_dir_read_name (d) : NULL;
  g_autoptr (DsDevice) device = NULL;
  g_autoptr (DsDeviceFeatures) f = NULL;

  if (name == NULL)
    {
      ds_test_note ("SKIP no /sys/block here");
      return;
    }
  device = g_new0 (DsDevice, 1);
  device->name = g_strdup (name);
  device->type = DS_DEVICE_OTHER;
  f = ds_device_features_read (device);
  ck_assert_ptr_nonnull (f);
  if (!f->discard)
    ck_assert_uint_eq (f->discard_granularity, 0);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("device-features");
  TCase *tc = tcase_create ("features");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_queue);
  tcase_add_test (tc, test_queue_none);
  tcase_add_test (tc, test_partition_reads_its_disk);
  tcase_add_test (tc, test_link_pcie);
  tcase_add_test (tc, test_link_usb);
  tcase_add_test (tc, test_link_sata);
  tcase_add_test (tc, test_smart_source);
  tcase_add_test (tc, test_smart_words);
  tcase_add_test (tc, test_real_device);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
