/* test-int-sweep.c: `diskscope-cli sweep` on disks whose truth is known
 * (root): a multi-actuator faultdisk that serves N I/Os at once (the knee
 * must be found at N, ± one level), one that serves any number at once (no
 * knee), steady levels, SIGINT, and refused input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define note ds_test_note
#define MIB (UINT64_C (1) << 20)

/* Four actuators, each I/O 5 ms: 200 IOPS per outstanding I/O up to 4,
 * then 800 IOPS (less what the host adds between I/Os). */
#define ACTUATORS  4
#define SERVICE_US 5000

static DsFaultDisk *disk;
static const char *device;

static void
setup (void)
{
  disk = ds_faultdisk_start (64 * MIB, 12, &device);
}

static void
teardown (void)
{
  g_clear_pointer (&disk, ds_faultdisk_free);
  device = NULL;
}

static JsonNode *
sweep_json (const char *const *extra,
            char             **ret_text)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) args = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonNode *root;
  int rc;

  g_strv_builder_add_many (b, "sweep", device, "--pattern", "randread", "--json",
                           "--no-progress", NULL);
  g_strv_builder_addv (b, (const char **) extra);
  args = g_strv_builder_end (b);
  rc = ds_test_cli_argv ((const char *const *) args, NULL, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  if (ret_text != NULL)
    *ret_text = g_steal_pointer (&out);
  return root;
}

static void
note_steps (JsonArray *steps)
{
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonObject *lat = json_object_get_object_member (s, "latency_s");
      JsonObject *little = json_object_get_object_member (s, "little");

      note ("in flight %3" G_GINT64_FORMAT ": %6.0f IOPS, mean %6.2f ms, p99 %6.2f ms, "
            "Little %.2f, %.2f s", json_object_get_int_member (s, "outstanding"),
            json_object_get_double_member (s, "iops"),
            json_object_get_double_member (lat, "mean") * 1e3,
            json_object_get_double_member (lat, "p99") * 1e3,
            json_object_get_double_member (little, "outstanding"),
            json_object_get_double_member (s, "runtime_s"));
    }
}

START_TEST (test_knee_at_actuators)
{
  const char *extra[] = { "--levels", "1,2,4,8,16,32", "--step-time", "1500ms", NULL };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  JsonNode *knee;
  int64_t at;

  ck_assert (ds_faultdisk_control (disk, "actuators %d %d", ACTUATORS, SERVICE_US));
  root = sweep_json (extra, NULL);
  steps = json_node_get_array (ds_fault_json_get (root, "results.steps"));
  note_steps (steps);
  ck_assert_uint_eq (json_array_get_length (steps), 6);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "complete")));

  knee = ds_fault_json_get (root, "results.knee");
  ck_assert_msg (knee != NULL && JSON_NODE_HOLDS_OBJECT (knee), "no knee found");
  at = json_node_get_int (ds_fault_json_get (root, "results.knee.outstanding"));
  note ("knee: %s", json_node_get_string (ds_fault_json_get (root, "results.knee.rule")));
  /* ± one level of the truth. */
  ck_assert_msg (at >= ACTUATORS / 2 && at <= ACTUATORS * 2, "knee at %" G_GINT64_FORMAT, at);

  /* The plateau is the disk's: at most N / service, and not far below. */
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      double iops = json_object_get_double_member (s, "iops");
      double ratio = json_object_get_double_member (json_object_get_object_member (s, "little"), "ratio");
      int64_t n = json_object_get_int_member (s, "outstanding");
      double truth = MIN (n, ACTUATORS) * 1e6 / SERVICE_US;

      ck_assert_msg (iops <= truth * 1.02, "%.0f IOPS at %" G_GINT64_FORMAT " > %.0f", iops, n, truth);
      if (n >= 2 * ACTUATORS)
        ck_assert_msg (iops >= truth * 0.6, "%.0f IOPS at %" G_GINT64_FORMAT, iops, n);
      /* The loop device and FUSE pass every I/O on at once. */
      ck_assert_msg (fabs (ratio - 1.0) < 0.1, "Little's ratio %.3f at %" G_GINT64_FORMAT, ratio, n);
    }
}
END_TEST

/* Every I/O takes 4 ms, however many are in flight: IOPS double with each
 * level, no knee is claimed, and the words say it is not saturated. */
START_TEST (test_no_knee_without_limit)
{
  const char *extra[] = { "--levels", "1,2,4,8,16", "--step-time", "1s", NULL };
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *report = NULL;
  g_autofree char *err = NULL;
  g_autofree char *path = ds_test_scratch_path ("no-knee.json");
  JsonArray *steps;
  JsonNode *knee;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "delay 4000"));
  root = sweep_json (extra, &text);
  steps = json_node_get_array (ds_fault_json_get (root, "results.steps"));
  note_steps (steps);
  knee = ds_fault_json_get (root, "results.knee");
  ck_assert_msg (knee != NULL && JSON_NODE_HOLDS_NULL (knee), "a knee was claimed");
  ck_assert_double_gt (json_object_get_double_member (json_array_get_object_element (steps, 4), "iops"),
                       4 * json_object_get_double_member (json_array_get_object_element (steps, 1), "iops"));

  /* The saved result reports the same words. */
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  rc = ds_test_cli (&report, &err, "report", path, NULL);
  ck_assert_msg (rc == 0, "%s", err);
  ck_assert_msg (strstr (report, "no knee: IOPS still grow at the last level") != NULL, "%s", report);
}
END_TEST

