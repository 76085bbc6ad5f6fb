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

#include <glib/gstdio.h>

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

/* One probe; its text report too when @ret_report is not NULL (the same
 * run's, through `report`: a second run would meet other noise). */
static JsonNode *
probe_report (char **ret_err,
              char **ret_report)
{
  g_autofree char *out = NULL;
  g_autofree char *saved = ds_test_scratch_path ("cache.json");
  JsonNode *root;
  int rc;

  rc = ds_test_cli (&out, ret_err, "cache", device, "--set-time", "1s", "--json",
                    "--no-progress", "--output", saved, NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, *ret_err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  if (ret_report != NULL)
    ck_assert_int_eq (ds_test_cli (ret_report, NULL, "report", saved, NULL), 0);
  g_unlink (saved);
  return root;
}

static JsonNode *
probe (char **ret_err)
{
  return probe_report (ret_err, NULL);
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
  /* Its bounds: the last fast set and the first slow one. */
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.largest_fast_bytes")), 32 * MIB);
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.first_slow_bytes")), 64 * MIB);
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "results.verdict")), "cache");
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "writes"), 0);
}
END_TEST

/* A 160 MiB cache (a hit 5 ms, a miss 50 ms): only the largest set (256 MiB) reads slow, so the probe
 * measures it again; slow again, it is the edge: between 128 and 256 MiB. */
START_TEST (test_edge_at_the_largest_set)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  JsonObject *last;
  double estimate;

  /* A hit 5 ms, a miss 50 ms: a loaded host's jitter of a few ms a read
   * does not turn a set of hits into a slow one. */
  ck_assert (ds_faultdisk_control (disk, "read-cache %" G_GUINT64_FORMAT " 5000 50000", 160 * MIB));
  root = probe_report (&err, &text);
  note_sets (root);
  last = json_array_get_object_element (json_node_get_array (ds_fault_json_get (root, "results.sets")), 4);
  ck_assert_msg (json_object_has_member (last, "repeat"), "the largest set was not measured again");
  note ("256 MiB again: %.0f IOPS", json_object_get_double_member (json_object_get_object_member (last, "repeat"), "iops"));
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "results.verdict")), "cache");
  estimate = json_node_get_double (ds_fault_json_get (root, "results.cache_estimate_bytes"));
  note ("estimate %.1f MiB (truth 160 MiB)", estimate / MIB);
  ck_assert (estimate >= 128.0 * MIB && estimate <= 256.0 * MIB);
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.largest_fast_bytes")), 128 * MIB);
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.first_slow_bytes")), 256 * MIB);

  /* The report says the bounds and the second measurement. */
  ck_assert_msg (strstr (text, "(between 128 MiB and 256 MiB)") != NULL &&
                 strstr (text, "was as slow measured again") != NULL, "%s", text);
}
END_TEST

/* No cache (every read 5 ms), and a moment of other I/O (50 ms more per
 * read of the upper
 * half for 1 s, the set time) that lands on the largest set's timed reads: one slow
 * set, fast again measured a second time: no verdict, and the words say
 * why. */
START_TEST (test_noisy_largest_set)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  JsonNode *estimate;
  JsonObject *last;
  JsonObject *first;

  ck_assert (ds_faultdisk_control (disk, "delay 5000"));
  /* Begun by the first 4 KiB read there (the prefill reads 1 MiB): the
   * largest set's timed reads, not its prefill; the disk's last MiB, which
   * libblkid reads when the device is opened, is left out. */
  ck_assert (ds_faultdisk_control (disk, "slow-moment %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                                   " 50000 1000 4096", 128 * MIB, 120 * MIB));
  root = probe_report (&err, &text);
  note_sets (root);
  first = json_array_get_object_element (json_node_get_array (ds_fault_json_get (root, "results.sets")), 0);
  last = json_array_get_object_element (json_node_get_array (ds_fault_json_get (root, "results.sets")), 4);
  ck_assert_msg (json_object_get_double_member (last, "iops") <
                 0.5 * json_object_get_double_member (first, "iops"), "the moment missed the largest set");
  ck_assert_msg (json_object_has_member (last, "repeat"), "the largest set was not measured again");
  note ("256 MiB again: %.0f IOPS", json_object_get_double_member (json_object_get_object_member (last, "repeat"), "iops"));
  estimate = ds_fault_json_get (root, "results.cache_estimate_bytes");
  ck_assert_msg (estimate != NULL && JSON_NODE_HOLDS_NULL (estimate), "a cache was claimed");
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "results.verdict")), "noise");

  ck_assert_msg (strstr (text, "none: no clear edge: only the largest set, 256 MiB, was slow") != NULL,
                 "%s", text);
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
  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_estimate_at_cache);
  tcase_add_test (tc, test_edge_at_the_largest_set);
  tcase_add_test (tc, test_noisy_largest_set);
  tcase_add_test (tc, test_no_cache);
  tcase_add_test (tc, test_bad_input);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
