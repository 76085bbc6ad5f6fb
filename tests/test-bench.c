/* test-bench.c: the extra, random-access, block-size and file kinds without
 * I/O: JSON round trip, strict loading, report layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-random-access.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

/* ---- building results --------------------------------------------------- */

static DsResult *
new_result (DsBenchKind  kind,
            const char  *path,
            gboolean     write)
{
  DsBenchSpec spec;
  DsResult *r;

  ds_bench_spec_init (&spec, kind);
  spec.target_path = g_strdup (path);
  spec.write = write;
  if (write)
    spec.destroy_data = g_strdup (path);
  spec.duration_ns = 200 * 1000 * 1000;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup (path);
  r->target.is_block = kind != DS_BENCH_FILE;
  r->target.size_bytes = UINT64_C (500) * 1000 * 1000 * 1000;
  r->target.model = g_strdup ("FUJITSU ETERNUS_DX400");
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->engine = g_strdup ("sync");
  r->complete = TRUE;

  return r;
}

/* HD Tune's figures from the seed (DX440, read). */
static const struct {
  double iops;
  double ms;
  double mb_s;
} seed_extra[DS_EXTRA_N_ROWS] = {
  { 198, 5.057, 0.097 },
  { 190, 5.250, 0.744 },
  { 197, 5.066, 0.096 },
  { 180, 5.566, 2.762 },
  { 54, 18.387, 220.527 },
  { 1952, 0.512, 121.995 },
  { 2658, 0.376, 166.132 },
  { 2339, 0.428, 146.158 },
  { 2679, 0.373, 167.411 },
};

static void
fill_extra_rows (GArray *rows,
                 double  scale)
{
  for (unsigned i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      DsExtraRow row = {
        .row = (DsExtraRowKind) i,
        .iops = seed_extra[i].iops * scale,
        .access_time_s = seed_extra[i].ms / 1e3 / scale,
        .bytes_per_s = seed_extra[i].mb_s * 1e6 * scale,
        .ios = 1000 + i,
        .bytes = (1000 + i) * UINT64_C (4096),
        .min_offset_bytes = i * UINT64_C (1) << 20,
        .max_end_bytes = (i + 1) * UINT64_C (1) << 30,
      };

      g_array_append_val (rows, row);
    }
}

static DsResult *
make_extra (gboolean write)
{
  DsResult *r = new_result (DS_BENCH_EXTRA, "/dev/sdz", write);
  DsExtraData *d = r->data;

  d->span_bytes = r->target.size_bytes;
  if (write)
    {
      d->write_present = TRUE;
      fill_extra_rows (d->write, 33.0);
    }
  else
    {
      d->read_present = TRUE;
      fill_extra_rows (d->read, 1.0);
    }

  return r;
}

static const struct {
  double iops;
  double avg_ms;
  double max_ms;
  double mb_s;
} seed_ra[DS_RANDOM_ACCESS_N_ROWS] = {
  { 192, 5.185, 31.367, 0.094 },
  { 184, 5.413, 28.616, 0.722 },
  { 144, 6.925, 34.814, 9.025 },
  { 63, 15.668, 76.230, 63.822 },
  { 88, 11.284, 44.351, 44.964 },
};

static DsResult *
make_random_access (gboolean write)
{
  DsResult *r = new_result (DS_BENCH_RANDOM_ACCESS, "/dev/sdz", write);
  DsRandomAccessData *d = r->data;
  DsRandomAccessDir *dir = write ? &d->write : &d->read;

  d->span_bytes = r->target.size_bytes;
  dir->present = TRUE;
  for (unsigned i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      DsRandomAccessRow row = {
        .transfer_bytes = ds_random_access_row_bytes (i),
        .iops = seed_ra[i].iops,
        .avg_access_s = seed_ra[i].avg_ms / 1e3,
        .max_access_s = seed_ra[i].max_ms / 1e3,
        .p50_s = seed_ra[i].avg_ms / 1e3 * 0.9,
        .p99_s = seed_ra[i].max_ms / 1e3 * 0.8,
        .p99_9_s = seed_ra[i].max_ms / 1e3 * 0.95,
        .bytes_per_s = seed_ra[i].mb_s * 1e6,
        .ios = 600 + i,
        .bytes = (600 + i) * UINT64_C (4096),
      };

      g_array_append_val (dir->rows, row);
      for (unsigned k = 0; k < 7; k++)
        {
          DsRandomAccessPoint p = {
            .offset_bytes = (uint64_t) (k * 7919 + i) * 512,
            .transfer_bytes = row.transfer_bytes != 0 ? (uint32_t) row.transfer_bytes : 512 * (k + 1),
            .row = i,
            .access_s = 0.001 * (k + 1),
          };
          g_array_append_val (dir->points, p);
        }
    }

  return r;
}

static DsResult *
make_block_size (gboolean write)
{
  DsResult *r = new_result (DS_BENCH_BLOCK_SIZE, "/dev/sdz", write);
  DsBlockSizeData *d = r->data;

  d->span_bytes = r->target.size_bytes;
  for (unsigned i = 0; i < d->rows->len; i++)
    {
      DsBlockSizeRow *row = &g_array_index (d->rows, DsBlockSizeRow, i);

      row->read_bytes_per_s = 3.101e6 * (1u << i);
      row->write_bytes_per_s = write ? 2.841e6 * (1u << i) : -1;
    }

  return r;
}

