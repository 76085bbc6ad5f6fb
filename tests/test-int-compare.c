/* test-int-compare.c: two real results of every kind compare in every
 * format, and the kinds fio can run export jobs that fio runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a direct-io loop device of the test's own: mark, sweep, sustain,
 * cache, error-scan and erase each run twice (short), then `compare A B`
 * in text, --json, --csv, --markdown, --png and --svg must give rows with
 * both columns filled and B/A ratios; `export-fio` of mark, sweep, sustain
 * and cache must write a job real fio runs without an error in any
 * section, and error-scan's must be refused (exit 1) saying why.  Health
 * compares two smartctl outputs of one drive (tests/fixtures/smartctl);
 * results of different kinds, and sweeps over different axes, are refused
 * with a sentence.
 */
#include "config.h"

#include <check.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "ds-test-util.h"

static char *dev;
static char *confirm;

static char *
scratch (const char *name)
{
  return ds_test_scratch_path (name);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  ck_assert_msg (json_parser_load_from_data (parser, text, -1, &error), "not JSON: %s",
                 error ? error->message : "?");
  return json_node_copy (json_parser_get_root (parser));
}

/* Runs `diskscope-cli KIND DEV ARGS... -o FILE` (NULL-terminated @args). */
static char *
run_kind (const char        *kind,
          const char        *name,
          const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  char *file = scratch (name);
  int rc;

  g_ptr_array_add (argv, (gpointer) kind);
  g_ptr_array_add (argv, dev);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) "--no-library");
  g_ptr_array_add (argv, (gpointer) "--no-progress");
  g_ptr_array_add (argv, (gpointer) "-o");
  g_ptr_array_add (argv, file);
  g_ptr_array_add (argv, NULL);
  rc = ds_test_cli_argv ((const char *const *) argv->pdata, NULL, &out, &err);
  ck_assert_msg (rc == 0, "%s: exit %d: %s", kind, rc, err);
  return file;
}

