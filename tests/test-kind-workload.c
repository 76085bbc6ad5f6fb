/* test-kind-workload.c: the workload kind's hooks without a run
 * (core/kinds/workload/ds-workload-compare.c, ds-workload-fio.c,
 * ds-workload-json.c)
 *
 * Unit suite: no root, no device.  What they promise: a direction's
 * percentile by its value in fio's list, NAN when not in it or not
 * measured; a comparison's seven rows per direction counted ("read.iops",
 * "Workload, write"), the rates NAN when the run timed nothing; the fio
 * job of a run line by line (engine, depth, mix, alignment, region, time,
 * what the header warns of); and the "results" JSON written member by
 * member and read back strictly, every bad member refused with the
 * message that names it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio-job.h"
#include "ds-histogram.h"
#include "ds-result-json.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* Latencies for fio's list, one per percentile, as they are written. */
static const double latencies[DS_WORKLOAD_N_PERCENTILES] = {
  1e-4, 1.1e-4, 1.2e-4, 1.3e-4, 1.4e-4, 1.5e-4, 1.6e-4, 1.7e-4, 1.8e-4, 1.9e-4, 2e-4, 2.1e-4,
  2.2e-4, 2.3e-4, 2.4e-4, 2.5e-4, 2.6e-4,
};

/* ---- percentiles and comparison rows ------------------------------------ */

START_TEST (test_dir_percentile)
{
  DsWorkloadDir dir = { .present = TRUE };

  memcpy (dir.lat_percentile_s, latencies, sizeof latencies);
  /* fio's list: 1 5 10 20 30 40 50 60 70 80 90 95 99 99.5 99.9 99.95 99.99 */
  ck_assert_double_eq (ds_workload_dir_percentile (&dir, 1), 1e-4);
  ck_assert_double_eq (ds_workload_dir_percentile (&dir, 50), 1.6e-4);
  ck_assert_double_eq (ds_workload_dir_percentile (&dir, 99), 2.2e-4);
  ck_assert_double_eq (ds_workload_dir_percentile (&dir, 99.9), 2.4e-4);
  ck_assert_double_eq (ds_workload_dir_percentile (&dir, 99.99), 2.6e-4);
  /* Not one of the list. */
  ck_assert (isnan (ds_workload_dir_percentile (&dir, 0)));
  ck_assert (isnan (ds_workload_dir_percentile (&dir, 98)));
  ck_assert (isnan (ds_workload_dir_percentile (&dir, 100)));
  ck_assert (isnan (ds_workload_dir_percentile (&dir, NAN)));
  /* Zero is "not measured". */
  dir.lat_percentile_s[6] = 0;
  ck_assert (isnan (ds_workload_dir_percentile (&dir, 50)));
}
END_TEST

/* The rows of @result through the kinds' table, as the comparison calls
 * it, a line each. */
static char *
rows_of (const DsResult *result)
{
  ck_assert_ptr_eq (ds_bench_get (result->kind)->compare_rows, ds_workload_compare_rows);
  return ds_test_compare_text (result, FALSE);
}

