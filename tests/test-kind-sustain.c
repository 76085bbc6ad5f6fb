/* test-kind-sustain.c: the Sustained Write kind's hooks
 * (core/kinds/sustain/ds-sustain-compare.c, -fio.c, -json.c, -text.c)
 *
 * Unit suite: no root, no device.  What they promise: compare rows for
 * the rate, the bytes, the start, the cliff in bytes and time, the floor,
 * the dips, p99 and the rate after the pause, an empty cell for what was
 * not measured, the cliff's words as a note; the rate against the bytes
 * written with the cliff marked; the fio job, one pass over the region
 * (or for the run's time) in whole blocks, then the recovery after its
 * startdelay, refused without a region; the JSON beside the workload's,
 * the analysis recomputed on load, each bad member refused by name; the
 * report word for word, sizes in kB to TB, its series table thinned to 40
 * rows with the cliff's interval kept.  tests/test-sustain.c tests the
 * analysis itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-sustain.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MB 1e6

/* A write series of one-second intervals at @mb_per_s. */
static GArray *
series (const double *mb_per_s,
        unsigned      n)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));

  for (unsigned i = 0; i < n; i++)
    {
      DsIntervalPoint p = { .t_s = i + 1.0 };

      p.write.bytes_per_s = mb_per_s[i] * MB;
      p.write.iops = p.write.bytes_per_s / (1 << 20);
      p.write.p99_s = 0.002 * (i + 1);
      g_array_append_val (a, p);
    }
  return a;
}

/* 1 MiB sequential writes at QD 4 over a 1328 MB region, 41 s: 10 s at
 * 100 MB/s, one at 28, then 30 s at 10: the cliff after 1.02 GB (10.2 s). */
static DsResult *
sustain_result (void)
{
  DsResult *r = ds_test_result_new (DS_BENCH_SUSTAIN, "/dev/sdz", TRUE);
  DsSustainData *data = r->data;
  DsWorkloadDir *w = &data->run->write;
  double rates[41];

  for (unsigned i = 0; i < 41; i++)
    rates[i] = i < 10 ? 100 : i == 10 ? 28 : 10;
  r->spec.pattern = DS_PATTERN_WRITE;
  r->spec.block_size_bytes = 1 << 20;
  r->spec.queue_depth = 4;
  r->spec.duration_ns = 0;
  ds_test_fix_run (r, "io_uring");
  data->run->series = series (rates, 41);
  data->run->interval_s = 1;
  data->run->runtime_s = 41;
  data->run->engine = g_strdup ("io_uring");
  w->present = TRUE;
  w->io_bytes = UINT64_C (1328) * 1000 * 1000;
  w->ios = 1266;
  w->bytes_per_s = w->io_bytes / 41.0;
  w->iops = w->ios / 41.0;
  w->lat_min_s = 0.001;
  w->lat_mean_s = 0.01;
  w->lat_max_s = 0.1;
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    w->lat_percentile_s[k] = 0.001 * (k + 1);
  data->region_bytes = w->io_bytes;
  ds_sustain_analyse ((const DsIntervalPoint *) data->run->series->data, 41, &data->analysis);
  return r;
}

/* 1.02 GB written again after 30 s idle, at 90 MB/s. */
static const DsSustainRecovery recovery_30s = {
  .pause_s = 30, .bytes = 1020000000, .runtime_s = 11.5, .bytes_per_s = 90 * MB,
};

static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ds_sustain_compare_rows (r, &sink->figures);
}

/* ---- compare ------------------------------------------------------------- */

/* The figures in the report's order, the cliff's words as the note; the
 * rate after the pause only with one; what is not measured, empty. */
