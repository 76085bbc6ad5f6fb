/* test-int-mark.c: presets and the mark result on real loop devices and
 * filesystems (root): the steps, their series and histograms, CrystalDiskMark's
 * text, folders, and every way a preset run is refused or stopped
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-faultdisk.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define note ds_test_note

/* Several lines, each a TAP comment. */
static void
note_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (unsigned i = 0; lines[i] != NULL; i++)
    note ("%s", lines[i]);
}

#define MIB (UINT64_C (1) << 20)

static char *device;

static void
setup (void)
{
  device = ds_test_loop_new (64 * MIB, FALSE);
}

static void
teardown (void)
{
  ds_test_loop_detach (device);
  g_clear_pointer (&device, g_free);
}

/* diskscope-cli with @args (NULL-terminated); its exit status, stdout and
 * stderr. */
static int
run_cli (const char *const  *args,
         char              **ret_out,
         char              **ret_err)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;

  g_strv_builder_add (builder, ds_test_cli_path ());
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  return ds_test_run ((const char *const *) argv, ret_out, ret_err);
}

static JsonNode *
must_parse (const char *out,
            const char *err)
{
  JsonNode *root = ds_fault_json_parse (out);

  ck_assert_msg (root != NULL, "stdout is not JSON; stderr: %.400s", err ? err : "");
  return root;
}

static JsonArray *
steps_of (JsonNode *root)
{
  JsonNode *node = ds_fault_json_get (root, "results.steps");

  ck_assert_msg (node != NULL && JSON_NODE_HOLDS_ARRAY (node), "no results.steps");
  return json_node_get_array (node);
}

static JsonObject *
step_at (JsonArray *steps,
         guint      i)
{
  ck_assert_uint_lt (i, json_array_get_length (steps));
  return json_array_get_object_element (steps, i);
}

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

/* A direction of a workload result: series and histogram agree with the
 * totals. */
static void
check_direction (JsonObject *results,
                 const char *dir,
                 double      interval_s)
{
  JsonObject *d = json_object_get_object_member (results, dir);
  JsonObject *lat = json_object_get_object_member (d, "latency_s");
  JsonArray *hist = json_object_get_array_member (d, "latency_histogram");
  JsonArray *series = json_object_get_array_member (results, "series");
  int64_t ios = json_object_get_int_member (d, "ios");
  double runtime = json_object_get_double_member (results, "runtime_s");
  double p99 = json_object_get_double_member (lat, "p99");
  double prev_t = 0;
  double counted = 0;
  int64_t total = 0;
  int64_t rank = (int64_t) (0.99 * (double) ios + 0.5);
  double p99_bucket_upper = 0;

  ck_assert_int_gt (ios, 0);
  ck_assert_double_eq_tol (json_object_get_double_member (results, "interval_s"), interval_s, 1e-9);
  ck_assert (json_object_has_member (lat, "p99_99") && json_object_has_member (lat, "stddev"));

  /* The histogram adds up to the I/Os, and p99 lies in the bucket where
   * the 99th percentile of the counts falls. */
  for (guint i = 0; i < json_array_get_length (hist); i++)
    {
      JsonObject *b = json_array_get_object_element (hist, i);

      total += json_object_get_int_member (b, "count");
      if (p99_bucket_upper == 0 && total >= rank)
        p99_bucket_upper = json_object_get_double_member (b, "upper_s");
    }
  ck_assert_int_eq (total, ios);
  ck_assert_msg (p99 < p99_bucket_upper && p99 >= p99_bucket_upper * 63 / 64 - 1e-9,
                 "p99 %g s is not in the bucket below %g s", p99, p99_bucket_upper);

  /* One point per interval; the last ends with the run; together they
   * hold every I/O. */
  ck_assert_uint_ge (json_array_get_length (series), 1);
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *p = json_array_get_object_element (series, i);
      JsonObject *pd = json_object_get_object_member (p, dir);
      double t = json_object_get_double_member (p, "t_s");

      ck_assert (t > prev_t);
      counted += json_object_get_double_member (pd, "iops") * (t - prev_t);
      ck_assert (json_object_get_double_member (pd, "p50_s") <= json_object_get_double_member (pd, "p99_s"));
      prev_t = t;
    }
  ck_assert_msg (fabs (prev_t - runtime) < 0.05 * runtime + 0.002, "series ends at %g s, run %g s",
                 prev_t, runtime);
  ck_assert_msg (fabs (counted - (double) ios) <= 0.02 * (double) ios + 2,
                 "series holds %.0f I/Os of %" G_GINT64_FORMAT, counted, ios);
}

