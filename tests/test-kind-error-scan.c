/* test-kind-error-scan.c: the Error Scan kind's files beside its run
 * (core/kinds/error-scan/ds-error-scan-compare.c, -fio.c, and what
 * tests/test-scan-data.c leaves of ds-error-scan-data.c)
 *
 * Unit suite: no root, no device.  What they promise: the comparison's
 * figures, one row a latency bucket and one a bad range (at most 64, then
 * a note), "not measured" for a rate or a slowest block with nothing
 * behind it; fio's refusal word for word; every bucket's bounds and every
 * cell's name; the geometry's edges (no block, the map's bound exactly,
 * a refusal that leaves its output alone); a cell keeping the worst of
 * its blocks; the "results" object member by member (the sampling of a
 * quick scan, the map's digits), each refusal of its strict inverse with
 * its message, an erase's object refused; the report line by line, and
 * its map in groups of cells over rows of 64.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-error-scan.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio-job.h"
#include "ds-limits.h"
#include "ds-result.h"
#include "ds-test-kind.h"
#include "ds-test-util.h"

#define KiB (UINT64_C (1) << 10)
#define MiB (UINT64_C (1) << 20)
#define MS  DS_NS_PER_MSEC

static const DsBenchOps *
ops (void)
{
  return ds_bench_get (DS_BENCH_ERROR_SCAN);
}

/* The kind's empty data over [@start, @start + @span) in @block blocks. */
static DsScanData *
scan_new (uint64_t start,
          uint64_t span,
          uint64_t block,
          gboolean quick)
{
  DsScanData *d = ops ()->data_new ();

  ds_scan_geometry (start, span, block, quick, &d->geometry);
  d->cells = g_malloc0 (MAX (d->geometry.n_cells, 1));
  d->sector_bytes = 512;
  return d;
}

/* 8 blocks of 128 KiB over 1 MiB: six fast, block 5 at 200 ms, block 7
 * failed with one bad sector; 1 s of reads. */
static DsScanData *
small_scan (void)
{
  DsScanData *d = scan_new (0, MiB, 128 * KiB, FALSE);

  for (uint64_t i = 0; i < 8; i++)
    {
      ds_scan_data_record (d, i * 128 * KiB, (i == 5 ? 200 : 1) * MS, i == 7);
      d->bytes_read += i == 7 ? 0 : 128 * KiB;
    }
  ds_range_list_add (&d->bad, 7 * 128 * KiB + 512, 512);
  d->elapsed_ns = DS_NS_PER_SEC;
  return d;
}

static DsResult *
result_of (DsScanData *d)
{
  DsResult *r = ds_result_new_blank (DS_BENCH_ERROR_SCAN);

  r->data = d;
  return r;
}

/* ---- ds-error-scan-compare.c ------------------------------------------ */

/* The rows of @d (which the result frees) through the kinds' table, a
 * line each, then its notes, "note|text" each. */
static char *
rows_of (DsScanData *d)
{
  g_autoptr (DsResult) r = result_of (d);
  DsTestSink sink;
  GString *s;

  ds_test_sink_compare (&sink, r);
  s = g_string_new (NULL);
  for (guint i = 0; i < sink.rows->len; i++)
    g_string_append_printf (s, "%s\n", (char *) sink.rows->pdata[i]);
  for (guint i = 0; i < sink.notes->len; i++)
    g_string_append_printf (s, "note|%s\n", (char *) sink.notes->pdata[i]);
  ds_test_sink_clear (&sink);
  return g_string_free (s, FALSE);
}

START_TEST (test_compare_rows)
{
  g_autofree char *rows = NULL;
  DsScanData *d = small_scan ();

  ds_range_list_add (&d->bad, 2 * MiB, 4096);
  d->elapsed_ns = 2 * DS_NS_PER_SEC;
  ck_assert_ptr_eq (ops ()->compare_rows, ds_error_scan_compare_rows);
  rows = rows_of (d);
  ck_assert_str_eq (rows,
    "[Error Scan]\n"
    "blocks_read|Blocks read||count|+|8\n"
    "error_blocks|Damaged blocks||count|-|1\n"
    "bad_ranges|Bad ranges||count|-|2\n"
    "bad_bytes|Bad bytes||bytes|-|4608\n"
    "rate|Read rate||rate|+|458752\n"
    "max_latency|Slowest block||time|-|0.2\n"
    "[Error Scan, blocks by read time]\n"
    "bucket.lt_5ms|< 5 ms|blocks|count|+|6\n"
    "bucket.lt_20ms|< 20 ms|blocks|count|-|0\n"
    "bucket.lt_50ms|< 50 ms|blocks|count|-|0\n"
    "bucket.lt_150ms|< 150 ms|blocks|count|-|0\n"
    "bucket.lt_500ms|< 500 ms|blocks|count|-|1\n"
    "bucket.ge_500ms|≥ 500 ms|blocks|count|-|0\n"
    "[Error Scan, bad ranges (a range only one scan has is new)]\n"
    "bad.918016|at byte 918016|bytes|bytes|-|512\n"
    "bad.2097152|at byte 2097152|bytes|bytes|-|4096\n");
}
END_TEST

