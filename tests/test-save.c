/* test-save.c: ds_save_file() and ds_save_check(), the one save path (no
 * root; as root, device nodes and owners of its own too)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-save.h"
#include "ds-test-snapshot.h"
#include "ds-test-util.h"

static void
assert_refused (const char *path,
                const char *not_this,
                int         code,
                const char *words)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (!ds_save_check_destination (path, not_this, &error), "%s passes the check", path);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "%s: code %d, want %d: %s", path,
                 error->code, code, error->message);
  ck_assert_msg (strstr (error->message, words) != NULL, "%s: “%s” not in: %s", path, words,
                 error->message);
  /* The writer applies the same rules (the target is the caller's to
   * name: ds_result_save() checks it). */
  if (not_this == NULL)
    {
      g_clear_error (&error);
      ck_assert (!ds_save_contents_atomic (path, "x", 1, &error));
      ck_assert (g_error_matches (error, DS_ERROR, code));
    }
}

START_TEST (test_refusals)
{
  g_autofree char *fifo = ds_test_scratch_path ("fifo");
  g_autofree char *dir = ds_test_scratch_path ("dir");
  g_autofree char *to_fifo = ds_test_scratch_path ("to-fifo");
  g_autofree char *loop = ds_test_scratch_path ("loop-link");
  g_autofree char *target = ds_test_scratch_path ("target.bin");
  g_autofree char *to_target = ds_test_scratch_path ("to-target");
  g_autofree char *in_missing = ds_test_scratch_path ("missing/r.json");
  g_autofree char *in_file = ds_test_scratch_path ("target.bin/r.json");

  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  ck_assert_int_eq (symlink (fifo, to_fifo), 0);
  ck_assert_int_eq (symlink (loop, loop), 0);
  ck_assert (g_file_set_contents (target, "data", -1, NULL));
  ck_assert_int_eq (symlink (target, to_target), 0);

  assert_refused ("", NULL, DS_ERROR_INVALID, "empty");
  assert_refused (fifo, NULL, DS_ERROR_REFUSED, "FIFO");
  assert_refused (dir, NULL, DS_ERROR_REFUSED, "a folder");
  assert_refused ("/dev/null", NULL, DS_ERROR_REFUSED, "character device");
  assert_refused (to_fifo, NULL, DS_ERROR_REFUSED, "symbolic link");
  assert_refused (loop, NULL, DS_ERROR_REFUSED, "symbolic link");
  assert_refused (in_missing, NULL, DS_ERROR_NOT_FOUND, "does not exist");
  assert_refused (in_file, NULL, DS_ERROR_NOT_FOUND, "not a folder");
  /* The run's own target, by its name, a link, or a name to come. */
  assert_refused (target, target, DS_ERROR_REFUSED, "own target");
  assert_refused (to_target, target, DS_ERROR_REFUSED, "own target");
  {
    g_autofree char *future = ds_test_scratch_path ("future.bin");
    g_autofree char *dotted = ds_test_scratch_path ("./future.bin");

    assert_refused (dotted, future, DS_ERROR_REFUSED, "own target");
  }

  /* Nothing was replaced. */
  {
    struct stat st;
    g_autofree char *data = NULL;

    ck_assert_int_eq (lstat (fifo, &st), 0);
    ck_assert (S_ISFIFO (st.st_mode));
    ck_assert (g_file_get_contents (target, &data, NULL, NULL));
    ck_assert_str_eq (data, "data");
  }
}
END_TEST

