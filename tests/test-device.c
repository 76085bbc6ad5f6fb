/* test-device.c: device records, lookups and descriptions (no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every machine has: /sys/class/block with at least one device.  The
 * loop-device cases are in test-int-device.c.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-test-util.h"

static DsDevice *
fake_device (void)
{
  DsDevice *device = g_new0 (DsDevice, 1);

  device->name = g_strdup ("fake0");
  device->path = g_strdup ("/dev/fake0");
  device->type = DS_DEVICE_DISK;
  device->model = g_strdup ("QEMU HARDDISK");
  device->size_bytes = UINT64_C (256060514304);
  device->loop_direct_io = -1;
  device->mountpoints = g_new0 (char *, 1);
  device->holders = g_new0 (char *, 1);
  device->partitions = g_new0 (char *, 1);

  return device;
}

START_TEST (test_type_names)
{
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_DISK), "disk");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_PARTITION), "partition");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_LOOP), "loop");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_ZRAM), "zram");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_NVME), "nvme");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_MD), "md");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_DM), "dm");
  ck_assert_str_eq (ds_device_type_to_string (DS_DEVICE_OTHER), "other");
}
END_TEST

START_TEST (test_describe)
{
  g_autoptr (DsDevice) device = fake_device ();
  g_autofree char *text = ds_device_describe (device);
  g_autofree char *no_model = NULL;

  ck_assert_str_eq (text, "QEMU HARDDISK (256 GB, /dev/fake0)");

  g_clear_pointer (&device->model, g_free);
  device->type = DS_DEVICE_ZRAM;
  device->size_bytes = UINT64_C (67108864);
  no_model = ds_device_describe (device);
  ck_assert_str_eq (no_model, "zram (67.1 MB, /dev/fake0)");
}
END_TEST

START_TEST (test_in_use_reasons)
{
  g_autoptr (DsDevice) device = fake_device ();
  g_autofree char *reason = NULL;
  g_autofree char *both = NULL;

  ck_assert (!ds_device_in_use (device, &reason));
  ck_assert_ptr_null (reason);

  g_strfreev (device->mountpoints);
  device->mountpoints = g_strsplit ("/mnt/data", ",", -1);
  ck_assert (ds_device_in_use (device, &reason));
  ck_assert_str_eq (reason, "mounted at /mnt/data");

  g_strfreev (device->holders);
  device->holders = g_strsplit ("dm-0,md127", ",", -1);
  ck_assert (ds_device_in_use (device, &both));
  ck_assert_ptr_nonnull (strstr (both, "mounted at /mnt/data"));
  ck_assert_ptr_nonnull (strstr (both, "held by dm-0, md127"));

  /* NULL reason pointer is fine. */
  ck_assert (ds_device_in_use (device, NULL));
}
END_TEST

START_TEST (test_list_order_and_invariants)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) devices = ds_device_list (&error);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *current_disk = NULL;

  ck_assert_msg (devices != NULL, "list: %s", error ? error->message : "");
  ck_assert_uint_gt (devices->len, 0);

  for (guint i = 0; i < devices->len; i++)
    {
      const DsDevice *d = g_ptr_array_index (devices, i);
      g_autofree char *sys = g_build_filename ("/sys/class/block", d->name, NULL);
      g_autofree char *expected_path = g_build_filename ("/dev", d->name, NULL);

      ck_assert (g_file_test (sys, G_FILE_TEST_IS_DIR));
      ck_assert_str_eq (d->path, expected_path);
      ck_assert_ptr_nonnull (d->mountpoints);
      ck_assert_ptr_nonnull (d->holders);
      ck_assert_ptr_nonnull (d->partitions);
      ck_assert (!g_hash_table_contains (seen, d->name));
      g_hash_table_add (seen, d->name);
      ck_assert_uint_ge (d->logical_block_size, 512);
      ck_assert_uint_ge (d->physical_block_size, d->logical_block_size);
      ck_assert (d->size_bytes % 512 == 0);

      /* Partitions come right after their disk. */
      if (d->type == DS_DEVICE_PARTITION)
        {
          ck_assert_ptr_nonnull (d->parent);
          ck_assert_ptr_nonnull (current_disk);
          ck_assert_str_eq (d->parent, current_disk);
        }
      else
        {
          ck_assert_ptr_null (d->parent);
          current_disk = d->name;
        }
      if (d->type == DS_DEVICE_LOOP)
        ck_assert_str_eq (d->model, "Loop device");
      if (d->type != DS_DEVICE_LOOP)
        ck_assert_int_eq (d->loop_direct_io, -1);
    }
}
END_TEST

/* TRUE if the list and a lookup, made again, agree on @name's size: the
 * first disagreement was a device changing in between (another program
 * attaching or detaching a loop device), not a lookup that reads wrong. */
