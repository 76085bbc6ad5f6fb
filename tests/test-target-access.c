/* test-target-access.c: why a target could not be opened, and the fds
 * opened elsewhere (core/io/ds-target-access.c)
 *
 * Unit suite: no device is opened (block device nodes are made with
 * mknod in a temporary folder when the test runs as root, only to be
 * stat()ed), and every permission case runs as `nobody` (a forked child
 * drops to it when the test runs as root).  What the module promises:
 * each open(2) errno becomes its DsError with a sentence naming the path
 * (busy, no O_DIRECT, read-only, not found...); a permission error on a
 * device says which group may open it and how to join it, or that only
 * its owner may (with its mode); root and non-devices get the plain
 * errno sentence; an fd opened elsewhere must be read-write for a write,
 * gets O_DIRECT set or cleared as asked and close-on-exec; and when
 * udisks2 cannot be asked, the caller's own error stays, with udisks2's
 * reason appended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-target-private.h"
#include "ds-test-util.h"

#define NOBODY 65534

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-target-access-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
  /* `nobody` must see into it. */
  ck_assert_int_eq (chmod (dir, 0755), 0);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

static char *
make_file (const char *name,
           mode_t      mode)
{
  char *path = g_build_filename (dir, name, NULL);

  ck_assert (g_file_set_contents (path, "0123456789abcdef", 16, NULL));
  ck_assert_int_eq (chmod (path, mode), 0);
  return path;
}

/* _ds_target_set_open_error (@e, @path, @direct) as the current user:
 * "CODE|message", or "none" when no error was set. */
static char *
open_error (int         e,
            const char *path,
            gboolean    direct)
{
  g_autoptr (GError) error = NULL;

  _ds_target_set_open_error (&error, e, path, direct);
  if (error == NULL)
    return g_strdup ("none");
  ck_assert_uint_eq (error->domain, DS_ERROR);
  return g_strdup_printf ("%d|%s", error->code, error->message);
}

/* The same as `nobody`: in a child that drops to it when we are root. */
static char *
open_error_unprivileged (int         e,
                         const char *path)
{
  int fds[2];
  int status = 0;
  GString *text = g_string_new (NULL);
  char buf[512];
  ssize_t n;
  pid_t pid;

  if (geteuid () != 0)
    return open_error (e, path, FALSE);

  ck_assert_int_eq (pipe (fds), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autofree char *said = NULL;

      close (fds[0]);
      if (setgroups (0, NULL) != 0 || setgid (NOBODY) != 0 || setuid (NOBODY) != 0)
        _exit (2);
      said = open_error (e, path, FALSE);
      if (write (fds[1], said, strlen (said)) != (ssize_t) strlen (said))
        _exit (3);
      _exit (0);
    }
  close (fds[1]);
  while ((n = read (fds[0], buf, sizeof buf)) > 0)
    g_string_append_len (text, buf, n);
  close (fds[0]);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status));
  ck_assert_msg (WEXITSTATUS (status) == 0, "child failed: %d", WEXITSTATUS (status));
  return g_string_free (text, FALSE);
}

static void
assert_said (char       *said,
             DsError     code,
             const char *message)
{
  g_autofree char *want = g_strdup_printf ("%d|%s", code, message);

  ck_assert_str_eq (said, want);
  g_free (said);
}