/* ---- custom rows ----------------------------------------------------------- */

/* The user's rows: each step what its row says, sane figures, the row's
 * own time, and the rows in params, which load back as the same rows. */
START_TEST (test_mark_custom_rows)
{
  g_autofree char *saved = g_build_filename (ds_test_scratch_dir (), "rows.json", NULL);
  const char *args[] = { "mark", device, "--row", "randread,4k,q8t2", "--row", "seq,128k,qd2",
                          "--rows", "randrw,8k,qd4,t1,mix70,800ms", "--count", "1",
                          "--duration", "400ms", "--warmup", "0", "--pause", "0",
                          "--interval", "200ms", "--size", "32M", "--destroy-data", device,
                          "--json", "-o", saved, NULL };
  const struct { const char *id, *pattern; unsigned bs, qd, threads, read_percent; double time_s; } want[] = {
    { "rnd8k-q4t1-r70-mix", "randrw", 8192, 4, 1, 70, 0.8 },
    { "rnd4k-q8t2-read", "randread", 4096, 8, 2, 100, 0.4 },
    { "seq128k-q2t1-read", "read", 131072, 2, 1, 100, 0.4 },
    { "seq128k-q2t1-write", "write", 131072, 2, 1, 0, 0.4 },
  };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (GError) error = NULL;
  JsonArray *rows;
  JsonArray *steps;
  int rc;

  rc = run_cli (args, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = must_parse (out, err);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "complete")));
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "params.preset")), "custom");
  rows = json_node_get_array (ds_fault_json_get (root, "params.rows"));
  ck_assert_uint_eq (json_array_get_length (rows), 3);
  /* --rows first, then each --row, in canonical form. */
  ck_assert_str_eq (json_array_get_string_element (rows, 0), "randrw,8k,qd4,t1,mix70,800ms");
  ck_assert_str_eq (json_array_get_string_element (rows, 1), "randread,4k,qd8,t2");
  ck_assert_str_eq (json_array_get_string_element (rows, 2), "seq,128k,qd2,t1");

  steps = steps_of (root);
  ck_assert_uint_eq (json_array_get_length (steps), G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      JsonObject *step = step_at (steps, i);
      JsonObject *res = json_object_get_object_member (step, "results");
      double bytes_per_s = json_object_get_double_member (step, "bytes_per_s");
      double iops = json_object_get_double_member (step, "iops");
      double runtime = json_object_get_double_member (res, "runtime_s");
      gboolean mixed = want[i].read_percent % 100 != 0;

      ck_assert_str_eq (json_object_get_string_member (step, "id"), want[i].id);
      ck_assert_str_eq (json_object_get_string_member (step, "pattern"), want[i].pattern);
      ck_assert_int_eq (json_object_get_int_member (step, "block_size_bytes"), want[i].bs);
      ck_assert_int_eq (json_object_get_int_member (step, "queue_depth"), want[i].qd);
      ck_assert_int_eq (json_object_get_int_member (step, "threads"), want[i].threads);
      ck_assert_int_eq (json_object_get_int_member (step, "read_percent"), want[i].read_percent);
      ck_assert (json_object_get_boolean_member (step, "complete"));
      /* A loop device over tmpfs or a disk: more than 1 MB/s, less than
       * 100 GB/s; throughput is IOPS × block size. */
      ck_assert_msg (bytes_per_s > 1e6 && bytes_per_s < 1e11, "%s: %g B/s", want[i].id, bytes_per_s);
      ck_assert_double_eq_tol (bytes_per_s, iops * want[i].bs, 1e-6 * bytes_per_s);
      ck_assert_msg (fabs (runtime - want[i].time_s) < 0.1 + 0.1 * want[i].time_s,
                     "%s ran %g s, not its %g s", want[i].id, runtime, want[i].time_s);
      if (mixed)
        {
          double r = json_object_get_double_member (json_object_get_object_member (res, "read"), "ios");
          double w = json_object_get_double_member (json_object_get_object_member (res, "write"), "ios");

          ck_assert_msg (fabs (r / (r + w) - 0.70) < 0.05, "%s: %.0f reads, %.0f writes", want[i].id, r, w);
          check_direction (res, "read", 0.2);
          check_direction (res, "write", 0.2);
        }
      else
        check_direction (res, want[i].read_percent ? "read" : "write", 0.2);
    }

  /* The saved file's params load back as the rows that ran. */
  loaded = ds_result_load (saved, &error);
  ck_assert_msg (loaded != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (ds_mark_options_const (&loaded->spec)->preset, "custom");
  ck_assert_str_eq (ds_mark_options_const (&loaded->spec)->rows, "randrw,8k,qd4,t1,mix70,800ms;randread,4k,qd8,t2;seq,128k,qd2,t1");
  g_unlink (saved);
}
END_TEST