/* Every format of `compare A B`: rows with both values and a ratio. */
static void
check_compare (const char *kind,
               const char *a,
               const char *b,
               const char *row_name)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *png = NULL;
  g_autofree char *svg = NULL;
  g_autofree char *data = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *rows;
  guint both = 0;
  gsize len = 0;
  int rc;

  rc = ds_test_cli (&out, &err, "compare", a, b, NULL);
  ck_assert_msg (rc == 0, "%s compare: exit %d: %s", kind, rc, err);
  ck_assert_msg (strstr (out, "B/A") != NULL && strstr (out, row_name) != NULL,
                 "%s: no rows with ratios:\n%s", kind, out);
  ck_assert_msg (strstr (out, "No figures to compare") == NULL, "%s: empty:\n%s", kind, out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  rc = ds_test_cli (&out, &err, "compare", a, b, "--json", NULL);
  ck_assert_msg (rc == 0, "%s --json: exit %d: %s", kind, rc, err);
  root = parse (out);
  rows = json_object_get_array_member (json_node_get_object (root), "rows");
  ck_assert_msg (json_array_get_length (rows) >= 3, "%s: %u rows", kind, json_array_get_length (rows));
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      JsonArray *values = json_object_get_array_member (row, "values");
      JsonArray *ratios = json_object_get_array_member (row, "ratios");

      if (json_node_is_null (json_array_get_element (values, 0)) ||
          json_node_is_null (json_array_get_element (values, 1)))
        continue;
      ck_assert_uint_eq (json_array_get_length (ratios), 1);
      if (json_array_get_double_element (values, 0) > 0)
        {
          ck_assert_msg (!json_node_is_null (json_array_get_element (ratios, 0)), "%s: no ratio", kind);
          both++;
        }
    }
  ck_assert_msg (both >= 3, "%s: only %u rows with both values and a ratio", kind, both);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  rc = ds_test_cli (&out, &err, "compare", a, b, "--csv", NULL);
  ck_assert_msg (rc == 0 && strstr (out, row_name) != NULL, "%s --csv: exit %d: %s%s", kind, rc, err, out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  rc = ds_test_cli (&out, &err, "compare", a, b, "--markdown", NULL);
  ck_assert_msg (rc == 0 && strstr (out, "| B/A |") != NULL, "%s --markdown: exit %d: %s%s", kind, rc,
                 err, out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  png = g_strdup_printf ("%s/%s.png", ds_test_scratch_dir (), kind);
  svg = g_strdup_printf ("%s/%s.svg", ds_test_scratch_dir (), kind);
  rc = ds_test_cli (&out, &err, "compare", a, b, "--png", png, "--svg", svg, NULL);
  ck_assert_msg (rc == 0, "%s --png: exit %d: %s", kind, rc, err);
  ck_assert (g_file_get_contents (png, &data, &len, NULL));
  ck_assert_msg (len > 1000 && memcmp (data, "\x89PNG", 4) == 0, "%s: no PNG", kind);
  g_clear_pointer (&data, g_free);
  ck_assert (g_file_get_contents (svg, &data, &len, NULL));
  ck_assert_msg (strstr (data, "<svg") != NULL, "%s: no SVG", kind);
}

/* export-fio, then real fio on the job: every section ran without error. */
static void
check_fio (const char *kind,
           const char *result)
{
  g_autofree char *job = g_strdup_printf ("%s/%s.fio", ds_test_scratch_dir (), kind);
  g_autofree char *fio_out = g_strdup_printf ("%s/%s-fio.json", ds_test_scratch_dir (), kind);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *output_arg = g_strdup_printf ("--output=%s", fio_out);
  const char *fio[] = { "fio", "--output-format=json", output_arg, job, NULL };
  JsonArray *jobs;
  int rc;

  rc = ds_test_cli (&out, &err, "export-fio", result, "-o", job, NULL);
  ck_assert_msg (rc == 0, "%s export-fio: exit %d: %s", kind, rc, err);
  g_clear_pointer (&err, g_free);
  rc = ds_test_run (fio, NULL, &err);
  ck_assert_msg (rc == 0, "%s: fio: exit %d: %s", kind, rc, err);
  ck_assert (g_file_get_contents (fio_out, &text, NULL, NULL));
  root = parse (strchr (text, '{'));
  jobs = json_object_get_array_member (json_node_get_object (root), "jobs");
  ck_assert_msg (json_array_get_length (jobs) >= 1, "%s: fio ran no job", kind);
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonObject *j = json_array_get_object_element (jobs, i);
      JsonObject *r = json_object_get_object_member (j, "read");
      JsonObject *w = json_object_get_object_member (j, "write");

      ck_assert_int_eq (json_object_get_int_member (j, "error"), 0);
      ck_assert_msg (json_object_get_int_member (r, "io_bytes") + json_object_get_int_member (w, "io_bytes") > 0,
                     "%s: fio's %s moved no data", kind, json_object_get_string_member (j, "jobname"));
    }
  ds_test_note ("%s: fio ran the exported job's %u sections", kind, json_array_get_length (jobs));
}

static void
check_refused (const char *kind,
               const char *result)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = ds_test_cli (&out, &err, "export-fio", result, NULL);

  ck_assert_msg (rc == 1, "%s export-fio: exit %d, not 1: %s", kind, rc, err);
  ck_assert_msg (strstr (err, "cannot be expressed as a fio job, because") != NULL, "%s: %s", kind, err);
  ck_assert_str_eq (out, "");
}

START_TEST (test_mark)
{
  const char *args[] = { "--row", "randread,4k,qd4,1s", "--row", "seq,1m,qd2,1s", "--count", "1",
                         "--warmup", "0", "--pause", "0", "--size", "64M", confirm, NULL };
  g_autofree char *a = run_kind ("mark", "mark-a.json", args);
  g_autofree char *b = run_kind ("mark", "mark-b.json", args);

  check_compare ("mark", a, b, "RND4K Q4T1");
  check_fio ("mark", a);

  /* Six results in one table (seed 002's six set-ups): a column each and
   * five ratios on every row both runs have. */
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autoptr (JsonNode) root = NULL;
    JsonArray *rows;
    int rc = ds_test_cli (&out, &err, "compare", a, b, a, b, a, b, "--json", NULL);

    ck_assert_msg (rc == 0, "six: exit %d: %s", rc, err);
    root = parse (out);
    ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (json_node_get_object (root),
                                                                            "columns")), 6);
    rows = json_object_get_array_member (json_node_get_object (root), "rows");
    ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (
                         json_array_get_object_element (rows, 0), "ratios")), 5);
  }
}
END_TEST