static DsResult *
make_file (gboolean buffered)
{
  DsResult *r = new_result (DS_BENCH_FILE, "/mnt/data", FALSE);
  DsFileData *d = r->data;

  d->directory = g_strdup ("/mnt/data");
  d->file_bytes = UINT64_C (5000) * 1000 * 1000;
  d->buffered = buffered;
  d->tmpfile = TRUE;
  d->sequential_read_bytes_per_s = 716064e3;
  d->sequential_write_bytes_per_s = 758425e3;
  d->random_read_iops = 8819;
  d->random_write_iops = 5787;
  d->random_read_qd32_iops = 110548;
  d->random_write_qd32_iops = -1;   /* not measured: a run that stopped */
  for (unsigned i = 0; i < d->block_size->len; i++)
    {
      DsBlockSizeRow *row = &g_array_index (d->block_size, DsBlockSizeRow, i);

      row->read_bytes_per_s = 3101e3 * (1u << i);
      row->write_bytes_per_s = i == 14 ? -1 : 2841e3 * (1u << i);
    }

  return r;
}

/* ---- round trips -------------------------------------------------------- */

static DsResult *
round_trip (const DsResult *r)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = ds_result_to_data (r, NULL);
  DsResult *back = ds_result_load_data (text, -1, &error);

  if (back == NULL)
    ck_abort_msg ("load failed: %s\n%s", error->message, text);
  ck_assert_int_eq (back->kind, r->kind);

  return back;
}

static void
assert_extra_rows_equal (GArray *a,
                         GArray *b)
{
  ck_assert_uint_eq (a->len, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const DsExtraRow *x = &g_array_index (a, DsExtraRow, i);
      const DsExtraRow *y = &g_array_index (b, DsExtraRow, i);

      ck_assert_int_eq (x->row, y->row);
      ck_assert_double_eq_tol (x->iops, y->iops, 1e-9 * x->iops);
      ck_assert_double_eq_tol (x->access_time_s, y->access_time_s, 1e-15);
      ck_assert_double_eq_tol (x->bytes_per_s, y->bytes_per_s, 1e-9 * x->bytes_per_s);
      ck_assert_uint_eq (x->ios, y->ios);
      ck_assert_uint_eq (x->bytes, y->bytes);
      ck_assert_uint_eq (x->min_offset_bytes, y->min_offset_bytes);
      ck_assert_uint_eq (x->max_end_bytes, y->max_end_bytes);
    }
}

START_TEST (test_extra_round_trip)
{
  for (int write = 0; write <= 1; write++)
    {
      g_autoptr (DsResult) r = make_extra (write);
      g_autoptr (DsResult) back = round_trip (r);
      DsExtraData *a = r->data;
      DsExtraData *b = back->data;

      ck_assert_uint_eq (a->span_bytes, b->span_bytes);
      ck_assert_int_eq (a->read_present, b->read_present);
      ck_assert_int_eq (a->write_present, b->write_present);
      assert_extra_rows_equal (a->read, b->read);
      assert_extra_rows_equal (a->write, b->write);
    }
}
END_TEST

START_TEST (test_extra_json_names)
{
  g_autoptr (DsResult) r = make_extra (FALSE);
  g_autoptr (JsonNode) node = ds_bench_extra.to_json (r);
  JsonObject *o = json_node_get_object (node);
  JsonArray *rows = json_object_get_array_member (o, "read");
  static const char *const names[] = {
    "random_seek", "random_seek_4k", "butterfly_seek", "random_seek_64k",
    "random_seek_8m", "sequential_outer", "sequential_middle",
    "sequential_inner", "burst_rate",
  };

  ck_assert (!json_object_has_member (o, "write"));
  ck_assert_uint_eq (json_array_get_length (rows), G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      ck_assert_str_eq (json_object_get_string_member (row, "name"), names[i]);
      ck_assert (json_object_has_member (row, "iops"));
      ck_assert (json_object_has_member (row, "access_time_s"));
      ck_assert (json_object_has_member (row, "bytes_per_s"));
    }
}
END_TEST

/* A run that failed before its first row (the device would not open) still
 * saves a result that loads. */
START_TEST (test_failed_before_first_row)
{
  static const DsBenchKind kinds[] = {
    DS_BENCH_EXTRA, DS_BENCH_RANDOM_ACCESS, DS_BENCH_BLOCK_SIZE, DS_BENCH_FILE,
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr (DsResult) r = new_result (kinds[i], "/dev/sdz", FALSE);
      g_autoptr (GError) e = g_error_new_literal (DS_ERROR, DS_ERROR_NOT_FOUND, "/dev/sdz: no such device");
      g_autoptr (DsResult) back = NULL;
      g_autofree char *text = NULL;

      ds_result_set_error (r, e, ENOENT, -1);
      back = round_trip (r);
      ck_assert (!back->complete);
      ck_assert_ptr_nonnull (back->error);
      text = ds_report_text (back, DS_UNITS_MB);
      ck_assert_ptr_nonnull (strstr (text, "no such device"));
    }
}
END_TEST

