/* test-fio.c: fio's JSON as results, results as fio job files (no root)
 *
 * The fixtures in tests/fixtures/fio/ are real fio 3.33 output captured on
 * loop devices (one job; four jobs with group_reporting; two `fio --server`
 * instances driven by `fio --client` with two jobs each; a job that hit
 * EIO, with fio's error line printed before the document), and one in fio
 * 2.x's format.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-bench-workload.h"
#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *
fixture (const char *name)
{
  return g_build_filename (DS_TEST_FIXTURES_DIR, "fio", name, NULL);
}

static GPtrArray *
import (const char  *name,
        GPtrArray  **ret_warnings)
{
  g_autofree char *path = fixture (name);
  g_autoptr (GError) error = NULL;
  GPtrArray *jobs = ds_fio_import_file (path, ret_warnings, &error);

  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  /* Whatever was imported saves and loads like our own results. */
  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];
      g_autofree char *data = ds_result_to_data (job->result, NULL);
      g_autoptr (DsResult) back = ds_result_load_data (data, -1, &error);
      g_autofree char *again = NULL;

      ck_assert_msg (back != NULL, "%s: %s", job->name, error ? error->message : "");
      again = ds_result_to_data (back, NULL);
      ck_assert_str_eq (again, data);
    }

  return jobs;
}

START_TEST (test_single_job)
{
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GPtrArray) jobs = import ("fio-3.33-single.json", &warnings);
  DsFioJob *job = jobs->pdata[0];
  DsResult *r = job->result;
  DsWorkloadData *d = r->data;

  ck_assert_uint_eq (jobs->len, 1);
  ck_assert_uint_eq (warnings->len, 0);
  ck_assert_str_eq (job->name, "t (fio)");
  ck_assert (!job->aggregate);
  ck_assert_ptr_null (job->hostname);

  ck_assert_int_eq (r->kind, DS_BENCH_WORKLOAD);
  ck_assert (r->complete);
  ck_assert_ptr_null (r->error);
  ck_assert_str_eq (r->target.path, "/dev/loop2");
  ck_assert (r->target.is_block);
  ck_assert_str_eq (r->engine, "psync");
  ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDREAD);
  ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
  ck_assert_uint_eq (r->spec.queue_depth, 1);
  ck_assert_uint_eq (r->spec.threads, 1);
  ck_assert_uint_eq (r->spec.duration_ns, UINT64_C (2) * 1000000000);
  ck_assert_str_eq (r->started_at, "2026-11-30T12:08:27Z");
  ck_assert_str_eq (r->annotation.label, "t (fio)");

  /* The figures exactly as fio wrote them, in base units. */
  ck_assert (d->read.present);
  ck_assert (!d->write.present);
  ck_assert_uint_eq (d->read.io_bytes, 3420160);
  ck_assert_uint_eq (d->read.ios, 835);
  ck_assert_double_eq (d->read.bytes_per_s, 1708371);
  ck_assert_double_eq_tol (d->read.iops, 417.082917, 1e-9);
  ck_assert_double_eq_tol (d->read.lat_min_s, 106226e-9, 1e-15);
  ck_assert_double_eq_tol (d->read.lat_mean_s, 2388897.694611e-9, 1e-15);
  ck_assert_double_eq_tol (d->read.lat_max_s, 15337922e-9, 1e-15);
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    if (ds_workload_percentiles[k] == 99)
      ck_assert_double_eq_tol (d->read.lat_percentile_s[k], 7110656e-9, 1e-15);
  ck_assert_double_eq_tol (d->runtime_s, 2.002, 1e-12);
  /* usr_cpu is % of job_runtime (ms). */
  ck_assert_double_eq_tol (d->cpu_user_s, 2.498751 / 100 * 2.001, 1e-9);
  /* lat_percentiles=1: no note about clat. */
  for (guint i = 0; i < r->notes->len; i++)
    ck_assert_ptr_null (strstr (r->notes->pdata[i], "clat"));
}
END_TEST