/* Nothing read: no rate, no slowest block; data never given a list; 64
 * ranges listed, then the rest left to the report, as a truncated list. */
START_TEST (test_compare_edges)
{
  static const struct { guint n; gboolean truncated; } cases[] = { { 64, FALSE }, { 65, FALSE }, { 1, TRUE } };
  g_autofree char *rows = rows_of (ops ()->data_new ());
  g_autofree char *bare = rows_of (g_new0 (DsScanData, 1));
  g_autofree char *scan = ds_test_rows_in (rows, "Error Scan");
  g_autofree char *bare_scan = ds_test_rows_in (bare, "Error Scan");

  ck_assert_msg (strstr (scan, "\nrate|Read rate||rate|+|-\nmax_latency|Slowest block||time|-|-\n") != NULL,
                 "%s", rows);
  ck_assert_msg (strstr (bare_scan, "\nbad_ranges|Bad ranges||count|-|0\n") != NULL, "%s", bare);
  ck_assert_ptr_null (strstr (bare, "bad."));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsScanData *d = ops ()->data_new ();
      g_autofree char *got = NULL;

      for (guint k = 0; k < cases[i].n; k++)
        ds_range_list_add (&d->bad, k * 4096, 512);
      d->bad.truncated = cases[i].truncated;
      got = rows_of (d);
      ck_assert (cases[i].n < 64 || strstr (got, "\nbad.258048|") != NULL);
      ck_assert_ptr_null (strstr (got, "\nbad.262144|"));
      ck_assert ((strstr (got, "\nnote|more bad ranges than the comparison lists: see its report\n") != NULL)
                 == (i > 0));
      ck_assert_ptr_null (strstr (rows, "note|"));
    }
}
END_TEST

/* ---- ds-error-scan-fio.c ---------------------------------------------- */

START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = result_of (small_scan ());
  g_autoptr (GString) out = g_string_new ("");
  DsFioJobFile job = { .out = out, .filename = "/dev/sdz" };
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_eq (ops ()->fio_job, ds_error_scan_fio_job);
  ck_assert (!ops ()->fio_job (r, &job, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message,
                    "an Error Scan cannot be expressed as a fio job, because fio stops at a read "
                    "error (or skips it with continue_on_error) and reports neither each block's "
                    "read time nor the bad ranges, which are what a scan finds");
  ck_assert_uint_eq (out->len, 0);
  ck_assert (!ds_error_scan_fio_job (r, &job, NULL));
}
END_TEST

/* ---- ds-error-scan-data.c: buckets, cells, geometry, record ----------- */

