/* test-library.c: the results library (a folder), annotations, atomic writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ds-annotation.h"
#include "ds-error.h"
#include "ds-library.h"
#include "ds-library-write.h"
#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-library-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The names in @path, sorted, hidden ones too. */
static char *
listing (const char *path)
{
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

START_TEST (test_save_names_and_lists)
{
  g_autofree char *lib_dir = g_build_filename (dir, "deep", "results", NULL);
  g_autoptr (DsLibrary) lib = ds_library_new (lib_dir);
  g_autoptr (DsLibrary) again = ds_library_new (lib_dir);
  g_autoptr (DsResult) a = ds_test_library_transfer ("ST9450405SS", UINT64_C (450) * 1000000000, 1.5e8, 1.7e8,
                                                    0.00594, "2012-10-19T02:10:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("Disk B", DS_PATTERN_RANDREAD, 4e8, 1e-4,
                                                    "2012-10-19T03:00:00Z");
  g_autoptr (GError) error = NULL;
  g_autofree char *names = NULL;
  DsLibraryEntry *e1, *e2, *e3;

  /* The folder is made on the first save. */
  e1 = ds_library_save (lib, a, NULL, &error);
  ck_assert_msg (e1 != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (ds_library_entry_get_id (e1), "20121019-021000-benchmark-loop9");
  /* The same run saved twice in one second gets its own name. */
  e2 = ds_library_save (lib, a, NULL, &error);
  ck_assert_ptr_nonnull (e2);
  ck_assert_str_eq (ds_library_entry_get_id (e2), "20121019-021000-benchmark-loop9-2");
  e3 = ds_library_save (lib, b, "fio 127.0.0.1:8765/rr job", &error);
  ck_assert_ptr_nonnull (e3);
  ck_assert_str_eq (ds_library_entry_get_id (e3), "20121019-030000-fio-127.0.0.1-8765-rr-job");

  /* Nothing else in the folder: no temporary file left behind. */
  names = listing (lib_dir);
  ck_assert_str_eq (names, "20121019-021000-benchmark-loop9-2.json 20121019-021000-benchmark-loop9.json "
                    "20121019-030000-fio-127.0.0.1-8765-rr-job.json");

  /* Newest first, the same whether kept in memory or read back. */
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 3);
  ck_assert (ds_library_reload (again, NULL, &error));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (again)), 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DsLibraryEntry) x = g_list_model_get_item (G_LIST_MODEL (lib), i);
      g_autoptr (DsLibraryEntry) y = g_list_model_get_item (G_LIST_MODEL (again), i);

      ck_assert_str_eq (ds_library_entry_get_id (x), ds_library_entry_get_id (y));
      ck_assert_str_eq (ds_library_entry_get_label (x), ds_library_entry_get_label (y));
    }
  {
    g_autoptr (DsLibraryEntry) first = g_list_model_get_item (G_LIST_MODEL (again), 0);

    ck_assert_str_eq (ds_library_entry_get_id (first), "20121019-030000-fio-127.0.0.1-8765-rr-job");
    ck_assert_str_eq (ds_library_entry_get_kind_name (first), "workload");
    /* The path, for runs and imports alike (the model is in the label). */
    ck_assert_str_eq (ds_library_entry_get_device (first), "/dev/loop9");
    ck_assert_str_eq (ds_library_entry_get_model (first), "Disk B");
    ck_assert_str_eq (ds_library_entry_get_summary (first), "randread 4 KiB, QD 1, 1 thread");
    ck_assert_str_eq (ds_library_entry_get_hostname (first), "testhost");
    ck_assert_int_eq (ds_library_entry_get_status (first), DS_LIBRARY_STATUS_COMPLETE);
    ck_assert (!ds_library_entry_has_custom_label (first));
    /* The default label: the model, the path and the start, in local time. */
    ck_assert_msg (g_str_has_prefix (ds_library_entry_get_label (first), "Disk B /dev/loop9 · 2012-10-"),
                   "%s", ds_library_entry_get_label (first));
  }
}
END_TEST

