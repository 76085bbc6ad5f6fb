/* test-kind-replay.c: the Replay kind's hooks (core/kinds/replay/: the
 * table and options, compare, fio, JSON, text, warnings)
 *
 * Unit suite: no root, no device.  What they promise: compare rows of the
 * replay (IOPS achieved and recorded, fidelity, latency of all, reads and
 * writes, slots waited for, I/Os wrapped) and, where the result holds the
 * capture's figures, the capture's with the replay's as a multiple of
 * them; empty cells for what was not measured; fio refused in the house's
 * words; the JSON written in full, read back the same, each bad member
 * refused by name; the params (trace, speed, reads only) kept through a
 * save; the report word for word; the replay's three warnings; a run
 * through ds_run() on a regular file, and its refusal by the write gate.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-replay.h"
#include "ds-engine.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-interval.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"
#include "ds-warnings.h"

/* ---- compare -------------------------------------------------------------- */

START_TEST (test_compare)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autofree char *text = ds_test_compare_text (r, FALSE);

  ds_test_assert_text (text,
    "[Replay]\n"
    "iops.achieved|IOPS, achieved||iops|+|499.5\n"
    "iops.recorded|IOPS, recorded (× speed)||iops|+|500\n"
    "fidelity.100us|I/Os on time, within 100 µs||percent|+|99.5\n"
    "fidelity.1ms|I/Os on time, within 1 ms||percent|+|100\n"
    "depth.mean|In flight on average||ratio|-|0.25\n"
    "depth.recorded|In flight on average, the trace's||ratio|-|0.5\n"
    "latency.p50|Latency p50||time|-|0.0001\n"
    "latency.p99|Latency p99||time|-|0.0004\n"
    "latency.p99_9|Latency p99.9||time|-|0.002\n"
    "read.p50|Reads p50||time|-|0.000125\n"
    "read.p99|Reads p99||time|-|0.0005\n"
    "write.p50|Writes p50||time|-|5e-05\n"
    "write.p99|Writes p99||time|-|0.00025\n"
    "waited|I/Os that waited for a slot||count|-|0\n"
    "wrapped|I/Os wrapped past the target's end||count|-|0\n"
    "[Replay against the capture]\n"
    "capture.iops|Capture IOPS||iops|+|500\n"
    "capture.p50|Capture latency p50||time|-|0.0002\n"
    "capture.p99|Capture latency p99||time|-|0.001\n"
    "capture.p99_9|Capture latency p99.9||time|-|0.004\n"
    "vs_capture.iops|Achieved IOPS / capture's × speed||ratio|+|0.4995\n"
    "vs_capture.p50|Latency p50 / capture's||ratio|-|0.5\n"
    "vs_capture.p99|Latency p99 / capture's||ratio|-|0.4\n"
    "vs_capture.p99_9|Latency p99.9 / capture's||ratio|-|0.5\n");
}
END_TEST

/* Nothing replayed: every cell empty; no writes: no write latency; a
 * capture without completions: its latencies and the ratios empty; no
 * capture: no rows against it. */
START_TEST (test_compare_empty)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  DsReplayData *d = r->data;
  g_autofree char *text = NULL;
  g_autofree char *rows = NULL;

  d->writes = 0;
  d->capture.p50_s = d->capture.p99_s = d->capture.p999_s = 0;
  text = ds_test_compare_text (r, FALSE);
  DS_TEST_ASSERT_COUNT (text, "write.p50|Writes p50||time|-|-", 1);
  DS_TEST_ASSERT_COUNT (text, "write.p99|Writes p99||time|-|-", 1);
  DS_TEST_ASSERT_COUNT (text, "read.p50|Reads p50||time|-|0.000125", 1);
  DS_TEST_ASSERT_COUNT (text, "capture.p99|Capture latency p99||time|-|-", 1);
  DS_TEST_ASSERT_COUNT (text, "vs_capture.p99|Latency p99 / capture's||ratio|-|-", 1);
  DS_TEST_ASSERT_COUNT (text, "vs_capture.iops|Achieved IOPS / capture's × speed||ratio|+|0.4995", 1);
  ((DsReplayOptions *) ds_replay_options (&r->spec))->reads_only = TRUE;
  d->reads_only = TRUE;
  g_free (text);
  text = ds_test_compare_text (r, FALSE);
  DS_TEST_ASSERT_COUNT (text, "vs_capture.iops|Achieved IOPS / capture's × speed||ratio|+|-", 1);

  d->has_capture = FALSE;
  d->ios = 0;
  g_free (text);
  text = ds_test_compare_text (r, FALSE);
  ck_assert_uint_eq (ds_test_count (text, "[Replay against the capture]"), 0);
  ck_assert_uint_eq (ds_test_count (text, "|-\n"), 15);
  rows = ds_test_rows_in (text, "Replay");
  ck_assert_uint_eq (ds_test_count (rows, "\n"), 15);
}
END_TEST