START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  DsWorkloadData *d = r->data;
  g_autofree char *reads = rows_of (r);
  g_autofree char *both = NULL;
  g_autofree char *untimed = NULL;
  g_autofree char *none = NULL;

  /* Reads only: seven rows; p50 is the 7th of the list (1e-4 + 6e-6). */
  ck_assert_str_eq (reads,
                    "[Workload, read]\n"
                    "read.bandwidth|Bandwidth||rate|+|16384\n"
                    "read.iops|Operations||iops|+|4\n"
                    "read.lat_mean|Latency average||time|-|0.0002\n"
                    "read.lat_p50|Latency p50||time|-|0.000106\n"
                    "read.lat_p99|Latency p99||time|-|0.000112\n"
                    "read.lat_p99_9|Latency p99.9||time|-|0.000114\n"
                    "read.lat_max|Latency maximum||time|-|0.0003\n");

  /* Writes too: after the reads, their own section; an unmeasured p99.9
   * is NAN, not 0. */
  d->write = (DsWorkloadDir) { .present = TRUE, .bytes_per_s = 2e9, .iops = 5e5,
                               .lat_mean_s = 1e-3, .lat_max_s = 0.5 };
  d->write.lat_percentile_s[6] = 9e-4;
  d->write.lat_percentile_s[12] = 2e-3;
  both = rows_of (r);
  ck_assert (g_str_has_prefix (both, reads));
  ck_assert_str_eq (both + strlen (reads),
                    "[Workload, write]\n"
                    "write.bandwidth|Bandwidth||rate|+|2000000000\n"
                    "write.iops|Operations||iops|+|500000\n"
                    "write.lat_mean|Latency average||time|-|0.001\n"
                    "write.lat_p50|Latency p50||time|-|0.0009\n"
                    "write.lat_p99|Latency p99||time|-|0.002\n"
                    "write.lat_p99_9|Latency p99.9||time|-|-\n"
                    "write.lat_max|Latency maximum||time|-|0.5\n");

  /* No time counted (an fio import with runtime 0): no rates, the
   * latencies still. */
  d->runtime_s = 0;
  untimed = rows_of (r);
  ck_assert_msg (strstr (untimed, "[Workload, read]\n"
                                  "read.bandwidth|Bandwidth||rate|+|-\n"
                                  "read.iops|Operations||iops|+|-\n"
                                  "read.lat_mean|Latency average||time|-|0.0002\n"),
                 "%s", untimed);
  ck_assert_msg (strstr (untimed, "[Workload, write]\nwrite.bandwidth|Bandwidth||rate|+|-\n"), "%s", untimed);

  /* Neither direction counted: no rows at all. */
  d->read.present = FALSE;
  d->write.present = FALSE;
  none = rows_of (r);
  ck_assert_str_eq (none, "");
}
END_TEST

/* ---- the fio job -------------------------------------------------------- */

static DsResult *
job_result (void)
{
  DsResult *r = ds_test_workload_result ();

  g_free (r->started_at);
  r->started_at = g_strdup ("2026-01-02T03:04:05Z");
  g_free (r->hostname);
  r->hostname = g_strdup ("box");
  r->spec.seed = 42;
  r->spec.duration_ns = UINT64_C (2500) * 1000 * 1000;
  r->spec.read_mix_percent = 70;
  return r;
}

/* @r's job for @filename, through the kinds' table. */
static char *
job_text (const DsResult *r,
          const char     *filename)
{
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_WORKLOAD)->fio_job, ds_workload_fio_job);
  return ds_test_fio_job (r, filename);
}

/* randrw QD32 on io_uring over a 1 MiB file, 2.5 s. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = job_result ();
  g_autofree char *job = job_text (r, "/dev/loop7");
  const char *want[] = {
    "; fio job reproducing a Diskscope workload run (Workload)",
    "; the run: /tmp/x.img on ?, started 2026-01-02T03:04:05Z on box",
    "; WARNING: this job WRITES to /dev/loop7 and DESTROYS ALL DATA on it",
    "; run it: fio --output-format=json --output=fio.json THIS_FILE",
    "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...",
    "", "[global]", "filename=/dev/loop7", "direct=1", "ioengine=io_uring",
    "fixedbufs=1", "registerfiles=1", "thread=1", "group_reporting=1",
    "refill_buffers=1", "norandommap=1", "randrepeat=0", "randseed=42", "lat_percentiles=1",
    "; random offsets: multiples of each job's (smallest) block size, fio's default blockalign, as the run's",
    "", "[diskscope-randrw]", "rw=randrw", "rwmixread=70", "bs=4096", "blockalign=4096",
    "iodepth=32", "numjobs=1", "offset=0", "size=1048576", "time_based=1", "runtime=2500ms",
    "", NULL,
  };

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_WORKLOAD)->fio_job, ds_workload_fio_job);
  ds_test_assert_lines (job, want);
}
END_TEST

/* What each setting changes: reads say so; a sequential pattern has no
 * blockalign nor a mix; our thread pool is T × Q synchronous jobs; the
 * region from the offset, cut by the span, in whole blocks; no time, no
 * time_based; the warm-up is fio's ramp_time. */
