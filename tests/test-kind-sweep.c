/* test-kind-sweep.c: the Saturation (sweep) kind's hooks
 * (core/kinds/sweep/ds-sweep-compare.c, -fio.c, -json.c, -text.c)
 *
 * Unit suite: no root, no device.  What they promise: compare rows by
 * level ("qd16.iops", "t4.lat_p99"), the knee's rows and words, a level
 * without I/O or a p99 of 0 an empty cell; IOPS and p99 curves with the
 * knee marked; the fio job, a stonewalled section per level measured (or
 * planned) over queue depth or threads, its time, ramp and steady note,
 * refused without levels; the JSON's members, Little's figure and the
 * knee recomputed on load, each bad member refused by name; the report
 * word for word.  tests/test-sweep.c tests the rules themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-sweep.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* Randread 4 KiB at one thread, levels QD 1 … 32 planned, stopped after
 * QD 16: 500, 1000, 2000, 2010, 1990 IOPS, p99 2.2, 2.2, 2.3, 4.6, 9.1 ms,
 * 10 s a level: the knee at QD 4.  QD 2 was steady at 3.5 s. */
static DsResult *
sweep_result (void)
{
  static const double iops[] = { 500, 1000, 2000, 2010, 1990 };
  static const double p99[] = { 2.2, 2.2, 2.3, 4.6, 9.1 };
  static const unsigned levels[] = { 1, 2, 4, 8, 16, 32 };
  DsResult *r = ds_test_result_new (DS_BENCH_SWEEP, "/dev/sdz", FALSE);
  DsSweepData *data = r->data;

  r->spec.pattern = DS_PATTERN_RANDREAD;
  r->spec.block_size_bytes = 4096;
  r->spec.span_bytes = UINT64_C (1) << 30;
  ds_test_fix_run (r, "sync");
  g_array_append_vals (data->levels, levels, G_N_ELEMENTS (levels));
  for (unsigned i = 0; i < G_N_ELEMENTS (iops); i++)
    {
      unsigned qd = 1u << i;
      DsSweepStep s = {
        .outstanding = qd, .queue_depth = qd, .threads = 1, .complete = TRUE,
        .runtime_s = 10, .ios = (uint64_t) (iops[i] * 10), .iops = iops[i],
        .bytes_per_s = iops[i] * 4096, .steady_at_s = -1,
        .lat_mean_s = qd / iops[i], .lat_p50_s = 0.9 * qd / iops[i],
        .lat_p99_s = p99[i] / 1e3, .lat_p99_9_s = 2 * p99[i] / 1e3,
      };

      s.little_outstanding = s.iops * s.lat_mean_s;
      g_array_append_val (data->steps, s);
    }
  g_array_index (data->steps, DsSweepStep, 1).steady_at_s = 3.5;
  data->step_time_s = 10;
  data->interval_s = 1;
  ds_sweep_update_knee (data);
  return r;
}

/* The same levels over threads at QD 8: thread counts 1, 2, 4. */
static DsResult *
threads_result (void)
{
  DsResult *r = sweep_result ();
  DsSweepData *data = r->data;

  r->spec.queue_depth = 8;
  data->over_threads = TRUE;
  g_array_set_size (data->levels, 3);
  g_array_set_size (data->steps, 3);
  for (guint i = 0; i < 3; i++)
    {
      DsSweepStep *s = &g_array_index (data->steps, DsSweepStep, i);

      s->threads = s->queue_depth;
      s->queue_depth = 8;
      s->outstanding = 8 * s->threads;
    }
  ds_sweep_update_knee (data);
  return r;
}

static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ds_sweep_compare_rows (r, &sink->figures);
}

/* ---- compare ------------------------------------------------------------- */

/* Four figures a level, in the levels' order, the knee's level named; then
 * the knee's three, and its words as the note.  A level without I/O has
 * no figures; a p99 of 0 (none measured) is no p99, at a level or the
 * knee. */