/* --steady over threads: levels end before their time once steady. */
START_TEST (test_steady_threads)
{
  const char *extra[] = { "--over", "threads", "--levels", "1,2,4,8,16", "--step-time", "6s",
                          "--steady", "--interval", "200ms", NULL };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  unsigned steady = 0;

  ck_assert (ds_faultdisk_control (disk, "actuators %d %d", ACTUATORS, SERVICE_US));
  root = sweep_json (extra, NULL);
  steps = json_node_get_array (ds_fault_json_get (root, "results.steps"));
  note_steps (steps);
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "results.over")), "threads");
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonNode *at = json_object_get_member (s, "steady_at_s");

      ck_assert_int_eq (json_object_get_int_member (s, "threads"), 1 << i);
      ck_assert_int_eq (json_object_get_int_member (s, "queue_depth"), 1);
      if (!JSON_NODE_HOLDS_NULL (at))
        {
          steady++;
          /* At least the window of 5 intervals, and well short of 6 s. */
          ck_assert_double_ge (json_node_get_double (at), 0.999);
          ck_assert_double_lt (json_object_get_double_member (s, "runtime_s"), 5.5);
        }
    }
  note ("%u of 5 levels ended steady", steady);
  ck_assert_uint_ge (steady, 3);
  /* Levels of about a second on an emulated disk are too noisy to hold
   * the knee to the truth here: test_knee_at_actuators does that. */
}
END_TEST

START_TEST (test_sigint_keeps_levels)
{
  const char *args[] = { ds_test_cli_path (), "sweep", device, "--pattern", "randread",
                         "--levels", "1,2,4,8", "--step-time", "1s", "--json", "--no-progress", NULL };
  g_autoptr (DsFaultProc) proc = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  proc = ds_fault_proc_spawn (args);
  g_usleep (2500 * 1000);
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 30000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  ck_assert_int_eq (rc, 130);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "%s", err);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "cancelled")));
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  steps = json_node_get_array (ds_fault_json_get (root, "results.steps"));
  note ("%u levels kept", json_array_get_length (steps));
  ck_assert_uint_ge (json_array_get_length (steps), 2);
  ck_assert_uint_le (json_array_get_length (steps), 3);
  ck_assert (json_object_get_boolean_member (json_array_get_object_element (steps, 0), "complete"));
  ck_assert (!json_object_get_boolean_member (json_array_get_object_element (steps,
                                              json_array_get_length (steps) - 1), "complete"));
}
END_TEST

/* The disk fails every read from the third level on: the levels before
 * are kept, the result is not complete and says why (exit 1). */
START_TEST (test_eio_keeps_levels)
{
  const char *args[] = { ds_test_cli_path (), "sweep", device, "--pattern", "randread",
                         "--levels", "1,2,4,8", "--step-time", "1s", "--json", "--no-progress", NULL };
  g_autoptr (DsFaultProc) proc = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *steps;
  guint complete = 0;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  proc = ds_fault_proc_spawn (args);
  g_usleep (2500 * 1000);
  ck_assert (ds_faultdisk_control (disk, "read-error 0 %" G_GUINT64_FORMAT, 64 * MIB));
  rc = ds_fault_proc_wait (proc, 30000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("exit %d: %s", rc, err);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, "read error at offset") != NULL, "%s", err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "%s", err);
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  ck_assert (JSON_NODE_HOLDS_OBJECT (ds_fault_json_get (root, "error")));
  steps = json_node_get_array (ds_fault_json_get (root, "results.steps"));
  for (guint i = 0; i < json_array_get_length (steps); i++)
    if (json_object_get_boolean_member (json_array_get_object_element (steps, i), "complete"))
      complete++;
  note ("%u levels kept, %u complete", json_array_get_length (steps), complete);
  ck_assert_uint_ge (complete, 2);
  ck_assert_uint_lt (complete, 4);
}
END_TEST

START_TEST (test_refused)
{
  static const struct { int status; const char *says; const char *args[6]; } cases[] = {
    { 3, "--destroy-data", { "--pattern", "randwrite", NULL } },
    { 2, "--over is qd", { "--pattern", "randread", "--over", "disks", NULL } },
    { 2, "increasing", { "--pattern", "randread", "--levels", "4,2", NULL } },
    { 2, "needs --pattern", { NULL } },
    { 2, "not both", { "--pattern", "read", "--levels", "1,2", "--to", "8" } },
    { 2, "in flight", { "--pattern", "read", "--to", "4096", "--threads", "16" } },
  };
  uint64_t writes;

  ck_assert (ds_faultdisk_control (disk, "reset-counters"));
  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
      g_auto (GStrv) args = NULL;
      g_autofree char *err = NULL;
      int rc;

      g_strv_builder_add_many (b, "sweep", device, "--step-time", "200ms", NULL);
      for (unsigned k = 0; k < G_N_ELEMENTS (cases[i].args) && cases[i].args[k] != NULL; k++)
        g_strv_builder_add (b, cases[i].args[k]);
      args = g_strv_builder_end (b);
      rc = ds_test_cli_argv ((const char *const *) args, NULL, NULL, &err);
      ck_assert_msg (rc == cases[i].status && strstr (err, cases[i].says) != NULL,
                     "case %u: exit %d: %s", i, rc, err);
    }
  writes = ds_faultdisk_counter (disk, "writes");
  ck_assert_uint_eq (writes, 0);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-sweep");
  ds_test_require_root ("the fault-injecting disk attaches loop devices over a FUSE file");
  ds_faultdisk_init ();

  s = suite_create ("int-sweep");
  tc = tcase_create ("sweep");
  tcase_set_timeout (tc, 180);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_knee_at_actuators);
  tcase_add_test (tc, test_no_knee_without_limit);
  tcase_add_test (tc, test_steady_threads);
  tcase_add_test (tc, test_sigint_keeps_levels);
  tcase_add_test (tc, test_eio_keeps_levels);
  tcase_add_test (tc, test_refused);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
