/* test-int-fio-logs.c: `import-fio --logs`: fio's per-interval logs of a
 * real run as the imported results' time series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only.  fio runs two jobs (numjobs=2, so two sets of logs) on a
 * faultdisk with a fixed delay per I/O, whose rate is set by the delay and
 * so steady: the series of each job, from averaged logs (log_avg_msec),
 * must have as many intervals as fio logged and a mean rate within 5 % of
 * the rate fio's JSON gives for that job; from raw logs (one line per
 * I/O), exactly the I/Os fio counted.  Then a corrupt log and a missing
 * one: a clear error naming the file, and the JSON's results saved all the
 * same, without a series.
 */
#include "config.h"

#include <check.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define MiB (1024 * 1024)

static DsFaultDisk *disk;

static void
setup (void)
{
  g_autofree char *reason = NULL;

  ck_assert_msg (ds_faultdisk_available (&reason), "no fault-injecting disk: %s", reason);
  disk = ds_faultdisk_new (64 * MiB, 21);
  ds_faultdisk_attach (disk, FALSE);
  /* 2 ms per I/O: a rate the test machine's load hardly moves. */
  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
}

static void
teardown (void)
{
  g_clear_pointer (&disk, ds_faultdisk_free);
}

/* fio with @extra options (NULL-terminated) writing PREFIX logs and the
 * JSON to @json_out: two random-read jobs of 6 s. */
static void
run_fio (const char  *prefix,
         const char  *json_out,
         const char **extra)
{
  g_autofree char *filename = g_strdup_printf ("--filename=%s", ds_faultdisk_get_device (disk));
  g_autofree char *output = g_strdup_printf ("--output=%s", json_out);
  g_autofree char *bw = g_strdup_printf ("--write_bw_log=%s", prefix);
  g_autofree char *iops = g_strdup_printf ("--write_iops_log=%s", prefix);
  g_autofree char *lat = g_strdup_printf ("--write_lat_log=%s", prefix);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *fio = g_find_program_in_path ("fio");
  int rc;

  ck_assert_msg (fio != NULL, "fio is not installed (tools/install-deps)");
  for (const char *const *a = (const char *const[]) {
         "fio", "--name=rr", "--rw=randread", "--bs=4k", "--direct=1", "--ioengine=psync",
         "--time_based=1", "--runtime=6", "--numjobs=2", "--output-format=json", NULL };
       *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, filename);
  g_ptr_array_add (argv, output);
  g_ptr_array_add (argv, bw);
  g_ptr_array_add (argv, iops);
  g_ptr_array_add (argv, lat);
  for (; extra != NULL && *extra != NULL; extra++)
    g_ptr_array_add (argv, (char *) *extra);
  g_ptr_array_add (argv, NULL);
  rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);
  ck_assert_msg (rc == 0, "fio: exit %d: %s\n%s", rc, err, out);
}

static JsonNode *
load (const char *path)
{
  g_autofree char *text = NULL;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  return ds_fault_json_parse (strchr (text, '{'));
}

/* import-fio --no-library --json: the results as a JSON list. */
static JsonNode *
import (const char *json_out,
        const char *prefix,
        int         want_rc,
        char      **ret_err)
{
  g_autofree char *out = NULL;
  int rc = ds_test_cli (&out, ret_err, "import-fio", json_out, "--logs", prefix,
                        "--no-library", "--json", NULL);

  ck_assert_msg (rc == want_rc, "import-fio: exit %d: %s", rc, *ret_err);
  return ds_fault_json_parse (out);
}

/* The distinct time stamps (windows) of a log. */
static guint
log_windows (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "no %s", path);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_hash_table_add (seen, g_strndup (lines[i], strcspn (lines[i], ",")));
  return g_hash_table_size (seen);
}

/* fio's run @name (with @extra) imported with its logs: *@ret_fio its
 * JSON, *@ret_list the two results; returns the logs' prefix. */
static char *
run_and_import (const char  *name,
                const char **extra,
                JsonNode   **ret_fio,
                JsonNode   **ret_list)
{
  char *prefix = ds_test_scratch_path (name);
  g_autofree char *file = g_strdup_printf ("%s.json", name);
  g_autofree char *json_out = ds_test_scratch_path (file);
  g_autofree char *err = NULL;

  run_fio (prefix, json_out, extra);
  *ret_fio = load (json_out);
  *ret_list = import (json_out, prefix, 0, &err);
  ck_assert_uint_eq (json_array_get_length (json_node_get_array (*ret_list)), 2);
  return prefix;
}

