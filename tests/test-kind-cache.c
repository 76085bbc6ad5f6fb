/* test-kind-cache.c: the Cache Probe kind's hooks
 * (core/kinds/cache/ds-cache-compare.c, -fio.c, -json.c)
 *
 * Unit suite: no root, no device.  What they promise: compare rows per
 * working set ("set.67108864.iops") and the estimate's four, an empty
 * cell for a set without I/O or a figure of 0, the verdict's words as a
 * note; IOPS and access time against the set with the estimate marked;
 * the fio job, a prefill (or, writing, the random writes) and the random
 * reads per set, in whole blocks, refused without sets; the JSON, the
 * estimate recomputed on load, each bad member refused by name; the
 * words of every verdict and the report word for word.
 * tests/test-cache.c tests the estimate's rules.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-cache.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MIB (UINT64_C (1) << 20)

/* 4 KiB random reads at QD 1, 2 s a set, over 16, 32, 64 and 128 MiB:
 * 0.125, 0.125, 2 and 4 ms a read (8000, 8000, 500, 250 IOPS), so a
 * cache between 32 and 64 MiB. */
static DsResult *
cache_result (gboolean write)
{
  static const double ms[] = { 0.125, 0.125, 2, 4 };
  DsResult *r = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", write);
  DsCacheData *data = r->data;

  ds_test_fix_run (r, "io_uring");
  data->write = write;
  data->block_size_bytes = 4096;
  data->queue_depth = 1;
  data->set_time_s = 2;
  for (guint i = 0; i < G_N_ELEMENTS (ms); i++)
    {
      DsCacheSet s = { .bytes = (16 * MIB) << i, .complete = TRUE, .ios = 1000, .iops = 1e3 / ms[i],
                       .bytes_per_s = 4096e3 / ms[i], .lat_mean_s = ms[i] / 1e3, .lat_p99_s = 2 * ms[i] / 1e3,
                       .read_lat_mean_s = write ? 0.5e-3 * (i + 1) : 0, .read_lat_p99_s = write ? 1e-3 : 0 };

      g_array_append_val (data->sets, s);
    }
  (write ? ds_cache_estimate_writes : ds_cache_estimate) (data->sets, &data->estimate);
  return r;
}

static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ds_cache_compare_rows (r, &sink->figures);
  ds_cache_compare_curves (r, &sink->curves);
}

static DsCacheSet *
set_at (const DsResult *r,
        guint           i)
{
  return &g_array_index (((DsCacheData *) r->data)->sets, DsCacheSet, i);
}

/* ---- compare ------------------------------------------------------------- */

/* Three figures a set, named by its size, then the estimate's four; the
 * words as the note; both curves with the estimate marked. */
START_TEST (test_compare)
{
  g_autoptr (DsResult) r = cache_result (FALSE);
  const char *const want[] = {
    "[Cache Probe, by working set]",
    "set.16777216.iops|16.8 MB|IOPS|iops|+|8000", "set.16777216.lat_mean|16.8 MB|access time|time|-|0.000125",
    "set.16777216.lat_p99|16.8 MB|p99 access time|time|-|0.00025",
    "set.33554432.iops|33.6 MB|IOPS|iops|+|8000", "set.33554432.lat_mean|33.6 MB|access time|time|-|0.000125",
    "set.33554432.lat_p99|33.6 MB|p99 access time|time|-|0.00025",
    "set.67108864.iops|67.1 MB|IOPS|iops|+|500", "set.67108864.lat_mean|67.1 MB|access time|time|-|0.002",
    "set.67108864.lat_p99|67.1 MB|p99 access time|time|-|0.004",
    "set.134217728.iops|134 MB|IOPS|iops|+|250", "set.134217728.lat_mean|134 MB|access time|time|-|0.004",
    "set.134217728.lat_p99|134 MB|p99 access time|time|-|0.008",
    "[Cache Probe estimate]",
    /* 64 MiB × (4 - 2) / (4 - 0.125): the share of its reads the cache held */
    "estimate.bytes|Cache size||bytes|+|34636833.0322581",
    "estimate.drop|IOPS past the edge / before it||ratio|+|0.0625",
    "estimate.hot_latency|Access time, from the cache||time|-|0.000125",
    "estimate.cold_latency|Access time, past the cache||time|-|0.004",
    NULL,
  };
  const char *const note[] = {
    "about 33 MiB (between 32 MiB and 64 MiB): reads of 32 MiB stay fast; past it IOPS drop to 0.06 of that",
    NULL,
  };
  const char *const curves[] = {
    "iops|IOPS against the working set|working set|bytes|1|IOPS|iops|0|34636833.0322581 estimate|"
    "(16777216,8000) (33554432,8000) (67108864,500) (134217728,250)",
    "lat_mean|Access time against the working set|working set|bytes|1|access time|time|0|34636833.0322581 estimate|"
    "(16777216,0.000125) (33554432,0.000125) (67108864,0.002) (134217728,0.004)",
    NULL,
  };
  DsTestSink sink;

  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ds_test_assert_list (sink.notes, note);
  ds_test_assert_list (sink.curve_lines, curves);
  ds_test_sink_clear (&sink);
}
END_TEST