START_TEST (test_group_reporting)
{
  g_autoptr (GPtrArray) jobs = import ("fio-3.33-group.json", NULL);
  DsResult *r = ((DsFioJob *) jobs->pdata[0])->result;
  DsWorkloadData *d = r->data;

  ck_assert_uint_eq (jobs->len, 1);
  ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDRW);
  ck_assert_uint_eq (r->spec.read_mix_percent, 70);
  ck_assert_uint_eq (r->spec.block_size_bytes, 8192);
  ck_assert_uint_eq (r->spec.queue_depth, 8);
  ck_assert_uint_eq (r->spec.threads, 4);
  ck_assert_uint_eq (r->spec.span_bytes, 32 << 20);
  ck_assert_str_eq (r->engine, "io_uring");
  ck_assert (d->read.present && d->write.present);
  ck_assert_double_eq (d->read.bytes_per_s, 216873282);
  ck_assert_double_eq (d->write.bytes_per_s, 93617014);
  ck_assert_uint_eq (d->read.ios, 53027);
  ck_assert_uint_eq (d->write.ios, 22890);
  /* Percentiles of clat only (no lat_percentiles): said. */
  {
    gboolean said = FALSE;

    for (guint i = 0; i < r->notes->len; i++)
      said |= strstr (r->notes->pdata[i], "clat") != NULL;
    ck_assert (said);
  }
}
END_TEST

START_TEST (test_clients)
{
  g_autoptr (GPtrArray) jobs = import ("fio-3.33-client.json", NULL);
  const char *names[] = { "rr on 127.0.0.1:8766", "sr on 127.0.0.1:8766",
                          "rr on 127.0.0.1:8765", "sr on 127.0.0.1:8765", "All clients" };
  const double bw[] = { 4087820, 65667072, 4112367, 63884648, 136886134 };

  ck_assert_uint_eq (jobs->len, 5);
  for (guint i = 0; i < 5; i++)
    {
      DsFioJob *job = jobs->pdata[i];
      DsWorkloadData *d = job->result->data;

      ck_assert_str_eq (job->name, names[i]);
      ck_assert_double_eq (d->read.bytes_per_s, bw[i]);
      ck_assert_int_eq (job->aggregate, i == 4);
      if (i < 4)
        {
          ck_assert_str_eq (job->hostname, "127.0.0.1");
          ck_assert_int_eq (job->port, i < 2 ? 8766 : 8765);
          ck_assert_str_eq (job->result->hostname, i < 2 ? "127.0.0.1:8766" : "127.0.0.1:8765");
        }
      else
        {
          ck_assert_ptr_null (job->hostname);
          ck_assert_ptr_null (job->result->hostname);
        }
    }
  /* The options: global filename under the job's rw and bs. */
  ck_assert_int_eq (((DsFioJob *) jobs->pdata[1])->result->spec.pattern, DS_PATTERN_READ);
  ck_assert_uint_eq (((DsFioJob *) jobs->pdata[1])->result->spec.block_size_bytes, 65536);
  ck_assert_uint_eq (((DsFioJob *) jobs->pdata[1])->result->spec.offset_bytes, 128 << 20);
  ck_assert_str_eq (((DsFioJob *) jobs->pdata[0])->result->target.path, "/dev/loop2");
  /* The sum is of unlike jobs (randread 4k and read 64k): said. */
  {
    DsResult *sum = ((DsFioJob *) jobs->pdata[4])->result;
    gboolean said = FALSE;

    for (guint i = 0; i < sum->notes->len; i++)
      said |= strstr (sum->notes->pdata[i], "summed jobs differ") != NULL;
    ck_assert (said);
  }
}
END_TEST

START_TEST (test_error_job)
{
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GPtrArray) jobs = import ("fio-3.33-error.json", &warnings);
  DsResult *r = ((DsFioJob *) jobs->pdata[0])->result;

  /* The line fio printed before the document is skipped; the failed job
   * is kept with what it did, its error set and said. */
  ck_assert_uint_eq (jobs->len, 1);
  ck_assert (!r->complete);
  ck_assert_ptr_nonnull (r->error);
  ck_assert_int_eq (r->error_errno, EIO);
  ck_assert_int_eq (r->error->code, DS_ERROR_IO);
  ck_assert_msg (strstr (r->error->message, "fio reported error 5") != NULL, "%s", r->error->message);
  ck_assert_msg (strstr (r->error->message, "“eio”") != NULL, "%s", r->error->message);
  ck_assert_uint_eq (warnings->len, 1);
  ck_assert_uint_eq (((DsWorkloadData *) r->data)->read.ios, 17);   /* fio counts the failed I/O */
}
END_TEST