/* ---- fio ------------------------------------------------------------------ */

START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, "a Replay result cannot be expressed as a fio job, because fio replays "
                    "only its own iolog (read_iolog), not a Diskscope capture file, and the result holds the "
                    "replay's figures, not the trace's I/Os");
}
END_TEST

/* ---- JSON ----------------------------------------------------------------- */

#define RESULTS_JSON \
  "{\"speed\":2.0,\"reads_only\":false,\"ios\":1000,\"reads\":700,\"writes\":250,\"flushes\":50," \
  "\"skipped\":10,\"wrapped\":0,\"errors\":0,\"bytes\":4096000,\"waited_for_slot\":0," \
  "\"max_in_flight\":256,\"duration_s\":2.0,\"recorded_iops\":500.0,\"achieved_iops\":499.5," \
  "\"fidelity\":{\"within_100us\":0.995,\"within_1ms\":1.0,\"late_s\":{\"p50\":4e-06,\"p99\":8e-05," \
  "\"max\":0.0005}},\"latency_s\":{\"p50\":0.0001,\"p99\":0.0004,\"p99_9\":0.002,\"read_p50\":0.000125," \
  "\"read_p99\":0.0005,\"write_p50\":5e-05,\"write_p99\":0.00025},\"target_bytes\":500000000000," \
  "\"trace_span_bytes\":1073741824,\"capture\":{\"ios\":2000,\"reads\":1400,\"writes\":500," \
  "\"duration_s\":4.0,\"iops\":500.0,\"latency_s\":{\"p50\":0.0002,\"p99\":0.001,\"p99_9\":0.004}}," \
  "\"loop\":\"open\",\"mean_depth\":0.25,\"recorded_mean_depth\":0.5}"

/* @node as the file writes it (ds_json_to_text: the shortest form of
 * each number), without its spaces and line breaks. */
#define ASSERT_WRITTEN(node, want) \
  G_STMT_START { \
    g_autofree char *text_ = ds_json_to_text ((node), NULL); \
    GString *s_ = g_string_new (""); \
    g_autofree char *got_ = NULL; \
    for (const char *c_ = text_; *c_ != '\0'; c_++) \
      if (*c_ != ' ' && *c_ != '\n') \
        g_string_append_c (s_, *c_); \
    got_ = g_string_free (s_, FALSE); \
    ck_assert_msg (strcmp (got_, (want)) == 0, "got  %s\nwant %s", got_, (want)); \
  } G_STMT_END

START_TEST (test_json_written)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autoptr (JsonNode) node = ds_replay_data_to_json (r->data);
  g_autoptr (JsonNode) none = NULL;

  ASSERT_WRITTEN (node, RESULTS_JSON);
  ((DsReplayData *) r->data)->has_capture = FALSE;
  none = ds_replay_data_to_json (r->data);
  DS_TEST_ASSERT_MEMBER (json_node_get_object (none), "capture", "null");
}
END_TEST

/* Read back, written again the same; a capture of null is none; the
 * whole result through a file keeps its params and its report. */
