/* test-scan-data.c: the error scan's bookkeeping without a device: range
 * merging, the map geometry, the buckets, the result's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-bench-erase.h"
#include "ds-bench-error-scan.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-ranges.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

static void
assert_ranges (const DsRangeList *list,
               const uint64_t    *pairs,
               guint              n)
{
  ck_assert_uint_eq (list->ranges->len, n);
  for (guint i = 0; i < n; i++)
    {
      const DsByteRange *r = &g_array_index (list->ranges, DsByteRange, i);

      ck_assert_uint_eq (r->offset_bytes, pairs[2 * i]);
      ck_assert_uint_eq (r->length_bytes, pairs[2 * i + 1]);
    }
}

START_TEST (test_ranges_merge)
{
  DsRangeList list;

  ds_range_list_init (&list, 100);
  ds_range_list_add (&list, 1000, 100);
  ds_range_list_add (&list, 5000, 100);
  ds_range_list_add (&list, 0, 10);
  assert_ranges (&list, (const uint64_t[]) { 0, 10, 1000, 100, 5000, 100 }, 3);
  /* Touching merges; so does overlapping; one range swallowing two. */
  ds_range_list_add (&list, 1100, 50);
  assert_ranges (&list, (const uint64_t[]) { 0, 10, 1000, 150, 5000, 100 }, 3);
  ds_range_list_add (&list, 900, 200);
  assert_ranges (&list, (const uint64_t[]) { 0, 10, 900, 250, 5000, 100 }, 3);
  ds_range_list_add (&list, 5, 6000);
  assert_ranges (&list, (const uint64_t[]) { 0, 6005 }, 1);
  ck_assert_uint_eq (list.total_bytes, 6005);
  ds_range_list_add (&list, 3, 0);
  ck_assert_uint_eq (list.ranges->len, 1);
  ds_range_list_clear (&list);

  /* Bounded: the ranges past the limit are counted, not kept. */
  ds_range_list_init (&list, 2);
  for (uint64_t i = 0; i < 5; i++)
    ds_range_list_add (&list, i * 100, 10);
  ck_assert_uint_eq (list.ranges->len, 2);
  ck_assert (list.truncated);
  ck_assert_uint_eq (list.total_bytes, 50);
  ds_range_list_clear (&list);
}
END_TEST

START_TEST (test_geometry)
{
  DsScanGeometry g;

  /* Small: one block a cell. */
  ds_scan_geometry (0, 64 << 20, 128 << 10, FALSE, &g);
  ck_assert_uint_eq (g.n_blocks, 512);
  ck_assert_uint_eq (g.n_cells, 512);
  ck_assert_uint_eq (g.cell_blocks, 1);
  ck_assert_uint_eq (g.n_reads, 512);

  /* 20 TB: bounded to DS_LIMIT_SCAN_MAP_CELLS cells, every block read. */
  ds_scan_geometry (0, UINT64_C (20000000000000), 128 << 10, FALSE, &g);
  ck_assert_uint_le (g.n_cells, DS_LIMIT_SCAN_MAP_CELLS);
  ck_assert_uint_ge (g.n_cells, DS_LIMIT_SCAN_MAP_CELLS - 1);
  ck_assert_uint_ge ((uint64_t) g.n_cells * g.cell_blocks, g.n_blocks);
  ck_assert_uint_eq (g.n_reads, g.n_blocks);
  /* Quick: one block per cell. */
  ds_scan_geometry (0, UINT64_C (20000000000000), 128 << 10, TRUE, &g);
  ck_assert_uint_eq (g.n_reads, g.n_cells);

  /* A short last block. */
  ds_scan_geometry (4096, 1000 * 512, 4096, FALSE, &g);
  ck_assert_uint_eq (g.n_blocks, 125);

  /* Quick samples even where a cell per block fits (issue 25: on 2 GiB it
   * read all 16384 blocks, as long as the full scan): one block in 16. */
  ds_scan_geometry (0, UINT64_C (2) << 30, 128 << 10, TRUE, &g);
  ck_assert_uint_eq (g.n_blocks, 16384);
  ck_assert_uint_eq (g.cell_blocks, DS_SCAN_QUICK_MIN_CELL_BLOCKS);
  ck_assert_uint_eq (g.n_reads, 1024);
  ds_scan_geometry (0, 64 << 20, 128 << 10, TRUE, &g);
  ck_assert_uint_eq (g.n_reads, 32);
  /* On a large disk it was sampling already: unchanged. */
  ds_scan_geometry (0, UINT64_C (20000000000000), 128 << 10, TRUE, &g);
  ck_assert_uint_ge (g.n_cells, DS_LIMIT_SCAN_MAP_CELLS - 1);
}
END_TEST


