/* test-library-lock.c: the lock every change to a saved result is made
 * under (core/library/ds-library-lock.c): who waits for whom, a holder that
 * died, what it refuses to lock and what it then says
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-library-private.h"
#include "ds-test-util.h"

static char *dir;
static char *lock_path;

/* ---- the clock the lock waits by ---------------------------------------- */

/* A change waits 30 s for another holder of its result's lock.  The core
 * is linked statically into this program, so its calls to
 * g_get_monotonic_time() reach this one rather than GLib's: the real
 * clock, which a case may make skip 10 s ahead at every look, so that the
 * 30 s run out in a few polls of real time.  clock_looks counts the looks
 * while skipping (how many times the lock was tried). */
static gboolean clock_skipping;
static guint clock_looks;
static gint64 clock_skipped_us;

gint64
g_get_monotonic_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  if (clock_skipping)
    {
      clock_looks++;
      clock_skipped_us += 10 * G_USEC_PER_SEC;
    }
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000 + clock_skipped_us;
}

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-library-lock-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
  lock_path = g_build_filename (dir, ".diskscope-lock", NULL);
  clock_skipping = FALSE;
  clock_looks = 0;
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("chmod -R u+rwx '%s'; rm -rf '%s'", dir, dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
  g_clear_pointer (&lock_path, g_free);
}

static DsLibraryLock *
lock_ok (const char *folder,
         const char *id)
{
  g_autoptr (GError) error = NULL;
  DsLibraryLock *lock = ds_library_lock_entry (folder, id, &error);

  ck_assert_msg (lock != NULL, "%s", error ? error->message : "");
  ck_assert_ptr_null (error);
  return lock;
}

/* ---- another process ---------------------------------------------------- */

typedef struct {
  pid_t pid;
  int   release_fd;   /* a byte written (or the pipe closed): it lets go */
} Holder;

/* A process that takes the lock of @id in @folder and holds it until
 * released, or killed. */
static Holder
hold_in_child (const char *folder,
               const char *id)
{
  int ready[2], release[2];
  Holder holder;
  char c = 0;

  ck_assert_int_eq (pipe (ready), 0);
  ck_assert_int_eq (pipe (release), 0);
  holder.pid = fork ();
  ck_assert_int_ge (holder.pid, 0);
  if (holder.pid == 0)
    {
      DsLibraryLock *lock = ds_library_lock_entry (folder, id, NULL);

      close (ready[0]);
      close (release[1]);
      if (lock == NULL || write (ready[1], "L", 1) != 1)
        _exit (1);
      (void) read (release[0], &c, 1);
      ds_library_lock_release (lock);
      _exit (0);
    }
  close (ready[1]);
  close (release[0]);
  ck_assert_int_eq (read (ready[0], &c, 1), 1);
  ck_assert_int_eq (c, 'L');
  close (ready[0]);
  holder.release_fd = release[1];
  return holder;
}

static int
holder_end (Holder *holder,
            int     sig)
{
  int status = 0;

  if (sig != 0)
    ck_assert_int_eq (kill (holder->pid, sig), 0);
  else
    ck_assert_int_eq (write (holder->release_fd, "R", 1), 1);
  close (holder->release_fd);
  ck_assert_int_eq (waitpid (holder->pid, &status, 0), holder->pid);
  return status;
}

/* Tries the lock of @id in @folder on a skipping clock: FALSE with the
 * error when it gave up waiting. */
static gboolean
try_with_skipping_clock (const char  *folder,
                         const char  *id,
                         GError     **error)
{
  DsLibraryLock *lock;

  clock_looks = 0;
  clock_skipping = TRUE;
  lock = ds_library_lock_entry (folder, id, error);
  clock_skipping = FALSE;
  ds_library_lock_release (lock);
  return lock != NULL;
}

/* ---- holders ------------------------------------------------------------ */

/* Another process holds the lock of a result: a change to it waits 30 s,
 * then gives up saying who held what where; a change to another result
 * of that folder, or to the same id in another folder, does not wait. */
