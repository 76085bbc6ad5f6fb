/* test-int-cache-write.c: `diskscope-cli cache --write`, the write-back
 * cache probe, on disks whose truth is known (root): a faultdisk with a
 * write-back cache of known size (the estimate must be within 25 % of it),
 * one without (no estimate), and the gate (no --destroy-data, no write)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
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
  disk = ds_faultdisk_start (128 * MIB, 15, &device);
}

static void
teardown (void)
{
  g_clear_pointer (&disk, ds_faultdisk_free);
  device = NULL;
}

/* Sets of 16, 32, 64 and 128 MiB, written in 256 KiB blocks. */
static JsonNode *
probe (void)
{
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", device);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonNode *root;
  JsonArray *sets;
  int rc;

  rc = ds_test_cli (&out, &err, "cache", device, "--write", confirm, "--block-size", "256K",
                    "--set-time", "1s", "--json", "--no-progress", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  ck_assert (json_node_get_boolean (ds_fault_json_get (root, "results.write")));
  sets = json_node_get_array (ds_fault_json_get (root, "results.sets"));
  ck_assert_uint_eq (json_array_get_length (sets), 4);
  for (guint i = 0; i < json_array_get_length (sets); i++)
    {
      JsonObject *s = json_array_get_object_element (sets, i);

      note ("%4" G_GINT64_FORMAT " MiB: %5.0f write IOPS, write mean %.2f ms, read mean %.2f ms",
            json_object_get_int_member (s, "bytes") >> 20, json_object_get_double_member (s, "iops"),
            json_object_get_double_member (json_object_get_object_member (s, "latency_s"), "mean") * 1e3,
            json_object_get_double_member (json_object_get_object_member (s, "read_latency_s"), "mean") * 1e3);
      /* Each set is written once, in full. */
      ck_assert_uint_eq (json_object_get_int_member (s, "ios") * 256 * 1024,
                         json_object_get_int_member (s, "bytes"));
    }
  return root;
}

/* A 24 MiB write-back cache taking 200 MB/s and draining at 20 MB/s (a
 * 256 KiB write: 1.3 ms into the cache, 13 ms past it). */
START_TEST (test_estimate_at_write_cache)
{
  g_autoptr (JsonNode) root = NULL;
  const double cache = 24.0 * MIB;
  uint64_t before;
  double estimate;

  ck_assert (ds_faultdisk_control (disk, "write-cache %" G_GUINT64_FORMAT " 200000000 20000000",
                                   (uint64_t) cache));
  before = ds_faultdisk_counter (disk, "write_bytes");
  root = probe ();
  estimate = json_node_get_double (ds_fault_json_get (root, "results.cache_estimate_bytes"));
  note ("estimate %.1f MiB (truth 24 MiB; 26.7 MiB as the host sees it, draining while it fills), "
        "drop ratio %.2f", estimate / MIB, json_node_get_double (ds_fault_json_get (root, "results.drop_ratio")));
  ck_assert_msg (fabs (estimate - cache) <= 0.25 * cache, "estimate %.1f MiB", estimate / MIB);
  /* 16 + 32 + 64 + 128 MiB written, nothing more. */
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "write_bytes") - before, 240 * MIB);
}
END_TEST

/* Every I/O 2 ms, whatever was written before: no cache claimed. */
START_TEST (test_no_write_cache)
{
  g_autoptr (JsonNode) root = NULL;
  JsonNode *estimate;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  root = probe ();
  estimate = ds_fault_json_get (root, "results.cache_estimate_bytes");
  ck_assert_msg (estimate != NULL && JSON_NODE_HOLDS_NULL (estimate), "a cache was claimed");
}
END_TEST

/* --write without --destroy-data, or naming another device: refused
 * before a byte is written. */
START_TEST (test_gate)
{
  g_autofree char *err = NULL;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "reset-counters"));
  rc = ds_test_cli (NULL, &err, "cache", device, "--write", "--set-time", "1s", NULL);
  ck_assert_msg (rc == 3 && strstr (err, "--destroy-data") != NULL, "exit %d: %s", rc, err);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (NULL, &err, "cache", device, "--write", "--destroy-data=/dev/loop999",
                    "--set-time", "1s", NULL);
  ck_assert_msg (rc == 3 && strstr (err, "--destroy-data") != NULL, "exit %d: %s", rc, err);
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "writes"), 0);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-cache-write");
  ds_test_require_root ("the fault-injecting disk attaches loop devices over a FUSE file");
  ds_faultdisk_init ();

  s = suite_create ("int-cache-write");
  tc = tcase_create ("cache-write");
  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_gate);
  tcase_add_test (tc, test_estimate_at_write_cache);
  tcase_add_test (tc, test_no_write_cache);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
