/* test-library-index.c: the library's index, a cache the files overrule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-library.h"
#include "ds-library-private.h"
#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *dir;
static char *cache;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-library-index-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
  /* Each case its own cache, so no index of another case is found. */
  cache = g_build_filename (dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
  g_clear_pointer (&cache, g_free);
}

/* A library of three results in dir/results, listed once (the index made). */
static char *
make_library (void)
{
  g_autofree char *lib_dir = g_build_filename (dir, "results", NULL);
  g_autoptr (DsLibrary) lib = ds_library_new (lib_dir);
  g_autoptr (GError) error = NULL;
  const char *dates[] = { "2024-01-01T10:00:00Z", "2024-02-01T10:00:00Z", "2024-03-01T10:00:00Z" };

  for (guint i = 0; i < G_N_ELEMENTS (dates); i++)
    {
      g_autoptr (DsResult) r = ds_test_library_transfer ("ST9450405SS", UINT64_C (450) * 1000000000,
                                                         1.5e8 - i * 1e7, 1.7e8 - i * 1e7, 0.006, dates[i]);
      ck_assert_msg (ds_library_save (lib, r, NULL, &error) != NULL, "%s", error ? error->message : "");
    }
  ck_assert (ds_library_reload (lib, NULL, &error));
  return g_steal_pointer (&lib_dir);
}

static DsLibrary *
listed (const char *lib_dir)
{
  DsLibrary *lib = ds_library_new (lib_dir);
  g_autoptr (GError) error = NULL;

  ck_assert_msg (ds_library_reload (lib, NULL, &error), "%s", error ? error->message : "");
  return lib;
}

/* Runs @sql on the index of @lib_dir; the first column of the first row
 * (NULL if none). */
static char *
index_sql (const char *lib_dir,
           const char *sql)
{
  g_autofree char *path = ds_library_index_path (lib_dir);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  ck_assert_int_eq (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
  sqlite3_busy_timeout (db, 10000);
  ck_assert_msg (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s", sqlite3_errmsg (db));
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_text (stmt, 0) != NULL)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static const char *
label_of (DsLibrary  *lib,
          const char *id)
{
  DsLibraryEntry *e = ds_library_get_entry (lib, id);

  ck_assert_msg (e != NULL, "no %s", id);
  return ds_library_entry_get_label (e);
}

static const char *
summary_of (DsLibrary  *lib,
            const char *id)
{
  DsLibraryEntry *e = ds_library_get_entry (lib, id);

  ck_assert_msg (e != NULL, "no %s", id);
  return ds_library_entry_get_summary (e);
}

#define ID_JAN "20240101-100000-benchmark-loop9"
#define ID_FEB "20240201-100000-benchmark-loop9"
#define ID_MAR "20240301-100000-benchmark-loop9"

START_TEST (test_index_lives_in_the_cache)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *path = ds_library_index_path (lib_dir);
  g_autofree char *rows = index_sql (lib_dir, "SELECT count(*) FROM results");
  g_autoptr (GDir) d = g_dir_open (lib_dir, 0, NULL);
  const char *name;

  ck_assert (g_str_has_prefix (path, cache));
  ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  ck_assert_str_eq (rows, "3");
  /* The results folder holds result files (and the lock) only. */
  while ((name = g_dir_read_name (d)) != NULL)
    ck_assert_msg (g_str_has_suffix (name, ".json") || strcmp (name, ".diskscope-lock") == 0,
                   "%s in the results folder", name);
}
END_TEST

START_TEST (test_rows_are_used_until_the_file_changes)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *file = g_build_filename (lib_dir, ID_FEB ".json", NULL);
  g_autofree char *ignored = NULL;
  g_autoptr (DsLibrary) lib = NULL;
  g_autoptr (DsResult) r = NULL;
  g_autoptr (GError) error = NULL;
  struct stat st;

  /* A row whose file did not change is what the list shows. */
  ignored = index_sql (lib_dir, "UPDATE results SET summary = 'from the index' WHERE name = '" ID_FEB ".json'");
  lib = listed (lib_dir);
  ck_assert_str_eq (summary_of (lib, ID_FEB), "from the index");
  ck_assert_str_ne (summary_of (lib, ID_JAN), "from the index");
  g_clear_object (&lib);

  /* A file edited by hand in place (same size, its mtime put back): its
   * ctime moved, so it is read again. */
  ck_assert_int_eq (stat (file, &st), 0);
  {
    g_autofree char *data = NULL;
    gsize len;
    int fd;
    struct timespec times[2];

    ck_assert (g_file_get_contents (file, &data, &len, NULL));
    fd = open (file, O_WRONLY);
    ck_assert_int_ge (fd, 0);
    ck_assert_int_eq (write (fd, data, len), (ssize_t) len);
    times[0] = st.st_atim;
    times[1] = st.st_mtim;
    ck_assert_int_eq (futimens (fd, times), 0);
    close (fd);
  }
  lib = listed (lib_dir);
  ck_assert_str_ne (summary_of (lib, ID_FEB), "from the index");
  g_clear_object (&lib);

  /* A file rewritten by hand with a new label: the new label. */
  r = ds_result_load (file, &error);
  ck_assert_ptr_nonnull (r);
  ck_assert (ds_annotation_set_label (&r->annotation, "edited by hand", NULL));
  ck_assert (ds_result_save (r, file, &error));
  lib = listed (lib_dir);
  ck_assert_str_eq (label_of (lib, ID_FEB), "edited by hand");
  g_free (ignored);
  ignored = index_sql (lib_dir, "SELECT label FROM results WHERE name = '" ID_FEB ".json'");
  ck_assert_str_eq (ignored, "edited by hand");
}
END_TEST