START_TEST (test_fio_job_settings)
{
  g_autoptr (DsResult) r = job_result ();
  g_autofree char *job = NULL;

  r->spec.pattern = DS_PATTERN_READ;
  r->spec.queue_depth = 4;
  r->spec.threads = 2;
  g_free (r->engine);
  r->engine = g_strdup ("threads");
  r->spec.offset_bytes = 4096;
  r->spec.span_bytes = 10000;
  r->spec.duration_ns = 0;
  r->spec.ramp_ns = 1500 * 1000;
  job = job_text (r, "/dev/sdb");
  ck_assert_msg (strstr (job, "; reads only\n; run it:") != NULL, "%s", job);
  ck_assert_msg (strstr (job, "\nioengine=psync\nthread=1\n") != NULL, "%s", job);
  ck_assert_msg (g_str_has_suffix (job, "\n[diskscope-read]\nrw=read\nbs=4096\n"
                                   "; our thread pool ran 2 x 4 synchronous I/Os in flight\n"
                                   "iodepth=1\nnumjobs=8\noffset=4096\nsize=8192\nramp_time=2ms\n"),
                 "%s", job);

  /* A write pattern writes even without --write; sync at QD 1; a span
   * past the end is cut to the end; --align is fio's blockalign in
   * [global], none per section. */
  g_clear_pointer (&job, g_free);
  r->spec.pattern = DS_PATTERN_RW;
  r->spec.write = FALSE;
  r->spec.queue_depth = 0;
  r->spec.threads = 0;
  g_free (r->engine);
  r->engine = g_strdup ("sync");
  r->spec.offset_bytes = 0;
  r->spec.span_bytes = 8 << 20;
  r->spec.ramp_ns = 0;
  r->spec.random_align_bytes = 512;
  r->spec.read_mix_percent = 0;
  r->spec.block_size_bytes = 1000;
  job = job_text (r, "/dev/sdb");
  ck_assert_msg (strstr (job, "; WARNING: this job WRITES to /dev/sdb and DESTROYS ALL DATA on it\n"),
                 "%s", job);
  ck_assert_msg (strstr (job, "; random offsets: multiples of the run's --align\nblockalign=512\n"),
                 "%s", job);
  ck_assert_msg (g_str_has_suffix (job, "\n[diskscope-rw]\nrw=rw\nrwmixread=0\nbs=1000\n"
                                   "iodepth=1\nnumjobs=1\noffset=0\nsize=1048000\n"),
                 "%s", job);

  /* Random writes with --align: no blockalign in the section. */
  g_clear_pointer (&job, g_free);
  r->spec.pattern = DS_PATTERN_RANDWRITE;
  job = job_text (r, "/dev/sdb");
  ck_assert_msg (g_str_has_suffix (job, "\n[diskscope-randwrite]\nrw=randwrite\nbs=1000\n"
                                   "iodepth=1\nnumjobs=1\noffset=0\nsize=1048000\n"), "%s", job);

  /* A target of unknown size and no span: no size= (fio takes the file). */
  g_clear_pointer (&job, g_free);
  r->target.size_bytes = 0;
  r->spec.span_bytes = 0;
  job = job_text (r, "/dev/sdb");
  ck_assert_msg (g_str_has_suffix (job, "numjobs=1\noffset=0\n"), "%s", job);
}
END_TEST

