/* test-int-trace.c: capture on loop devices against fio's known workload
 * (root; fio)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio runs randrw, 8 KiB, rate_iops=1400,600 (reads and writes limited
 * apart: 2000 IOPS, 70 % reads), iodepth 4, O_DIRECT, on a loop device
 * while `diskscope-cli capture` records it; the profile must recover the
 * mix within 3 points, the 8 KiB mode and 2000 IOPS within 5 %, and fio's
 * own write_iolog of the run must profile the same.  Captures leave no
 * tracefs instance behind, also when stopped by SIGTERM.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define MiB (UINT64_C (1024) * 1024)
#define note ds_test_note

/* The diskscope-* instances that exist now, space-separated. */
static char *
instances (void)
{
  g_autofree char *dir = ds_trace_tracefs_dir (NULL);
  g_autofree char *path = dir ? g_build_filename (dir, "instances", NULL) : NULL;
  g_autoptr (GDir) d = path ? g_dir_open (path, 0, NULL) : NULL;
  GString *out = g_string_new ("");
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "diskscope-"))
      g_string_append_printf (out, "%s ", name);
  return g_string_free (out, FALSE);
}

static DsFaultProc *
start_capture (const char *dev,
               const char *duration,
               const char *out)
{
  const char *argv[] = { ds_test_cli_path (), "capture", dev, "--duration", duration, "-o", out, NULL };

  return ds_fault_proc_spawn (argv);
}

/* Waits until the capture's instance exists (it traces from then on). */
static void
wait_instance (void)
{
  for (int i = 0; i < 200; i++)
    {
      g_autofree char *now = instances ();

      if (now[0] != 0)
        {
          g_usleep (200000);
          return;
        }
      g_usleep (20000);
    }
  ck_abort_msg ("no tracefs instance appeared");
}

static JsonObject *
profile_json (const char *path,
              JsonParser *parser)
{
  g_autofree char *out = NULL, *err = NULL;
  int rc = ds_test_cli (&out, &err, "profile", path, "--json", NULL);

  ck_assert_msg (rc == 0, "profile %s: %d: %s", path, rc, err);
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

  note ("%s: %.1f IOPS, %.2f %% reads, mode %" G_GINT64_FORMAT " B, seq %.3f, depth %.2f, "
        "p50 %" G_GINT64_FORMAT " ns, p99 %" G_GINT64_FORMAT " ns, lost %" G_GINT64_FORMAT, what, iops,
        100 * reads, mode, json_object_get_double_member (o, "sequential_share"),
        json_object_get_double_member (o, "mean_depth"), json_object_get_int_member (o, "p50_ns"),
        json_object_get_int_member (o, "p99_ns"), json_object_get_int_member (o, "lost_events"));
  ck_assert_msg (iops > 1900 && iops < 2100, "%s: %.1f IOPS, not 2000 within 5 %%", what, iops);
  ck_assert_msg (reads > 0.67 && reads < 0.73, "%s: %.1f %% reads, not 70 within 3", what, 100 * reads);
  ck_assert_int_eq (mode, 8192);
  ck_assert_msg (json_object_get_double_member (o, "sequential_share") < 0.05, "%s: random I/O seen sequential", what);
}