START_TEST (test_buckets)
{
  ck_assert_uint_eq (ds_scan_cell_for (0, FALSE), DS_SCAN_LT_5MS);
  ck_assert_uint_eq (ds_scan_cell_for (5 * DS_NS_PER_MSEC - 1, FALSE), DS_SCAN_LT_5MS);
  ck_assert_uint_eq (ds_scan_cell_for (5 * DS_NS_PER_MSEC, FALSE), DS_SCAN_LT_20MS);
  ck_assert_uint_eq (ds_scan_cell_for (49 * DS_NS_PER_MSEC, FALSE), DS_SCAN_LT_50MS);
  ck_assert_uint_eq (ds_scan_cell_for (150 * DS_NS_PER_MSEC, FALSE), DS_SCAN_LT_500MS);
  ck_assert_uint_eq (ds_scan_cell_for (500 * DS_NS_PER_MSEC, FALSE), DS_SCAN_GE_500MS);
  ck_assert_uint_eq (ds_scan_cell_for (1, TRUE), DS_SCAN_ERROR);
  ck_assert_str_eq (ds_scan_cell_name (DS_SCAN_LT_150MS), "ok");
  ck_assert_str_eq (ds_scan_cell_name (DS_SCAN_LT_500MS), "slow");
  ck_assert_str_eq (ds_scan_cell_name (DS_SCAN_ERROR), "error");
  ck_assert_uint_eq (ds_scan_bucket_upper_ns (0), 5 * DS_NS_PER_MSEC);
  ck_assert_uint_eq (ds_scan_bucket_upper_ns (DS_SCAN_N_BUCKETS - 1), 0);
}
END_TEST

static DsResult *
scan_result (void)
{
  DsBenchSpec spec;
  DsResult *r;
  DsScanData *data;

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  spec.target_path = g_strdup ("/dev/sdz");
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  r->target.path = g_strdup ("/dev/sdz");
  r->target.is_block = TRUE;
  r->target.size_bytes = 4 << 20;
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->complete = TRUE;

  data = r->data;
  ds_scan_geometry (0, 4 << 20, 128 << 10, FALSE, &data->geometry);
  data->cells = g_malloc0 (data->geometry.n_cells);
  data->sector_bytes = 512;
  for (uint64_t i = 0; i < 32; i++)
    {
      gboolean bad = i == 7;

      ds_scan_data_record (data, i * (128 << 10), (i == 20 ? 200 : 1) * DS_NS_PER_MSEC, bad);
      if (!bad)
        data->bytes_read += 128 << 10;
    }
  ds_range_list_add (&data->bad, 7 * (128 << 10) + 512, 1024);
  data->elapsed_ns = DS_NS_PER_SEC;

  return r;
}