START_TEST (test_deleted_index_is_rebuilt)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *path = ds_library_index_path (lib_dir);
  g_autofree char *rows = NULL;
  g_autoptr (DsLibrary) lib = NULL;

  ck_assert_int_eq (g_unlink (path), 0);
  lib = listed (lib_dir);
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
  ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  rows = index_sql (lib_dir, "SELECT count(*) FROM results");
  ck_assert_str_eq (rows, "3");
}
END_TEST

START_TEST (test_corrupt_index_is_rebuilt)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *path = ds_library_index_path (lib_dir);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  const char *garbage[] = {
    "not a database at all",
    "SQLite format 3\0\x10\0\x01\x01\0\x40\x20\x20 and then nothing that makes sense",
  };

  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      g_autoptr (DsLibrary) lib = NULL;
      g_autofree char *rows = NULL;
      char block[8192];

      g_unlink (wal);
      g_unlink (shm);
      memset (block, 0x5a, sizeof block);
      memcpy (block, garbage[i], i == 0 ? strlen (garbage[i]) : 40);
      ck_assert (g_file_set_contents (path, block, sizeof block, NULL));

      lib = listed (lib_dir);
      ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
      ck_assert_str_eq (label_of (lib, ID_MAR), ds_library_entry_get_label (ds_library_get_entry (lib, ID_MAR)));
      rows = index_sql (lib_dir, "SELECT count(*) FROM results");
      ck_assert_str_eq (rows, "3");
    }
}
END_TEST

