/* test-int-target.c: ds_target_open and the write-safety gate on real loop
 * devices (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every refused device is checksummed before and after: a refusal that
 * wrote anything is a failure even if the error looks right.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-device.h"
#include "ds-error.h"
#include "ds-target.h"
#include "ds-test-util.h"

#define DEVICE_BYTES (UINT64_C (16) << 20)

/* ---- helpers ---- */

static char *
scratch_path (const char *name)
{
  return g_build_filename (ds_test_scratch_dir (), name, NULL);
}

/* Asserts that a write open of @dev with @confirm fails with @code and a
 * message containing each of the NULL-terminated @needles, and that the
 * device content did not change. */
static void
assert_refused (const char *dev,
                const char *confirm,
                int         code,
                ...)
{
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;
  const char *needle;
  va_list args;

  target = ds_target_open (dev, DS_TARGET_OPEN_WRITE, confirm, &error);
  ck_assert_msg (target == NULL, "%s opened for writing (confirm %s)", dev, confirm);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code),
                 "expected code %d, got %d: %s", code, error->code, error->message);
  ck_assert_msg (strstr (error->message, dev) != NULL,
                 "message does not name %s: %s", dev, error->message);

  va_start (args, code);
  while ((needle = va_arg (args, const char *)) != NULL)
    ck_assert_msg (strstr (error->message, needle) != NULL,
                   "“%s” not in: %s", needle, error->message);
  va_end (args);

  /* The gate alone says the same for REFUSED cases. */
  if (code == DS_ERROR_REFUSED)
    {
      g_clear_error (&error);
      ck_assert (!ds_target_check_write (dev, confirm, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
    }

  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);
}

/* ---- tests ---- */

START_TEST (test_open_missing)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open ("/dev/does-not-exist", DS_TARGET_OPEN_READ, NULL, &error);
  const char *argv[] = { ds_test_cli_path (), "info", "/dev/does-not-exist", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert_ptr_null (target);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_ptr_nonnull (strstr (error->message, "/dev/does-not-exist"));

  ck_assert_int_eq (ds_test_run (argv, &out, &err), 1);
  ck_assert_msg (g_str_has_prefix (err, "diskscope-cli: "), "stderr: %s", err);
  ck_assert_ptr_nonnull (strstr (err, "/dev/does-not-exist"));
}
END_TEST

START_TEST (test_open_permission)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;

  /* This machine's system disk refuses any open with EPERM: the real
   * permission path.  A read-only open, never a write. */
  if (!g_file_test ("/dev/vda", G_FILE_TEST_EXISTS))
    {
      fprintf (stderr, "# no /dev/vda here: permission case skipped\n");
      return;
    }
  target = ds_target_open ("/dev/vda", DS_TARGET_OPEN_READ, NULL, &error);
  if (target != NULL)
    {
      fprintf (stderr, "# /dev/vda opened here (no EPERM sandbox): permission case skipped\n");
      return;
    }
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION),
                 "expected PERMISSION, got %d: %s", error->code, error->message);
  ck_assert_ptr_nonnull (strstr (error->message, "/dev/vda"));
  /* Refused to root: telling root to become root or join `disk` would be
   * wrong; the message says that something else blocks the device.  (The
   * advice for a plain user is checked as `nobody` in test-int-safety and
   * test-target.) */
  ck_assert_ptr_nonnull (strstr (error->message, "even as root"));
  ck_assert_ptr_null (strstr (error->message, "`disk`"));
}
END_TEST

START_TEST (test_open_read_block)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open (dev, DS_TARGET_OPEN_READ, NULL, &error);
  int fl;

  ck_assert_msg (target != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (target->kind, DS_TARGET_BLOCK);
  ck_assert_uint_eq (target->size_bytes, DEVICE_BYTES);
  ck_assert_uint_eq (target->logical_block_size, 512);
  ck_assert_uint_ge (target->physical_block_size, 512);
  ck_assert_uint_ge (target->mem_align, 512);
  ck_assert (target->direct);
  ck_assert (!target->writable);
  ck_assert_str_eq (target->model, "Loop device");
  fl = fcntl (target->fd, F_GETFL);
  ck_assert (fl & O_DIRECT);
  ck_assert_int_eq (fl & O_ACCMODE, O_RDONLY);

  /* A read open needs no confirmation and takes no exclusive claim. */
  {
    int fd = open (dev, O_RDONLY | O_EXCL | O_CLOEXEC);

    ck_assert_int_ge (fd, 0);
    close (fd);
  }
}
END_TEST