/* Each bucket from its lower bound to just under its upper one. */
START_TEST (test_buckets_and_names)
{
  static const uint64_t upper_ms[] = { 5, 20, 50, 150, 500, 0 };
  static const char *const names[] = { "unread", "ok", "ok", "ok", "ok", "slow", "slow", "error" };

  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      ck_assert_uint_eq (ds_scan_bucket_upper_ns (i), upper_ms[i] * MS);
      if (upper_ms[i] == 0)
        continue;
      ck_assert_int_eq (ds_scan_cell_for (upper_ms[i] * MS - 1, FALSE), DS_SCAN_LT_5MS + i);
      ck_assert_int_eq (ds_scan_cell_for (upper_ms[i] * MS, FALSE), DS_SCAN_LT_5MS + i + 1);
    }
  ck_assert_uint_eq (ds_scan_bucket_upper_ns (DS_SCAN_N_BUCKETS), 0);
  ck_assert_uint_eq (ds_scan_bucket_upper_ns (G_MAXUINT), 0);
  ck_assert_int_eq (ds_scan_cell_for (G_MAXUINT64, FALSE), DS_SCAN_GE_500MS);
  ck_assert_int_eq (ds_scan_cell_for (0, TRUE), DS_SCAN_ERROR);
  for (guint c = DS_SCAN_UNREAD; c <= DS_SCAN_ERROR; c++)
    ck_assert_str_eq (ds_scan_cell_name ((DsScanCell) c), names[c]);
  ck_assert_str_eq (ds_scan_cell_name ((DsScanCell) 99), "error");
  /* "slow" from DS_SCAN_SLOW_NS on, as the header says. */
  ck_assert_str_eq (ds_scan_cell_name (ds_scan_cell_for (DS_SCAN_SLOW_NS - 1, FALSE)), "ok");
  ck_assert_str_eq (ds_scan_cell_name (ds_scan_cell_for (DS_SCAN_SLOW_NS, FALSE)), "slow");
}
END_TEST

START_TEST (test_geometry_edges)
{
  DsScanGeometry g, kept;

  /* No block size, no span: nothing to read, no cell. */
  ds_scan_geometry (4096, MiB, 0, FALSE, &g);
  ck_assert (g.n_blocks == 0 && g.n_cells == 0 && g.n_reads == 0 && g.cell_bytes == 0);
  ds_scan_geometry (4096, 0, 4096, TRUE, &g);
  ck_assert (g.n_blocks == 0 && g.n_cells == 0 && g.n_reads == 0);
  ck_assert_uint_eq (g.start_bytes, 4096);

  /* The map's bound exactly, then one block more: two blocks a cell. */
  ds_scan_geometry (0, DS_LIMIT_SCAN_MAP_CELLS * 4096, 4096, FALSE, &g);
  ck_assert (g.n_cells == DS_LIMIT_SCAN_MAP_CELLS && g.cell_blocks == 1 && g.cell_bytes == 4096);
  ds_scan_geometry (512, DS_LIMIT_SCAN_MAP_CELLS * 4096 + 1, 4096, FALSE, &g);
  ck_assert_uint_eq (g.n_blocks, DS_LIMIT_SCAN_MAP_CELLS + 1);
  ck_assert (g.cell_blocks == 2 && g.cell_bytes == 8192 && g.n_cells == DS_LIMIT_SCAN_MAP_CELLS / 2 + 1);
  ck_assert (g.n_reads == g.n_blocks && g.start_bytes == 512 && !g.quick);
  /* One short block, quick: its one cell and one read. */
  ds_scan_geometry (0, 1000, 4096, TRUE, &g);
  ck_assert (g.n_blocks == 1 && g.n_cells == 1 && g.n_reads == 1 && g.quick);
  ck_assert_uint_eq (g.cell_bytes, DS_SCAN_QUICK_MIN_CELL_BLOCKS * 4096);

  /* Refused: no block a cell, more cells than the map holds; the
   * geometry given is left as it was. */
  memset (&g, 0xab, sizeof g);
  kept = g;
  ck_assert (!ds_scan_geometry_cells (0, MiB, 4096, TRUE, 0, &g));
  ck_assert (!ds_scan_geometry_cells (0, (DS_LIMIT_SCAN_MAP_CELLS + 1) * 4096, 4096, FALSE, 1, &g));
  ck_assert_int_eq (memcmp (&g, &kept, sizeof g), 0);
  ck_assert (ds_scan_geometry_cells (0, (DS_LIMIT_SCAN_MAP_CELLS + 1) * 4096, 4096, TRUE, 2, &g));
  ck_assert (g.n_cells == DS_LIMIT_SCAN_MAP_CELLS / 2 + 1 && g.n_reads == g.n_cells);
}
END_TEST

/* A cell keeps its worst block; the counts keep every block; a block
 * past the map lands in its last cell; no map is no harm. */
