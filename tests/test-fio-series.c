/* test-fio-series.c: fio's logs as the series of the results imported from
 * its JSON (core/fio/ds-fio-series.c, ds_fio_logs_attach()): the run's
 * last fraction of a second, which job gets which logs, what is said of
 * a series and of jobs that get none, and that a bad log changes nothing
 *
 * The fixtures are real fio 3.33 runs (tests/fixtures/fio/README.md); the
 * expected figures are counted here from the files themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-glib/json-glib.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-fio-series-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

static char *
fixture (const char *sub,
         const char *name)
{
  return g_build_filename (DS_TEST_FIXTURES_DIR, sub, name, NULL);
}

static GPtrArray *
import (const char *sub,
        const char *name)
{
  g_autofree char *path = fixture (sub, name);
  g_autoptr (GError) error = NULL;
  GPtrArray *jobs = ds_fio_import_file (path, NULL, &error);

  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  return jobs;
}

static DsWorkloadData *
data_of (GPtrArray *jobs,
         guint      i)
{
  return ((DsFioJob *) jobs->pdata[i])->result->data;
}

static const DsIntervalPoint *
point (GPtrArray *jobs,
       guint      j,
       guint      i)
{
  DsWorkloadData *d = data_of (jobs, j);

  ck_assert_ptr_nonnull (d->series);
  ck_assert_uint_lt (i, d->series->len);
  return &g_array_index (d->series, DsIntervalPoint, i);
}

/* The note of job @j's result that starts with @start, or NULL. */
static const char *
note (GPtrArray  *jobs,
      guint       j,
      const char *start)
{
  GPtrArray *notes = ((DsFioJob *) jobs->pdata[j])->result->notes;

  for (guint i = 0; notes != NULL && i < notes->len; i++)
    if (g_str_has_prefix (notes->pdata[i], start))
      return notes->pdata[i];
  return NULL;
}

static guint
n_notes (GPtrArray *jobs,
         guint      j)
{
  GPtrArray *notes = ((DsFioJob *) jobs->pdata[j])->result->notes;

  return notes != NULL ? notes->len : 0;
}

static void
write_log (const char *name,
           const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  ck_assert (g_file_set_contents (path, text, -1, NULL));
}

/* ---- the raw log's last second ------------------------------------------ */

/* What raw_lat.1.log holds, counted here: I/Os by second and direction. */
static void
count_raw_log (double ios[3][2])
{
  g_autofree char *path = fixture ("fio-logs", "raw_lat.1.log");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  memset (ios, 0, sizeof (double) * 6);
  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long t_ms, ddir, bs;
      double ns;

      if (*lines[i] == '\0')
        continue;
      ck_assert_int_eq (sscanf (lines[i], "%lu, %lf, %lu, %lu", &t_ms, &ns, &ddir, &bs), 4);
      ck_assert (t_ms < 3000 && ddir < 2 && bs == 4096);
      ios[t_ms / 1000][ddir] += 1;
    }
}

/* raw.json with its log attached, the run's time set to @runtime_s first
 * (NAN: as fio counted it, 2.001 s). */
static GPtrArray *
raw_attached (double runtime_s)
{
  g_autofree char *prefix = fixture ("fio-logs", "raw");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  GPtrArray *jobs = import ("fio-logs", "raw.json");

  ck_assert_uint_eq (jobs->len, 1);
  if (!isnan (runtime_s))
    data_of (jobs, 0)->runtime_s = runtime_s;
  data_of (jobs, 0)->series_dropped_ios = 5;
  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 1);
  ck_assert_uint_eq (warnings->len, 0);
  return jobs;
}

/* Per-I/O logs count whole seconds; raw.json says the run took 2.001 s,
 * so the I/Os logged in its third second completed in 1 ms: folded into
 * the second before, whose rates are then over 1.001 s.  The series
 * replaces the result's own, and nothing of it is dropped. */