/* A set without I/O: no figures, a gap in both curves; a p99 of 0: none;
 * no estimate: no size, no drop, no mark; the writes' section; no sets:
 * the estimate's rows only, no curves. */
START_TEST (test_compare_empty)
{
  g_autoptr (DsResult) r = cache_result (TRUE);
  DsCacheData *data = r->data;
  GArray *sets = data->sets;
  DsTestSink sink;

  set_at (r, 1)->ios = 0;
  set_at (r, 3)->lat_p99_s = 0;
  data->estimate.found = FALSE;
  data->estimate.verdict = DS_CACHE_VERDICT_NO_EDGE;
  data->estimate.cold_latency_s = 0;
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 18);
  ck_assert_str_eq (sink.rows->pdata[0], "[Cache Probe, writes by working set]");
  ck_assert_str_eq (sink.rows->pdata[4], "set.33554432.iops|33.6 MB|IOPS|iops|+|-");
  ck_assert_str_eq (sink.rows->pdata[5], "set.33554432.lat_mean|33.6 MB|access time|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[6], "set.33554432.lat_p99|33.6 MB|p99 access time|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[11], "set.134217728.lat_mean|134 MB|access time|time|-|0.004");
  ck_assert_str_eq (sink.rows->pdata[12], "set.134217728.lat_p99|134 MB|p99 access time|time|-|-");
  ck_assert_str_eq (sink.rows->pdata[14], "estimate.bytes|Cache size||bytes|+|-");
  ck_assert_str_eq (sink.rows->pdata[15], "estimate.drop|IOPS past the edge / before it||ratio|+|-");
  ck_assert_str_eq (sink.rows->pdata[16], "estimate.hot_latency|Access time, from the cache||time|-|0.000125");
  ck_assert_str_eq (sink.rows->pdata[17], "estimate.cold_latency|Access time, past the cache||time|-|-");
  ck_assert_uint_eq (sink.curve_lines->len, 2);
  ck_assert_str_eq (strrchr (sink.curve_lines->pdata[0], '|') - 11,
                    "|- estimate|(16777216,8000) (33554432,-) (67108864,500) (134217728,250)");
  ck_assert_str_eq (strrchr (sink.curve_lines->pdata[1], '|') - 11,
                    "|- estimate|(16777216,0.000125) (33554432,-) (67108864,0.002) (134217728,0.004)");
  ds_test_sink_clear (&sink);

  for (guint i = 0; i < 2; i++)
    {
      g_array_set_size (sets, 0);
      data->sets = i == 0 ? sets : NULL;
      ds_test_sink_init (&sink);
      ds_cache_compare_rows (r, &sink.figures);
      ds_cache_compare_curves (r, &sink.curves);
      ck_assert_uint_eq (sink.rows->len, 5);
      ck_assert_str_eq (sink.rows->pdata[0], "[Cache Probe estimate]");
      ck_assert_uint_eq (sink.curve_lines->len, 0);
      ds_test_sink_clear (&sink);
    }
  data->sets = sets;
}
END_TEST