START_TEST (test_record)
{
  DsScanData *d = scan_new (MiB, 8 * 4096, 4096, FALSE);
  g_autoptr (DsResult) r = result_of (d);
  const guint8 want[8] = { DS_SCAN_GE_500MS, DS_SCAN_ERROR, 0, DS_SCAN_LT_20MS, 0, 0, 0, DS_SCAN_LT_50MS };

  ds_scan_data_record (d, MiB, 1 * MS, FALSE);
  ds_scan_data_record (d, MiB + 100, 600 * MS, FALSE);
  ds_scan_data_record (d, MiB + 4095, 2 * MS, FALSE);
  ds_scan_data_record (d, MiB + 4096, 3 * MS, TRUE);
  ds_scan_data_record (d, MiB + 4096, 1 * MS, FALSE);
  ds_scan_data_record (d, MiB + 3 * 4096, 10 * MS, FALSE);
  ds_scan_data_record (d, MiB + 100 * 4096, 30 * MS, FALSE);
  ck_assert_int_eq (memcmp (d->cells, want, 8), 0);
  ck_assert_uint_eq (d->blocks_read, 7);
  ck_assert_uint_eq (d->error_blocks, 1);
  ck_assert (d->buckets[0] == 3 && d->buckets[1] == 1 && d->buckets[2] == 1 && d->buckets[5] == 1);
  ck_assert (d->buckets[3] == 0 && d->buckets[4] == 0);
  ck_assert_uint_eq (d->max_latency_ns, 600 * MS);

  g_clear_pointer (&d->cells, g_free);
  ds_scan_data_record (d, MiB, 700 * MS, TRUE);
  ck_assert (d->blocks_read == 8 && d->error_blocks == 2 && d->max_latency_ns == 700 * MS);
}
END_TEST

/* ---- ds-error-scan-data.c: the "results" object ------------------------ */

START_TEST (test_json_members)
{
  g_autoptr (DsResult) r = result_of (small_scan ());
  g_autoptr (JsonNode) node = ds_scan_data_to_json (r->data);
  JsonObject *o = json_node_get_object (node);
  JsonObject *map = json_object_get_object_member (o, "map");
  JsonArray *buckets = json_object_get_array_member (o, "buckets");
  const double upper[] = { 0.005, 0.02, 0.05, 0.15, 0.5, -1 };
  const gint64 counts[] = { 6, 0, 0, 0, 1, 0 };

  static const struct { const char *member; gint64 value; } ints[] = {
    { "start_bytes", 0 }, { "span_bytes", 1048576 }, { "block_bytes", 131072 }, { "sector_bytes", 512 },
    { "blocks_total", 8 }, { "blocks_read", 8 }, { "bytes_read", 917504 }, { "errors", 1 },
    { "bad_bytes", 512 },
  };

  ck_assert_uint_eq (json_object_get_size (o), 18);
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    ck_assert_int_eq (json_object_get_int_member (o, ints[i].member), ints[i].value);
  ck_assert (!json_object_get_boolean_member (o, "quick"));
  ck_assert (json_object_get_null_member (o, "sampling"));
  ck_assert_double_eq (json_object_get_double_member (o, "elapsed_s"), 1.0);
  ck_assert_double_eq (json_object_get_double_member (o, "avg_bytes_per_s"), 917504.0);
  ck_assert_double_eq (json_object_get_double_member (o, "max_latency_s"), 0.2);
  ck_assert_uint_eq (json_array_get_length (buckets), DS_SCAN_N_BUCKETS);
  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      JsonObject *b = json_array_get_object_element (buckets, i);

      /* The last bucket has no upper bound: null. */
      ck_assert_double_eq (json_object_get_null_member (b, "upper_s") ? -1
                                                                       : json_object_get_double_member (b, "upper_s"),
                           upper[i]);
      ck_assert_int_eq (json_object_get_int_member (b, "count"), counts[i]);
    }
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "bad_ranges")), 1);
  ck_assert (!json_object_get_boolean_member (o, "bad_ranges_truncated"));
  ck_assert_uint_eq (json_object_get_size (map), 3);
  ck_assert_int_eq (json_object_get_int_member (map, "cells"), 8);
  ck_assert_int_eq (json_object_get_int_member (map, "cell_bytes"), 131072);
  ck_assert_str_eq (json_object_get_string_member (map, "states"), "11111517");
}
END_TEST

/* A quick scan says how it sampled: the share of the range it read, at
 * most all of it; nothing read, no rate. */