/* An import that knows no model (fio names only the file it ran on) is
 * labelled by its host and path: "node7 /dev/sdb · 2012-10-19 …", never
 * by a generic "Loop device". */
START_TEST (test_import_label_host_and_path)
{
  g_autoptr (DsLibrary) lib = ds_library_new (dir);
  g_autoptr (DsResult) r = ds_test_library_workload ("Disk B", DS_PATTERN_RANDREAD, 4e8, 1e-4,
                                                    "2012-10-19T03:00:00Z");
  g_autoptr (GError) error = NULL;
  DsLibraryEntry *e;

  g_clear_pointer (&r->target.model, g_free);
  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/sdb");
  g_free (r->hostname);
  r->hostname = g_strdup ("node7");

  e = ds_library_save (lib, r, "fio node7:8765/rr job", &error);
  ck_assert_msg (e != NULL, "%s", error ? error->message : "");
  ck_assert_ptr_null (ds_library_entry_get_model (e));
  ck_assert_str_eq (ds_library_entry_get_device (e), "/dev/sdb");
  ck_assert_msg (g_str_has_prefix (ds_library_entry_get_label (e), "node7 /dev/sdb · 2012-10-"),
                 "%s", ds_library_entry_get_label (e));
}
END_TEST

START_TEST (test_unreadable_files_are_listed)
{
  g_autoptr (DsLibrary) lib = ds_library_new (dir);
  g_autoptr (DsResult) a = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;
  g_autofree char *good = ds_result_to_data (a, NULL);
  g_autofree char *half = g_strndup (good, strlen (good) / 2);
  g_autofree char *other = NULL;
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *p = NULL;
  guint unreadable = 0;

  other = g_strdup (good);
  memcpy (strstr (other, "diskscope-result/1"), "diskscope-result/7", strlen ("diskscope-result/7"));

#define PUT(name, text) G_STMT_START { \
    p = g_build_filename (dir, name, NULL); \
    ck_assert (g_file_set_contents (p, text, -1, NULL)); \
    g_clear_pointer (&p, g_free); \
  } G_STMT_END
  PUT ("good.json", good);
  PUT ("half.json", half);
  PUT ("other-schema.json", other);
  PUT ("empty.json", "");
  PUT (".hidden.json", good);          /* a temporary file: not listed */
  PUT ("notes.txt", "not a result");   /* not *.json: not listed */
#undef PUT
  ck_assert_int_eq (mkfifo (fifo, 0644), 0);  /* would block a reader */

  ck_assert_msg (ds_library_reload (lib, NULL, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 5);

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr (DsLibraryEntry) e = g_list_model_get_item (G_LIST_MODEL (lib), i);
      const char *id = ds_library_entry_get_id (e);
      const char *why = ds_library_entry_get_error_message (e);

      if (strcmp (id, "good") == 0)
        {
          ck_assert (ds_library_entry_is_readable (e));
          continue;
        }
      unreadable++;
      ck_assert (!ds_library_entry_is_readable (e));
      ck_assert_str_eq (ds_library_entry_get_kind_name (e), "?");
      /* The message names the file. */
      ck_assert_msg (strstr (why, ds_library_entry_get_path (e)) != NULL, "%s", why);
      if (strcmp (id, "other-schema") == 0)
        ck_assert_msg (strstr (why, "diskscope-result/7") != NULL, "%s", why);
      if (strcmp (id, "fifo") == 0)
        ck_assert_msg (strstr (why, "not a regular file") != NULL, "%s", why);
      if (strcmp (id, "half") == 0)
        ck_assert_msg (strstr (why, "cut short") != NULL, "%s", why);
    }
  ck_assert_uint_eq (unreadable, 4);
}
END_TEST