START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = sweep_result ();
  DsSweepData *data = r->data;
  const char *const want[] = {
    "[Saturation, by queue depth]",
    "qd1.iops|QD 1|IOPS|iops|+|500", "qd1.bytes_per_s|QD 1|MB/s|rate|+|2048000",
    "qd1.lat_mean|QD 1|mean latency|time|-|0.002", "qd1.lat_p99|QD 1|p99 latency|time|-|0.0022",
    "qd2.iops|QD 2|IOPS|iops|+|1000", "qd2.bytes_per_s|QD 2|MB/s|rate|+|4096000",
    "qd2.lat_mean|QD 2|mean latency|time|-|0.002", "qd2.lat_p99|QD 2|p99 latency|time|-|0.0022",
    "qd4.iops|QD 4 (knee)|IOPS|iops|+|2000", "qd4.bytes_per_s|QD 4 (knee)|MB/s|rate|+|8192000",
    "qd4.lat_mean|QD 4 (knee)|mean latency|time|-|0.002", "qd4.lat_p99|QD 4 (knee)|p99 latency|time|-|0.0023",
    "qd8.iops|QD 8|IOPS|iops|+|2010", "qd8.bytes_per_s|QD 8|MB/s|rate|+|8232960",
    "qd8.lat_mean|QD 8|mean latency|time|-|0.00398009950248756", "qd8.lat_p99|QD 8|p99 latency|time|-|0.0046",
    "qd16.iops|QD 16|IOPS|iops|+|1990", "qd16.bytes_per_s|QD 16|MB/s|rate|+|8151040",
    "qd16.lat_mean|QD 16|mean latency|time|-|0.00804020100502513", "qd16.lat_p99|QD 16|p99 latency|time|-|0.0091",
    "[Saturation knee]",
    "knee.level|Knee|queue depth|count|+|4", "knee.iops|Knee|IOPS|iops|+|2000",
    "knee.lat_p99|Knee|p99 latency|time|-|0.0023",
    NULL,
  };
  const char *const note[] = {
    "saturates at QD 4: 2 000 IOPS (p99 2.300 ms); past it p99 latency grows 2.0× per step "
    "for no more IOPS", NULL,
  };
  DsTestSink sink;

  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ds_test_assert_list (sink.notes, note);
  ds_test_sink_clear (&sink);

  g_array_index (data->steps, DsSweepStep, 1).ios = 0;
  g_array_index (data->steps, DsSweepStep, 4).lat_p99_s = 0;
  data->knee.p99_s = 0;
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 25);
  ck_assert_str_eq (sink.rows->pdata[5], "qd2.iops|QD 2|IOPS|iops|+|-");
  ck_assert_str_eq (sink.rows->pdata[6], "qd2.bytes_per_s|QD 2|MB/s|rate|+|-");
  ck_assert_str_eq (sink.rows->pdata[7], "qd2.lat_mean|QD 2|mean latency|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[8], "qd2.lat_p99|QD 2|p99 latency|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[19], "qd16.lat_mean|QD 16|mean latency|time|-|0.00804020100502513");
  ck_assert_str_eq (sink.rows->pdata[20], "qd16.lat_p99|QD 16|p99 latency|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[23], "knee.iops|Knee|IOPS|iops|+|2000");
  ck_assert_str_eq (sink.rows->pdata[24], "knee.lat_p99|Knee|p99 latency|time|-|-");
  ds_test_sink_clear (&sink);
}
END_TEST

/* Over threads: "t" keys, "Threads" names, the axis in the section and
 * the knee's measure; without a knee its rows are empty and the note
 * says why; without steps (none, or no array) only the knee's rows. */