START_TEST (test_json_round_trip_and_strictness)
{
  g_autoptr (DsResult) r = scan_result ();
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *json = ds_result_to_data (r, NULL);
  const DsScanData *a = r->data;
  const DsScanData *b;
  static const struct { const char *from; const char *to; } corrupt[] = {
    { "\"errors\" : 1", "\"errors\" : 2" },                 /* does not add up */
    { "\"states\" : \"", "\"states\" : \"9" },              /* not a state */
    { "\"length_bytes\" : 1024", "\"length_bytes\" : 0" },  /* empty range */
    { "\"block_bytes\" : 131072", "\"block_bytes\" : 1" },  /* absurd block */
  };

  ck_assert_uint_eq (a->error_blocks, 1);
  ck_assert_uint_eq (a->buckets[DS_SCAN_LT_500MS - 1], 1);
  ck_assert_uint_eq (a->cells[7], DS_SCAN_ERROR);

  back = ds_result_load_data (json, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  b = back->data;
  ck_assert_uint_eq (b->geometry.n_cells, a->geometry.n_cells);
  ck_assert_int_eq (memcmp (b->cells, a->cells, a->geometry.n_cells), 0);
  ck_assert_int_eq (memcmp (b->buckets, a->buckets, sizeof a->buckets), 0);
  ck_assert_uint_eq (b->bad.ranges->len, 1);
  ck_assert_uint_eq (b->bad.total_bytes, 1024);
  ck_assert_uint_eq (b->blocks_read, 32);

  for (guint i = 0; i < G_N_ELEMENTS (corrupt); i++)
    {
      g_autoptr (GString) s = g_string_new (json);
      g_autoptr (DsResult) bad = NULL;
      g_autoptr (GError) e = NULL;

      ck_assert_msg (strstr (s->str, corrupt[i].from) != NULL, "%s not in the JSON", corrupt[i].from);
      g_string_replace (s, corrupt[i].from, corrupt[i].to, 1);
      bad = ds_result_load_data (s->str, -1, &e);
      ck_assert_msg (bad == NULL, "case %u loaded", i);
      ck_assert (g_error_matches (e, DS_ERROR, DS_ERROR_CORRUPT));
    }

  /* The report: the figures, the buckets, the ranges, the map. */
  {
    g_autofree char *text = ds_report_text (back, DS_UNITS_MB);

    ck_assert_ptr_nonnull (strstr (text, "Error Scan"));
    ck_assert_ptr_nonnull (strstr (text, "Damaged blocks        : 1"));
    ck_assert_ptr_nonnull (strstr (text, "offset 918016, 1024 bytes"));
    ck_assert_ptr_nonnull (strstr (text, "|.......X............s...........|"));
    ck_assert_ptr_null (strstr (text, "Test capacity"));
  }
}
END_TEST

/* A quick scan's file: its report says the share of the range it read;
 * one saved before the stride (a cell per block) still loads with its own
 * cells, and cells past the map's bound are refused. */
START_TEST (test_quick_file)
{
  g_autoptr (DsResult) r = scan_result ();
  DsScanData *data = r->data;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;

  ds_error_scan_options (&r->spec)->quick = TRUE;
  g_free (data->cells);
  memset (data->buckets, 0, sizeof data->buckets);
  data->blocks_read = data->error_blocks = data->bytes_read = 0;
  ds_range_list_clear (&data->bad);
  ds_range_list_init (&data->bad, DS_LIMIT_SCAN_BAD_RANGES_MAX);
  ds_scan_geometry (0, 4 << 20, 128 << 10, TRUE, &data->geometry);
  data->cells = g_malloc0 (data->geometry.n_cells);
  for (guint i = 0; i < data->geometry.n_cells; i++)
    {
      ds_scan_data_record (data, i * data->geometry.cell_bytes, DS_NS_PER_MSEC, FALSE);
      data->bytes_read += 128 << 10;
    }
  text = ds_report_text (r, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "(2 samples, 6.25 % of the range)") != NULL, "%s", text);

  /* As an older quick scan saved it: a cell per block, every block read. */
  g_free (data->cells);
  memset (data->buckets, 0, sizeof data->buckets);
  data->blocks_read = data->bytes_read = 0;
  ck_assert (ds_scan_geometry_cells (0, 4 << 20, 128 << 10, TRUE, 1, &data->geometry));
  data->cells = g_malloc0 (data->geometry.n_cells);
  for (guint i = 0; i < 32; i++)
    ds_scan_data_record (data, i * (128 << 10), DS_NS_PER_MSEC, FALSE);
  json = ds_result_to_data (r, NULL);
  back = ds_result_load_data (json, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (((DsScanData *) back->data)->geometry.n_cells, 32);
  ck_assert_uint_eq (((DsScanData *) back->data)->blocks_read, 32);
  {
    g_autoptr (GString) s = g_string_new (json);
    g_autoptr (DsResult) bad = NULL;
    g_autoptr (GError) e = NULL;

    g_string_replace (s, "\"cell_bytes\" : 131072", "\"cell_bytes\" : 1000", 1);
    bad = ds_result_load_data (s->str, -1, &e);
    ck_assert (bad == NULL);
    ck_assert_msg (strstr (e->message, "cell_bytes") != NULL, "%s", e->message);
  }
}
END_TEST

START_TEST (test_spec_rules)
{
  DsBenchSpec spec;
  g_autoptr (GError) error = NULL;

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  spec.target_path = g_strdup ("/dev/sdz");
  ck_assert_uint_eq (spec.block_size_bytes, 128 << 10);
  ck_assert (ds_bench_spec_validate (&spec, NULL));
  spec.block_size_bytes = 512;
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ds_bench_spec_clear (&spec);
  g_clear_error (&error);

  /* Erase is a write test, whatever is asked. */
  ds_bench_spec_init (&spec, DS_BENCH_ERASE);
  spec.target_path = g_strdup ("/dev/sdz");
  ck_assert (spec.write);
  ck_assert (ds_bench_spec_validate (&spec, NULL));
  spec.write = FALSE;
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  spec.write = TRUE;
  ds_erase_options (&spec)->method = (DsEraseMethod) 17;
  ck_assert (!ds_bench_spec_validate (&spec, NULL));
  ds_bench_spec_clear (&spec);

  {
    DsEraseMethod m;

    ck_assert (ds_erase_method_from_string ("secure-discard", &m));
    ck_assert_int_eq (m, DS_ERASE_SECURE_DISCARD);
    ck_assert_str_eq (ds_erase_method_to_string (DS_ERASE_RANDOM), "random");
    ck_assert (!ds_erase_method_from_string ("shred", &m));
  }
  ck_assert_ptr_nonnull (ds_bench_lookup ("health"));
  ck_assert_ptr_nonnull (ds_bench_lookup ("error-scan"));
  ck_assert_ptr_nonnull (ds_bench_lookup ("erase"));
}
END_TEST

static Suite *
scan_data_suite (void)
{
  Suite *suite = suite_create ("scan-data");
  TCase *tc = tcase_create ("scan-data");

  tcase_set_timeout (tc, 60);

  tcase_add_test (tc, test_ranges_merge);
  tcase_add_test (tc, test_geometry);
  tcase_add_test (tc, test_buckets);
  tcase_add_test (tc, test_json_round_trip_and_strictness);
  tcase_add_test (tc, test_quick_file);
  tcase_add_test (tc, test_spec_rules);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (scan_data_suite ());
}
