/* test-result-json.c: JSON round trip and strict loading
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#include <glib/gstdio.h>

#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

static DsResult *
make_transfer_result (void)
{
  DsBenchSpec spec;
  DsResult *r;
  DsTransferData *d;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup ("/dev/loop9");
  spec.accuracy = 2;
  spec.capacity_bytes = 1 << 30;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup ("/dev/loop9");
  r->target.is_block = TRUE;
  r->target.size_bytes = UINT64_C (2) << 30;
  r->target.model = g_strdup ("Test Disk");
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->engine = g_strdup ("sync");
  ds_result_add_note (r, "a note");

  d = r->data;
  d->span_bytes = 1 << 30;
  d->block_bytes = 65536;
  d->read.present = TRUE;
  for (unsigned i = 0; i < 200; i++)
    {
      DsTransferPoint p = { .offset_bytes = (uint64_t) i << 20, .bytes_per_s = 1e8 + i };
      if (i == 17)
        {
          p.error = EIO;
          p.bytes_per_s = 0;
        }
      g_array_append_val (d->read.points, p);
    }
  for (unsigned i = 0; i < 50; i++)
    {
      DsAccessPoint a = { .offset_bytes = (uint64_t) i * 4096, .access_ns = 5000 + i };
      g_array_append_val (d->read.access, a);
    }
  d->read.min_bytes_per_s = 1e8;
  d->read.max_bytes_per_s = 1e8 + 199;
  d->read.avg_bytes_per_s = 1e8 + 100;
  d->read.access_time_s = 0.00594;
  d->read.burst_bytes_per_s = 1.681e8;
  d->read.cpu_percent = -1;

  {
    g_autoptr (GError) e = g_error_new_literal (DS_ERROR, DS_ERROR_IO, "/dev/loop9: read error at offset 17825792");
    ds_result_set_error (r, e, EIO, 17 << 20);
  }

  return r;
}

START_TEST (test_transfer_round_trip)
{
  g_autoptr (DsResult) r = make_transfer_result ();
  g_autoptr (GError) error = NULL;
  g_autofree char *data = ds_result_to_data (r, NULL);
  g_autoptr (DsResult) back = ds_result_load_data (data, -1, &error);
  g_autofree char *again = NULL;
  DsTransferData *d;

  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (back->kind, DS_BENCH_TRANSFER);
  ck_assert_str_eq (back->target.path, "/dev/loop9");
  ck_assert_str_eq (back->target.model, "Test Disk");
  ck_assert_uint_eq (back->target.size_bytes, UINT64_C (2) << 30);
  ck_assert_uint_eq (back->target.physical_block_size, 4096);
  ck_assert_uint_eq (back->spec.accuracy, 2);
  ck_assert_uint_eq (back->spec.capacity_bytes, 1 << 30);
  ck_assert (!back->complete);
  ck_assert_ptr_nonnull (back->error);
  ck_assert_int_eq (back->error_errno, EIO);
  ck_assert_int_eq (back->error_offset_bytes, 17 << 20);
  ck_assert_uint_eq (back->notes->len, 1);

  d = back->data;
  ck_assert (d->read.present);
  ck_assert (!d->write.present);
  ck_assert_uint_eq (d->read.points->len, 200);
  ck_assert_int_eq (g_array_index (d->read.points, DsTransferPoint, 17).error, EIO);
  ck_assert_double_eq_tol (g_array_index (d->read.points, DsTransferPoint, 3).bytes_per_s, 1e8 + 3, 1e-3);
  ck_assert_uint_eq (d->read.access->len, 50);
  ck_assert_uint_eq (g_array_index (d->read.access, DsAccessPoint, 49).access_ns, 5049);
  ck_assert_double_eq_tol (d->read.access_time_s, 0.00594, 1e-12);
  ck_assert_double_eq (d->read.cpu_percent, -1);

  /* Stable: saving what was loaded gives the same document. */
  again = ds_result_to_data (back, NULL);
  ck_assert_str_eq (again, data);
}
END_TEST

START_TEST (test_required_keys_present)
{
  g_autoptr (DsResult) r = make_transfer_result ();
  g_autoptr (JsonNode) root = ds_result_to_json (r);
  JsonObject *o = json_node_get_object (root);
  JsonObject *read;

  ck_assert_str_eq (json_object_get_string_member (o, "schema"), "diskscope-result/1");
  ck_assert_str_eq (json_object_get_string_member (json_object_get_object_member (o, "tool"), "name"), "diskscope");
  ck_assert_str_eq (json_object_get_string_member (o, "test"), "benchmark");
  ck_assert_str_eq (json_object_get_string_member (json_object_get_object_member (o, "target"), "kind"), "block");
  ck_assert (json_object_has_member (o, "params"));
  ck_assert (json_object_has_member (o, "complete"));
  ck_assert_int_eq (json_object_get_int_member (json_object_get_object_member (o, "error"), "errno"), EIO);
  read = json_object_get_object_member (json_object_get_object_member (o, "results"), "read");
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (json_object_get_object_member (read, "transfer"), "points")), 200);
  ck_assert (json_object_has_member (read, "access_time_s"));
  ck_assert (json_object_has_member (read, "burst_bytes_per_s"));
  ck_assert (json_object_has_member (read, "cpu_percent"));
}
END_TEST