START_TEST (test_missing_folder_is_empty)
{
  g_autofree char *missing = g_build_filename (dir, "nothing-here", NULL);
  g_autoptr (DsLibrary) lib = ds_library_new (missing);
  g_autoptr (DsLibrary) file_lib = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *file = g_build_filename (dir, "plain", NULL);

  ck_assert (ds_library_reload (lib, NULL, &error));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 0);
  ck_assert (!g_file_test (missing, G_FILE_TEST_EXISTS));

  /* A file where the folder should be: a clear error. */
  ck_assert (g_file_set_contents (file, "x", -1, NULL));
  file_lib = ds_library_new (file);
  ck_assert (!ds_library_reload (file_lib, NULL, &error));
  ck_assert_msg (strstr (error->message, file) != NULL, "%s", error->message);
}
END_TEST

START_TEST (test_annotate_and_lookup)
{
  g_autoptr (DsLibrary) lib = ds_library_new (dir);
  g_autoptr (DsLibrary) again = ds_library_new (dir);
  g_autoptr (DsResult) a = ds_test_library_transfer ("DX440", 1 << 30, 1e8, 2e8, 0.001, "2012-10-19T02:10:00Z");
  g_autoptr (DsResult) b = ds_test_library_transfer ("CX3-80", 1 << 30, 1e8, 2e8, 0.001, "2012-10-19T04:10:00Z");
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsLibraryEntry) found = NULL;
  g_auto (DsAnnotation) ann = { 0 };
  DsLibraryEntry *updated = NULL;
  const char *id;

  ck_assert_ptr_nonnull (ds_library_save (lib, a, NULL, &error));
  ck_assert_ptr_nonnull (ds_library_save (lib, b, NULL, &error));
  id = "20121019-021000-benchmark-loop9";

  ck_assert (ds_annotation_set_label (&ann, "  DX440 RAID 5  ", &error));
  ck_assert (ds_annotation_set_notes (&ann, "FC 8G, one path\nstripe 64 KB", &error));
  ck_assert (ds_annotation_add_tag (&ann, "RAID 5", &error));
  ck_assert (ds_annotation_add_tag (&ann, "FC 8G", &error));
  ck_assert (ds_annotation_add_tag (&ann, "RAID 5", &error));   /* once only */
  {
    g_auto (DsLibraryEdit) edit = { 0 };
    const DsAnnotation none = { 0 };

    ds_library_edit_init_diff (&edit, &none, &ann);
    ck_assert (ds_library_annotate (lib, id, &edit, &updated, &error));
  }
  ck_assert_str_eq (ds_library_entry_get_label (updated), "DX440 RAID 5");
  ck_assert (ds_library_entry_has_custom_label (updated));
  ck_assert_uint_eq (g_strv_length ((char **) ds_library_entry_get_tags (updated)), 2);
  ck_assert (ds_library_entry_has_tag (updated, "raid 5"));

  /* In the file itself, read back by the loader; the figures untouched. */
  loaded = ds_result_load (ds_library_entry_get_path (updated), &error);
  ck_assert_msg (loaded != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (loaded->annotation.label, "DX440 RAID 5");
  ck_assert_str_eq (loaded->annotation.notes, "FC 8G, one path\nstripe 64 KB");
  ck_assert_str_eq (loaded->annotation.tags[1], "FC 8G");
  {
    g_autofree char *x = ds_result_to_data (a, NULL);
    g_autofree char *y = NULL;

    ds_annotation_clear (&loaded->annotation);
    y = ds_result_to_data (loaded, NULL);
    ck_assert_str_eq (x, y);
  }

  ck_assert (ds_library_reload (again, NULL, &error));
  found = ds_library_lookup (again, "DX", &error);   /* not in an id */
  ck_assert_ptr_null (found);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  g_clear_error (&error);
  found = ds_library_lookup (again, "20121019", &error);
  ck_assert_ptr_null (found);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "matches 2 results") != NULL, "%s", error->message);
  g_clear_error (&error);
  found = ds_library_lookup (again, "20121019-02", &error);   /* a unique beginning */
  ck_assert_ptr_nonnull (found);
  ck_assert_str_eq (ds_library_entry_get_label (found), "DX440 RAID 5");
  g_clear_object (&found);
  found = ds_library_lookup (again, "041000", &error);   /* a unique part */
  ck_assert_ptr_nonnull (found);
  g_clear_object (&found);
  found = ds_library_lookup (again, "20121019-041000-benchmark-loop9.json", &error);
  ck_assert_ptr_nonnull (found);

  /* Back to the default label. */
  ck_assert (ds_annotation_set_label (&ann, "   ", &error));
  ck_assert_ptr_null (ann.label);
  {
    DsLibraryEdit edit = { .set_label = TRUE, .label = (char *) "   " };

    ck_assert (ds_library_annotate (again, id, &edit, &updated, &error));
  }
  ck_assert_uint_eq (g_strv_length ((char **) ds_library_entry_get_tags (updated)), 2);
  ck_assert (!ds_library_entry_has_custom_label (updated));
  ck_assert (g_str_has_prefix (ds_library_entry_get_label (updated), "DX440 /dev/loop9 · 2012-10-"));

  /* Removing: the file goes, the entry goes. */
  ck_assert (ds_library_remove (again, id, &error));
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (again)), 1);
  ck_assert (!ds_library_remove (again, id, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
}
END_TEST

START_TEST (test_annotation_rules)
{
  g_auto (DsAnnotation) ann = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *long_label = g_strnfill (DS_ANNOTATION_MAX_LABEL + 1, 'x');
  g_autoptr (DsResult) r = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:00Z");
  g_autofree char *good = NULL;
  g_autofree char *bad = NULL;

  ck_assert (!ds_annotation_set_label (&ann, "evil\033]0;title\007", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "control character") != NULL, "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ds_annotation_set_label (&ann, "two\nlines", &error));
  g_clear_error (&error);
  ck_assert (!ds_annotation_set_label (&ann, long_label, &error));
  ck_assert_msg (strstr (error->message, "too long") != NULL, "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ds_annotation_add_tag (&ann, "", &error));
  g_clear_error (&error);
  for (int i = 0; i < DS_ANNOTATION_MAX_TAGS; i++)
    {
      g_autofree char *tag = g_strdup_printf ("t%d", i);
      ck_assert (ds_annotation_add_tag (&ann, tag, &error));
    }
  ck_assert (!ds_annotation_add_tag (&ann, "one more", &error));
  g_clear_error (&error);
  ck_assert (ds_annotation_remove_tag (&ann, "t0"));
  ck_assert (!ds_annotation_remove_tag (&ann, "t0"));
  ck_assert (ds_annotation_set_label (&ann, "Кириллица и 中文", &error));

  /* A file whose annotation breaks the rules is refused, naming it. */
  ck_assert (ds_annotation_set_label (&r->annotation, "PLACEHOLDER", &error));
  good = ds_result_to_data (r, NULL);
  bad = g_strdup (good);
  {
    char *at = strstr (bad, "PLACEHOLDER");
    memcpy (at, "\\u001b[31m!", strlen ("\\u001b[31m!"));
  }
  {
    g_autoptr (DsResult) back = ds_result_load_data (bad, -1, &error);

    ck_assert_ptr_null (back);
    ck_assert_msg (strstr (error->message, "annotation.label") != NULL, "%s", error->message);
    g_clear_error (&error);
  }
  {
    g_autofree char *tags = NULL;
    g_auto (GStrv) parts = g_strsplit (good, "\"tags\" : [", 2);
    g_autoptr (DsResult) back = NULL;

    ck_assert_uint_eq (g_strv_length (parts), 2);
    tags = g_strconcat (parts[0], "\"tags\" : 5, \"old\" : [", parts[1], NULL);
    back = ds_result_load_data (tags, -1, &error);
    ck_assert_ptr_null (back);
    ck_assert_msg (strstr (error->message, "annotation.tags is not a list") != NULL, "%s", error->message);
  }
}
END_TEST

START_TEST (test_write_file)
{
  g_autofree char *path = g_build_filename (dir, "x.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "x.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  GStatBuf st;

  ck_assert (ds_library_write_file (path, "one", 3, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  ck_assert (!ds_library_write_file (path, "two", 3, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  ck_assert (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS));
  g_clear_error (&error);
  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  ck_assert_str_eq (text, "one");
  g_clear_pointer (&text, g_free);

  ck_assert (ds_library_write_file (path, "three", 5, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  ck_assert_str_eq (text, "three");
  ck_assert_int_eq (g_stat (path, &st), 0);
  ck_assert_int_eq (st.st_mode & 0777, 0644 & ~umask (022));

  ck_assert (!ds_library_write_file (missing, "x", 1, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_msg (strstr (error->message, missing) != NULL, "%s", error->message);

  names = listing (dir);
  ck_assert_str_eq (names, "x.json");

  /* A relabelled result keeps the mode its owner gave it. */
  ck_assert_int_eq (chmod (path, 0600), 0);
  ck_assert (ds_library_write_file (path, "four", 4, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert_int_eq (g_stat (path, &st), 0);
  ck_assert_int_eq (st.st_mode & 0777, 0600);
}
END_TEST

/* What the library replaces: only a regular file; a FIFO (or any other
 * node) at an entry's name stays, and a link is replaced by the file, the
 * file outside the folder it pointed to untouched. */
START_TEST (test_write_file_replaces_only_files)
{
  g_autofree char *lib = g_build_filename (dir, "library", NULL);
  g_autofree char *fifo = g_build_filename (lib, "fifo.json", NULL);
  g_autofree char *outside = g_build_filename (dir, "outside-of-library.json", NULL);
  g_autofree char *link = g_build_filename (lib, "linked.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;

  ck_assert_int_eq (g_mkdir_with_parents (lib, 0700), 0);
  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  ck_assert (!ds_library_write_file (fifo, "x", 1, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_msg (strstr (error->message, fifo) != NULL, "%s", error->message);
  ck_assert_int_eq (lstat (fifo, &st), 0);
  ck_assert (S_ISFIFO (st.st_mode));
  g_clear_error (&error);

  ck_assert (g_file_set_contents (outside, "not the library's", -1, NULL));
  ck_assert_int_eq (symlink (outside, link), 0);
  ck_assert (ds_library_write_file (link, "new", 3, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert (g_file_get_contents (outside, &text, NULL, NULL));
  ck_assert_str_eq (text, "not the library's");
  ck_assert_int_eq (lstat (link, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
}
END_TEST

/* ---- off the main thread ------------------------------------------------ */

typedef struct {
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
  guint      changes;
} AsyncState;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  ((AsyncState *) user_data)->changes++;
}

static void
on_reloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  AsyncState *state = user_data;

  state->ok = ds_library_reload_finish (DS_LIBRARY (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
on_annotated (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  AsyncState *state = user_data;

  state->ok = ds_library_annotate_finish (DS_LIBRARY (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  AsyncState *state = user_data;

  state->ok = ds_library_save_finish (DS_LIBRARY (source), result, &state->error) != NULL;
  g_main_loop_quit (state->loop);
}

START_TEST (test_async)
{
  g_autoptr (DsLibrary) writer = ds_library_new (dir);
  g_autoptr (DsLibrary) lib = ds_library_new (dir);
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GError) error = NULL;
  DsLibraryEdit ann = { .set_label = TRUE, .label = (char *) "relabelled off the main thread" };
  AsyncState state = { .loop = loop };

  for (int i = 0; i < 20; i++)
    {
      g_autofree char *when = g_strdup_printf ("2020-01-01T00:00:%02dZ", i);
      g_autoptr (DsResult) r = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, when);

      ck_assert_ptr_nonnull (ds_library_save (writer, r, NULL, &error));
    }

  g_signal_connect (lib, "items-changed", G_CALLBACK (on_items_changed), &state);
  ds_library_reload_async (lib, NULL, on_reloaded, &state);
  /* Nothing changes before the main loop runs _finish(). */
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 0);
  g_main_loop_run (loop);
  ck_assert_msg (state.ok, "%s", state.error ? state.error->message : "");
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 20);
  ck_assert_uint_eq (state.changes, 1);

  /* A reload that started before a save does not undo it. */
  {
    g_autoptr (DsResult) r = ds_test_library_transfer ("B", 1 << 30, 1e8, 2e8, 0.001, "2021-01-01T00:00:00Z");

    ds_library_reload_async (lib, NULL, on_reloaded, &state);
    ck_assert_ptr_nonnull (ds_library_save (lib, r, NULL, &error));
    g_main_loop_run (loop);
    ck_assert (state.ok);
    ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 21);
  }

  ds_library_annotate_async (lib, "20200101-000005-benchmark-loop9", &ann, NULL, on_annotated, &state);
  g_main_loop_run (loop);
  ck_assert_msg (state.ok, "%s", state.error ? state.error->message : "");
  ck_assert_str_eq (ds_library_entry_get_label (ds_library_get_entry (lib, "20200101-000005-benchmark-loop9")),
                    "relabelled off the main thread");

  ds_library_annotate_async (lib, "no-such-id", &ann, NULL, on_annotated, &state);
  g_main_loop_run (loop);
  ck_assert (!state.ok);
  ck_assert (g_error_matches (state.error, DS_ERROR, DS_ERROR_NOT_FOUND));
  g_clear_error (&state.error);

  /* A save on a worker: the result may go as soon as the call returns;
   * the entry comes in _finish(), beside a same-second one. */
  {
    DsResult *r = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:07Z");
    g_autofree char *path = g_build_filename (dir, "20200101-000007-benchmark-loop9-2.json", NULL);
    g_autofree char *blocker = g_build_filename (dir, "a-file", NULL);
    g_autofree char *below = g_build_filename (blocker, "results", NULL);
    g_autoptr (DsLibrary) nowhere = ds_library_new (below);

    ds_library_save_async (lib, r, NULL, NULL, on_saved, &state);
    ds_result_free (r);
    ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 21);
    g_main_loop_run (loop);
    ck_assert_msg (state.ok, "%s", state.error ? state.error->message : "");
    ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (lib)), 22);
    ck_assert_ptr_nonnull (ds_library_get_entry (lib, "20200101-000007-benchmark-loop9-2"));
    ck_assert (ds_library_entry_is_readable (ds_library_get_entry (lib, "20200101-000007-benchmark-loop9-2")));
    ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));

    /* A folder that cannot be made: an error naming it, nothing added. */
    ck_assert (g_file_set_contents (blocker, "", 0, NULL));
    r = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:08Z");
    ds_library_save_async (nowhere, r, NULL, NULL, on_saved, &state);
    ds_result_free (r);
    g_main_loop_run (loop);
    ck_assert (!state.ok);
    ck_assert_msg (strstr (state.error->message, below) != NULL, "%s", state.error->message);
    ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (nowhere)), 0);
    g_clear_error (&state.error);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library");
  TCase *tc = tcase_create ("core");

  /* Saving fsyncs each file: slow on a busy disk. */
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_save_names_and_lists);
  tcase_add_test (tc, test_import_label_host_and_path);
  tcase_add_test (tc, test_unreadable_files_are_listed);
  tcase_add_test (tc, test_missing_folder_is_empty);
  tcase_add_test (tc, test_annotate_and_lookup);
  tcase_add_test (tc, test_annotation_rules);
  tcase_add_test (tc, test_write_file);
  tcase_add_test (tc, test_write_file_replaces_only_files);
  tcase_add_test (tc, test_async);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