START_TEST (test_refuse_without_confirmation)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);

  assert_refused (dev, NULL, DS_ERROR_REFUSED, "--destroy-data", "destroys", NULL);
  assert_refused (dev, "", DS_ERROR_REFUSED, "--destroy-data", NULL);
}
END_TEST

START_TEST (test_refuse_other_device)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *other = ds_test_loop_new (DEVICE_BYTES, FALSE);

  assert_refused (dev, other, DS_ERROR_REFUSED, other, NULL);
  assert_refused (dev, "/dev/does-not-exist", DS_ERROR_REFUSED, NULL);
}
END_TEST

START_TEST (test_refuse_mounted)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *dir = ds_test_mount_ext4 (dev, "mnt");

  /* Even with the right confirmation. */
  assert_refused (dev, dev, DS_ERROR_REFUSED, "mounted at", dir, "ext4", NULL);
  assert_refused (dev, NULL, DS_ERROR_REFUSED, "mounted at", NULL);
}
END_TEST

START_TEST (test_refuse_read_only)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, TRUE);

  assert_refused (dev, dev, DS_ERROR_REFUSED, "read-only", NULL);
}
END_TEST

START_TEST (test_refuse_held_exclusively)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  int fd = open (dev, O_RDONLY | O_EXCL | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  assert_refused (dev, dev, DS_ERROR_BUSY, "in use by another program", NULL);
  close (fd);

  /* Released: now it opens. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsTarget) target = ds_target_open (dev, DS_TARGET_OPEN_WRITE, dev, &error);

    ck_assert_msg (target != NULL, "%s", error ? error->message : "");
  }
}
END_TEST

START_TEST (test_signature_named)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;

  ds_test_mkfs_ext4 (dev);
  assert_refused (dev, NULL, DS_ERROR_REFUSED, "contains an ext4 filesystem", NULL);

  /* Naming the device explicitly is the user's decision: it passes. */
  ck_assert_msg (ds_target_check_write (dev, dev, &error), "%s", error ? error->message : "");
  target = ds_target_open (dev, DS_TARGET_OPEN_WRITE, dev, &error);
  ck_assert_msg (target != NULL, "%s", error ? error->message : "");
  ck_assert (target->writable);
}
END_TEST

START_TEST (test_confirmed_opens_writable)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *link = scratch_path ("confirm-link");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;
  int fl, fd;

  target = ds_target_open (dev, DS_TARGET_OPEN_WRITE, dev, &error);
  ck_assert_msg (target != NULL, "%s", error ? error->message : "");
  ck_assert (target->writable);
  ck_assert (target->direct);
  ck_assert_int_eq (target->kind, DS_TARGET_BLOCK);
  ck_assert_uint_eq (target->size_bytes, DEVICE_BYTES);
  fl = fcntl (target->fd, F_GETFL);
  ck_assert_int_eq (fl & O_ACCMODE, O_RDWR);
  ck_assert (fl & O_DIRECT);

  /* Held with O_EXCL: nobody else can claim it meanwhile. */
  fd = open (dev, O_RDONLY | O_EXCL | O_CLOEXEC);
  ck_assert_int_lt (fd, 0);
  ck_assert_int_eq (errno, EBUSY);
  g_clear_pointer (&target, ds_target_free);

  /* A symlink to the device and its bare name confirm it too. */
  ck_assert_int_eq (symlink (dev, link), 0);
  ck_assert_msg (ds_target_check_write (dev, link, &error), "%s", error ? error->message : "");
  ck_assert_msg (ds_target_check_write (link, dev, &error), "%s", error ? error->message : "");
  ck_assert_msg (ds_target_check_write (dev, strrchr (dev, '/') + 1, &error), "%s",
                 error ? error->message : "");
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("int-target");
  ds_test_require_root ("loop devices, mkfs and mount");

  suite = suite_create ("int-target");
  tc = tcase_create ("int-target");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_open_missing);
  tcase_add_test (tc, test_open_permission);
  tcase_add_test (tc, test_open_read_block);
  tcase_add_test (tc, test_refuse_without_confirmation);
  tcase_add_test (tc, test_refuse_other_device);
  tcase_add_test (tc, test_refuse_mounted);
  tcase_add_test (tc, test_refuse_read_only);
  tcase_add_test (tc, test_refuse_held_exclusively);
  tcase_add_test (tc, test_signature_named);
  tcase_add_test (tc, test_confirmed_opens_writable);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