/* ---- fio ------------------------------------------------------------------ */

/* Per set from byte 0: the prefill, read once sequentially in 1 MiB
 * blocks (4 at once with io_uring), then random reads for the set's
 * time. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = cache_result (FALSE);
  g_autofree char *job = NULL;
  const char *const want[] = {
    "[global]", "filename=/dev/sdz", "direct=1", "ioengine=io_uring", "fixedbufs=1", "registerfiles=1",
    "thread=1", "group_reporting=1", "refill_buffers=1", "norandommap=1", "randrepeat=0", "randseed=42",
    "lat_percentiles=1",
    "; random offsets: multiples of each job's (smallest) block size, fio's default blockalign, as the run's",
    "; 2 working sets from byte 0; the random reads of set-N are the figures",
    "",
    "[fill-0]", "stonewall=1", "rw=read", "bs=1048576", "iodepth=4", "numjobs=1", "offset=0", "size=16777216",
    "",
    "[set-0]", "stonewall=1", "rw=randread", "bs=4096", "blockalign=4096", "iodepth=1", "numjobs=1",
    "offset=0", "size=16777216", "time_based=1", "runtime=2000ms",
    "",
    "[fill-1]", "stonewall=1", "rw=read", "bs=1048576", "iodepth=4", "numjobs=1", "offset=0", "size=33554432",
    "",
    "[set-1]", "stonewall=1", "rw=randread", "bs=4096", "blockalign=4096", "iodepth=1", "numjobs=1",
    "offset=0", "size=33554432", "time_based=1", "runtime=2000ms",
    "",
    NULL,
  };

  g_array_set_size (((DsCacheData *) r->data)->sets, 2);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "; reads only", "; reads only");
  ds_test_assert_lines (strstr (job, "\n[global]\n") + 1, want);
}
END_TEST

/* Writing: each set written once at random at the probe's depth before
 * its reads, the comment saying which are the figures; a synchronous
 * engine prefills one at a time; a set under a block is left out, one
 * not in whole blocks cut to them, a prefill never larger than its set;
 * the spec's block and time where the data has none. */
START_TEST (test_fio_variants)
{
  g_autoptr (DsResult) r = cache_result (TRUE);
  DsCacheData *data = r->data;
  g_autofree char *job = ds_test_fio_job (r, NULL);

  DS_TEST_ASSERT_LINES_WITH (job, "; WARNING", "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it");
  DS_TEST_ASSERT_LINES_WITH (job, "; 4 working", "; 4 working sets from byte 0; the random writes of fill-N are "
                             "the figures, the reads of set-N each set's read latency");
  DS_TEST_ASSERT_LINES_WITH (job, "rw=", "rw=randwrite rw=randread rw=randwrite rw=randread rw=randwrite "
                             "rw=randread rw=randwrite rw=randread");
  DS_TEST_ASSERT_COUNT (job, "bs=4096", 8);

  data->write = FALSE;
  data->queue_depth = 8;
  data->block_size_bytes = 0;
  data->set_time_s = 0;
  r->spec.block_size_bytes = 65536;
  r->spec.duration_ns = 1500 * 1000;
  set_at (r, 0)->bytes = 65535;
  set_at (r, 1)->bytes = 100000;
  ds_test_fix_run (r, "sync");
  g_clear_pointer (&job, g_free);
  job = ds_test_fio_job (r, NULL);
  DS_TEST_ASSERT_LINES_WITH (job, "ioengine=", "ioengine=psync");
  DS_TEST_ASSERT_LINES_WITH (job, "[", "[global] [fill-1] [set-1] [fill-2] [set-2] [fill-3] [set-3]");
  DS_TEST_ASSERT_LINES_WITH (job, "bs=", "bs=65536 bs=65536 bs=1048576 bs=65536 bs=1048576 bs=65536");
  DS_TEST_ASSERT_LINES_WITH (job, "size=", "size=65536 size=65536 size=67108864 size=67108864 size=134217728 "
                             "size=134217728");
  DS_TEST_ASSERT_LINES_WITH (job, "iodepth=", "iodepth=1 iodepth=1 iodepth=1 iodepth=1 iodepth=1 iodepth=1");
  DS_TEST_ASSERT_COUNT (job, "runtime=2ms", 3);
}
END_TEST

