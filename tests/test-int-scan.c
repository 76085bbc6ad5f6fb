/* test-int-scan.c: the error scan on a disk that fails and slows down on
 * purpose (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The truth: a faultdisk with EIO ranges (inside a block, across a block
 * boundary, two whole blocks, the last sector) and slow blocks of known
 * delay.  The scan must report exactly the injected bad sectors (no false
 * bad blocks, none missed), put each slow block in its latency bucket, and
 * every other block in a fast one.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ds-bench-error-scan.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-faultdisk.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1024) * 1024)
#define DISK_BYTES (64 * MiB)
#define BLOCK (128 * UINT64_C (1024))

#define note ds_test_note

typedef struct {
  uint64_t offset;
  uint64_t length;
} Range;

/* Sorted, not touching: the scan must give back exactly these. */
static const Range bad[] = {
  { 1 * MiB + 4096, 8192 },           /* inside block 8 */
  { 10 * MiB - 512, 1024 },           /* across blocks 79 and 80 */
  { 40 * MiB, 2 * BLOCK },            /* blocks 320 and 321 whole */
  { DISK_BYTES - 512, 512 },          /* the last sector */
};
#define N_ERROR_BLOCKS 6

/* A block's first 4 KiB made slower: one FUSE request carries the delay. */
static const struct {
  uint64_t   offset;
  uint64_t   delay_us;
  DsScanCell cell;
} slow[] = {
  { 20 * MiB, 30000, DS_SCAN_LT_50MS },
  { 30 * MiB, 90000, DS_SCAN_LT_150MS },
  { 44 * MiB, 250000, DS_SCAN_LT_500MS },
  { 50 * MiB, 700000, DS_SCAN_GE_500MS },
};

static DsFaultDisk *
start_disk (void)
{
  DsFaultDisk *disk = ds_faultdisk_new (DISK_BYTES, 11);

  ds_faultdisk_attach (disk, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " %" PRIu64,
                                     bad[i].offset, bad[i].length));
  for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
    ck_assert (ds_faultdisk_control (disk, "slow-read %" PRIu64 " 4096 %" PRIu64,
                                     slow[i].offset, slow[i].delay_us));
  return disk;
}

typedef struct {
  gint  *cancel;      /* set when the cell with index stop_at is done */
  guint  stop_at;
  guint  cells;
  guint  points;
  guint  error_points;
  double last_progress;
  gboolean backwards;
} Seen;

static void
sink (const DsSample *sample,
      gpointer        user_data)
{
  Seen *s = user_data;

  if (sample->kind == DS_SAMPLE_PHASE && g_strcmp0 (sample->name, "scan") == 0)
    s->cells = sample->index;
  if (sample->kind == DS_SAMPLE_POINT)
    {
      if (s->cancel != NULL && sample->index == s->stop_at)
        g_atomic_int_set (s->cancel, 1);
      s->points++;
      if (sample->error != 0)
        {
          s->error_points++;
          ck_assert_str_eq (sample->name, "error");
        }
    }
  if (sample->progress + 1e-9 < s->last_progress)
    s->backwards = TRUE;
  s->last_progress = sample->progress;
}

static DsResult *
run_scan (const char *device,
          gboolean    quick,
          uint64_t    block,
          Seen       *seen,
          gint       *cancel)
{
  DsBenchSpec spec;
  DsResult *result;

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  spec.target_path = g_strdup (device);
  ds_error_scan_options (&spec)->quick = quick;
  spec.block_size_bytes = block;
  result = ds_run (&spec, sink, seen, cancel);
  ds_bench_spec_clear (&spec);

  return result;
}

/* The exact part: bad ranges, error blocks, counts.  The same in every
 * scan of the same disk. */
static void
check_faults (const DsScanData *data)
{
  uint64_t bad_bytes = 0;
  uint64_t counted = data->error_blocks;

  ck_assert_uint_eq (data->bad.ranges->len, G_N_ELEMENTS (bad));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const DsByteRange *r = &g_array_index (data->bad.ranges, DsByteRange, i);

      ck_assert_uint_eq (r->offset_bytes, bad[i].offset);
      ck_assert_uint_eq (r->length_bytes, bad[i].length);
      bad_bytes += bad[i].length;
    }
  ck_assert_uint_eq (data->bad.total_bytes, bad_bytes);
  ck_assert (!data->bad.truncated);
  ck_assert_uint_eq (data->error_blocks, N_ERROR_BLOCKS);
  ck_assert_uint_eq (data->blocks_read, DISK_BYTES / BLOCK);
  ck_assert_uint_eq (data->bytes_read, DISK_BYTES - N_ERROR_BLOCKS * BLOCK);
  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    counted += data->buckets[i];
  ck_assert_uint_eq (counted, data->blocks_read);
  ck_assert_uint_ge (data->buckets[DS_SCAN_GE_500MS - 1], 1);
}

