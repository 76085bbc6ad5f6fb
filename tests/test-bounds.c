/* test-bounds.c: what Diskscope writes is held to what its loader reads
 * back (ds-limits.h), and fio's logs are held to their bounds (no root, no
 * device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 21, class 7: import-fio --logs with 150 000 intervals, a mark
 * --comment over 64 KiB and a long workload at --interval 100ms saved
 * results that did not load again.  Class 11: a crafted fio log gave "1
 * intervals of 1.1259e+12 s".  Each writer is saved at its bound here and
 * loaded again.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-bench-workload.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-interval.h"
#include "ds-io-series.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-preset.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define FIO_LOGS DS_TEST_FIXTURES_DIR "/fio-logs"

/* ---- merging a series ---------------------------------------------------- */

static DsIntervalPoint
point (double t_s,
       double bytes_per_s,
       double iops,
       double p50_s,
       double p99_s)
{
  return (DsIntervalPoint) {
    .t_s = t_s,
    .read = { bytes_per_s, iops, p50_s, p99_s },
  };
}

/* Merged two by two: bytes and I/Os over the merged time, p99 the highest,
 * p50 weighted by I/Os; the write side (no I/O) stays empty. */
START_TEST (test_merge_truthful)
{
  g_autoptr (GArray) s = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  DsIntervalPoint in[] = {
    point (1, 100e6, 10, 1e-3, 5e-3),
    point (2, 200e6, 20, 2e-3, 1e-3),
    point (3, 300e6, 30, 3e-3, 9e-3),
    /* A longer last interval (the engine folds a sliver into it). */
    point (4.5, 400e6, 40, 4e-3, 2e-3),
  };
  const DsIntervalPoint *p;

  g_array_append_vals (s, in, G_N_ELEMENTS (in));
  ck_assert_uint_eq (ds_series_decimate (s, 4), 1);
  ck_assert_uint_eq (s->len, 4);
  ck_assert_uint_eq (ds_series_decimate (s, 2), 2);
  ck_assert_uint_eq (s->len, 2);

  p = &g_array_index (s, DsIntervalPoint, 0);
  ck_assert_double_eq (p->t_s, 2);
  ck_assert_double_eq_tol (p->read.bytes_per_s, 150e6, 1e-3);
  ck_assert_double_eq_tol (p->read.iops, 15, 1e-9);
  ck_assert_double_eq_tol (p->read.p50_s, (1e-3 * 10 + 2e-3 * 20) / 30, 1e-12);
  ck_assert_double_eq (p->read.p99_s, 5e-3);
  ck_assert_double_eq (p->write.iops, 0);
  ck_assert_double_eq (p->write.p50_s, 0);

  p = &g_array_index (s, DsIntervalPoint, 1);
  ck_assert_double_eq (p->t_s, 4.5);
  ck_assert_double_eq_tol (p->read.bytes_per_s, (300e6 + 400e6 * 1.5) / 2.5, 1e-3);
  ck_assert_double_eq_tol (p->read.iops, (30 + 40 * 1.5) / 2.5, 1e-9);
  ck_assert_double_eq_tol (p->read.p50_s, (3e-3 * 30 + 4e-3 * 60) / 90, 1e-12);
  ck_assert_double_eq (p->read.p99_s, 9e-3);
}
END_TEST

/* Online (two by two as the points come, as the engine does) is batch:
 * the groups are the same, and so are their figures; I/Os are kept. */