/* No sets (none, or no data): nothing says what ran. */
START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = cache_result (FALSE);
  DsCacheData *data = r->data;
  GArray *sets = data->sets;

  g_array_set_size (sets, 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;
      gpointer saved = r->data;

      data->sets = i == 1 ? NULL : sets;
      r->data = i == 2 ? NULL : saved;
      ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
      r->data = saved;
      data->sets = sets;
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED), "case %u", i);
      ck_assert_str_eq (error->message, "a Cache Probe result without working sets cannot be expressed as a "
                        "fio job, because it holds no set to say what ran");
    }
}
END_TEST

/* ---- JSON ----------------------------------------------------------------- */

/* One set in numbers a double holds exactly, written in full: "write"
 * and each set's "read_latency_s" only for the write variant, "repeat"
 * only when measured again, the estimate's members null without one;
 * with one, its bounds. */
START_TEST (test_json_written)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", FALSE);
  g_autoptr (DsResult) c = cache_result (FALSE);
  DsCacheData *data = r->data;
  DsCacheSet s = { .bytes = 16 * MIB, .complete = FALSE, .ios = 8, .iops = 4, .bytes_per_s = 16384,
                   .lat_mean_s = 0.25, .lat_p99_s = 0.5, .read_lat_mean_s = 0.75, .read_lat_p99_s = 1.5,
                   .repeated = TRUE, .repeat_iops = 2, .repeat_lat_mean_s = 0.5, .repeat_lat_p99_s = 1 };
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) cnode = ds_cache_data_to_json (c->data);
  JsonObject *o = json_node_get_object (cnode);

  data->block_size_bytes = 4096;
  data->queue_depth = 32;
  data->set_time_s = 0.5;
  g_array_append_val (data->sets, s);
  data->estimate = (DsCacheEstimate) { .verdict = DS_CACHE_VERDICT_TOO_FEW, .hot_latency_s = 0.25,
                                       .cold_latency_s = 0.25 };
  node = ds_cache_data_to_json (data);
  DS_TEST_ASSERT_JSON (node, "{\"block_size_bytes\":4096,\"queue_depth\":32,\"set_time_s\":0.5,\"sets\":["
                       "{\"bytes\":16777216,\"complete\":false,\"ios\":8,\"iops\":4.0,\"bytes_per_s\":16384.0,"
                       "\"latency_s\":{\"mean\":0.25,\"p99\":0.5},\"repeat\":{\"iops\":2.0,\"latency_s\":"
                       "{\"mean\":0.5,\"p99\":1.0}}}],\"cache_estimate_bytes\":null,\"largest_fast_bytes\":null,"
                       "\"first_slow_bytes\":null,\"drop_ratio\":null,\"verdict\":\"too_few_sets\","
                       "\"hot_latency_s\":0.25,\"cold_latency_s\":0.25,\"rule\":{\"fast_fraction\":0.5}}");
  data->write = TRUE;
  g_array_index (data->sets, DsCacheSet, 0).repeated = FALSE;
  g_clear_pointer (&node, json_node_unref);
  node = ds_cache_data_to_json (data);
  DS_TEST_ASSERT_MEMBERS (json_node_get_object (node), "write block_size_bytes queue_depth set_time_s sets "
                          "cache_estimate_bytes largest_fast_bytes first_slow_bytes drop_ratio verdict "
                          "hot_latency_s cold_latency_s rule");
  DS_TEST_ASSERT_MEMBER (json_node_get_object (node), "write", "true");
  DS_TEST_ASSERT_MEMBER (json_node_get_object (node), "sets",
                       "[{\"bytes\":16777216,\"complete\":false,\"ios\":8,\"iops\":4.0,\"bytes_per_s\":16384.0,"
                       "\"latency_s\":{\"mean\":0.25,\"p99\":0.5},\"read_latency_s\":{\"mean\":0.75,\"p99\":1.5}}]");

  ck_assert_double_eq (json_object_get_double_member (o, "cache_estimate_bytes"),
                       ((DsCacheData *) c->data)->estimate.estimate_bytes);
  DS_TEST_ASSERT_MEMBER (o, "largest_fast_bytes", "33554432");
  DS_TEST_ASSERT_MEMBER (o, "first_slow_bytes", "67108864");
  DS_TEST_ASSERT_MEMBER (o, "drop_ratio", "0.0625");
  DS_TEST_ASSERT_MEMBER (o, "verdict", "\"cache\"");
}
END_TEST