START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  const char *const want[] = {
    "[Sustained Write]",
    "write.bytes_per_s|Average rate||rate|+|32390243.902439", "write.bytes|Written||bytes|+|1328000000",
    "start_bytes_per_s|Rate at the start||rate|+|100000000", "cliff_bytes|Cliff after|bytes written|bytes|+|1020000000",
    "cliff_t|Cliff after|time|time|+|10.2", "floor_bytes_per_s|Floor (rate past the cliff)||rate|+|10000000",
    "dips|Dips||count|-|0", "write.lat_p99|Latency p99||time|-|0.013",
    "recovery.bytes_per_s|Rate after the pause||rate|+|90000000",
    NULL,
  };
  const char *const note[] = {
    "after 1.02 GB (10.2 s): the rate fell below 50 % of the start rate and stayed there: a write cache "
    "(or SLC cache) of about 1.02 GB", NULL,
  };
  const char *const empty[] = {
    "[Sustained Write]",
    "write.bytes_per_s|Average rate||rate|+|-", "write.bytes|Written||bytes|+|-",
    "start_bytes_per_s|Rate at the start||rate|+|-", "cliff_bytes|Cliff after|bytes written|bytes|+|-",
    "cliff_t|Cliff after|time|time|+|-", "floor_bytes_per_s|Floor (rate past the cliff)||rate|+|-",
    "dips|Dips||count|-|-", "write.lat_p99|Latency p99||time|-|-",
    NULL,
  };
  const char *const no_cliff[] = {
    "none: the rate never stayed below 50 % of the start rate over the 0.0 kB written (a cache larger "
    "than that would not show)", NULL,
  };
  DsTestSink sink;

  data->has_recovery = TRUE;
  data->recovery = recovery_30s;
  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ds_test_assert_list (sink.notes, note);
  ds_test_sink_clear (&sink);

  /* No time counted: no average, the rest as it was. */
  data->has_recovery = FALSE;
  data->run->runtime_s = 0;
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 9);
  ck_assert_str_eq (sink.rows->pdata[1], "write.bytes_per_s|Average rate||rate|+|-");
  ck_assert_str_eq (sink.rows->pdata[2], "write.bytes|Written||bytes|+|1328000000");
  ds_test_sink_clear (&sink);

  /* Nothing written, no analysis (no dips array): every cell empty. */
  ds_workload_dir_clear (&data->run->write);
  ds_sustain_analysis_clear (&data->analysis);
  memset (&data->analysis, 0, sizeof data->analysis);
  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, empty);
  ds_test_assert_list (sink.notes, no_cliff);
  ds_test_sink_clear (&sink);
}
END_TEST

/* The rate against the bytes written so far (rate × the interval's
 * length; a time that goes back adds nothing), the cliff marked; no
 * series, no curve. */
START_TEST (test_compare_curves)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  DsIntervalPoint *p;
  DsTestSink sink;

  ds_test_sink_init (&sink);
  ds_sustain_compare_curves (r, &sink.curves);
  ck_assert_uint_eq (sink.curve_lines->len, 1);
  ck_assert_msg (g_str_has_prefix (sink.curve_lines->pdata[0], "write.rate|Write rate against bytes written|"
                                   "bytes written|bytes|0|write rate|rate|0|1020000000 cliff|(100000000,100000000) "
                                   "(200000000,100000000) "), "%s", (char *) sink.curve_lines->pdata[0]);
  ck_assert_msg (g_str_has_suffix (sink.curve_lines->pdata[0], " (1000000000,100000000) (1028000000,28000000) "
                                   "(1038000000,10000000) (1048000000,10000000) (1058000000,10000000) "
                                   "(1068000000,10000000) (1078000000,10000000) (1088000000,10000000) "
                                   "(1098000000,10000000) (1108000000,10000000) (1118000000,10000000) "
                                   "(1128000000,10000000) (1138000000,10000000) (1148000000,10000000) "
                                   "(1158000000,10000000) (1168000000,10000000) (1178000000,10000000) "
                                   "(1188000000,10000000) (1198000000,10000000) (1208000000,10000000) "
                                   "(1218000000,10000000) (1228000000,10000000) (1238000000,10000000) "
                                   "(1248000000,10000000) (1258000000,10000000) (1268000000,10000000) "
                                   "(1278000000,10000000) (1288000000,10000000) (1298000000,10000000) "
                                   "(1308000000,10000000) (1318000000,10000000) (1328000000,10000000)"),
                 "%s", (char *) sink.curve_lines->pdata[0]);
  ds_test_sink_clear (&sink);

  g_array_set_size (data->run->series, 3);
  p = (DsIntervalPoint *) data->run->series->data;
  p[0].t_s = 0.5;
  p[1].t_s = 2.5;
  p[1].write.bytes_per_s = 50 * MB;
  p[2].t_s = 2;
  data->analysis.cliff_found = FALSE;
  ds_test_sink_init (&sink);
  ds_sustain_compare_curves (r, &sink.curves);
  ck_assert_uint_eq (sink.curve_lines->len, 1);
  ck_assert_str_eq (strrchr (sink.curve_lines->pdata[0], '|') - 8,
                    "|- cliff|(50000000,100000000) (150000000,50000000) (150000000,100000000)");
  ds_test_sink_clear (&sink);

  for (guint i = 0; i < 2; i++)
    {
      if (i == 0)
        g_array_set_size (data->run->series, 0);
      else
        g_clear_pointer (&data->run->series, g_array_unref);
      ds_test_sink_init (&sink);
      ds_sustain_compare_curves (r, &sink.curves);
      ck_assert_uint_eq (sink.curve_lines->len, 0);
      ds_test_sink_clear (&sink);
    }
}
END_TEST