START_TEST (test_other_process_holds)
{
  g_autofree char *other_dir = g_build_filename (dir, "other", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *where = NULL;
  Holder holder;

  ck_assert_int_eq (g_mkdir (other_dir, 0700), 0);
  holder = hold_in_child (dir, "20240101-100000-benchmark-sda");

  ck_assert (!try_with_skipping_clock (dir, "20240101-100000-benchmark-sda", &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED), "%s", error->message);
  /* It tried again and again before it gave up: 30 s of 10 s looks. */
  ck_assert_uint_ge (clock_looks, 3);
  where = g_strdup_printf ("20240101-100000-benchmark-sda is being changed by another program "
                           "(it has held its lock in %s/.diskscope-lock for 30 s): try again later",
                           dir);
  ck_assert_str_eq (error->message, where);
  g_clear_error (&error);

  /* Not that result: no wait (the skipping clock is never looked at
   * again once the lock is taken at the first try). */
  ck_assert (try_with_skipping_clock (dir, "20240101-100000-benchmark-sdb", &error));
  ck_assert_uint_eq (clock_looks, 1);
  ck_assert (try_with_skipping_clock (other_dir, "20240101-100000-benchmark-sda", &error));
  ck_assert_uint_eq (clock_looks, 1);

  /* Released: the next change takes it at once. */
  ck_assert (WIFEXITED (holder_end (&holder, 0)));
  ck_assert (try_with_skipping_clock (dir, "20240101-100000-benchmark-sda", &error));
  ck_assert_uint_eq (clock_looks, 1);
}
END_TEST

/* A holder killed while it held the lock (SIGKILL, a crash, a power cut
 * on another host) leaves the file but no lock: the next change goes
 * ahead at once, and the file is used, not replaced. */
START_TEST (test_killed_holder_leaves_no_lock)
{
  struct stat before, after;
  Holder holder;
  int status;

  holder = hold_in_child (dir, "r1");
  ck_assert_int_eq (stat (lock_path, &before), 0);
  status = holder_end (&holder, SIGKILL);
  ck_assert (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);

  ck_assert (try_with_skipping_clock (dir, "r1", NULL));
  ck_assert_uint_eq (clock_looks, 1);
  ck_assert_int_eq (stat (lock_path, &after), 0);
  ck_assert_uint_eq (after.st_ino, before.st_ino);
  /* Released, it stays: empty, never removed. */
  ck_assert_int_eq (after.st_size, 0);
}
END_TEST

typedef struct {
  const char *id;
  gint        taken;    /* set when the second holder got the lock */
} Waiter;

static gpointer
take_and_let_go (gpointer data)
{
  Waiter *w = data;
  DsLibraryLock *lock = ds_library_lock_entry (dir, w->id, NULL);

  g_atomic_int_set (&w->taken, lock != NULL ? 1 : -1);
  ds_library_lock_release (lock);
  return NULL;
}

/* Two threads of one process (the app's main and worker threads) exclude
 * each other as two processes do: the second waits until the first lets
 * go, then gets it. */
START_TEST (test_two_threads_wait_for_each_other)
{
  g_autoptr (DsLibraryLock) first = lock_ok (dir, "shared-result");
  Waiter w = { "shared-result", 0 };
  GThread *thread = g_thread_new ("second-holder", take_and_let_go, &w);

  /* Time enough for the thread to have tried several times. */
  g_usleep (300 * 1000);
  ck_assert_msg (g_atomic_int_get (&w.taken) == 0, "the second thread got a lock the first holds");
  g_clear_pointer (&first, ds_library_lock_release);
  g_thread_join (thread);
  ck_assert_msg (g_atomic_int_get (&w.taken) == 1, "the second thread did not get the lock let go");
}
END_TEST

/* The holder opens and closes the lock file again (as a load of the
 * folder might): its lock stays (a classic POSIX lock would be dropped by
 * that close). */
START_TEST (test_closing_another_descriptor_keeps_the_lock)
{
  g_autoptr (DsLibraryLock) held = lock_ok (dir, "kept");
  int fd = open (lock_path, O_RDWR | O_CLOEXEC);
  pid_t pid;
  int status = 0;

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (close (fd), 0);

  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autoptr (GError) error = NULL;

      /* 0: refused after waiting, as it must be. */
      if (try_with_skipping_clock (dir, "kept", &error))
        _exit (1);
      _exit (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED) ? 0 : 2);
    }
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) == 0,
                 "another process got a lock still held (%d)", WEXITSTATUS (status));
}
END_TEST

/* ---- the lock file ------------------------------------------------------ */

