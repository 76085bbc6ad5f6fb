/* test-library-edit.c: edits and deletions of saved results while others
 * change them too (threads of one process, as the app's worker and main
 * threads are; processes: test-cli-library.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-library.h"
#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

#define ID "20200101-000000-benchmark-loop9"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-library-edit-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

/* ID.json in the folder; its path. */
static char *
put_result (void)
{
  g_autoptr (DsResult) r = ds_test_library_transfer ("DX440", 1 << 30, 1e8, 2e8, 0.001,
                                                     "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, ID ".json", NULL);

  ck_assert_msg (ds_result_save (r, path, &error), "%s", error ? error->message : "");
  return path;
}

static DsLibrary *
open_library (void)
{
  g_autoptr (GError) error = NULL;
  DsLibrary *lib = ds_library_new (dir);

  ck_assert_msg (ds_library_reload (lib, NULL, &error), "%s", error ? error->message : "");
  return lib;
}

static DsResult *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_result_load (path, &error);

  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  return r;
}

/* What an editor changed, applied to the file as it is now: a tag added
 * elsewhere meanwhile stays. */
START_TEST (test_edit_diff)
{
  g_auto (DsAnnotation) before = { 0 };
  g_auto (DsAnnotation) after = { 0 };
  g_auto (DsAnnotation) now = { 0 };
  g_auto (DsLibraryEdit) edit = { 0 };
  g_autoptr (GError) error = NULL;

  ck_assert (ds_annotation_set_label (&before, "A", &error));
  ck_assert (ds_annotation_add_tag (&before, "x", &error));
  ck_assert (ds_annotation_add_tag (&before, "y", &error));
  ds_annotation_copy (&after, &before);
  ck_assert (ds_annotation_set_notes (&after, "new notes", &error));
  ck_assert (ds_annotation_remove_tag (&after, "x"));
  ck_assert (ds_annotation_add_tag (&after, "z", &error));

  ds_library_edit_init_diff (&edit, &before, &after);
  ck_assert (!edit.set_label);
  ck_assert (edit.set_notes);
  ck_assert_uint_eq (g_strv_length (edit.add_tags), 1);
  ck_assert_uint_eq (g_strv_length (edit.remove_tags), 1);

  /* Meanwhile the CLI relabelled it and tagged it "cli". */
  ck_assert (ds_annotation_set_label (&now, "B", &error));
  ck_assert (ds_annotation_add_tag (&now, "x", &error));
  ck_assert (ds_annotation_add_tag (&now, "y", &error));
  ck_assert (ds_annotation_add_tag (&now, "cli", &error));
  ck_assert (ds_library_edit_apply (&edit, &now, &error));
  ck_assert_str_eq (now.label, "B");
  ck_assert_str_eq (now.notes, "new notes");
  ck_assert (!ds_annotation_has_tag (&now, "x"));
  ck_assert (ds_annotation_has_tag (&now, "y"));
  ck_assert (ds_annotation_has_tag (&now, "z"));
  ck_assert (ds_annotation_has_tag (&now, "cli"));

  /* A bad tag changes nothing; a missing tag to remove is an error only
   * when asked. */
  {
    DsLibraryEdit bad = { .set_label = TRUE, .label = (char *) "C",
                          .add_tags = (GStrv) (const char *[]) { "ok", "bad\033[2J", NULL } };
    DsLibraryEdit strict = { .remove_tags = (GStrv) (const char *[]) { "nope", NULL },
                             .require_tags = TRUE };
    DsLibraryEdit lax = { .remove_tags = strict.remove_tags };

    ck_assert (!ds_library_edit_apply (&bad, &now, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
    g_clear_error (&error);
    ck_assert_str_eq (now.label, "B");
    ck_assert (!ds_annotation_has_tag (&now, "ok"));
    ck_assert (!ds_library_edit_apply (&strict, &now, &error));
    ck_assert_msg (strstr (error->message, "nope") != NULL, "%s", error->message);
    g_clear_error (&error);
    ck_assert (ds_library_edit_apply (&lax, &now, &error));
  }
}
END_TEST

typedef struct {
  char          *dir;
  const char    *tag;
  gboolean       ok;
  char          *message;
} TagJob;

/* A thread with a library of its own (a DsLibrary is used on the thread
 * that made it) adds one tag. */
static gpointer
tag_thread (gpointer user_data)
{
  TagJob *job = user_data;
  g_autoptr (DsLibrary) lib = ds_library_new (job->dir);
  g_autoptr (GError) error = NULL;
  const char *tags[] = { job->tag, NULL };
  DsLibraryEdit edit = { .add_tags = (GStrv) tags };

  job->ok = ds_library_reload (lib, NULL, &error) &&
            ds_library_annotate (lib, ID, &edit, NULL, &error);
  if (!job->ok)
    job->message = g_strdup (error->message);
  return NULL;
}

/* Threads tagging one result at once: every tag is kept. */
START_TEST (test_threads_tag_at_once)
{
  enum { N = 16 };
  g_autofree char *path = put_result ();
  g_autoptr (DsResult) after = NULL;
  GThread *threads[N];
  TagJob jobs[N];
  char names[N][8];

  for (int i = 0; i < N; i++)
    {
      g_snprintf (names[i], sizeof names[i], "t%d", i);
      jobs[i] = (TagJob) { .dir = dir, .tag = names[i] };
      threads[i] = g_thread_new ("tag", tag_thread, &jobs[i]);
    }
  for (int i = 0; i < N; i++)
    {
      g_thread_join (threads[i]);
      ck_assert_msg (jobs[i].ok, "%s", jobs[i].message);
      g_free (jobs[i].message);
    }

  after = load (path);
  ck_assert_uint_eq (g_strv_length (after->annotation.tags), N);
}
END_TEST

typedef struct {
  char     *dir;
  GMutex    mutex;
  GCond     cond;
  gboolean  go;
} RemoveJob;

static gpointer
remove_thread (gpointer user_data)
{
  RemoveJob *job = user_data;
  g_autoptr (DsLibrary) lib = ds_library_new (job->dir);
  g_autoptr (GError) error = NULL;

  ck_assert (ds_library_reload (lib, NULL, &error));
  g_mutex_lock (&job->mutex);
  while (!job->go)
    g_cond_wait (&job->cond, &job->mutex);
  g_mutex_unlock (&job->mutex);
  /* Now before, now during, now after the edit's own steps. */
  g_usleep (g_random_int_range (0, 4000));
  ck_assert_msg (ds_library_remove (lib, ID, &error), "%s", error ? error->message : "");
  return NULL;
}

typedef struct {
  gboolean  done;
  GError   *error;
} Finished;

static void
on_annotated (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Finished *finished = user_data;

  if (!ds_library_annotate_finish (DS_LIBRARY (source), result, &finished->error))
    g_assert (finished->error != NULL);
  finished->done = TRUE;
}

/* The app's library window renames a result (on its worker) while a CLI
 * (here a thread) deletes it: never brought back; when the rename lost,
 * it says so and the entry leaves the window's list. */
START_TEST (test_app_edit_racing_delete)
{
  enum { TRIALS = 150 };
  g_autofree char *path = put_result ();
  g_autofree char *data = NULL;
  gsize length = 0;
  unsigned back = 0, lost = 0;

  ck_assert (g_file_get_contents (path, &data, &length, NULL));
  for (unsigned t = 0; t < TRIALS; t++)
    {
      g_autoptr (DsLibrary) app = NULL;
      g_autoptr (GMainContext) context = g_main_context_new ();
      Finished finished = { 0 };
      DsLibraryEdit edit = { .set_label = TRUE, .label = (char *) "renamed in the app" };
      RemoveJob job = { .dir = dir };
      GThread *thread;

      ck_assert (g_file_set_contents (path, data, (gssize) length, NULL));
      g_main_context_push_thread_default (context);
      app = open_library ();
      thread = g_thread_new ("rm", remove_thread, &job);
      ds_library_annotate_async (app, ID, &edit, NULL, on_annotated, &finished);
      g_mutex_lock (&job.mutex);
      job.go = TRUE;
      g_cond_signal (&job.cond);
      g_mutex_unlock (&job.mutex);
      while (!finished.done)
        g_main_context_iteration (context, TRUE);
      g_thread_join (thread);
      g_main_context_pop_thread_default (context);

      if (finished.error != NULL)
        {
          lost++;
          ck_assert_msg (g_error_matches (finished.error, DS_ERROR, DS_ERROR_NOT_FOUND), "%s",
                         finished.error->message);
          ck_assert_msg (strstr (finished.error->message, "deleted") != NULL, "%s",
                         finished.error->message);
          ck_assert_ptr_null (ds_library_get_entry (app, ID));
          g_error_free (finished.error);
        }
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          back++;
          (void) unlink (path);
        }
      g_mutex_clear (&job.mutex);
      g_cond_clear (&job.cond);
    }

  ds_test_note ("app rename racing a delete: %u of %u brought back, %u renames lost to the delete",
                back, TRIALS, lost);
  ck_assert_uint_eq (back, 0);
}
END_TEST

/* A file deleted behind the library's back (rm(1), another host) is not
 * brought back by an edit of the stale list: the edit says it is gone and
 * the entry goes. */
START_TEST (test_edit_after_plain_delete)
{
  g_autofree char *path = put_result ();
  g_autoptr (DsLibrary) lib = open_library ();
  g_autoptr (GError) error = NULL;
  DsLibraryEdit edit = { .set_label = TRUE, .label = (char *) "too late" };

  ck_assert_int_eq (unlink (path), 0);
  ck_assert (!ds_library_annotate (lib, ID, &edit, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_msg (strstr (error->message, "deleted") != NULL, "%s", error->message);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  ck_assert_ptr_null (ds_library_get_entry (lib, ID));
  {
    g_autofree char *names = ds_test_list_dir (dir);

    ck_assert_str_eq (names, "");
  }
}
END_TEST

/* A symbolic link: the file it points to is edited (mode kept), the link
 * stays a link; removing the entry removes the link only. */
START_TEST (test_symlinked_entry)
{
  g_autoptr (DsResult) r = ds_test_library_transfer ("DX440", 1 << 30, 1e8, 2e8, 0.001,
                                                     "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;
  g_autofree char *real = g_strconcat (dir, "-shared.json", NULL);
  g_autofree char *link = g_build_filename (dir, ID ".json", NULL);
  g_autoptr (DsLibrary) lib = NULL;
  g_autoptr (DsResult) after = NULL;
  DsLibraryEdit edit = { .set_label = TRUE, .label = (char *) "edited through the link" };
  DsLibraryEntry *updated = NULL;
  struct stat st;

  ck_assert (ds_result_save (r, real, &error));
  ck_assert_int_eq (chmod (real, 0600), 0);
  ck_assert_int_eq (symlink (real, link), 0);
  lib = open_library ();

  ck_assert_msg (ds_library_annotate (lib, ID, &edit, &updated, &error), "%s", error ? error->message : "");
  ck_assert_str_eq (ds_library_entry_get_path (updated), link);
  ck_assert_str_eq (ds_library_entry_get_label (updated), "edited through the link");
  ck_assert_int_eq (lstat (link, &st), 0);
  ck_assert (S_ISLNK (st.st_mode));
  ck_assert_int_eq (stat (real, &st), 0);
  ck_assert_uint_eq (st.st_mode & 0777, 0600);
  after = load (real);
  ck_assert_str_eq (after->annotation.label, "edited through the link");

  ck_assert (ds_library_remove (lib, ID, &error));
  ck_assert_int_eq (lstat (link, &st), -1);
  ck_assert (g_file_test (real, G_FILE_TEST_IS_REGULAR));
  (void) unlink (real);

  /* A dangling link: an error that says so, nothing written. */
  ck_assert_int_eq (symlink (real, link), 0);
  ck_assert (ds_library_reload (lib, NULL, &error));
  ck_assert (!ds_library_annotate (lib, ID, &edit, NULL, &error));
  ck_assert_msg (strstr (error->message, "link") != NULL, "%s", error->message);
  g_clear_error (&error);
  ck_assert (!g_file_test (real, G_FILE_TEST_EXISTS));
}
END_TEST

/* The lock file: hidden, never listed, and writable by those who share a
 * group folder. */
START_TEST (test_lock_file)
{
  g_autofree char *path = put_result ();
  g_autofree char *lock = g_build_filename (dir, ".diskscope-lock", NULL);
  g_autoptr (DsLibrary) lib = NULL;
  g_autoptr (GError) error = NULL;
  const char *tags[] = { "t", NULL };
  DsLibraryEdit edit = { .add_tags = (GStrv) tags };
  mode_t old = umask (022);
  struct stat st;

  ck_assert_int_eq (chmod (dir, 02775), 0);
  lib = open_library ();
  ck_assert (ds_library_annotate (lib, ID, &edit, NULL, &error));
  umask (old);
  ck_assert_int_eq (lstat (lock, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
  ck_assert_uint_eq (st.st_mode & 0777, 0664);
  ck_assert_int_eq (st.st_size, 0);

  ck_assert (ds_library_reload (lib, NULL, &error));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 1);

  /* A planted FIFO (or anything not a file) in its place: an error, no
   * hang. */
  ck_assert_int_eq (unlink (lock), 0);
  ck_assert_int_eq (mkfifo (lock, 0644), 0);
  ck_assert (!ds_library_remove (lib, ID, &error));
  ck_assert_msg (strstr (error->message, ".diskscope-lock") != NULL, "%s", error->message);
  ck_assert (g_file_test (path, G_FILE_TEST_EXISTS));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-edit");
  TCase *tc = tcase_create ("edit");

  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_edit_diff);
  tcase_add_test (tc, test_threads_tag_at_once);
  tcase_add_test (tc, test_app_edit_racing_delete);
  tcase_add_test (tc, test_edit_after_plain_delete);
  tcase_add_test (tc, test_symlinked_entry);
  tcase_add_test (tc, test_lock_file);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