START_TEST (test_random_access_round_trip)
{
  for (int write = 0; write <= 1; write++)
    {
      g_autoptr (DsResult) r = make_random_access (write);
      g_autoptr (DsResult) back = round_trip (r);
      DsRandomAccessData *a = r->data;
      DsRandomAccessData *b = back->data;
      DsRandomAccessDir *da = write ? &a->write : &a->read;
      DsRandomAccessDir *db = write ? &b->write : &b->read;

      ck_assert_uint_eq (a->span_bytes, b->span_bytes);
      ck_assert_int_eq (a->read.present, b->read.present);
      ck_assert_int_eq (a->write.present, b->write.present);
      ck_assert_uint_eq (da->rows->len, db->rows->len);
      for (guint i = 0; i < da->rows->len; i++)
        {
          DsRandomAccessRow *x = &g_array_index (da->rows, DsRandomAccessRow, i);
          DsRandomAccessRow *y = &g_array_index (db->rows, DsRandomAccessRow, i);

          ck_assert_uint_eq (x->transfer_bytes, y->transfer_bytes);
          ck_assert_double_eq_tol (x->iops, y->iops, 1e-9);
          ck_assert_double_eq_tol (x->avg_access_s, y->avg_access_s, 1e-15);
          ck_assert_double_eq_tol (x->max_access_s, y->max_access_s, 1e-15);
          ck_assert_double_eq_tol (x->p50_s, y->p50_s, 1e-15);
          ck_assert_double_eq_tol (x->p99_s, y->p99_s, 1e-15);
          ck_assert_double_eq_tol (x->p99_9_s, y->p99_9_s, 1e-15);
          ck_assert_double_eq_tol (x->bytes_per_s, y->bytes_per_s, 1e-6);
          ck_assert_uint_eq (x->ios, y->ios);
          ck_assert_uint_eq (x->bytes, y->bytes);
        }
      ck_assert_uint_eq (da->points->len, db->points->len);
      for (guint i = 0; i < da->points->len; i++)
        {
          DsRandomAccessPoint *x = &g_array_index (da->points, DsRandomAccessPoint, i);
          DsRandomAccessPoint *y = &g_array_index (db->points, DsRandomAccessPoint, i);

          ck_assert_uint_eq (x->offset_bytes, y->offset_bytes);
          ck_assert_uint_eq (x->transfer_bytes, y->transfer_bytes);
          ck_assert_uint_eq (x->row, y->row);
          ck_assert_double_eq_tol (x->access_s, y->access_s, 1e-15);
        }
    }
}
END_TEST

START_TEST (test_random_access_json_keys)
{
  g_autoptr (DsResult) r = make_random_access (FALSE);
  g_autoptr (JsonNode) node = ds_bench_random_access.to_json (r);
  JsonObject *read = json_object_get_object_member (json_node_get_object (node), "read");
  JsonArray *rows = json_object_get_array_member (read, "rows");
  JsonObject *points = json_object_get_object_member (read, "points");
  static const char *const keys[] = {
    "transfer", "transfer_bytes", "iops", "avg_access_s", "max_access_s",
    "p50_s", "p99_s", "p99_9_s", "bytes_per_s",
  };

  ck_assert_uint_eq (json_array_get_length (rows), DS_RANDOM_ACCESS_N_ROWS);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        ck_assert_msg (json_object_has_member (row, keys[k]), "row %u lacks %s", i, keys[k]);
    }
  /* "random" has no single transfer size. */
  ck_assert (JSON_NODE_HOLDS_NULL (json_object_get_member (json_array_get_object_element (rows, 4),
                                                           "transfer_bytes")));
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (rows, 4),
                                                   "transfer"), "random");
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (rows, 1),
                                                "transfer_bytes"), 4096);
  /* The points as parallel arrays of integers, one per field. */
  {
    static const char *const fields[] = { "row", "offset_bytes", "transfer_bytes", "access_ns" };

    for (guint k = 0; k < G_N_ELEMENTS (fields); k++)
      ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (points, fields[k])), 35);
    ck_assert_int_eq (json_array_get_int_element (json_object_get_array_member (points, "access_ns"), 1),
                      2000000);
    ck_assert_int_eq (json_array_get_int_element (json_object_get_array_member (points, "offset_bytes"), 1),
                      7919 * 512);
  }
}
END_TEST

/* A full run's points (the cap, 20 000 a row, five rows) stay small in
 * the saved file; files saved with one object a point still load, and
 * arrays of different lengths are a corrupt file. */