START_TEST (test_raw_sliver_folded)
{
  g_autoptr (GPtrArray) jobs = raw_attached (NAN);
  DsWorkloadData *d = data_of (jobs, 0);
  g_autofree char *prefix = fixture ("fio-logs", "raw");
  g_autofree char *want = NULL;
  double ios[3][2];

  count_raw_log (ios);
  ck_assert_double_eq (d->runtime_s, 2.001);
  ck_assert_uint_eq (d->series->len, 2);
  ck_assert_double_eq (d->interval_s, 1);
  ck_assert_uint_eq (d->series_dropped_ios, 0);
  ck_assert_uint_eq (d->series_merged, 0);

  ck_assert_double_eq (point (jobs, 0, 0)->t_s, 1);
  ck_assert_double_eq (point (jobs, 0, 0)->read.iops, ios[0][0]);
  ck_assert_double_eq (point (jobs, 0, 0)->write.bytes_per_s, ios[0][1] * 4096);
  ck_assert_double_eq (point (jobs, 0, 1)->t_s, 2.001);
  ck_assert_double_eq_tol (point (jobs, 0, 1)->read.iops, (ios[1][0] + ios[2][0]) / 1.001, 1e-9);
  ck_assert_double_eq_tol (point (jobs, 0, 1)->read.bytes_per_s, (ios[1][0] + ios[2][0]) * 4096 / 1.001, 1e-6);
  ck_assert_double_eq_tol (point (jobs, 0, 1)->write.iops, (ios[1][1] + ios[2][1]) / 1.001, 1e-9);
  /* The sliver's few I/Os leave the second's percentiles as they were. */
  ck_assert_double_eq (point (jobs, 0, 1)->read.p99_s, 7645152e-9);

  want = g_strdup_printf ("time series from fio's logs %s_{bw,iops,lat}.1.log: 2 intervals of 1 s", prefix);
  ck_assert_ptr_nonnull (note (jobs, 0, want));
  /* Per-I/O logs: percentiles, every byte of the JSON, nothing merged. */
  ck_assert_ptr_null (note (jobs, 0, "the series has no p50/p99"));
  ck_assert_ptr_null (note (jobs, 0, "the logged intervals hold"));
  ck_assert_ptr_null (note (jobs, 0, "fio's logs hold more than"));
  ck_assert_ptr_null (note (jobs, 0, "the times in fio's logs go back"));
}
END_TEST

/* A last fraction of half a second or more is a point of its own, its
 * rates over that fraction and stamped at the run's end; a run that
 * lasted to the end of the last logged second (or says no time) leaves
 * the points as logged. */
START_TEST (test_raw_last_fraction_scaled_or_kept)
{
  double ios[3][2];

  count_raw_log (ios);
  {
    g_autoptr (GPtrArray) jobs = raw_attached (2.8);

    ck_assert_uint_eq (data_of (jobs, 0)->series->len, 3);
    ck_assert_double_eq (point (jobs, 0, 1)->t_s, 2);
    ck_assert_double_eq (point (jobs, 0, 1)->read.iops, ios[1][0]);
    ck_assert_double_eq (point (jobs, 0, 2)->t_s, 2.8);
    ck_assert_double_eq_tol (point (jobs, 0, 2)->read.iops, ios[2][0] / 0.8, 1e-9);
    ck_assert_double_eq_tol (point (jobs, 0, 2)->read.bytes_per_s, ios[2][0] * 4096 / 0.8, 1e-6);
  }
  {
    g_autoptr (GPtrArray) jobs = raw_attached (3.5);

    ck_assert_uint_eq (data_of (jobs, 0)->series->len, 3);
    ck_assert_double_eq (point (jobs, 0, 2)->t_s, 3);
    ck_assert_double_eq (point (jobs, 0, 2)->read.iops, ios[2][0]);
  }
  {
    g_autoptr (GPtrArray) jobs = raw_attached (0);

    ck_assert_uint_eq (data_of (jobs, 0)->series->len, 3);
    ck_assert_double_eq (point (jobs, 0, 2)->t_s, 3);
  }
}
END_TEST

/* ---- averaged logs ------------------------------------------------------ */

/* Sums column 2 of the avg fixture's @kind logs (both jobs, reads and
 * writes). */