static gboolean
agree_now (const char *name)
{
  for (int attempt = 0; attempt < 5; attempt++)
    {
      g_autoptr (GPtrArray) again = ds_device_list (NULL);
      g_autoptr (DsDevice) looked_up = ds_device_lookup (name, NULL);

      for (guint i = 0; again != NULL && looked_up != NULL && i < again->len; i++)
        {
          const DsDevice *now = g_ptr_array_index (again, i);

          if (g_str_equal (now->name, name) && now->size_bytes == looked_up->size_bytes)
            return TRUE;
        }
      g_usleep (100000);
    }

  return FALSE;
}

START_TEST (test_lookup_matches_list)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) devices = ds_device_list (&error);

  ck_assert_ptr_nonnull (devices);
  for (guint i = 0; i < devices->len; i++)
    {
      const DsDevice *d = g_ptr_array_index (devices, i);
      g_autoptr (DsDevice) by_path = NULL;
      g_autoptr (DsDevice) by_name = NULL;

      if (!g_file_test (d->path, G_FILE_TEST_EXISTS))
        continue;
      by_path = ds_device_lookup (d->path, &error);
      ck_assert_msg (by_path != NULL, "%s: %s", d->path, error ? error->message : "");
      ck_assert_str_eq (by_path->name, d->name);
      /* Loop devices come and go while the list is walked (other programs
       * attach and detach them): a size that differs is a failure only if
       * the device did not change in between. */
      if (by_path->size_bytes != d->size_bytes && agree_now (d->name))
        {
          printf ("# %s changed while the test ran (%" G_GUINT64_FORMAT " -> %"
                  G_GUINT64_FORMAT " bytes): not compared\n", d->path, d->size_bytes,
                  by_path->size_bytes);
          continue;
        }
      ck_assert_uint_eq (by_path->size_bytes, d->size_bytes);
      ck_assert_uint_eq (by_path->major, d->major);
      ck_assert_uint_eq (by_path->minor, d->minor);
      ck_assert_int_eq (by_path->type, d->type);

      by_name = ds_device_lookup (d->name, &error);
      ck_assert_ptr_nonnull (by_name);
      ck_assert_str_eq (by_name->path, d->path);
    }
}
END_TEST

START_TEST (test_lookup_symlink)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) devices = ds_device_list (&error);
  g_autofree char *dir = g_strdup ("/var/tmp/ds-test-device-XXXXXX");
  g_autofree char *link = NULL;
  const DsDevice *target = NULL;

  ck_assert_ptr_nonnull (devices);
  for (guint i = 0; i < devices->len && target == NULL; i++)
    {
      const DsDevice *d = g_ptr_array_index (devices, i);

      if (g_file_test (d->path, G_FILE_TEST_EXISTS))
        target = d;
    }
  if (target == NULL)
    return;

  ck_assert_ptr_nonnull (g_mkdtemp (dir));
  link = g_build_filename (dir, "disk-link", NULL);
  ck_assert_int_eq (symlink (target->path, link), 0);
  {
    g_autoptr (DsDevice) found = ds_device_lookup (link, &error);

    unlink (link);
    rmdir (dir);
    ck_assert_msg (found != NULL, "%s", error ? error->message : "");
    ck_assert_str_eq (found->name, target->name);
  }
}
END_TEST

START_TEST (test_lookup_errors)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) missing = ds_device_lookup ("/dev/does-not-exist", &error);
  g_autoptr (DsDevice) chr = NULL;
  g_autoptr (DsDevice) file = NULL;

  ck_assert_ptr_null (missing);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_ptr_nonnull (strstr (error->message, "/dev/does-not-exist"));

  g_clear_error (&error);
  chr = ds_device_lookup ("/dev/null", &error);
  /* Something that exists but is not a block device is bad usage (exit
   * 2), not a missing device (exit 1). */
  ck_assert_ptr_null (chr);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_ptr_nonnull (strstr (error->message, "not a block device"));

  g_clear_error (&error);
  file = ds_device_lookup ("/etc/hostname", &error);
  ck_assert_ptr_null (file);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
}
END_TEST

START_TEST (test_monitor)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDeviceMonitor) monitor = ds_device_monitor_new (&error);

  if (monitor == NULL)
    {
      /* Some containers have no uevent netlink: the error says so. */
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
      ds_test_note ("SKIP the device monitor is not available here: %s", error->message);
      return;
    }
  ck_assert_int_ge (ds_device_monitor_get_fd (monitor), 0);
  /* Non-blocking: draining an idle monitor returns at once. */
  (void) ds_device_monitor_drain (monitor);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  suite = suite_create ("device");
  tc = tcase_create ("device");
  /* Every device is looked up and probed (libblkid): on a machine with
   * dozens of loop devices and other work going on that takes more than
   * Check's default 4 s. */
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_type_names);
  tcase_add_test (tc, test_describe);
  tcase_add_test (tc, test_in_use_reasons);
  tcase_add_test (tc, test_list_order_and_invariants);
  tcase_add_test (tc, test_lookup_matches_list);
  tcase_add_test (tc, test_lookup_symlink);
  tcase_add_test (tc, test_lookup_errors);
  tcase_add_test (tc, test_monitor);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