/* ---- fio ------------------------------------------------------------------ */

/* One sequential pass over the region in whole blocks, the note on
 * fio's bandwidth log; the recovery after the pause, over the bytes
 * written again in whole blocks. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  g_autofree char *job = NULL;
  const char *const want[] = {
    "[global]", "filename=/dev/sdz", "direct=1", "ioengine=io_uring", "fixedbufs=1", "registerfiles=1",
    "thread=1", "group_reporting=1", "refill_buffers=1", "norandommap=1", "randrepeat=0", "randseed=42",
    "lat_percentiles=1",
    "; random offsets: multiples of each job's (smallest) block size, fio's default blockalign, as the run's",
    "; one pass over 1328000000 bytes",
    "",
    "[sustain]", "rw=write", "bs=1048576", "iodepth=4", "numjobs=1", "offset=0", "size=1327497216",
    "; for the rate over time (the cliff), run fio with --write_bw_log=sustain --log_avg_msec=1000 and "
    "import it with import-fio --logs",
    "",
    "[recovery]", "stonewall=1", "rw=write", "bs=1048576", "iodepth=4", "numjobs=1", "startdelay=30000ms",
    "offset=0", "size=1019215872",
    "",
    NULL,
  };

  data->has_recovery = TRUE;
  data->recovery = recovery_30s;
  ds_sustain_options (&r->spec)->pause_ns = UINT64_C (30000000000);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "; WARNING", "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it");
  ds_test_assert_lines (strstr (job, "\n[global]\n") + 1, want);
}
END_TEST

/* At random, for at most the run's time, from 1 GiB in over 10 GB (the
 * spec's region, the data naming none); a recovery shorter than a block
 * writes one; none without a pause; refused without any region. */
START_TEST (test_fio_variants)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  g_autofree char *job = NULL;
  g_autoptr (GError) error = NULL;

  data->random = TRUE;
  data->region_bytes = 0;
  data->has_recovery = TRUE;
  data->recovery.bytes = 1000;
  ds_sustain_options (&r->spec)->pause_ns = 1500000;
  r->spec.duration_ns = UINT64_C (60) * 1000 * 1000 * 1000;
  r->spec.offset_bytes = UINT64_C (1) << 30;
  r->spec.span_bytes = UINT64_C (10) * 1000 * 1000 * 1000;
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "; one pass",
                             "; one pass over 9999220736 bytes, or the run's time if that ends first");
  DS_TEST_ASSERT_LINES_WITH (job, "rw=", "rw=randwrite rw=write");
  DS_TEST_ASSERT_LINES_WITH (job, "blockalign=", "blockalign=1048576");
  DS_TEST_ASSERT_LINES_WITH (job, "offset=", "offset=1073741824 offset=1073741824");
  DS_TEST_ASSERT_LINES_WITH (job, "size=", "size=9999220736 size=1048576");
  DS_TEST_ASSERT_LINES_WITH (job, "runtime=", "runtime=60000ms");
  DS_TEST_ASSERT_LINES_WITH (job, "startdelay=", "startdelay=2ms");

  ds_sustain_options (&r->spec)->pause_ns = 0;
  g_clear_pointer (&job, g_free);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "[", "[global] [sustain]");

  /* No data: the spec's region, its pattern not known (sequential). */
  {
    gpointer saved = r->data;

    r->data = NULL;
    g_clear_pointer (&job, g_free);
    job = ds_test_fio_job (r, NULL);
    r->data = saved;
    DS_TEST_ASSERT_LINES_WITH (job, "[", "[global] [sustain]");
    DS_TEST_ASSERT_LINES_WITH (job, "size=", "size=9999220736");
    DS_TEST_ASSERT_LINES_WITH (job, "rw=", "rw=write");
  }

  r->spec.span_bytes = 0;
  r->target.size_bytes = 0;
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, "a Sustained Write result without its region cannot be expressed as a "
                    "fio job, because it does not say how much it wrote");
}
END_TEST

/* ---- JSON ----------------------------------------------------------------- */

