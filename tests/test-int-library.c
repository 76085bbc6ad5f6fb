/* test-int-library.c: the results library and compare from the CLI, on real
 * loop devices, and on folders that are full or read-only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only: loop devices, and small tmpfs mounts (in the scratch folder,
 * unmounted by the suite's cleanup whatever happens) to fill up or make
 * read-only.
 */
#include "config.h"

#include <check.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ds-test-util.h"

static char *lib_dir;

static void
setup (void)
{
  static unsigned n;

  lib_dir = g_strdup_printf ("%s/lib-%u-%d", ds_test_scratch_dir (), n++, (int) getpid ());
  g_setenv ("DISKSCOPE_RESULTS_DIR", lib_dir, TRUE);
}

static void
teardown (void)
{
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
  g_clear_pointer (&lib_dir, g_free);
}

/* Runs diskscope-cli with the NULL-terminated arguments; exit status. */

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  ck_assert_msg (json_parser_load_from_data (parser, text, -1, &error), "not JSON (%s): %.300s",
                 error ? error->message : "", text);
  return json_node_copy (json_parser_get_root (parser));
}

/* The ids in the library, newest first. */
static GStrv
library_ids (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GStrvBuilder) ids = g_strv_builder_new ();
  JsonArray *results;
  int rc = ds_test_cli (&out, &err, "results", "list", "--json", NULL);

  ck_assert_msg (rc == 0, "results list: exit %d: %s", rc, err);
  root = parse (out);
  results = json_object_get_array_member (json_node_get_object (root), "results");
  for (guint i = 0; i < json_array_get_length (results); i++)
    g_strv_builder_add (ids, json_object_get_string_member (json_array_get_object_element (results, i), "id"));

  return g_strv_builder_end (ids);
}

/* Files in @dir, hidden ones too. */
static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

