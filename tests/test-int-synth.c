/* test-int-synth.c: a workload synthesized from a trace, run and traced
 * again (root; fio)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio runs randrw, 8 KiB, rate_iops=1400,600, iodepth 4 on a loop device
 * while `diskscope-cli capture` records it; `synthesize --fio-job` makes
 * a job of the capture, which fio runs on a second loop device for as
 * long, captured again: its profile must show 70 % reads within 3 points,
 * the 8 KiB mode and 2000 IOPS within 5 %.  Two fio jobs in a row,
 * captured, are two phases of their kinds and rates.  A trace written here, two
 * seconds of sequential writes then two of random reads, gives two
 * phases: write, then randread, as JSON and rows.  A trace with nothing
 * to synthesize is refused with its reason; the job file never replaces
 * the trace nor a device.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define MiB (UINT64_C (1024) * 1024)
#define MS  UINT64_C (1000000)
#define note ds_test_note

static gboolean
no_instances (void)
{
  g_autofree char *dir = ds_trace_tracefs_dir (NULL);
  g_autofree char *path = dir ? g_build_filename (dir, "instances", NULL) : NULL;
  g_autoptr (GDir) d = path ? g_dir_open (path, 0, NULL) : NULL;
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "diskscope-"))
      return FALSE;
  return TRUE;
}

/* Starts a capture of @dev and waits until it traces. */
static DsFaultProc *
start_capture (const char *dev,
               const char *duration,
               const char *out)
{
  const char *argv[] = { ds_test_cli_path (), "capture", dev, "--duration", duration, "-o", out, NULL };
  DsFaultProc *proc = ds_fault_proc_spawn (argv);

  for (int i = 0; i < 200 && no_instances (); i++)
    g_usleep (20000);
  ck_assert_msg (!no_instances (), "no tracefs instance appeared");
  g_usleep (200000);
  return proc;
}

static void
end_capture (DsFaultProc *proc)
{
  int rc = ds_fault_proc_wait (proc, 20000);
  g_autofree char *out = ds_fault_proc_stdout (proc);

  ck_assert_msg (rc == 0, "capture: %d: %s", rc, ds_fault_proc_stderr (proc));
  ck_assert_msg (strstr (out, "lost events: 0") != NULL, "%s", out);
}

