/* test-int-replay-kind.c: a replay kept as a result, as every run is
 * (root: loop devices)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A trace of 500 reads of 4 KiB a second for 2 s (each completed 200 µs
 * after it was issued, as a production disk did) is replayed with
 * --reads-only on a loop device over RAM, at 1x and 2x: each replay is in
 * the results library and in its --output file, holds the replay's
 * figures and the capture's, compares against the other with `compare`
 * and reports again with `report`.  A trace reaching past the target's
 * end keeps the wrap as a warning of the result.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-bench-replay.h"
#include "ds-result.h"
#include "ds-result-json.h"
#include "ds-test-util.h"
#include "ds-trace.h"
#include "ds-warnings.h"

#define MiB (UINT64_C (1024) * 1024)
#define note ds_test_note

/* @n reads of 4 KiB every @gap_ns from 0, each completed 200 µs later,
 * at offsets spread over @span bytes. */
static char *
write_trace (const char *name,
             guint       n,
             uint64_t    gap_ns,
             uint64_t    span)
{
  char *path = ds_test_scratch_path (name);
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE,
                      .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS,
                      .duration_ns = n * gap_ns, .device_bytes = span };
  g_autoptr (GError) error = NULL;
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  DsTraceRecord r = { .queue_ns = DS_TRACE_NO_TIME, .bytes = 4096, .op = DS_TRACE_OP_READ, .pid = 42 };

  ck_assert_msg (w != NULL, "%s", error ? error->message : "");
  ds_trace_writer_process (w, 42, "postgres");
  for (guint i = 0; i < n; i++)
    {
      r.issue_ns = i * gap_ns;
      r.complete_ns = r.issue_ns + 200000;
      r.offset = (uint64_t) (i * 7919u % (span / 4096)) * 4096;
      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ck_assert_msg (ds_trace_writer_finish (w, &h, &error), "%s", error ? error->message : "");
  return path;
}

/* The library's ids of results of @kind, newest first. */
static GPtrArray *
library_ids (const char *kind)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  JsonArray *list;
  int rc = ds_test_cli (&out, &err, "results", "list", "--json", NULL);

  ck_assert_msg (rc == 0, "results list: %d: %s", rc, err);
  ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
  list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "results");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *e = json_array_get_object_element (list, i);

      if (g_strcmp0 (json_object_get_string_member (e, "test"), kind) == 0)
        g_ptr_array_add (ids, g_strdup (json_object_get_string_member (e, "id")));
    }
  return ids;
}

static DsResult *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_result_load (path, &error);

  ck_assert_msg (r != NULL, "%s: %s", path, error ? error->message : "");
  ck_assert_int_eq (r->kind, DS_BENCH_REPLAY);
  return r;
}

static gboolean
has_warning (const DsResult *r,
             const char     *code)
{
  for (guint i = 0; i < r->warnings->len; i++)
    if (strcmp (((DsWarning *) r->warnings->pdata[i])->code, code) == 0)
      return TRUE;
  return FALSE;
}