/* Job @j's figures in fio's JSON (its "read") and its imported series. */
static JsonArray *
job_series (JsonNode    *fio,
            JsonNode    *list,
            guint        j,
            JsonObject **ret_fio_read,
            JsonNode   **ret_result)
{
  JsonArray *jobs = json_object_get_array_member (json_node_get_object (fio), "jobs");

  *ret_fio_read = json_object_get_object_member (json_array_get_object_element (jobs, j), "read");
  *ret_result = json_array_get_element (json_node_get_array (list), j);
  return json_node_get_array (ds_fault_json_get (*ret_result, "results.series"));
}

START_TEST (test_averaged)
{
  const char *extra[] = { "--log_avg_msec=500", NULL };
  g_autoptr (JsonNode) fio = NULL;
  g_autoptr (JsonNode) list = NULL;
  g_autofree char *prefix = run_and_import ("avg", extra, &fio, &list);

  for (guint j = 0; j < 2; j++)
    {
      JsonObject *fio_read;
      JsonNode *result;
      JsonArray *series = job_series (fio, list, j, &fio_read, &result);
      g_autofree char *bw_log = g_strdup_printf ("%s_bw.%u.log", prefix, j + 1);
      double fio_bps = json_object_get_double_member (fio_read, "bw_bytes");
      double fio_bw_kib = json_object_get_double_member (fio_read, "bw");
      double interval = json_node_get_double (ds_fault_json_get (result, "results.interval_s"));
      double sum = 0, iops = 0;
      guint n = json_array_get_length (series);

      ck_assert_double_eq (interval, 0.5);
      /* One point per window fio logged; fio may log no window the job
       * ended in, so 11 or 12 of the 6 s. */
      ck_assert_uint_eq (n, log_windows (bw_log));
      ck_assert_msg (n >= 11 && n <= 12, "%u intervals", n);
      for (guint i = 0; i < n; i++)
        {
          JsonObject *p = json_array_get_object_element (series, i);
          JsonObject *read = json_object_get_object_member (p, "read");

          ck_assert_double_eq_tol (json_object_get_double_member (p, "t_s"), 0.5 * (i + 1), 1e-9);
          sum += json_object_get_double_member (read, "bytes_per_s");
          iops += json_object_get_double_member (read, "iops");
          /* Averaged logs hold means only. */
          ck_assert_double_eq (json_object_get_double_member (read, "p99_s"), 0);
        }
      ds_test_note ("job %u: %u intervals of 0.5 s, mean %.1f KB/s from the logs, fio's JSON "
                    "%.1f KB/s (%.0f KiB/s)", j + 1, n, sum / n / 1e3, fio_bps / 1e3, fio_bw_kib);
      /* Within 5 %: fio logs no window the job ended in, and the first
       * holds the start.  KiB/s converted as 1024 bytes, not 1000: a
       * 2.4 % error that tolerance would not catch, but the IOPS × 4 KiB
       * check does. */
      ck_assert_msg (fabs (sum / n - fio_bps) <= 0.05 * fio_bps, "mean %.0f B/s, fio %.0f B/s",
                     sum / n, fio_bps);
      ck_assert_msg (fabs (sum - iops * 4096) <= 0.01 * sum, "bytes/s %.0f vs IOPS × 4 KiB %.0f",
                     sum, iops * 4096);
    }
}
END_TEST