START_TEST (test_atomic_replace)
{
  g_autofree char *path = ds_test_scratch_path ("r.json");
  g_autofree char *link = ds_test_scratch_path ("r-link");
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  struct stat before, after;

  ck_assert (ds_save_contents_atomic (path, "one", 3, &error));
  ck_assert_int_eq (chmod (path, 0604), 0);
  ck_assert_int_eq (stat (path, &before), 0);

  ck_assert (ds_save_contents_atomic (path, "two", 3, &error));
  ck_assert_int_eq (stat (path, &after), 0);
  ck_assert_uint_ne (before.st_ino, after.st_ino);     /* renamed over */
  ck_assert_uint_eq (after.st_mode & 07777, 0604);      /* mode kept */
  ck_assert (g_file_get_contents (path, &data, NULL, NULL));
  ck_assert_str_eq (data, "two");
  g_clear_pointer (&data, g_free);

  /* Through a link to a regular file: the file changes, the link stays. */
  ck_assert_int_eq (symlink (path, link), 0);
  ck_assert (ds_save_contents_atomic (link, "three", 5, &error));
  ck_assert_int_eq (lstat (link, &after), 0);
  ck_assert (S_ISLNK (after.st_mode));
  ck_assert (g_file_get_contents (path, &data, NULL, NULL));
  ck_assert_str_eq (data, "three");

  /* No temporary file left beside it. */
  {
    g_autoptr (GDir) dir = g_dir_open (ds_test_scratch_dir (), 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      ck_assert_msg (name[0] != '.', "left behind: %s", name);
  }
}
END_TEST

/* "-" is stdout, and a stdout that fails says so. */
START_TEST (test_stdout)
{
  int fds[2];
  pid_t pid;
  int status;
  char buf[16] = { 0 };

  ck_assert_int_eq (pipe (fds), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;
      int full = open ("/dev/full", O_WRONLY);

      dup2 (fds[1], STDOUT_FILENO);
      if (!ds_save_contents_atomic ("-", "hello", 5, &error))
        _exit (2);
      /* /dev/full: ENOSPC, named. */
      dup2 (full, STDOUT_FILENO);
      if (ds_save_contents_atomic ("-", "hello", 5, &error))
        _exit (3);
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_NO_SPACE) ||
          strstr (error->message, "stdout") == NULL)
        _exit (4);
      g_clear_error (&error);
      /* Closed. */
      close (STDOUT_FILENO);
      if (ds_save_contents_atomic ("-", "hello", 5, &error))
        _exit (5);
      _exit (0);
    }
  close (fds[1]);
  ck_assert_int_eq (read (fds[0], buf, sizeof buf - 1), 5);
  ck_assert_str_eq (buf, "hello");
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) == 0, "child check %d failed",
                 WEXITSTATUS (status));
  close (fds[0]);
}
END_TEST


/* ---- What a refused save leaves: everything as it was ------------------ */

/* Refused by the check and by the writer, with @words in the message, and
 * what is at @path (and at @also, when given) unchanged. */
static void
assert_kept (const char       *path,
             const DsSaveKeep *keep,
             const char       *also,
             const char       *words)
{
  DsTestSnapshot at_path = ds_test_snapshot (path);
  DsTestSnapshot at_also = { 0 };
  g_autoptr (GError) error = NULL;

  if (also != NULL)
    at_also = ds_test_snapshot (also);

  ck_assert_msg (!ds_save_check (path, keep, &error), "%s passes the check", path);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED) ||
                 g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION), "%s: %s", path, error->message);
  ck_assert_msg (strstr (error->message, words) != NULL, "%s: “%s” not in: %s", path, words,
                 error->message);
  ck_assert_msg (strstr (error->message, path) != NULL, "%s not named: %s", path, error->message);
  g_clear_error (&error);
  ck_assert_msg (!ds_save_file (path, "new", 3, keep, &error), "%s was written", path);
  ck_assert (strstr (error->message, words) != NULL);

  ds_test_snapshot_unchanged (&at_path, path);
  if (also != NULL)
    ds_test_snapshot_unchanged (&at_also, also);
}

/* The files an output is made from are never replaced: by their name, a
 * name that canonicalizes to it, a link, or a hard link. */
