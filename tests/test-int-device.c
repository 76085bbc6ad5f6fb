/* test-int-device.c: ds-device and `diskscope-cli list/info` on real loop
 * devices (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-test-util.h"

#define DEVICE_BYTES (UINT64_C (64) << 20)

/* ---- helpers ---- */

static void
put_le32 (uint8_t *p, uint32_t v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

/* Writes an MBR ("dos") partition table with two Linux partitions into
 * @path: sectors 2048+32768 and 34816+65536.  (No sfdisk needed.) */
static void
write_mbr (const char *path)
{
  uint8_t mbr[512] = { 0 };
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  const uint32_t parts[2][2] = { { 2048, 32768 }, { 34816, 65536 } };

  ck_assert_int_ge (fd, 0);
  put_le32 (mbr + 440, 0x44535431);          /* disk signature */
  for (int i = 0; i < 2; i++)
    {
      uint8_t *e = mbr + 446 + 16 * i;

      e[1] = 0xfe; e[2] = 0xff; e[3] = 0xff;   /* CHS: use LBA */
      e[4] = 0x83;                             /* Linux */
      e[5] = 0xfe; e[6] = 0xff; e[7] = 0xff;
      put_le32 (e + 8, parts[i][0]);
      put_le32 (e + 12, parts[i][1]);
    }
  mbr[510] = 0x55;
  mbr[511] = 0xaa;
  ck_assert_int_eq (pwrite (fd, mbr, sizeof mbr, 0), (ssize_t) sizeof mbr);
  ck_assert_int_eq (fsync (fd), 0);
  close (fd);
}

/* A loop device with a partition table, attached with partition scan. */
static char *
loop_new_partitioned (void)
{
  static unsigned counter;
  g_autofree char *name = g_strdup_printf ("parted-%d-%u.img", (int) getpid (), counter++);
  g_autofree char *file = ds_test_make_file (name, DEVICE_BYTES, 4242 + counter);
  const char *argv[] = { "losetup", "--find", "--show", "--direct-io=on", "-P", file, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dev = NULL;
  g_autofree char *p1 = NULL;

  write_mbr (file);
  ck_assert_msg (ds_test_run (argv, &out, &err) == 0, "losetup -P: %s", err);
  dev = g_strdup (g_strstrip (out));

  /* The kernel scans partitions as it binds; the nodes may lag a moment.
   * Kernels built without the MBR parser (this one) find none: then add
   * them from user space with partx (BLKPG), as they would be on a disk. */
  p1 = g_strdup_printf ("%sp1", dev);
  for (int i = 0; i < 25 && !g_file_test (p1, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  if (!g_file_test (p1, G_FILE_TEST_EXISTS))
    {
      const char *partx[] = { "partx", "-a", dev, NULL };
      g_autofree char *partx_err = NULL;

      ck_assert_msg (ds_test_run (partx, NULL, &partx_err) == 0, "partx -a %s: %s", dev, partx_err);
    }
  for (int i = 0; i < 100 && !g_file_test (p1, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  ck_assert_msg (g_file_test (p1, G_FILE_TEST_EXISTS), "%s did not appear", p1);

  return g_steal_pointer (&dev);
}

static const char *
base_name (const char *dev)
{
  return strrchr (dev, '/') + 1;
}

static DsDevice *
find_in_list (GPtrArray  *devices,
              const char *path,
              guint      *ret_index)
{
  for (guint i = 0; i < devices->len; i++)
    {
      DsDevice *d = g_ptr_array_index (devices, i);

      if (g_str_equal (d->path, path))
        {
          if (ret_index != NULL)
            *ret_index = i;
          return d;
        }
    }

  return NULL;
}

/* `diskscope-cli list --json`, parsed; returns the object for @path (and
 * keeps the parser alive in *ret_parser). */
static JsonObject *
cli_list_json (const char  *path,
               JsonParser **ret_parser)
{
  const char *argv[] = { ds_test_cli_path (), "list", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  JsonParser *parser = json_parser_new ();
  JsonArray *array;

  ck_assert_int_eq (ds_test_run (argv, &out, &err), 0);
  ck_assert_msg (json_parser_load_from_data (parser, out, -1, &error), "bad JSON: %s", error ? error->message : "");
  array = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "devices");
  ck_assert_ptr_nonnull (array);
  *ret_parser = parser;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (o, "path"), path) == 0)
        return o;
    }

  return NULL;
}

/* ---- tests ---- */

START_TEST (test_list_shows_new_loop)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *backing_attr = g_strdup_printf ("/sys/block/%s/loop/backing_file", base_name (dev));
  g_autofree char *backing = NULL;
  g_autofree char *out = NULL;
  g_autofree char *line_start = NULL;
  g_autoptr (JsonParser) parser = NULL;
  const char *argv[] = { ds_test_cli_path (), "list", NULL };
  JsonObject *o;
  char *line;

  ck_assert (g_file_get_contents (backing_attr, &backing, NULL, NULL));
  g_strstrip (backing);

  /* Human table: one line with the path, the size, the backing file, dio=1. */
  ck_assert_int_eq (ds_test_run (argv, &out, NULL), 0);
  line = strstr (out, dev);
  ck_assert_msg (line != NULL, "%s not in:\n%s", dev, out);
  line_start = g_strndup (line, strcspn (line, "\n"));
  ck_assert_msg (strstr (line_start, "67.1 MB") != NULL, "size missing: %s", line_start);
  ck_assert_msg (strstr (line_start, backing) != NULL, "backing file missing: %s", line_start);
  ck_assert_msg (strstr (line_start, "dio=1") != NULL, "dio missing: %s", line_start);
  ck_assert_msg (strstr (line_start, "loop") != NULL, "type missing: %s", line_start);

  /* JSON: exact numbers. */
  o = cli_list_json (dev, &parser);
  ck_assert_msg (o != NULL, "%s not in list --json", dev);
  ck_assert_int_eq (json_object_get_int_member (o, "size_bytes"), (gint64) DEVICE_BYTES);
  ck_assert_str_eq (json_object_get_string_member (o, "type"), "loop");
  ck_assert_str_eq (json_object_get_string_member (o, "backing_file"), backing);
  ck_assert (json_object_get_boolean_member (o, "loop_direct_io"));
  ck_assert_int_eq (json_object_get_int_member (o, "logical_block_size"), 512);
  ck_assert (!json_object_get_boolean_member (o, "in_use"));
  ck_assert (json_object_get_null_member (o, "in_use_reason"));
  ck_assert (json_object_get_null_member (o, "parent"));
  ck_assert_int_eq (json_array_get_length (json_object_get_array_member (o, "mountpoints")), 0);
  ck_assert (json_object_has_member (o, "max_sectors_kb"));
  ck_assert (json_object_has_member (o, "scheduler"));
}
END_TEST

START_TEST (test_core_list_and_lookup)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) devices = ds_device_list (&error);
  g_autoptr (DsDevice) looked_up = NULL;
  DsDevice *d;

  ck_assert_ptr_nonnull (devices);
  d = find_in_list (devices, dev, NULL);
  ck_assert_msg (d != NULL, "%s not listed", dev);
  ck_assert_int_eq (d->type, DS_DEVICE_LOOP);
  ck_assert_uint_eq (d->size_bytes, DEVICE_BYTES);
  ck_assert_uint_eq (d->logical_block_size, 512);
  ck_assert_int_eq (d->loop_direct_io, 1);
  ck_assert_ptr_nonnull (d->backing_file);
  ck_assert (g_str_has_prefix (d->backing_file, ds_test_scratch_dir ()));
  ck_assert_str_eq (d->model, "Loop device");
  ck_assert (!d->read_only);
  ck_assert_ptr_null (d->signature);   /* random data */
  ck_assert (!ds_device_in_use (d, NULL));

  looked_up = ds_device_lookup (dev, &error);
  ck_assert_ptr_nonnull (looked_up);
  ck_assert_uint_eq (looked_up->size_bytes, DEVICE_BYTES);
  ck_assert_str_eq (looked_up->backing_file, d->backing_file);
}
END_TEST