START_TEST (test_random_access_points_compact)
{
  g_autoptr (DsResult) r = make_random_access (FALSE);
  DsRandomAccessDir *dir = &((DsRandomAccessData *) r->data)->read;
  g_autofree char *text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) old = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *bad_text = NULL;
  g_autoptr (DsResult) bad = NULL;
  JsonObject *read, *points;
  JsonArray *objects = json_array_new ();
  gsize length;
  guint n;

  g_array_set_size (dir->points, 0);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS * DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW; i++)
    {
      DsRandomAccessPoint p = {
        .offset_bytes = (uint64_t) g_random_int_range (0, 1 << 30) * 4096,  /* a 4 TiB disk */
        .transfer_bytes = 65536,
        .row = i % DS_RANDOM_ACCESS_N_ROWS,
        .access_s = g_random_double_range (50e-6, 20e-3),
      };
      g_array_append_val (dir->points, p);
    }
  text = ds_result_to_data (r, &length);
  n = dir->points->len;
  /* 32 bytes a point or less: 3.2 MB at the cap (one object a point was
   * about 90, 9 MB). */
  ck_assert_msg (length < (gsize) n * 32, "%" G_GSIZE_FORMAT " bytes for %u points", length, n);
  {
    g_autoptr (DsResult) back = ds_result_load_data (text, -1, &error);
    DsRandomAccessDir *bdir;

    ck_assert_msg (back != NULL, "%s", error ? error->message : "");
    bdir = &((DsRandomAccessData *) back->data)->read;
    ck_assert_uint_eq (bdir->points->len, n);
    for (guint i = 0; i < n; i += 997)
      {
        DsRandomAccessPoint *x = &g_array_index (dir->points, DsRandomAccessPoint, i);
        DsRandomAccessPoint *y = &g_array_index (bdir->points, DsRandomAccessPoint, i);

        ck_assert_uint_eq (x->offset_bytes, y->offset_bytes);
        ck_assert_uint_eq (x->row, y->row);
        /* Kept to the nanosecond, as measured. */
        ck_assert_double_eq_tol (x->access_s, y->access_s, 0.5e-9);
      }
  }

  /* The older form: one object a point. */
  ck_assert (json_parser_load_from_data (parser, text, -1, NULL));
  read = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "results"), "read");
  points = json_object_get_object_member (read, "points");
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *o = json_object_new ();

      json_object_set_int_member (o, "row", json_array_get_int_element (json_object_get_array_member (points, "row"), i));
      json_object_set_int_member (o, "offset_bytes", json_array_get_int_element (json_object_get_array_member (points, "offset_bytes"), i));
      json_object_set_int_member (o, "transfer_bytes", 65536);
      json_object_set_double_member (o, "access_s", 0.004);
      json_array_add_object_element (objects, o);
    }
  json_array_remove_element (json_object_get_array_member (points, "row"), 0);
  json_generator_set_root (gen, json_parser_get_root (parser));
  bad_text = json_generator_to_data (gen, NULL);
  bad = ds_result_load_data (bad_text, -1, &error);
  ck_assert_ptr_null (bad);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_ptr_nonnull (strstr (error->message, "row"));
  g_clear_error (&error);

  json_object_set_array_member (read, "points", objects);
  old_text = json_generator_to_data (gen, NULL);
  old = ds_result_load_data (old_text, -1, &error);
  ck_assert_msg (old != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (((DsRandomAccessData *) old->data)->read.points->len, 3);
  ck_assert_double_eq_tol (g_array_index (((DsRandomAccessData *) old->data)->read.points,
                                          DsRandomAccessPoint, 2).access_s, 0.004, 1e-15);
}
END_TEST

static void
assert_block_rows_equal (GArray *a,
                         GArray *b)
{
  ck_assert_uint_eq (a->len, DS_BLOCK_SIZE_N_SIZES);
  ck_assert_uint_eq (b->len, DS_BLOCK_SIZE_N_SIZES);
  for (guint i = 0; i < a->len; i++)
    {
      DsBlockSizeRow *x = &g_array_index (a, DsBlockSizeRow, i);
      DsBlockSizeRow *y = &g_array_index (b, DsBlockSizeRow, i);

      ck_assert_uint_eq (x->block_bytes, y->block_bytes);
      ck_assert_double_eq_tol (x->read_bytes_per_s, y->read_bytes_per_s, 1e-6);
      ck_assert_double_eq_tol (x->write_bytes_per_s, y->write_bytes_per_s, 1e-6);
    }
}

START_TEST (test_block_size_round_trip)
{
  for (int write = 0; write <= 1; write++)
    {
      g_autoptr (DsResult) r = make_block_size (write);
      g_autoptr (DsResult) back = round_trip (r);
      DsBlockSizeData *a = r->data;
      DsBlockSizeData *b = back->data;
      g_autoptr (JsonNode) node = ds_bench_block_size.to_json (r);
      JsonArray *rows = json_object_get_array_member (json_node_get_object (node), "rows");
      JsonObject *first = json_array_get_object_element (rows, 0);
      JsonObject *last = json_array_get_object_element (rows, 14);

      ck_assert_uint_eq (a->span_bytes, b->span_bytes);
      assert_block_rows_equal (a->rows, b->rows);
      ck_assert_int_eq (json_object_get_int_member (first, "block_bytes"), 512);
      ck_assert_int_eq (json_object_get_int_member (last, "block_bytes"), 8 << 20);
      ck_assert (json_object_has_member (first, "read_bytes_per_s"));
      /* Not measured is null, not 0 and not missing. */
      ck_assert_int_eq (JSON_NODE_HOLDS_NULL (json_object_get_member (first, "write_bytes_per_s")),
                        !write);
    }
}
END_TEST

