/* test-error.c: the core's error domain (core/base/ds-error.c)
 *
 * Unit suite: no root, no device.  What ds-error.h promises: the domain's
 * quark by its name; every errno ds_error_from_errno() maps, negative or
 * positive, to its DsError code, and every other (0 and unknown ones
 * included) to DS_ERROR_FAILED; ds_set_error_from_errno()'s messages,
 * word for word: "what: the system's words" by default, the permission
 * advice (a user's, or root's when even root was refused), a device gone,
 * no space; @what taken literally; ds_check_cancelled() only when the flag
 * is set.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-test-util.h"

#define USER_ADVICE ". Run Diskscope as root, or add your user to the group that owns the " \
  "device (usually “disk”: sudo usermod -aG disk $USER, then log in again)"
#define ROOT_ADVICE ", even as root: something outside Diskscope blocks this device (a " \
  "container or virtual-machine sandbox, or a security module such as SELinux or AppArmor)"

/* ---- ds_error_from_errno ---- */

static const struct {
  int     e;
  DsError code;
} mapped[] = {
  { ENOENT, DS_ERROR_NOT_FOUND },
  { EACCES, DS_ERROR_PERMISSION }, { EPERM, DS_ERROR_PERMISSION },
  { EBUSY, DS_ERROR_BUSY }, { ETXTBSY, DS_ERROR_BUSY },
  { EROFS, DS_ERROR_REFUSED },
  { EIO, DS_ERROR_IO }, { EILSEQ, DS_ERROR_IO }, { EBADMSG, DS_ERROR_IO }, { ENODATA, DS_ERROR_IO },
  { ENODEV, DS_ERROR_VANISHED }, { ENXIO, DS_ERROR_VANISHED },
  { ESHUTDOWN, DS_ERROR_VANISHED }, { ENOTCONN, DS_ERROR_VANISHED },
  { ENOSPC, DS_ERROR_NO_SPACE }, { EDQUOT, DS_ERROR_NO_SPACE },
  { EOPNOTSUPP, DS_ERROR_UNSUPPORTED }, { ENOSYS, DS_ERROR_UNSUPPORTED },
  { ECANCELED, DS_ERROR_CANCELLED },
  { EINVAL, DS_ERROR_INVALID }, { ENOTBLK, DS_ERROR_INVALID },
};

/* The domain is "ds-error-quark", one quark however often asked. */
START_TEST (test_quark)
{
  ck_assert_uint_ne (DS_ERROR, 0);
  ck_assert_uint_eq (DS_ERROR, ds_error_quark ());
  ck_assert_str_eq (g_quark_to_string (DS_ERROR), "ds-error-quark");
  ck_assert_uint_eq (g_quark_try_string ("ds-error-quark"), DS_ERROR);
}
END_TEST

/* Each errno it knows, as errno and as -errno (ENOTSUP is EOPNOTSUPP). */
START_TEST (test_from_errno_mapped)
{
  for (guint i = 0; i < G_N_ELEMENTS (mapped); i++)
    {
      ck_assert_msg (ds_error_from_errno (mapped[i].e) == mapped[i].code,
                     "%s: %d", g_strerror (mapped[i].e), ds_error_from_errno (mapped[i].e));
      ck_assert_msg (ds_error_from_errno (-mapped[i].e) == mapped[i].code,
                     "-%s: %d", g_strerror (mapped[i].e), ds_error_from_errno (-mapped[i].e));
    }
  ck_assert_int_eq (ds_error_from_errno (ENOTSUP), DS_ERROR_UNSUPPORTED);
}
END_TEST

/* Every other errno is DS_ERROR_FAILED: 0, common ones it leaves alone,
 * numbers no errno has; of 0..4095, exactly the 21 above map elsewhere,
 * and nothing maps to DS_ERROR_CORRUPT (a file's problem, not the
 * system's). */