START_TEST (test_read_only_loop)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) d = ds_device_lookup (dev, &error);

  ck_assert_ptr_nonnull (d);
  ck_assert (d->read_only);
}
END_TEST

START_TEST (test_partitions)
{
  g_autofree char *dev = loop_new_partitioned ();
  g_autofree char *p1 = g_strdup_printf ("%sp1", dev);
  g_autofree char *p2 = g_strdup_printf ("%sp2", dev);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) devices = ds_device_list (&error);
  g_autoptr (JsonParser) parser = NULL;
  g_autofree char *out = NULL;
  DsDevice *disk, *part1, *part2;
  guint i_disk = 0, i_p1 = 0, i_p2 = 0;
  JsonObject *o;
  JsonArray *parts;

  ck_assert_ptr_nonnull (devices);
  disk = find_in_list (devices, dev, &i_disk);
  part1 = find_in_list (devices, p1, &i_p1);
  part2 = find_in_list (devices, p2, &i_p2);
  ck_assert_ptr_nonnull (disk);
  ck_assert_ptr_nonnull (part1);
  ck_assert_ptr_nonnull (part2);

  /* Partitions right after their disk, in order. */
  ck_assert_uint_eq (i_p1, i_disk + 1);
  ck_assert_uint_eq (i_p2, i_disk + 2);
  ck_assert_str_eq (disk->signature, "dos");
  ck_assert_uint_eq (g_strv_length (disk->partitions), 2);
  ck_assert_str_eq (disk->partitions[0], base_name (p1));
  ck_assert_str_eq (disk->partitions[1], base_name (p2));
  ck_assert_int_eq (part1->type, DS_DEVICE_PARTITION);
  ck_assert_str_eq (part1->parent, base_name (dev));
  ck_assert_uint_eq (part1->size_bytes, UINT64_C (32768) * 512);
  ck_assert_uint_eq (part2->size_bytes, UINT64_C (65536) * 512);
  ck_assert_uint_eq (part1->logical_block_size, 512);

  /* JSON and the human table agree. */
  o = cli_list_json (dev, &parser);
  ck_assert_ptr_nonnull (o);
  ck_assert_str_eq (json_object_get_string_member (o, "signature"), "dos");
  parts = json_object_get_array_member (o, "partitions");
  ck_assert_uint_eq (json_array_get_length (parts), 2);
  ck_assert_str_eq (json_array_get_string_element (parts, 0), base_name (p1));

  {
    const char *argv[] = { ds_test_cli_path (), "list", NULL };
    g_autofree char *indented = g_strdup_printf ("\n  %s ", p1);
    char *at_disk, *at_p1;

    ck_assert_int_eq (ds_test_run (argv, &out, NULL), 0);
    at_disk = strstr (out, dev);
    at_p1 = strstr (out, indented);
    ck_assert_msg (at_p1 != NULL, "%s not indented under its disk:\n%s", p1, out);
    ck_assert (at_disk < at_p1);
  }
  {
    const char *argv[] = { ds_test_cli_path (), "info", p1, "--json", NULL };
    g_autofree char *json = NULL;
    g_autoptr (JsonParser) info = json_parser_new ();
    JsonObject *po;

    ck_assert_int_eq (ds_test_run (argv, &json, NULL), 0);
    ck_assert (json_parser_load_from_data (info, json, -1, NULL));
    po = json_node_get_object (json_parser_get_root (info));
    ck_assert_str_eq (json_object_get_string_member (po, "parent"), base_name (dev));
    ck_assert_str_eq (json_object_get_string_member (po, "type"), "partition");
  }
}
END_TEST