START_TEST (test_file_round_trip)
{
  g_autoptr (DsResult) r = make_file (TRUE);
  g_autoptr (DsResult) back = round_trip (r);
  DsFileData *a = r->data;
  DsFileData *b = back->data;
  g_autoptr (JsonNode) node = ds_bench_file.to_json (r);
  JsonObject *o = json_node_get_object (node);
  static const char *const keys[] = {
    "file_bytes", "sequential_read_bytes_per_s", "sequential_write_bytes_per_s",
    "random_read_iops", "random_write_iops", "random_read_qd32_iops",
    "random_write_qd32_iops", "block_size",
  };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    ck_assert_msg (json_object_has_member (o, keys[k]), "file results lack %s", keys[k]);

  ck_assert_str_eq (a->directory, b->directory);
  ck_assert_uint_eq (a->file_bytes, b->file_bytes);
  ck_assert_int_eq (a->buffered, b->buffered);
  ck_assert_int_eq (a->tmpfile, b->tmpfile);
  ck_assert_double_eq_tol (a->sequential_read_bytes_per_s, b->sequential_read_bytes_per_s, 1e-6);
  ck_assert_double_eq_tol (a->sequential_write_bytes_per_s, b->sequential_write_bytes_per_s, 1e-6);
  ck_assert_double_eq_tol (a->random_read_iops, b->random_read_iops, 1e-9);
  ck_assert_double_eq_tol (a->random_write_iops, b->random_write_iops, 1e-9);
  ck_assert_double_eq_tol (a->random_read_qd32_iops, b->random_read_qd32_iops, 1e-9);
  ck_assert (b->random_write_qd32_iops == -1);
  assert_block_rows_equal (a->block_size, b->block_size);
}
END_TEST

/* ---- strict loading ----------------------------------------------------- */

/* Leaves of the results tree, in a fixed order: (object, member). */
typedef struct {
  JsonObject *object;
  const char *member;
  char       *path;
} Leaf;

static void
collect_leaves (JsonNode   *node,
                const char *path,
                GArray     *leaves)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr (GList) members = json_object_get_members (o);

      for (GList *l = members; l != NULL; l = l->next)
        {
          const char *name = l->data;
          Leaf leaf = { o, name, g_strdup_printf ("%s.%s", path, name) };

          g_array_append_val (leaves, leaf);
          collect_leaves (json_object_get_member (o, name), leaf.path, leaves);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      /* The first and the last element stand for all of them. */
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (i == 0 || i + 1 == json_array_get_length (a))
          {
            g_autofree char *p = g_strdup_printf ("%s[%u]", path, i);
            collect_leaves (json_array_get_element (a, i), p, leaves);
          }
    }
}

static void
leaf_clear (gpointer p)
{
  g_free (((Leaf *) p)->path);
}

/* json_node_copy() shares the objects: go through text. */
static JsonNode *
deep_copy (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  return json_from_string (text, NULL);
}

typedef enum {
  MUTATE_REMOVE,
  MUTATE_STRING,
  MUTATE_NEGATIVE,
  MUTATE_HUGE,
  MUTATE_OBJECT,
  N_MUTATIONS
} Mutation;

/* Every member of @r's results, removed or given a wrong type or an absurd
 * value, makes from_json fail with DS_ERROR_CORRUPT (and not crash);
 * @optional lists the members that may be missing or null. */
static void
check_strict (const DsResult    *r,
              const char *const *optional)
{
  const DsBenchOps *ops = ds_bench_get (r->kind);
  g_autoptr (JsonNode) pristine = ops->to_json (r);
  guint n_leaves;

  {
    g_autoptr (GArray) leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
    gpointer data;

    g_array_set_clear_func (leaves, leaf_clear);
    collect_leaves (pristine, "results", leaves);
    n_leaves = leaves->len;
    ck_assert_uint_gt (n_leaves, 5);

    /* The untouched tree loads. */
    data = ops->from_json (json_node_get_object (pristine), NULL);
    ck_assert_ptr_nonnull (data);
    ops->data_free (data);
  }

  for (guint k = 0; k < n_leaves; k++)
    for (int m = 0; m < N_MUTATIONS; m++)
      {
        g_autoptr (JsonNode) copy = deep_copy (pristine);
        g_autoptr (GArray) leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
        g_autoptr (GError) error = NULL;
        gboolean is_optional = FALSE;
        JsonNode *old;
        Leaf *leaf;
        gpointer data;

        g_array_set_clear_func (leaves, leaf_clear);
        collect_leaves (copy, "results", leaves);
        leaf = &g_array_index (leaves, Leaf, k);
        old = json_object_get_member (leaf->object, leaf->member);

        for (guint i = 0; optional != NULL && optional[i] != NULL; i++)
          if (g_str_equal (leaf->path, optional[i]))
            is_optional = TRUE;
        if (is_optional && m == MUTATE_REMOVE)
          continue;
        /* A string member given another string, a huge double for a
         * double member with no upper bound... keep to what must fail. */
        if (m == MUTATE_STRING && JSON_NODE_HOLDS_VALUE (old) &&
            json_node_get_value_type (old) == G_TYPE_STRING)
          continue;

        switch ((Mutation) m)
          {
          case MUTATE_REMOVE:
            json_object_remove_member (leaf->object, leaf->member);
            break;
          case MUTATE_STRING:
            json_object_set_string_member (leaf->object, leaf->member, "12");
            break;
          case MUTATE_NEGATIVE:
            json_object_set_int_member (leaf->object, leaf->member, -1);
            break;
          case MUTATE_HUGE:
            json_object_set_double_member (leaf->object, leaf->member, 1e300);
            break;
          case MUTATE_OBJECT:
          case N_MUTATIONS:
          default:
            json_object_set_object_member (leaf->object, leaf->member, json_object_new ());
            break;
          }

        data = ops->from_json (json_node_get_object (copy), &error);
        if (data != NULL)
          {
            ops->data_free (data);
            ck_abort_msg ("%s: mutation %d of %s was accepted", ops->name, m, leaf->path);
          }
        ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT),
                       "%s: mutation %d of %s: %s", ops->name, m, leaf->path,
                       error ? error->message : "no error");
      }

}

