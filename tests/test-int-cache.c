/* test-int-cache.c: `diskscope-cli cache` on disks whose truth is known
 * (root): a faultdisk with an LRU read cache (the estimate must be within
 * 25 % of its size), one without (no estimate), and that it only reads
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
  disk = ds_faultdisk_start (256 * MIB, 14, &device);
}

static void
teardown (void)
{
  g_clear_pointer (&disk, ds_faultdisk_free);
  device = NULL;
}

static JsonNode *
probe (char **ret_err)
{
  g_autofree char *out = NULL;
  JsonNode *root;
  int rc;

  rc = ds_test_cli (&out, ret_err, "cache", device, "--set-time", "1s", "--json",
                    "--no-progress", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, *ret_err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  return root;
}

static void
note_sets (JsonNode *root)
{
  JsonArray *sets = json_node_get_array (ds_fault_json_get (root, "results.sets"));

  for (guint i = 0; i < json_array_get_length (sets); i++)
    {
      JsonObject *s = json_array_get_object_element (sets, i);

      note ("%4" G_GINT64_FORMAT " MiB: %6.0f IOPS, mean %.3f ms",
            json_object_get_int_member (s, "bytes") >> 20, json_object_get_double_member (s, "iops"),
            json_object_get_double_member (json_object_get_object_member (s, "latency_s"), "mean") * 1e3);
    }
}

/* 48 MiB held, a hit 1 ms, a miss 10 ms (a controller's cache in front of
 * disks; the hit well above the host's own jitter on a busy machine, which
 * reaches half a millisecond); sets 16 … 256 MiB. */
START_TEST (test_estimate_at_cache)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const double cache = 48.0 * MIB;
  double estimate;

  ck_assert (ds_faultdisk_control (disk, "read-cache %" G_GUINT64_FORMAT " 1000 10000", (uint64_t) cache));
  ck_assert (ds_faultdisk_control (disk, "reset-counters"));
  root = probe (&err);
  note_sets (root);
  ck_assert_uint_eq (json_array_get_length (json_node_get_array (ds_fault_json_get (root, "results.sets"))), 5);
  estimate = json_node_get_double (ds_fault_json_get (root, "results.cache_estimate_bytes"));
  note ("estimate %.1f MiB (truth 48 MiB), drop ratio %.2f", estimate / MIB,
        json_node_get_double (ds_fault_json_get (root, "results.drop_ratio")));
  ck_assert_msg (fabs (estimate - cache) <= 0.25 * cache, "estimate %.1f MiB", estimate / MIB);
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "writes"), 0);
}
END_TEST

/* Every read 2 ms, whatever was read before: no estimate. */
START_TEST (test_no_cache)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonNode *estimate;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  root = probe (&err);
  note_sets (root);
  estimate = ds_fault_json_get (root, "results.cache_estimate_bytes");
  ck_assert_msg (estimate != NULL && JSON_NODE_HOLDS_NULL (estimate), "a cache was claimed");
}
END_TEST

START_TEST (test_bad_input)
{
  g_autofree char *err = NULL;
  int rc = ds_test_cli (NULL, &err, "cache", device, "--max", "8M", NULL);

  ck_assert_msg (rc == 2 && strstr (err, "at least 16M") != NULL, "exit %d: %s", rc, err);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (NULL, &err, "cache", device, "--queue-depth", "x", NULL);
  ck_assert_msg (rc == 2 && strstr (err, "--queue-depth") != NULL, "exit %d: %s", rc, err);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-cache");
  ds_test_require_root ("the fault-injecting disk attaches loop devices over a FUSE file");
  ds_faultdisk_init ();

  s = suite_create ("int-cache");
  tc = tcase_create ("cache");
  tcase_set_timeout (tc, 180);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_estimate_at_cache);
  tcase_add_test (tc, test_no_cache);
  tcase_add_test (tc, test_bad_input);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