/* params carry what shaped the run: a benchmark has no pattern, read mix,
 * queue depth or file size; a random-read workload no read mix; a file
 * that has every member (as older versions wrote) loads the same. */
START_TEST (test_params_only_what_applies)
{
  g_autoptr (DsResult) r = make_transfer_result ();
  g_autoptr (JsonNode) root = ds_result_to_json (r);
  JsonObject *params = json_object_get_object_member (json_node_get_object (root), "params");
  static const char *const absent[] = {
    "pattern", "read_mix_percent", "queue_depth", "threads", "file_size_bytes",
    "ramp_s", "duration_s", "offset_bytes", "span_bytes", "buffered",
  };
  g_autofree char *text = NULL;
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  DsBenchSpec spec;

  for (guint i = 0; i < G_N_ELEMENTS (absent); i++)
    ck_assert_msg (!json_object_has_member (params, absent[i]), "a benchmark's params has %s", absent[i]);
  ck_assert_int_eq (json_object_get_int_member (params, "block_size_bytes"), 65536);
  ck_assert_int_eq (json_object_get_int_member (params, "capacity_bytes"), 1 << 30);
  ck_assert_int_eq (json_object_get_int_member (params, "accuracy"), 2);

  /* Older files: every member, also those that did not apply. */
  json_object_set_string_member (params, "pattern", "randread");
  json_object_set_int_member (params, "read_mix_percent", 70);
  json_object_set_int_member (params, "file_size_bytes", 1 << 30);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  back = ds_result_load_data (text, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (back->spec.capacity_bytes, 1 << 30);
  ck_assert_uint_eq (back->spec.accuracy, 2);

  /* A workload: its pattern, no read mix unless randrw, no file size. */
  for (int mixed = 0; mixed <= 1; mixed++)
    {
      g_autoptr (DsResult) w = NULL;
      g_autoptr (JsonNode) wroot = NULL;
      g_autoptr (DsResult) wback = NULL;
      g_autofree char *wtext = NULL;
      JsonObject *wp;

      ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
      spec.target_path = g_strdup ("/dev/loop9");
      spec.pattern = mixed ? DS_PATTERN_RANDRW : DS_PATTERN_RANDREAD;
      spec.read_mix_percent = 60;
      spec.queue_depth = 8;
      w = ds_result_new (&spec);
      ds_bench_spec_clear (&spec);
      w->target.path = g_strdup ("/dev/loop9");
      wroot = ds_result_to_json (w);
      wp = json_object_get_object_member (json_node_get_object (wroot), "params");
      ck_assert_str_eq (json_object_get_string_member (wp, "pattern"), mixed ? "randrw" : "randread");
      ck_assert_int_eq (json_object_get_int_member (wp, "queue_depth"), 8);
      ck_assert_int_eq (json_object_has_member (wp, "read_mix_percent"), mixed);
      ck_assert (!json_object_has_member (wp, "file_size_bytes"));
      ck_assert (!json_object_has_member (wp, "capacity_bytes"));

      wtext = ds_result_to_data (w, NULL);
      wback = ds_result_load_data (wtext, -1, &error);
      ck_assert_msg (wback != NULL, "%s", error ? error->message : "");
      ck_assert_uint_eq (wback->spec.queue_depth, 8);
      ck_assert_uint_eq (wback->spec.read_mix_percent, mixed ? 60 : 70);
    }
}
END_TEST

START_TEST (test_workload_round_trip)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) r = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  DsWorkloadData *d;

  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/tmp/x.img");
  spec.pattern = DS_PATTERN_RANDRW;
  spec.queue_depth = 32;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  r->target.path = g_strdup ("/tmp/x.img");
  r->target.size_bytes = 1 << 20;
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 512;
  r->complete = TRUE;
  d = r->data;
  d->runtime_s = 2.5;
  d->engine = g_strdup ("io_uring");
  d->read = (DsWorkloadDir) { .present = TRUE, .io_bytes = 4096 * 10, .ios = 10, .bytes_per_s = 16384,
                              .iops = 4, .lat_min_s = 1e-4, .lat_mean_s = 2e-4, .lat_max_s = 3e-4 };
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    d->read.lat_percentile_s[k] = 1e-4 + k * 1e-6;

  data = ds_result_to_data (r, NULL);
  ck_assert_ptr_nonnull (strstr (data, "\"p99_9\""));
  back = ds_result_load_data (data, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert (back->complete);
  ck_assert_int_eq (back->spec.pattern, DS_PATTERN_RANDRW);
  ck_assert_uint_eq (back->spec.queue_depth, 32);
  d = back->data;
  ck_assert_str_eq (d->engine, "io_uring");
  ck_assert_uint_eq (d->read.ios, 10);
  ck_assert (!d->write.present);
  ck_assert_double_eq_tol (d->read.lat_percentile_s[16], 1e-4 + 16e-6, 1e-12);
}
END_TEST