START_TEST (test_strict_extra)
{
  static const char *const optional[] = { "results.read", "results.write", NULL };
  g_autoptr (DsResult) r = make_extra (FALSE);
  g_autoptr (DsResult) w = make_extra (TRUE);

  check_strict (r, optional);
  check_strict (w, optional);
}
END_TEST

START_TEST (test_strict_random_access)
{
  static const char *const optional[] = { "results.read", "results.write", NULL };
  g_autoptr (DsResult) r = make_random_access (FALSE);

  check_strict (r, optional);
}
END_TEST

START_TEST (test_strict_block_size)
{
  g_autoptr (DsResult) r = make_block_size (TRUE);

  check_strict (r, NULL);
}
END_TEST

START_TEST (test_strict_file)
{
  g_autoptr (DsResult) r = make_file (FALSE);

  check_strict (r, NULL);
}
END_TEST

/* Rows a real file could not hold: a tenth extra row, a duplicate, an
 * unknown name, a block size list of the wrong sizes. */
START_TEST (test_strict_shapes)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = make_extra (FALSE);
  g_autoptr (JsonNode) node = ds_bench_extra.to_json (r);
  JsonArray *rows = json_object_get_array_member (json_node_get_object (node), "read");
  JsonObject *first = json_array_get_object_element (rows, 0);

  json_object_set_string_member (json_array_get_object_element (rows, 1), "name", "random_seek");
  ck_assert_ptr_null (ds_bench_extra.from_json (json_node_get_object (node), &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_ptr_nonnull (strstr (error->message, "twice"));
  g_clear_error (&error);

  json_object_set_string_member (first, "name", "random_sneak");
  ck_assert_ptr_null (ds_bench_extra.from_json (json_node_get_object (node), &error));
  ck_assert_ptr_nonnull (strstr (error->message, "random_sneak"));
  g_clear_error (&error);

  {
    g_autoptr (DsResult) b = make_block_size (FALSE);
    g_autoptr (JsonNode) bn = ds_bench_block_size.to_json (b);
    JsonArray *brows = json_object_get_array_member (json_node_get_object (bn), "rows");

    json_object_set_int_member (json_array_get_object_element (brows, 3), "block_bytes", 3000);
    ck_assert_ptr_null (ds_bench_block_size.from_json (json_node_get_object (bn), &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
    g_clear_error (&error);

    json_array_remove_element (brows, 14);
    ck_assert_ptr_null (ds_bench_block_size.from_json (json_node_get_object (bn), &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  }
}
END_TEST

/* Whole files cut anywhere never load and never crash. */
START_TEST (test_truncated_files)
{
  g_autoptr (DsResult) a = make_extra (FALSE);
  g_autoptr (DsResult) b = make_random_access (TRUE);
  g_autoptr (DsResult) c = make_block_size (TRUE);
  g_autoptr (DsResult) d = make_file (FALSE);
  const DsResult *all[] = { a, b, c, d };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      gsize len = 0;
      g_autofree char *text = ds_result_to_data (all[i], &len);

      for (gsize cut = 0; cut + 2 < len; cut += 7)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (DsResult) back = ds_result_load_data (text, (gssize) cut, &error);

          ck_assert_ptr_null (back);
          ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
        }
    }
}
END_TEST

/* ---- report layout ------------------------------------------------------ */

/* The lines of @text that start with @prefix. */
static char *
line_starting (const char *text,
               const char *prefix)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);

  return NULL;
}

/* Right-aligned columns: every row of a table is as long as its head. */
static void
assert_table (const char        *text,
              const char *const *firsts,
              guint              n)
{
  glong width = -1;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = line_starting (text, firsts[i]);

      ck_assert_msg (line != NULL, "no line starts with “%s” in:\n%s", firsts[i], text);
      if (width < 0)
        width = g_utf8_strlen (line, -1);
      ck_assert_msg (g_utf8_strlen (line, -1) == width,
                     "“%s” is %ld wide, the table %ld:\n%s", line,
                     g_utf8_strlen (line, -1), width, text);
    }
}