/* Made on first use, empty, as writable as the folder (a team's 0770
 * folder: 0660; a private one 0700: 0600), whatever the umask. */
START_TEST (test_lock_file_mode_follows_the_folder)
{
  struct { mode_t folder; mode_t file; } cases[] = {
    { 0700, 0600 },
    { 0750, 0640 },
    { 0770, 0660 },
    { 0777, 0666 },
  };
  mode_t old = umask (077);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *sub = g_strdup_printf ("%s/f%u", dir, i);
      g_autofree char *path = g_build_filename (sub, ".diskscope-lock", NULL);
      struct stat st;

      ck_assert_int_eq (g_mkdir (sub, 0700), 0);
      ck_assert_int_eq (chmod (sub, cases[i].folder), 0);
      ds_library_lock_release (lock_ok (sub, "id"));
      ck_assert_int_eq (lstat (path, &st), 0);
      ck_assert (S_ISREG (st.st_mode));
      ck_assert_int_eq (st.st_size, 0);
      ck_assert_msg ((st.st_mode & 07777) == cases[i].file, "folder %o: lock %o, not %o",
                     cases[i].folder, st.st_mode & 07777, cases[i].file);
    }
  umask (old);
}
END_TEST

/* Where nothing can change (no folder yet, nor its parent), the lock is
 * an empty one: no error, nothing made. */
START_TEST (test_missing_folder_is_an_empty_lock)
{
  g_autofree char *missing = g_build_filename (dir, "not", "yet", NULL);
  g_autofree char *parent = g_build_filename (dir, "not", NULL);
  DsLibraryLock *lock = lock_ok (missing, "id");

  ck_assert (!g_file_test (parent, G_FILE_TEST_EXISTS));
  /* Two of them at once: nothing is held. */
  ds_library_lock_release (lock_ok (missing, "id"));
  ds_library_lock_release (lock);
  ds_library_lock_release (NULL);
}
END_TEST

/* @name in the folder's place of the lock file is refused, naming it
 * (and its code is @code); nothing is made where a link points. */
static void
assert_refused (DsError     code,
                const char *want)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *prefix = g_strdup_printf ("cannot lock the results folder: %s", lock_path);

  ck_assert_ptr_null (ds_library_lock_entry (dir, "id", &error));
  ck_assert_ptr_nonnull (error);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "code %d: %s", error->code, error->message);
  ck_assert_msg (g_str_has_prefix (error->message, prefix), "%s", error->message);
  ck_assert_msg (strstr (error->message, want) != NULL, "%s", error->message);
}

/* What stands in the lock file's place and is not a file of its own is
 * not locked, and not replaced: a link (even to nowhere: nothing is made
 * there), a folder, a FIFO (opened, it would not block, but is no file). */
START_TEST (test_refuses_what_is_not_a_file)
{
  g_autofree char *target = g_build_filename (dir, "elsewhere", NULL);
  struct stat st;

  ck_assert_int_eq (symlink (target, lock_path), 0);
  assert_refused (DS_ERROR_FAILED, g_strerror (ELOOP));
  ck_assert (!g_file_test (target, G_FILE_TEST_EXISTS));
  ck_assert (g_file_set_contents (target, "theirs", -1, NULL));
  assert_refused (DS_ERROR_FAILED, g_strerror (ELOOP));
  ck_assert_int_eq (stat (target, &st), 0);
  ck_assert_int_eq (st.st_size, 6);
  ck_assert_int_eq (unlink (lock_path), 0);

  ck_assert_int_eq (g_mkdir (lock_path, 0700), 0);
  assert_refused (DS_ERROR_FAILED, g_strerror (EISDIR));
  ck_assert_int_eq (g_rmdir (lock_path), 0);

  ck_assert_int_eq (mkfifo (lock_path, 0600), 0);
  assert_refused (DS_ERROR_FAILED, "is not a regular file (remove it: Diskscope makes it again)");
  ck_assert_int_eq (lstat (lock_path, &st), 0);
  ck_assert (S_ISFIFO (st.st_mode));
}
END_TEST

/* A file where the folder should be: an error, not an empty lock. */
START_TEST (test_folder_that_is_a_file)
{
  g_autofree char *file = g_build_filename (dir, "plain", NULL);
  g_autoptr (GError) error = NULL;

  ck_assert (g_file_set_contents (file, "x", -1, NULL));
  ck_assert_ptr_null (ds_library_lock_entry (file, "id", &error));
  ck_assert_msg (strstr (error->message, g_strerror (ENOTDIR)) != NULL, "%s", error->message);
}
END_TEST