START_TEST (test_compare_rows_threads)
{
  g_autoptr (DsResult) r = threads_result ();
  DsSweepData *data = r->data;
  const char *const want[] = {
    "[Saturation knee]",
    "knee.level|Knee|threads|count|+|-", "knee.iops|Knee|IOPS|iops|+|-", "knee.lat_p99|Knee|p99 latency|time|-|-",
    NULL,
  };
  const char *const note[] = {
    "no knee: IOPS still grow at the last level (+100 % from 2 threads (QD 8 each) to 4 threads "
    "(QD 8 each)): not saturated yet; sweep further (--to)", NULL,
  };
  const char *const none[] = { "no knee: fewer than two levels were measured", NULL };
  GArray *steps = data->steps;
  DsTestSink sink;

  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 17);
  ck_assert_str_eq (sink.rows->pdata[0], "[Saturation, by threads]");
  ck_assert_str_eq (sink.rows->pdata[1], "t1.iops|Threads 1|IOPS|iops|+|500");
  ck_assert_str_eq (sink.rows->pdata[6], "t2.bytes_per_s|Threads 2|MB/s|rate|+|4096000");
  ck_assert_str_eq (sink.rows->pdata[12], "t4.lat_p99|Threads 4|p99 latency|time|-|0.0023");
  g_ptr_array_remove_range (sink.rows, 0, 13);
  ds_test_assert_list (sink.rows, want);
  ds_test_assert_list (sink.notes, note);
  ds_test_sink_clear (&sink);
  for (guint i = 0; i < 2; i++)
    {
      g_array_set_size (steps, 0);
      data->steps = i == 0 ? steps : NULL;
      rows_of (r, &sink);
      ds_test_assert_list (sink.rows, want);
      ds_test_assert_list (sink.notes, none);
      ds_test_sink_clear (&sink);
    }
  data->steps = steps;
}
END_TEST

/* IOPS and p99 against the level, on a log axis, the knee marked where
 * there is one; a level without I/O a gap in both, a p99 of 0 in the
 * p99's only; no steps, no curves. */
START_TEST (test_compare_curves)
{
  g_autoptr (DsResult) r = sweep_result ();
  g_autoptr (DsResult) t = threads_result ();
  DsSweepData *data = r->data;
  const char *const want[] = {
    "iops|IOPS against queue depth|queue depth|count|1|IOPS|iops|0|4 knee|"
    "(1,500) (2,1000) (4,2000) (8,2010) (16,1990)",
    "lat_p99|p99 latency against queue depth|queue depth|count|1|p99 latency|time|0|4 knee|"
    "(1,0.0022) (2,0.0022) (4,0.0023) (8,0.0046) (16,0.0091)",
    "iops|IOPS against threads|threads|count|1|IOPS|iops|0|- knee|(1,500) (2,1000) (4,2000)",
    "lat_p99|p99 latency against threads|threads|count|1|p99 latency|time|0|- knee|"
    "(1,0.0022) (2,0.0022) (4,0.0023)",
    NULL,
  };
  DsTestSink sink;

  ds_test_sink_init (&sink);
  ds_sweep_compare_curves (r, &sink.curves);
  ds_sweep_compare_curves (t, &sink.curves);
  ds_test_assert_list (sink.curve_lines, want);
  ds_test_sink_clear (&sink);

  g_array_index (data->steps, DsSweepStep, 1).ios = 0;
  g_array_index (data->steps, DsSweepStep, 3).lat_p99_s = 0;
  ds_test_sink_init (&sink);
  ds_sweep_compare_curves (r, &sink.curves);
  ck_assert_uint_eq (sink.curve_lines->len, 2);
  ck_assert_str_eq (strrchr (sink.curve_lines->pdata[0], '|'), "|(1,500) (2,-) (4,2000) (8,2010) (16,1990)");
  ck_assert_str_eq (strrchr (sink.curve_lines->pdata[1], '|'), "|(1,0.0022) (2,-) (4,0.0023) (8,-) (16,0.0091)");
  ds_test_sink_clear (&sink);

  g_array_set_size (data->steps, 0);
  ds_test_sink_init (&sink);
  ds_sweep_compare_curves (r, &sink.curves);
  ck_assert_uint_eq (sink.curve_lines->len, 0);
  ds_test_sink_clear (&sink);
}
END_TEST

/* ---- fio ------------------------------------------------------------------ */

/* Over threads, written at random with io_uring, steady, with a ramp:
 * the whole job. */