START_TEST (test_json_read)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autofree char *ra = NULL, *rb = NULL;
  DsReplayData *b = ds_test_read_results (DS_BENCH_REPLAY, RESULTS_JSON, &error);
  g_autoptr (JsonNode) again = NULL;
  const DsReplayOptions *o;

  ck_assert_msg (b != NULL, "%s", error ? error->message : "");
  again = ds_replay_data_to_json (b);
  ASSERT_WRITTEN (again, RESULTS_JSON);
  ck_assert (b->has_capture);
  ds_replay_data_free (b);

  {
    g_autofree char *text = g_strdup (RESULTS_JSON);
    char *at = strstr (text, "\"capture\":{");

    strcpy (at, "\"capture\":null}");
    b = ds_test_read_results (DS_BENCH_REPLAY, text, &error);
    ck_assert_msg (b != NULL, "%s", error ? error->message : "");
    ck_assert (!b->has_capture);
    ds_replay_data_free (b);
  }

  ((DsReplayOptions *) ds_replay_options (&r->spec))->reads_only = TRUE;
  back = ds_test_round_trip (r);
  o = ds_replay_options_const (&back->spec);
  ck_assert_str_eq (o->trace_path, "/var/tmp/db.dstrace");
  ck_assert (o->speed == 2);
  ck_assert (o->reads_only);
  ra = ds_report_text (r, DS_UNITS_MB);
  rb = ds_report_text (back, DS_UNITS_MB);
  ck_assert_str_eq (rb, ra);
}
END_TEST

/* Each bad member refused by name, and what the figures cannot be. */
START_TEST (test_json_refused)
{
  static const DsTestEdit cases[] = {
    { "\"speed\":2.0,", "", "results.speed is missing" },
    { "\"speed\":2.0", "\"speed\":-1", "results.speed is out of range (-1; expected 0 to 1000)" },
    { "\"speed\":2.0", "\"speed\":0", "results.speed is below 0.001 with I/Os replayed" },
    { "\"reads_only\":false", "\"reads_only\":0", "results.reads_only is not true or false" },
    { "\"ios\":1000", "\"ios\":-1", "results.ios is out of range (negative or above 9223372036854775807; expected 0 to 9223372036854775807)" },
    { "\"waited_for_slot\":0,", "", "results.waited_for_slot is missing" },
    { "\"max_in_flight\":256", "\"max_in_flight\":65537",
      "results.max_in_flight is out of range (65537; expected 0 to 65536)" },
    { "\"achieved_iops\":499.5", "\"achieved_iops\":2e12",
      "results.achieved_iops is out of range (2e+12; expected 0 to 1e+12)" },
    { "\"fidelity\":{", "\"fidelity\":1,\"x\":{", "results.fidelity is not an object" },
    { "\"within_100us\":0.995", "\"within_100us\":1.5",
      "results.fidelity.within_100us is out of range (1.5; expected 0 to 1)" },
    { "\"late_s\":{\"p50\":4e-06,", "\"late_s\":{", "results.fidelity.late_s.p50 is missing" },
    { "\"p99_9\":0.002", "\"p99_9\":-0.002", "results.latency_s.p99_9 is out of range (-0.002; expected 0 to 1e+09)" },
    { "\"trace_span_bytes\":1073741824,", "", "results.trace_span_bytes is missing" },
    { "\"capture\":{", "\"capture\":[],\"x\":{", "results.capture is not an object" },
    { "\"reads\":1400", "\"reads\":2001", "results.capture.reads is out of range (2001; expected 0 to 2000)" },
    { "\"p99_9\":0.004", "\"p99_9\":0.0001",
      "results.capture.latency_s.p99_9 is out of range (0.0001; expected 0.001 to 1e+09)" },
    { "\"reads\":700", "\"reads\":701", "results.ios is not its reads, writes and flushes" },
    { "\"reads_only\":false", "\"reads_only\":true", "results.writes is not 0 in a replay of the reads only" },
    { "\"within_1ms\":1.0", "\"within_1ms\":0.5", "results.fidelity.within_1ms is below within_100us" },
    { "\"p99\":0.0004", "\"p99\":0.00001", "results.latency_s: the percentiles are not in order" },
    { "\"wrapped\":0", "\"wrapped\":1001", "results.wrapped or waited_for_slot is more than its I/Os" },
  };

  ds_test_assert_edits_refused (DS_BENCH_REPLAY, RESULTS_JSON, cases, G_N_ELEMENTS (cases));
  ds_test_assert_other_kind_refused (DS_BENCH_REPLAY, "results.speed is missing");
}
END_TEST