START_TEST (test_merge_online_is_batch)
{
  g_autoptr (GArray) all = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  g_autoptr (GArray) online = NULL;
  DsSeriesMerge merge;
  double ios = 0, merged_ios = 0, start = 0;
  guint factor = 0;

  for (guint i = 0; i < 1001; i++)
    {
      DsIntervalPoint p = point (i + 1, 1e6 * (i % 7), i % 5, 1e-4 * (1 + i % 3), 1e-3 * (1 + i % 11));

      g_array_append_val (all, p);
      ios += p.read.iops;
    }
  ds_series_merge_init (&merge, 100);
  for (guint i = 0; i < all->len; i++)
    {
      ds_series_merge_add (&merge, &g_array_index (all, DsIntervalPoint, i), start);
      start = g_array_index (all, DsIntervalPoint, i).t_s;
    }
  online = ds_series_merge_finish (&merge, &factor);
  ck_assert_uint_eq (factor, 16);
  ck_assert_uint_le (online->len, 100);
  ck_assert_uint_eq (online->len, (1001 + 15) / 16);

  ck_assert_uint_eq (ds_series_decimate (all, 100), 16);
  ck_assert_uint_eq (all->len, online->len);
  start = 0;
  for (guint i = 0; i < all->len; i++)
    {
      const DsIntervalPoint *a = &g_array_index (all, DsIntervalPoint, i);
      const DsIntervalPoint *b = &g_array_index (online, DsIntervalPoint, i);

      ck_assert_double_eq (a->t_s, b->t_s);
      ck_assert_double_eq_tol (a->read.iops, b->read.iops, 1e-9);
      ck_assert_double_eq_tol (a->read.p50_s, b->read.p50_s, 1e-15);
      ck_assert_double_eq (a->read.p99_s, b->read.p99_s);
      merged_ios += a->read.iops * (a->t_s - start);
      start = a->t_s;
    }
  ck_assert_double_eq_tol (merged_ios, ios, 1e-6);
}
END_TEST

/* The engine's series (io/ds-io-series.c) at a bound of 64 points: 5000
 * intervals of 100 ms collected as a run goes become at most 64, every I/O
 * still in them, the last ending with the last completion. */
START_TEST (test_engine_series_capped)
{
  const uint64_t t0 = UINT64_C (1000) * DS_NS_PER_SEC;
  const uint64_t iv = 100 * DS_NS_PER_MSEC;
  DsIoSeries *series = ds_io_series_new (1, t0, iv);
  DsIoRing *ring = ds_io_series_ring (series, 0);
  g_autoptr (GArray) points = NULL;
  guint merged = 0;
  double ios = 0, start = 0;
  uint64_t last = 0;

  ds_io_series_set_max_points (series, 64);
  for (guint k = 0; k < 5000; k++)
    {
      for (guint i = 0; i < 3; i++)
        {
          last = t0 + k * iv + (i + 1) * 10 * DS_NS_PER_MSEC;
          ds_io_ring_add (ring, k % 2, last, 50 * DS_NS_PER_USEC * (1 + k % 4), 4096);
        }
      ds_io_series_collect (series, NULL, NULL);
    }
  ds_io_ring_finish (ring);
  ds_io_series_finish (series, last, NULL, NULL);
  points = ds_io_series_steal_points (series, &merged);
  ds_io_series_free (series);

  ck_assert_uint_le (points->len, 64);
  ck_assert_uint_ge (points->len, 32);
  ck_assert_uint_eq (merged, 128);
  for (guint i = 0; i < points->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (points, DsIntervalPoint, i);

      ck_assert_double_gt (p->t_s, start);
      ios += (p->read.iops + p->write.iops) * (p->t_s - start);
      start = p->t_s;
    }
  ck_assert_double_eq_tol (ios, 15000, 1e-6);
  ck_assert_double_eq_tol (start, (double) (last - t0) / DS_NS_PER_SEC, 1e-9);
}
END_TEST

/* ---- writers at their bounds --------------------------------------------- */

/* A full latency histogram: every one of the DS_HIST_BUCKETS buckets. */
static void
fill_histogram (DsWorkloadDir *dir)
{
  g_clear_pointer (&dir->histogram, g_array_unref);
  dir->histogram = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));
  for (guint i = 0; i < DS_HIST_BUCKETS; i++)
    {
      DsLatencyBucket b = { (i + 1) * 1e-6, 1 };

      g_array_append_val (dir->histogram, b);
    }
  dir->present = TRUE;
  dir->ios = DS_HIST_BUCKETS;
  dir->io_bytes = DS_HIST_BUCKETS * 4096;
  dir->lat_min_s = 1e-6;
  dir->lat_mean_s = 1e-3;
  dir->lat_max_s = DS_HIST_BUCKETS * 1e-6;
}