static double
sum_avg_logs (const char *kind)
{
  double sum = 0;

  for (guint n = 1; n <= 2; n++)
    {
      g_autofree char *name = g_strdup_printf ("avg_%s.%u.log", kind, n);
      g_autofree char *path = fixture ("fio-logs", name);
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;

      ck_assert (g_file_get_contents (path, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          unsigned long t_ms, ddir;
          double value;

          if (*lines[i] != '\0' &&
              sscanf (lines[i], "%lu, %lf, %lu", &t_ms, &value, &ddir) == 3 && ddir < 2)
            sum += value;
        }
    }
  return sum;
}

/* The io_bytes of avg.json's job, read here from the file. */
static double
avg_json_bytes (void)
{
  g_autofree char *path = fixture ("fio-logs", "avg.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *job;

  ck_assert (json_parser_load_from_file (parser, path, NULL));
  job = json_array_get_object_element (json_object_get_array_member (
          json_node_get_object (json_parser_get_root (parser)), "jobs"), 0);
  return (double) json_object_get_int_member (json_object_get_object_member (job, "read"), "io_bytes") +
         (double) json_object_get_int_member (json_object_get_object_member (job, "write"), "io_bytes");
}

/* The avg fixture: one result (group_reporting) for two jobs' averaged
 * logs: their sum, said as such, without percentiles (said), and the share
 * of fio's bytes the logged windows hold (fio logs no partial window):
 * what this test sums from the logs over what the JSON counted. */
START_TEST (test_averaged_notes)
{
  g_autofree char *prefix = fixture ("fio-logs", "avg");
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *want = NULL;
  g_autofree char *share = NULL;
  double logged = sum_avg_logs ("bw") * 1024 * 1.0;
  double iops = 0;

  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 1);
  ck_assert_uint_eq (warnings->len, 0);

  want = g_strdup_printf ("time series from fio's logs %s_{bw,iops,lat}.*.log, the sum of 2 jobs' "
                          "logs: 2 intervals of 1 s", prefix);
  ck_assert_msg (note (jobs, 0, want) != NULL, "no note %s", want);
  ck_assert_ptr_nonnull (note (jobs, 0, "the series has no p50/p99 latency: fio's averaged logs "
                                        "(log_avg_msec) hold means only"));
  share = g_strdup_printf ("the logged intervals hold %.0f %% of the bytes fio's JSON counted",
                           100.0 * logged / avg_json_bytes ());
  ck_assert_msg (note (jobs, 0, share) != NULL, "no note %s", share);
  ck_assert_str_ne (share, "the logged intervals hold 100 % of the bytes fio's JSON counted");

  for (guint i = 0; i < data_of (jobs, 0)->series->len; i++)
    iops += point (jobs, 0, i)->read.iops + point (jobs, 0, i)->write.iops;
  ck_assert_double_eq (iops, sum_avg_logs ("iops"));
  ck_assert_double_eq (point (jobs, 0, 0)->read.p50_s, 0);
}
END_TEST

/* per_job_logs=0: one set of logs, PREFIX_bw.log, the jobs' entries one
 * after the other: a single result gets it, each entry counted in its
 * window, and the times going back said. */
START_TEST (test_per_job_logs_off)
{
  g_autofree char *prefix = g_build_filename (dir, "one", NULL);
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  write_log ("one_bw.log", "1000, 100, 0, 0, 0\n2000, 200, 0, 0, 0\n"
                           "1000, 50, 0, 0, 0\n2000, 60, 0, 0, 0\n");
  write_log ("one_iops.log", "1000, 25, 0, 0, 0\n2000, 50, 0, 0, 0\n"
                             "1000, 12, 0, 0, 0\n2000, 15, 0, 0, 0\n");
  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 1);
  ck_assert_uint_eq (data_of (jobs, 0)->series->len, 2);
  ck_assert_double_eq (point (jobs, 0, 0)->read.bytes_per_s, 150 * 1024.0);
  ck_assert_double_eq (point (jobs, 0, 1)->read.bytes_per_s, 260 * 1024.0);
  ck_assert_double_eq (point (jobs, 0, 1)->read.iops, 65);
  ck_assert_ptr_nonnull (note (jobs, 0, "the times in fio's logs go back 2 times"));
}
END_TEST