/* Runs @check in a child process as a user whom permissions bind (nobody,
 * when the test runs as root, whom they do not); @check returns NULL, or
 * what went wrong. */
static void
run_unprivileged (char *(*check) (void))
{
  struct passwd *nobody = getpwnam ("nobody");
  int out[2];
  pid_t pid;
  int status = 0;
  char said[1024] = "";
  ssize_t n;

  ck_assert_int_eq (pipe (out), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      g_autofree char *why = NULL;

      close (out[0]);
      if (geteuid () == 0 &&
          (nobody == NULL || setgid (nobody->pw_gid) != 0 || setuid (nobody->pw_uid) != 0))
        why = g_strdup ("cannot become nobody");
      else
        why = check ();
      if (why != NULL)
        (void) write (out[1], why, strlen (why));
      _exit (why != NULL);
    }
  close (out[1]);
  n = read (out[0], said, sizeof said - 1);
  close (out[0]);
  said[MAX (n, 0)] = '\0';
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) == 0, "%s", said);
}

static char *
check_unwritable_folder (void)
{
  g_autoptr (GError) error = NULL;
  DsLibraryLock *lock = ds_library_lock_entry (dir, "id", &error);

  if (lock != NULL)
    {
      ds_library_lock_release (lock);
      return g_strdup ("locked in a folder it may not write");
    }
  if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION) ||
      strstr (error->message, lock_path) == NULL ||
      strstr (error->message, "chmod a+w") == NULL)
    return g_strdup_printf ("code %d: %s", error->code, error->message);
  if (g_file_test (lock_path, G_FILE_TEST_EXISTS))
    return g_strdup ("a lock file was made");
  return NULL;
}

static char *
check_unwritable_lock_file (void)
{
  g_autoptr (GError) error = NULL;
  DsLibraryLock *lock = ds_library_lock_entry (dir, "id", &error);

  if (lock != NULL)
    {
      ds_library_lock_release (lock);
      return g_strdup ("locked with a lock file it may not write");
    }
  if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION) ||
      strstr (error->message, g_strerror (EACCES)) == NULL ||
      strstr (error->message, "whoever owns it can make it writable for all who share the folder") == NULL)
    return g_strdup_printf ("code %d: %s", error->code, error->message);
  return NULL;
}

/* A shared folder this user may read but not write: no lock file can be
 * made there, or the one there (another's, 0644) cannot be opened to lock:
 * a permission error saying what the owner can do. */
START_TEST (test_refuses_without_rights)
{
  ck_assert_int_eq (chmod (dir, 0555), 0);
  run_unprivileged (check_unwritable_folder);

  ck_assert_int_eq (chmod (dir, 0755), 0);
  ck_assert (g_file_set_contents (lock_path, "", 0, NULL));
  ck_assert_int_eq (chmod (lock_path, 0444), 0);
  run_unprivileged (check_unwritable_lock_file);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-lock");
  TCase *holders = tcase_create ("holders");
  TCase *file = tcase_create ("file");

  /* Each case ends in well under a second; a clock that does not skip
   * (the lock's own 30 s wait) fails the case rather than passing late. */
  tcase_set_timeout (holders, 20);
  tcase_add_checked_fixture (holders, setup, teardown);
  tcase_add_test (holders, test_other_process_holds);
  tcase_add_test (holders, test_killed_holder_leaves_no_lock);
  tcase_add_test (holders, test_two_threads_wait_for_each_other);
  tcase_add_test (holders, test_closing_another_descriptor_keeps_the_lock);
  suite_add_tcase (s, holders);

  tcase_set_timeout (file, 20);
  tcase_add_checked_fixture (file, setup, teardown);
  tcase_add_test (file, test_lock_file_mode_follows_the_folder);
  tcase_add_test (file, test_missing_folder_is_an_empty_lock);
  tcase_add_test (file, test_refuses_what_is_not_a_file);
  tcase_add_test (file, test_folder_that_is_a_file);
  tcase_add_test (file, test_refuses_without_rights);
  suite_add_tcase (s, file);

  return ds_test_run_suite (s);
}