START_TEST (test_dropped_in_and_removed_files)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *from = g_build_filename (lib_dir, ID_JAN ".json", NULL);
  g_autofree char *to = g_build_filename (lib_dir, "20240401-100000-from-another-host.json", NULL);
  g_autofree char *bad = g_build_filename (lib_dir, "20240501-100000-broken.json", NULL);
  g_autofree char *data = NULL;
  g_autofree char *rows = NULL;
  g_autoptr (DsLibrary) lib = NULL;
  gsize len;

  ck_assert (g_file_get_contents (from, &data, &len, NULL));
  ck_assert (g_file_set_contents (to, data, len, NULL));
  ck_assert (g_file_set_contents (bad, "{ \"schema\": ", -1, NULL));
  lib = listed (lib_dir);
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 5);
  ck_assert (ds_library_entry_is_readable (ds_library_get_entry (lib, "20240401-100000-from-another-host")));
  /* An unreadable file is listed as such, from the index too. */
  ck_assert (!ds_library_entry_is_readable (ds_library_get_entry (lib, "20240501-100000-broken")));
  g_clear_object (&lib);
  lib = listed (lib_dir);
  ck_assert (!ds_library_entry_is_readable (ds_library_get_entry (lib, "20240501-100000-broken")));
  ck_assert_ptr_nonnull (strstr (ds_library_entry_get_error_message (ds_library_get_entry (lib, "20240501-100000-broken")),
                                 "20240501-100000-broken.json"));
  g_clear_object (&lib);

  /* Files deleted by hand leave the list and the index. */
  ck_assert_int_eq (g_unlink (from), 0);
  ck_assert_int_eq (g_unlink (bad), 0);
  lib = listed (lib_dir);
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
  ck_assert_ptr_null (ds_library_get_entry (lib, ID_JAN));
  rows = index_sql (lib_dir, "SELECT count(*) FROM results");
  ck_assert_str_eq (rows, "3");
}
END_TEST

/* Two processes tag one result 12 times each, listing between the tags;
 * every tag is in the file and in what the next list shows. */
START_TEST (test_concurrent_edits_from_two_processes)
{
  g_autofree char *lib_dir = make_library ();
  pid_t pids[2];
  g_autoptr (DsLibrary) lib = NULL;
  DsLibraryEntry *e;

  for (int p = 0; p < 2; p++)
    {
      pids[p] = fork ();
      ck_assert_int_ge (pids[p], 0);
      if (pids[p] == 0)
        {
          for (int i = 0; i < 12; i++)
            {
              g_autoptr (DsLibrary) mine = ds_library_new (lib_dir);
              g_auto (DsLibraryEdit) edit = { 0 };
              g_autofree char *tag = g_strdup_printf ("p%d-%d", p, i);
              char *add[] = { tag, NULL };

              edit.add_tags = g_strdupv (add);
              g_autoptr (GError) error = NULL;

              if (!ds_library_reload (mine, NULL, &error) ||
                  !ds_library_annotate (mine, ID_FEB, &edit, NULL, &error))
                {
                  g_printerr ("process %d, tag %d: %s\n", p, i, error->message);
                  _exit (1);
                }
            }
          _exit (0);
        }
    }
  for (int p = 0; p < 2; p++)
    {
      int status = 0;

      ck_assert_int_eq (waitpid (pids[p], &status, 0), pids[p]);
      ck_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }

  lib = listed (lib_dir);
  e = ds_library_get_entry (lib, ID_FEB);
  ck_assert_uint_eq (g_strv_length ((char **) ds_library_entry_get_tags (e)), 24);
  for (int p = 0; p < 2; p++)
    for (int i = 0; i < 12; i++)
      {
        g_autofree char *tag = g_strdup_printf ("p%d-%d", p, i);
        ck_assert_msg (ds_library_entry_has_tag (e, tag), "%s lost", tag);
      }
  /* ... and a second list, from the index, the same. */
  g_clear_object (&lib);
  lib = listed (lib_dir);
  ck_assert_uint_eq (g_strv_length ((char **) ds_library_entry_get_tags (ds_library_get_entry (lib, ID_FEB))), 24);
}
END_TEST

/* A folder of many new files (copied in): loaded on several threads, every
 * one listed, and from the index the next time. */