START_TEST (test_fio_threads)
{
  g_autoptr (DsResult) r = threads_result ();
  DsSweepData *data = r->data;
  g_autofree char *job = NULL;
  const char *const want[] = {
    "[global]", "filename=/dev/sdz", "direct=1", "ioengine=io_uring", "fixedbufs=1", "registerfiles=1",
    "thread=1", "group_reporting=1", "refill_buffers=1", "norandommap=1", "randrepeat=0", "randseed=42",
    "lat_percentiles=1",
    "; random offsets: multiples of each job's (smallest) block size, fio's default blockalign, as the run's",
    "; 3 levels of threads, each 10000 ms at most (ours ended a level early once IOPS was steady)",
    "",
    "[threads-1]", "stonewall=1", "rw=randwrite", "bs=4096", "blockalign=4096", "iodepth=8", "numjobs=1",
    "offset=0", "size=1073741824", "time_based=1", "runtime=10000ms", "ramp_time=500ms",
    "",
    "[threads-2]", "stonewall=1", "rw=randwrite", "bs=4096", "blockalign=4096", "iodepth=8", "numjobs=2",
    "offset=0", "size=1073741824", "time_based=1", "runtime=10000ms", "ramp_time=500ms",
    "",
    "[threads-4]", "stonewall=1", "rw=randwrite", "bs=4096", "blockalign=4096", "iodepth=8", "numjobs=4",
    "offset=0", "size=1073741824", "time_based=1", "runtime=10000ms", "ramp_time=500ms",
    "",
    NULL,
  };

  ds_test_fix_run (r, "io_uring");
  r->spec.pattern = DS_PATTERN_RANDWRITE;
  data->steady = TRUE;
  data->ramp_s = 0.5;
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "; WARNING", "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it");
  ds_test_assert_lines (strstr (job, "\n[global]\n") + 1, want);
}
END_TEST

/* Over queue depth: a section per level measured (a stopped run: those
 * only), else per level planned; each level's depth; the level's time,
 * else the spec's; the region from the offset to the end without a span;
 * a read mix; our thread pool as synchronous jobs. */
START_TEST (test_fio_levels)
{
  g_autoptr (DsResult) r = sweep_result ();
  DsSweepData *data = r->data;
  g_autofree char *job = NULL;

  ds_test_fix_run (r, "io_uring");
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "[", "[global] [qd-1] [qd-2] [qd-4] [qd-8] [qd-16]");
  DS_TEST_ASSERT_LINES_WITH (job, "iodepth=", "iodepth=1 iodepth=2 iodepth=4 iodepth=8 iodepth=16");
  DS_TEST_ASSERT_LINES_WITH (job, "numjobs=", "numjobs=1 numjobs=1 numjobs=1 numjobs=1 numjobs=1");
  DS_TEST_ASSERT_LINES_WITH (job, "; 5 levels", "; 5 levels of queue depth, each 10000 ms");
  DS_TEST_ASSERT_LINES_WITH (job, "; reads only", "; reads only");
  ck_assert (strstr (job, "ramp_time") == NULL && strstr (job, "rwmixread") == NULL);

  g_array_set_size (data->steps, 0);
  data->step_time_s = 0;
  r->spec.duration_ns = UINT64_C (2500) * 1000 * 1000;
  r->spec.span_bytes = 0;
  r->spec.offset_bytes = UINT64_C (1) << 30;
  r->spec.pattern = DS_PATTERN_RANDRW;
  r->spec.read_mix_percent = 70;
  g_clear_pointer (&job, g_free);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "[", "[global] [qd-1] [qd-2] [qd-4] [qd-8] [qd-16] [qd-32]");
  DS_TEST_ASSERT_LINES_WITH (job, "; 6 levels", "; 6 levels of queue depth, each 2500 ms");
  DS_TEST_ASSERT_COUNT (job, "runtime=2500ms", 6);
  DS_TEST_ASSERT_COUNT (job, "offset=1073741824", 6);
  DS_TEST_ASSERT_COUNT (job, "rwmixread=70", 6);
  DS_TEST_ASSERT_COUNT (job, "size=498926256128", 6);  /* 500 GB less 1 GiB, in whole 4 KiB blocks */
  DS_TEST_ASSERT_LINES_WITH (job, "; WARNING", "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it");

  /* Our thread pool: a synchronous job per I/O in flight. */
  ds_test_fix_run (r, "threads");
  r->spec.threads = 2;
  g_array_set_size (data->levels, 2);
  g_clear_pointer (&job, g_free);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "ioengine=", "ioengine=psync");
  DS_TEST_ASSERT_LINES_WITH (job, "; our thread pool", "; our thread pool ran 2 x 2 synchronous I/Os in flight");
  DS_TEST_ASSERT_LINES_WITH (job, "numjobs=", "numjobs=2 numjobs=4");
  DS_TEST_ASSERT_LINES_WITH (job, "iodepth=", "iodepth=1 iodepth=1");
}
END_TEST