/* The section alone, as sweep and mark use it. */
START_TEST (test_fio_section)
{
  DsBenchSpec spec = { 0 };
  DsFioJobFile job = { .out = g_string_new (NULL), .filename = "/dev/null" };
  g_autofree char *text = NULL;

  ds_workload_fio_section (&job, "a", &spec, DS_PATTERN_RANDREAD, 4096, 100, TRUE);
  ds_workload_fio_section (&job, "b", &spec, DS_PATTERN_WRITE, 1 << 20, 0, FALSE);
  spec.random_align_bytes = 4096;
  ds_workload_fio_section (&job, "c", &spec, DS_PATTERN_RANDRW, 8192, 67, FALSE);
  text = g_string_free (job.out, FALSE);
  ck_assert_str_eq (text, "\n[a]\nstonewall=1\nrw=randread\nbs=4096\nblockalign=4096\n"
                          "\n[b]\nrw=write\nbs=1048576\n"
                          "\n[c]\nrw=randrw\nrwmixread=67\nbs=8192\n");
}
END_TEST

/* ---- JSON --------------------------------------------------------------- */

/* Reads and writes, histograms, a series, dropped I/Os and merged points. */
static DsWorkloadData *
full_data (void)
{
  DsWorkloadData *d = ds_workload_data_new ();
  const DsLatencyBucket buckets[] = { { 1e-4, 6 }, { 2e-4, 3 }, { 1e-3, 1 } };

  d->runtime_s = 2.5;
  d->engine = g_strdup ("io_uring");
  d->interval_s = 0.5;
  d->cpu_user_s = 0.25;
  d->cpu_system_s = 0.75;
  d->read = (DsWorkloadDir) { .present = TRUE, .io_bytes = 40960, .ios = 10, .bytes_per_s = 16384,
                              .iops = 4, .lat_min_s = 1e-4, .lat_mean_s = 2e-4, .lat_max_s = 1e-3,
                              .lat_stddev_s = 5e-5 };
  memcpy (d->read.lat_percentile_s, latencies, sizeof latencies);
  d->read.histogram = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));
  g_array_append_vals (d->read.histogram, buckets, G_N_ELEMENTS (buckets));
  d->write = (DsWorkloadDir) { .present = TRUE, .io_bytes = 4096, .ios = 1, .bytes_per_s = 1638.4,
                               .iops = 0.4, .lat_min_s = 3e-4, .lat_mean_s = 3e-4, .lat_max_s = 3e-4 };
  d->series = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  for (unsigned i = 0; i < 3; i++)
    {
      DsIntervalPoint p = { .t_s = 0.5 * (i + 1), .read = { 1e4 * (i + 1), 2.5, 1e-4, 9e-4 },
                            .write = { 0, 0, 0, 0 } };
      g_array_append_val (d->series, p);
    }
  d->series_dropped_ios = 7;
  d->series_merged = 2;
  return d;
}

START_TEST (test_json_round_trip)
{
  g_autoptr (GError) error = NULL;
  DsWorkloadData *d = full_data ();
  g_autoptr (JsonNode) node = ds_workload_data_to_json (d);
  g_autofree char *text = ds_json_to_text (node, NULL);
  DsWorkloadData *back = ds_workload_data_from_json (json_node_get_object (node), "results", &error);

  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_msg (strstr (text, "  \"runtime_s\" : 2.5,\n  \"engine\" : \"io_uring\",\n"
                               "  \"interval_s\" : 0.5,\n  \"read\" : {\n    \"io_bytes\" : 40960,\n"
                               "    \"ios\" : 10,\n"), "%s", text);
  ck_assert_msg (strstr (text, "      \"p50\" : 0.00016,\n      \"p90\" : 0.0002,\n"
                               "      \"p99\" : 0.00022,\n      \"p99_9\" : 0.00024,\n"
                               "      \"p99_99\" : 0.00026,\n      \"percentiles\" : {\n"
                               "        \"p1\" : 0.0001,\n"), "%s", text);
  ck_assert_msg (strstr (text, "\"p99_5\" : 0.00023,\n") && strstr (text, "\"p99_95\" : 0.00025,\n"),
                 "%s", text);
  ck_assert_msg (strstr (text, "\"latency_histogram\" : [\n      {\n        \"upper_s\" : 0.0001,\n"
                               "        \"count\" : 6\n      },\n"), "%s", text);
  ck_assert_msg (strstr (text, "  \"cpu\" : {\n    \"user_s\" : 0.25,\n    \"system_s\" : 0.75\n  },\n"),
                 "%s", text);
  ck_assert_msg (g_str_has_suffix (text, "  \"series_dropped_ios\" : 7,\n  \"series_merged\" : 2\n}\n"),
                 "%s", text);

  /* Read back, every member is as it was: written again, the same text. */
  {
    g_autoptr (JsonNode) again = ds_workload_data_to_json (back);
    g_autofree char *again_text = ds_json_to_text (again, NULL);

    ck_assert_str_eq (again_text, text);
  }
  ck_assert_double_eq (back->read.lat_stddev_s, 5e-5);
  ck_assert_double_eq (g_array_index (back->series, DsIntervalPoint, 2).read.bytes_per_s, 3e4);
  ck_assert_ptr_null (back->write.histogram);
  ck_assert_uint_eq (back->series_merged, 2);
  ds_workload_data_free (back);
  /* Clearing a direction frees its histogram and zeroes it. */
  ds_workload_dir_clear (&d->read);
  ck_assert_int_eq (memcmp (&d->read, &(DsWorkloadDir) { 0 }, sizeof d->read), 0);
  ds_workload_data_free (d);
}
END_TEST

