/* test-int-sustain.c: `diskscope-cli sustain` on disks whose truth is
 * known (root): a faultdisk with a write-back cache that fills (the cliff
 * must be within 25 % of its size, the floor its drain rate), one without
 * (no cliff), one whose writes stall now and then (dips at that period),
 * the gate, and SIGINT
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

static DsFaultDisk *disk;
static const char *device;

static void
setup (void)
{
  disk = ds_faultdisk_start (256 * MIB, 13, &device);
}

static void
teardown (void)
{
  g_clear_pointer (&disk, ds_faultdisk_free);
  device = NULL;
}

static JsonNode *
sustain_json (const char *const *extra)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) args = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", device);
  JsonNode *root;
  int rc;

  g_strv_builder_add_many (b, "sustain", device, confirm, "--block-size", "256K",
                           "--queue-depth", "8", "--json", "--no-progress", NULL);
  g_strv_builder_addv (b, (const char **) extra);
  args = g_strv_builder_end (b);
  rc = ds_test_cli_argv ((const char *const *) args, NULL, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  return root;
}

static double
number (JsonNode   *root,
        const char *path)
{
  JsonNode *n = ds_fault_json_get (root, path);

  ck_assert_msg (n != NULL && JSON_NODE_HOLDS_VALUE (n), "%s is not a number", path);
  return json_node_get_double (n);
}

static void
note_series (JsonNode *root)
{
  JsonArray *series = json_node_get_array (ds_fault_json_get (root, "results.series"));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *p = json_array_get_object_element (series, i);

      g_string_append_printf (line, "%.0f ", json_object_get_double_member (
                                json_object_get_object_member (p, "write"), "bytes_per_s") / 1e6);
    }
  note ("MB/s per interval: %s", line->str);
  g_string_free (line, TRUE);
}

/* 48 MiB of cache taking 100 MB/s and draining at 10 MB/s: full after
 * 48 MiB × 100 / (100 − 10) = 55.9 MB; then 10 MB/s. */
START_TEST (test_cliff_at_cache)
{
  const char *extra[] = { "--size", "112M", "--interval", "200ms", "--pause", "2s", NULL };
  const double cache = 48.0 * MIB;
  g_autoptr (JsonNode) root = NULL;
  double cliff;
  double floor_rate;
  double ratio;

  ck_assert (ds_faultdisk_control (disk, "write-cache %" G_GUINT64_FORMAT " 100000000 10000000",
                                   (uint64_t) cache));
  root = sustain_json (extra);
  note_series (root);
  cliff = number (root, "results.cliff_bytes");
  floor_rate = number (root, "results.floor_bytes_per_s");
  ratio = number (root, "results.recovery.ratio");
  note ("cliff %.1f MB (cache %.1f MB, truth %.1f MB), floor %.2f MB/s, start %.1f MB/s, "
        "recovery %.0f %%", cliff / 1e6, cache / 1e6, cache * 100 / 90 / 1e6, floor_rate / 1e6,
        number (root, "results.start_bytes_per_s") / 1e6, ratio * 100);
  ck_assert_msg (fabs (cliff - cache) <= 0.25 * cache, "cliff %.1f MB", cliff / 1e6);
  ck_assert_msg (floor_rate > 8e6 && floor_rate < 11e6, "floor %.2f MB/s", floor_rate / 1e6);
  ck_assert_msg (number (root, "results.start_bytes_per_s") > 60e6, "a slow start");
  /* 2 s idle drained 20 MB of the full cache: the cliff's 56 MB written
   * again go partly fast, mostly at the media rate. */
  ck_assert_msg (ratio > 0.1 && ratio < 0.6, "recovery %.2f of the start", ratio);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "complete")));
}
END_TEST

/* 20 ms per write, whatever was written before: no cliff, no dips. */
START_TEST (test_no_cliff)
{
  const char *extra[] = { "--size", "128M", "--interval", "200ms", NULL };
  g_autoptr (JsonNode) root = NULL;
  JsonNode *cliff;

  ck_assert (ds_faultdisk_control (disk, "delay 20000"));
  root = sustain_json (extra);
  note_series (root);
  cliff = ds_fault_json_get (root, "results.cliff_bytes");
  ck_assert_msg (cliff != NULL && JSON_NODE_HOLDS_NULL (cliff), "a cliff was claimed");
  ck_assert (JSON_NODE_HOLDS_NULL (ds_fault_json_get (root, "results.recovery")));
  ck_assert_double_ge (number (root, "results.floor_bytes_per_s"),
                       0.7 * number (root, "results.start_bytes_per_s"));
}
END_TEST

/* Writes stall for 0.4 s of every second: dips every second, no cliff. */
START_TEST (test_dips_at_stalls)
{
  const char *extra[] = { "--interval", "100ms", NULL };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *dips;
  double period;

  ck_assert (ds_faultdisk_control (disk, "delay 20000"));
  ck_assert (ds_faultdisk_control (disk, "write-stall 1000000 400000"));
  root = sustain_json (extra);
  note_series (root);
  dips = json_node_get_array (ds_fault_json_get (root, "results.dips"));
  period = number (root, "results.dip_period_s");
  note ("%u dips, every %.2f s", json_array_get_length (dips), period);
  ck_assert_uint_ge (json_array_get_length (dips), 2);
  ck_assert_msg (fabs (period - 1.0) < 0.25, "period %.2f s", period);
  ck_assert (JSON_NODE_HOLDS_NULL (ds_fault_json_get (root, "results.cliff_bytes")));
  for (guint i = 0; i < json_array_get_length (dips); i++)
    ck_assert_double_lt (json_object_get_double_member (json_array_get_object_element (dips, i),
                                                        "depth_ratio"), 0.7);
}
END_TEST