/* No levels (none, or no data at all): nothing says what ran. */
START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = sweep_result ();
  DsSweepData *data = r->data;
  GArray *levels = data->levels;
  const char *want = "a Saturation result without levels cannot be expressed as a fio job, because "
                     "it holds no level to say what ran";

  g_array_set_size (levels, 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;
      gpointer saved = r->data;

      data->levels = i == 1 ? NULL : levels;
      r->data = i == 2 ? NULL : saved;
      ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
      r->data = saved;
      data->levels = levels;
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED), "case %u", i);
      ck_assert_str_eq (error->message, want);
    }
}
END_TEST

/* ---- JSON ----------------------------------------------------------------- */

/* The members in the order ds-bench-sweep.h gives, a step in full (null
 * "steady_at_s" for a level that ran its time; Little's ratio to what was
 * asked, 0 where nothing was), the rules' constants, the knee with its
 * words, or null. */
START_TEST (test_json_written)
{
  g_autoptr (DsResult) r = sweep_result ();
  g_autoptr (DsResult) t = threads_result ();
  DsSweepData *data = r->data;
  DsSweepStep *last = &g_array_index (((DsSweepData *) t->data)->steps, DsSweepStep, 2);
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) tnode = NULL;
  JsonObject *o;
  JsonArray *steps;

  g_array_index (data->steps, DsSweepStep, 0).outstanding = 0;
  /* Figures a double holds exactly, so they read in full. */
  data->knee.iops_gain_per_step = 0.25;
  data->knee.p99_growth_per_step = 1.5;
  data->knee.p99_s = 0.5;
  node = ds_sweep_data_to_json (data);
  o = json_node_get_object (node);
  DS_TEST_ASSERT_MEMBERS (o, "over levels step_time_s ramp_s interval_s steady steady_rule steps knee knee_rule");
  DS_TEST_ASSERT_MEMBER (o, "knee", "{\"outstanding\":4,\"queue_depth\":4,\"threads\":1,\"iops\":2000.0,"
                         "\"p99_s\":0.5,\"rule\":\"saturates at QD 4: 2 000 IOPS (p99 500.0 ms); past it p99 "
                         "latency grows 1.5× per step for 25 % more IOPS\",\"iops_gain_per_step\":0.25,"
                         "\"p99_growth_per_step\":1.5}");
  steps = json_object_get_array_member (o, "steps");
  ck_assert_uint_eq (json_array_get_length (steps), 5);
  DS_TEST_ASSERT_MEMBER (json_array_get_object_element (steps, 0), "little",
                         "{\"outstanding\":1.0,\"ratio\":0.0,\"off\":false}");
  DS_TEST_ASSERT_MEMBER (json_array_get_object_element (steps, 0), "steady_at_s", "null");
  json_object_remove_member (o, "steps");
  json_object_remove_member (o, "knee");
  DS_TEST_ASSERT_JSON (node, "{\"over\":\"qd\",\"levels\":[1,2,4,8,16,32],\"step_time_s\":10.0,\"ramp_s\":0.0,"
                       "\"interval_s\":1.0,\"steady\":false,\"steady_rule\":{\"window\":5,"
                       "\"slope\":0.050000000000000003},\"knee_rule\":{\"gain\":0.10000000000000001,"
                       "\"growth\":0.20000000000000001}}");

  *last = (DsSweepStep) { .outstanding = 32, .queue_depth = 8, .threads = 4, .complete = FALSE,
                          .runtime_s = 4, .ios = 256, .iops = 64, .bytes_per_s = 262144, .steady_at_s = 2.5,
                          .lat_mean_s = 0.5, .lat_p50_s = 0.25, .lat_p99_s = 0.75, .lat_p99_9_s = 1.5,
                          .little_outstanding = 32 };
  tnode = ds_sweep_data_to_json (t->data);
  o = json_node_get_object (tnode);
  DS_TEST_ASSERT_MEMBER (o, "over", "\"threads\"");
  DS_TEST_ASSERT_MEMBER (o, "levels", "[1,2,4]");
  DS_TEST_ASSERT_MEMBER (o, "knee", "null");
  steps = json_object_get_array_member (o, "steps");
  DS_TEST_ASSERT_JSON (json_array_get_element (steps, 2),
                       "{\"outstanding\":32,\"queue_depth\":8,\"threads\":4,\"complete\":false,\"runtime_s\":4.0,"
                       "\"ios\":256,\"iops\":64.0,\"bytes_per_s\":262144.0,\"steady_at_s\":2.5,"
                       "\"latency_s\":{\"mean\":0.5,\"p50\":0.25,\"p99\":0.75,\"p99_9\":1.5},"
                       "\"little\":{\"outstanding\":32.0,\"ratio\":1.0,\"off\":false}}");
  DS_TEST_ASSERT_MEMBER (json_array_get_object_element (steps, 0), "little",
                         "{\"outstanding\":1.0,\"ratio\":0.125,\"off\":true}");
}
END_TEST