/* What is left out: an absent direction, no series, no dropped I/Os, a
 * series of unmerged points; a null engine.  Read back, they stay so.
 * Older files without interval_s, stddev, p99_99 and percentiles load. */
START_TEST (test_json_optional)
{
  g_autoptr (GError) error = NULL;
  DsWorkloadData *d = ds_workload_data_new ();
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;
  DsWorkloadData *back;

  /* New data is all zeros and NULLs; freeing NULL is nothing. */
  ck_assert_int_eq (memcmp (d, &(DsWorkloadData) { 0 }, sizeof *d), 0);
  ds_workload_data_free (NULL);
  d->series_merged = 1;
  node = ds_workload_data_to_json (d);
  text = ds_json_to_text (node, NULL);
  ck_assert_str_eq (text, "{\n  \"runtime_s\" : 0.0,\n  \"engine\" : null,\n  \"interval_s\" : 0.0,\n"
                          "  \"cpu\" : {\n    \"user_s\" : 0.0,\n    \"system_s\" : 0.0\n  }\n}\n");
  back = ds_workload_data_from_json (json_node_get_object (node), "results", &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_ptr_null (back->engine);
  ck_assert (!back->read.present && !back->write.present);
  ck_assert_ptr_null (back->series);
  ck_assert_uint_eq (back->series_merged, 0);
  ds_workload_data_free (back);
  ds_workload_data_free (d);

  {
    const char *old = "{ \"runtime_s\" : 1, \"engine\" : \"sync\", \"cpu\" : { \"user_s\" : 0, "
                      "\"system_s\" : 0 }, \"read\" : { \"io_bytes\" : 512, \"ios\" : 1, "
                      "\"bytes_per_s\" : 512, \"iops\" : 1, \"latency_s\" : { \"min\" : 0.001, "
                      "\"mean\" : 0.001, \"max\" : 0.001, \"p50\" : 0.001, \"p90\" : 0.001, "
                      "\"p99\" : 0.002, \"p99_9\" : 0.003 } } }";
    g_autoptr (JsonNode) parsed = json_from_string (old, NULL);

    back = ds_workload_data_from_json (json_node_get_object (parsed), "results", &error);
    ck_assert_msg (back != NULL, "%s", error ? error->message : "");
    ck_assert_double_eq (back->interval_s, 0);
    ck_assert_double_eq (back->read.lat_stddev_s, 0);
    ck_assert_double_eq (ds_workload_dir_percentile (&back->read, 99), 0.002);
    ck_assert_double_eq (ds_workload_dir_percentile (&back->read, 99.9), 0.003);
    ck_assert (isnan (ds_workload_dir_percentile (&back->read, 99.99)));
    ds_workload_data_free (back);
  }
}
END_TEST

typedef enum { SET_DOUBLE, SET_INT, SET_STRING, REMOVE, SET_NULL, SET_ARRAY } Change;

static void
assert_refused (const char *path,
                const char *member,
                Change      change,
                double      value,
                const char *expect)
{
  g_autoptr (GError) error = NULL;
  DsWorkloadData *d = full_data ();
  g_autoptr (JsonNode) node = ds_workload_data_to_json (d);
  JsonObject *o = json_node_get_object (node);
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);

  /* The object at @path ("read.latency_s"; "" is the top). */
  for (guint i = 0; parts[i] != NULL && parts[i][0] != '\0'; i++)
    o = json_object_get_object_member (o, parts[i]);
  switch (change)
    {
    case SET_DOUBLE: json_object_set_double_member (o, member, value); break;
    case SET_INT: json_object_set_int_member (o, member, (gint64) value); break;
    case SET_STRING: json_object_set_string_member (o, member, "x"); break;
    case REMOVE: json_object_remove_member (o, member); break;
    case SET_NULL: json_object_set_null_member (o, member); break;
    case SET_ARRAY: json_object_set_array_member (o, member, json_array_new ()); break;
    default: g_assert_not_reached ();
    }
  ck_assert_msg (ds_workload_data_from_json (json_node_get_object (node), "results.steps[2].results",
                                             &error) == NULL, "loaded; wanted “%s”", expect);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, expect);
  ds_workload_data_free (d);
}