/* Rows the device or the limits cannot take: refused before any I/O, the
 * row named, exit 2. */
START_TEST (test_mark_custom_rows_refused)
{
  const char *sector[] = { "losetup", "--sector-size", "4096", device, NULL };
  const struct { const char *row; const char *needle; } cases[] = {
    { "randread,4k,qd4096,t16", "65536 I/Os in flight, more than 32768" },
    { "zigzag,4k", "unknown pattern “zigzag”" },
    { "randread,1000", "multiple of 512" },
    { "randread,4k,mix30", "needs a mixed pattern" },
    /* Needs the device: 2 KiB on 4 KiB logical blocks. */
    { "randread,2k", "logical block size (4096 bytes)" },
  };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  ck_assert_int_eq (ds_test_run (sector, NULL, NULL), 0);
  before = ds_test_checksum (device);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "mark", device, "--row", "randwrite,4k", "--row", cases[i].row,
                              "--count", "1", "--duration", "200ms", "--warmup", "0",
                              "--destroy-data", device, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int rc = run_cli (args, &out, &err);

      ck_assert_msg (rc == 2, "%s: exit %d: %s", cases[i].row, rc, err);
      ck_assert_msg (contains (err, cases[i].needle), "%s: stderr lacks “%s”: %s", cases[i].row,
                     cases[i].needle, err);
      ck_assert_msg (contains (err, "row"), "%s: the row is not named: %s", cases[i].row, err);
    }
  /* Even the valid write row ahead of the bad one wrote nothing. */
  after = ds_test_checksum (device);
  ck_assert_str_eq (before, after);
}
END_TEST

/* ---- a preset on a device ------------------------------------------------ */