START_TEST (test_runs_saved_labelled_compared)
{
  g_autofree char *dev_a = ds_test_loop_new (64 << 20, TRUE);
  g_autofree char *dev_b = ds_test_loop_new (32 << 20, TRUE);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *png = g_build_filename (ds_test_scratch_dir (), "cmp.png", NULL);
  g_autofree char *svg = g_build_filename (ds_test_scratch_dir (), "cmp.svg", NULL);
  g_autofree char *pdf = g_build_filename (ds_test_scratch_dir (), "cmp.pdf", NULL);
  g_auto (GStrv) ids = NULL;
  int rc;

  rc = ds_test_cli (&out, &err, "benchmark", dev_a, "--accuracy", "1", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "benchmark", dev_b, "--accuracy", "1", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* --no-library: not saved. */
  rc = ds_test_cli (&out, &err, "workload", dev_a, "--pattern", "randread", "--duration", "300ms",
            "--no-library", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ids = library_ids ();
  ck_assert_uint_eq (g_strv_length (ids), 2);
  ck_assert_msg (g_str_has_suffix (ids[0], strrchr (dev_b, '/') + 1), "%s", ids[0]);
  ck_assert_msg (g_str_has_suffix (ids[1], strrchr (dev_a, '/') + 1), "%s", ids[1]);

  rc = ds_test_cli (&out, &err, "results", "label", ids[1], "Disk A, RAID 10", "--notes", "FC 8G", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "tag", ids[1], "RAID 10", "FC 8G", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "list", "--tag", "raid 10", NULL);
  ck_assert_msg (rc == 0 && strstr (out, "Disk A, RAID 10 [RAID 10, FC 8G]") != NULL, "%s", out);
  ck_assert_msg (strstr (out, ids[0]) == NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "show", ids[1], NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (out, "Label:   Disk A, RAID 10\n") && strstr (out, "Notes:   FC 8G\n") &&
                 strstr (out, "Transfer Rate Average"), "%s", out);
  g_clear_pointer (&out, g_free);

  /* Two disks of different sizes, by id: % of capacity. */
  rc = ds_test_cli (&out, &err, "compare", ids[1], ids[0], "--png", png, "--svg", svg, "--pdf", pdf, NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ds_test_note ("compare:\n%s", out);
  ck_assert_msg (strstr (out, "A  Disk A, RAID 10\n") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Transfer Rate Average") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "positions are compared as % of each capacity") != NULL, "%s", out);
  {
    g_autofree char *svg_text = NULL;
    g_autofree char *pdf_text = NULL;
    g_autofree char *png_data = NULL;
    gsize pdf_len = 0;
    gsize png_len = 0;
    const guchar *p;

    /* PNG: the signature, then IHDR's width and height (big-endian). */
    ck_assert (g_file_get_contents (png, &png_data, &png_len, NULL));
    ck_assert (png_len > 1000 && memcmp (png_data, "\x89PNG\r\n\x1a\n", 8) == 0);
    p = (const guchar *) png_data + 16;
    ck_assert_uint_eq ((guint) (p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]), 1200);
    ck_assert_uint_gt ((guint) (p[4] << 24 | p[5] << 16 | p[6] << 8 | p[7]), 400);
    ck_assert (g_file_get_contents (svg, &svg_text, NULL, NULL));
    ck_assert (g_str_has_prefix (svg_text, "<?xml") && strstr (svg_text, "<path") != NULL);
    ck_assert (g_file_get_contents (pdf, &pdf_text, &pdf_len, NULL));
    ck_assert (pdf_len > 1000 && g_str_has_prefix (pdf_text, "%PDF-"));
  }
  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "compare", ids[1], ids[0], "--json", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  {
    g_autoptr (JsonNode) root = parse (out);
    JsonObject *o = json_node_get_object (root);

    ck_assert_str_eq (json_object_get_string_member (o, "x_axis"), "percent");
    ck_assert_str_eq (json_object_get_string_member (
      json_array_get_object_element (json_object_get_array_member (o, "columns"), 0), "label"),
      "Disk A, RAID 10");
  }
  g_clear_pointer (&out, g_free);

  /* A workload and a benchmark: refused, naming both. */
  rc = ds_test_cli (&out, &err, "workload", dev_a, "--pattern", "randread", "--duration", "300ms", NULL);
  ck_assert_int_eq (rc, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "compare", ids[0], "workload", NULL);
  ck_assert_int_eq (rc, 2);
  ck_assert_msg (strstr (err, "is a result of the benchmark test and ") &&
                 strstr (err, "of the workload test"), "%s", err);

  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "rm", ids[0], NULL);
  ck_assert_int_eq (rc, 0);
  g_strfreev (ids);
  ids = library_ids ();
  ck_assert_uint_eq (g_strv_length (ids), 2);

  ds_test_loop_detach (dev_a);
  ds_test_loop_detach (dev_b);
}
END_TEST

START_TEST (test_unreadable_result_in_library)
{
  g_autofree char *dev = ds_test_loop_new (32 << 20, TRUE);
  g_autofree char *bad = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) ids = NULL;
  int rc;

  rc = ds_test_cli (&out, &err, "workload", dev, "--pattern", "randread", "--duration", "300ms", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  bad = g_build_filename (lib_dir, "20000101-000000-workload-broken.json", NULL);
  ck_assert (g_file_set_contents (bad, "{\"schema\": \"diskscope-result/1\", \"test\": \"workl", -1, NULL));

  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "list", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (out, "unreadable") != NULL && strstr (out, "cut short") != NULL, "%s", out);

  ids = library_ids ();
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "compare", ids[0], "broken", NULL);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, bad) != NULL, "%s", err);
  ds_test_loop_detach (dev);
}
END_TEST

static char *
mount_tmpfs (const char *name,
             const char *options)
{
  g_autofree char *where = g_build_filename (ds_test_scratch_dir (), name, NULL);
  const char *argv[] = { "mount", "-t", "tmpfs", "-o", options, "dstest", where, NULL };

  ck_assert_int_eq (g_mkdir_with_parents (where, 0755), 0);
  ds_test_run_ok (argv);
  return g_steal_pointer (&where);
}

