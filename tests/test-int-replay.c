/* test-int-replay.c: replay's closed loop and headroom on fault disks of
 * known latency and capacity (root; FUSE)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Traces written here at known rates and depths, replayed with
 * `diskscope-cli replay --json`:
 * The fault disk's own path (FUSE, the loop device, its server's sleep)
 * adds to what it is told: fio measured p50 93 µs with no delay, and
 * 2.24-2.34 ms for `delay 2000` at 200 IOPS while the machine's 2 cores
 * were busy; its p99 with no delay was 2.4 ms.  So the figures below are
 * taken against fio on the same disk, or with service times long enough
 * (5-20 ms) that this path is a few per cent of them.
 *   - open loop on a disk whose every I/O takes 2 ms (`delay 2000`): p50
 *     at least 2 ms and within 10 % of fio's p50 at the same rate;
 *   - closed loop of a trace that kept 4 in flight, on a disk serving 4
 *     at once in 20 ms each (`actuators 4 20000`): 4 / 20 ms = 200 IOPS
 *     within 10 %, a mean depth of 4 within 10 %, never more than 4 in
 *     flight; --depth 2 halves the rate;
 *   - the headroom search of a 100 IOPS trace on a disk serving at most
 *     400 IOPS (`actuators 2 5000`) with --p99 20ms: the answer is 4x
 *     within 25 %.  Why 25 %: the fault disk's path lowers its capacity a
 *     few per cent under 400 (the factor where the queue, and p99, start to
 *     grow is a little under 4), and the bisection's last step between 2
 *     and 4 (4 and 8) is 0.25 (0.5); 3.0 .. 5.0 holds both;
 *   - --speed 1,2 on a RAM-backed loop device: two rows, each at its
 *     recorded IOPS within 2 %;
 *   - --speed 0, 1,,2, --p99 -1, --loop sideways refused with what is wrong.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define MiB (UINT64_C (1024) * 1024)
#define MS  UINT64_C (1000000)
#define note ds_test_note

/* @n reads of 4 KiB, the i-th issued at i / @per_issue x @gap_ns and
 * complete @lat_ns later (0: no completion times), spread over 16 MiB. */
static char *
write_trace (const char *name,
             unsigned    n,
             unsigned    per_issue,
             uint64_t    gap_ns,
             uint64_t    lat_ns)
{
  char *path = ds_test_scratch_path (name);
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE,
                      .flags = DS_TRACE_HAS_TIMES | (lat_ns ? DS_TRACE_HAS_COMPLETIONS : 0) };
  g_autoptr (GError) error = NULL;
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);

  ck_assert_msg (w != NULL, "%s", error ? error->message : "");
  for (unsigned i = 0; i < n; i++)
    {
      DsTraceRecord r = { .issue_ns = (uint64_t) (i / per_issue) * gap_ns, .queue_ns = DS_TRACE_NO_TIME,
                          .offset = (uint64_t) (i * 7919u % 4096) * 4096, .bytes = 4096,
                          .op = DS_TRACE_OP_READ };

      r.complete_ns = lat_ns ? r.issue_ns + lat_ns : DS_TRACE_NO_TIME;
      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  return path;
}

static JsonObject *
replay (JsonParser        *parser,
        const char *const *args)
{
  g_autofree char *out = NULL, *err = NULL;
  int rc = ds_test_cli_argv (args, NULL, &out, &err);

  ck_assert_msg (rc == 0, "replay: %d: %s", rc, err);
  ck_assert_msg (json_parser_load_from_data (parser, out, -1, NULL), "%s", out);
  return json_node_get_object (json_parser_get_root (parser));
}

#define DBL(o, m) json_object_get_double_member (o, m)
#define INT(o, m) json_object_get_int_member (o, m)