START_TEST (test_gate_and_input)
{
  static const struct { int status; const char *says; const char *args[4]; } cases[] = {
    { 3, "--destroy-data", { NULL } },
    { 3, "--destroy-data", { "--destroy-data=/dev/loop999", NULL } },
    { 2, "percentage of the device", { "--size", "0%", NULL } },
    { 2, "percentage of the device", { "--size", "150%", NULL } },
    { 2, "percentage of the device", { "--size", "half%", NULL } },
    { 2, "writes nothing", { "--size", "0", NULL } },
    { 2, "queue depth", { "--queue-depth", "0", NULL } },
  };

  ck_assert (ds_faultdisk_control (disk, "reset-counters"));
  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
      g_auto (GStrv) args = NULL;
      g_autofree char *err = NULL;
      g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", device);
      int rc;

      g_strv_builder_add_many (b, "sustain", device, NULL);
      for (unsigned k = 0; k < G_N_ELEMENTS (cases[i].args) && cases[i].args[k] != NULL; k++)
        g_strv_builder_add (b, cases[i].args[k]);
      if (i >= 2)
        g_strv_builder_add (b, confirm);
      args = g_strv_builder_end (b);
      rc = ds_test_cli_argv ((const char *const *) args, NULL, NULL, &err);
      ck_assert_msg (rc == cases[i].status && strstr (err, cases[i].says) != NULL,
                     "case %u: exit %d: %s", i, rc, err);
    }
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "writes"), 0);
}
END_TEST

/* --size as any percentage of what lies past --offset, or as a size: the
 * region and the bytes the disk saw are exactly that. */
START_TEST (test_size_forms)
{
  static const struct { const char *args[5]; uint64_t region; } cases[] = {
    { { "--size", "25%", NULL }, 64 * MIB },
    { { "--size", "12.5%", NULL }, 32 * MIB },
    { { "--size", "50%", "--offset", "128M", NULL }, 64 * MIB },
    { { "--size", "96M", NULL }, 96 * MIB },
    { { "--size", "100%", "--offset", "224M", NULL }, 32 * MIB },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = NULL;
      uint64_t before = ds_faultdisk_counter (disk, "write_bytes");
      uint64_t written;

      root = sustain_json (cases[i].args);
      written = ds_faultdisk_counter (disk, "write_bytes") - before;
      note ("--size %s%s%s: region %.0f MiB, %.0f MiB written, the disk saw %.0f MiB",
            cases[i].args[1], cases[i].args[2] ? " --offset " : "", cases[i].args[2] ? cases[i].args[3] : "",
            number (root, "results.region_bytes") / MIB, number (root, "results.write.io_bytes") / MIB,
            (double) written / MIB);
      ck_assert_double_eq (number (root, "results.region_bytes"), (double) cases[i].region);
      ck_assert_double_eq (number (root, "results.write.io_bytes"), (double) cases[i].region);
      ck_assert_uint_eq (written, cases[i].region);
    }
}
END_TEST

START_TEST (test_sigint_keeps_series)
{
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", device);
  const char *args[] = { ds_test_cli_path (), "sustain", device, confirm, "--block-size", "256K",
                         "--interval", "200ms", "--json", "--no-progress", NULL };
  g_autoptr (DsFaultProc) proc = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *series;
  int rc;

  /* 10 MB/s: the 256 MiB take 27 s; stopped after about 1.5 s. */
  ck_assert (ds_faultdisk_control (disk, "write-cache 1048576 20000000 10000000"));
  proc = ds_fault_proc_spawn (args);
  g_usleep (1500 * 1000);
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 30000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  ck_assert_int_eq (rc, 130);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "%s", err);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "cancelled")));
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  series = json_node_get_array (ds_fault_json_get (root, "results.series"));
  note ("%u intervals kept, %.1f MB written", json_array_get_length (series),
        number (root, "results.write.io_bytes") / 1e6);
  ck_assert_uint_ge (json_array_get_length (series), 3);
  ck_assert_double_lt (number (root, "results.write.io_bytes"), 100e6);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-sustain");
  ds_test_require_root ("the fault-injecting disk attaches loop devices over a FUSE file");
  ds_faultdisk_init ();

  s = suite_create ("int-sustain");
  tc = tcase_create ("sustain");
  tcase_set_timeout (tc, 180);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_cliff_at_cache);
  tcase_add_test (tc, test_no_cliff);
  tcase_add_test (tc, test_dips_at_stalls);
  tcase_add_test (tc, test_gate_and_input);
  tcase_add_test (tc, test_size_forms);
  tcase_add_test (tc, test_sigint_keeps_series);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