START_TEST (test_capture_fio)
{
  g_autofree char *dev = ds_test_loop_new (256 * MiB, FALSE), *cap = ds_test_scratch_path ("fio.dstrace");
  g_autofree char *iolog = ds_test_scratch_path ("fio.iolog"), *out = NULL, *err = NULL;
  g_autofree char *filename = NULL, *logopt = NULL, *left = NULL, *cap_out = NULL;
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  JsonObject *a, *b;
  int rc;

  filename = g_strdup_printf ("--filename=%s", dev);
  logopt = g_strdup_printf ("--write_iolog=%s", iolog);
  proc = start_capture (dev, "7s", cap);
  wait_instance ();
  {
    const char *fio[] = { "fio", "--name=trace", filename, "--rw=randrw", "--bs=8k",
                          "--rate_iops=1400,600", "--iodepth=4", "--ioengine=libaio", "--direct=1",
                          "--runtime=5", "--time_based", logopt, "--output-format=terse", NULL };

    ds_test_run_ok (fio);
  }
  rc = ds_fault_proc_wait (proc, 20000);
  cap_out = ds_fault_proc_stdout (proc);
  note ("%s", cap_out);
  ck_assert_msg (rc == 0, "capture: %d: %s", rc, ds_fault_proc_stderr (proc));
  ck_assert (strstr (cap_out, "lost events: 0") != NULL);
  left = instances ();
  ck_assert_str_eq (left, "");
  a = profile_json (cap, p1);
  check_profile (a, "capture");
  ck_assert_msg (json_object_get_int_member (a, "p50_ns") > 0, "no latency in a capture");
  ck_assert_int_le (json_object_get_int_member (a, "max_depth"), 4 + 1);
  b = profile_json (iolog, p2);
  check_profile (b, "fio iolog");
  ck_assert_int_eq (json_object_get_int_member (a, "reads"), json_object_get_int_member (b, "reads"));
  ck_assert_int_eq (json_object_get_int_member (a, "writes"), json_object_get_int_member (b, "writes"));
  ck_assert_double_eq_tol (json_object_get_double_member (a, "iops"),
                           json_object_get_double_member (b, "iops"), 20);
  rc = ds_test_cli (&out, &err, "profile", cap, NULL);
  ck_assert_int_eq (rc, 0);
  ck_assert (strstr (out, "8192 B") != NULL);
  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_capture_sigterm)
{
  g_autofree char *dev = ds_test_loop_new (64 * MiB, TRUE);     /* read-only: capture never writes */
  g_autofree char *cap = ds_test_scratch_path ("term.dstrace"), *left = NULL, *out = NULL;
  g_autoptr (DsFaultProc) proc = start_capture (dev, "60s", cap);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) r = NULL;
  int rc;

  wait_instance ();
  {
    g_autofree char *input = g_strdup_printf ("if=%s", dev);
    const char *dd[] = { "dd", input, "of=/dev/null", "bs=4k", "count=100",
                         "iflag=direct", "status=none", NULL };

    ds_test_run_ok (dd);
  }
  g_usleep (300000);
  ds_fault_proc_signal (proc, SIGTERM);
  rc = ds_fault_proc_wait (proc, 10000);
  out = ds_fault_proc_stdout (proc);
  ck_assert_msg (rc == 130, "capture after SIGTERM: %d: %s", rc, ds_fault_proc_stderr (proc));
  left = instances ();
  ck_assert_str_eq (left, "");
  r = ds_trace_reader_open (cap, &error);
  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  ck_assert_uint_ge (ds_trace_reader_header (r)->record_count, 100);
  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_capture_refuses)
{
  g_autofree char *file = ds_test_make_file ("plain.img", MiB, 1), *out = NULL, *err = NULL;
  g_autofree char *cap = ds_test_scratch_path ("no.dstrace"), *left = NULL;

  ck_assert_int_eq (ds_test_cli (&out, &err, "capture", file, "-o", cap, NULL), 2);
  ck_assert (strstr (err, "not a block device") != NULL);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "capture", "/dev/null", NULL), 2);
  left = instances ();
  ck_assert_str_eq (left, "");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("int-trace");
  TCase *tc = tcase_create ("capture");
  g_autofree char *tracefs = NULL;

  ds_test_init ("int-trace");
  ds_test_require_root ("capture needs tracefs and loop devices");
  ds_faultdisk_init ();
  tracefs = ds_trace_tracefs_dir (NULL);
  if (tracefs == NULL)
    {
      printf ("1..0 # SKIP tracefs is not available\n");
      return 0;
    }
  if (!g_find_program_in_path ("fio"))
    {
      printf ("1..0 # SKIP fio is not installed\n");
      return 0;
    }
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_capture_fio);
  tcase_add_test (tc, test_capture_sigterm);
  tcase_add_test (tc, test_capture_refuses);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