START_TEST (test_bad_input)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *old = fixture ("fio-2.2.10-old.json");
  g_autofree char *single = fixture ("fio-3.33-single.json");
  g_autofree char *text = NULL;
  struct { const char *data; const char *want; } cases[] = {
    { "", "empty" },
    { "hello", "no JSON document" },
    { "{\"jobs\": []}", "no \"fio version\"" },
    { "{\"fio version\": \"fio-3.33\"}", "holds no jobs" },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [1, 2]}", "entry 0 is not an object" },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"read\": {\"total_ios\": 5}}]}",
      "no lat_ns" },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"job options\": {\"rw\": \"trim\"}}]}",
      "rw=trim has no Diskscope workload pattern" },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"read\": {\"total_ios\": 5, "
      "\"io_bytes\": 20480, \"bw_bytes\": -1, \"iops\": 1, \"lat_ns\": {\"min\": 1, \"mean\": 2, \"max\": 3}}}]}",
      "bw_bytes is out of range" },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"read\": {\"total_ios\": 5, "
      "\"io_bytes\": 20480, \"bw_bytes\": 1, \"iops\": 1, \"lat_ns\": {\"min\": 9, \"mean\": 2, \"max\": 3}}}]}",
      "out of order" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) jobs = ds_fio_import_data (cases[i].data, -1, "x.json", NULL, &error);

      ck_assert_msg (jobs == NULL, "case %u imported", i);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "case %u: %s", i, error->message);
      ck_assert_msg (strstr (error->message, cases[i].want) != NULL, "case %u: %s", i, error->message);
      g_clear_error (&error);
    }

  /* fio 2.x: said, and the file named. */
  ck_assert_ptr_null (ds_fio_import_file (old, NULL, &error));
  ck_assert_msg (strstr (error->message, old) != NULL, "%s", error->message);
  ck_assert_msg (strstr (error->message, "written by fio-2.2.10") != NULL, "%s", error->message);
  g_clear_error (&error);

  /* Cut short anywhere: a clear error, never a crash. */
  ck_assert (g_file_get_contents (single, &text, NULL, NULL));
  for (gsize cut = 1; cut < strlen (text) - 3; cut += strlen (text) / 41)
    {
      g_autoptr (GPtrArray) jobs = ds_fio_import_data (text, (gssize) cut, "cut.json", NULL, &error);

      ck_assert_ptr_null (jobs);
      ck_assert_ptr_nonnull (error);
      g_clear_error (&error);
    }

  ck_assert_ptr_null (ds_fio_import_file ("/nonexistent/fio.json", NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
}
END_TEST

/* Found by fuzz-fio-import: a job without "groupid" (or with one that is
 * not a number) imports, into group 0. */
START_TEST (test_missing_groupid)
{
  const char *json =
    "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"groupid\": \"?\", "
    "\"read\": {\"total_ios\": 5, \"io_bytes\": 20480, \"bw_bytes\": 4096, \"iops\": 1, "
    "\"runtime\": 5000, \"lat_ns\": {\"min\": 1000, \"mean\": 2000, \"max\": 3000}}},"
    "{\"jobname\": \"y\", \"read\": {\"total_ios\": 5, \"io_bytes\": 20480, \"bw_bytes\": 4096, "
    "\"iops\": 1, \"runtime\": 5000, \"lat_ns\": {\"min\": 1000, \"mean\": 2000, \"max\": 3000}}}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) jobs = ds_fio_import_data (json, -1, "x.json", NULL, &error);

  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (jobs->len, 2);
  ck_assert_str_eq (((DsFioJob *) jobs->pdata[1])->name, "y (fio)");
}
END_TEST

/* ---- export ------------------------------------------------------------- */

static gboolean
has_line (const char *job,
          const char *line)
{
  g_autofree char *needle = g_strdup_printf ("\n%s\n", line);

  return strstr (job, needle) != NULL;
}

START_TEST (test_export_workload)
{
  g_autoptr (DsResult) r = ds_test_library_workload ("Disk", DS_PATTERN_RANDRW, 1e8, 1e-4,
                                                    "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;
  g_autofree char *cmd = NULL;

  r->spec.queue_depth = 32;
  r->spec.threads = 4;
  r->spec.read_mix_percent = 70;
  r->spec.block_size_bytes = 8192;
  r->spec.offset_bytes = 1 << 20;
  r->spec.span_bytes = 100 << 20;
  r->spec.duration_ns = UINT64_C (30) * 1000000000;
  r->spec.ramp_ns = UINT64_C (5) * 1000000000;
  r->spec.seed = 42;
  g_free (r->engine);
  r->engine = g_strdup ("io_uring");

  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  {
    const char *want[] = {
      "filename=/dev/loop9", "direct=1", "ioengine=io_uring", "fixedbufs=1", "registerfiles=1",
      "refill_buffers=1", "norandommap=1", "randseed=42", "lat_percentiles=1", "rw=randrw",
      "rwmixread=70", "bs=8192", "iodepth=32", "numjobs=4", "offset=1048576",
      "size=104857600", "time_based=1", "runtime=30000ms", "ramp_time=5000ms",
    };

    for (guint i = 0; i < G_N_ELEMENTS (want); i++)
      ck_assert_msg (has_line (job, want[i]), "no %s in:\n%s", want[i], job);
  }
  ck_assert_msg (strstr (job, "WRITES to /dev/loop9 and DESTROYS ALL DATA") != NULL, "%s", job);

  /* Our sync engine is fio's psync at depth 1; the thread pool is one
   * synchronous job per slot. */
  g_free (r->engine);
  r->engine = g_strdup ("threads");
  g_free (job);
  job = ds_fio_job_from_result (r, "/dev/other", &error);
  ck_assert (has_line (job, "ioengine=psync"));
  ck_assert (has_line (job, "numjobs=128"));
  ck_assert (has_line (job, "iodepth=1"));
  ck_assert (has_line (job, "filename=/dev/other"));

  cmd = ds_fio_command_line ("my job.fio", "out.json");
  ck_assert_str_eq (cmd, "fio --output-format=json --output='out.json' 'my job.fio'");
}
END_TEST

/* The job aligns random offsets as the run did (issue 25): on the block
 * size by default, as fio's own default, and on --align's bytes when the
 * run had one (HD Tune's 512), the job's blockalign= from the result. */
START_TEST (test_export_blockalign)
{
  g_autoptr (DsResult) r = ds_test_library_workload ("Disk", DS_PATTERN_RANDREAD, 1e8, 1e-4,
                                                    "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) ra = ds_test_random_access_result (FALSE);
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;

  r->spec.block_size_bytes = 4096;
  r->target.logical_block_size = 512;
  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (has_line (job, "bs=4096") && has_line (job, "blockalign=4096"), "%s", job);
  ck_assert_msg (!has_line (job, "blockalign=512"), "%s", job);

  r->spec.random_align_bytes = 512;
  g_free (job);
  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (has_line (job, "blockalign=512") && !has_line (job, "blockalign=4096"), "%s", job);
  /* Never below the logical block. */
  r->target.logical_block_size = 4096;
  g_free (job);
  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (has_line (job, "blockalign=4096") && !has_line (job, "blockalign=512"), "%s", job);

  /* A sequential workload: no alignment to speak of. */
  r->spec.pattern = DS_PATTERN_READ;
  r->spec.random_align_bytes = 0;
  g_free (job);
  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (strstr (job, "\nblockalign=") == NULL, "%s", job);

  /* Random Access: fio's default (each job's smallest block), unless the
   * run had --align 512. */
  g_free (job);
  job = ds_fio_job_from_result (ra, "/dev/loop9", &error);
  ck_assert_msg (job != NULL && strstr (job, "\nblockalign=") == NULL, "%s", job);
  ra->spec.random_align_bytes = 512;
  g_free (job);
  job = ds_fio_job_from_result (ra, "/dev/loop9", &error);
  ck_assert_msg (has_line (job, "blockalign=512"), "%s", job);
}
END_TEST

/* Every kind exports to a job file fio itself accepts (fio --parse-only). */
START_TEST (test_export_parses)
{
  g_autofree char *dir = g_dir_make_tmp ("ds-fio-XXXXXX", NULL);
  const char *kinds[] = { "benchmark", "extra", "random-access", "block-size", "file", "workload" };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const DsBenchOps *ops = ds_bench_lookup (kinds[i]);
      g_autoptr (DsResult) r = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *job = NULL;
      g_autofree char *path = g_strdup_printf ("%s/%s.fio", dir, kinds[i]);
      g_autofree char *err = NULL;
      const char *argv[] = { "fio", "--parse-only", path, NULL };
      DsBenchSpec spec;
      int rc;

      ds_bench_spec_init (&spec, ops->kind);
      spec.target_path = g_strdup (ops->kind == DS_BENCH_FILE ? dir : "/dev/loop9");
      r = ds_result_new (&spec);
      ds_bench_spec_clear (&spec);
      r->target.path = g_strdup (r->spec.target_path);
      r->target.size_bytes = UINT64_C (1) << 30;
      r->target.logical_block_size = 512;

      job = ds_fio_job_from_result (r, NULL, &error);
      ck_assert_msg (job != NULL, "%s: %s", kinds[i], error ? error->message : "");
      ck_assert (g_file_set_contents (path, job, -1, NULL));
      rc = ds_test_run (argv, NULL, &err);
      ck_assert_msg (rc == 0, "fio refused the %s job (exit %d): %s\n%s", kinds[i], rc, err, job);
      g_unlink (path);
    }
  g_rmdir (dir);
}
END_TEST

START_TEST (test_export_needs_a_target)
{
  g_autoptr (DsResult) r = ds_test_library_workload ("Disk", DS_PATTERN_READ, 1e8, 1e-4, "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&r->target.path, g_free);
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
}
END_TEST

/* ---- logs --------------------------------------------------------------- */

static char *
log_prefix (const char *name)
{
  return g_build_filename (DS_TEST_FIXTURES_DIR, "fio-logs", name, NULL);
}

/* Issue 21, class 11: fio's JSON with runtime 0 showed "36.5 MB/s" over
 * "0.00 s" and "(0 bytes)".  Counted I/Os over no time have no rate: the
 * report says so, comparisons leave the cell empty, and the unknown size
 * is not "0 bytes". */
START_TEST (test_runtime_zero)
{
  g_autofree char *path = fixture ("fio-3.33-single.json");
  g_autofree char *text = NULL;
  g_autoptr (GString) edited = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) jobs = NULL;
  g_autoptr (DsComparison) cmp = NULL;
  g_autofree char *report = NULL;
  g_autofree char *csv = NULL;
  DsResult *pair[2];
  DsWorkloadData *data;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  edited = g_string_new (text);
  /* The read's runtime (the write did nothing: 0 already), and the job's. */
  ck_assert_uint_eq (g_string_replace (edited, "\"runtime\" : 2002,", "\"runtime\" : 0,", 0), 1);
  ck_assert_uint_eq (g_string_replace (edited, "\"job_runtime\" : 2001,", "\"job_runtime\" : 0,", 0), 1);

  jobs = ds_fio_import_data (edited->str, (gssize) edited->len, "rt0.json", NULL, &error);
  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  data = ((DsFioJob *) jobs->pdata[0])->result->data;
  ck_assert_double_eq (data->runtime_s, 0);
  ck_assert_double_eq (data->read.bytes_per_s, 0);
  ck_assert_uint_gt (data->read.ios, 0);

  report = ds_report_text (((DsFioJob *) jobs->pdata[0])->result, DS_UNITS_MB);
  ck_assert_msg (strstr (report, "Transfer Rate         : none: no time measured") != NULL &&
                 strstr (report, "Run Time              : no time measured") != NULL &&
                 strstr (report, "(size not known)") != NULL && strstr (report, "MB/s\n") == NULL &&
                 strstr (report, "(0 bytes)") == NULL, "%s", report);

  pair[0] = pair[1] = ((DsFioJob *) jobs->pdata[0])->result;
  cmp = ds_comparison_new (pair, NULL, 2, &error);
  ck_assert_msg (cmp != NULL, "%s", error ? error->message : "");
  csv = ds_comparison_to_csv (cmp, DS_UNITS_MB);
  ck_assert_msg (strstr (csv, "Bandwidth,,MB/s,,,,") != NULL, "%s", csv);
}
END_TEST

/* The last guard before a job is written (issue 21, class 4): fio's
 * reading of it holds only our sections and options. */
START_TEST (test_job_check)
{
  g_autofree char *longer = g_strnfill (1200, 'a');
  g_autofree char *long_comment = g_strdup_printf ("; %s\n[global]\nrw=read\n", longer);
  g_autofree char *why = NULL;

  ck_assert (ds_fio_job_check ("; a comment\n[global]\nfilename=/dev/sdb\nrw=read\n\n[diskscope-read]\nbs=4096\n"));
  ck_assert (ds_fio_job_check ("[global]\nfilename=/dev/disk/by-id/a\\:b\n"));
  ck_assert (!ds_fio_job_check ("[global]\nexec_prerun=touch /tmp/x\n"));
  ck_assert (!ds_fio_job_check ("[global]\ninclude=/etc/x\n"));
  ck_assert (!ds_fio_job_check ("[global]\nrw=read;exec\n"));
  ck_assert (!ds_fio_job_check ("[global]\nfilename=${HOME}/x\n"));
  ck_assert (!ds_fio_job_check ("[global]\nbs=$pagesize\n"));
  ck_assert (!ds_fio_job_check ("[glo bal]\n"));
  ck_assert (!ds_fio_job_check ("  [global]\n"));
  ck_assert (!ds_fio_job_check (long_comment));

  ck_assert_ptr_null (ds_fio_unsafe_in_filename ("/dev/disk/by-id/ata-X_Y:1 é"));
  why = ds_fio_unsafe_in_filename ("/dev/sdb#x");
  ck_assert_str_eq (why, "“#”");
  g_free (why);
  why = ds_fio_unsafe_in_filename (" /dev/sdb");
  ck_assert_ptr_nonnull (why);
  g_free (why);
  why = ds_fio_unsafe_in_filename ("/dev/sdb\xe2\x80\xae");
  ck_assert_ptr_nonnull (why);
}
END_TEST

/* ds_fio_logs_read(), its interval and whether it has percentiles. */
static GArray *
logs_read (const char  *prefix,
           const char  *host,
           guint        job,
           double      *ret_interval_s,
           gboolean    *ret_percentiles,
           GError     **error)
{
  DsFioLogInfo info = { 0 };
  GArray *series = ds_fio_logs_read (prefix, host, job, &info, error);

  *ret_interval_s = info.interval_s;
  *ret_percentiles = info.percentiles;
  return series;
}

/* A raw latency log (one line per I/O, tests/fixtures/fio-logs/raw*, a
 * 2 s randrw run): every I/O counted in its second, percentiles exact. */
START_TEST (test_logs_raw)
{
  g_autofree char *prefix = log_prefix ("raw");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) series = NULL;
  double interval = 0, reads = 0, writes = 0;
  gboolean pct = FALSE;
  const DsFioLogPoint *p;

  series = logs_read (prefix, NULL, 1, &interval, &pct, &error);
  ck_assert_msg (series != NULL, "%s", error ? error->message : "");
  ck_assert_double_eq (interval, 1.0);
  ck_assert (pct);
  ck_assert_uint_eq (series->len, 3);

  p = &g_array_index (series, DsFioLogPoint, 0);
  ck_assert_double_eq (p->t_s, 1.0);
  ck_assert_double_eq (p->read.iops, 497);
  ck_assert_double_eq (p->read.bytes_per_s, 497 * 4096.0);
  ck_assert_double_eq (p->read.p50_s, 32461e-9);
  ck_assert_double_eq (p->read.p99_s, 17321454e-9);
  ck_assert_double_eq (p->write.iops, 228);
  ck_assert_double_eq (p->write.p99_s, 12536253e-9);
  p = &g_array_index (series, DsFioLogPoint, 1);
  ck_assert_double_eq (p->t_s, 2.0);
  ck_assert_double_eq (p->read.iops, 1677);
  ck_assert_double_eq (p->read.p99_s, 7645152e-9);

  /* Every I/O fio counted in its JSON (raw.json: 2175 reads, 964 writes)
   * is in one interval. */
  for (guint i = 0; i < series->len; i++)
    {
      reads += g_array_index (series, DsFioLogPoint, i).read.iops * interval;
      writes += g_array_index (series, DsFioLogPoint, i).write.iops * interval;
    }
  ck_assert_double_eq (reads, 2175);
  ck_assert_double_eq (writes, 964);
}
END_TEST

/* Averaged logs (log_avg_msec=1000) of two jobs (numjobs=2, as with
 * group_reporting): summed per window; no percentiles. */
START_TEST (test_logs_averaged)
{
  g_autofree char *prefix = log_prefix ("avg");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) series = NULL;
  g_autoptr (GArray) one = NULL;
  double interval = 0;
  gboolean pct = TRUE;
  const DsFioLogPoint *p;

  series = logs_read (prefix, NULL, 0, &interval, &pct, &error);
  ck_assert_msg (series != NULL, "%s", error ? error->message : "");
  ck_assert_double_eq (interval, 1.0);
  ck_assert (!pct);
  ck_assert_uint_eq (series->len, 2);
  p = &g_array_index (series, DsFioLogPoint, 0);
  ck_assert_double_eq (p->t_s, 1.0);
  ck_assert_double_eq (p->read.bytes_per_s, (2710 + 2680) * 1024.0);
  ck_assert_double_eq (p->write.bytes_per_s, (1233 + 1192) * 1024.0);
  ck_assert_double_eq (p->read.iops, 677 + 670);
  ck_assert_double_eq (p->read.p50_s, 0);
  p = &g_array_index (series, DsFioLogPoint, 1);
  ck_assert_double_eq (p->t_s, 2.0);
  ck_assert_double_eq (p->read.iops, 1365 + 1442);

  /* Job 2 alone. */
  one = logs_read (prefix, NULL, 2, &interval, &pct, &error);
  ck_assert_ptr_nonnull (one);
  ck_assert_double_eq (g_array_index (one, DsFioLogPoint, 1).write.iops, 641);
}
END_TEST