static GArray *
long_series (guint n)
{
  GArray *s = g_array_sized_new (FALSE, TRUE, sizeof (DsIntervalPoint), n);

  for (guint i = 0; i < n; i++)
    {
      DsIntervalPoint p = {
        .t_s = (i + 1) * 0.1,
        .read = { 1234567.891 + i, 301.5 + i, 1.234567e-4, 9.87654e-3 },
        .write = { 7654321.123 + i, 1868.25 + i, 2.345678e-4, 8.76543e-3 },
      };

      g_array_append_val (s, p);
    }
  return s;
}

static DsResult *
save_and_load (const DsResult *r)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  DsResult *back;

  text = ds_result_to_data (r, &length);
  ds_test_note ("saved %" G_GSIZE_FORMAT " bytes", length);
  ck_assert_msg (ds_json_check_bounds (text, length, &error), "%s", error ? error->message : "");
  back = ds_result_load_data (text, (gssize) length, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  return back;
}

/* A workload with a series at DS_LIMIT_SERIES_POINTS and two full
 * histograms saves and loads; one point more is merged below the bound
 * first (what the engine does at the end of a run). */
START_TEST (test_workload_at_bound)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autoptr (DsResult) back = NULL;
  DsWorkloadData *data = r->data;
  DsWorkloadData *got;

  fill_histogram (&data->read);
  fill_histogram (&data->write);
  g_clear_pointer (&data->series, g_array_unref);
  data->series = long_series (DS_LIMIT_SERIES_POINTS);
  data->interval_s = 0.1;
  back = save_and_load (r);
  got = back->data;
  ck_assert_uint_eq (got->series->len, DS_LIMIT_SERIES_POINTS);
  g_clear_pointer (&back, ds_result_free);

  g_array_unref (data->series);
  data->series = long_series (DS_LIMIT_SERIES_POINTS + 1);
  data->series_merged = ds_series_decimate (data->series, DS_LIMIT_SERIES_POINTS);
  data->interval_s *= data->series_merged;
  back = save_and_load (r);
  got = back->data;
  ck_assert_uint_le (got->series->len, DS_LIMIT_SERIES_POINTS);
  ck_assert_uint_eq (got->series_merged, 2);
  ck_assert_double_eq_tol (got->interval_s, 0.2, 1e-12);
}
END_TEST

/* Notes: at most DS_JSON_MAX_NOTES, each under DS_JSON_MAX_STRING_BYTES as
 * JSON (a note quoting anyone's text, control characters and all), the
 * same note once. */
START_TEST (test_notes_at_bound)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autoptr (DsResult) back = NULL;
  g_autofree char *controls = g_strnfill (100000, '\x01');

  for (guint i = 0; i < 3000; i++)
    ds_result_add_note (r, "note %u", i % 2000);
  ds_result_add_note (r, "%s", controls);
  ck_assert_uint_le (r->notes->len, DS_JSON_MAX_NOTES);
  back = save_and_load (r);
  ck_assert_uint_eq (back->notes->len, r->notes->len);
  ck_assert_str_eq (back->notes->pdata[1], "note 1");
  ck_assert_str_eq (back->notes->pdata[back->notes->len - 1], "(more notes were left out)");

  g_ptr_array_set_size (r->notes, 0);
  ds_result_add_note (r, "%s", controls);
  g_clear_pointer (&back, ds_result_free);
  back = save_and_load (r);
  ck_assert_uint_eq (back->notes->len, 1);
  ck_assert (g_str_has_suffix (back->notes->pdata[0], "…"));
}
END_TEST

/* `mark --comment`: over DS_LIMIT_COMMENT_CHARS or with a control
 * character, refused before anything runs (exit 2, the limit named); at
 * the limit, accepted. */