START_TEST (test_scan_finds_exactly_the_injected_faults)
{
  g_autoptr (DsFaultDisk) disk = start_disk ();
  g_autoptr (DsResult) result = NULL;
  g_autoptr (DsResult) again = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autofree char *json = NULL;
  g_autoptr (GError) error = NULL;
  Seen seen = { 0 };
  Seen seen_again = { 0 };
  const DsScanData *data;
  const DsScanData *data2;

  /* Twice: the faults must be found the same both times, and a latency
   * that only one scan saw is the machine's (this one is shared and
   * sometimes very busy), not the disk's. */
  result = run_scan (ds_faultdisk_get_device (disk), FALSE, BLOCK, &seen, NULL);
  again = run_scan (ds_faultdisk_get_device (disk), FALSE, BLOCK, &seen_again, NULL);
  if (result->error != NULL)
    note ("error: %s", result->error->message);
  ck_assert_ptr_null (result->error);
  ck_assert_ptr_null (again->error);
  ck_assert (result->complete);
  data = result->data;
  data2 = again->data;
  check_faults (data);
  check_faults (data2);

  /* One block per cell on a disk this small: the map is per block. */
  ck_assert_uint_eq (data->geometry.n_cells, DISK_BYTES / BLOCK);
  ck_assert_uint_eq (seen.cells, data->geometry.n_cells);
  ck_assert_uint_eq (seen.points, data->geometry.n_cells);
  ck_assert_uint_eq (seen.error_points, N_ERROR_BLOCKS);
  ck_assert (!seen.backwards);
  for (guint c = 0; c < data->geometry.n_cells; c++)
    {
      uint64_t start = (uint64_t) c * BLOCK;
      gboolean is_bad = FALSE;
      DsScanCell expect = DS_SCAN_UNREAD;
      guint8 low = MIN (data->cells[c], data2->cells[c]);

      for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
        if (bad[i].offset < start + BLOCK && bad[i].offset + bad[i].length > start)
          is_bad = TRUE;
      for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
        if (slow[i].offset == start)
          expect = slow[i].cell;

      if (is_bad)
        {
          ck_assert_uint_eq (data->cells[c], DS_SCAN_ERROR);
          ck_assert_uint_eq (data2->cells[c], DS_SCAN_ERROR);
        }
      else if (expect != DS_SCAN_UNREAD)
        {
          /* The injected delay is a floor in every scan; in at least one
           * the block lands in its bucket or the next. */
          note ("slow block at %" PRIu64 ": cells %u, %u, expected %u", start,
                data->cells[c], data2->cells[c], expect);
          ck_assert_uint_ge (low, expect);
          ck_assert_uint_le (low, MIN (expect + 1, DS_SCAN_GE_500MS));
        }
      else
        {
          /* No false bad or slow blocks. */
          if (data->cells[c] > DS_SCAN_LT_20MS || data2->cells[c] > DS_SCAN_LT_20MS)
            note ("block at %" PRIu64 " is in buckets %u, %u", start, data->cells[c], data2->cells[c]);
          ck_assert_uint_ne (data->cells[c], DS_SCAN_ERROR);
          ck_assert_uint_ne (data2->cells[c], DS_SCAN_ERROR);
          ck_assert_uint_ge (low, DS_SCAN_LT_5MS);
          ck_assert_uint_le (low, DS_SCAN_LT_150MS);
        }
    }

  /* The result survives its JSON. */
  json = ds_result_to_data (result, NULL);
  back = ds_result_load_data (json, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  {
    const DsScanData *b = back->data;

    ck_assert_uint_eq (b->bad.ranges->len, G_N_ELEMENTS (bad));
    ck_assert_uint_eq (b->error_blocks, N_ERROR_BLOCKS);
    ck_assert_int_eq (memcmp (b->cells, data->cells, data->geometry.n_cells), 0);
    ck_assert_int_eq (memcmp (b->buckets, data->buckets, sizeof data->buckets), 0);
  }
}
END_TEST

/* Quick: one block per cell, and one block in 16 at least.  With 4 KiB
 * blocks on 128 MiB a cell per two blocks would fit the map, so the cells
 * are of 16 blocks (2048 cells of 64 KiB): a fault in a sampled block is
 * found exactly, one between the samples is not (that is what "sampled"
 * means, and the report says so). */
START_TEST (test_quick_scan_samples)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (128 * MiB, 3);
  g_autoptr (DsResult) result = NULL;
  const DsScanData *data;
  uint64_t sampled = 500 * 65536;      /* cell 500's first block */
  uint64_t unsampled = 1000 * 65536 + 4096;
  Seen seen = { 0 };

  ds_faultdisk_attach (disk, TRUE);
  ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " 512", sampled + 1024));
  ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " 4096", unsampled));
  ck_assert (ds_faultdisk_control (disk, "reset-counters"));

  result = run_scan (ds_faultdisk_get_device (disk), TRUE, 4096, &seen, NULL);
  ck_assert_ptr_null (result->error);
  data = result->data;
  ck_assert_uint_eq (data->geometry.n_cells, 2048);
  ck_assert_uint_eq (data->geometry.cell_bytes, 65536);
  ck_assert_uint_eq (data->blocks_read, 2048);
  ck_assert_uint_eq (data->bad.ranges->len, 1);
  ck_assert_uint_eq (g_array_index (data->bad.ranges, DsByteRange, 0).offset_bytes, sampled + 1024);
  ck_assert_uint_eq (g_array_index (data->bad.ranges, DsByteRange, 0).length_bytes, 512);
  ck_assert_uint_eq (data->error_blocks, 1);
  /* It read a sixteenth of the disk (8 MiB), not all of it.  The counter
   * also holds what udev and blkid read when the loop device appeared (a
   * few MiB at its start and end, possibly after the reset). */
  note ("read %" PRIu64 " bytes from the disk", ds_faultdisk_counter (disk, "read_bytes"));
  ck_assert_uint_le (ds_faultdisk_counter (disk, "read_bytes"), 8 * MiB + 8 * MiB);
}
END_TEST