START_TEST (test_logs_bad)
{
  g_autofree char *dir = g_dir_make_tmp ("ds-fio-log-XXXXXX", NULL);
  g_autofree char *prefix = g_build_filename (dir, "x", NULL);
  g_autofree char *bw = g_strdup_printf ("%s_bw.1.log", prefix);
  g_autoptr (GError) error = NULL;
  double interval;
  gboolean pct;

  ck_assert_ptr_null (logs_read (prefix, NULL, 1, &interval, &pct, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_msg (strstr (error->message, "--write_bw_log") != NULL, "%s", error->message);
  g_clear_error (&error);

  ck_assert (g_file_set_contents (bw, "1000, 5, 0, 0, 0\n2000, lots, 0, 0, 0\n", -1, NULL));
  ck_assert_ptr_null (logs_read (prefix, NULL, 1, &interval, &pct, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (strstr (error->message, "_bw.1.log:2:") != NULL, "%s", error->message);
  g_clear_error (&error);
  ck_assert (g_file_set_contents (bw, "1000, 5, 7, 0, 0\n", -1, NULL));
  ck_assert_ptr_null (logs_read (prefix, NULL, 1, &interval, &pct, &error));
  g_clear_error (&error);

  g_unlink (bw);
  g_rmdir (dir);
}
END_TEST

/* Copies the avg fixture's logs to @dir as PREFIX_KIND.N.log@suffix. */
static char *
copy_avg_logs (const char *dir,
               const char *suffix)
{
  g_autofree char *from = log_prefix ("avg");
  char *prefix = g_build_filename (dir, "x", NULL);
  const char *kinds[] = { "bw", "iops", "lat" };

  for (guint n = 1; n <= 2; n++)
    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        g_autofree char *src = g_strdup_printf ("%s_%s.%u.log", from, kinds[k], n);
        g_autofree char *dst = g_strdup_printf ("%s_%s.%u.log%s", prefix, kinds[k], n, suffix);
        g_autofree char *text = NULL;
        gsize length;

        ck_assert (g_file_get_contents (src, &text, &length, NULL));
        ck_assert (g_file_set_contents (dst, text, (gssize) length, NULL));
      }
  return prefix;
}

/* n jobs of the avg fixture's run (one each), on @host:@port. */
static GPtrArray *
avg_jobs (guint       n,
          const char *host,
          const int  *ports)
{
  g_autofree char *json = g_build_filename (DS_TEST_FIXTURES_DIR, "fio-logs", "avg.json", NULL);
  GPtrArray *jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_fio_job_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) one = ds_fio_import_file (json, NULL, &error);
      DsFioJob *job;

      ck_assert_msg (one != NULL && one->len == 1, "%s", error ? error->message : "");
      job = g_ptr_array_steal_index (one, 0);
      job->hostname = g_strdup (host);
      job->port = host ? ports[i] : 0;
      g_ptr_array_add (jobs, job);
    }
  return jobs;
}

static const DsIntervalPoint *
series_point (GPtrArray *jobs,
              guint      j,
              guint      i)
{
  const DsWorkloadData *d = ((DsFioJob *) jobs->pdata[j])->result->data;

  ck_assert_ptr_nonnull (d->series);
  return &g_array_index (d->series, DsIntervalPoint, i);
}

/* Which logs each job gets: a single job all (summed), job N logs N, on a
 * host the logs fio --client names after it; what cannot be matched is
 * said and left without a series. */
START_TEST (test_logs_attach)
{
  g_autofree char *dir = g_dir_make_tmp ("ds-fio-attach-XXXXXX", NULL);
  g_autofree char *local = copy_avg_logs (dir, "");
  g_autofree char *hosted = copy_avg_logs (dir, ".h1");
  const int ports[] = { 8765, 8765, 8766 };
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (GPtrArray) one = avg_jobs (1, NULL, ports);

    ck_assert_int_eq (ds_fio_logs_attach (one, local, warnings, &error), 1);
    ck_assert_double_eq (series_point (one, 0, 0)->read.bytes_per_s, (2710 + 2680) * 1024.0);
    ck_assert_uint_eq (warnings->len, 0);
  }
  {
    g_autoptr (GPtrArray) two = avg_jobs (2, "h1", ports);

    ck_assert_int_eq (ds_fio_logs_attach (two, hosted, warnings, &error), 2);
    ck_assert_double_eq (series_point (two, 0, 0)->read.bytes_per_s, 2710 * 1024.0);
    ck_assert_double_eq (series_point (two, 1, 1)->write.iops, 641);
    ck_assert_uint_eq (warnings->len, 0);
  }
  {
    /* Two servers on one host: fio writes their logs under one name. */
    g_autoptr (GPtrArray) two = avg_jobs (2, "h1", ports + 1);

    ck_assert_int_eq (ds_fio_logs_attach (two, hosted, warnings, &error), 0);
    ck_assert_uint_eq (warnings->len, 2);
    ck_assert_msg (strstr (warnings->pdata[0], "cannot be told apart") != NULL, "%s",
                   (char *) warnings->pdata[0]);
    g_ptr_array_set_size (warnings, 0);
  }
  {
    /* Three results, two jobs' logs. */
    g_autoptr (GPtrArray) three = avg_jobs (3, NULL, ports);

    ck_assert_int_eq (ds_fio_logs_attach (three, local, warnings, &error), 0);
    ck_assert_uint_eq (warnings->len, 3);
    ck_assert_msg (strstr (warnings->pdata[2], "logs of 2 jobs for 3 results") != NULL, "%s",
                   (char *) warnings->pdata[2]);
    ck_assert_ptr_null (((DsWorkloadData *) ((DsFioJob *) three->pdata[0])->result->data)->series);
  }
  {
    /* Nothing at all there. */
    g_autoptr (GPtrArray) one = avg_jobs (1, NULL, ports);
    g_autofree char *nowhere = g_build_filename (dir, "nothing", NULL);

    ck_assert_int_eq (ds_fio_logs_attach (one, nowhere, warnings, &error), -1);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  }

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
    ck_assert_int_eq (system (cmd), 0);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio");
  TCase *tc = tcase_create ("core");

  /* fio --parse-only takes a second or two on a busy machine. */
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_single_job);
  tcase_add_test (tc, test_group_reporting);
  tcase_add_test (tc, test_clients);
  tcase_add_test (tc, test_error_job);
  tcase_add_test (tc, test_bad_input);
  tcase_add_test (tc, test_missing_groupid);
  tcase_add_test (tc, test_export_workload);
  tcase_add_test (tc, test_export_blockalign);
  tcase_add_test (tc, test_export_parses);
  tcase_add_test (tc, test_export_needs_a_target);
  tcase_add_test (tc, test_logs_raw);
  tcase_add_test (tc, test_logs_averaged);
  tcase_add_test (tc, test_logs_bad);
  tcase_add_test (tc, test_logs_attach);
  tcase_add_test (tc, test_runtime_zero);
  tcase_add_test (tc, test_job_check);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