static JsonObject *
cli_json (JsonParser        *parser,
          const char *const *args)
{
  g_autofree char *out = NULL, *err = NULL;
  int rc = ds_test_cli_argv (args, NULL, &out, &err);

  ck_assert_msg (rc == 0, "%s: %d: %s", args[0], rc, err);
  ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
check_profile (JsonObject *o,
               const char *what)
{
  double iops = json_object_get_double_member (o, "iops");
  double reads = json_object_get_double_member (o, "read_share");
  gint64 mode = json_object_get_int_member (o, "mode_bytes");

  note ("%s: %.1f IOPS, %.2f %% reads, mode %" G_GINT64_FORMAT " B, seq %.3f, depth %.2f", what, iops,
        100 * reads, mode, json_object_get_double_member (o, "sequential_share"),
        json_object_get_double_member (o, "mean_depth"));
  ck_assert_msg (iops > 1900 && iops < 2100, "%s: %.1f IOPS, not 2000 within 5 %%", what, iops);
  ck_assert_msg (reads > 0.67 && reads < 0.73, "%s: %.1f %% reads, not 70 within 3", what, 100 * reads);
  ck_assert_int_eq (mode, 8192);
}

START_TEST (test_synth_fio)
{
  g_autofree char *b1 = ds_test_make_file ("one.img", 256 * MiB, 7), *b2 = ds_test_make_file ("two.img", 256 * MiB, 8);
  g_autofree char *dev1 = ds_test_loop_attach_dio (b1, TRUE), *dev2 = ds_test_loop_attach_dio (b2, TRUE);
  g_autofree char *cap1 = ds_test_scratch_path ("one.dstrace"), *cap2 = ds_test_scratch_path ("two.dstrace");
  g_autofree char *job = ds_test_scratch_path ("synth.fio"), *filename = g_strdup_printf ("--filename=%s", dev1);
  g_autofree char *text = NULL, *out = NULL, *err = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new (), p3 = json_parser_new ();
  const char *fio[] = { "fio", "--name=trace", filename, "--rw=randrw", "--bs=8k", "--rate_iops=1400,600",
                        "--iodepth=4", "--ioengine=libaio", "--direct=1", "--runtime=3", "--time_based",
                        "--output-format=terse", NULL };
  const char *synth[] = { "synthesize", cap1, "--process", "fio", "--fio-job", job, "--target", dev2, NULL };
  const char *synth_json[] = { "synthesize", cap1, "--process", "fio", "--json", NULL };
  const char *profile1[] = { "profile", cap1, "--process", "fio", "--json", NULL };
  const char *profile2[] = { "profile", cap2, "--process", "fio", "--json", NULL };
  const char *run[] = { "fio", "--output-format=terse", job, NULL };
  JsonObject *o, *phase;
  JsonArray *phases;
  DsFaultProc *proc;

  proc = start_capture (dev1, "5s", cap1);
  ds_test_run_ok (fio);
  end_capture (proc);
  ds_fault_proc_free (proc);
  check_profile (cli_json (p1, profile1), "fio, captured");
  o = cli_json (p2, synth_json);
  phases = json_object_get_array_member (o, "phases");
  ck_assert_int_eq (json_array_get_length (phases), 1);
  phase = json_array_get_object_element (phases, 0);
  note ("phase: %s, %.3f s, %.1f reads/s, %.1f writes/s, depth %.2f (peak %" G_GINT64_FORMAT ")",
        json_object_get_string_member (phase, "pattern"), json_object_get_double_member (phase, "duration_s"),
        json_object_get_double_member (phase, "read_iops"), json_object_get_double_member (phase, "write_iops"),
        json_object_get_double_member (phase, "mean_depth"), json_object_get_int_member (phase, "peak_depth"));
  ck_assert_str_eq (json_object_get_string_member (phase, "pattern"), "randrw");
  ck_assert_double_eq_tol (json_object_get_double_member (phase, "read_iops"), 1400, 28);
  ck_assert_double_eq_tol (json_object_get_double_member (phase, "write_iops"), 600, 12);
  ck_assert_int_eq (ds_test_cli_argv (synth, NULL, &out, &err), 0);
  ck_assert (g_file_get_contents (job, &text, NULL, NULL));
  note ("%s", text);
  {
    g_autofree char *rate = g_strdup_printf ("\nrate_iops=%.0f,%.0f\n", json_object_get_double_member (phase, "read_iops"),
                                             json_object_get_double_member (phase, "write_iops"));

    ck_assert_msg (strstr (text, rate) != NULL, "no %s", rate);
  }
  {
    const char *parse[] = { "fio", "--parse-only", job, NULL };

    ds_test_run_ok (parse);
  }
  proc = start_capture (dev2, "5s", cap2);
  ds_test_run_ok (run);
  end_capture (proc);
  ds_fault_proc_free (proc);
  check_profile (cli_json (p3, profile2), "the synthesized job, captured");
  ds_test_loop_detach (dev1);
  ds_test_loop_detach (dev2);
}
END_TEST

/* fio's two jobs one after the other, captured: sequential 128 KiB writes
 * at 200 a second, then random 4 KiB reads at 1000 a second; the busy
 * phases are those two, at those rates (an idle one between them when
 * fio took a tenth of a second or more to start the second job). */
START_TEST (test_fio_phases)
{
  g_autofree char *backing = ds_test_make_file ("jobs.img", 256 * MiB, 9);
  g_autofree char *dev = ds_test_loop_attach_dio (backing, TRUE), *cap = ds_test_scratch_path ("jobs.dstrace");
  g_autofree char *filename = g_strdup_printf ("--filename=%s", dev);
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *fio[] = { "fio", filename, "--ioengine=libaio", "--direct=1", "--time_based", "--runtime=2",
                        "--output-format=terse", "--name=w", "--rw=write", "--bs=128k", "--rate_iops=200",
                        "--name=r", "--stonewall", "--rw=randread", "--bs=4k", "--rate_iops=1000", NULL };
  const char *synth[] = { "synthesize", cap, "--process", "fio", "--json", NULL };
  const char *want[] = { "write", "randread" };
  const double rate[] = { 200, 1000 };
  DsFaultProc *proc = start_capture (dev, "6s", cap);
  JsonArray *phases;
  guint busy = 0;

  ds_test_run_ok (fio);
  end_capture (proc);
  ds_fault_proc_free (proc);
  phases = json_object_get_array_member (cli_json (parser, synth), "phases");
  for (guint i = 0; i < json_array_get_length (phases); i++)
    {
      JsonObject *p = json_array_get_object_element (phases, i);
      const char *pattern = json_object_get_string_member (p, "pattern");
      double iops = json_object_get_double_member (p, "read_iops") + json_object_get_double_member (p, "write_iops");

      note ("phase %u: %s, %.3f s from %.3f s, %.1f IOPS", i + 1, pattern,
            json_object_get_double_member (p, "duration_s"), json_object_get_double_member (p, "start_s"), iops);
      if (strcmp (pattern, "idle") == 0)
        continue;
      ck_assert_uint_lt (busy, 2);
      ck_assert_str_eq (pattern, want[busy]);
      ck_assert_msg (fabs (iops - rate[busy]) < 0.05 * rate[busy], "%s at %.1f IOPS, not %.0f", pattern, iops, rate[busy]);
      ck_assert_double_eq_tol (json_object_get_double_member (p, "duration_s"), 2, 0.1);
      busy++;
    }
  ck_assert_uint_eq (busy, 2);
  ds_test_loop_detach (dev);
}
END_TEST

/* Two seconds of sequential 128 KiB writes at 200 a second, then two of
 * random 4 KiB reads at 1000 a second. */
START_TEST (test_two_phases)
{
  g_autofree char *path = ds_test_scratch_path ("two.dstrace"), *out = NULL, *err = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  DsTraceRecord r = { .queue_ns = DS_TRACE_NO_TIME };
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *json[] = { "synthesize", path, "--json", NULL };
  const char *rows[] = { "synthesize", path, "--rows", NULL };
  JsonArray *phases;

  ck_assert (w != NULL);
  r.op = DS_TRACE_OP_WRITE;
  r.bytes = 128 * 1024;
  for (unsigned i = 0; i < 400; i++)
    {
      r.issue_ns = i * 5 * MS;
      r.complete_ns = r.issue_ns + MS;
      r.offset = i * UINT64_C (131072);
      ck_assert (ds_trace_writer_add (w, &r, NULL));
    }
  r.op = DS_TRACE_OP_READ;
  r.bytes = 4096;
  for (unsigned i = 0; i < 2000; i++)
    {
      r.issue_ns = 2000 * MS + i * MS;
      r.complete_ns = r.issue_ns + 200000;
      r.offset = (uint64_t) (i * 7919 % 50000) * 4096;
      ck_assert (ds_trace_writer_add (w, &r, NULL));
    }
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  phases = json_object_get_array_member (cli_json (parser, json), "phases");
  ck_assert_int_eq (json_array_get_length (phases), 2);
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (phases, 0), "pattern"), "write");
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (phases, 1), "pattern"), "randread");
  ck_assert_int_eq (ds_test_cli_argv (rows, NULL, &out, &err), 0);
  ck_assert_str_eq (out, "write,128k,qd1,t1,2s;randread,4k,qd1,t1,2s\n");
  ck_assert_msg (strstr (err, "not limited") != NULL, "%s", err);
}
END_TEST