START_TEST (test_raw)
{
  g_autoptr (JsonNode) fio = NULL;
  g_autoptr (JsonNode) list = NULL;
  g_autofree char *prefix = run_and_import ("raw", NULL, &fio, &list);

  for (guint j = 0; j < 2; j++)
    {
      JsonObject *fio_read;
      JsonNode *result;
      JsonArray *series = job_series (fio, list, j, &fio_read, &result);
      double ios = 0;
      guint n = json_array_get_length (series);

      ck_assert_double_eq (json_node_get_double (ds_fault_json_get (result, "results.interval_s")), 1.0);
      ck_assert_msg (n == 6, "%u intervals", n);
      /* The last second ends with the run (its JSON's runtime), its rate
       * over that fraction of a second. */
      ck_assert_double_eq_tol (json_object_get_double_member (json_array_get_object_element (series, n - 1), "t_s"),
                               json_node_get_double (ds_fault_json_get (result, "results.runtime_s")), 1e-6);
      for (guint i = 0; i < n; i++)
        {
          JsonObject *read = json_object_get_object_member (json_array_get_object_element (series, i), "read");

          JsonObject *p = json_array_get_object_element (series, i);
          double length = json_object_get_double_member (p, "t_s") -
                          (i > 0 ? json_object_get_double_member (json_array_get_object_element (series, i - 1), "t_s") : 0);

          ios += json_object_get_double_member (read, "iops") * length;
          /* Per-I/O logs give percentiles: at least the 2 ms delay. */
          if (json_object_get_double_member (read, "iops") > 0)
            ck_assert_double_ge (json_object_get_double_member (read, "p50_s"), 1.9e-3);
        }
      ds_test_note ("job %u raw: %u intervals, %.0f I/Os in the series, fio counted %" G_GINT64_FORMAT,
                    j + 1, n, ios, json_object_get_int_member (fio_read, "total_ios"));
      ck_assert_double_eq_tol (ios, (double) json_object_get_int_member (fio_read, "total_ios"), 1e-6);
    }
}
END_TEST

START_TEST (test_bad_logs)
{
  g_autofree char *prefix = ds_test_scratch_path ("bad");
  g_autofree char *json_out = ds_test_scratch_path ("bad.json");
  g_autofree char *lib = ds_test_scratch_path ("bad-lib");
  g_autofree char *bw_log = g_strdup_printf ("%s_bw.2.log", prefix);
  g_autofree char *nowhere = ds_test_scratch_path ("nothing-here");
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  g_autoptr (JsonNode) list = NULL;
  const char *extra[] = { "--log_avg_msec=1000", "--runtime=2", NULL };
  int rc;

  run_fio (prefix, json_out, extra);
  /* A line that is not fio's in job 2's bandwidth log. */
  {
    FILE *f = fopen (bw_log, "a");

    ck_assert_ptr_nonnull (f);
    fputs ("3000, lots, 0, 0, 0\n", f);
    fclose (f);
  }
  list = import (json_out, prefix, 1, &err);
  ck_assert_msg (strstr (err, bw_log) != NULL && strstr (err, "not an fio log line") != NULL &&
                 strstr (err, "no time series imported") != NULL, "%s", err);
  /* Both results, neither with a series (one corrupt log changes none). */
  ck_assert_uint_eq (json_array_get_length (json_node_get_array (list)), 2);
  for (guint j = 0; j < 2; j++)
    ck_assert_ptr_null (ds_fault_json_get (json_array_get_element (json_node_get_array (list), j),
                                           "results.series"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&list, json_node_unref);

  /* No logs at that prefix: said, with the options that write them; the
   * results are saved in the library all the same. */
  rc = ds_test_cli (&out, &err, "import-fio", json_out, "--logs", nowhere, "--results-dir", lib, NULL);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, "no fio logs") != NULL && strstr (err, "--write_bw_log") != NULL, "%s", err);
  ck_assert_msg (strstr (out, "fio-rr") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "results", "list", "--results-dir", lib, NULL);
  ck_assert_int_eq (rc, 0);
  ck_assert_msg (strstr (out, "fio-rr") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Logs of two jobs for a run fio reported as one would be summed; one
   * JSON with --logs, not several. */
  rc = ds_test_cli (&out, &err, "import-fio", json_out, json_out, "--logs", prefix, "--no-library", NULL);
  ck_assert_int_eq (rc, 2);
  ck_assert_msg (strstr (err, "one FIO.json") != NULL, "%s", err);
}
END_TEST

int
main (void)
{
  g_autofree char *reason = NULL;
  Suite *s;
  TCase *tc;

  ds_test_init ("int-fio-logs");
  ds_test_require_root ("creates fault-injecting disks");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  s = suite_create ("int-fio-logs");
  tc = tcase_create ("logs");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_averaged);
  tcase_add_test (tc, test_raw);
  tcase_add_test (tc, test_bad_logs);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