/* The params: trace, speed and reads only are the replay's; a file
 * without them, or with them wrong, is refused by name. */
START_TEST (test_params_refused)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autofree char *text = ds_result_to_data (r, NULL);
  static const struct { const char *from, *to, *says; } cases[] = {
    { "\"trace_speed\" : 2.0", "\"trace_speed\" : 2000.0",
      "params.trace_speed is out of range (2000; expected 0.001 to 1000)" },
    { "\"trace_path\" : \"/var/tmp/db.dstrace\"", "\"trace_path\" : 3", "params.trace_path is not a string" },
    { "\"trace_reads_only\" : false", "\"trace_reads_only\" : \"no\"", "params.trace_reads_only is not true or false" },
  };

  ck_assert_msg (strstr (text, "\"trace_path\" : \"/var/tmp/db.dstrace\"") != NULL, "%s", text);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) back = NULL;
      const char *at = strstr (text, cases[i].from);
      g_autofree char *bad = NULL;

      ck_assert_msg (at != NULL, "“%s” not in the file", cases[i].from);
      bad = g_strdup_printf ("%.*s%s%s", (int) (at - text), text, cases[i].to, at + strlen (cases[i].from));
      back = ds_result_load_data (bad, -1, &error);
      ck_assert_msg (back == NULL, "%s: loaded", cases[i].to);
      ck_assert_msg (strstr (error->message, cases[i].says) != NULL, "“%s” lacks “%s”", error->message,
                     cases[i].says);
    }
}
END_TEST

/* ---- text and warnings ---------------------------------------------------- */

START_TEST (test_report)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  DsReplayData *d = r->data;
  g_autofree char *text = ds_test_report (r, DS_UNITS_MB);
  g_autofree char *more = NULL;

  ds_test_assert_text (text,
    "Trace                 : /var/tmp/db.dstrace at 2x\n"
    "I/Os                  : 1000 (700 reads, 250 writes, 50 flushes) in 2.00 s\n"
    "IOPS                  : 499.5 achieved, 500.0 recorded (99.9 %)\n"
    "Rate                  : 2.048 MB/s\n"
    "Fidelity              : 99.50 % within 100 µs, 100.00 % within 1 ms; late p50 4.0 µs, p99 80.0 µs, "
    "max 500.0 µs\n"
    "Slots                 : 0 waited (256 in flight at most)\n"
    "Latency               : p50 100.0 µs, p99 400.0 µs, p99.9 2000.0 µs\n"
    "Reads                 : p50 125.0 µs, p99 500.0 µs\n"
    "Writes                : p50 50.0 µs, p99 250.0 µs\n"
    "Capture               : 2000 I/Os in 4.00 s, 500.0 IOPS\n"
    "Capture Latency       : p50 200.0 µs, p99 1000.0 µs, p99.9 4000.0 µs\n"
    "Skipped               : 10 requests not replayed (discards, other operations, or writes with reads only)\n");

  d->writes = 0;
  d->reads = 950;
  d->reads_only = TRUE;
  d->wrapped = 3;
  d->errors = 2;
  d->capture.p50_s = d->capture.p99_s = d->capture.p999_s = 0;
  more = ds_test_report (r, DS_UNITS_MB);
  DS_TEST_ASSERT_LINES_WITH (more, "Trace ", "Trace                 : /var/tmp/db.dstrace at 2x, reads only");
  DS_TEST_ASSERT_LINES_WITH (more, "Writes", "");
  DS_TEST_ASSERT_LINES_WITH (more, "Capture Latency", "Capture Latency       : not in the trace (no completions)");
  DS_TEST_ASSERT_LINES_WITH (more, "Wrapped", "Wrapped               : 3 I/Os past the target's end (500 GB; the "
                             "trace reaches 1.1 GB)");
  DS_TEST_ASSERT_LINES_WITH (more, "I/O Errors", "I/O Errors            : 2");
}
END_TEST

