/* test-kind-random-access.c: Random Access' comparison rows, fio job and
 * points in a result file (core/kinds/random-access/ds-random-access-
 * compare.c, -fio.c and -points.c)
 *
 * Unit suite: no root, no device.  The comparison: five figures a row,
 * keyed "read.4096.iops" ("random" for the mixed row), in the rows'
 * order, read first, word for word; a row without I/O has none measured.
 * The fio job: a time-based random section per row, the mixed one a
 * range of sizes, the logical block the smallest, the default time when
 * the run gave none.  The points: four parallel arrays of integers,
 * access times in whole nanoseconds; read back appended to what the
 * array holds, as json-glib reads them and as ds_json_pack() packs them,
 * with the same messages; every refusal (a member missing, arrays of
 * different lengths, a value not an integer or out of its range, more
 * points than a run keeps) leaves the array as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-random-access.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-random-access-points.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* ---- the comparison ---- */

static void
add_row (DsRandomAccessDir *dir, uint64_t bytes, double iops, uint64_t ios)
{
  DsRandomAccessRow row = {
    .transfer_bytes = bytes, .iops = iops, .avg_access_s = 1 / iops, .max_access_s = 0.25,
    .p50_s = 0.001, .p99_s = 0.125, .p99_9_s = 0.2, .bytes_per_s = iops * 4096, .ios = ios,
  };

  dir->present = TRUE;
  g_array_append_val (dir->rows, row);
}

static const char want_read[] =
  "[Random Access, read]\n"
  "read.512.iops|512 bytes|IOPS|iops|+|100\n"
  "read.512.avg_access|512 bytes|avg. access time|time|-|0.01\n"
  "read.512.p99_access|512 bytes|p99 access time|time|-|0.125\n"
  "read.512.max_access|512 bytes|max. access time|time|-|0.25\n"
  "read.512.rate|512 bytes|avg. speed|rate|+|409600\n"
  "read.random.iops|Random|IOPS|iops|+|-\n"
  "read.random.avg_access|Random|avg. access time|time|-|-\n"
  "read.random.p99_access|Random|p99 access time|time|-|-\n"
  "read.random.max_access|Random|max. access time|time|-|-\n"
  "read.random.rate|Random|avg. speed|rate|+|-\n";
static const char want_write[] =
  "[Random Access, write]\n"
  "write.1048576.iops|1 MiB|IOPS|iops|+|8\n"
  "write.1048576.avg_access|1 MiB|avg. access time|time|-|0.125\n"
  "write.1048576.p99_access|1 MiB|p99 access time|time|-|0.125\n"
  "write.1048576.max_access|1 MiB|max. access time|time|-|0.25\n"
  "write.1048576.rate|1 MiB|avg. speed|rate|+|32768\n";

/* Five figures a row, the rows in order, read first; a row that did no
 * I/O (a run stopped there) none measured; a direction not run, none. */
START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_RANDOM_ACCESS, "/dev/sdz", TRUE);
  DsRandomAccessData *d = r->data;
  g_autofree char *none = ds_test_compare_text (r, FALSE);
  g_autofree char *got = NULL;
  g_autofree char *want = g_strconcat (want_read, want_write, NULL);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_RANDOM_ACCESS)->compare_rows, ds_random_access_compare_rows);
  ck_assert_str_eq (none, "");
  add_row (&d->write, 1 << 20, 8, 3);
  add_row (&d->read, 512, 100, 1);
  add_row (&d->read, 0, 50, 0);
  got = ds_test_compare_text (r, FALSE);
  ds_test_assert_text (got, want);

  /* No curves of its own: the scatter is the report's. */
  ck_assert_ptr_null (ds_bench_get (DS_BENCH_RANDOM_ACCESS)->compare_curves);
}
END_TEST

/* ds_test_random_access_result(): every row of HD Tune's seed, in order,
 * a present direction with no rows array at all gives nothing. */
START_TEST (test_compare_seed)
{
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);
  g_autofree char *got = ds_test_compare_text (r, FALSE);
  g_auto (GStrv) lines = g_strsplit (got, "\n", -1);
  const char *const ids[] = { "512", "4096", "65536", "1048576", "random" };
  DsRandomAccessData *d = r->data;
  GArray *rows = d->read.rows;

  /* the 25 rows after their "[section]" */
  ck_assert_uint_eq (g_strv_length (lines), 27);
  ck_assert_str_eq (lines[0], "[Random Access, read]");
  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *prefix = g_strdup_printf ("read.%s.", ids[i / 5]);

      ck_assert_msg (g_str_has_prefix (lines[i + 1], prefix), "%s", lines[i + 1]);
    }
  ck_assert_str_eq (lines[1], "read.512.iops|512 bytes|IOPS|iops|+|192");
  ck_assert_str_eq (lines[9], "read.4096.max_access|4 KiB|max. access time|time|-|0.028616");
  ck_assert_str_eq (lines[25], "read.random.rate|Random|avg. speed|rate|+|44964000");

  d->read.rows = NULL;
  g_clear_pointer (&got, g_free);
  got = ds_test_compare_text (r, FALSE);
  d->read.rows = rows;
  ck_assert_str_eq (got, "");
}
END_TEST