/* Each errno its code and sentence, naming the path. */
START_TEST (test_errno_words)
{
  const char *p = "/dev/sdz";

  assert_said (open_error (EBUSY, p, FALSE), DS_ERROR_BUSY,
               "/dev/sdz is in use by another program (mounted, or opened exclusively)");
  assert_said (open_error (EBUSY, p, TRUE), DS_ERROR_BUSY,
               "/dev/sdz is in use by another program (mounted, or opened exclusively)");
  /* EINVAL is the missing O_DIRECT only when it was asked. */
  assert_said (open_error (EINVAL, p, TRUE), DS_ERROR_UNSUPPORTED,
               "/dev/sdz does not support direct I/O (O_DIRECT): its filesystem cannot "
               "bypass the page cache");
  assert_said (open_error (EINVAL, p, FALSE), DS_ERROR_INVALID, "/dev/sdz: Invalid argument");
  assert_said (open_error (EROFS, p, FALSE), DS_ERROR_REFUSED,
               "/dev/sdz is on a read-only filesystem or device: it cannot be written");
  assert_said (open_error (ENOENT, p, TRUE), DS_ERROR_NOT_FOUND,
               "/dev/sdz: No such file or directory");
  assert_said (open_error (ENXIO, p, FALSE), DS_ERROR_VANISHED,
               "/dev/sdz: the device is gone (No such device or address): it was removed "
               "or detached");
  assert_said (open_error (ENOSPC, p, FALSE), DS_ERROR_NO_SPACE,
               "/dev/sdz: no space left on the filesystem (No space left on device): free "
               "some space or choose a smaller test size");
  assert_said (open_error (EIO, p, FALSE), DS_ERROR_IO, "/dev/sdz: Input/output error");
  assert_said (open_error (EMFILE, p, FALSE), DS_ERROR_FAILED, "/dev/sdz: Too many open files");
  /* A negative errno is the same error. */
  assert_said (open_error (-ENOENT, p, FALSE), DS_ERROR_NOT_FOUND,
               "/dev/sdz: No such file or directory");

  /* Nobody asked for the error: nothing to crash on. */
  _ds_target_set_open_error (NULL, EBUSY, p, FALSE);
  _ds_target_set_open_error (NULL, EACCES, p, FALSE);
}
END_TEST

/* Not a device (a file, a folder, nothing there): the general advice,
 * or, for root, that something outside Diskscope blocks it. */
START_TEST (test_permission_not_a_device)
{
  g_autofree char *file = make_file ("unreadable.bin", 0);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autofree char *msg = NULL;
  const char *advice = ": Permission denied. Run Diskscope as root, or add your user to the "
                       "group that owns the device (usually “disk”: sudo usermod -aG disk "
                       "$USER, then log in again)";
  const char *paths[] = { file, missing, dir };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      msg = g_strconcat (paths[i], advice, NULL);
      assert_said (open_error_unprivileged (EACCES, paths[i]), DS_ERROR_PERMISSION, msg);
      g_clear_pointer (&msg, g_free);
    }
  msg = g_strconcat (file, ": Operation not permitted. Run Diskscope as root", NULL);
  {
    g_autofree char *said = open_error_unprivileged (EPERM, file);

    ck_assert_msg (strstr (said, msg) != NULL, "%s", said);
  }

  if (geteuid () == 0)
    {
      g_clear_pointer (&msg, g_free);
      msg = g_strconcat (file, ": Permission denied, even as root: something outside "
                         "Diskscope blocks this device (a container or virtual-machine "
                         "sandbox, or a security module such as SELinux or AppArmor)", NULL);
      assert_said (open_error (EACCES, file, FALSE), DS_ERROR_PERMISSION, msg);
    }
}
END_TEST

/* A device node of @mode and group @gid in the folder (only root may
 * mknod); else a real one in /dev whose group may (@group_may) or may not
 * open it, only stat()ed; else NULL, and a note. */
static char *
make_node (const char *name,
           mode_t      mode,
           gid_t       gid,
           gboolean    group_may)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GDir) dev = NULL;
  const char *entry;

  if (mknod (path, S_IFBLK | mode, makedev (7, 250)) == 0 && chown (path, 0, gid) == 0 &&
      chmod (path, mode) == 0)
    return path;
  g_free (path);

  dev = g_dir_open ("/dev", 0, NULL);
  while (dev != NULL && (entry = g_dir_read_name (dev)) != NULL)
    {
      g_autofree char *real = g_build_filename ("/dev", entry, NULL);
      struct stat st;

      if (lstat (real, &st) == 0 && S_ISBLK (st.st_mode) && st.st_uid == 0 &&
          ((st.st_mode & 060) != 0 && getgrgid (st.st_gid) != NULL) == group_may)
        return g_steal_pointer (&real);
    }
  ds_test_note ("no device node to look at: cannot mknod (%s) and none in /dev fits",
                g_strerror (errno));
  return NULL;
}

