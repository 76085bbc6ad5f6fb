/* test-kinds-json.c: each kind's "results" as JSON (extra, random access,
 * block size, file): round trips, member names, strict loading
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-health.h"
#include "ds-bench-random-access.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

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
      g_autoptr (DsResult) r = ds_test_extra_result (write);
      g_autoptr (DsResult) back = ds_test_round_trip (r);
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
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
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
      g_autoptr (DsResult) r = ds_test_result_new (kinds[i], "/dev/sdz", FALSE);
      g_autoptr (GError) e = g_error_new_literal (DS_ERROR, DS_ERROR_NOT_FOUND, "/dev/sdz: no such device");
      g_autoptr (DsResult) back = NULL;
      g_autofree char *text = NULL;

      ds_result_set_error (r, e, ENOENT, -1);
      back = ds_test_round_trip (r);
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
      g_autoptr (DsResult) r = ds_test_random_access_result (write);
      g_autoptr (DsResult) back = ds_test_round_trip (r);
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
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);
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
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);
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
      g_autoptr (DsResult) r = ds_test_block_size_result (write);
      g_autoptr (DsResult) back = ds_test_round_trip (r);
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
  g_autoptr (DsResult) r = ds_test_file_result (TRUE);
  g_autoptr (DsResult) back = ds_test_round_trip (r);
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
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  g_autoptr (DsResult) w = ds_test_extra_result (TRUE);

  check_strict (r, optional);
  check_strict (w, optional);
}
END_TEST

START_TEST (test_strict_random_access)
{
  static const char *const optional[] = { "results.read", "results.write", NULL };
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);

  check_strict (r, optional);
}
END_TEST

START_TEST (test_strict_block_size)
{
  g_autoptr (DsResult) r = ds_test_block_size_result (TRUE);

  check_strict (r, NULL);
}
END_TEST

START_TEST (test_strict_file)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);

  check_strict (r, NULL);
}
END_TEST

/* Rows a real file could not hold: a tenth extra row, a duplicate, an
 * unknown name, a block size list of the wrong sizes. */
START_TEST (test_strict_shapes)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
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
    g_autoptr (DsResult) b = ds_test_block_size_result (FALSE);
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
  g_autoptr (DsResult) a = ds_test_extra_result (FALSE);
  g_autoptr (DsResult) b = ds_test_random_access_result (TRUE);
  g_autoptr (DsResult) c = ds_test_block_size_result (TRUE);
  g_autoptr (DsResult) d = ds_test_file_result (FALSE);
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

    ck_assert_str_eq (a, "0.5 KiB");
    ck_assert_str_eq (b, "64 KiB");
    ck_assert_str_eq (c, "8 MiB");
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
  Suite *s = suite_create ("kinds-json");
  TCase *json = tcase_create ("json");

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

  return ds_test_run_suite (s);
}