/* ---- the fio job ---- */

#define ROW(rw, bs, size, ms) \
  "stonewall=1\nrw=" rw "\n" bs "\noffset=0\nsize=" size "\ntime_based=1\nruntime=" ms "\n"

/* A time-based random section per row over the span tested, the mixed
 * row a range from the logical block to 1 MiB. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);
  g_autofree char *job = ds_test_fio_job (r, "/dev/sdz");

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_RANDOM_ACCESS)->fio_job, ds_random_access_fio_job);
  ck_assert (strstr (job, "; reads only\n") != NULL);
  ck_assert (strstr (job, "\n[global]\nfilename=/dev/sdz\ndirect=1\nioengine=psync\n") != NULL);
  ck_assert (strstr (job, "\niodepth=1\n\n[random-512]\n") != NULL);
  ck_assert_uint_eq (ds_test_count (job, "\n["), 6);
  ds_test_assert_fio_section (job, "random-512", ROW ("randread", "bs=512", "500000000000", "200ms"));
  ds_test_assert_fio_section (job, "random-4096", ROW ("randread", "bs=4096", "500000000000", "200ms"));
  ds_test_assert_fio_section (job, "random-65536", ROW ("randread", "bs=65536", "500000000000", "200ms"));
  ds_test_assert_fio_section (job, "random-1048576", ROW ("randread", "bs=1048576", "500000000000", "200ms"));
  ds_test_assert_fio_section (job, "random-mixed", ROW ("randread", "bsrange=512-1048576", "500000000000",
                                                        "200ms"));
  ck_assert (g_str_has_suffix (job, "\n[random-mixed]\n" ROW ("randread", "bsrange=512-1048576", "500000000000",
                                                                  "200ms")));
}
END_TEST

/* Writes: the warning and randwrite; no time given: 3 s a row; 4 KiB
 * logical blocks: the 512-byte row at 4 KiB, the range from 4 KiB; the
 * capacity asked, in whole sectors; a logical block larger than 1 MiB
 * makes every row that block. */
START_TEST (test_fio_job_edges)
{
  g_autoptr (DsResult) r = ds_test_random_access_result (TRUE);
  g_autofree char *job = NULL;
  g_autofree char *huge = NULL;

  r->spec.duration_ns = 0;
  r->target.logical_block_size = 4096;
  r->spec.capacity_bytes = 1000000;
  job = ds_test_fio_job (r, "/dev/sdz");
  ck_assert (strstr (job, "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it\n") != NULL);
  ds_test_assert_fio_section (job, "random-512", ROW ("randwrite", "bs=4096", "999424", "3000ms"));
  ds_test_assert_fio_section (job, "random-4096", ROW ("randwrite", "bs=4096", "999424", "3000ms"));
  ds_test_assert_fio_section (job, "random-1048576", ROW ("randwrite", "bs=1048576", "999424", "3000ms"));
  ds_test_assert_fio_section (job, "random-mixed", ROW ("randwrite", "bsrange=4096-1048576", "999424", "3000ms"));

  r->target.logical_block_size = 2 << 20;
  r->spec.capacity_bytes = 0;
  huge = ds_test_fio_job (r, "/dev/sdz");
  ds_test_assert_fio_section (huge, "random-65536", ROW ("randwrite", "bs=2097152", "499998785536", "3000ms"));
  ds_test_assert_fio_section (huge, "random-mixed", ROW ("randwrite", "bs=2097152", "499998785536", "3000ms"));
}
END_TEST
#undef ROW

/* ---- the points ---- */

static GArray *
points_new (void)
{
  return g_array_new (FALSE, TRUE, sizeof (DsRandomAccessPoint));
}

static void
add_point (GArray *points, uint32_t row, uint64_t offset, uint32_t transfer, double access_s)
{
  DsRandomAccessPoint p = { .offset_bytes = offset, .transfer_bytes = transfer, .row = row, .access_s = access_s };

  g_array_append_val (points, p);
}