/* Read back, the file written again is the same; the estimate is the
 * sets' own, whatever the file says (read and write variants). */
START_TEST (test_json_read)
{
  for (guint w = 0; w < 2; w++)
    {
      g_autoptr (DsResult) r = cache_result (w);
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (JsonNode) again = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *first = NULL;
      g_autofree char *text = NULL;
      DsCacheData *b;
      JsonObject *o;

      set_at (r, 3)->repeated = TRUE;
      set_at (r, 3)->repeat_iops = 256;
      node = ds_cache_data_to_json (r->data);
      first = json_to_string (node, FALSE);
      o = json_node_get_object (node);
      json_object_set_null_member (o, "cache_estimate_bytes");
      json_object_set_string_member (o, "verdict", "no_edge");
      json_object_set_double_member (o, "hot_latency_s", 9);
      text = ds_json_to_text (node, NULL);
      b = ds_test_read_results (DS_BENCH_CACHE, text, &error);
      ck_assert_msg (b != NULL, "%s", error->message);
      ck_assert (b->write == (gboolean) w && b->estimate.found);
      again = ds_cache_data_to_json (b);
      DS_TEST_ASSERT_JSON (again, first);
      ds_cache_data_free (b);
    }
}
END_TEST

#define SET16 "{\"bytes\":16777216,\"complete\":true,\"ios\":1,\"iops\":1,\"bytes_per_s\":1," \
              "\"latency_s\":{\"mean\":1,\"p99\":1}}"

/* Each bad member refused by name; a workload's results are not a
 * probe's. */