START_TEST (test_json_quick)
{
  static const struct { uint64_t span; gint64 blocks, every; double fraction; const char *states; } cases[] = {
    { 4 * MiB, 2, 2 * MiB, 0.0625, "00" },
    { 1000, 1, 16 * 128 * KiB, 1.0, "0" },
    { 0, 0, 16 * 128 * KiB, 0, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsResult) r = result_of (scan_new (0, cases[i].span, 128 * KiB, TRUE));
      g_autoptr (JsonNode) node = ds_scan_data_to_json (r->data);
      JsonObject *o = json_node_get_object (node);
      JsonObject *s = json_object_get_object_member (o, "sampling");

      ck_assert (json_object_get_boolean_member (o, "quick"));
      ck_assert_uint_eq (json_object_get_size (s), 3);
      ck_assert_int_eq (json_object_get_int_member (s, "blocks"), cases[i].blocks);
      ck_assert_int_eq (json_object_get_int_member (s, "every_bytes"), cases[i].every);
      ck_assert_double_eq (json_object_get_double_member (s, "fraction"), cases[i].fraction);
      ck_assert_int_eq (json_object_get_int_member (o, "blocks_total"), cases[i].blocks);
      ck_assert_double_eq (json_object_get_double_member (o, "avg_bytes_per_s"), 0);
      ck_assert_str_eq (json_object_get_string_member (json_object_get_object_member (o, "map"), "states"),
                        cases[i].states);
    }
}
END_TEST

typedef struct { const char *member, *value, *message; } Corrupt;

/* @base with @c->member ("map.x": the map's) set to @c->value, or
 * removed when NULL, loaded through the kinds' table: refused so. */
static void
assert_refused (const char    *base,
                const Corrupt *c)
{
  g_autoptr (JsonNode) node = json_from_string (base, NULL);
  JsonObject *o = json_node_get_object (node);
  const char *member = c->member;
  g_autoptr (GError) error = NULL;

  if (g_str_has_prefix (member, "map."))
    {
      o = json_object_get_object_member (o, "map");
      member += 4;
    }
  if (c->value == NULL)
    json_object_remove_member (o, member);
  else
    json_object_set_member (o, member, json_from_string (c->value, NULL));
  ck_assert_msg (ops ()->from_json (json_node_get_object (node), &error) == NULL, "%s=%s loaded",
                 c->member, c->value);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, c->message);
}