static char *
to_text (JsonObject *o)
{
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, o);
  return json_to_string (node, FALSE);
}

/* Four arrays of integers, in this order; access times rounded to the
 * nearest nanosecond; none, four empty arrays. */
START_TEST (test_points_to_json)
{
  g_autoptr (GArray) points = points_new ();
  g_autoptr (JsonObject) empty = ds_random_access_points_to_json (points);
  g_autoptr (JsonObject) o = NULL;
  g_autofree char *empty_text = to_text (empty);
  g_autofree char *text = NULL;

  ck_assert_str_eq (empty_text, "{\"row\":[],\"offset_bytes\":[],\"transfer_bytes\":[],\"access_ns\":[]}");
  add_point (points, 0, 0, 512, 0.0015);
  add_point (points, 4, UINT64_C (499999997440), 1 << 20, 4e-10);
  add_point (points, 2, 65536, 65536, 86400.0);
  o = ds_random_access_points_to_json (points);
  text = to_text (o);
  ck_assert_str_eq (text, "{\"row\":[0,4,2],\"offset_bytes\":[0,499999997440,65536],"
                    "\"transfer_bytes\":[512,1048576,65536],\"access_ns\":[1500000,0,86400000000000]}");
}
END_TEST

/* A document {"p": {...}} whose arrays have @n entries, entry @i of each
 * from the functions below unless @bad names the array whose entry @at
 * is @bad_value instead. */
static char *
points_text (guint n, const char *bad, guint at, const char *bad_value)
{
  static const char *const names[] = { "row", "offset_bytes", "transfer_bytes", "access_ns" };
  GString *s = g_string_new ("{\"p\": {");

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_string_append_printf (s, "%s\"%s\": [", k ? ", " : "", names[k]);
      for (guint i = 0; i < n; i++)
        {
          const uint64_t v[] = { i % DS_RANDOM_ACCESS_N_ROWS, (uint64_t) i * 4096, 512u << (i % 12), i * 1000u + 1 };

          if (i > 0)
            g_string_append (s, ",");
          if (bad != NULL && g_str_equal (bad, names[k]) && i == at)
            g_string_append (s, bad_value);
          else
            g_string_append_printf (s, "%" G_GUINT64_FORMAT, v[k]);
        }
      g_string_append (s, "]");
    }
  g_string_append (s, "}}");
  return g_string_free (s, FALSE);
}

/* Reads @text's "p" into @points, packed first when @pack, as the
 * loader does; the error, if any, in @error. */
static gboolean
load_points (const char *text, gboolean pack, GArray *points, GError **error)
{
  g_autoptr (DsJsonPack) packed = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GString) document = NULL;
  gboolean ok;

  if (pack)
    {
      packed = ds_json_pack (text, strlen (text), &document);
      ck_assert_msg (packed != NULL, "nothing packed");
      text = document->str;
    }
  ck_assert (json_parser_load_from_data (parser, text, -1, NULL));
  ds_json_pack_set_current (packed);
  ok = ds_random_access_points_from_json (json_object_get_object_member (
                                            json_node_get_object (json_parser_get_root (parser)), "p"),
                                          "data.read.points", points, error);
  ds_json_pack_set_current (NULL);
  return ok;
}

/* Read back, appended after what the array held: the same values, as
 * json-glib reads them and packed (300 points). */
START_TEST (test_points_round_trip)
{
  g_autoptr (GArray) points = points_new ();
  g_autoptr (GArray) back = points_new ();
  g_autoptr (JsonObject) o = NULL;
  g_autofree char *text = NULL;
  g_autofree char *doc = NULL;
  g_autoptr (GError) error = NULL;

  add_point (points, 0, 0, 512, 0.0015);
  add_point (points, 4, UINT64_C (499999997440), 1 << 20, 0.25);
  add_point (points, 2, 65536, 65536, 86400.0);
  o = ds_random_access_points_to_json (points);
  text = to_text (o);
  doc = g_strdup_printf ("{\"p\": %s}", text);
  add_point (back, 3, 7, 7, 7);
  ck_assert_msg (load_points (doc, FALSE, back, &error), "%s", error->message);
  ck_assert_uint_eq (back->len, 4);
  ck_assert_uint_eq (g_array_index (back, DsRandomAccessPoint, 0).offset_bytes, 7);
  ck_assert_mem_eq (&g_array_index (back, DsRandomAccessPoint, 1), points->data, 3 * sizeof (DsRandomAccessPoint));

  for (guint pack = 0; pack < 2; pack++)
    {
      g_autofree char *many = points_text (300, NULL, 0, NULL);
      g_autoptr (GArray) got = points_new ();
      const DsRandomAccessPoint *p;

      ck_assert_msg (load_points (many, pack, got, &error), "%s", error->message);
      ck_assert_uint_eq (got->len, 300);
      p = &g_array_index (got, DsRandomAccessPoint, 299);
      ck_assert_uint_eq (p->row, 299 % 5);
      ck_assert_uint_eq (p->offset_bytes, 299 * 4096);
      ck_assert_uint_eq (p->transfer_bytes, 512u << (299 % 12));
      ck_assert_double_eq (p->access_s, 299001e-9);
    }
}
END_TEST