START_TEST (test_json_refused)
{
  static const DsTestEdit cases[] = {
    { "\"block_size_bytes\" : 4096,", "", "results.block_size_bytes is missing" },
    { "\"block_size_bytes\" : 4096", "\"block_size_bytes\" : 1073741825",
      "results.block_size_bytes is out of range (1073741825; expected 0 to 1073741824)" },
    { "\"queue_depth\" : 1", "\"queue_depth\" : 4097",
      "results.queue_depth is out of range (4097; expected 0 to 4096)" },
    { "\"set_time_s\" : 2.0", "\"set_time_s\" : -1", "results.set_time_s is out of range (-1; expected 0 to 1e+07)" },
    { "\"block_size_bytes\"", "\"write\" : 1, \"block_size_bytes\"", "results.write is not true or false" },
    { "\"block_size_bytes\"", "\"write\" : true, \"block_size_bytes\"", "results.sets[0].read_latency_s is missing" },
    { "\"sets\" : [", "\"sets\" : {}, \"x\" : [", "results.sets is not a list" },
    { "\"sets\" : [", "\"sets\" : [" SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 ","
      SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 ","
      SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 ","
      SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 ","
      SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 "," SET16 ",",
      "results.sets has more than 48 sets" },
    { "\"sets\" : [", "\"sets\" : [null, ", "results.sets[0] is not an object" },
    { "\"bytes\" : 16777216,", "", "results.sets[0].bytes is missing" },
    { "\"complete\" : true", "\"complete\" : \"yes\"", "results.sets[0].complete is not true or false" },
    { "\"iops\" : 8000.0", "\"iops\" : 2e12", "results.sets[0].iops is out of range (2e+12; expected 0 to 1e+12)" },
    { "\"latency_s\" : {", "\"latency_s\" : 1, \"x\" : {", "results.sets[0].latency_s is not an object" },
    { "\"mean\" : 0.000125,", "\"mean\" : 2e6,",
      "results.sets[0].latency_s.mean is out of range (2e+06; expected 0 to 1e+06)" },
    { "\"repeat\" : {", "\"repeat\" : 0, \"x\" : {", "results.sets[3].repeat is not an object" },
    { "\"iops\" : 256.0", "\"iops\" : -256.0",
      "results.sets[3].repeat.iops is out of range (-256; expected 0 to 1e+12)" },
    { "\"iops\" : 256.0,", "\"iops\" : 256.0, \"x\" : 0 }, \"y\" : {", "results.sets[3].repeat.latency_s is missing" },
  };
  g_autoptr (DsResult) r = cache_result (FALSE);
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  set_at (r, 3)->repeated = TRUE;
  set_at (r, 3)->repeat_iops = 256;
  node = ds_cache_data_to_json (r->data);
  text = ds_json_to_text (node, NULL);
  ds_test_assert_edits_refused (DS_BENCH_CACHE, text, cases, G_N_ELEMENTS (cases));
  ds_test_assert_other_kind_refused (DS_BENCH_CACHE, "results.block_size_bytes is missing");
}
END_TEST

/* ---- words and report ------------------------------------------------------ */

/* Each verdict in words: too few sets, no edge (reads, writes), the
 * largest alone slow measured once or fast again, an edge seen again. */