START_TEST (test_mark_device_steps)
{
  const char *args[] = { "mark", device, "--steps", "rnd4k-q1t1,seq1m-q8t1", "--count", "2",
                          "--duration", "600ms", "--warmup", "200ms", "--pause", "100ms",
                          "--interval", "200ms", "--size", "32M", "--comment", "two rows",
                          "--destroy-data", device, "--json", NULL };
  const char *order[] = { "seq1m-q8t1-read", "rnd4k-q1t1-read", "seq1m-q8t1-write", "rnd4k-q1t1-write" };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *results;
  JsonArray *steps;
  int rc;

  rc = run_cli (args, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = must_parse (out, err);
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "test")), "mark");
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "complete")));
  results = json_node_get_object (ds_fault_json_get (root, "results"));
  ck_assert_str_eq (json_object_get_string_member (results, "preset"), "cdm-default");
  ck_assert_str_eq (json_object_get_string_member (results, "comment"), "two rows");
  ck_assert_int_eq (json_object_get_int_member (results, "test_size_bytes"), 32 * MIB);
  ck_assert_int_eq (json_object_get_int_member (results, "steps_planned"), 4);

  steps = steps_of (root);
  ck_assert_uint_eq (json_array_get_length (steps), 4);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *step = step_at (steps, i);
      JsonArray *runs = json_object_get_array_member (step, "runs");
      JsonObject *res = json_object_get_object_member (step, "results");
      double best = 0;
      double lowest = G_MAXDOUBLE;
      gboolean write = strstr (order[i], "write") != NULL;

      ck_assert_str_eq (json_object_get_string_member (step, "id"), order[i]);
      ck_assert (json_object_get_boolean_member (step, "complete"));
      ck_assert_uint_eq (json_array_get_length (runs), 2);
      /* CrystalDiskMark's figures: the best throughput and the lowest
       * mean latency of the runs; the best run's figures in full. */
      for (guint k = 0; k < 2; k++)
        {
          JsonObject *one = json_array_get_object_element (runs, k);

          best = MAX (best, json_object_get_double_member (one, "bytes_per_s"));
          lowest = MIN (lowest, json_object_get_double_member (one, "lat_mean_s"));
        }
      ck_assert_double_eq_tol (json_object_get_double_member (step, "bytes_per_s"), best, 1e-6 * best);
      ck_assert_double_eq_tol (json_object_get_double_member (step, "lat_mean_s"), lowest, 1e-12);
      ck_assert_double_eq_tol (json_object_get_double_member (
                                 json_object_get_object_member (res, write ? "write" : "read"),
                                 "bytes_per_s"), best, 1e-6 * best);
      ck_assert (!json_object_has_member (res, write ? "read" : "write"));
      check_direction (res, write ? "write" : "read", 0.2);
    }
}
END_TEST

/* CrystalDiskMark's text, a read-only run without --destroy-data that
 * leaves the device as it was. */