/* Read back, the same; what is derived is derived again: Little's figure
 * from IOPS and mean latency, the knee from the steps (a file's knee,
 * null or forged, is not believed). */
START_TEST (test_json_read)
{
  g_autoptr (DsResult) r = sweep_result ();
  const DsSweepData *a = r->data;
  g_autoptr (JsonNode) node = ds_sweep_data_to_json (a);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  DsSweepData *b;
  g_autoptr (JsonNode) first = ds_sweep_data_to_json (a);
  g_autoptr (JsonNode) back = NULL;
  g_autofree char *json_text = NULL;
  JsonObject *o = json_node_get_object (node);
  JsonArray *levels;
  JsonObject *s3 = json_array_get_object_element (json_object_get_array_member (o, "steps"), 3);

  json_object_set_double_member (json_object_get_object_member (s3, "little"), "outstanding", 99);
  json_object_set_null_member (o, "knee");
  /* As many levels as a sweep may have (64): taken. */
  levels = json_object_get_array_member (o, "levels");
  for (guint i = 64; i < 122; i++)
    json_array_add_int_element (levels, i);
  text = ds_json_to_text (node, NULL);
  b = ds_test_read_results (DS_BENCH_SWEEP, text, &error);
  ck_assert_msg (b != NULL, "%s", error ? error->message : "");
  ck_assert (b->knee.found && b->knee.index == 2);
  ck_assert_uint_eq (b->levels->len, 64);
  ck_assert_uint_eq (g_array_index (b->levels, unsigned, 63), 121);
  g_array_set_size (b->levels, 6);
  /* 2010 IOPS × 3.98 ms: 8, not the file's 99 */
  ck_assert_double_eq_tol (g_array_index (b->steps, DsSweepStep, 3).little_outstanding, 8, 1e-9);
  /* Written again: the file as first written, every figure the same. */
  back = ds_sweep_data_to_json (b);
  json_text = json_to_string (back, FALSE);
  DS_TEST_ASSERT_JSON (first, json_text);
  ds_sweep_data_free (b);
}
END_TEST

#define L8 "1,1,1,1,1,1,1,1,"

/* Each malformed member refused, DS_ERROR_CORRUPT, the message naming it;
 * another kind's results too. */