START_TEST (test_json_refusals)
{
  static const Corrupt full[] = {
    { "start_bytes", NULL, "results.start_bytes is missing" },
    { "start_bytes", "9223372036854775807", "results: block_bytes or sector_bytes is absurd" },
    { "quick", "\"no\"", "results.quick is not true or false" },
    { "quick", NULL, "results.quick is not true or false" },
    { "block_bytes", "2048", "results: block_bytes or sector_bytes is absurd" },
    { "block_bytes", "16777217", "results.block_bytes is out of range (16777217; expected 0 to 16777216)" },
    { "sector_bytes", "0", "results: block_bytes or sector_bytes is absurd" },
    { "sector_bytes", "1048577", "results.sector_bytes is out of range (1048577; expected 0 to 1048576)" },
    { "blocks_read", "9", "results.blocks_read is out of range (9; expected 0 to 8)" },
    { "bytes_read", "1048577", "results.bytes_read is out of range (1048577; expected 0 to 1048576)" },
    { "elapsed_s", "\"1\"", "results.elapsed_s is not a number" },
    { "max_latency_s", "1e10", "results.max_latency_s is out of range (1e+10; expected 0 to 1e+09)" },
    { "buckets", "{}", "results.buckets is not a list" },
    { "buckets", "[{}, {}, {}, {}, {}]", "results.buckets must have 6 entries" },
    { "buckets", "[1, 2, 3, 4, 5, 6]", "results.buckets[0] is not an object" },
    { "buckets", "[{\"count\": 9}, {}, {}, {}, {}, {}]",
      "results.buckets[0].count is out of range (9; expected 0 to 8)" },
    { "errors", "2", "results: the buckets and errors do not add up to blocks_read" },
    { "errors", "9", "results.errors is out of range (9; expected 0 to 8)" },
    { "bad_ranges", NULL, "results.bad_ranges is missing" },
    { "bad_ranges", "[{\"offset_bytes\": 1048575, \"length_bytes\": 2}]",
      "results.bad_ranges[0] is empty, out of order, overlaps the one before or lies past the end" },
    { "bad_ranges_truncated", "0", "results.bad_ranges_truncated is not true or false" },
    { "bad_bytes", "1048577", "results.bad_bytes is out of range (1048577; expected 0 to 1048576)" },
    { "map", NULL, "results.map is missing" },
    { "map", "[]", "results.map is not an object" },
    { "map.states", NULL, "results.map.states is missing" },
    { "map.states", "8", "results.map.states is not a string" },
    { "map.states", "\"1111151\"", "results.map.states must be 8 digits 0 to 7" },
    { "map.states", "\"11111518\"", "results.map.states must be 8 digits 0 to 7" },
  };
  /* A quick scan's cells are its file's own: a cell per block (an older
   * file) wants 32 digits. */
  static const Corrupt quick[] = {
    { "map.cell_bytes", "1000", "results.map.cell_bytes 1000 does not cut the range into at most "
                                "16384 cells of whole blocks" },
    { "map.cell_bytes", "0", "results.map.cell_bytes 0 does not cut the range into at most "
                             "16384 cells of whole blocks" },
    { "map.cell_bytes", NULL, "results.map.cell_bytes is missing" },
    { "map.cell_bytes", "131072", "results.map.states must be 32 digits 0 to 7" },
    { "map", NULL, "results.map is missing" },
  };
  g_autoptr (DsResult) r = result_of (small_scan ());
  g_autoptr (DsResult) q = result_of (scan_new (0, 4 * MiB, 128 * KiB, TRUE));
  g_autoptr (JsonNode) node = ds_scan_data_to_json (r->data);
  g_autoptr (JsonNode) qnode = ds_scan_data_to_json (q->data);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autofree char *qtext = json_to_string (qnode, FALSE);
  const Corrupt not_scan = { "method", "\"zeros\"", "results.start_bytes is missing" };

  for (guint i = 0; i < G_N_ELEMENTS (full); i++)
    assert_refused (text, &full[i]);
  for (guint i = 0; i < G_N_ELEMENTS (quick); i++)
    assert_refused (qtext, &quick[i]);
  /* An erase's results are not a scan's. */
  assert_refused ("{\"method\": \"zeros\", \"verify\": false}", &not_scan);

  /* A truncated list: the bytes the file counts, not the ranges kept. */
  json_object_set_boolean_member (json_node_get_object (node), "bad_ranges_truncated", TRUE);
  json_object_set_int_member (json_node_get_object (node), "bad_bytes", 4096);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) back = result_of (ops ()->from_json (json_node_get_object (node), &error));
    DsScanData *b = back->data;

    ck_assert_msg (b != NULL, "%s", error ? error->message : "");
    ck_assert (b->bad.truncated && b->bad.total_bytes == 4096 && b->bad.ranges->len == 1);
    ck_assert_int_eq (memcmp (b->cells, ((DsScanData *) r->data)->cells, 8), 0);
    ck_assert_uint_eq (b->sector_bytes, 512);
  }
}
END_TEST

/* ---- ds-error-scan-data.c: the report --------------------------------- */

static char *
report_of (const DsScanData *d)
{
  GString *out = g_string_new (NULL);

  ds_scan_data_report (d, out);
  return g_string_free (out, FALSE);
}

START_TEST (test_report_full)
{
  g_autoptr (DsResult) r = result_of (small_scan ());
  g_autofree char *text = report_of (r->data);

  ck_assert_str_eq (text,
    "Scan                  : full, 128 KiB blocks\n"
    "Range                 : 0 bytes to 1.0 MB (offset 0, 1048576 bytes)\n"
    "Blocks read           : 8 of 8\n"
    "Damaged blocks        : 1 (12.50 %)\n"
    "Bad sectors           : 512 bytes in 1 range (512-byte sectors)\n"
    "Slow blocks           : 1 (150 ms or more)\n"
    "Average read rate     : 0.918 MB/s\n"
    "Slowest block         : 200.0 ms\n"
    "\nBlocks by read time:\n"
    "  < 5 ms                 6\n"
    "  < 20 ms                0\n"
    "  < 50 ms                0\n"
    "  < 150 ms               0\n"
    "  < 500 ms               1\n"
    "  >= 500 ms              0\n"
    "  error                  1\n"
    "\nBad ranges:\n"
    "  at 0.001 GB: offset 918016, 512 bytes\n"
    "\nBlock map (a character is 1 cell of 131072 bytes; . < 20 ms, : < 50 ms, o < 150 ms, "
    "s < 500 ms, S slower, X error, blank not read):\n"
    "  |.....s.X|\n");
}
END_TEST