START_TEST (test_mark_text_reads_only)
{
  const char *args[] = { "mark", device, "--reads-only", "--steps", "seq1m-q8t1,rnd4k-q32t1",
                         "--count", "1", "--duration", "300ms", "--warmup", "0", "--pause", "0",
                         "--size", "16M", "--comment", "RAID 10 over FC", "--units", "IOPS",
                         "--no-progress", NULL };
  g_autofree char *before = ds_test_checksum (device);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  rc = run_cli (args, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  after = ds_test_checksum (device);
  ck_assert_str_eq (before, after);

  note_lines (out);
  ck_assert_msg (contains (out, "Read (IOPS)") && !contains (out, "Write (IOPS)"), "%s", out);
  ck_assert_msg (contains (out, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
                                "* KB = 1000 bytes, KiB = 1024 bytes\n\n[Read]\n"
                                "  SEQ    1MiB (Q=  8, T= 1): "), "%s", out);
  ck_assert_msg (contains (out, "\n  RND    4KiB (Q= 32, T= 1): ") && contains (out, " MB/s [") &&
                 contains (out, " IOPS] <") && contains (out, " us>\n"), "%s", out);
  ck_assert_msg (!contains (out, "[Write]"), "%s", out);
  ck_assert_msg (contains (out, "\nProfile: Default\n   Test: 16 MiB (x1) [") &&
                 contains (out, "   Time: Measure 0.3 sec / Interval 0 sec \n") &&
                 contains (out, "     OS: ") && contains (out, "\nComment: RAID 10 over FC\n"), "%s", out);
}
END_TEST

/* A write step on a device needs --destroy-data: refused before anything
 * ran, nothing written, and the message says both ways out. */
START_TEST (test_mark_write_refused)
{
  const char *args[] = { "workload", device, "--preset", "cdm-real-world", "--count", "1",
                         "--duration", "200ms", "--warmup", "0", "--pause", "0", "--json", NULL };
  g_autofree char *before = ds_test_checksum (device);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  int rc;

  rc = run_cli (args, &out, &err);
  after = ds_test_checksum (device);
  note ("write steps without --destroy-data: exit %d: %s", rc, err);
  ck_assert_int_eq (rc, 3);
  ck_assert_str_eq (before, after);
  ck_assert_msg (contains (err, "--destroy-data=") && contains (err, "cdm-real-world has write steps") &&
                 contains (err, "--reads-only"),
                 "%s", err);
  root = must_parse (out, err);
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  ck_assert_uint_eq (json_array_get_length (steps_of (root)), 0);
}
END_TEST

/* Bad input: a clear message and exit status 2, before any I/O. */
START_TEST (test_mark_bad_input)
{
  const struct { const char *args[12]; const char *expect; } cases[] = {
    { { "mark", device, "--preset", "crystal", NULL }, "unknown preset “crystal”: use cdm-default" },
    { { "workload", device, "--preset", "nope", NULL }, "--list-presets" },
    { { "mark", device, "--mix", "150", NULL }, "0 to 100" },
    { { "mark", device, "--mix", "-5", NULL }, "--mix is the percentage of reads" },
    { { "mark", device, "--preset", "iometer-dbms", "--mix", "50", NULL }, "no +Mix" },
    { { "mark", device, "--count", "0", NULL }, "1 to 9" },
    { { "mark", device, "--count", "ten", NULL }, "--count is the number of runs" },
    { { "mark", device, "--size", "8M", NULL }, "16M to 64G" },
    { { "mark", device, "--interval", "50ms", NULL }, "100ms" },
    { { "mark", device, "--steps", "seq2m-q9t9", NULL }, "cdm-default has no step “seq2m-q9t9”" },
    { { "mark", device, "--preset", "iometer-dbms", "--reads-only", NULL }, "every one of its steps writes" },
    { { "workload", device, "--preset", "cdm-default", "--pattern", "read", NULL }, "--pattern" },
    { { "workload", device, "--pattern", "randread", "--queue-depth", "4096", "--threads", "16", NULL },
      "65536 I/Os in flight, more than 32768" },
    { { "workload", device, "--pattern", "randread", "--interval", "10ms", NULL }, "interval" },
    { { "mark", NULL }, "needs exactly one device or folder" },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int rc = run_cli (cases[i].args, &out, &err);

      ck_assert_msg (rc == 2, "case %u: exit %d (want 2): %s", i, rc, err);
      ck_assert_msg (contains (err, cases[i].expect), "case %u: “%s” not in: %s", i,
                     cases[i].expect, err);
    }
}
END_TEST

/* ---- in a folder -------------------------------------------------------- */

/* TRUE when @path holds @name and nothing else: whatever a run made there
 * is gone. */
static gboolean
holds_only (const char *path,
            const char *name)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;
  unsigned seen = 0;

  ck_assert_ptr_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      if (strcmp (entry, name) != 0)
        {
          note ("%s holds %s", path, entry);
          return FALSE;
        }
      seen++;
    }

  return seen == 1;
}