START_TEST (test_json_refused)
{
  static const DsTestEdit cases[] = {
    { "\"over\" : \"qd\",", "", "results.over is missing" },
    { "\"over\" : \"qd\"", "\"over\" : 1", "results.over is not a string" },
    { "\"over\" : \"qd\"", "\"over\" : \"QD\"", "results.over must be \"qd\" or \"threads\"" },
    { "\"levels\" : [", "\"levels\" : {}, \"x\" : [", "results.levels is not a list" },
    { "[1,2,", "[1,\"2\",", "results.levels[1] is not a level from 1 to 4096" },
    { "[1,2,", "[1,2.0,", "results.levels[1] is not a level from 1 to 4096" },
    { "[1,2,", "[1,4097,", "results.levels[1] is not a level from 1 to 4096" },
    { "[1,2,4,8,16,32]", "[1,2,4,8]", "results.steps has 5 steps for 4 levels" },
    { "[1,2,4,8,16,32]", "[" L8 L8 L8 L8 L8 L8 L8 L8 "1]", "results.levels has 65 levels, more than 64" },
    { "\"step_time_s\" : 10.0", "\"step_time_s\" : -1",
      "results.step_time_s is out of range (-1; expected 0 to 1e+07)" },
    { "\"steady\" : false", "\"steady\" : 0", "results.steady is not true or false" },
    { "\"steps\" : [", "\"steps\" : 1, \"x\" : [", "results.steps is not a list" },
    { "\"steps\" : [", "\"steps\" : [7,", "results.steps[0] is not an object" },
    { "\"threads\" : 1,", "\"threads\" : 1025,",
      "results.steps[0].threads is out of range (1025; expected 0 to 1024)" },
    { "\"steady_at_s\" : 3.5", "\"steady_at_s\" : 1e8",
      "results.steps[1].steady_at_s is out of range (1e+08; expected 0 to 1e+07)" },
    { "\"latency_s\" : {", "\"latency\" : {", "results.steps[0].latency_s is missing" },
    { "\"mean\" : 0.002,", "\"mean\" : 2e6,",
      "results.steps[0].latency_s.mean is out of range (2e+06; expected 0 to 1e+06)" },
  };
  g_autoptr (DsResult) r = sweep_result ();
  g_autoptr (JsonNode) node = ds_sweep_data_to_json (r->data);
  g_autofree char *text = ds_json_to_text (node, NULL);

  ds_test_assert_edits_refused (DS_BENCH_SWEEP, text, cases, G_N_ELEMENTS (cases));
  ds_test_assert_other_kind_refused (DS_BENCH_SWEEP, "results.over is missing");
}
END_TEST

/* ---- text ----------------------------------------------------------------- */

/* The sweep over queue depth, word for word: the knee marked "<", the
 * level ended early "st"; not steady, no level cut: no such notes. */