#define W "results.steps[2].results"

START_TEST (test_json_refused)
{
  assert_refused ("", "runtime_s", REMOVE, 0, W ".runtime_s is missing");
  assert_refused ("", "runtime_s", SET_DOUBLE, 1e7 + 1, W ".runtime_s is out of range (1e+07; expected 0 to 1e+07)");
  assert_refused ("", "runtime_s", SET_DOUBLE, -0.5, W ".runtime_s is out of range (-0.5; expected 0 to 1e+07)");
  assert_refused ("", "engine", REMOVE, 0, W ".engine is missing");
  assert_refused ("", "engine", SET_INT, 3, W ".engine is not a string");
  assert_refused ("", "interval_s", SET_DOUBLE, 3601, W ".interval_s is out of range (3601; expected 0 to 3600)");
  assert_refused ("", "read", SET_NULL, 0, W ".read is not an object");
  assert_refused ("", "cpu", REMOVE, 0, W ".cpu is missing");
  assert_refused ("cpu", "system_s", SET_STRING, 0, W ".cpu.system_s is not a number");
  assert_refused ("", "series", SET_NULL, 0, W ".series is not a list");
  assert_refused ("", "series_dropped_ios", SET_DOUBLE, 1.5, W ".series_dropped_ios is not a whole number");
  assert_refused ("", "series_merged", SET_INT, (double) G_MAXINT32 + 1,
                  W ".series_merged is out of range (2147483648; expected 0 to 2147483647)");
  assert_refused ("read", "ios", SET_INT, -1,
                  W ".read.ios is out of range (negative or above 9223372036854775807; expected 0 to "
                  "9223372036854775807)");
  assert_refused ("write", "bytes_per_s", SET_DOUBLE, 2e15,
                  W ".write.bytes_per_s is out of range (2e+15; expected 0 to 1e+15)");
  assert_refused ("write", "iops", REMOVE, 0, W ".write.iops is missing");
  assert_refused ("write", "latency_s", REMOVE, 0, W ".write.latency_s is missing");
  assert_refused ("read.latency_s", "p99_9", REMOVE, 0, W ".read.latency_s.p99_9 is missing");
  assert_refused ("read.latency_s", "stddev", SET_DOUBLE, -1,
                  W ".read.latency_s.stddev is out of range (-1; expected 0 to 1e+06)");
  assert_refused ("read.latency_s", "p99_99", SET_STRING, 0, W ".read.latency_s.p99_99 is not a number");
  assert_refused ("read.latency_s.percentiles", "p99_95", REMOVE, 0,
                  W ".read.latency_s.percentiles.p99_95 is missing");
  assert_refused ("read.latency_s", "min", SET_DOUBLE, 0.002,
                  W ".read.latency_s: minimum, mean and maximum are out of order");
  assert_refused ("read.latency_s", "mean", SET_DOUBLE, 0.002,
                  W ".read.latency_s: minimum, mean and maximum are out of order");
  /* The histogram must count the direction's I/Os. */
  assert_refused ("read", "ios", SET_INT, 11,
                  W ".read.latency_histogram counts 10 I/Os, not the 11 of the figures");
  assert_refused ("read", "latency_histogram", SET_NULL, 0, W ".read.latency_histogram is not a list");
  assert_refused ("read", "latency_histogram", SET_ARRAY, 0,
                  W ".read.latency_histogram counts 0 I/Os, not the 10 of the figures");
}
END_TEST