/* A device a group may open: that group, and how to join it. */
START_TEST (test_permission_device_group)
{
  struct group *gr = getgrnam ("disk");
  g_autofree char *node = make_node ("sdz", 0660, gr != NULL ? gr->gr_gid : 0, TRUE);
  g_autofree char *want = NULL;
  g_autofree char *group = NULL;
  struct stat st;

  if (node == NULL)
    return;
  ck_assert_int_eq (stat (node, &st), 0);
  group = g_strdup (getgrgid (st.st_gid)->gr_name);
  want = g_strdup_printf ("%s: Permission denied. Run Diskscope as root, or add your user to "
                          "the group “%s”, which may open %s (sudo usermod -aG %s $USER, then "
                          "log in again)", node, group, node, group);
  assert_said (open_error_unprivileged (EACCES, node), DS_ERROR_PERMISSION, want);
  if (!g_str_has_prefix (node, dir))
    return;

  /* Read access alone is enough for the group to be named. */
  ck_assert_int_eq (chmod (node, 0640), 0);
  assert_said (open_error_unprivileged (EACCES, node), DS_ERROR_PERMISSION, want);
}
END_TEST

/* No group may open it, or its group has no name: only its owner, with
 * the mode that says so. */
START_TEST (test_permission_device_owner)
{
  g_autofree char *node = make_node ("sdy", 0600, 0, FALSE);
  g_autofree char *want = NULL;
  gid_t nameless = 3999999;
  struct stat st;

  if (node == NULL)
    return;
  ck_assert_int_eq (stat (node, &st), 0);
  want = g_strdup_printf ("%s: Permission denied. Only its owner, root, may open it (mode "
                          "%04o): run Diskscope as root (sudo), or let a group you are in "
                          "open it (udev usually gives disks to the group “disk”)", node,
                          (unsigned) (st.st_mode & 07777));
  assert_said (open_error_unprivileged (EACCES, node), DS_ERROR_PERMISSION, want);
  if (!g_str_has_prefix (node, dir))
    return;
  ck_assert_str_eq (want + strlen (node), ": Permission denied. Only its owner, root, may "
                    "open it (mode 0600): run Diskscope as root (sudo), or let a group you "
                    "are in open it (udev usually gives disks to the group “disk”)");

  ck_assert_ptr_null (getgrgid (nameless));
  ck_assert_int_eq (chown (node, 0, nameless), 0);
  ck_assert_int_eq (chmod (node, 0660), 0);
  g_clear_pointer (&want, g_free);
  want = g_strdup_printf ("%s: Permission denied. Only its owner, root, may open it (mode "
                          "0660): run Diskscope as root (sudo), or let a group you are in "
                          "open it (udev usually gives disks to the group “disk”)", node);
  assert_said (open_error_unprivileged (EACCES, node), DS_ERROR_PERMISSION, want);
}
END_TEST