START_TEST (test_report)
{
  g_autoptr (DsResult) r = sweep_result ();
  DsSweepData *data = r->data;
  g_autofree char *text = ds_test_report (r, DS_UNITS_MB);
  const char *const want[] = {
    "Workload              : randread, 4 KiB, 1 thread, queue depth 1 to 32 (6 levels)",
    "Step Time             : 10 s per level",
    "Knee                  : saturates at QD 4: 2 000 IOPS (p99 2.300 ms); past it p99 latency grows "
    "2.0× per step for no more IOPS",
    "Knee Rule             : the first level past which no level gains > 10 % IOPS, while the next "
    "level's p99 grows > 20 %",
    "",
    "QD      Threads  In flight       IOPS       Rate       Mean        p50        p99      p99.9     Little       Time",
    "1             1          1        500 2.048 MB/s   2.000 ms   1.800 ms   2.200 ms   4.400 ms       1.00     10.0 s",
    "2             1          2       1000 4.096 MB/s   2.000 ms   1.800 ms   2.200 ms   4.400 ms       2.00  10.0 s st",
    "4             1        4 <       2000 8.192 MB/s   2.000 ms   1.800 ms   2.300 ms   4.600 ms       4.00     10.0 s",
    "8             1          8       2010 8.233 MB/s   3.980 ms   3.582 ms   4.600 ms   9.200 ms       8.00     10.0 s",
    "16            1         16       1990 8.151 MB/s   8.040 ms   7.236 ms   9.100 ms   18.20 ms      16.00     10.0 s",
    "",
    "< the knee.  Little: IOPS × mean latency, the I/Os the device really had in flight.",
    "",
    NULL,
  };
  const char *const short_want[] = {
    "Workload              : randrw, 64 KiB, 70% reads, 4 threads, queue depth 0 to 0 (0 levels)",
    "Step Time             : 2.5 s per level",
    "Knee                  : no knee: fewer than two levels were measured",
    want[3], "", NULL,
  };

  ds_test_assert_lines (text, want);

  /* A read mix, several threads; no levels, no steps: no table. */
  r->spec.pattern = DS_PATTERN_RANDRW;
  r->spec.read_mix_percent = 70;
  r->spec.block_size_bytes = 65536;
  r->spec.threads = 4;
  g_array_set_size (data->levels, 0);
  g_array_set_size (data->steps, 0);
  data->step_time_s = 2.5;
  ds_sweep_update_knee (data);
  g_free (text);
  text = ds_test_report (r, DS_UNITS_MB);
  ds_test_assert_lines (text, short_want);
}
END_TEST

/* Over threads, steady, the last level cut, Little off at every level:
 * the rule for steady, each note, the levels Little flags. */
START_TEST (test_report_threads)
{
  g_autoptr (DsResult) r = threads_result ();
  DsSweepData *data = r->data;
  g_autofree char *text = NULL;
  const char *const want[] = {
    "Workload              : randread, 4 KiB, queue depth 8 per thread, threads 1 to 4 (3 levels)",
    "Step Time             : 10 s per level, or less once IOPS is steady",
    "Steady When           : the fitted line through the last 5 intervals' IOPS moves < 5 % of their mean",
    "Knee                  : no knee: IOPS still grow at the last level (+100 % from 1 thread (QD 8 each) "
    "to 2 threads (QD 8 each)): not saturated yet; sweep further (--to)",
    "Knee Rule             : the first level past which no level gains > 10 % IOPS, while the next "
    "level's p99 grows > 20 %",
    "",
    "QD      Threads  In flight       IOPS       Rate       Mean        p50        p99      p99.9     Little       Time",
    "8             1          8        500 0.488 MiB/s   2.000 ms   1.800 ms   2.200 ms   4.400 ms     1.00 !     10.0 s",
    "8             2         16       1000 3.906 MiB/s   2.000 ms   1.800 ms   2.200 ms   4.400 ms     2.00 !  10.0 s st",
    "8             4         32       2000 7.812 MiB/s   2.000 ms   1.800 ms   2.300 ms   4.600 ms     4.00 ! 10.0 s cut",
    "",
    "< the knee.  Little: IOPS × mean latency, the I/Os the device really had in flight; st: ended "
    "early, steady; cut: the level was stopped.",
    "! Little's law is off by more than 10 % at 8, 16, 32 in flight: the device did not see the load "
    "asked for (time lost between a completion and the next submission, a capped depth, or a level "
    "too short to settle).",
    "",
    NULL,
  };

  data->steady = TRUE;
  g_array_index (data->steps, DsSweepStep, 0).bytes_per_s = 512 * 1000;
  g_array_index (data->steps, DsSweepStep, 2).complete = FALSE;
  ds_sweep_update_knee (data);
  text = ds_test_report (r, DS_UNITS_MIB);
  ds_test_assert_lines (text, want);
}
END_TEST

int
main (void)
{
  const TTest *const tests[] = {
    test_compare_rows, test_compare_rows_threads, test_compare_curves, test_fio_threads, test_fio_levels,
    test_fio_refused, test_json_written, test_json_read, test_json_refused, test_report, test_report_threads,
  };

  return ds_test_run_tests ("kind-sweep", tests, G_N_ELEMENTS (tests));
}