START_TEST (test_words)
{
  g_autoptr (DsResult) r = cache_result (FALSE);
  DsCacheData *data = r->data;
  DsCacheEstimate *e = &data->estimate;
  static const struct { DsCacheVerdict verdict; gboolean write, repeated; const char *says; } cases[] = {
    { DS_CACHE_VERDICT_TOO_FEW, FALSE, FALSE, "none: fewer than two sets were measured" },
    { DS_CACHE_VERDICT_NO_EDGE, FALSE, FALSE, "none: no set was faster than half the first set's IOPS and then "
      "slower (no cache seen up to the largest set, or none as small as the first)" },
    { DS_CACHE_VERDICT_NO_EDGE, TRUE, FALSE, "none: no set's writes were faster than half the first set's IOPS "
      "and then slower (no write-back cache seen up to the largest set, or none as small as the first)" },
    { DS_CACHE_VERDICT_SLOW_ONCE, FALSE, FALSE, "none: no clear edge: only the largest set, 128 MiB, was slow "
      "(0.03 of the first set's IOPS), and it was measured once only: one slow set may be other I/O, not a cache" },
    { DS_CACHE_VERDICT_NOISE, FALSE, TRUE, "none: no clear edge: only the largest set, 128 MiB, was slow (0.03 of "
      "the first set's IOPS), and measured again it was fast (0.75): a moment of other I/O, not a cache" },
    { DS_CACHE_VERDICT_CACHE, FALSE, TRUE, "about 96 MiB (between 64 MiB and 128 MiB): reads of 64 MiB stay fast; "
      "past it IOPS drop to 0.50 of that; 128 MiB, the only set past it, was as slow measured again" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *words = NULL;

      data->write = cases[i].write;
      set_at (r, 3)->repeated = cases[i].repeated;
      set_at (r, 3)->repeat_iops = 6000;
      *e = (DsCacheEstimate) { .verdict = cases[i].verdict, .found = cases[i].verdict == DS_CACHE_VERDICT_CACHE,
                               .estimate_bytes = 96 * MIB - 1, .largest_fast_bytes = 64 * MIB,
                               .first_slow_bytes = 128 * MIB, .drop_ratio = 0.5 };
      words = ds_cache_words (data);
      ck_assert_msg (strcmp (words, cases[i].says) == 0, "case %u: %s", i, words);
    }
}
END_TEST

/* The reads' report, a set cut and one measured again; the writes' with
 * their read latency; without an edge, no hot and cold; no sets, no
 * table. */
START_TEST (test_report)
{
  g_autoptr (DsResult) r = cache_result (FALSE);
  g_autoptr (DsResult) w = cache_result (TRUE);
  DsCacheData *data = r->data;
  g_autofree char *text = NULL;
  g_autofree char *wtext = NULL;
  const char *const want[] = {
    "Probe                 : random reads of 4 KiB, queue depth 1, 2 s per set, each set read once first",
    "Cache                 : about 33 MiB (between 32 MiB and 64 MiB): reads of 32 MiB stay fast; past it IOPS "
    "drop to 0.06 of that",
    "Access Time           : hot 0.125 ms (the smallest set), cold 4.000 ms (the slowest set past the drop)",
    "",
    "Working set         IOPS        Rate        Mean         p99",
    "16 MiB              8000   32.8 MB/s    0.125 ms    0.250 ms",
    "32 MiB              8000   32.8 MB/s    0.125 ms    0.250 ms",
    "64 MiB               500  2.048 MB/s    2.000 ms    4.000 ms",
    "128 MiB (cut)         250  1.024 MB/s    4.000 ms    8.000 ms",
    "Measured again: 128 MiB, 256 IOPS, mean 3.000 ms",
    "",
    NULL,
  };
  const char *const wwant[] = {
    "Probe                 : each set flushed, written once at random in blocks of 4 KiB, then read at random "
    "for 2 s; queue depth 1",
    "Cache                 : a write-back cache of about 44 MiB as the host sees it (it drains while it fills): a "
    "write into it 0.125 ms, past it 6.000 ms (a read 0.500 ms); writes of sets past 32 MiB run at 0.06 of the IOPS",
    "Access Time           : writes: hot 0.125 ms (the smallest set), cold 6.000 ms (the pace of the sets past "
    "the cache)",
    "",
    "Working set         IOPS        Rate        Mean         p99   Read mean",
    "16 MiB              8000   32.8 MB/s    0.125 ms    0.250 ms    0.500 ms",
    "32 MiB              8000   32.8 MB/s    0.125 ms    0.250 ms    1.000 ms",
    "64 MiB               500  2.048 MB/s    2.000 ms    4.000 ms    1.500 ms",
    "128 MiB              250  1.024 MB/s    4.000 ms    8.000 ms    2.000 ms",
    "",
    NULL,
  };

  set_at (r, 3)->complete = FALSE;
  set_at (r, 3)->repeated = TRUE;
  set_at (r, 3)->repeat_iops = 256.4;
  set_at (r, 3)->repeat_lat_mean_s = 0.003;
  text = ds_test_report (r, DS_UNITS_MB);
  ds_test_assert_lines (text, want);
  wtext = ds_test_report (w, DS_UNITS_MB);
  ds_test_assert_lines (wtext, wwant);

  data->estimate.found = FALSE;
  data->estimate.verdict = DS_CACHE_VERDICT_TOO_FEW;
  g_array_set_size (data->sets, 0);
  data->block_size_bytes = 1536;
  g_free (text);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_str_eq (text, "Probe                 : random reads of 1.5 KiB, queue depth 1, 2 s per set, each set "
                          "read once first\n"
                          "Cache                 : none: fewer than two sets were measured\n"
                          "Access Time           : 0.125 ms on the smallest set, 4.000 ms on the largest (no cache "
                          "edge between them: the difference is noise, not a hot and a cold)\n");
}
END_TEST

int
main (void)
{
  const TTest *const tests[] = {
    test_compare, test_compare_empty, test_fio_job, test_fio_variants, test_fio_refused,
    test_json_written, test_json_read, test_json_refused, test_words, test_report,
  };

  return ds_test_run_tests ("kind-cache", tests, G_N_ELEMENTS (tests));
}