/* ---- which job gets which logs ------------------------------------------ */

/* PREFIX_bw.N.log@suffix for N = 1..@n, N × 100 KiB/s in 1 s windows. */
static void
write_numbered_logs (const char *stem,
                     guint       n,
                     const char *suffix)
{
  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_bw.%u.log%s", stem, i, suffix);
      g_autofree char *text = g_strdup_printf ("1000, %u, 0, 0, 0\n2000, %u, 0, 0, 0\n", i * 100, i * 100);

      write_log (name, text);
    }
}

/* A `fio --client` run of two jobs on each of two servers (the client
 * fixture) made one server's four jobs: its N-th job in the JSON's order
 * gets logs N; fio's "All clients" sum gets none, and says why. */
START_TEST (test_client_jobs_in_order)
{
  g_autofree char *prefix = g_build_filename (dir, "c", NULL);
  g_autoptr (GPtrArray) jobs = import ("fio", "fio-3.33-client.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  guint n = 0, aggregate = 0;

  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];

      if (job->aggregate)
        {
          aggregate = i;
          continue;
        }
      ck_assert_str_eq (job->hostname, "127.0.0.1");
      job->port = 8765;
      n++;
    }
  ck_assert_uint_eq (n, 4);
  write_numbered_logs ("c", 4, ".127.0.0.1");

  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 4);
  ck_assert_uint_eq (warnings->len, 0);
  for (guint i = 0, nth = 1; i < jobs->len; i++)
    {
      g_autofree char *which = NULL;

      if (i == aggregate)
        continue;
      ck_assert_double_eq (point (jobs, i, 0)->read.bytes_per_s, nth * 100 * 1024.0);
      which = g_strdup_printf ("time series from fio's logs %s_{bw,iops,lat}.%u.log.127.0.0.1:", prefix, nth);
      ck_assert_msg (note (jobs, i, which) != NULL, "no note %s", which);
      nth++;
    }
  ck_assert_ptr_null (data_of (jobs, aggregate)->series);
  ck_assert_ptr_nonnull (note (jobs, aggregate, "no time series: fio logs each host's jobs, "
                                                "not the sum of all clients"));
}
END_TEST

/* Two local jobs without logs of their own beside a server's job with
 * its logs: the server's gets a series, each local one a warning naming
 * the log it lacks. */
START_TEST (test_local_jobs_without_logs)
{
  g_autofree char *prefix = g_build_filename (dir, "m", NULL);
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) second = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) more = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *want1 = g_strdup_printf ("no time series for “lg (fio)”: there are no logs %s_bw.1.log", prefix);
  g_autofree char *want2 = g_strdup_printf ("no time series for “lg (fio)”: there are no logs %s_bw.2.log", prefix);
  DsFioJob *remote = g_ptr_array_steal_index (more, 0);

  g_ptr_array_add (jobs, g_ptr_array_steal_index (second, 0));
  remote->hostname = g_strdup ("h1");
  remote->port = 8765;
  g_ptr_array_add (jobs, remote);
  write_numbered_logs ("m", 1, ".h1");

  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 1);
  ck_assert_uint_eq (warnings->len, 2);
  ck_assert_str_eq (warnings->pdata[0], want1);
  ck_assert_str_eq (warnings->pdata[1], want2);
  ck_assert_ptr_null (data_of (jobs, 0)->series);
  ck_assert_double_eq (point (jobs, 2, 0)->read.bytes_per_s, 100 * 1024.0);
}
END_TEST

/* A server's jobs with no logs of theirs, where there are other logs: no
 * series and no error, each job said to lack its own.  With no logs at
 * PREFIX at all: one error, none of the jobs' warnings, and the warnings
 * the caller had kept. */