START_TEST (test_keeps_inputs)
{
  g_autofree char *a = ds_test_scratch_path ("a.json");
  g_autofree char *b = ds_test_scratch_path ("b.json");
  g_autofree char *dotted = ds_test_scratch_path ("./sub/../a.json");
  g_autofree char *sub = ds_test_scratch_path ("sub");
  g_autofree char *to_a = ds_test_scratch_path ("link-to-a");
  g_autofree char *hard = ds_test_scratch_path ("hard-b.json");
  g_autofree char *other = ds_test_scratch_path ("out.png");
  g_autofree char *data = NULL;
  const char *inputs[] = { a, b, NULL };
  const DsSaveKeep keep = { .inputs = inputs };
  g_autoptr (GError) error = NULL;

  ck_assert (g_file_set_contents (a, "result a", -1, NULL));
  ck_assert (g_file_set_contents (b, "result b", -1, NULL));
  ck_assert_int_eq (g_mkdir_with_parents (sub, 0700), 0);
  ck_assert_int_eq (symlink (a, to_a), 0);
  ck_assert_int_eq (link (b, hard), 0);

  assert_kept (a, &keep, NULL, "one of the inputs");
  assert_kept (b, &keep, NULL, "one of the inputs");
  assert_kept (dotted, &keep, a, "one of the inputs");
  assert_kept (to_a, &keep, a, "one of the inputs");
  assert_kept (hard, &keep, b, "one of the inputs");

  /* Relative to the current folder, too. */
  ck_assert_int_eq (chdir (ds_test_scratch_dir ()), 0);
  assert_kept ("a.json", &keep, a, "one of the inputs");

  /* Anything else is written. */
  ck_assert_msg (ds_save_file (other, "png", 3, &keep, &error), "%s", error ? error->message : "");
  ck_assert (g_file_get_contents (other, &data, NULL, NULL));
  ck_assert_str_eq (data, "png");

  /* The target and the inputs together. */
  {
    const DsSaveKeep both = { .target = other, .inputs = inputs };

    assert_kept (other, &both, NULL, "own target");
    assert_kept (a, &both, NULL, "one of the inputs");
  }
}
END_TEST

/* A device node, a FIFO, links to a device and to nothing, a socket's
 * neighbour: each stays exactly what it was (type, device number, mode). */
START_TEST (test_nodes_stay)
{
  g_autofree char *fifo = ds_test_scratch_path ("node.fifo");
  g_autofree char *to_zero = ds_test_scratch_path ("to-zero");
  g_autofree char *dangling = ds_test_scratch_path ("to-nothing");
  g_autofree char *missing = ds_test_scratch_path ("never-made.json");
  g_autofree char *chr = ds_test_scratch_path ("null-copy");
  struct stat st;

  ck_assert_int_eq (mkfifo (fifo, 0640), 0);
  ck_assert_int_eq (symlink ("/dev/zero", to_zero), 0);
  ck_assert_int_eq (symlink (missing, dangling), 0);

  assert_kept (fifo, NULL, NULL, "FIFO");
  assert_kept ("/dev/null", NULL, NULL, "character device");
  assert_kept (to_zero, NULL, "/dev/zero", "character device");
  /* No file is made through a link to a name that is not there. */
  assert_kept (dangling, NULL, NULL, "does not exist");
  ck_assert (!g_file_test (missing, G_FILE_TEST_EXISTS));

  /* A device node of our own (root): its number and mode are kept. */
  if (ds_test_is_root ())
    {
      ck_assert_int_eq (mknod (chr, S_IFCHR | 0600, makedev (1, 3)), 0);
      assert_kept (chr, NULL, NULL, "character device");
      ck_assert_int_eq (lstat (chr, &st), 0);
      ck_assert (S_ISCHR (st.st_mode) && st.st_rdev == makedev (1, 3));
    }
  else
    ds_test_note ("not root: no device node of our own (mknod), /dev/null and /dev/zero only");
}
END_TEST

/* A file its owner made read-only is not replaced (the folder would let
 * the rename through).  Checked as an unprivileged user: root may write
 * any file. */