static void
assert_corrupt (const char *data,
                gssize      length,
                const char *expect_in_message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_load_data (data, length, &error);

  ck_assert_msg (r == NULL, "loaded: %.60s", data);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s",
                 error ? error->message : "no error");
  ck_assert_msg (strstr (error->message, expect_in_message) != NULL,
                 "“%s” not in “%s”", expect_in_message, error->message);
}

static char *
replace (const char *haystack, const char *needle, const char *with)
{
  g_auto (GStrv) parts = g_strsplit (haystack, needle, 2);

  ck_assert_ptr_nonnull (parts[1]);
  return g_strconcat (parts[0], with, parts[1], NULL);
}

START_TEST (test_corrupt_files)
{
  g_autoptr (DsResult) r = make_transfer_result ();
  g_autofree char *good = ds_result_to_data (r, NULL);
  g_autofree char *schema = replace (good, "diskscope-result/1", "diskscope-result/9");
  g_autofree char *test = replace (good, "\"benchmark\"", "\"defrag\"");
  g_autofree char *negative = replace (good, "\"size_bytes\" : 2147483648", "\"size_bytes\" : -5");
  g_autofree char *huge = replace (good, "\"access_time_s\" : 0.00594", "\"access_time_s\" : 1e300");
  g_autofree char *type = replace (good, "\"complete\" : false", "\"complete\" : \"no\"");
  g_autofree char *missing = replace (good, "\"target\"", "\"tarxet\"");
  g_autofree char *points = replace (good, "\"points\" : [", "\"points\" : [7,");

  ck_assert_ptr_nonnull (strstr (good, "\"size_bytes\" : 2147483648"));
  for (gsize cut = 1; cut < strlen (good) - 2; cut += strlen (good) / 37)
    assert_corrupt (good, (gssize) cut, "");
  assert_corrupt ("", 0, "empty");
  assert_corrupt ("hello", -1, "JSON");
  assert_corrupt ("[1, 2, 3]", -1, "not a JSON object");
  assert_corrupt ("{\"schema\": 5}", -1, "schema");
  assert_corrupt ("{\0}", 3, "binary");
  assert_corrupt (schema, -1, "diskscope-result/9");
  {
    g_autofree char *deep = g_strnfill (200000, '[');
    assert_corrupt (deep, -1, "nested");
  }
  assert_corrupt (test, -1, "defrag");
  assert_corrupt (negative, -1, "size_bytes");
  assert_corrupt (huge, -1, "access_time_s");
  assert_corrupt (type, -1, "complete");
  assert_corrupt (missing, -1, "target");
  assert_corrupt (points, -1, "points[0]");
  {
    /* Whatever the kind, "results" must be an object (or null). */
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (JsonGenerator) gen = json_generator_new ();
    g_autofree char *listed = NULL;
    JsonObject *o;

    ck_assert (json_parser_load_from_data (parser, good, -1, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    json_object_set_array_member (o, "results", json_array_new ());
    json_generator_set_root (gen, json_parser_get_root (parser));
    listed = json_generator_to_data (gen, NULL);
    assert_corrupt (listed, -1, "results is not an object");
  }
}
END_TEST

/* A run refused before it measured anything still saves and loads. */
START_TEST (test_empty_failed_result)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) r = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) why = g_error_new_literal (DS_ERROR, DS_ERROR_NOT_FOUND, "/dev/nope: No such file or directory");
  g_autofree char *data = NULL;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup ("/dev/nope");
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  r->target.path = g_strdup ("/dev/nope");
  ds_result_set_error (r, why, ENOENT, -1);

  data = ds_result_to_data (r, NULL);
  back = ds_result_load_data (data, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert (!back->complete);
  ck_assert_str_eq (back->error->message, "/dev/nope: No such file or directory");
}
END_TEST

START_TEST (test_load_missing_file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_load ("/nonexistent/result.json", &error);

  ck_assert_ptr_null (r);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
}
END_TEST

START_TEST (test_save_is_atomic_and_loadable)
{
  g_autoptr (DsResult) r = make_transfer_result ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ds-json-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "r.json", NULL);
  g_autoptr (DsResult) back = NULL;

  ck_assert (ds_result_save (r, path, &error));
  back = ds_result_load (path, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  g_unlink (path);
  g_rmdir (dir);
  ck_assert (!ds_result_save (r, "/nonexistent-dir/r.json", &error));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("result-json");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_transfer_round_trip);
  tcase_add_test (tc, test_required_keys_present);
  tcase_add_test (tc, test_params_only_what_applies);
  tcase_add_test (tc, test_workload_round_trip);
  tcase_add_test (tc, test_corrupt_files);
  tcase_add_test (tc, test_empty_failed_result);
  tcase_add_test (tc, test_load_missing_file);
  tcase_add_test (tc, test_save_is_atomic_and_loadable);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