START_TEST (test_comment_bound)
{
  g_autofree char *over = g_strnfill (70000, 'a');
  g_autofree char *at = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ds-bounds-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  DsBenchSpec spec;
  int rc;

  rc = ds_test_cli (&out, &err, "mark", dir, "--comment", over, "--no-progress", NULL);
  ck_assert_int_eq (rc, 2);
  ck_assert_msg (strstr (err, "at most 4096") != NULL, "%s", err);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "mark", dir, "--comment", "one\nline\033[2J", "--no-progress", NULL);
  ck_assert_int_eq (rc, 2);
  ck_assert_msg (strstr (err, "control character") != NULL, "%s", err);

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_preset_apply_defaults (&spec, ds_preset_lookup ("cdm-default"));
  spec.target_path = g_strdup (dir);
  {
    GString *s = g_string_new (NULL);

    for (guint i = 0; i < DS_LIMIT_COMMENT_CHARS; i++)
      g_string_append (s, i % 2 ? "é" : "\"");
    at = g_string_free (s, FALSE);
  }
  ds_mark_options (&spec)->comment = g_strdup (at);
  ck_assert_msg (ds_bench_spec_validate (&spec, &error), "%s", error ? error->message : "");
  g_free (ds_mark_options (&spec)->comment);
  ds_mark_options (&spec)->comment = g_strconcat (at, "x", NULL);
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ds_bench_spec_clear (&spec);
  g_rmdir (dir);
}
END_TEST

/* ---- fio's logs ---------------------------------------------------------- */

static char *scratch;

static void
setup (void)
{
  scratch = g_dir_make_tmp ("ds-bounds-XXXXXX", NULL);
}

static void
teardown (void)
{
  g_autoptr (GDir) d = g_dir_open (scratch, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (scratch, name, NULL);
      g_unlink (path);
    }
  g_rmdir (scratch);
  g_clear_pointer (&scratch, g_free);
}

static char *
write_log (const char *name,
           const char *text)
{
  char *path = g_build_filename (scratch, name, NULL);

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* 150 000 averaged intervals (an afternoon of log_avg_msec=100, two days
 * at 1 s): imported as at most DS_LIMIT_SERIES_POINTS, each merging two,
 * every I/O kept, and the result loads again (it did not: "results.series
 * has more than 100000 entries"). */
START_TEST (test_fio_long_logs)
{
  g_autofree char *json = g_build_filename (FIO_LOGS, "raw.json", NULL);
  g_autofree char *prefix = g_build_filename (scratch, "long", NULL);
  g_autoptr (GPtrArray) jobs = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) back = NULL;
  GString *bw = g_string_new (NULL);
  GString *iops = g_string_new (NULL);
  DsWorkloadData *data;
  gboolean noted = FALSE;
  double ios = 0, start = 0;
  const guint n = 150000;

  for (guint i = 1; i <= n; i++)
    {
      g_string_append_printf (bw, "%u, 2710, 0, 0, 0\n", i * 1000);
      g_string_append_printf (iops, "%u, %u, 0, 0, 0\n", i * 1000, 600 + i % 100);
    }
  g_free (write_log ("long_bw.1.log", bw->str));
  g_free (write_log ("long_iops.1.log", iops->str));
  g_string_free (bw, TRUE);
  g_string_free (iops, TRUE);

  jobs = ds_fio_import_file (json, NULL, &error);
  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (ds_fio_logs_attach (jobs, prefix, warnings, &error), 1);
  data = ((DsFioJob *) jobs->pdata[0])->result->data;
  ck_assert_uint_eq (data->series->len, n / 2);
  ck_assert_uint_eq (data->series_merged, 2);
  ck_assert_double_eq (data->interval_s, 2);
  for (guint i = 0; i < data->series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (data->series, DsIntervalPoint, i);

      ios += p->read.iops * (p->t_s - start);
      start = p->t_s;
    }
  /* 600 .. 699 a second, 1500 times. */
  ck_assert_double_eq_tol (ios, 1500.0 * (600 + 699) * 50, 1e-3);
  for (guint i = 0; i < ((DsFioJob *) jobs->pdata[0])->result->notes->len; i++)
    noted |= strstr (((DsFioJob *) jobs->pdata[0])->result->notes->pdata[i],
                     "merges 2 of fio's intervals of 1 s") != NULL;
  ck_assert (noted);

  back = save_and_load (((DsFioJob *) jobs->pdata[0])->result);
  ck_assert_uint_eq (((DsWorkloadData *) back->data)->series->len, n / 2);
}
END_TEST

/* @text as @log is refused saying @why and naming the log (or, for what
 * the logs sum to, their prefix). */
static void
assert_log_refused (const char *log,
                    const char *text,
                    const char *why)
{
  g_autofree char *prefix = g_build_filename (scratch, "bad", NULL);
  g_autofree char *path = g_build_filename (scratch, log, NULL);
  g_autoptr (GError) error = NULL;
  DsFioLogInfo info;
  GArray *series;

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  series = ds_fio_logs_read (prefix, NULL, 1, &info, &error);
  ck_assert_msg (series == NULL, "%s was accepted", text);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) &&
                 (strstr (error->message, path) != NULL || strstr (error->message, prefix) != NULL) &&
                 strstr (error->message, why) != NULL, "%s", error->message);
  g_unlink (path);
}