START_TEST (test_stop_keeps_the_map)
{
  g_autoptr (DsFaultDisk) disk = start_disk ();
  g_autoptr (DsResult) result = NULL;
  const DsScanData *data;
  gint cancel = 0;
  Seen seen = { .cancel = &cancel, .stop_at = 40 };

  /* A Stop (from the sink, as a page's button would, on the worker
   * thread) once block 40 is done: the scan ends before the next block. */
  result = run_scan (ds_faultdisk_get_device (disk), FALSE, BLOCK, &seen, &cancel);

  ck_assert (result->cancelled);
  ck_assert (!result->complete);
  data = result->data;
  ck_assert_uint_eq (data->blocks_read, 41);
  /* The blocks read are in the map, the rest is not. */
  for (guint c = 0; c < data->geometry.n_cells; c++)
    ck_assert_int_eq (data->cells[c] != DS_SCAN_UNREAD, c <= 40);
  /* Block 8 (bad) was read before the stop: its exact range is kept. */
  ck_assert_uint_eq (data->bad.ranges->len, 1);
  ck_assert_uint_eq (g_array_index (data->bad.ranges, DsByteRange, 0).offset_bytes, bad[0].offset);
  ck_assert_uint_eq (data->error_blocks, 1);
}
END_TEST

START_TEST (test_cli_scan_json_and_range)
{
  g_autoptr (DsFaultDisk) disk = start_disk ();
  const char *dev = ds_faultdisk_get_device (disk);
  const char *argv[] = { ds_test_cli_path (), "scan", dev, "--range", "9M-11M", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *ranges;
  JsonArray *buckets;
  int rc;

  rc = ds_test_run (argv, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert_ptr_nonnull (root);
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "test")), "error-scan");
  ranges = json_node_get_array (ds_fault_json_get (root, "results.bad_ranges"));
  ck_assert_uint_eq (json_array_get_length (ranges), 1);
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (ranges, 0), "offset_bytes"),
                    (gint64) (10 * MiB - 512));
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (ranges, 0), "length_bytes"), 1024);
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.blocks_read")), 16);
  ck_assert_int_eq (json_node_get_int (ds_fault_json_get (root, "results.errors")), 2);
  buckets = json_node_get_array (ds_fault_json_get (root, "results.buckets"));
  ck_assert_uint_eq (json_array_get_length (buckets), 6);
  ck_assert (json_node_is_null (json_object_get_member (json_array_get_object_element (buckets, 5), "upper_s")));
  ck_assert (json_object_get_double_member (json_array_get_object_element (buckets, 0), "upper_s") == 0.005);

  /* The text report names the range and draws the map. */
  {
    const char *text_argv[] = { ds_test_cli_path (), "scan", dev, "--range", "9M-11M", NULL };
    g_autofree char *text = NULL;

    rc = ds_test_run (text_argv, &text, NULL);
    ck_assert_int_eq (rc, 0);
    ck_assert_ptr_nonnull (strstr (text, "offset 10485248, 1024 bytes"));
    ck_assert_ptr_nonnull (strstr (text, "Block map"));
    ck_assert_ptr_nonnull (strstr (text, "X"));
  }
}
END_TEST