/* fio's p50 of 4 KiB random reads at @iops for 2 s, one at a time. */
static gint64
fio_read_p50 (const char *dev,
              int         iops)
{
  g_autofree char *filename = g_strdup_printf ("--filename=%s", dev);
  g_autofree char *rate = g_strdup_printf ("--rate_iops=%d", iops);
  const char *argv[] = { "fio", "--name=p50", filename, "--rw=randread", "--bs=4k", "--direct=1",
                         "--ioengine=psync", rate, "--runtime=2", "--time_based", "--output-format=json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;

  ck_assert_msg (ds_test_run (argv, &out, &err) == 0, "fio: %s", err);
  ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  o = json_array_get_object_element (json_object_get_array_member (o, "jobs"), 0);
  o = json_object_get_object_member (json_object_get_object_member (json_object_get_object_member (o, "read"),
                                                                    "clat_ns"), "percentile");
  return json_object_get_int_member (o, "50.000000");
}

/* 200 reads a second for 2 s on a disk of 2 ms: open loop, p50 2 ms. */
START_TEST (test_open_delay)
{
  const char *dev = NULL;
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_start (16 * MiB, 11, &dev);
  g_autofree char *trace = write_trace ("open.dstrace", 400, 1, 5 * MS, 0);
  const char *args[] = { "replay", trace, dev, "--reads-only", "--json", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;
  gint64 fio_p50;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  fio_p50 = fio_read_p50 (dev, 200);
  o = replay (parser, args);
  note ("open loop on 2 ms: p50 %" G_GINT64_FORMAT " ns, p99 %" G_GINT64_FORMAT " ns, %.1f of %.1f IOPS; "
        "the disk saw %" G_GUINT64_FORMAT " reads", INT (o, "p50_ns"), INT (o, "p99_ns"), DBL (o, "achieved_iops"),
        DBL (o, "recorded_iops"), ds_faultdisk_counter (disk, "reads"));
  ck_assert_str_eq (json_object_get_string_member (o, "loop"), "open");
  ck_assert_int_eq (INT (o, "reads"), 400);
  ck_assert_int_eq (INT (o, "errors"), 0);
  note ("fio on the same disk, 200 IOPS: p50 %" G_GINT64_FORMAT " ns", fio_p50);
  ck_assert_msg (INT (o, "p50_ns") >= 2000000, "p50 %" G_GINT64_FORMAT " ns, under the disk's 2 ms",
                 INT (o, "p50_ns"));
  ck_assert_msg (INT (o, "p50_ns") > fio_p50 * 0.9 && INT (o, "p50_ns") < fio_p50 * 1.1,
                 "p50 %" G_GINT64_FORMAT " ns, not fio's %" G_GINT64_FORMAT " within 10 %%", INT (o, "p50_ns"),
                 fio_p50);
  /* 200 IOPS of at least 2 ms: 0.4 in flight on average, or a little
   * more (Little's law with the path's overhead). */
  ck_assert_msg (DBL (o, "mean_depth") >= 0.39 && DBL (o, "mean_depth") < 0.8, "depth %.3f",
                 DBL (o, "mean_depth"));
  /* Each read completes 2 ms later, before the next is due (5 ms): the
   * replayer must not sleep on past the next one's time after a
   * completion woke it (it once did, and 97 % of them were late). */
  ck_assert_msg (DBL (o, "within_100us") >= 0.9, "%.1f %% on time", 100 * DBL (o, "within_100us"));
  ck_assert_msg (DBL (o, "achieved_iops") >= 198, "%.1f IOPS", DBL (o, "achieved_iops"));
}
END_TEST

/* A trace that kept 4 in flight (4 reads every ms, each 1 ms), closed
 * loop on 4 actuators of 20 ms: 4 / 20 ms = 200 IOPS at a depth of 4. */
START_TEST (test_closed_depth)
{
  const char *dev = NULL;
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_start (16 * MiB, 12, &dev);
  g_autofree char *trace = write_trace ("depth4.dstrace", 400, 4, MS, MS);
  g_autofree char *shorter = write_trace ("depth4s.dstrace", 160, 4, MS, MS);
  const char *args[] = { "replay", trace, dev, "--reads-only", "--loop", "closed", "--json", NULL };
  const char *two[] = { "replay", shorter, dev, "--reads-only", "--loop", "closed", "--depth", "2",
                        "--json", NULL };
  g_autoptr (JsonParser) parser = json_parser_new (), parser2 = json_parser_new ();
  JsonObject *o;
  double iops, depth;

  ck_assert (ds_faultdisk_control (disk, "actuators 4 20000"));
  ck_assert (ds_faultdisk_control (disk, "reset-counters"));
  o = replay (parser, args);
  iops = DBL (o, "achieved_iops");
  depth = DBL (o, "mean_depth");
  note ("closed loop, recorded depth %.3f at %.1f IOPS: %.1f IOPS, depth %.3f, p50 %" G_GINT64_FORMAT
        " ns; the disk saw at most %" G_GUINT64_FORMAT " at once", DBL (o, "recorded_mean_depth"),
        DBL (o, "recorded_iops"), iops, depth, INT (o, "p50_ns"), ds_faultdisk_counter (disk, "inflight_max"));
  ck_assert_str_eq (json_object_get_string_member (o, "loop"), "closed");
  ck_assert_int_eq (INT (o, "reads"), 400);
  ck_assert_double_eq_tol (DBL (o, "recorded_mean_depth"), 4, 0.01);
  ck_assert_double_eq_tol (DBL (o, "recorded_iops"), 399.0 / 0.099, 0.5);
  ck_assert_msg (iops > 180 && iops < 220, "closed loop: %.1f IOPS, not 200 within 10 %%", iops);
  ck_assert_msg (depth > 3.6 && depth < 4.4, "closed loop: mean depth %.3f, not 4 within 10 %%", depth);
  /* Never more than the trace had. */
  ck_assert_int_eq (INT (o, "max_depth"), 4);
  ck_assert_int_eq (INT (o, "waited_for_slot"), 0);

  /* --depth 2 instead: half the actuators busy, half the rate. */
  o = replay (parser2, two);
  note ("closed loop, --depth 2: %.1f IOPS, depth %.3f", DBL (o, "achieved_iops"), DBL (o, "mean_depth"));
  ck_assert_double_eq (DBL (o, "recorded_mean_depth"), 2);
  ck_assert_msg (DBL (o, "achieved_iops") > 90 && DBL (o, "achieved_iops") < 110, "--depth 2: %.1f IOPS",
                 DBL (o, "achieved_iops"));
  ck_assert_msg (DBL (o, "mean_depth") > 1.8 && DBL (o, "mean_depth") < 2.2, "--depth 2: depth %.3f",
                 DBL (o, "mean_depth"));
  ck_assert_int_eq (INT (o, "max_depth"), 2);
}
END_TEST

/* 100 reads a second for 2 s on a disk that serves at most 400 a
 * second: the headroom is 4x. */
START_TEST (test_search)
{
  const char *dev = NULL;
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_start (16 * MiB, 13, &dev);
  g_autofree char *trace = write_trace ("rate100.dstrace", 200, 1, 10 * MS, 0);
  const char *args[] = { "replay", trace, dev, "--reads-only", "--speed", "search", "--p99", "20ms",
                         "--json", NULL };
  const char *text[] = { "replay", trace, dev, "--reads-only", "--speed", "search", "--p99", "20ms",
                         "--step-time", "250ms", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *o, *search;
  JsonArray *steps;
  double factor;
  int64_t start = g_get_monotonic_time ();

  ck_assert (ds_faultdisk_control (disk, "actuators 2 5000"));
  o = replay (parser, args);
  search = json_object_get_object_member (o, "search");
  steps = json_object_get_array_member (o, "steps");
  factor = DBL (search, "factor");
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *st = json_array_get_object_element (steps, i);

      note ("step %.3gx: %.1f of %.1f IOPS, p99 %" G_GINT64_FORMAT " ns (reads %" G_GINT64_FORMAT
            "), %.1f s, %s", DBL (st, "factor"), DBL (st, "achieved_iops"), DBL (st, "recorded_iops"),
            INT (st, "p99_ns"), INT (st, "read_p99_ns"), DBL (st, "duration_s"),
            json_object_get_boolean_member (st, "held") ? "held" : "not held");
      ck_assert_int_eq (json_array_get_length (json_object_get_array_member (st, "percentiles")),
                        DS_TRACE_N_CDF);
    }
  note ("search: %.3gx (%.1f s): %s", factor, (g_get_monotonic_time () - start) / 1e6,
        json_object_get_string_member (search, "answer"));
  ck_assert_int_eq (INT (o, "target_p99_ns"), 20000000);
  /* The first step: 1x, held. */
  ck_assert_double_eq (DBL (json_array_get_object_element (steps, 0), "factor"), 1);
  ck_assert (json_object_get_boolean_member (json_array_get_object_element (steps, 0), "held"));
  ck_assert_msg (factor >= 3.0 && factor <= 5.0, "headroom %.3gx, not 4 within 25 %%", factor);
  ck_assert_double_gt (DBL (search, "failed_factor"), factor);
  ck_assert_ptr_nonnull (g_strstr_len (json_object_get_string_member (search, "answer"), -1,
                                       "This target holds the captured workload up to "));
  /* The text: the table, then the sentence (steps of at most 250 ms: the
   * trace's first 250 ms x factor, the answer not checked). */
  ck_assert_int_eq (ds_test_cli_argv (text, NULL, &out, &err), 0);
  note ("%s", out);
  ck_assert_msg (strstr (out, "factor  IOPS asked") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "x today's rate (") != NULL && strstr (out, ") with p99 under 20 ms.\n") != NULL,
                 "%s", out);
}
END_TEST

/* --speed 1,2 on memory: two rows, each at its recorded IOPS within 2 %. */
START_TEST (test_speed_list)
{
  g_autofree char *backing = ds_test_make_ram_file ("list.img", 16 * MiB, 14);
  g_autofree char *dev = ds_test_loop_attach_dio (backing, TRUE);
  g_autofree char *trace = write_trace ("rate1000.dstrace", 1000, 1, MS, 200000);
  const char *args[] = { "replay", trace, dev, "--reads-only", "--speed", "1,2", "--json", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;
  JsonArray *steps;

  o = replay (parser, args);
  steps = json_object_get_array_member (o, "steps");
  ck_assert_int_eq (json_array_get_length (steps), 2);
  ck_assert (json_object_get_boolean_member (json_object_get_object_member (o, "trace"), "has_latency"));
  /* Without --p99, the trace's own p99 (200 µs recorded) is the target. */
  ck_assert_msg (labs (INT (o, "target_p99_ns") - 200000) <= 2000, "%" G_GINT64_FORMAT, INT (o, "target_p99_ns"));
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *st = json_array_get_object_element (steps, i);
      JsonObject *p99 = json_array_get_object_element (json_object_get_array_member (st, "percentiles"), 8);
      double rec = DBL (st, "recorded_iops"), got = DBL (st, "achieved_iops");

      note ("%.0fx: %.1f of %.1f IOPS, %.2f %% within 100 us, p99 %" G_GINT64_FORMAT " ns (trace's %"
            G_GINT64_FORMAT ")", DBL (st, "factor"), got, rec, 100 * DBL (st, "within_100us"),
            INT (p99, "replay_ns"), INT (p99, "trace_ns"));
      ck_assert_double_eq (DBL (st, "factor"), i + 1);
      ck_assert_double_eq_tol (rec, 1000.0 * (i + 1), 0.01);
      ck_assert_msg (got > rec * 0.98 && got < rec * 1.02, "%.0fx: achieved %.1f of %.1f IOPS", DBL (st, "factor"),
                     got, rec);
      ck_assert_double_eq (DBL (p99, "percent"), 99);
      ck_assert_int_eq (INT (p99, "trace_ns"), INT (o, "target_p99_ns"));
      ck_assert_int_eq (INT (st, "reads"), 1000);
    }
  ds_test_loop_detach (dev);
}
END_TEST

static void
refused (const char *const *args,
         const char        *message)
{
  g_autofree char *out = NULL, *err = NULL;
  int rc = ds_test_cli_argv (args, NULL, &out, &err);

  ck_assert_msg (rc == 2, "%s: exit %d: %s", args[5], rc, err);
  ck_assert_msg (strstr (err, message) != NULL, "wanted “%s” in: %s", message, err);
  ck_assert_str_eq (out, "");
}

START_TEST (test_bad_input)
{
  g_autofree char *trace = write_trace ("bad.dstrace", 10, 1, MS, 0);
  g_autofree char *target = ds_test_make_file ("bad.img", MiB, 15);
  const char *speed0[] = { "replay", trace, target, "--reads-only", "--speed", "0", NULL };
  const char *empty[] = { "replay", trace, target, "--reads-only", "--speed", "1,,2", NULL };
  const char *p99[] = { "replay", trace, target, "--reads-only", "--p99", "-1", NULL };
  const char *loop[] = { "replay", trace, target, "--reads-only", "--loop", "sideways", NULL };
  const char *closed_speed[] = { "replay", trace, target, "--reads-only", "--loop", "closed", "--speed", "2", NULL };
  const char *no_depth[] = { "replay", trace, target, "--reads-only", "--loop", "closed", NULL };
  const char *no_p99[] = { "replay", trace, target, "--reads-only", "--speed", "search", NULL };
  g_autofree char *out = NULL, *err = NULL;

  refused (speed0, "--speed 0: “0” is not a factor between 0.001 and 1000");
  refused (empty, "--speed 1,,2: an empty factor");
  refused (p99, "--p99 -1: not a latency");
  refused (loop, "--loop must be open or closed, not “sideways”");
  refused (closed_speed, "--speed is for the open loop");
  refused (no_p99, "has no completion times, so no p99 of its own: give the search a target (--p99 5ms)");
  /* A trace without completions: its depth is unknown. */
  ck_assert_int_eq (ds_test_cli_argv (no_depth, NULL, &out, &err), 2);
  ck_assert_msg (strstr (err, "has no completion times (a fio iolog): its depth is not known; "
                              "give the closed loop a depth (--depth N)") != NULL, "%s", err);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("int-replay");
  TCase *tc = tcase_create ("replay");
  g_autofree char *why = NULL;

  ds_test_init ("int-replay");
  ds_test_require_root ("loop devices and fault disks");
  ds_faultdisk_init ();
  if (!ds_faultdisk_available (&why))
    {
      printf ("1..0 # SKIP the fault disk: %s\n", why);
      return 0;
    }
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_open_delay);
  tcase_add_test (tc, test_closed_depth);
  tcase_add_test (tc, test_search);
  tcase_add_test (tc, test_speed_list);
  tcase_add_test (tc, test_bad_input);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
