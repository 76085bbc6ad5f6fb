/* test-int-erase.c: the erase command on loop devices and zram (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is on the device afterwards is read back here with O_DIRECT and
 * compared (zeros, or bytes that are no longer the old ones); every
 * refusal must leave the device's checksum unchanged.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ds-buffer.h"
#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1024) * 1024)
#define DEVICE_BYTES (32 * MiB)

#define note ds_test_note

/* Bytes of @path that are not zero, read with O_DIRECT. */
static uint64_t
count_nonzero (const char *path)
{
  uint8_t *buf = ds_buffer_alloc (1 << 20, 4096);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  uint64_t nonzero = 0;
  ssize_t n;

  ck_assert_int_ge (fd, 0);
  while ((n = read (fd, buf, 1 << 20)) > 0)
    for (ssize_t i = 0; i < n; i++)
      nonzero += buf[i] != 0;
  ck_assert_int_eq (n, 0);
  close (fd);
  ds_buffer_free (buf);

  return nonzero;
}

static int
cli (char       **ret_out,
     char       **ret_err,
     const char  *first,
     ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *discard = NULL;
  va_list args;
  const char *a;
  int rc;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  va_start (args, first);
  for (a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  /* Always capture stdout: the program's must not mix into the TAP. */
  rc = ds_test_run ((const char *const *) argv->pdata, ret_out ? ret_out : &discard, ret_err);
  if (rc != 0 && ret_err != NULL && *ret_err != NULL)
    note ("exit %d: %s", rc, *ret_err);
  return rc;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  ck_assert_msg (json_parser_load_from_data (parser, text, -1, NULL), "not JSON: %.300s", text);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
results_of (JsonNode *root)
{
  return json_object_get_object_member (json_node_get_object (root), "results");
}

START_TEST (test_erase_zeros_verify)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *r;

  ck_assert_uint_gt (count_nonzero (dev), DEVICE_BYTES / 2);
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--verify", "--json", NULL), 0);
  ck_assert_uint_eq (count_nonzero (dev), 0);

  root = parse (out);
  r = results_of (root);
  ck_assert_str_eq (json_object_get_string_member (r, "method"), "zeros");
  ck_assert (json_object_get_boolean_member (r, "verified"));
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_done"), DEVICE_BYTES);
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_verified"), DEVICE_BYTES);
  ck_assert (json_object_get_double_member (r, "bytes_per_s") > 0);
}
END_TEST

START_TEST (test_erase_random_verify)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  uint64_t nonzero;

  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--random", "--verify", "--json", NULL), 0);
  after = ds_test_checksum (dev);
  ck_assert_str_ne (before, after);
  /* Pseudo-random: about 255 of 256 bytes are not zero. */
  nonzero = count_nonzero (dev);
  ck_assert_uint_gt (nonzero, DEVICE_BYTES / 256 * 250);
  root = parse (out);
  ck_assert_str_eq (json_object_get_string_member (results_of (root), "method"), "random");
  ck_assert (json_object_get_boolean_member (results_of (root), "verified"));

  /* Text: the method and the verification in words. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--random", NULL), 0);
  ck_assert_ptr_nonnull (strstr (out, "overwrite with pseudo-random data"));
  ck_assert_ptr_nonnull (strstr (out, "not asked"));
}
END_TEST

START_TEST (test_erase_refusals_leave_the_device_alone)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *other = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *wrong = g_strdup_printf ("--destroy-data=%s", other);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *err = NULL;
  g_autofree char *mnt = NULL;
  g_autofree char *sum = NULL;

  /* Not confirmed. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, NULL), 3);
  ck_assert_ptr_nonnull (strstr (err, "--destroy-data="));
  g_clear_pointer (&err, g_free);
  /* Confirmed with another device. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, wrong, NULL), 3);
  g_clear_pointer (&err, g_free);
  /* Two methods. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, "--zeros", "--random", NULL), 2);
  g_clear_pointer (&err, g_free);
  /* Secure discard: a loop device has none; nothing is written. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, "--secure", NULL), 1);
  ck_assert_ptr_nonnull (strstr (err, "secure discard"));
  g_clear_pointer (&err, g_free);
  sum = ds_test_checksum (dev);
  ck_assert_str_eq (before, sum);
  g_clear_pointer (&sum, g_free);

  /* Mounted: refused even when confirmed. */
  mnt = ds_test_mount_ext4 (dev, "erase-mnt");
  g_clear_pointer (&before, g_free);
  before = ds_test_checksum (dev);
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, NULL), 3);
  ck_assert_ptr_nonnull (strstr (err, "in use"));
  sum = ds_test_checksum (dev);
  ck_assert_str_eq (before, sum);
}
END_TEST