START_TEST (test_mark_folder)
{
  g_autofree char *mnt = ds_test_mount_ext4 (device, "mnt-mark");
  const char *args[] = { "workload", mnt, "--preset", "cdm-real-world", "--count", "1",
                         "--duration", "300ms", "--warmup", "0", "--pause", "0", "--size", "16M",
                         "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  struct statvfs before, after;
  JsonArray *steps;
  int rc;

  ck_assert_int_eq (statvfs (mnt, &before), 0);
  rc = run_cli (args, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = must_parse (out, err);
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "target.kind")), "file");
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "results.directory")), mnt);
  ck_assert (json_node_get_int (ds_fault_json_get (root, "results.filesystem.size_bytes")) > 0);
  steps = steps_of (root);
  ck_assert_uint_eq (json_array_get_length (steps), 4);
  for (guint i = 0; i < 4; i++)
    ck_assert (json_object_get_boolean_member (step_at (steps, i), "complete"));

  /* The test file is gone, and so is its space. */
  ck_assert (holds_only (mnt, "lost+found"));
  sync ();
  ck_assert_int_eq (statvfs (mnt, &after), 0);
  ck_assert_uint_ge ((uint64_t) after.f_bfree + 64, (uint64_t) before.f_bfree);
  ck_assert_int_eq (umount (mnt), 0);
}
END_TEST

/* A folder that fills up mid-preset: on btrfs an overwrite allocates (copy
 * on write), so once another program takes the free space the write step
 * fails with ENOSPC.  The read step that ran is kept; exit 1. */
START_TEST (test_mark_folder_fills_up)
{
  const char *mkfs[] = { "mkfs.btrfs", "-q", "-f", "--mixed", device, NULL };
  g_autofree char *mnt = NULL;
  g_autofree char *filler = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  struct statvfs vfs;
  uint64_t start = ds_clock_ns ();
  g_autofree char *mkfs_btrfs = g_find_program_in_path ("mkfs.btrfs");
  int rc;

  /* tools/install-deps installs btrfs-progs: without it this case is
   * missing, not skipped. */
  ck_assert_msg (mkfs_btrfs != NULL,
                 "mkfs.btrfs is not installed (tools/install-deps installs btrfs-progs)");
  {
    g_autofree char *mkfs_out = NULL;
    g_autofree char *mkfs_err = NULL;

    ck_assert_msg (ds_test_run (mkfs, &mkfs_out, &mkfs_err) == 0, "mkfs.btrfs: %s", mkfs_err);
  }
  mnt = ds_test_mount (device, "mnt-btrfs");
  {
    const char *args[] = { ds_test_cli_path (), "mark", mnt, "--steps", "seq1m-q1t1", "--size", "16M",
                           "--count", "1", "--duration", "1s", "--warmup", "0", "--pause", "3s",
                           "--json", "--no-progress", NULL };
    proc = ds_fault_proc_spawn (args);
  }

  /* Once the 16 MiB test file is written (the read step runs then), fill
   * the rest of the filesystem. */
  for (;;)
    {
      ck_assert_int_eq (statvfs (mnt, &vfs), 0);
      if ((uint64_t) (vfs.f_blocks - vfs.f_bfree) * vfs.f_frsize >= 16 * MIB)
        break;
      ck_assert_msg (ds_clock_ns () - start < 60 * DS_NS_PER_SEC, "the test file never appeared");
      g_usleep (20000);
    }
  filler = g_build_filename (mnt, "filler", NULL);
  {
    g_autofree char *of = g_strdup_printf ("of=%s", filler);
    const char *dd[] = { "dd", "if=/dev/zero", of, "bs=1M", "status=none", NULL };

    ds_test_run (dd, NULL, NULL);   /* ends with ENOSPC, as it should */
  }
  sync ();

  rc = ds_fault_proc_wait (proc, 120000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("preset on a full btrfs: exit %d: %s", rc, err);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (contains (err, "ran out of space") && contains (err, mnt), "%s", err);
  root = must_parse (out, err);
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "error.errno")), 28);
  steps = steps_of (root);
  ck_assert_uint_eq (json_array_get_length (steps), 2);
  ck_assert (json_object_get_boolean_member (step_at (steps, 0), "complete"));
  ck_assert (json_object_get_double_member (step_at (steps, 0), "bytes_per_s") > 0);
  ck_assert (!json_object_get_boolean_member (step_at (steps, 1), "complete"));

  /* Only the filler is left: the test file went with the run. */
  ck_assert (holds_only (mnt, "filler"));
  ck_assert_int_eq (umount (mnt), 0);
}
END_TEST