START_TEST (test_from_errno_others)
{
  static const int others[] = {
    0, EAGAIN, ENOMEM, EEXIST, EISDIR, ENOTDIR, EFBIG, EINTR, EBADF, EFAULT,
    ETIMEDOUT, EMFILE, ENOTTY, EPIPE, ERANGE, 4095, 9999, G_MAXINT,
  };
  guint n_mapped = 0;

  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      ck_assert_msg (ds_error_from_errno (others[i]) == DS_ERROR_FAILED, "%d", others[i]);
      ck_assert_msg (ds_error_from_errno (-others[i]) == DS_ERROR_FAILED, "-%d", others[i]);
    }
  for (int e = 0; e < 4096; e++)
    {
      DsError code = ds_error_from_errno (e);

      ck_assert_int_ne (code, DS_ERROR_CORRUPT);
      if (code != DS_ERROR_FAILED)
        n_mapped++;
    }
  ck_assert_uint_eq (n_mapped, G_N_ELEMENTS (mapped));
}
END_TEST

/* ---- ds_set_error_from_errno ---- */

/* ds_set_error_from_errno (@e, @what): its code and message. */
static void
assert_set (int         e,
            const char *what,
            DsError     code,
            const char *message)
{
  g_autoptr (GError) error = NULL;

  ds_set_error_from_errno (&error, e, what);
  ck_assert_ptr_nonnull (error);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "%d: code %d", e, error->code);
  ck_assert_str_eq (error->message, message);
}

/* The default: "what: the system's words", the code from the errno,
 * -errno the same as errno; an errno the system has no words for. */
START_TEST (test_set_default)
{
  g_autofree char *unknown = g_strdup_printf ("/dev/sdz: %s", g_strerror (9999));

  assert_set (EIO, "/dev/sdz", DS_ERROR_IO, "/dev/sdz: Input/output error");
  assert_set (-EIO, "/dev/sdz", DS_ERROR_IO, "/dev/sdz: Input/output error");
  assert_set (ENOENT, "/dev/sdz", DS_ERROR_NOT_FOUND, "/dev/sdz: No such file or directory");
  assert_set (-EBUSY, "/dev/sdz", DS_ERROR_BUSY, "/dev/sdz: Device or resource busy");
  assert_set (EROFS, "/mnt", DS_ERROR_REFUSED, "/mnt: Read-only file system");
  assert_set (-EINVAL, "/dev/sdz", DS_ERROR_INVALID, "/dev/sdz: Invalid argument");
  assert_set (EOPNOTSUPP, "/dev/sdz", DS_ERROR_UNSUPPORTED, "/dev/sdz: Operation not supported");
  assert_set (ECANCELED, "/dev/sdz", DS_ERROR_CANCELLED, "/dev/sdz: Operation canceled");
  assert_set (-EAGAIN, "/dev/sdz", DS_ERROR_FAILED, "/dev/sdz: Resource temporarily unavailable");
  assert_set (-EFBIG, "/dev/sdz", DS_ERROR_FAILED, "/dev/sdz: File too large");
  ck_assert_str_ne (unknown, "/dev/sdz: ");
  assert_set (9999, "/dev/sdz", DS_ERROR_FAILED, unknown);
  assert_set (-9999, "/dev/sdz", DS_ERROR_FAILED, unknown);
}
END_TEST

/* @what is taken as it is: a percent sign is no format, an empty one
 * leaves ": ", UTF-8 stays; a NULL @error is left alone. */
START_TEST (test_set_what)
{
  assert_set (EIO, "/tmp/100%s %d%n", DS_ERROR_IO, "/tmp/100%s %d%n: Input/output error");
  assert_set (EIO, "", DS_ERROR_IO, ": Input/output error");
  assert_set (-ENODATA, "/media/Fotos Äpfel", DS_ERROR_IO, "/media/Fotos Äpfel: No data available");
  ds_set_error_from_errno (NULL, EIO, "/dev/sdz");
  ds_set_error_from_errno (NULL, EACCES, "/dev/sdz");
}
END_TEST

/* A device gone and no space: the system's words in parentheses and
 * what happened or what to do. */