/* The sustain's members after the workload's, each as the header says:
 * null for no cliff, the dips and their period, the rules, the recovery
 * with its ratio to the start rate (0 without one), or null. */
START_TEST (test_json_written)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  DsSustainDip dips[] = { { 4, 0.25 }, { 9, 0.5 } };
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;

  data->random = TRUE;
  ds_sustain_analysis_clear (&data->analysis);
  data->analysis = (DsSustainAnalysis) { .start_bytes_per_s = 0, .floor_bytes_per_s = 2.5e6,
                                         .dips = g_array_new (FALSE, FALSE, sizeof (DsSustainDip)),
                                         .dip_period_s = 5 };
  g_array_append_vals (data->analysis.dips, dips, 2);
  data->has_recovery = TRUE;
  data->recovery = (DsSustainRecovery) { .pause_s = 30, .bytes = 1000, .runtime_s = 1.5, .bytes_per_s = 0.5 };
  node = ds_sustain_data_to_json (data);
  o = json_node_get_object (node);
  DS_TEST_ASSERT_MEMBERS (o, "runtime_s engine interval_s write cpu series random region_bytes start_bytes_per_s "
                          "cliff_bytes cliff_t_s floor_bytes_per_s dips dip_period_s rule recovery");
  for (const char *const *m = (const char *const[]) { "runtime_s", "engine", "interval_s", "write", "cpu",
                                                      "series", NULL }; *m != NULL; m++)
    json_object_remove_member (o, *m);
  DS_TEST_ASSERT_JSON (node, "{\"random\":true,\"region_bytes\":1328000000,\"start_bytes_per_s\":0.0,"
                       "\"cliff_bytes\":null,\"cliff_t_s\":null,\"floor_bytes_per_s\":2500000.0,"
                       "\"dips\":[{\"t_s\":4.0,\"depth_ratio\":0.25},{\"t_s\":9.0,\"depth_ratio\":0.5}],"
                       "\"dip_period_s\":5.0,\"rule\":{\"start_fraction\":0.10000000000000001,"
                       "\"cliff_fraction\":0.5,\"dip_fraction\":0.69999999999999996},"
                       "\"recovery\":{\"pause_s\":30.0,\"bytes\":1000,\"runtime_s\":1.5,\"bytes_per_s\":0.5,"
                       "\"ratio\":0.0}}");

  /* A cliff; a start rate: the recovery's ratio to it; no recovery. */
  data->analysis.cliff_found = TRUE;
  data->analysis.cliff_bytes = 1.5e9;
  data->analysis.cliff_t_s = 12.5;
  data->analysis.start_bytes_per_s = 2;
  data->analysis.dip_period_s = 0;
  g_clear_pointer (&node, json_node_unref);
  node = ds_sustain_data_to_json (data);
  o = json_node_get_object (node);
  DS_TEST_ASSERT_MEMBER (o, "cliff_bytes", "1500000000.0");
  DS_TEST_ASSERT_MEMBER (o, "cliff_t_s", "12.5");
  DS_TEST_ASSERT_MEMBER (o, "dip_period_s", "null");
  DS_TEST_ASSERT_MEMBER (json_object_get_object_member (o, "recovery"), "ratio", "0.25");
  data->has_recovery = FALSE;
  g_clear_pointer (&node, json_node_unref);
  node = ds_sustain_data_to_json (data);
  DS_TEST_ASSERT_MEMBER (json_node_get_object (node), "recovery", "null");
}
END_TEST

/* Read back: the same file again; the analysis is the series', whatever
 * the file says; a recovery read back, null none. */
START_TEST (test_json_read)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) again = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  DsSustainData *b;
  JsonObject *o;

  data->has_recovery = TRUE;
  data->recovery = (DsSustainRecovery) { .pause_s = 30, .bytes = 1000, .runtime_s = 1.5, .bytes_per_s = 0.5 };
  node = ds_sustain_data_to_json (data);
  first = json_to_string (node, FALSE);
  o = json_node_get_object (node);
  json_object_set_double_member (o, "start_bytes_per_s", 1);
  json_object_set_double_member (o, "floor_bytes_per_s", 1);
  json_object_set_null_member (o, "cliff_bytes");
  json_object_set_array_member (o, "dips", json_array_new ());
  text = ds_json_to_text (node, NULL);
  b = ds_test_read_results (DS_BENCH_SUSTAIN, text, &error);
  ck_assert_msg (b != NULL, "%s", error->message);
  ck_assert (b->analysis.cliff_found && b->has_recovery && !b->random);
  ck_assert_double_eq (b->analysis.start_bytes_per_s, 100 * MB);
  again = ds_sustain_data_to_json (b);
  DS_TEST_ASSERT_JSON (again, first);
  ds_sustain_data_free (b);

  data->has_recovery = FALSE;
  g_clear_pointer (&node, json_node_unref);
  node = ds_sustain_data_to_json (data);
  g_free (text);
  text = ds_json_to_text (node, NULL);
  b = ds_test_read_results (DS_BENCH_SUSTAIN, text, &error);
  ck_assert_msg (b != NULL, "%s", error->message);
  ck_assert (!b->has_recovery);
  ck_assert_double_eq (b->recovery.bytes_per_s, 0);
  ds_sustain_data_free (b);
}
END_TEST