START_TEST (test_replay_kept)
{
  g_autofree char *lib = ds_test_scratch_path ("library");
  g_autofree char *backing = ds_test_make_ram_file ("replay.img", 64 * MiB, 3);
  g_autofree char *dev = ds_test_loop_attach (backing, TRUE);
  g_autofree char *trace = write_trace ("db.dstrace", 1000, 2000000, 32 * MiB);
  g_autofree char *one = ds_test_scratch_path ("one.json");
  g_autofree char *two = ds_test_scratch_path ("two.json");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  const DsReplayData *da, *db;
  int rc;

  g_setenv ("DISKSCOPE_RESULTS_DIR", lib, TRUE);
  rc = ds_test_cli (&out, &err, "replay", trace, dev, "--reads-only", "-o", one, NULL);
  ck_assert_msg (rc == 0, "replay: %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "replay", trace, dev, "--reads-only", "--speed", "2", "-o", two, NULL);
  ck_assert_msg (rc == 0, "replay --speed 2: %d: %s", rc, err);

  /* The files load as replays, with the replay's and the capture's figures. */
  a = load (one);
  b = load (two);
  da = a->data;
  db = b->data;
  note ("1x: %.1f of %.1f IOPS, %.2f %% within 100 us, p50 %.1f us; 2x: %.1f of %.1f IOPS, %.2f %%; "
        "capture %.1f IOPS, p50 %.1f us", da->achieved_iops, da->recorded_iops, 100 * da->within_100us,
        da->p50_s * 1e6, db->achieved_iops, db->recorded_iops, 100 * db->within_100us,
        da->capture.iops, da->capture.p50_s * 1e6);
  ck_assert (a->complete && !a->cancelled && a->error == NULL);
  ck_assert_str_eq (a->target.path, dev);
  ck_assert_uint_eq (a->target.size_bytes, 64 * MiB);
  ck_assert (!a->spec.write);
  ck_assert_str_eq (ds_replay_options_const (&a->spec)->trace_path, trace);
  ck_assert (ds_replay_options_const (&b->spec)->speed == 2);
  ck_assert (ds_replay_options_const (&a->spec)->reads_only);
  ck_assert_uint_eq (da->reads, 1000);
  ck_assert_uint_eq (da->writes, 0);
  ck_assert_uint_eq (da->wrapped, 0);
  ck_assert_uint_eq (da->trace_span_bytes <= 32 * MiB, TRUE);
  /* 999 gaps of 2 ms: 500 IOPS as recorded, 1000 at 2x. */
  ck_assert_double_eq_tol (da->recorded_iops, 500, 0.01);
  ck_assert_double_eq_tol (db->recorded_iops, 1000, 0.01);
  ck_assert_msg (da->achieved_iops > 490 && da->achieved_iops < 510, "%.1f IOPS", da->achieved_iops);
  ck_assert_msg (db->achieved_iops > 980 && db->achieved_iops < 1020, "%.1f IOPS", db->achieved_iops);
  ck_assert (da->has_capture);
  ck_assert_uint_eq (da->capture.ios, 1000);
  ck_assert_double_eq_tol (da->capture.iops, 500, 0.01);
  ck_assert_msg (da->capture.p50_s > 198e-6 && da->capture.p50_s < 202e-6, "capture p50 %g", da->capture.p50_s);
  ck_assert (!has_warning (a, "replay_wrapped"));

  /* Both in the library, newest first. */
  ids = library_ids ("replay");
  ck_assert_uint_eq (ids->len, 2);

  /* compare, against each other and each against the capture. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "compare", ids->pdata[1], ids->pdata[0], NULL);
  ck_assert_msg (rc == 0, "compare: %d: %s\n%s", rc, err, out);
  ck_assert_msg (strstr (out, "IOPS, achieved") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Capture latency p99") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Latency p99 / capture's") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "compare", one, two, "--json", NULL);
  ck_assert_msg (rc == 0, "compare --json: %d: %s", rc, err);
  ck_assert_msg (strstr (out, "\"vs_capture.p50\"") != NULL, "%s", out);

  /* report, as for every result. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "report", one, NULL);
  ck_assert_msg (rc == 0, "report: %d: %s", rc, err);
  ck_assert_msg (strstr (out, "Capture               : 1000 I/Os in") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "IOPS                  : ") != NULL, "%s", out);
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
}
END_TEST

/* A trace that reaches past the target's end: the wrap in the result's
 * warnings; --no-library keeps it out of the library; an --output that is
 * the trace is refused before anything runs. */
START_TEST (test_replay_wrapped)
{
  g_autofree char *lib = ds_test_scratch_path ("library-wrap");
  g_autofree char *backing = ds_test_make_ram_file ("small.img", 16 * MiB, 5);
  g_autofree char *dev = ds_test_loop_attach (backing, TRUE);
  g_autofree char *trace = write_trace ("big.dstrace", 50, 1000000, 64 * MiB);
  g_autofree char *res = ds_test_scratch_path ("wrap.json");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (DsResult) r = NULL;
  const DsReplayData *d;
  int rc;

  g_setenv ("DISKSCOPE_RESULTS_DIR", lib, TRUE);
  rc = ds_test_cli (&out, &err, "replay", trace, dev, "--reads-only", "-o", res, "--no-library", NULL);
  ck_assert_msg (rc == 0, "replay: %d: %s", rc, err);
  r = load (res);
  d = r->data;
  ck_assert_uint_gt (d->wrapped, 0);
  ck_assert (has_warning (r, "replay_wrapped"));
  ids = library_ids ("replay");
  ck_assert_uint_eq (ids->len, 0);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "replay", trace, dev, "--reads-only", "-o", trace, NULL);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, "is the trace; nothing was run") != NULL, "%s", err);
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("int-replay-kind");
  TCase *tc = tcase_create ("replay");

  ds_test_init ("int-replay-kind");
  ds_test_require_root ("replays run on loop devices");
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_replay_kept);
  tcase_add_test (tc, test_replay_wrapped);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