START_TEST (test_read_only_file)
{
  g_autofree char *dir = ds_test_scratch_path ("shared");
  g_autofree char *path = ds_test_scratch_path ("shared/locked.json");
  struct passwd *nobody = getpwnam ("nobody");
  pid_t pid;
  int status;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0777), 0);
  ck_assert_int_eq (chmod (dir, 0777), 0);
  ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0755), 0);
  ck_assert (g_file_set_contents (path, "keep me", -1, NULL));
  ck_assert_int_eq (chmod (path, 0444), 0);
  if (ds_test_is_root ())
    {
      ck_assert_ptr_nonnull (nobody);
      ck_assert_int_eq (chown (path, nobody->pw_uid, nobody->pw_gid), 0);
    }

  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *data = NULL;

      if (geteuid () == 0 && (setgid (nobody->pw_gid) != 0 || setuid (nobody->pw_uid) != 0))
        _exit (2);
      if (ds_save_file (path, "new", 3, NULL, &error))
        _exit (3);
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION) ||
          strstr (error->message, "read-only") == NULL || strstr (error->message, "0444") == NULL)
        _exit (4);
      if (!g_file_get_contents (path, &data, NULL, NULL) || strcmp (data, "keep me") != 0)
        _exit (5);
      _exit (0);
    }
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) == 0, "child check %d failed",
                 WEXITSTATUS (status));
}
END_TEST

/* The replacement keeps the old file's mode, and as root its owner and
 * group; a new file gets the umask's mode. */
START_TEST (test_keeps_mode_and_owner)
{
  g_autofree char *path = ds_test_scratch_path ("private.json");
  g_autofree char *fresh = ds_test_scratch_path ("fresh.json");
  struct passwd *nobody = getpwnam ("nobody");
  g_autoptr (GError) error = NULL;
  struct stat st;
  mode_t mask = umask (022);

  ck_assert (g_file_set_contents (path, "old", -1, NULL));
  ck_assert_int_eq (chmod (path, 0600), 0);
  if (ds_test_is_root ())
    ck_assert_int_eq (chown (path, nobody->pw_uid, nobody->pw_gid), 0);

  ck_assert_msg (ds_save_file (path, "new", 3, NULL, &error), "%s", error ? error->message : "");
  ck_assert_int_eq (stat (path, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0600);
  if (ds_test_is_root ())
    {
      ck_assert_uint_eq (st.st_uid, nobody->pw_uid);
      ck_assert_uint_eq (st.st_gid, nobody->pw_gid);
    }
  else
    ds_test_note ("not root: the owner cannot be given away, only the mode is checked");

  ck_assert (ds_save_file (fresh, "new", 3, NULL, &error));
  ck_assert_int_eq (stat (fresh, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0644);
  umask (mask);
}
END_TEST

START_TEST (test_same_file)
{
  g_autofree char *a = ds_test_scratch_path ("one.png");
  g_autofree char *dotted = ds_test_scratch_path ("./one.png");
  g_autofree char *to_one = ds_test_scratch_path ("link-one");
  g_autofree char *other = ds_test_scratch_path ("two.png");

  ck_assert (g_file_set_contents (a, "x", -1, NULL));
  ck_assert_int_eq (symlink (a, to_one), 0);
  ck_assert (ds_save_same_file (a, dotted));
  ck_assert (ds_save_same_file (a, to_one));
  ck_assert (ds_save_same_file ("-", "-"));
  ck_assert (!ds_save_same_file (a, other));
  ck_assert (!ds_save_same_file (a, "-"));
  /* Two names not made yet: by name. */
  ck_assert (ds_save_same_file (other, other));
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("save");
  TCase *tc = tcase_create ("save");

  ds_test_init ("save");
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_atomic_replace);
  tcase_add_test (tc, test_stdout);
  tcase_add_test (tc, test_keeps_inputs);
  tcase_add_test (tc, test_nodes_stay);
  tcase_add_test (tc, test_read_only_file);
  tcase_add_test (tc, test_keeps_mode_and_owner);
  tcase_add_test (tc, test_same_file);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