/* @text with its one @from replaced by @to. */
static char *
replace_once (const char *text,
              const char *from,
              const char *to)
{
  const char *at = strstr (text, from);

  ck_assert_msg (at != NULL, "%s not in %s", from, text);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

/* A closed-loop replay: its depth instead of its timing, in the report and
 * the comparison; no "behind" warning (it keeps no times); its series and
 * loop back from the file as written; a loop the file cannot have refused. */
START_TEST (test_closed)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  DsReplayData *d = r->data, *back;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) again = NULL;
  g_autoptr (GPtrArray) w = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  g_autofree char *text = NULL, *report = NULL, *json = NULL, *bad = NULL, *a = NULL, *b = NULL;
  DsIntervalPoint p[2] = { { .t_s = 1, .read = { .iops = 400, .p99_s = 0.003 } },
                           { .t_s = 1.5, .read = { .iops = 380, .p99_s = 0.004 } } };

  d->loop = DS_TRACE_LOOP_CLOSED;
  d->within_100us = d->within_1ms = 0;
  d->mean_depth = 3.82;
  d->recorded_mean_depth = 3.83;
  d->series = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  g_array_append_vals (d->series, p, 2);
  ds_replay_options (&r->spec)->loop = DS_TRACE_LOOP_CLOSED;

  report = ds_test_report (r, DS_UNITS_MB);
  DS_TEST_ASSERT_LINES_WITH (report, "Trace ", "Trace                 : /var/tmp/db.dstrace, closed loop");
  DS_TEST_ASSERT_LINES_WITH (report, "Depth", "Depth                 : 3.82 in flight on average, the trace's 3.83 (99.7 %)");
  DS_TEST_ASSERT_LINES_WITH (report, "Fidelity", "");
  text = ds_test_compare_text (r, FALSE);
  DS_TEST_ASSERT_COUNT (text, "fidelity.100us|I/Os on time, within 100 µs||percent|+|-", 1);
  DS_TEST_ASSERT_COUNT (text, "depth.mean|In flight on average||ratio|+|3.82", 1);
  ds_replay_warnings (d, w);
  ck_assert_uint_eq (w->len, 0);

  node = ds_replay_data_to_json (d);
  json = ds_json_to_text (node, NULL);
  ck_assert_uint_eq (ds_test_count (json, "\"loop\" : \"closed\""), 1);
  back = ds_test_read_results (DS_BENCH_REPLAY, json, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (back->loop, DS_TRACE_LOOP_CLOSED);
  ck_assert_uint_eq (back->series->len, 2);
  ck_assert_double_eq (g_array_index (back->series, DsIntervalPoint, 1).read.iops, 380);
  again = ds_replay_data_to_json (back);
  a = ds_json_to_text (again, NULL);
  ck_assert_str_eq (a, json);
  ds_replay_data_free (back);

  bad = replace_once (json, "\"closed\"", "\"sideways\"");
  back = ds_test_read_results (DS_BENCH_REPLAY, bad, &error);
  ck_assert (back == NULL);
  ck_assert_str_eq (error->message, "results.loop is \"sideways\", not open or closed");
  g_clear_error (&error);
  b = replace_once (json, "\"t_s\" : 1.5", "\"t_s\" : 0.5");
  back = ds_test_read_results (DS_BENCH_REPLAY, b, &error);
  ck_assert (back == NULL);
  ck_assert_str_eq (error->message, "results.series[1].t_s is not after the point before it");
}
END_TEST

static char *
codes (const DsReplayData *d)
{
  g_autoptr (GPtrArray) w = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  GString *out = g_string_new ("");

  ds_replay_warnings (d, w);
  for (guint i = 0; i < w->len; i++)
    g_string_append_printf (out, "%s%s", i ? " " : "", ((DsWarning *) w->pdata[i])->code);
  return g_string_free (out, FALSE);
}

/* 99 % on time is enough; below it, behind; a wrap and a wait each say
 * so, in words that give the figures. */