/* Ctrl-C mid-preset: exit 130, the finished steps kept, the stopped one
 * marked, within a fraction of a second. */
START_TEST (test_mark_sigint)
{
  const char *args[] = { ds_test_cli_path (), "mark", device, "--count", "1", "--duration", "1s",
                         "--warmup", "0", "--pause", "500ms", "--size", "16M",
                         "--destroy-data", device, "--json", "--no-progress", NULL };
  g_autoptr (DsFaultProc) proc = ds_fault_proc_spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  guint n;
  int64_t t0;
  int rc;

  g_usleep (3500 * 1000);
  t0 = g_get_monotonic_time ();
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 30000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("stopped after %.0f ms: exit %d: %s", (ds_fault_proc_end_time (proc) - t0) / 1000.0, rc, err);
  ck_assert_int_eq (rc, 130);
  ck_assert_msg (ds_fault_proc_end_time (proc) - t0 < 500 * 1000, "took %.0f ms to stop",
                 (ds_fault_proc_end_time (proc) - t0) / 1000.0);
  root = must_parse (out, err);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "cancelled")));
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  steps = steps_of (root);
  n = json_array_get_length (steps);
  ck_assert_uint_ge (n, 2);
  ck_assert_uint_lt (n, 8);
  for (guint i = 0; i + 1 < n; i++)
    ck_assert (json_object_get_boolean_member (step_at (steps, i), "complete"));
}
END_TEST

/* ---- live samples (the core API a page uses) ---------------------------- */

typedef struct {
  uint64_t  t0_ns;
  unsigned  phases;
  unsigned  rows;
  unsigned  intervals;
  unsigned  intervals_in_step;
  gboolean  interval_before_row;
  uint64_t  first_interval_ns;
  double    last_point_t;
  gboolean  rows_match_steps;
  uint64_t  hist_ios;          /* the last interval's live histogram */
  unsigned  rows_off_hist;     /* rows whose I/Os it did not hold */
} Live;

static void
live_sink (const DsSample *sample,
           gpointer        user_data)
{
  Live *live = user_data;
  const DsMarkStep *step;

  switch (sample->kind)
    {
    case DS_SAMPLE_PHASE:
      ck_assert_ptr_nonnull (sample->detail);
      live->phases++;
      live->intervals_in_step = 0;
      break;
    case DS_SAMPLE_INTERVAL:
      ck_assert_ptr_nonnull (sample->interval);
      if (live->intervals++ == 0)
        live->first_interval_ns = ds_clock_ns () - live->t0_ns;
      live->intervals_in_step++;
      ck_assert_double_eq_tol (sample->value, sample->interval->read.bytes_per_s +
                               sample->interval->write.bytes_per_s, 1e-6);
      live->last_point_t = sample->interval->t_s;
      /* The live histogram: its buckets add up to its I/Os, which only
       * grow within a measured run (index 0 starts one). */
      ck_assert_ptr_nonnull (sample->histogram);
      {
        uint64_t sum = 0;

        for (unsigned i = 0; i < DS_INTERVAL_HIST_BUCKETS; i++)
          sum += sample->histogram->buckets[i];
        ck_assert_uint_eq (sum, sample->histogram->ios);
        ck_assert_uint_gt (sample->histogram->ios, 0);
        if (sample->index > 0)
          ck_assert_uint_ge (sample->histogram->ios, live->hist_ios);
        live->hist_ios = sample->histogram->ios;
      }
      break;
    case DS_SAMPLE_ROW:
      ck_assert_ptr_nonnull (sample->detail);
      step = sample->detail;
      live->rows++;
      live->interval_before_row = live->intervals_in_step > 0;
      live->rows_match_steps = step->complete &&
                               sample->value == step->bytes_per_s;
      /* One run per step: the last live histogram holds every I/O of it. */
      if (step->result == NULL ||
          live->hist_ios != step->result->read.ios + step->result->write.ios -
                            step->result->series_dropped_ios)
        live->rows_off_hist++;
      break;
    case DS_SAMPLE_POINT:
    case DS_SAMPLE_ACCESS:
    case DS_SAMPLE_PROGRESS:
    default:
      break;
    }
}