/* Crafted times (issue 21, class 11): one 2^50 ms after the start gave "1
 * intervals of 1.1259e+12 s"; a negative one, one past a week, a window
 * over an hour: refused naming the file and line.  Times that go back are
 * fio's own with per_job_logs=0: accepted, counted where they fall, and
 * said. */
START_TEST (test_fio_log_times)
{
  g_autofree char *prefix = g_build_filename (scratch, "bad", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) series = NULL;
  DsFioLogInfo info = { 0 };

  assert_log_refused ("bad_bw.1.log", "1000, 5, 0, 0, 0\n1125899906842624, 5, 0, 0, 0\n",
                      ":2: a time past a week");
  assert_log_refused ("bad_bw.1.log", "-1000, 5, 0, 0, 0\n", ":1: a negative time");
  assert_log_refused ("bad_lat.1.log", "604800001, 5, 0, 4096, 0\n", ":1: a time past a week");
  assert_log_refused ("bad_bw.1.log", "4000000, 5, 0, 0, 0\n8000000, 5, 0, 0, 0\n",
                      "4000000 ms apart");
  /* Found by fuzz-fio-log: figures a result file cannot hold (the loader
   * reads at most DS_JSON_MAX_BYTES_PER_S, _IOPS, _LATENCY_S) were saved
   * as a result that did not load again. */
  assert_log_refused ("bad_bw.1.log", "1000, 580000000000000, 0, 0, 0\n", "bytes/s");
  assert_log_refused ("bad_lat.1.log", "1000, 2000000000000000, 0, 4096, 0\n", "a latency of");

  g_free (write_log ("bad_lat.1.log", "2500, 1000, 0, 4096, 0\n500, 2000, 0, 4096, 0\n"
                                      "1500, 3000, 1, 4096, 0\n"));
  series = ds_fio_logs_read (prefix, NULL, 1, &info, &error);
  ck_assert_msg (series != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (series->len, 3);
  ck_assert_uint_eq (info.backwards, 1);
  ck_assert_double_eq (g_array_index (series, DsFioLogPoint, 0).t_s, 1);
  ck_assert_double_eq (g_array_index (series, DsFioLogPoint, 2).t_s, 3);
}
END_TEST

static Suite *
bounds_suite (void)
{
  Suite *suite = suite_create ("bounds");
  TCase *tc = tcase_create ("bounds");

  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_merge_truthful);
  tcase_add_test (tc, test_merge_online_is_batch);
  tcase_add_test (tc, test_engine_series_capped);
  tcase_add_test (tc, test_workload_at_bound);
  tcase_add_test (tc, test_notes_at_bound);
  tcase_add_test (tc, test_comment_bound);
  tcase_add_test (tc, test_fio_long_logs);
  tcase_add_test (tc, test_fio_log_times);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (bounds_suite ());
}