START_TEST (test_set_vanished_no_space)
{
  assert_set (ENODEV, "/dev/sdz", DS_ERROR_VANISHED,
              "/dev/sdz: the device is gone (No such device): it was removed or detached");
  assert_set (-ENXIO, "/dev/sdz", DS_ERROR_VANISHED,
              "/dev/sdz: the device is gone (No such device or address): it was removed or detached");
  assert_set (ESHUTDOWN, "/dev/sdz", DS_ERROR_VANISHED,
              "/dev/sdz: the device is gone (Cannot send after transport endpoint shutdown): "
              "it was removed or detached");
  assert_set (-ENOSPC, "/mnt/data", DS_ERROR_NO_SPACE,
              "/mnt/data: no space left on the filesystem (No space left on device): free some "
              "space or choose a smaller test size");
  assert_set (EDQUOT, "/mnt/data", DS_ERROR_NO_SPACE,
              "/mnt/data: no space left on the filesystem (Disk quota exceeded): free some "
              "space or choose a smaller test size");
}
END_TEST

/* Refused: a user is told to become root or join the device's group;
 * root, that something outside Diskscope blocks it.  As root, this forked
 * case checks both (nobody's effective uid, then root's again). */
START_TEST (test_set_permission)
{
  gboolean root = geteuid () == 0;

  if (root)
    ck_assert_int_eq (seteuid (65534), 0);
  assert_set (EACCES, "/dev/sdz", DS_ERROR_PERMISSION, "/dev/sdz: Permission denied" USER_ADVICE);
  assert_set (-EPERM, "/dev/sdz", DS_ERROR_PERMISSION, "/dev/sdz: Operation not permitted" USER_ADVICE);
  if (!root)
    return;

  ck_assert_int_eq (seteuid (0), 0);
  assert_set (-EACCES, "/dev/sdz", DS_ERROR_PERMISSION, "/dev/sdz: Permission denied" ROOT_ADVICE);
  assert_set (EPERM, "/dev/sdz", DS_ERROR_PERMISSION, "/dev/sdz: Operation not permitted" ROOT_ADVICE);
}
END_TEST

/* ---- ds_check_cancelled ---- */

/* No flag or 0: 0 and nothing set; any other value: -ECANCELED and
 * DS_ERROR_CANCELLED in the user's words (a NULL @error too). */
START_TEST (test_check_cancelled)
{
  static const gint set[] = { 1, -1, 2, G_MAXINT };
  gint cancel = 0;

  {
    g_autoptr (GError) error = NULL;

    ck_assert_int_eq (ds_check_cancelled (NULL, &error), 0);
    ck_assert_ptr_null (error);
    ck_assert_int_eq (ds_check_cancelled (&cancel, &error), 0);
    ck_assert_ptr_null (error);
  }
  for (guint i = 0; i < G_N_ELEMENTS (set); i++)
    {
      g_autoptr (GError) error = NULL;

      g_atomic_int_set (&cancel, set[i]);
      ck_assert_int_eq (ds_check_cancelled (&cancel, &error), -ECANCELED);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED));
      ck_assert_str_eq (error->message, "the run was stopped by the user");
      ck_assert_int_eq (ds_check_cancelled (&cancel, NULL), -ECANCELED);
      ck_assert_int_eq (cancel, set[i]);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("error");
  TCase *map = tcase_create ("from-errno");
  TCase *set = tcase_create ("set");
  TCase *cancel = tcase_create ("cancelled");

  tcase_add_test (map, test_quark);
  tcase_add_test (map, test_from_errno_mapped);
  tcase_add_test (map, test_from_errno_others);
  suite_add_tcase (s, map);

  tcase_add_test (set, test_set_default);
  tcase_add_test (set, test_set_what);
  tcase_add_test (set, test_set_vanished_no_space);
  tcase_add_test (set, test_set_permission);
  suite_add_tcase (s, set);

  tcase_add_test (cancel, test_check_cancelled);
  suite_add_tcase (s, cancel);

  return ds_test_run_suite (s);
}