/* Each refusal, with its message, the same packed or not; the array
 * keeps what it held before. */
START_TEST (test_points_refused)
{
  const struct { const char *array, *value, *message; } cases[] = {
    { "row", "5", "data.read.points.row[299] is not an integer from 0 to 4" },
    { "row", "-1", "data.read.points.row[299] is not an integer from 0 to 4" },
    { "offset_bytes", "1.5", "data.read.points.offset_bytes[299] is not an integer from 0 to 9223372036854775807" },
    { "offset_bytes", "null", "data.read.points.offset_bytes[299] is not an integer from 0 to 9223372036854775807" },
    { "transfer_bytes", "4294967296", "data.read.points.transfer_bytes[299] is not an integer from 0 to 4294967295" },
    { "access_ns", "86400000000001", "data.read.points.access_ns[299] is not an integer from 0 to 86400000000000" },
    { "access_ns", "\"1\"", "data.read.points.access_ns[299] is not an integer from 0 to 86400000000000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint pack = 0; pack < 2; pack++)
      {
        g_autofree char *text = points_text (300, cases[i].array, 299, cases[i].value);
        g_autoptr (GArray) points = points_new ();
        g_autoptr (GError) error = NULL;

        add_point (points, 1, 2, 3, 4);
        ck_assert_msg (!load_points (text, pack && strchr (cases[i].value, '"') == NULL, points, &error),
                       "case %u taken", i);
        ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
        ck_assert_str_eq (error->message, cases[i].message);
        ck_assert_uint_eq (points->len, 1);
        ck_assert_uint_eq (g_array_index (points, DsRandomAccessPoint, 0).offset_bytes, 2);
      }
}
END_TEST

/* Arrays of different lengths; one missing or not an array; more points
 * than a run keeps (5 rows of 20 000); exactly as many is fine. */
START_TEST (test_points_shape)
{
  const struct { const char *text, *message; } cases[] = {
    { "{\"p\": {\"row\": [0, 1], \"offset_bytes\": [0], \"transfer_bytes\": [1, 2], \"access_ns\": [1, 2]}}",
      "data.read.points.offset_bytes: 1 values, row has 2" },
    { "{\"p\": {\"row\": [0], \"offset_bytes\": [0], \"transfer_bytes\": [1], \"access_ns\": [1, 2]}}",
      "data.read.points.access_ns: 2 values, row has 1" },
    { "{\"p\": {\"row\": [0], \"offset_bytes\": [0], \"transfer_bytes\": [1]}}",
      "data.read.points.access_ns is missing" },
    { "{\"p\": {\"row\": 0, \"offset_bytes\": [0], \"transfer_bytes\": [1], \"access_ns\": [1]}}",
      "data.read.points.row is not a list" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GArray) points = points_new ();
      g_autoptr (GError) error = NULL;

      ck_assert (!load_points (cases[i].text, FALSE, points, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
      ck_assert_str_eq (error->message, cases[i].message);
      ck_assert_uint_eq (points->len, 0);
    }
  for (guint n = 100000; n <= 100001; n++)
    {
      g_autofree char *text = points_text (n, NULL, 0, NULL);
      g_autoptr (GArray) points = points_new ();
      g_autoptr (GError) error = NULL;
      gboolean ok = load_points (text, TRUE, points, &error);

      if (n == 100000)
        {
          ck_assert_msg (ok, "%s", error->message);
          ck_assert_uint_eq (points->len, 100000);
          continue;
        }
      ck_assert (!ok && g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
      ck_assert_str_eq (error->message, "data.read.points: 100001 points, more than the 100000 a run keeps");
      ck_assert_uint_eq (points->len, 0);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-random-access");
  TCase *tc = tcase_create ("kind-random-access");

  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_compare_seed);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_fio_job_edges);
  tcase_add_test (tc, test_points_to_json);
  tcase_add_test (tc, test_points_round_trip);
  tcase_add_test (tc, test_points_refused);
  tcase_add_test (tc, test_points_shape);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