START_TEST (test_mounted_in_use)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *dir = ds_test_mount_ext4 (dev, "mnt-device");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) d = ds_device_lookup (dev, &error);
  g_autoptr (JsonParser) parser = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *out = NULL;
  JsonObject *o;

  ck_assert_ptr_nonnull (d);
  ck_assert_uint_eq (g_strv_length (d->mountpoints), 1);
  ck_assert_str_eq (d->mountpoints[0], dir);
  ck_assert_str_eq (d->signature, "ext4");
  ck_assert_str_eq (d->signature_label, "dstest");
  ck_assert (ds_device_in_use (d, &reason));
  ck_assert_msg (strstr (reason, dir) != NULL, "reason: %s", reason);
  ck_assert (g_str_has_prefix (reason, "mounted at "));

  o = cli_list_json (dev, &parser);
  ck_assert_ptr_nonnull (o);
  ck_assert (json_object_get_boolean_member (o, "in_use"));
  ck_assert_ptr_nonnull (strstr (json_object_get_string_member (o, "in_use_reason"), dir));
  ck_assert_str_eq (json_object_get_string_member (o, "signature"), "ext4");

  {
    const char *argv[] = { ds_test_cli_path (), "info", dev, NULL };

    ck_assert_int_eq (ds_test_run (argv, &out, NULL), 0);
    ck_assert_ptr_nonnull (strstr (out, "Identity"));
    ck_assert_ptr_nonnull (strstr (out, "Geometry"));
    ck_assert_ptr_nonnull (strstr (out, "Queue"));
    ck_assert_ptr_nonnull (strstr (out, "In use"));
    ck_assert_ptr_nonnull (strstr (out, "67108864 bytes"));
    ck_assert_ptr_nonnull (strstr (out, dir));
    ck_assert_ptr_nonnull (strstr (out, "ext4"));
  }
}
END_TEST