static void
umount_dir (const char *where)
{
  const char *argv[] = { "umount", where, NULL };

  ds_test_run_ok (argv);
}

START_TEST (test_full_filesystem)
{
  g_autofree char *dev = ds_test_loop_new (32 << 20, TRUE);
  g_autofree char *full = mount_tmpfs ("full", "size=256k");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *filler = g_build_filename (full, "filler", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *dd_err = NULL;
  g_auto (GStrv) ids = NULL;
  const char *dd[] = { "dd", "if=/dev/zero", NULL, "bs=4k", "status=none", NULL };
  int rc;

  g_setenv ("DISKSCOPE_RESULTS_DIR", full, TRUE);

  /* A small workload result fits. */
  rc = ds_test_cli (&out, &err, "workload", dev, "--pattern", "randread", "--duration", "300ms", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ids = library_ids ();
  ck_assert_uint_eq (g_strv_length (ids), 1);
  saved = g_strdup_printf ("%s/%s.json", full, ids[0]);
  ck_assert (g_file_get_contents (saved, &before, NULL, NULL));

  /* Fill the rest. */
  dd[2] = g_strdup_printf ("of=%s", filler);
  ds_test_run (dd, NULL, &dd_err);   /* "No space left": what we want */
  g_free ((char *) dd[2]);

  /* A benchmark (tens of kB) does not: the report is printed all the same,
   * the exit status is the run's, and stderr says why it was not saved. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "benchmark", dev, "--accuracy", "1", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (out, "Transfer Rate Average") != NULL, "%s", out);
  ck_assert_msg (strstr (err, "not saved in the library") != NULL &&
                 strstr (err, "no space left in") != NULL && strstr (err, full) != NULL, "%s", err);
  ds_test_note ("full: %s", err);

  /* Relabelling cannot rewrite the file: the old one is whole. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    g_autofree char *notes = g_strnfill (8000, 'n');

    rc = ds_test_cli (&out, &err, "results", "label", ids[0], "new label", "--notes", notes, NULL);
  }
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, "no space left") != NULL, "%s", err);
  ck_assert (g_file_get_contents (saved, &after, NULL, NULL));
  ck_assert_str_eq (before, after);

  /* Nothing half-written, no temporary file: the filler and the result. */
  ck_assert_uint_eq (count_files (full), 2);

  umount_dir (full);
  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_read_only_folder)
{
  g_autofree char *dev = ds_test_loop_new (32 << 20, TRUE);
  g_autofree char *ro = mount_tmpfs ("ro", "size=1m");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) ids = NULL;
  const char *remount[] = { "mount", "-o", "remount,ro", ro, NULL };
  int rc;

  g_setenv ("DISKSCOPE_RESULTS_DIR", ro, TRUE);
  rc = ds_test_cli (&out, &err, "workload", dev, "--pattern", "randread", "--duration", "300ms", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ids = library_ids ();
  ds_test_run_ok (remount);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "workload", dev, "--pattern", "randread", "--duration", "300ms", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (out, "Transfer Rate") != NULL, "%s", out);
  ck_assert_msg (strstr (err, "read-only filesystem") != NULL, "%s", err);
  ds_test_note ("read-only: %s", err);

  /* Listing and comparing still work; deleting says why not. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "results", "list", NULL);
  ck_assert_int_eq (rc, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "results", "rm", ids[0], NULL);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, "could not delete") != NULL && strstr (err, "read-only") != NULL, "%s", err);
  g_strfreev (ids);
  ids = library_ids ();
  ck_assert_uint_eq (g_strv_length (ids), 1);

  umount_dir (ro);
  ds_test_loop_detach (dev);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-library");
  ds_test_require_root ("creates loop devices and mounts small tmpfs folders");

  s = suite_create ("int-library");
  tc = tcase_create ("library");
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_runs_saved_labelled_compared);
  tcase_add_test (tc, test_unreadable_result_in_library);
  tcase_add_test (tc, test_full_filesystem);
  tcase_add_test (tc, test_read_only_folder);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