/* Nothing read: no division by zero, no map without cells; a quick
 * scan's line, at most all of the range. */
START_TEST (test_report_quick_and_empty)
{
  g_autoptr (DsResult) r = result_of (scan_new (MiB, 4 * MiB, 128 * KiB, TRUE));
  g_autoptr (DsResult) tiny = result_of (scan_new (0, 1000, 4096, TRUE));
  g_autofree char *text = report_of (r->data);
  g_autofree char *tiny_text = report_of (tiny->data);

  ck_assert_msg (g_str_has_prefix (text, "Scan                  : quick: one 128 KiB block every 2097152 "
                                         "bytes (2 samples, 6.25 % of the range); damage between the "
                                         "samples is not seen\n"
                                         "Range                 : 1.0 MB to 5.2 MB (offset 1048576, "
                                         "4194304 bytes)\n"
                                         "Blocks read           : 0 of 2\n"
                                         "Damaged blocks        : 0 (0.00 %)\n"
                                         "Bad sectors           : 0 bytes in 0 ranges (512-byte sectors)\n"),
                 "%s", text);
  ck_assert_msg (strstr (text, "Average read rate     : 0.000 MB/s\n") != NULL, "%s", text);
  ck_assert_msg (g_str_has_suffix (text, "\n  |  |\n"), "%s", text);
  ck_assert_ptr_null (strstr (text, "Bad ranges:"));
  ck_assert_msg (strstr (tiny_text, "(1 samples, 100.00 % of the range)") != NULL, "%s", tiny_text);

  g_clear_pointer (&((DsScanData *) r->data)->cells, g_free);
  g_clear_pointer (&text, g_free);
  text = report_of (r->data);
  ck_assert_ptr_null (strstr (text, "Block map"));
  ds_scan_geometry (0, 0, 4096, FALSE, &((DsScanData *) tiny->data)->geometry);
  g_clear_pointer (&tiny_text, g_free);
  tiny_text = report_of (tiny->data);
  ck_assert_ptr_null (strstr (tiny_text, "Block map"));
}
END_TEST

/* Past 1024 cells (16 rows of 64) a character is the worst of a group;
 * the last row is closed where the map ends. */
START_TEST (test_report_map_groups)
{
  g_autoptr (DsResult) r = result_of (scan_new (0, 1050 * 4096, 4096, FALSE));
  DsScanData *d = r->data;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *map;
  guint n = 0;

  d->cells[0] = DS_SCAN_ERROR;
  d->cells[1] = DS_SCAN_LT_5MS;
  d->cells[3] = DS_SCAN_LT_150MS;
  d->cells[1049] = DS_SCAN_GE_500MS;
  text = report_of (d);
  map = strstr (text, "\nBlock map (a character is 2 cells of 4096 bytes;");
  ck_assert_msg (map != NULL, "%s", text);
  lines = g_strsplit (strchr (map + 1, '\n') + 1, "\n", -1);
  for (; lines[n] != NULL && lines[n][0] != '\0'; n++)
    ck_assert_msg (g_str_has_prefix (lines[n], "  |") && g_str_has_suffix (lines[n], "|"), "%s", lines[n]);
  /* 525 characters: 8 rows of 64 and one of 13. */
  ck_assert_uint_eq (n, 9);
  ck_assert_uint_eq (strlen (lines[0]), 2 + 1 + 64 + 1);
  ck_assert_uint_eq (strlen (lines[8]), 2 + 1 + 13 + 1);
  ck_assert (g_str_has_prefix (lines[0], "  |Xo  "));
  ck_assert (g_str_has_suffix (lines[8], " S|"));
}
END_TEST

static Suite *
kind_error_scan_suite (void)
{
  Suite *suite = suite_create ("kind-error-scan");
  TCase *tc = tcase_create ("kind-error-scan");

  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_compare_edges);
  tcase_add_test (tc, test_fio_refused);
  tcase_add_test (tc, test_buckets_and_names);
  tcase_add_test (tc, test_geometry_edges);
  tcase_add_test (tc, test_record);
  tcase_add_test (tc, test_json_members);
  tcase_add_test (tc, test_json_quick);
  tcase_add_test (tc, test_json_refusals);
  tcase_add_test (tc, test_report_full);
  tcase_add_test (tc, test_report_quick_and_empty);
  tcase_add_test (tc, test_report_map_groups);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (kind_error_scan_suite ());
}
