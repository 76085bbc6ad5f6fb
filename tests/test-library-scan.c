/* test-library-scan.c: listing a results folder (core/library/ds-library-scan.c):
 * which of its files are results, what is skipped, the temporary files a
 * killed save left, and folders, links and files this user may not read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-library-entry.h"
#include "ds-library-private.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static char *dir;       /* the case's own: the library in dir/lib */
static char *lib;

static void
setup (void)
{
  g_autofree char *cache = NULL;

  dir = g_dir_make_tmp ("ds-library-scan-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
  /* Traversable by nobody (see run_unprivileged()). */
  ck_assert_int_eq (chmod (dir, 0755), 0);
  lib = g_build_filename (dir, "lib", NULL);
  ck_assert_int_eq (g_mkdir (lib, 0755), 0);
  /* Each case its own index, so none of another case's rows is used. */
  cache = g_build_filename (dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("chmod -R u+rwx '%s'; rm -rf '%s'", dir, dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
  g_clear_pointer (&lib, g_free);
}

/* @result saved as lib/@name, run at @started_at. */
static void
put (DsResult   *result,
     const char *name,
     const char *started_at)
{
  g_autofree char *path = g_build_filename (lib, name, NULL);
  g_autoptr (GError) error = NULL;

  g_free (result->started_at);
  result->started_at = g_strdup (started_at);
  ck_assert_msg (ds_result_save (result, path, &error), "%s", error ? error->message : "");
  ds_result_free (result);
}

static void
put_text (const char *name,
          const char *text)
{
  g_autofree char *path = g_build_filename (lib, name, NULL);

  ck_assert (g_file_set_contents (path, text, -1, NULL));
}

static GPtrArray *
scan_ok (const char *folder)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *entries = ds_library_scan (folder, NULL, &error);

  ck_assert_msg (entries != NULL, "%s", error ? error->message : "");
  return entries;
}

/* The ids of @entries in order, joined by spaces. */
static char *
ids (GPtrArray *entries)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < entries->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", ds_library_entry_get_id (entries->pdata[i]));
  return g_string_free (s, FALSE);
}

static DsLibraryEntry *
find (GPtrArray  *entries,
      const char *id)
{
  for (guint i = 0; i < entries->len; i++)
    if (strcmp (ds_library_entry_get_id (entries->pdata[i]), id) == 0)
      return entries->pdata[i];
  ck_abort_msg ("no entry %s", id);
  return NULL;
}

/* How many rows the index of @folder holds. */
static int
index_rows (const char *folder)
{
  g_autofree char *path = ds_library_index_path (folder);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int rows = -1;

  ck_assert_int_eq (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  ck_assert_int_eq (sqlite3_prepare_v2 (db, "SELECT count(*) FROM results", -1, &stmt, NULL), SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    rows = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return rows;
}

/* Every "NAME.json" is a result, and only those: not other suffixes, not
 * ".JSON", not a bare ".json" (no id), not hidden files.  Newest first by
 * when they ran (an unreadable file by when it was written), then by id. */
START_TEST (test_which_files_count)
{
  g_autoptr (GPtrArray) entries = NULL;
  g_autofree char *order = NULL;
  g_autofree char *broken = g_build_filename (lib, "broken.json", NULL);
  struct timespec times[2] = { { .tv_sec = 1577880000 }, { .tv_sec = 1577880000 } };  /* 2020-01-01 12:00 */
  DsLibraryEntry *e;

  put (ds_test_transfer_result (), "transfer.json", "2021-06-01T10:00:00Z");
  put (ds_test_workload_result (), "workload.json", "2022-03-04T05:06:07Z");
  put (ds_test_workload_result (), "same-time-a.json", "2019-01-01T00:00:00Z");
  put (ds_test_workload_result (), "same-time-b.json", "2019-01-01T00:00:00Z");
  put_text ("broken.json", "{ \"schema\": ");
  ck_assert_int_eq (utimensat (AT_FDCWD, broken, times, 0), 0);
  /* Not results. */
  put_text ("notes.txt", "not a result");
  put_text ("copy.json.bak", "{}");
  put_text ("SHOUTED.JSON", "{}");
  put_text (".json", "{}");
  put_text (".hidden.json", "{}");
  put_text ("json", "{}");

  entries = scan_ok (lib);
  order = ids (entries);
  ck_assert_str_eq (order, "workload transfer broken same-time-b same-time-a");

  e = find (entries, "workload");
  ck_assert (ds_library_entry_is_readable (e));
  ck_assert_int_eq (ds_library_entry_get_kind (e), DS_BENCH_WORKLOAD);
  e = find (entries, "transfer");
  ck_assert_int_eq (ds_library_entry_get_kind (e), DS_BENCH_TRANSFER);
  {
    g_autofree char *want = g_build_filename (lib, "transfer.json", NULL);
    ck_assert_str_eq (ds_library_entry_get_path (e), want);
  }
  e = find (entries, "broken");
  ck_assert (!ds_library_entry_is_readable (e));
  ck_assert_int_eq (g_date_time_to_unix (ds_library_entry_get_date (e)), 1577880000);

  /* The index holds the five files; listed again, the same. */
  ck_assert_int_eq (index_rows (lib), 5);
  g_clear_pointer (&entries, g_ptr_array_unref);
  g_clear_pointer (&order, g_free);
  entries = scan_ok (lib);
  order = ids (entries);
  ck_assert_str_eq (order, "workload transfer broken same-time-b same-time-a");
}
END_TEST

/* A folder named like a result, a link to nowhere, a link to a result,
 * a FIFO: each listed (the user sees them), the first three unreadable
 * saying why and naming the file; only regular files go into the index,
 * and none of them blocks the listing. */
START_TEST (test_folders_and_links)
{
  g_autofree char *folder = g_build_filename (lib, "folder.json", NULL);
  g_autofree char *gone = g_build_filename (lib, "gone.json", NULL);
  g_autofree char *link = g_build_filename (lib, "link.json", NULL);
  g_autofree char *fifo = g_build_filename (lib, "fifo.json", NULL);
  g_autofree char *real = g_build_filename (dir, "elsewhere.json", NULL);
  g_autofree char *nowhere = g_build_filename (dir, "nowhere.json", NULL);
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_test_workload_result ();
  const char *why;

  ck_assert_msg (ds_result_save (r, real, &error), "%s", error ? error->message : "");
  ds_result_free (r);
  put (ds_test_transfer_result (), "plain.json", "2021-06-01T10:00:00Z");
  ck_assert_int_eq (g_mkdir (folder, 0755), 0);
  ck_assert_int_eq (symlink (nowhere, gone), 0);
  ck_assert_int_eq (symlink (real, link), 0);
  ck_assert_int_eq (mkfifo (fifo, 0644), 0);

  for (int pass = 0; pass < 2; pass++)
    {
      entries = scan_ok (lib);
      ck_assert_uint_eq (entries->len, 5);
      ck_assert (ds_library_entry_is_readable (find (entries, "plain")));
      /* A link is followed: the result it points to. */
      ck_assert (ds_library_entry_is_readable (find (entries, "link")));
      ck_assert_int_eq (ds_library_entry_get_kind (find (entries, "link")), DS_BENCH_WORKLOAD);

      why = ds_library_entry_get_error_message (find (entries, "folder"));
      ck_assert_msg (g_str_has_prefix (why, folder) && strstr (why, "not a regular file") != NULL, "%s", why);
      why = ds_library_entry_get_error_message (find (entries, "fifo"));
      ck_assert_msg (g_str_has_prefix (why, fifo) && strstr (why, "not a regular file") != NULL, "%s", why);
      why = ds_library_entry_get_error_message (find (entries, "gone"));
      ck_assert_msg (g_str_has_prefix (why, gone) && strstr (why, g_strerror (ENOENT)) != NULL, "%s", why);
      ck_assert (!ds_library_entry_is_readable (find (entries, "gone")));
      /* The regular ones only: plain, and link (what stat() sees). */
      ck_assert_int_eq (index_rows (lib), 2);
      g_clear_pointer (&entries, g_ptr_array_unref);
    }
}
END_TEST

/* lib/@name written @age_s ago; its path. */
static char *
put_aged (const char *name,
          gint64      age_s)
{
  char *path = g_build_filename (lib, name, NULL);
  struct timespec times[2];

  ck_assert (g_file_set_contents (path, "{ \"half a save", -1, NULL));
  times[0].tv_sec = times[1].tv_sec = g_get_real_time () / G_USEC_PER_SEC - age_s;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  ck_assert_int_eq (utimensat (AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW), 0);
  return path;
}

static gboolean
exists (const char *path)
{
  struct stat st;

  return lstat (path, &st) == 0;
}

/* What a save killed mid-write left (".ID.json.XXXXXX") goes once it is
 * older than DS_LIBRARY_TEMP_STALE_S and no save holds its lock; anything
 * else hidden stays, and nothing hidden is listed. */
START_TEST (test_stale_temp_files)
{
  const gint64 stale = DS_LIBRARY_TEMP_STALE_S + 60;
  g_autofree char *old = put_aged (".r1.json.Ab3xYz", stale);
  g_autofree char *fresh = put_aged (".r2.json.Ab3xYz", DS_LIBRARY_TEMP_STALE_S - 60);
  g_autofree char *held = put_aged (".r3.json.Qw7eRt", stale);
  g_autofree char *short_tail = put_aged (".r4.json.Ab3xY", stale);
  g_autofree char *not_json = put_aged (".r5.txt.Ab3xYz", stale);
  g_autofree char *odd_tail = put_aged (".r6.json.Ab3-Yz", stale);
  g_autofree char *lock = put_aged (".diskscope-lock", stale);
  g_autofree char *folder = g_build_filename (lib, ".r7.json.Ab3xYz", NULL);
  g_autofree char *link = g_build_filename (lib, ".r8.json.Ab3xYz", NULL);
  g_autoptr (GPtrArray) entries = NULL;
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  struct timespec times[2];
  int fd;

  /* A save still writing holds a lock on its file. */
  fd = open (held, O_WRONLY | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (fcntl (fd, F_OFD_SETLK, &fl), 0);
  /* Not files: a folder, a link (to a stale file that is not a temp). */
  ck_assert_int_eq (g_mkdir (folder, 0755), 0);
  ck_assert_int_eq (symlink (not_json, link), 0);
  times[0].tv_sec = times[1].tv_sec = g_get_real_time () / G_USEC_PER_SEC - stale;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  ck_assert_int_eq (utimensat (AT_FDCWD, folder, times, 0), 0);
  ck_assert_int_eq (utimensat (AT_FDCWD, link, times, AT_SYMLINK_NOFOLLOW), 0);
  put (ds_test_transfer_result (), "r0.json", "2021-06-01T10:00:00Z");

  entries = scan_ok (lib);
  ck_assert_uint_eq (entries->len, 1);
  ck_assert_str_eq (ds_library_entry_get_id (entries->pdata[0]), "r0");

  ck_assert_msg (!exists (old), "a stale temporary file stayed");
  ck_assert_msg (exists (fresh), "a save's file younger than 15 minutes went");
  ck_assert_msg (exists (held), "a file a save holds locked went");
  ck_assert (exists (short_tail));
  ck_assert (exists (not_json));
  ck_assert (exists (odd_tail));
  ck_assert (exists (lock));
  ck_assert (exists (folder));
  ck_assert (exists (link));
  close (fd);

  /* Its save gone, the held one goes at the next listing. */
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = scan_ok (lib);
  ck_assert (!exists (held));
  ck_assert (exists (fresh));
}
END_TEST

/* No folder: nothing saved yet, an empty list, and no folder made.  A
 * file in its place: an error naming it. */
START_TEST (test_missing_folder_and_file_in_its_place)
{
  g_autofree char *missing = g_build_filename (dir, "none", "here", NULL);
  g_autofree char *file = g_build_filename (dir, "plain", NULL);
  g_autoptr (GPtrArray) entries = scan_ok (missing);
  g_autoptr (GError) error = NULL;

  ck_assert_uint_eq (entries->len, 0);
  ck_assert (!exists (missing));

  ck_assert (g_file_set_contents (file, "x", -1, NULL));
  ck_assert_ptr_null (ds_library_scan (file, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED));
  ck_assert_msg (g_str_has_prefix (error->message, "cannot read the results folder: ") &&
                 strstr (error->message, file) != NULL, "%s", error->message);
}
END_TEST

/* A listing cancelled gives up with G_IO_ERROR_CANCELLED, and lists
 * nothing. */
START_TEST (test_cancelled)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;

  put (ds_test_transfer_result (), "r0.json", "2021-06-01T10:00:00Z");
  g_cancellable_cancel (cancellable);
  ck_assert_ptr_null (ds_library_scan (lib, cancellable, &error));
  ck_assert (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
}
END_TEST

/* Runs @check in a child process as a user whom permissions bind (nobody
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
check_unreadable_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = ds_library_scan (lib, NULL, &error);
  g_autofree char *locked = g_build_filename (lib, "locked.json", NULL);
  const char *why;

  if (entries == NULL)
    return g_strdup_printf ("the folder was not listed: %s", error->message);
  if (entries->len != 2)
    return g_strdup_printf ("%u entries, not 2", entries->len);
  for (guint i = 0; i < entries->len; i++)
    {
      DsLibraryEntry *e = entries->pdata[i];

      if (strcmp (ds_library_entry_get_id (e), "open") == 0)
        {
          if (!ds_library_entry_is_readable (e))
            return g_strdup ("open.json is unreadable");
          continue;
        }
      why = ds_library_entry_get_error_message (e);
      if (strcmp (ds_library_entry_get_id (e), "locked") != 0 || ds_library_entry_is_readable (e) ||
          strstr (why, locked) == NULL || strstr (why, g_strerror (EACCES)) == NULL)
        return g_strdup_printf ("%s: %s", ds_library_entry_get_id (e), why ? why : "readable");
    }
  return NULL;
}

static char *
check_unreadable_folder (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = ds_library_scan (lib, NULL, &error);

  if (entries != NULL)
    return g_strdup_printf ("a folder it may not read listed %u entries", entries->len);
  if (!g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION) ||
      !g_str_has_prefix (error->message, "cannot read the results folder: ") ||
      strstr (error->message, lib) == NULL)
    return g_strdup_printf ("code %d: %s", error->code, error->message);
  return NULL;
}

/* A result this user may not read is listed as unreadable, saying so; a
 * folder it may not read is a permission error, not an empty list. */
START_TEST (test_unreadable_file_and_folder)
{
  g_autofree char *locked = g_build_filename (lib, "locked.json", NULL);

  put (ds_test_transfer_result (), "open.json", "2021-06-01T10:00:00Z");
  put (ds_test_workload_result (), "locked.json", "2021-06-02T10:00:00Z");
  ck_assert_int_eq (chmod (locked, 0), 0);
  run_unprivileged (check_unreadable_file);

  ck_assert_int_eq (chmod (lib, 0311), 0);
  run_unprivileged (check_unreadable_folder);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-scan");
  TCase *tc = tcase_create ("scan");

  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_which_files_count);
  tcase_add_test (tc, test_folders_and_links);
  tcase_add_test (tc, test_stale_temp_files);
  tcase_add_test (tc, test_missing_folder_and_file_in_its_place);
  tcase_add_test (tc, test_cancelled);
  tcase_add_test (tc, test_unreadable_file_and_folder);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