START_TEST (test_live_samples)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) workload = NULL;
  g_autoptr (DsResult) mark = NULL;
  Live live = { .t0_ns = ds_clock_ns () };
  gint cancel = 0;
  DsWorkloadData *w;

  /* A workload: a point every 200 ms, the first long before the end. */
  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup (device);
  spec.pattern = DS_PATTERN_RANDREAD;
  spec.duration_ns = 1500 * DS_NS_PER_MSEC;
  spec.interval_ns = 200 * DS_NS_PER_MSEC;
  workload = ds_run (&spec, live_sink, &live, &cancel);
  ds_bench_spec_clear (&spec);
  ck_assert_msg (workload->complete, "%s", workload->error ? workload->error->message : "");
  w = workload->data;
  note ("%u interval samples, the first after %.0f ms", live.intervals, live.first_interval_ns / 1e6);
  ck_assert_uint_ge (live.intervals, 7);
  ck_assert_uint_eq (live.intervals, w->series->len);
  ck_assert_msg (live.first_interval_ns < 1000 * DS_NS_PER_MSEC, "first sample after %.0f ms",
                 live.first_interval_ns / 1e6);
  ck_assert_double_eq_tol (live.last_point_t,
                           g_array_index (w->series, DsIntervalPoint, w->series->len - 1).t_s, 1e-9);
  ck_assert_uint_eq (live.hist_ios, w->read.ios + w->write.ios - w->series_dropped_ios);

  /* A preset: a phase, points and a row per step. */
  live = (Live) { .t0_ns = ds_clock_ns () };
  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  spec.target_path = g_strdup (device);
  ds_mark_options (&spec)->reads_only = TRUE;
  ds_mark_options (&spec)->count = 1;
  spec.duration_ns = 500 * DS_NS_PER_MSEC;
  ds_mark_options (&spec)->warmup_ns = 0;
  ds_mark_options (&spec)->pause_ns = 0;
  ds_mark_options (&spec)->test_size_bytes = 16 * MIB;
  spec.interval_ns = 100 * DS_NS_PER_MSEC;
  mark = ds_run (&spec, live_sink, &live, &cancel);
  ds_bench_spec_clear (&spec);
  ck_assert_msg (mark->complete, "%s", mark->error ? mark->error->message : "");
  ck_assert_uint_eq (live.phases, 4);
  ck_assert_uint_eq (live.rows, 4);
  ck_assert (live.interval_before_row);
  ck_assert (live.rows_match_steps);
  ck_assert_uint_eq (live.rows_off_hist, 0);
  ck_assert_uint_ge (live.intervals, 4 * 4);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-mark");
  ds_test_require_root ("presets run on loop devices and filesystems it mounts");
  ds_faultdisk_init ();

  s = suite_create ("int-mark");
  tc = tcase_create ("mark");
  tcase_set_timeout (tc, 180);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_mark_device_steps);
  tcase_add_test (tc, test_mark_text_reads_only);
  tcase_add_test (tc, test_mark_write_refused);
  tcase_add_test (tc, test_mark_bad_input);
  tcase_add_test (tc, test_mark_folder);
  tcase_add_test (tc, test_mark_folder_fills_up);
  tcase_add_test (tc, test_mark_sigint);
  tcase_add_test (tc, test_live_samples);
  tcase_add_test (tc, test_mark_custom_rows);
  tcase_add_test (tc, test_mark_custom_rows_refused);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