START_TEST (test_many_new_files)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *from = g_build_filename (lib_dir, ID_JAN ".json", NULL);
  g_autofree char *data = NULL;
  g_autofree char *rows = NULL;
  gsize len;

  ck_assert (g_file_get_contents (from, &data, &len, NULL));
  for (int i = 0; i < 200; i++)
    {
      g_autofree char *to = g_strdup_printf ("%s/20230101-%06d-copy.json", lib_dir, i);

      ck_assert (g_file_set_contents (to, i == 77 ? "{" : data, i == 77 ? 1 : (gssize) len, NULL));
    }
  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr (DsLibrary) lib = listed (lib_dir);
      guint unreadable = 0;

      ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 203);
      for (guint i = 0; i < 203; i++)
        {
          g_autoptr (DsLibraryEntry) e = g_list_model_get_item (G_LIST_MODEL (lib), i);
          unreadable += !ds_library_entry_is_readable (e);
        }
      ck_assert_uint_eq (unreadable, 1);
      ck_assert (!ds_library_entry_is_readable (ds_library_get_entry (lib, "20230101-000077-copy")));
    }
  rows = index_sql (lib_dir, "SELECT count(*) FROM results");
  ck_assert_str_eq (rows, "203");
}
END_TEST

START_TEST (test_index_off_and_unwritable_cache)
{
  g_autofree char *lib_dir = make_library ();
  g_autofree char *path = ds_library_index_path (lib_dir);
  g_autoptr (DsLibrary) lib = NULL;

  /* No index at all: the same list. */
  g_setenv ("DISKSCOPE_LIBRARY_INDEX", "off", TRUE);
  ck_assert_int_eq (g_unlink (path), 0);
  lib = listed (lib_dir);
  g_unsetenv ("DISKSCOPE_LIBRARY_INDEX");
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_object (&lib);

  /* A cache folder that cannot be made (a file in its way). */
  {
    g_autofree char *blocked = g_build_filename (dir, "blocked", NULL);

    ck_assert (g_file_set_contents (blocked, "", 0, NULL));
    g_setenv ("XDG_CACHE_HOME", blocked, TRUE);
    lib = listed (lib_dir);
    ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
  }
}
END_TEST

START_TEST (test_headline_and_device)
{
  g_autofree char *lib_dir = make_library ();
  g_autoptr (DsLibrary) lib = listed (lib_dir);
  g_autoptr (DsLibrary) fresh = NULL;
  DsLibraryEntry *e = ds_library_get_entry (lib, ID_JAN);
  const char *key = NULL, *name = NULL;
  g_autofree char *device = ds_library_entry_dup_device_key (e);
  g_autofree char *path = ds_library_index_path (lib_dir);
  int unit = -1;
  double value = 0;

  /* From the index (its second list) ... */
  ck_assert (ds_library_entry_get_headline (e, &key, &name, &unit, &value));
  ck_assert_str_eq (key, "read.transfer_avg");
  ck_assert_double_eq_tol (value, 1.6e8, 1e6);
  ck_assert_ptr_nonnull (strstr (device, "ST9450405SS"));
  /* ... as from the files. */
  ck_assert_int_eq (g_unlink (path), 0);
  fresh = listed (lib_dir);
  e = ds_library_get_entry (fresh, ID_JAN);
  ck_assert (ds_library_entry_get_headline (e, &key, NULL, NULL, &value));
  ck_assert_str_eq (key, "read.transfer_avg");
  ck_assert_double_eq_tol (value, 1.6e8, 1e6);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-index");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_index_lives_in_the_cache);
  tcase_add_test (tc, test_rows_are_used_until_the_file_changes);
  tcase_add_test (tc, test_deleted_index_is_rebuilt);
  tcase_add_test (tc, test_corrupt_index_is_rebuilt);
  tcase_add_test (tc, test_dropped_in_and_removed_files);
  tcase_add_test (tc, test_concurrent_edits_from_two_processes);
  tcase_add_test (tc, test_many_new_files);
  tcase_add_test (tc, test_index_off_and_unwritable_cache);
  tcase_add_test (tc, test_headline_and_device);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