static int
open_checked (const char *path,
              int         flags)
{
  int fd = open (path, flags | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  return fd;
}

/* A read: any access mode; O_DIRECT set or cleared as asked; close-on-
 * exec set.  A write: read-write only, the fd left as it was. */
START_TEST (test_adjust_fd_mode)
{
  g_autofree char *path = make_file ("a.bin", 0644);
  g_autoptr (GError) error = NULL;
  g_autofree char *want = g_strdup_printf ("%s was opened for reading only: it cannot be "
                                           "written", path);
  int fd;

  /* Opened without close-on-exec, buffered: both fixed for a direct read. */
  fd = open (path, O_RDONLY);
  ck_assert_int_ge (fd, 0);
  ck_assert (_ds_target_adjust_fd_mode (fd, path, FALSE, TRUE, &error));
  ck_assert_ptr_null (error);
  ck_assert (fcntl (fd, F_GETFL) & O_DIRECT);
  ck_assert (fcntl (fd, F_GETFD) & FD_CLOEXEC);
  /* Buffered asked: O_DIRECT cleared again. */
  ck_assert (_ds_target_adjust_fd_mode (fd, path, FALSE, FALSE, &error));
  ck_assert_int_eq (fcntl (fd, F_GETFL) & O_DIRECT, 0);

  /* A write on a read-only or write-only fd: refused, the fd untouched. */
  ck_assert (!_ds_target_adjust_fd_mode (fd, path, TRUE, TRUE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_str_eq (error->message, want);
  ck_assert_int_eq (fcntl (fd, F_GETFL) & O_DIRECT, 0);
  close (fd);
  g_clear_error (&error);
  fd = open_checked (path, O_WRONLY);
  ck_assert (!_ds_target_adjust_fd_mode (fd, path, TRUE, FALSE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_str_eq (error->message, want);
  close (fd);
  g_clear_error (&error);

  /* Read-write: accepted, O_DIRECT kept off when buffered. */
  fd = open_checked (path, O_RDWR);
  ck_assert (_ds_target_adjust_fd_mode (fd, path, TRUE, FALSE, &error));
  ck_assert_int_eq (fcntl (fd, F_GETFL) & O_DIRECT, 0);
  ck_assert_int_eq (fcntl (fd, F_GETFL) & O_ACCMODE, O_RDWR);
  close (fd);

  /* Not an fd at all: the errno's sentence. */
  ck_assert (!_ds_target_adjust_fd_mode (fd, path, FALSE, TRUE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED));
  g_free (want);
  want = g_strdup_printf ("%s: Bad file descriptor", path);
  ck_assert_str_eq (error->message, want);
}
END_TEST

/* A file whose filesystem has no O_DIRECT (procfs): the fcntl's EINVAL
 * is said as the missing direct I/O. */
START_TEST (test_adjust_fd_no_direct)
{
  g_autoptr (GError) error = NULL;
  int fd = open_checked ("/proc/self/stat", O_RDONLY);

  if (fcntl (fd, F_SETFL, O_DIRECT) == 0)
    {
      ds_test_note ("procfs takes O_DIRECT here: nothing to refuse");
      close (fd);
      return;
    }
  ck_assert (!_ds_target_adjust_fd_mode (fd, "/proc/self/stat", FALSE, TRUE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, "/proc/self/stat does not support direct I/O (O_DIRECT): "
                    "its filesystem cannot bypass the page cache");
  /* Buffered: nothing to set, accepted. */
  g_clear_error (&error);
  ck_assert (_ds_target_adjust_fd_mode (fd, "/proc/self/stat", FALSE, FALSE, &error));
  close (fd);
}
END_TEST

/* No system bus: udisks2 cannot be asked; our own error stays, its code
 * too, with udisks2's reason after it. */
START_TEST (test_udisks_unavailable)
{
  g_autofree char *socket = g_build_filename (dir, "no-bus", NULL);
  g_autofree char *address = g_strconcat ("unix:path=", socket, NULL);
  g_autofree char *want = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *missing = g_build_filename (dir, "gone", NULL);

  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);
  ck_assert_int_eq (_ds_target_open_via_udisks (missing, ENOENT, FALSE, TRUE, NULL, &error), -1);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  want = g_strdup_printf ("%s: No such file or directory. udisks2 could not open it instead: "
                          "no system bus to ask udisks2 (", missing);
  ck_assert_msg (g_str_has_prefix (error->message, want), "%s", error->message);
  ck_assert (g_str_has_suffix (error->message, ")"));
  g_clear_error (&error);

  ck_assert_int_eq (_ds_target_open_via_udisks (missing, EBUSY, TRUE, FALSE, NULL, &error), -1);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_BUSY));
  g_free (want);
  want = g_strdup_printf ("%s is in use by another program (mounted, or opened exclusively). "
                          "udisks2 could not open it instead: ", missing);
  ck_assert_msg (g_str_has_prefix (error->message, want), "%s", error->message);

  /* Nobody asked for the error. */
  ck_assert_int_eq (_ds_target_open_via_udisks (missing, EACCES, FALSE, TRUE, NULL, NULL), -1);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("target-access");
  TCase *tc = tcase_create ("target-access");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_errno_words);
  tcase_add_test (tc, test_permission_not_a_device);
  tcase_add_test (tc, test_permission_device_group);
  tcase_add_test (tc, test_permission_device_owner);
  tcase_add_test (tc, test_adjust_fd_mode);
  tcase_add_test (tc, test_adjust_fd_no_direct);
  tcase_add_test (tc, test_udisks_unavailable);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