START_TEST (test_sweep)
{
  const char *args[] = { "--levels", "1,2,4", "--step-time", "1s", "--pattern", "randread", NULL };
  const char *threads[] = { "--levels", "1,2", "--step-time", "1s", "--pattern", "randread", "--over", "threads", NULL };
  g_autofree char *a = run_kind ("sweep", "sweep-a.json", args);
  g_autofree char *b = run_kind ("sweep", "sweep-b.json", args);
  g_autofree char *t = run_kind ("sweep", "sweep-t.json", threads);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  check_compare ("sweep", a, b, "QD 2");
  check_fio ("sweep", a);

  /* Over threads against over queue depth: no shared axis. */
  rc = ds_test_cli (&out, &err, "compare", a, t, NULL);
  ck_assert_msg (rc != 0 && strstr (err, "share no axis") != NULL, "exit %d: %s%s", rc, out, err);
}
END_TEST

START_TEST (test_sustain)
{
  const char *args[] = { "--size", "25%", "--interval", "100ms", "-q", "4", "-b", "256K", confirm, NULL };
  g_autofree char *a = run_kind ("sustain", "sustain-a.json", args);
  g_autofree char *b = run_kind ("sustain", "sustain-b.json", args);

  check_compare ("sustain", a, b, "Rate at the start");
  check_fio ("sustain", a);
}
END_TEST

START_TEST (test_cache)
{
  const char *args[] = { "--max", "32M", "--set-time", "1s", NULL };
  g_autofree char *a = run_kind ("cache", "cache-a.json", args);
  g_autofree char *b = run_kind ("cache", "cache-b.json", args);

  check_compare ("cache", a, b, "16.8 MB");
  check_fio ("cache", a);
}
END_TEST

START_TEST (test_scan_and_erase)
{
  const char *none[] = { NULL };
  const char *erase[] = { confirm, NULL };
  g_autofree char *a = run_kind ("scan", "scan-a.json", none);
  g_autofree char *b = run_kind ("scan", "scan-b.json", none);
  g_autofree char *ea = run_kind ("erase", "erase-a.json", erase);
  g_autofree char *eb = run_kind ("erase", "erase-b.json", erase);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  check_compare ("error-scan", a, b, "Blocks read");
  check_refused ("error-scan", a);
  check_compare ("erase", ea, eb, "Erase rate");
  check_refused ("erase", ea);

  /* Different kinds: refused, saying so. */
  rc = ds_test_cli (&out, &err, "compare", a, ea, NULL);
  ck_assert_msg (rc != 0 && strstr (err, "compare results of one kind") != NULL, "exit %d: %s", rc, err);
}
END_TEST

START_TEST (test_health)
{
  g_autofree char *f1 = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_11.json", NULL);
  g_autofree char *f2 = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_12.json", NULL);
  g_autofree char *a = scratch ("health-a.json");
  g_autofree char *b = scratch ("health-b.json");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  rc = ds_test_cli (&out, &err, "health", "--from-json", f1, "--no-library", "-o", a, NULL);
  ck_assert_msg (rc == 0 || rc == 1, "health: exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "health", "--from-json", f2, "--no-library", "-o", b, NULL);
  ck_assert_msg (rc == 0 || rc == 1, "health: exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  check_compare ("health", a, b, "Power-on hours");
  rc = ds_test_cli (&out, &err, "compare", a, b, NULL);
  ck_assert_msg (strstr (out, "serial") != NULL && strstr (out, "the same drive") != NULL, "%s", out);
  check_refused ("health", a);
}
END_TEST

int
main (void)
{
  g_autofree char *fio_path = g_find_program_in_path ("fio");
  Suite *s;
  TCase *tc;

  ds_test_init ("int-compare");
  ds_test_require_root ("creates loop devices");
  if (fio_path == NULL)
    {
      printf ("1..0 # SKIP fio is not installed: the exported jobs cannot be run\n");
      return 0;
    }
  dev = ds_test_loop_new (256u << 20, FALSE);
  confirm = g_strdup_printf ("--destroy-data=%s", dev);

  s = suite_create ("int-compare");
  tc = tcase_create ("compare");
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_mark);
  tcase_add_test (tc, test_sweep);
  tcase_add_test (tc, test_sustain);
  tcase_add_test (tc, test_cache);
  tcase_add_test (tc, test_scan_and_erase);
  tcase_add_test (tc, test_health);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
