/* test-save.c: ds_save_contents_atomic() and ds_save_check_destination(),
 * the one save path (no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-save.h"
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

int
main (void)
{
  Suite *suite = suite_create ("save");
  TCase *tc = tcase_create ("save");

  ds_test_init ("save");
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_atomic_replace);
  tcase_add_test (tc, test_stdout);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