/* @d written, then @edit (may be NULL) applied to its JSON: refused with
 * @expect. */
static void
assert_data_refused (const DsWorkloadData *d,
                     void (*edit) (JsonObject *o),
                     const char           *expect)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = ds_workload_data_to_json (d);

  if (edit != NULL)
    edit (json_node_get_object (node));
  ck_assert_ptr_null (ds_workload_data_from_json (json_node_get_object (node), "results", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, expect);
}

static void
add_number_point (JsonObject *o)
{
  json_array_add_int_element (json_object_get_array_member (o, "series"), 5);
}

static void
drop_write_side (JsonObject *o)
{
  json_object_remove_member (json_array_get_object_element (json_object_get_array_member (o, "series"), 1),
                             "write");
}

/* Lists refused by their entries: order, counts, points in time. */
START_TEST (test_json_lists_refused)
{
  DsWorkloadData *d = full_data ();
  g_autofree char *too_many = g_strdup_printf ("results.read.latency_histogram has %u buckets, more "
                                               "than the %u a histogram has", DS_HIST_BUCKETS + 1,
                                               DS_HIST_BUCKETS);

  g_array_index (d->read.histogram, DsLatencyBucket, 1).upper_s = 1e-4;
  assert_data_refused (d, NULL, "results.read.latency_histogram[1].upper_s is not above the bucket before it");
  /* Counts that overflow a signed 64-bit total. */
  g_array_index (d->read.histogram, DsLatencyBucket, 1).upper_s = 2e-4;
  g_array_index (d->read.histogram, DsLatencyBucket, 0).count = G_MAXINT64;
  assert_data_refused (d, NULL, "results.read.latency_histogram: the counts overflow");
  g_array_set_size (d->read.histogram, 0);
  for (guint i = 0; i <= DS_HIST_BUCKETS; i++)
    {
      DsLatencyBucket b = { (i + 1) * 1e-6, 0 };
      g_array_append_val (d->read.histogram, b);
    }
  assert_data_refused (d, NULL, too_many);
  g_clear_pointer (&d->read.histogram, g_array_unref);

  /* A point not after the one before it; the first not after 0. */
  g_array_index (d->series, DsIntervalPoint, 2).t_s = 1.0;
  assert_data_refused (d, NULL, "results.series[2].t_s is not after the point before it");
  g_array_index (d->series, DsIntervalPoint, 2).t_s = 1.5;
  g_array_index (d->series, DsIntervalPoint, 0).t_s = 0;
  assert_data_refused (d, NULL, "results.series[0].t_s is not after the point before it");
  g_array_index (d->series, DsIntervalPoint, 0).t_s = 0.5;
  /* A point that is no object; one without its write side. */
  assert_data_refused (d, add_number_point, "results.series[3] is not an object");
  assert_data_refused (d, drop_write_side, "results.series[1].write is missing");
  ds_workload_data_free (d);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-workload");
  TCase *tc = tcase_create ("workload");

  tcase_add_test (tc, test_dir_percentile);
  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_fio_job_settings);
  tcase_add_test (tc, test_fio_section);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_json_optional);
  tcase_add_test (tc, test_json_refused);
  tcase_add_test (tc, test_json_lists_refused);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
