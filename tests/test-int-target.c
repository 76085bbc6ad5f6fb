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
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* Makes every open that asks for O_DIRECT fail with EPERM in this process
 * and what it runs (a seccomp filter, inherited across exec): the way a
 * container or security module refuses root, on any machine. */
static void
refuse_direct_opens (void)
{
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[2])),
    BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K, O_DIRECT, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { .len = G_N_ELEMENTS (filter), .filter = filter };

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    _exit (90);
}

/* Root refused (EPERM from a sandbox): the message must not tell root to
 * become root or join `disk`; it says something outside blocks it.  The
 * core in a child under the filter, and the CLI run under it. */
START_TEST (test_open_permission_root)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  int status = 0;
  pid_t pid;
  int fds[2];
  g_autofree char *err = NULL;
  char buf[4096];
  ssize_t n;

  ck_assert_int_eq (pipe (fds), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsTarget) target = NULL;

      refuse_direct_opens ();
      target = ds_target_open (dev, DS_TARGET_OPEN_READ, NULL, &error);
      if (target != NULL)
        _exit (3);
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION))
        _exit (4);
      if (strstr (error->message, dev) == NULL || strstr (error->message, "even as root") == NULL ||
          strstr (error->message, "“disk”") != NULL)
        _exit (5);
      /* The CLI says the same, and fails the run (1). */
      dup2 (fds[1], STDERR_FILENO);
      execl (ds_test_cli_path (), "diskscope-cli", "benchmark", dev, "--accuracy", "1", NULL);
      _exit (6);
    }
  close (fds[1]);
  while ((n = read (fds[0], buf, sizeof buf - 1)) > 0)
    {
      buf[n] = '\0';
      err = g_strconcat (err ? err : "", buf, NULL);
    }
  close (fds[0]);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  fprintf (stdout, "# CLI under a sandbox that refuses root: %s", err ? err : "(nothing)\n");
  ck_assert (WIFEXITED (status));
  ck_assert_msg (WEXITSTATUS (status) == 1, "child check or CLI exit %d", WEXITSTATUS (status));
  ck_assert_msg (err != NULL && strstr (err, "even as root") != NULL && strstr (err, dev) != NULL,
                 "the CLI does not say what blocks it: %s", err);
}
END_TEST

/* A plain user: the message says who may open the device and how to get
 * there.  Device nodes of our own (same numbers as a loop device of our
 * own), one only root may open, one its group may: the shared /dev is not
 * touched. */
START_TEST (test_open_permission_user)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *private_node = scratch_path ("node-0600");
  g_autofree char *group_node = scratch_path ("node-0660");
  struct group *disk = getgrnam ("disk");
  struct stat st;
  const struct { const char *node; const char *words[3]; } cases[] = {
    { private_node, { "Only its owner, root", "root (sudo)", "“disk”" } },
    { group_node, { "group “disk”", "usermod -aG disk", "root" } },
  };

  ck_assert_msg (disk != NULL, "no group `disk` on this system");
  ck_assert_int_eq (stat (dev, &st), 0);
  ck_assert_int_eq (mknod (private_node, S_IFBLK | 0600, st.st_rdev), 0);
  ck_assert_int_eq (chmod (private_node, 0600), 0);
  ck_assert_int_eq (mknod (group_node, S_IFBLK | 0660, st.st_rdev), 0);
  ck_assert_int_eq (chown (group_node, 0, disk->gr_gid), 0);
  ck_assert_int_eq (chmod (group_node, 0660), 0);
  /* nobody must reach the nodes. */
  ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0755), 0);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                             ds_test_cli_path (), "workload", cases[i].node, "--pattern",
                             "randread", "--duration", "100ms", NULL };
      g_autofree char *err = NULL;
      g_autofree char *out = NULL;
      int rc = ds_test_run (argv, &out, &err);

      fprintf (stdout, "# workload %s as nobody: exit %d: %s", cases[i].node, rc, err);
      ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
      ck_assert_msg (strstr (err, cases[i].node) != NULL, "not named: %s", err);
      for (guint w = 0; w < G_N_ELEMENTS (cases[i].words); w++)
        ck_assert_msg (strstr (err, cases[i].words[w]) != NULL, "“%s” not in: %s",
                       cases[i].words[w], err);
    }
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
  tcase_add_test (tc, test_open_permission_root);
  tcase_add_test (tc, test_open_permission_user);
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