/* Each bad member refused by name; a workload's results are not a
 * sustained write's. */
START_TEST (test_json_refused)
{
  static const DsTestEdit cases[] = {
    { "\"random\" : false,", "", "results.random is missing" },
    { "\"random\" : false", "\"random\" : \"no\"", "results.random is not true or false" },
    { "\"region_bytes\" : 1328000000", "\"region_bytes\" : 1.5", "results.region_bytes is not a whole number" },
    { "\"region_bytes\" : 1328000000", "\"region_bytes\" : -2", "results.region_bytes is out of range "
      "(negative or above 9223372036854775807; expected 0 to 9223372036854775807)" },
    { "\"recovery\" : {", "\"recovered\" : {", "results.recovery is missing" },
    { "\"recovery\" : {", "\"recovery\" : [], \"x\" : {", "results.recovery is not an object" },
    { "\"pause_s\" : 30.0,", "", "results.recovery.pause_s is missing" },
    { "\"pause_s\" : 30.0", "\"pause_s\" : 1e8",
      "results.recovery.pause_s is out of range (1e+08; expected 0 to 1e+07)" },
    { "\"bytes\" : 1000", "\"bytes\" : true", "results.recovery.bytes is not a whole number" },
    { "\"runtime_s\" : 1.5", "\"runtime_s\" : -1.5",
      "results.recovery.runtime_s is out of range (-1.5; expected 0 to 1e+07)" },
    { "\"bytes_per_s\" : 0.5", "\"bytes_per_s\" : 2e15",
      "results.recovery.bytes_per_s is out of range (2e+15; expected 0 to 1e+15)" },
    { "\"runtime_s\" : 41.0,", "", "results.runtime_s is missing" },
  };
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  data->has_recovery = TRUE;
  data->recovery = (DsSustainRecovery) { .pause_s = 30, .bytes = 1000, .runtime_s = 1.5, .bytes_per_s = 0.5 };
  node = ds_sustain_data_to_json (data);
  text = ds_json_to_text (node, NULL);
  ds_test_assert_edits_refused (DS_BENCH_SUSTAIN, text, cases, G_N_ELEMENTS (cases));
  ds_test_assert_other_kind_refused (DS_BENCH_SUSTAIN, "results.random is missing");
}
END_TEST

/* ---- text ----------------------------------------------------------------- */

/* The whole report: 41 intervals, every second one shown, the last and
 * the cliff's (between 10 and 11 s) kept; the recovery against the
 * start rate. */
START_TEST (test_report)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *want = g_string_new (
    "Workload              : sequential write, 1 MiB blocks, queue depth 4, 1.33 GB region\n"
    "Written               : 1.33 GB in 41.0 s: 32.4 MB/s (total bytes / total time)\n"
    "Start Rate            : 100.0 MB/s (the first 10 % of the bytes)\n"
    "Cliff                 : after 1.02 GB (10.2 s): the rate fell below 50 % of the start rate and "
    "stayed there: a write cache (or SLC cache) of about 1.02 GB\n"
    "Floor                 : 10.0 MB/s (after the cliff)\n"
    "Dips                  : none below 70 % of the median rate\n"
    "Recovery              : after 30 s idle: 90.0 MB/s over 1.02 GB (90 % of the start rate)\n"
    "Latency               : mean 10.00 ms, p50 7.000 ms, p99 13.00 ms\n"
    "\n"
    "Per 1 s (every few intervals; the JSON has each):\n"
    "Time                Rate           p99       Written\n"
    "1.0 s         100.0 MB/s      2.000 ms      100.0 MB\n"
    "3.0 s         100.0 MB/s      6.000 ms      300.0 MB\n"
    "5.0 s         100.0 MB/s      10.00 ms      500.0 MB\n"
    "7.0 s         100.0 MB/s      14.00 ms      700.0 MB\n"
    "9.0 s         100.0 MB/s      18.00 ms      900.0 MB\n"
    "11.0 s         28.0 MB/s      22.00 ms cliff 1.03 GB\n");

  for (guint t = 13; t <= 41; t += 2)
    g_string_append_printf (want, "%.1f s         10.0 MB/s      %.2f ms       %.2f GB\n", (double) t,
                            2.0 * t, (1028 + 10 * (t - 11)) / 1e3);
  data->has_recovery = TRUE;
  data->recovery = recovery_30s;
  text = ds_test_report (r, DS_UNITS_MB);
  lines = g_strsplit (want->str, "\n", -1);
  g_string_free (want, TRUE);
  ds_test_assert_lines (text, (const char *const *) lines);
}
END_TEST

