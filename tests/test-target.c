/* test-target.c: alignment rules and opening regular files (no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-target.h"
#include "ds-udisks.h"
#include "ds-test-util.h"

static char *tmpdir;

static void
setup (void)
{
  /* /var/tmp: a real filesystem that takes O_DIRECT (tmpfs may not). */
  tmpdir = g_strdup ("/var/tmp/ds-test-target-XXXXXX");
  ck_assert_ptr_nonnull (g_mkdtemp (tmpdir));
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&tmpdir, g_free);
}

static char *
make_file (const char *name,
           size_t      size)
{
  g_autofree char *data = g_malloc0 (size ? size : 1);
  char *path = g_build_filename (tmpdir, name, NULL);

  for (size_t i = 0; i < size; i++)
    data[i] = (char) (i * 31 + 7);
  ck_assert (g_file_set_contents (path, data, (gssize) size, NULL));

  return path;
}

static gboolean
power_of_two (uint64_t v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

START_TEST (test_alignment_rules)
{
  ck_assert (ds_is_aligned (0, 512));
  ck_assert (ds_is_aligned (4096, 512));
  ck_assert (ds_is_aligned (4096, 4096));
  ck_assert (!ds_is_aligned (4095, 4096));
  ck_assert (!ds_is_aligned (512, 4096));
  ck_assert (!ds_is_aligned (1, 512));
  ck_assert (ds_is_aligned (UINT64_C (1) << 40, 4096));

  ck_assert_uint_eq (ds_align_down (0, 4096), 0);
  ck_assert_uint_eq (ds_align_down (4095, 4096), 0);
  ck_assert_uint_eq (ds_align_down (4096, 4096), 4096);
  ck_assert_uint_eq (ds_align_down (10000, 512), 9728);
  ck_assert_uint_eq (ds_align_up (0, 4096), 0);
  ck_assert_uint_eq (ds_align_up (1, 4096), 4096);
  ck_assert_uint_eq (ds_align_up (4096, 4096), 4096);
  ck_assert_uint_eq (ds_align_up (4097, 512), 4608);
  /* Near the top of the range, aligning down never overflows. */
  ck_assert_uint_eq (ds_align_down (UINT64_MAX, 4096), UINT64_MAX - 4095);

  /* Every aligned value is between its down and up neighbours. */
  for (uint64_t v = 0; v < 20000; v += 97)
    for (uint64_t a = 512; a <= 65536; a <<= 1)
      {
        ck_assert (ds_is_aligned (ds_align_down (v, a), a));
        ck_assert (ds_is_aligned (ds_align_up (v, a), a));
        ck_assert (ds_align_down (v, a) <= v && v <= ds_align_up (v, a));
        ck_assert_uint_lt (ds_align_up (v, a) - ds_align_down (v, a), a + 1);
      }
}
END_TEST

START_TEST (test_open_file_direct)
{
  g_autofree char *path = make_file ("data.bin", 1 << 20);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open (path, DS_TARGET_OPEN_READ, NULL, &error);
  int fl;

  ck_assert_msg (target != NULL, "open: %s", error ? error->message : "");
  ck_assert_int_eq (target->kind, DS_TARGET_FILE);
  ck_assert_str_eq (target->path, path);
  ck_assert_uint_eq (target->size_bytes, 1 << 20);
  ck_assert (target->direct);
  ck_assert (!target->writable);
  ck_assert_int_ge (target->fd, 0);
  ck_assert (power_of_two (target->logical_block_size));
  ck_assert_uint_ge (target->logical_block_size, 512);
  ck_assert_uint_le (target->logical_block_size, 4096);
  ck_assert (power_of_two (target->mem_align));
  ck_assert_uint_ge (target->physical_block_size, target->logical_block_size);

  fl = fcntl (target->fd, F_GETFL);
  ck_assert (fl & O_DIRECT);
  ck_assert_int_eq (fl & O_ACCMODE, O_RDONLY);
  ck_assert (fcntl (target->fd, F_GETFD) & FD_CLOEXEC);

  /* An aligned O_DIRECT read works with the alignment the target gives. */
  {
    void *buf = NULL;
    ck_assert_int_eq (posix_memalign (&buf, MAX (target->mem_align, sizeof (void *)),
                                      target->logical_block_size), 0);
    ck_assert_int_eq (pread (target->fd, buf, target->logical_block_size, 0),
                      (ssize_t) target->logical_block_size);
    ck_assert_int_eq (((unsigned char *) buf)[1], 38);
    free (buf);
  }
}
END_TEST

START_TEST (test_open_file_buffered_and_write)
{
  g_autofree char *path = make_file ("data.bin", 65536);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) buffered = NULL;
  g_autoptr (DsTarget) writable = NULL;

  buffered = ds_target_open (path, DS_TARGET_OPEN_BUFFERED, NULL, &error);
  ck_assert_msg (buffered != NULL, "open: %s", error ? error->message : "");
  ck_assert (!buffered->direct);
  ck_assert (!(fcntl (buffered->fd, F_GETFL) & O_DIRECT));

  /* A file holds data too: a write needs it named, as a device does. */
  ck_assert (!ds_target_check_write (path, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_ptr_nonnull (strstr (error->message, "--destroy-data="));
  g_clear_error (&error);
  writable = ds_target_open (path, DS_TARGET_OPEN_WRITE, NULL, &error);
  ck_assert_ptr_null (writable);
  g_clear_error (&error);

  ck_assert (ds_target_check_write (path, path, &error));
  writable = ds_target_open (path, DS_TARGET_OPEN_WRITE, path, &error);
  ck_assert_msg (writable != NULL, "open: %s", error ? error->message : "");
  ck_assert (writable->writable);
  ck_assert_int_eq (fcntl (writable->fd, F_GETFL) & O_ACCMODE, O_RDWR);
  ck_assert_uint_eq (writable->size_bytes, 65536);
}
END_TEST

START_TEST (test_open_create)
{
  g_autofree char *path = g_build_filename (tmpdir, "new.bin", NULL);
  g_autofree char *kept = g_build_filename (tmpdir, "kept.bin", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;
  g_autoptr (DsTarget) again = NULL;
  struct stat st;

  /* Nameless: nothing at the path, during the run or after it. */
  target = ds_target_open (path, DS_TARGET_OPEN_CREATE, NULL, &error);
  ck_assert_msg (target != NULL, "open: %s", error ? error->message : "");
  ck_assert (target->created);
  ck_assert (target->writable);
  ck_assert_str_eq (target->path, path);
  ck_assert_uint_eq (target->size_bytes, 0);
  ck_assert_int_ne (stat (path, &st), 0);
  ck_assert_int_eq (fstat (target->fd, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
  ck_assert_uint_eq (st.st_nlink, 0);
  g_clear_pointer (&target, ds_target_free);

  /* KEEP: made under its name, 0644, and never over an existing file. */
  target = ds_target_open (kept, DS_TARGET_OPEN_CREATE | DS_TARGET_OPEN_KEEP, NULL, &error);
  ck_assert_msg (target != NULL, "open: %s", error ? error->message : "");
  ck_assert_int_eq (stat (kept, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
  {
    mode_t mask = umask (0);

    umask (mask);
    ck_assert_uint_eq (st.st_mode & 0777, 0644 & ~mask);
  }
  again = ds_target_open (kept, DS_TARGET_OPEN_CREATE | DS_TARGET_OPEN_KEEP, NULL, &error);
  ck_assert_ptr_null (again);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_ptr_nonnull (strstr (error->message, "exists"));
}
END_TEST

START_TEST (test_open_tmpfile)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open_tmpfile (tmpdir, DS_TARGET_OPEN_WRITE, &error);
  g_autoptr (GDir) dir = NULL;
  g_autofree char *missing = NULL;
  struct stat st;

  ck_assert_msg (target != NULL, "open: %s", error ? error->message : "");
  ck_assert (target->created && target->writable && target->direct);
  ck_assert_int_eq (target->kind, DS_TARGET_FILE);
  ck_assert (power_of_two (target->logical_block_size));
  ck_assert_uint_ge (target->logical_block_size, 512);
  ck_assert (fcntl (target->fd, F_GETFL) & O_DIRECT);
  ck_assert_int_eq (fstat (target->fd, &st), 0);
  ck_assert_uint_eq (st.st_nlink, 0);
  /* The folder shows nothing. */
  dir = g_dir_open (tmpdir, 0, NULL);
  ck_assert_ptr_null (g_dir_read_name (dir));

  /* No such folder: a clear error.  Under our own folder: a global path
   * such as /nonexistent may exist after all (another test's HOME). */
  g_clear_pointer (&target, ds_target_free);
  missing = g_build_filename (tmpdir, "missing", NULL);
  target = ds_target_open_tmpfile (missing, DS_TARGET_OPEN_WRITE, &error);
  ck_assert_ptr_null (target);
  ck_assert_ptr_nonnull (strstr (error->message, missing));
}
END_TEST

START_TEST (test_open_missing)
{
  g_autofree char *path = g_build_filename (tmpdir, "does-not-exist", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open (path, DS_TARGET_OPEN_READ, NULL, &error);

  ck_assert_ptr_null (target);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_ptr_nonnull (strstr (error->message, path));

  /* The gate says the same. */
  g_clear_error (&error);
  ck_assert (!ds_target_check_write (path, path, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
}
END_TEST

START_TEST (test_open_wrong_kind)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) dir = ds_target_open (tmpdir, DS_TARGET_OPEN_READ, NULL, &error);
  g_autoptr (DsTarget) chr = NULL;

  ck_assert_ptr_null (dir);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_ptr_nonnull (strstr (error->message, tmpdir));

  g_clear_error (&error);
  chr = ds_target_open ("/dev/null", DS_TARGET_OPEN_READ, NULL, &error);
  ck_assert_ptr_null (chr);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_ptr_nonnull (strstr (error->message, "/dev/null"));

  g_clear_error (&error);
  ck_assert (!ds_target_check_write ("/dev/null", "/dev/null", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
}
END_TEST

START_TEST (test_open_empty_file)
{
  g_autofree char *path = make_file ("empty.bin", 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = ds_target_open (path, DS_TARGET_OPEN_READ, NULL, &error);

  ck_assert_ptr_null (target);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_ptr_nonnull (strstr (error->message, "empty (0 bytes)"));
  ck_assert_ptr_nonnull (strstr (error->message, "--create"));
}
END_TEST

START_TEST (test_permission_message)
{
  g_autofree char *path = make_file ("locked.bin", 4096);
  int status = 0;
  pid_t pid;

  /* Root ignores file modes: the open runs in a child that drops to
   * `nobody` (so the teardown can still remove the folder). */
  ck_assert_int_eq (chmod (path, 0), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsTarget) target = NULL;

      if (geteuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
        _exit (2);
      target = ds_target_open (path, DS_TARGET_OPEN_READ, NULL, &error);
      if (target != NULL)
        _exit (3);
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION))
        _exit (4);
      if (strstr (error->message, path) == NULL ||
          strstr (error->message, "root") == NULL ||
          strstr (error->message, "“disk”") == NULL ||
          strchr (error->message, '`') != NULL)
        _exit (5);
      _exit (0);
    }
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status));
  ck_assert_msg (WEXITSTATUS (status) == 0, "child check %d failed", WEXITSTATUS (status));
}
END_TEST

/* An fd opened elsewhere (udisks2 hands one over) goes through the same
 * gate and checks as a path: O_DIRECT is set on it, it must be the file
 * named, writable for a write, and it is closed on failure. */
static void
assert_closed (int fd)
{
  ck_assert_int_eq (fcntl (fd, F_GETFD), -1);
  ck_assert_int_eq (errno, EBADF);
}

START_TEST (test_open_fd)
{
  g_autofree char *path = make_file ("a.bin", 65536);
  g_autofree char *other = make_file ("b.bin", 65536);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) target = NULL;
  DsTarget *refused;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  target = ds_target_open_fd (path, fd, DS_TARGET_OPEN_READ, NULL, &error);
  ck_assert_msg (target != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (target->fd, fd);
  ck_assert (target->direct);
  ck_assert (fcntl (fd, F_GETFL) & O_DIRECT);
  ck_assert (fcntl (fd, F_GETFD) & FD_CLOEXEC);
  ck_assert_uint_eq (target->size_bytes, 65536);
  ck_assert_int_eq (target->kind, DS_TARGET_FILE);

  /* Another file's fd under this name: not what the gate looked at. */
  fd = open (other, O_RDONLY | O_CLOEXEC);
  refused = ds_target_open_fd (path, fd, DS_TARGET_OPEN_READ, NULL, &error);
  ck_assert_ptr_null (refused);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_ptr_nonnull (strstr (error->message, "changed"));
  assert_closed (fd);

  /* A write needs a writable fd, whatever was confirmed. */
  g_clear_error (&error);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  refused = ds_target_open_fd (path, fd, DS_TARGET_OPEN_WRITE, path, &error);
  ck_assert_ptr_null (refused);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_ptr_nonnull (strstr (error->message, "reading only"));
  assert_closed (fd);

  /* The gate still decides: unconfirmed write, then a wrong kind. */
  g_clear_error (&error);
  fd = open (path, O_RDWR | O_CLOEXEC);
  refused = ds_target_open_fd (path, fd, DS_TARGET_OPEN_WRITE, NULL, &error);
  ck_assert_ptr_null (refused);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  assert_closed (fd);

  g_clear_error (&error);
  fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  refused = ds_target_open_fd ("/dev/null", fd, DS_TARGET_OPEN_READ, NULL, &error);
  ck_assert_ptr_null (refused);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  assert_closed (fd);
}
END_TEST

/* No system bus: udisks2 cannot help, and says so in a way the caller
 * recognises (it then keeps its own permission error). */
START_TEST (test_udisks_without_bus)
{
  int status = 0;
  pid_t pid = fork ();

  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *socket = g_build_filename (tmpdir, "no-bus", NULL);
      g_autofree char *address = g_strconcat ("unix:path=", socket, NULL);

      g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);
      if (ds_udisks_open_device ("/dev/loop0", FALSE, NULL, &error) != -1)
        _exit (2);
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED))
        _exit (3);
      if (strstr (error->message, "system bus") == NULL)
        _exit (4);
      _exit (0);
    }
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status));
  ck_assert_msg (WEXITSTATUS (status) == 0, "child check %d failed", WEXITSTATUS (status));
  /* The CLI's --no-udisks is the caller's DsTargetAccess.no_udisks now,
   * per run, not a switch in the core: tests/test-int-udisks.sh runs it
   * end to end (permission denied, udisks2 not asked). */
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  suite = suite_create ("target");
  tc = tcase_create ("target");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_alignment_rules);
  tcase_add_test (tc, test_open_file_direct);
  tcase_add_test (tc, test_open_file_buffered_and_write);
  tcase_add_test (tc, test_open_create);
  tcase_add_test (tc, test_open_tmpfile);
  tcase_add_test (tc, test_open_missing);
  tcase_add_test (tc, test_open_wrong_kind);
  tcase_add_test (tc, test_open_fd);
  tcase_add_test (tc, test_udisks_without_bus);
  tcase_add_test (tc, test_open_empty_file);
  tcase_add_test (tc, test_permission_message);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