START_TEST (test_partition_mounted_disk_in_use)
{
  g_autofree char *dev = loop_new_partitioned ();
  g_autofree char *p1 = g_strdup_printf ("%sp1", dev);
  g_autofree char *dir = ds_test_mount_ext4 (p1, "mnt-part");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) d = ds_device_lookup (dev, &error);
  g_autofree char *reason = NULL;

  ck_assert_ptr_nonnull (d);
  ck_assert_uint_eq (g_strv_length (d->mountpoints), 0);
  ck_assert (ds_device_in_use (d, &reason));
  ck_assert_msg (strstr (reason, dir) != NULL, "reason: %s", reason);
  ck_assert_msg (strstr (reason, base_name (p1)) != NULL, "reason: %s", reason);
}
END_TEST

START_TEST (test_info_missing)
{
  const char *argv[] = { ds_test_cli_path (), "info", "/dev/does-not-exist", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert_int_eq (ds_test_run (argv, &out, &err), 1);
  ck_assert_ptr_nonnull (strstr (err, "diskscope-cli: "));
  ck_assert_ptr_nonnull (strstr (err, "/dev/does-not-exist"));
  ck_assert_str_eq (out, "");
}
END_TEST

START_TEST (test_monitor_sees_loop)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDeviceMonitor) monitor = ds_device_monitor_new (&error);
  g_autofree char *dev = NULL;
  gboolean seen = FALSE;

  if (monitor == NULL)
    {
      ds_test_note ("SKIP the device monitor is not available here: %s", error->message);
      return;
    }
  (void) ds_device_monitor_drain (monitor);
  dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  for (int i = 0; i < 100 && !seen; i++)
    {
      seen = ds_device_monitor_drain (monitor);
      if (!seen)
        g_usleep (20000);
    }
  ck_assert_msg (seen, "no block uevent after attaching %s", dev);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("int-device");
  ds_test_require_root ("loop devices, mkfs and mount");

  suite = suite_create ("int-device");
  tc = tcase_create ("int-device");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_list_shows_new_loop);
  tcase_add_test (tc, test_core_list_and_lookup);
  tcase_add_test (tc, test_read_only_loop);
  tcase_add_test (tc, test_partitions);
  tcase_add_test (tc, test_mounted_in_use);
  tcase_add_test (tc, test_partition_mounted_disk_in_use);
  tcase_add_test (tc, test_info_missing);
  tcase_add_test (tc, test_monitor_sees_loop);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