START_TEST (test_no_logs_for_the_host)
{
  g_autofree char *prefix = g_build_filename (dir, "h", NULL);
  g_autofree char *nowhere = g_build_filename (dir, "nothing", NULL);
  g_autofree char *want1 = g_strdup_printf ("no time series for “lg (fio)”: there are no logs %s_bw.1.log.h2", prefix);
  g_autofree char *want2 = g_strdup_printf ("no time series for “lg (fio)”: there are no logs %s_bw.2.log.h2", prefix);
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) second = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;

  g_ptr_array_add (jobs, g_ptr_array_steal_index (second, 0));
  for (guint i = 0; i < 2; i++)
    {
      DsFioJob *job = jobs->pdata[i];

      job->hostname = g_strdup ("h2");
      job->port = 8765;
    }
  write_numbered_logs ("h", 1, "");

  g_ptr_array_add (warnings, g_strdup ("said before"));
  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 0);
  ck_assert_ptr_null (error);
  ck_assert_uint_eq (warnings->len, 3);
  ck_assert_str_eq (warnings->pdata[1], want1);
  ck_assert_str_eq (warnings->pdata[2], want2);
  ck_assert_ptr_null (data_of (jobs, 0)->series);

  ck_assert_int_eq (ds_fio_logs_attach (jobs, nowhere, warnings, &error), -1);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  message = g_strdup_printf ("no fio logs at %s (%s_bw.1.log.HOST; fio --write_bw_log=PREFIX "
                             "--write_iops_log=PREFIX --write_lat_log=PREFIX)", nowhere, nowhere);
  ck_assert_str_eq (error->message, message);
  ck_assert_uint_eq (warnings->len, 3);
  ck_assert_str_eq (warnings->pdata[0], "said before");
}
END_TEST

/* Logs that are there but empty: no series, said. */
START_TEST (test_empty_logs)
{
  g_autofree char *prefix = g_build_filename (dir, "e", NULL);
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  write_log ("e_bw.1.log", "");
  write_log ("e_iops.1.log", "\n");
  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 0);
  ck_assert_ptr_null (error);
  ck_assert_uint_eq (warnings->len, 1);
  ck_assert_str_eq (warnings->pdata[0], "no time series for “lg (fio)”: its logs are empty");
  ck_assert_ptr_null (data_of (jobs, 0)->series);
}
END_TEST

/* One log of the second job is not fio's: an error naming it and its
 * line, and no result changed (not even the first job's, whose logs are
 * good). */
START_TEST (test_bad_log_changes_nothing)
{
  g_autofree char *prefix = g_build_filename (dir, "b", NULL);
  g_autoptr (GPtrArray) jobs = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) second = import ("fio-logs", "avg.json");
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = g_build_filename (dir, "b_bw.2.log.h1", NULL);
  g_autofree char *where = g_strdup_printf ("%s:2: ", bad);
  guint notes[2];

  g_ptr_array_add (jobs, g_ptr_array_steal_index (second, 0));
  for (guint i = 0; i < 2; i++)
    {
      DsFioJob *job = jobs->pdata[i];

      job->hostname = g_strdup ("h1");
      job->port = 8765;
      notes[i] = n_notes (jobs, i);
    }
  write_numbered_logs ("b", 2, ".h1");
  write_log ("b_bw.2.log.h1", "1000, 200, 0, 0, 0\n2000, two hundred, 0, 0, 0\n");

  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), -1);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (g_str_has_prefix (error->message, where), "%s", error->message);
  for (guint i = 0; i < 2; i++)
    {
      ck_assert_ptr_null (data_of (jobs, i)->series);
      ck_assert_uint_eq (n_notes (jobs, i), notes[i]);
    }
  ck_assert_uint_eq (warnings->len, 0);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-series");
  TCase *tc = tcase_create ("attach");

  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_raw_sliver_folded);
  tcase_add_test (tc, test_raw_last_fraction_scaled_or_kept);
  tcase_add_test (tc, test_averaged_notes);
  tcase_add_test (tc, test_per_job_logs_off);
  tcase_add_test (tc, test_client_jobs_in_order);
  tcase_add_test (tc, test_local_jobs_without_logs);
  tcase_add_test (tc, test_no_logs_for_the_host);
  tcase_add_test (tc, test_empty_logs);
  tcase_add_test (tc, test_bad_log_changes_nothing);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