START_TEST (test_warnings)
{
  g_autoptr (DsResult) r = ds_test_replay_result ();
  DsReplayData *d = r->data;
  g_autoptr (GPtrArray) w = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  g_autofree char *none = NULL, *at = NULL, *all = NULL;

  none = codes (d);
  ck_assert_str_eq (none, "");
  d->within_100us = 0.99;
  at = codes (d);
  ck_assert_str_eq (at, "");
  d->within_100us = 0.9875;
  d->within_1ms = 0.995;
  d->wrapped = 12;
  d->waited = 40;
  all = codes (d);
  ck_assert_str_eq (all, "replay_behind replay_wrapped replay_target_paced");
  ds_replay_warnings (d, w);
  ck_assert_str_eq (((DsWarning *) w->pdata[0])->message,
                    "The replay fell behind the trace: 98.75 % of its I/Os were issued within 100 µs of their "
                    "time (99.50 % within 1 ms), fewer than 99 %. The latencies are of a workload slower than "
                    "the one captured.");
  ck_assert_str_eq (((DsWarning *) w->pdata[1])->message,
                    "The target (500 GB) is smaller than the trace's span (1.1 GB): 12 I/Os past its end were "
                    "wrapped onto it, so the replay's offsets are not all the capture's.");
  ck_assert_str_eq (((DsWarning *) w->pdata[2])->message,
                    "40 I/Os waited because all 256 slots were in flight: the target could not keep up with "
                    "the trace, and its latency, not the trace, set the pace.");
  /* Nothing replayed: nothing to judge. */
  d->ios = 0;
  d->wrapped = d->waited = 0;
  g_free (all);
  all = codes (d);
  ck_assert_str_eq (all, "");
}
END_TEST

/* The table's row, its options and its words. */
START_TEST (test_row)
{
  const DsBenchOps *ops = ds_bench_lookup ("replay");
  g_autoptr (DsResult) r = ds_test_replay_result ();
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *line = NULL;
  DsBenchSpec spec, copy;
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_nonnull (ops);
  ck_assert_int_eq (ops->kind, DS_BENCH_REPLAY);
  ck_assert (!ops->opens_target);
  ck_assert_uint_eq (ops->writes, DS_BENCH_WRITES_OPTION);
  ck_assert_str_eq (ops->headline_keys[0], "latency.p99");
  ops->settings (&r->spec, r, parts);
  g_ptr_array_add (parts, NULL);
  line = g_strjoinv (" · ", (char **) parts->pdata);
  ck_assert_str_eq (line, "trace db.dstrace · speed 2×");
  g_free (line);
  line = ops->describe (r);
  ck_assert_str_eq (line, "replay of db.dstrace at 2×");

  ds_bench_spec_init (&spec, DS_BENCH_REPLAY);
  ck_assert (ds_replay_options (&spec)->speed == 1);
  spec.target_path = g_strdup ("/dev/sdz");
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ck_assert_str_eq (error->message, "a replay needs a trace to replay");
  ds_replay_options (&spec)->trace_path = g_strdup ("/var/tmp/db.dstrace");
  ds_bench_spec_copy (&copy, &spec);
  ck_assert_str_eq (ds_replay_options (&copy)->trace_path, "/var/tmp/db.dstrace");
  ck_assert_ptr_ne (ds_replay_options (&copy)->trace_path, ds_replay_options (&spec)->trace_path);
  ck_assert (ds_bench_spec_validate (&copy, NULL));
  ds_replay_options (&copy)->speed = 2000;
  g_clear_error (&error);
  ck_assert (!ds_bench_spec_validate (&copy, &error));
  ck_assert_str_eq (error->message, "the replay's speed must be between 0.001 and 1000, not 2000");
  ds_replay_options (&copy)->speed = 1;
  ds_replay_options (&copy)->reads_only = TRUE;
  copy.write = TRUE;
  g_clear_error (&error);
  ck_assert (!ds_bench_spec_validate (&copy, &error));
  ck_assert_str_eq (error->message, "a replay of the reads only writes nothing: it is not a write test");
  ds_bench_spec_clear (&copy);
  ds_bench_spec_clear (&spec);
}
END_TEST

/* ---- the run hook ---------------------------------------------------------- */

/* @n I/Os of 4 KiB, one every ms, each completed 100 µs later: reads,
 * and a write every @write_every when that is not 0. */