START_TEST (test_erase_discard_loop)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;

  /* A loop device discards by punching holes in its file: zeros after. */
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--verify", "--json", NULL), 0);
  ck_assert_uint_eq (count_nonzero (dev), 0);
  root = parse (out);
  ck_assert_str_eq (json_object_get_string_member (results_of (root), "method"), "discard");
  ck_assert (json_object_get_boolean_member (results_of (root), "verified"));
}
END_TEST

START_TEST (test_erase_write_errors_are_reported)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DEVICE_BYTES, 5);
  const char *dev = ds_faultdisk_attach (disk, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *failed;

  ck_assert (ds_faultdisk_control (disk, "write-error %" PRIu64 " 4096", 8 * MiB + 4096));
  /* The erase goes past the bad block, then says it could not erase it. */
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--json", NULL), 1);
  ck_assert_ptr_nonnull (strstr (err, "could not be written"));
  root = parse (out);
  failed = json_object_get_array_member (results_of (root), "write_errors");
  ck_assert_uint_eq (json_array_get_length (failed), 1);
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (failed, 0), "offset_bytes"),
                    (gint64) (8 * MiB));
  ck_assert_int_eq (json_object_get_int_member (results_of (root), "bytes_done"),
                    (gint64) (DEVICE_BYTES - 4 * MiB));
}
END_TEST

/* sysfs takes a plain write (g_file_set_contents renames a temporary). */
static gboolean
write_sysfs (const char *path,
             const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* zram0 is one device shared by every session on this machine: only
 * under the lock, only when nobody set it up, and reset afterwards. */
START_TEST (test_erase_discard_zram)
{
  int lock = open ("/tmp/diskscope-zram.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  g_autofree char *size = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *dev = "/dev/zram0";
  uint8_t *buf;
  int fd;

  if (!g_file_test (dev, G_FILE_TEST_EXISTS))
    {
      note ("no /dev/zram0 on this machine (modprobe zram): the zram case is not run");
      return;
    }
  ck_assert_int_ge (lock, 0);
  /* Others hold the lock for minutes at times: wait a while, not forever. */
  for (int waited_ms = 0; flock (lock, LOCK_EX | LOCK_NB) != 0; waited_ms += 200)
    {
      if (waited_ms >= 30000)
        {
          note ("zram0 stayed locked by another user for 30 s: the zram case is not run");
          close (lock);
          return;
        }
      g_usleep (200 * 1000);
    }
  ck_assert (g_file_get_contents ("/sys/block/zram0/disksize", &size, NULL, NULL));
  if (g_ascii_strtoull (size, NULL, 10) != 0)
    {
      note ("zram0 is set up by someone else: the zram case is not run");
      close (lock);
      return;
    }
  ck_assert (write_sysfs ("/sys/block/zram0/disksize", "33554432"));

  /* Data first (random, so zram stores it), then erase it. */
  buf = ds_buffer_alloc (1 << 20, 4096);
  fd = open (dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  for (int i = 0; i < 32; i++)
    {
      DsRng rng;
      ds_rng_seed (&rng, (uint64_t) i + 1);
      ds_buffer_fill (buf, 1 << 20, &rng);
      ck_assert_int_eq (pwrite (fd, buf, 1 << 20, (off_t) i << 20), 1 << 20);
    }
  close (fd);
  ds_buffer_free (buf);
  ck_assert_uint_gt (count_nonzero (dev), 16 * MiB);

  {
    int rc = cli (&out, &err, "erase", dev, "--destroy-data=/dev/zram0", "--discard",
                  "--verify", "--json", NULL);
    uint64_t left = count_nonzero (dev);

    write_sysfs ("/sys/block/zram0/reset", "1");
    close (lock);
    ck_assert_int_eq (rc, 0);
    ck_assert_uint_eq (left, 0);
  }
  root = parse (out);
  ck_assert_str_eq (json_object_get_string_member (results_of (root), "method"), "discard");
  ck_assert (json_object_get_boolean_member (results_of (root), "verified"));
}
END_TEST

static Suite *
erase_suite (void)
{
  Suite *suite = suite_create ("int-erase");
  TCase *tc = tcase_create ("erase");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_erase_zeros_verify);
  tcase_add_test (tc, test_erase_random_verify);
  tcase_add_test (tc, test_erase_refusals_leave_the_device_alone);
  tcase_add_test (tc, test_erase_discard_loop);
  tcase_add_test (tc, test_erase_write_errors_are_reported);
  tcase_add_test (tc, test_erase_discard_zram);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("int-erase");
  ds_test_require_root ("erase writes to loop devices it attaches");
  ds_faultdisk_init ();

  return ds_test_run_suite (erase_suite ());
}