/* Short series: all of them, no note; dips with and without a period;
 * sizes from kB to TB; no cliff; nothing written: said, and no more. */
START_TEST (test_report_parts)
{
  g_autoptr (DsResult) r = sustain_result ();
  DsSustainData *data = r->data;
  DsSustainDip dips[] = { { 4, 0.25 }, { 9, 0.5 } };
  g_autofree char *text = NULL;

  g_array_set_size (data->run->series, 3);
  data->random = TRUE;
  data->region_bytes = UINT64_C (5) * 1000 * 1000 * 1000 * 1000;
  data->run->write.io_bytes = 999;
  data->analysis.cliff_found = FALSE;
  g_array_append_vals (data->analysis.dips, dips, 2);
  data->analysis.dip_period_s = 5;
  text = ds_test_report (r, DS_UNITS_MB);
  DS_TEST_ASSERT_LINES_WITH (text, "Workload", "Workload              : random write, 1 MiB blocks, queue depth 4, "
                             "5.00 TB region");
  DS_TEST_ASSERT_LINES_WITH (text, "Written ", "Written               : 1.0 kB in 41.0 s: 32.4 MB/s (total bytes / "
                             "total time)");
  DS_TEST_ASSERT_LINES_WITH (text, "Cliff", "Cliff                 : none: the rate never stayed below 50 % of the "
                             "start rate over the 1.0 kB written (a cache larger than that would not show)");
  DS_TEST_ASSERT_LINES_WITH (text, "Floor", "Floor                 : 10.0 MB/s (the whole run: no cliff)");
  DS_TEST_ASSERT_LINES_WITH (text, "Dips", "Dips                  : 2 below 70 % of the median rate, every 5.0 s, "
                             "down to 0.38 of it on average");
  ck_assert_msg (g_str_has_suffix (text, "\nPer 1 s:\nTime                Rate           p99       Written\n"
                                   "1.0 s         100.0 MB/s      2.000 ms      100.0 MB\n"
                                   "2.0 s         100.0 MB/s      4.000 ms      200.0 MB\n"
                                   "3.0 s         100.0 MB/s      6.000 ms      300.0 MB\n"), "%s", text);

  g_array_set_size (data->analysis.dips, 1);
  data->analysis.dip_period_s = 0;
  data->region_bytes = 2500;
  data->run->write.io_bytes = 2500000000;
  g_clear_pointer (&text, g_free);
  text = ds_test_report (r, DS_UNITS_MB);
  DS_TEST_ASSERT_LINES_WITH (text, "Dips", "Dips                  : 1 below 70 % of the median rate, at 4.0 s, "
                             "down to 0.25 of it");
  DS_TEST_ASSERT_LINES_WITH (text, "Workload", "Workload              : random write, 1 MiB blocks, queue depth 4, "
                             "2.5 kB region");
  DS_TEST_ASSERT_LINES_WITH (text, "Written ", "Written               : 2.50 GB in 41.0 s: 32.4 MB/s (total bytes / "
                             "total time)");

  data->run->write.ios = 0;
  g_clear_pointer (&text, g_free);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_str_eq (text, "Workload              : random write, 1 MiB blocks, queue depth 4, 2.5 kB region\n"
                          "Written               : nothing\n");
}
END_TEST

int
main (void)
{
  const TTest *const tests[] = {
    test_compare_rows, test_compare_curves, test_fio_job, test_fio_variants,
    test_json_written, test_json_read, test_json_refused, test_report, test_report_parts,
  };

  return ds_test_run_tests ("kind-sustain", tests, G_N_ELEMENTS (tests));
}