START_TEST (test_cli_scan_refuses_bad_ranges)
{
  g_autoptr (DsFaultDisk) disk = start_disk ();
  const char *dev = ds_faultdisk_get_device (disk);
  const char *past[] = { ds_test_cli_path (), "scan", dev, "--range", "60M-80M", NULL };
  const char *odd[] = { ds_test_cli_path (), "scan", dev, "--range", "100-5000", NULL };
  const char *garbage[] = { ds_test_cli_path (), "scan", dev, "--range", "5M-1M", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* Refused before a block is read: no report, only the reason. */
  ck_assert_int_eq (ds_test_run (past, &out, &err), 2);
  ck_assert_str_eq (out, "");
  ck_assert_ptr_nonnull (strstr (err, "past the end"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_run (odd, &out, &err), 2);
  ck_assert_ptr_nonnull (strstr (err, "multiples of the"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_run (garbage, &out, &err), 2);
  ck_assert_ptr_nonnull (strstr (err, "START-END"));
}
END_TEST

/* SIGINT a second into a scan of 2048 blocks: the report of the blocks read
 * so far is printed (it was "stopped before anything was measured"), and
 * the saved result holds the same count. */
START_TEST (test_cli_stopped_scan_prints_the_report)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (128 * MiB, 4);
  const char *dev = ds_faultdisk_attach (disk, TRUE);
  g_autofree char *json = ds_test_scratch_path ("stopped-scan.json");
  const char *argv[] = { ds_test_cli_path (), "scan", dev, "--block-size", "64K",
                         "--no-library", "-o", json, NULL };
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (DsResult) saved = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;
  const DsScanData *data;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " 4096", 2 * MiB));
  ck_assert (ds_faultdisk_control (disk, "delay 1500"));
  proc = ds_fault_proc_spawn (argv);
  g_usleep (1000 * 1000);
  ck_assert_msg (ds_fault_proc_end_time (proc) == 0, "the scan ended on its own");
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 10000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("stopped scan: exit %d: %s", rc, err);
  ck_assert_int_eq (rc, 130);
  ck_assert_msg (strstr (err, "the partial result was printed") != NULL, "%s", err);

  saved = ds_result_load (json, &error);
  ck_assert_msg (saved != NULL, "%s", error ? error->message : "");
  ck_assert (saved->cancelled);
  data = saved->data;
  note ("%" PRIu64 " of %" PRIu64 " blocks read before the stop", data->blocks_read,
        data->geometry.n_reads);
  ck_assert_uint_eq (data->geometry.n_reads, 2048);
  ck_assert_uint_gt (data->blocks_read, 32);
  ck_assert_uint_lt (data->blocks_read, 2048);
  /* The text says the same: the count, the bad sector, the stop. */
  line = g_strdup_printf ("Blocks read           : %" PRIu64 " of 2048", data->blocks_read);
  ck_assert_msg (strstr (out, line) != NULL, "“%s” is not in: %s", line, out);
  ck_assert_msg (strstr (out, "offset 2097152, 4096 bytes") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Stopped by the user") != NULL, "%s", out);
}
END_TEST

static Suite *
scan_suite (void)
{
  Suite *suite = suite_create ("int-scan");
  TCase *tc = tcase_create ("scan");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_scan_finds_exactly_the_injected_faults);
  tcase_add_test (tc, test_quick_scan_samples);
  tcase_add_test (tc, test_stop_keeps_the_map);
  tcase_add_test (tc, test_cli_scan_json_and_range);
  tcase_add_test (tc, test_cli_scan_refuses_bad_ranges);
  tcase_add_test (tc, test_cli_stopped_scan_prints_the_report);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  g_autofree char *reason = NULL;

  ds_test_init ("int-scan");
  ds_test_require_root ("the scan's truth is a faultdisk behind a loop device");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  return ds_test_run_suite (scan_suite ());
}