static char *
small_trace (const char *name,
             guint       n,
             guint       write_every)
{
  char *path = ds_test_scratch_path (name);
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS };
  g_autoptr (GError) error = NULL;
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  DsTraceRecord r = { .queue_ns = DS_TRACE_NO_TIME, .bytes = 4096 };

  ck_assert_msg (w != NULL, "%s: %s", path, error->message);
  for (guint i = 0; i < n; i++)
    {
      r.issue_ns = i * UINT64_C (1000000);
      r.complete_ns = r.issue_ns + 100000;
      r.offset = (uint64_t) (i % 64) * 4096;
      r.op = write_every != 0 && i % write_every == 0 ? DS_TRACE_OP_WRITE : DS_TRACE_OP_READ;
      ck_assert (ds_trace_writer_add (w, &r, NULL));
    }
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  return path;
}

static void
replay_spec (DsBenchSpec *spec,
             const char  *trace,
             const char  *target,
             gboolean     reads_only)
{
  ds_bench_spec_init (spec, DS_BENCH_REPLAY);
  spec->target_path = g_strdup (target);
  ds_replay_options (spec)->trace_path = g_strdup (trace);
  ds_replay_options (spec)->reads_only = reads_only;
}

/* ds_run() of a replay spec on a regular file (no root): the replay's
 * figures and the capture's in the result, which saves and loads; a
 * trace with writes and no confirmation is refused by the write gate,
 * nothing measured, the file unchanged. */
START_TEST (test_run)
{
  g_autofree char *trace = small_trace ("reads.dstrace", 40, 4);
  g_autofree char *target = ds_test_make_file ("target.img", 1 << 20, 7);
  g_autofree char *before = ds_test_checksum (target);
  g_autofree char *after = NULL;
  DsRunOptions options = { 0 };
  DsBenchSpec spec;
  g_autoptr (DsResult) r = NULL;
  g_autoptr (DsResult) refused = NULL;
  g_autoptr (DsResult) back = NULL;
  const DsReplayData *d;
  int why = 0;

  if (!ds_engine_uring_available (&why))
    {
      ds_test_note ("SKIP the replay runs on io_uring, not available here: %s", g_strerror (why));
      return;
    }
  replay_spec (&spec, trace, target, TRUE);
  r = ds_run_full (&spec, &options);
  ds_bench_spec_clear (&spec);
  ck_assert_msg (r->error == NULL, "%s", r->error ? r->error->message : "");
  ck_assert (r->complete && !r->spec.write);
  d = r->data;
  ck_assert_uint_eq (d->reads, 30);
  ck_assert_uint_eq (d->writes, 0);
  ck_assert_uint_eq (d->skipped, 10);
  ck_assert (d->reads_only && d->speed == 1);
  ck_assert_uint_eq (d->target_bytes, 1 << 20);
  ck_assert_uint_eq (r->target.size_bytes, 1 << 20);
  ck_assert_str_eq (r->engine, "io_uring");
  ck_assert (d->has_capture);
  ck_assert_uint_eq (d->capture.ios, 40);
  ck_assert_uint_eq (d->capture.reads, 30);
  ck_assert_msg (d->capture.p50_s > 99e-6 && d->capture.p50_s < 101e-6, "%g", d->capture.p50_s);
  ck_assert_ptr_nonnull (r->environment);
  back = ds_test_round_trip (r);
  ck_assert_uint_eq (((DsReplayData *) back->data)->reads, 30);

  replay_spec (&spec, trace, target, FALSE);
  refused = ds_run_full (&spec, &options);
  ds_bench_spec_clear (&spec);
  ck_assert_ptr_nonnull (refused->error);
  ck_assert_msg (g_error_matches (refused->error, DS_ERROR, DS_ERROR_REFUSED), "%s", refused->error->message);
  ck_assert (!ds_result_has_measurements (refused));
  after = ds_test_checksum (target);
  ck_assert_str_eq (after, before);
}
END_TEST

int
main (void)
{
  const TTest *const tests[] = {
    test_compare, test_compare_empty, test_fio_refused, test_json_written, test_json_read,
    test_json_refused, test_params_refused, test_report, test_warnings, test_row, test_run,
    test_closed,
  };

  ds_test_init ("kind-replay");
  return ds_test_run_tests ("kind-replay", tests, G_N_ELEMENTS (tests));
}