START_TEST (test_report_extra)
{
  g_autoptr (DsResult) r = make_extra (FALSE);
  g_autoptr (DsResult) w = make_extra (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *wtext = ds_report_text (w, DS_UNITS_MB);
  g_autofree char *row = NULL;
  static const char *const firsts[] = {
    "Random seek  ", "Random seek 4 KB", "Butterfly seek", "Random seek / size 64 KB",
    "Random seek / size 8 MB", "Sequential outer", "Sequential middle",
    "Sequential inner", "Burst rate",
  };

  ck_assert_ptr_nonnull (strstr (text, "FUJITSU ETERNUS_DX400"));
  ck_assert_ptr_nonnull (strstr (text, "Extra Tests"));
  ck_assert_ptr_nonnull (strstr (text, "Test capacity: full"));
  ck_assert_ptr_null (strstr (text, "Write test"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));

  /* HD Tune's figures, HD Tune's way. */
  row = line_starting (text, "Random seek / size 8 MB");
  ck_assert_ptr_nonnull (strstr (row, "54 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "18.39 ms"));
  ck_assert_ptr_nonnull (strstr (row, "220.5 MB/s"));
  g_clear_pointer (&row, g_free);
  row = line_starting (text, "Random seek  ");
  ck_assert_ptr_nonnull (strstr (row, "198 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "5.057 ms"));
  ck_assert_ptr_nonnull (strstr (row, "0.097 MB/s"));
  /* Columns: the name padded to 26, then three cells of 14. */
  ck_assert_int_eq (strlen (row), 26 + 3 * 14);

  ck_assert_ptr_nonnull (strstr (wtext, "Write test"));
  assert_table (wtext, firsts, G_N_ELEMENTS (firsts));
}
END_TEST

START_TEST (test_report_random_access)
{
  g_autoptr (DsResult) r = make_random_access (FALSE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *row = NULL;
  static const char *const firsts[] = {
    "Transfer size     operations", "512 bytes", "4 KB", "64 KB", "1 MB", "Random",
  };

  ck_assert_ptr_nonnull (strstr (text, "Random Access"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  ck_assert_ptr_nonnull (strstr (text, "avg. access time"));
  ck_assert_ptr_nonnull (strstr (text, "max. access time"));
  ck_assert_ptr_nonnull (strstr (text, "p99.9"));
  row = line_starting (text, "1 MB");
  ck_assert_ptr_nonnull (strstr (row, "63 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "15.67 ms"));
  ck_assert_ptr_nonnull (strstr (row, "76.23 ms"));
  ck_assert_ptr_nonnull (strstr (row, "63.8 MB/s"));

  {
    g_autoptr (DsResult) w = make_random_access (TRUE);
    g_autofree char *wtext = ds_report_text (w, DS_UNITS_MIB);

    ck_assert_ptr_nonnull (strstr (wtext, "Write test"));
    ck_assert_ptr_nonnull (strstr (wtext, "MiB/s"));
  }
}
END_TEST

START_TEST (test_report_block_size)
{
  g_autoptr (DsResult) r = make_block_size (FALSE);
  g_autoptr (DsResult) w = make_block_size (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *wtext = ds_report_text (w, DS_UNITS_MB);
  static const char *const firsts[] = {
    "Block size ", "0.5 KB", "1 KB", "2 KB", "4 KB", "8 KB", "16 KB", "32 KB",
    "64 KB", "128 KB", "256 KB", "512 KB", "1 MB", "2 MB", "4 MB", "8 MB",
  };
  g_autofree char *row = NULL;

  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  assert_table (wtext, firsts, G_N_ELEMENTS (firsts));
  ck_assert_ptr_null (strstr (text, "Write speed"));
  ck_assert_ptr_nonnull (strstr (wtext, "Write speed"));
  row = line_starting (text, "0.5 KB");
  ck_assert_ptr_nonnull (strstr (row, "3.101 MB/s"));
}
END_TEST

START_TEST (test_report_file)
{
  g_autoptr (DsResult) r = make_file (FALSE);
  g_autoptr (DsResult) b = make_file (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *btext = ds_report_text (b, DS_UNITS_MB);
  static const char *const firsts[] = {
    "Sequential read", "Sequential write", "Random 4 KB read ", "Random 4 KB write ",
    "Random 4 KB read (queue depth = 32)", "Random 4 KB write (queue depth = 32)",
  };
  const char *read_head;
  const char *write_head;
  g_autofree char *row = NULL;

  ck_assert_ptr_nonnull (strstr (text, "File Benchmark"));
  ck_assert_ptr_nonnull (strstr (text, "Folder: /mnt/data"));
  ck_assert_ptr_nonnull (strstr (text, "Transfer rate test"));
  ck_assert_ptr_nonnull (strstr (text, "File Size: 4.7 GiB (5.0 GB)"));
  ck_assert_ptr_nonnull (strstr (text, "Block size test"));
  ck_assert_ptr_null (strstr (text, "Test capacity"));
  ck_assert_ptr_null (strstr (text, "Warning"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  row = line_starting (text, "Random 4 KB read (queue depth = 32)");
  ck_assert_ptr_nonnull (strstr (row, "110548 IOPS"));
  g_clear_pointer (&row, g_free);
  row = line_starting (text, "Sequential read");
  ck_assert_ptr_nonnull (strstr (row, "716.1 MB/s"));

  /* HD Tune's two tables: read speeds, then write speeds. */
  read_head = strstr (text, "Read speed");
  write_head = strstr (text, "Write speed");
  ck_assert_ptr_nonnull (read_head);
  ck_assert_ptr_nonnull (write_head);
  ck_assert (read_head < write_head);
  ck_assert_ptr_null (strstr (read_head + 1, "Read speed"));
  ck_assert_ptr_null (strstr (write_head + 1, "Write speed"));

  ck_assert_ptr_nonnull (strstr (btext, "Warning: buffered"));
}
END_TEST

/* A session of every kind lists them in HD Tune's order. */
START_TEST (test_report_session_order)
{
  g_autoptr (DsResult) f = make_file (FALSE);
  g_autoptr (DsResult) b = make_block_size (FALSE);
  g_autoptr (DsResult) e = make_extra (FALSE);
  g_autoptr (DsResult) ra = make_random_access (FALSE);
  DsResult *all[] = { f, b, e, ra };
  g_autofree char *text = ds_report_session_text (all, G_N_ELEMENTS (all), DS_UNITS_MB);
  const char *pe = strstr (text, "Extra Tests");
  const char *pr = strstr (text, "Random Access");
  const char *pb = strstr (text, "Block Size");
  const char *pf = strstr (text, "File Benchmark");

  ck_assert (pe != NULL && pr != NULL && pb != NULL && pf != NULL);
  ck_assert (pe < pr && pr < pb && pb < pf);
}
END_TEST

/* As in the seed write-up: the read tests, then the write tests, then the
 * file benchmark. */
START_TEST (test_report_session_read_then_write)
{
  g_autoptr (DsResult) ew = make_extra (TRUE);
  g_autoptr (DsResult) f = make_file (FALSE);
  g_autoptr (DsResult) rr = make_random_access (FALSE);
  g_autoptr (DsResult) er = make_extra (FALSE);
  DsResult *all[] = { ew, f, rr, er };
  g_autofree char *text = ds_report_session_text (all, G_N_ELEMENTS (all), DS_UNITS_MB);
  const char *p_er = strstr (text, "Extra Tests");
  const char *p_rr = strstr (text, "Random Access");
  const char *p_ew = p_rr ? strstr (p_rr, "Extra Tests") : NULL;
  const char *p_f = strstr (text, "File Benchmark");

  ck_assert (p_er != NULL && p_rr != NULL && p_ew != NULL && p_f != NULL);
  ck_assert (p_er < p_rr && p_rr < p_ew && p_ew < p_f);
}
END_TEST

START_TEST (test_row_names)
{
  DsExtraRowKind row;

  for (unsigned i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      ck_assert (ds_extra_row_from_name (ds_extra_row_name ((DsExtraRowKind) i), &row));
      ck_assert_int_eq (row, i);
      ck_assert_ptr_nonnull (ds_extra_row_title ((DsExtraRowKind) i));
    }
  ck_assert_ptr_null (ds_extra_row_name (DS_EXTRA_N_ROWS));
  ck_assert (!ds_extra_row_from_name ("nope", &row));

  {
    g_autofree char *a = ds_block_size_format (512);
    g_autofree char *b = ds_block_size_format (64 * 1024);
    g_autofree char *c = ds_block_size_format (8 << 20);

    ck_assert_str_eq (a, "0.5 KB");
    ck_assert_str_eq (b, "64 KB");
    ck_assert_str_eq (c, "8 MB");
  }
  ck_assert_uint_eq (ds_random_access_row_bytes (0), 512);
  ck_assert_uint_eq (ds_random_access_row_bytes (3), 1 << 20);
  ck_assert_uint_eq (ds_random_access_row_bytes (4), 0);
  ck_assert_ptr_eq (ds_bench_lookup ("extra"), &ds_bench_extra);
  ck_assert_ptr_eq (ds_bench_lookup ("random-access"), &ds_bench_random_access);
  ck_assert_ptr_eq (ds_bench_lookup ("block-size"), &ds_bench_block_size);
  ck_assert_ptr_eq (ds_bench_lookup ("file"), &ds_bench_file);
  ck_assert (!ds_bench_file.opens_target);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("bench");
  TCase *json = tcase_create ("json");
  TCase *report = tcase_create ("report");

  tcase_add_test (json, test_row_names);
  tcase_add_test (json, test_extra_round_trip);
  tcase_add_test (json, test_extra_json_names);
  tcase_add_test (json, test_failed_before_first_row);
  tcase_add_test (json, test_random_access_round_trip);
  tcase_add_test (json, test_random_access_json_keys);
  tcase_add_test (json, test_random_access_points_compact);
  tcase_add_test (json, test_block_size_round_trip);
  tcase_add_test (json, test_file_round_trip);
  tcase_add_test (json, test_strict_extra);
  tcase_add_test (json, test_strict_random_access);
  tcase_add_test (json, test_strict_block_size);
  tcase_add_test (json, test_strict_file);
  tcase_add_test (json, test_strict_shapes);
  tcase_add_test (json, test_truncated_files);
  tcase_set_timeout (json, 60);
  suite_add_tcase (s, json);

  tcase_add_test (report, test_report_extra);
  tcase_add_test (report, test_report_random_access);
  tcase_add_test (report, test_report_block_size);
  tcase_add_test (report, test_report_file);
  tcase_add_test (report, test_report_session_order);
  tcase_add_test (report, test_report_session_read_then_write);
  suite_add_tcase (s, report);

  return ds_test_run_suite (s);
}