START_TEST (test_refusals)
{
  g_autofree char *path = ds_test_scratch_path ("flushes.dstrace"), *out = NULL, *err = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  DsTraceRecord r = { .queue_ns = DS_TRACE_NO_TIME, .complete_ns = DS_TRACE_NO_TIME, .op = DS_TRACE_OP_FLUSH };

  ck_assert (w != NULL);
  for (unsigned i = 0; i < 10; i++)
    {
      r.issue_ns = i * MS;
      ck_assert (ds_trace_writer_add (w, &r, NULL));
    }
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  /* Not a trace this command can use: exit 2, as profile's refusals. */
  ck_assert_int_eq (ds_test_cli (&out, &err, "synthesize", path, NULL), 2);
  ck_assert_msg (strstr (err, "no reads or writes (10 requests)") != NULL, "%s", err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "synthesize", path, "--phases", "65", NULL), 2);
}
END_TEST

/* The job file never replaces the trace it is made from, nor a device. */
START_TEST (test_job_file_refused)
{
  g_autofree char *path = ds_test_scratch_path ("keep.dstrace"), *before = NULL, *after = NULL;
  g_autofree char *out = NULL, *err = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  DsTraceRecord r = { .queue_ns = DS_TRACE_NO_TIME, .complete_ns = DS_TRACE_NO_TIME, .op = DS_TRACE_OP_READ,
                      .bytes = 4096 };

  ck_assert (w != NULL);
  for (unsigned i = 0; i < 10; i++)
    {
      r.issue_ns = i * MS;
      ck_assert (ds_trace_writer_add (w, &r, NULL));
    }
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  before = ds_test_checksum (path);
  ck_assert_int_eq (ds_test_cli (&out, &err, "synthesize", path, "--fio-job", path, NULL), 1);
  ck_assert_msg (strstr (err, "nothing was written") != NULL, "%s", err);
  after = ds_test_checksum (path);
  ck_assert_str_eq (before, after);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "synthesize", path, "--fio-job", "/dev/null", NULL), 1);
  ck_assert_msg (strstr (err, "nothing was written") != NULL, "%s", err);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("int-synth");
  TCase *tc = tcase_create ("synth");
  g_autofree char *tracefs = NULL, *fio = NULL;

  ds_test_init ("int-synth");
  ds_test_require_root ("capture needs tracefs and loop devices");
  ds_faultdisk_init ();
  tracefs = ds_trace_tracefs_dir (NULL);
  if (tracefs == NULL)
    {
      printf ("1..0 # SKIP tracefs is not available\n");
      return 0;
    }
  /* tools/install-deps installs fio: without it the test is missing, not skipped. */
  fio = g_find_program_in_path ("fio");
  if (fio == NULL)
    {
      printf ("Bail out! fio is not installed (tools/install-deps installs it)\n");
      return 1;
    }
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_synth_fio);
  tcase_add_test (tc, test_fio_phases);
  tcase_add_test (tc, test_two_phases);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_job_file_refused);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
