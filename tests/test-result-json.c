/* test-result-json.c: JSON round trip and strict loading
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

START_TEST (test_transfer_round_trip)
{
  g_autoptr (DsResult) r = ds_test_transfer_result ();
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
  g_autoptr (DsResult) r = ds_test_transfer_result ();
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
  g_autoptr (DsResult) r = ds_test_transfer_result ();
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
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  DsWorkloadData *d;

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
  g_autoptr (DsResult) r = ds_test_transfer_result ();
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


/* ---- numbers ------------------------------------------------------------ */

/* json-glib 1.6 writes 1e-14 as "1e-14.0": a number followed by ".0" in
 * exponent form, anywhere in the text, is that bug. */
static void
assert_no_broken_number (const char *text)
{
  g_autoptr (GRegex) broken = g_regex_new ("[0-9][eE][-+]?[0-9]+\\.|nan|inf|NaN|Infinity",
                                           0, 0, NULL);

  ck_assert_msg (!g_regex_match (broken, text, 0, NULL), "a number JSON cannot hold in:\n%s", text);
}

START_TEST (test_format_double)
{
  static const struct { double v; const char *text; } exact[] = {
    { 1e-14, "1e-14" }, { 1e17, "1e+17" }, { 1.0, "1.0" }, { 0.0, "0.0" },
    { -0.0, "-0.0" }, { 0.2, "0.2" }, { 0.00594, "0.00594" }, { 1e15, "1e+15" },
    { 123456789.0, "123456789.0" }, { 9007199254740993.0, "9007199254740992.0" },
    { 48010311.116424978, "48010311.11642498" },
  };
  char buf[DS_JSON_DOUBLE_BUF];

  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    {
      ck_assert (ds_json_format_double (exact[i].v, buf));
      ck_assert_str_eq (buf, exact[i].text);
    }

  ck_assert (!ds_json_format_double (NAN, buf));
  ck_assert_str_eq (buf, "null");
  ck_assert (!ds_json_format_double (INFINITY, buf));
  ck_assert (!ds_json_format_double (-INFINITY, buf));
}
END_TEST

/* Any finite double, written and read by json-glib, is the same double, and
 * json-glib reads it as a double (not an integer). */
START_TEST (test_format_double_reads_back)
{
  GRand *rand = g_rand_new_with_seed (42);
  double edges[] = {
    5e-324, -5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, DBL_EPSILON, 1e-300, 1e300,
    0.1, 1.0 / 3, 2.5e-7, 18446744073709551615.0, 9223372036854775807.0, -1.5,
  };

  for (guint i = 0; i < G_N_ELEMENTS (edges) + 100000; i++)
    {
      char buf[DS_JSON_DOUBLE_BUF];
      g_autofree char *doc = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonNode *n;
      double v;

      if (i < G_N_ELEMENTS (edges))
        v = edges[i];
      else
        {
          guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
          memcpy (&v, &bits, sizeof v);
          if (!isfinite (v))
            continue;
        }

      ck_assert (ds_json_format_double (v, buf));
      doc = g_strdup_printf ("[%s]", buf);
      ck_assert_msg (json_parser_load_from_data (parser, doc, -1, &error),
                     "%s: %s", doc, error->message);
      n = json_array_get_element (json_node_get_array (json_parser_get_root (parser)), 0);
      ck_assert_msg (json_node_get_value_type (n) == G_TYPE_DOUBLE, "%s reads as an integer", buf);
      ck_assert_msg (memcmp (&v, &(double) { json_node_get_double (n) }, sizeof v) == 0,
                     "%.17g written as %s reads as %.17g", v, buf, json_node_get_double (n));
    }
  g_rand_free (rand);
}
END_TEST

/* save -> load -> save gives the same text, at the edges of every kind of
 * number a result holds. */
START_TEST (test_round_trip_edges)
{
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  g_autoptr (DsResult) w = ds_test_workload_result ();
  DsTransferData *td = t->data;
  DsWorkloadData *wd = w->data;
  static const double rates[] = {
    0.0, -0.0, 5e-324, DBL_MIN, 1e-14, 0.1, 1.0, 562949953421313.0, 1e15,
    999999999999999.9, 127.9e6, 121.995 * 1048576,
  };
  static const double latencies[] = {
    5e-324, 1e-14, 1e-9, 2.5e-7, 0.00594, 1.0, 3600.0, 999999.0,
  };
  const DsResult *all[2] = { t, w };

  for (guint i = 0; i < G_N_ELEMENTS (rates); i++)
    g_array_index (td->read.points, DsTransferPoint, i).bytes_per_s = rates[i];
  td->read.max_bytes_per_s = 1e15;
  td->read.min_bytes_per_s = 5e-324;
  td->read.access_time_s = 1e-14;
  td->read.cpu_percent = 0.0;
  /* Whole nanoseconds written as seconds: 15 ns is 1.5e-08 s, which
   * times 1e9 is 14.999...; truncated, it lost a nanosecond a save. */
  for (guint i = 0; i < td->read.access->len; i++)
    g_array_index (td->read.access, DsAccessPoint, i).access_ns = 15 + i * 7919;
  g_array_index (td->read.access, DsAccessPoint, 0).access_ns = 1;
  g_array_index (td->read.access, DsAccessPoint, 1).access_ns = UINT64_C (3600000000000);
  t->target.size_bytes = G_MAXINT64;
  t->spec.capacity_bytes = G_MAXINT64;
  /* A workload's run time and ramp (a transfer test saves neither: only
   * what shaped the run is in params). */
  w->spec.duration_ns = 15;
  w->spec.ramp_ns = 29;
  t->spec.seed = G_MAXUINT64;

  for (guint k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    wd->read.lat_percentile_s[k] = latencies[k % G_N_ELEMENTS (latencies)];
  wd->read.lat_min_s = 5e-324;
  wd->read.lat_max_s = 999999.0;
  wd->read.lat_stddev_s = 1e-14;
  wd->read.io_bytes = G_MAXINT64;
  wd->read.bytes_per_s = 1e15;
  wd->runtime_s = 1e-9;
  wd->cpu_user_s = -0.0;

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *first = ds_result_to_data (all[i], NULL);
      g_autoptr (DsResult) back = ds_result_load_data (first, -1, &error);
      g_autofree char *second = NULL;

      ck_assert_msg (back != NULL, "%s\n%s", error ? error->message : "", first);
      assert_no_broken_number (first);
      second = ds_result_to_data (back, NULL);
      ck_assert_str_eq (second, first);
    }

  /* Bit for bit, not just the same text. */
  {
    g_autofree char *text = ds_result_to_data (t, NULL);
    g_autoptr (DsResult) back = ds_result_load_data (text, -1, NULL);
    DsTransferData *bd = back->data;

    for (guint i = 0; i < G_N_ELEMENTS (rates); i++)
      {
        double x = g_array_index (bd->read.points, DsTransferPoint, i).bytes_per_s;
        ck_assert_msg (memcmp (&x, &rates[i], sizeof x) == 0, "%.17g came back as %.17g", rates[i], x);
      }
    ck_assert_uint_eq (back->spec.seed, G_MAXUINT64);
    for (guint i = 0; i < td->read.access->len; i++)
      ck_assert_uint_eq (g_array_index (bd->read.access, DsAccessPoint, i).access_ns,
                         g_array_index (td->read.access, DsAccessPoint, i).access_ns);
    ck_assert_uint_eq (back->target.size_bytes, G_MAXINT64);
  }
  {
    g_autofree char *text = ds_result_to_data (w, NULL);
    g_autoptr (DsResult) back = ds_result_load_data (text, -1, NULL);

    ck_assert_uint_eq (back->spec.duration_ns, 15);
    ck_assert_uint_eq (back->spec.ramp_ns, 29);
  }
}
END_TEST

/* The writer never writes NaN or an infinity: an optional figure becomes
 * null and still loads; the text is JSON whatever the doubles were. */
START_TEST (test_no_nan_written)
{
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  DsTransferData *td = t->data;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr (DsResult) back = NULL;

  td->read.access_time_s = NAN;
  td->read.burst_bytes_per_s = INFINITY;
  td->read.cpu_percent = -INFINITY;
  text = ds_result_to_data (t, NULL);
  assert_no_broken_number (text);
  back = ds_result_load_data (text, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");

  {
    JsonObject *o = json_object_new ();
    g_autoptr (JsonNode) node = ds_json_node_take_object (o);
    g_autofree char *doc = NULL;
    g_autoptr (JsonNode) again = NULL;

    json_object_set_double_member (o, "nan", NAN);
    json_object_set_double_member (o, "inf", -INFINITY);
    doc = ds_json_to_text (node, NULL);
    again = json_from_string (doc, &error);
    ck_assert_msg (again != NULL, "%s: %s", doc, error->message);
    ck_assert (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (again), "nan")));
  }
}
END_TEST

/* ---- strings ------------------------------------------------------------ */

/* Whatever bytes a string holds, the text is UTF-8 JSON that json-glib
 * reads, with no raw control character in it. */
START_TEST (test_writer_strings)
{
  static const char *const strings[] = {
    "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t\001\037", "\033]0;title\007",
    "del \177, C1 \xc2\x85\xc2\x9b, separators \xe2\x80\xa8\xe2\x80\xa9",
    "caf\xe9 latin-1", "\xff\xfe", "cut \xe2\x82", "Диск 磁盘",
  };

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      JsonObject *o = json_object_new ();
      g_autoptr (JsonNode) node = ds_json_node_take_object (o);
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) back = NULL;
      g_autofree char *doc = NULL;
      const char *read;

      json_object_set_string_member (o, "s", strings[i]);
      doc = ds_json_to_text (node, NULL);
      ck_assert_msg (g_utf8_validate (doc, -1, NULL), "not UTF-8: %s", doc);
      for (const char *p = doc; *p != '\0'; p++)
        ck_assert_msg ((guchar) *p >= 0x20 || *p == '\n', "raw 0x%02x in %s", *p, doc);
      back = json_from_string (doc, &error);
      ck_assert_msg (back != NULL, "%s: %s", doc, error ? error->message : "");
      read = json_object_get_string_member (json_node_get_object (back), "s");
      if (g_utf8_validate (strings[i], -1, NULL))
        ck_assert_str_eq (read, strings[i]);
      else
        ck_assert_ptr_nonnull (strstr (read, "\\x"));
    }
}
END_TEST

/* A path that is not UTF-8 (a Latin-1 file name) is saved so that the
 * result loads, with the exact bytes back, and the report shows it. */
START_TEST (test_non_utf8_path)
{
  static const char *const paths[] = {
    "/tmp/caf\xe9.img", "/var/tmp/\xff\xfe weird %41 name", "relative/\x80.img",
  };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (DsResult) r = ds_test_transfer_result ();
      g_autoptr (GError) error = NULL;
      g_autofree char *text = NULL;
      g_autofree char *again = NULL;
      g_autofree char *report = NULL;
      g_autoptr (DsResult) back = NULL;

      g_free (r->target.path);
      r->target.path = g_strdup (paths[i]);
      g_free (r->spec.target_path);
      r->spec.target_path = g_strdup (paths[i]);
      g_free (r->target.model);
      r->target.model = g_strdup ("Disk \xff\x01");
      ds_result_add_note (r, "opened %s", paths[i]);

      text = ds_result_to_data (r, NULL);
      ck_assert_msg (g_utf8_validate (text, -1, NULL), "not UTF-8:\n%s", text);
      back = ds_result_load_data (text, -1, &error);
      ck_assert_msg (back != NULL, "%s\n%s", error ? error->message : "", text);
      ck_assert_str_eq (back->target.path, paths[i]);
      ck_assert_str_eq (back->spec.target_path, paths[i]);
      ck_assert_str_eq (back->target.model, "Disk \\xFF\x01");
      again = ds_result_to_data (back, NULL);
      ck_assert_str_eq (again, text);

      report = ds_report_text (back, DS_UNITS_MB);
      ck_assert (g_utf8_validate (report, -1, NULL));
      ck_assert_ptr_nonnull (strstr (report, "\\x"));
    }

  {
    /* A UTF-8 path is stored as it is, and alone. */
    g_autoptr (DsResult) r = ds_test_transfer_result ();
    g_autofree char *text = NULL;

    g_free (r->target.path);
    r->target.path = g_strdup ("/tmp/café.img");
    text = ds_result_to_data (r, NULL);
    ck_assert_ptr_nonnull (strstr (text, "\"/tmp/café.img\""));
    ck_assert_ptr_null (strstr (text, "path_bytes"));
  }
}
END_TEST

/* ---- the seed ----------------------------------------------------------- */

START_TEST (test_seed_round_trip)
{
  static const uint64_t seeds[] = {
    0, 1, (UINT64_C (1) << 53) + 1, G_MAXINT64, UINT64_C (1) << 63, G_MAXUINT64,
    (uint64_t) -1234567,
  };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr (DsResult) r = ds_test_workload_result ();
      g_autoptr (DsResult) back = NULL;
      g_autofree char *text = NULL;
      g_autofree char *member = g_strdup_printf ("\"seed\" : \"%" G_GUINT64_FORMAT "\"", seeds[i]);

      r->spec.seed = seeds[i];
      text = ds_result_to_data (r, NULL);
      ck_assert_msg (strstr (text, member) != NULL, "no %s in\n%s", member, text);
      back = ds_test_round_trip (r);
      ck_assert_uint_eq (back->spec.seed, seeds[i]);
    }
}
END_TEST

START_TEST (test_seed_in_file)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autofree char *good = NULL;
  static const struct { const char *seed; gboolean ok; uint64_t value; } cases[] = {
    { "\"18446744073709551615\"", TRUE, G_MAXUINT64 },
    { "\"0\"", TRUE, 0 },
    { "42", TRUE, 42 },                            /* files before the string form */
    { "9223372036854775807", TRUE, G_MAXINT64 },
    { "\"18446744073709551616\"", FALSE, 0 },
    { "\"-1\"", FALSE, 0 },
    { "\"12a\"", FALSE, 0 },
    { "\"\"", FALSE, 0 },
    { "\" 5\"", FALSE, 0 },
    { "-1", FALSE, 0 },
    { "1.5", FALSE, 0 },
    { "true", FALSE, 0 },
    { "null", FALSE, 0 },
  };

  r->spec.seed = 7;
  good = ds_result_to_data (r, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *with = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) back = NULL;

      with = g_strdup_printf ("\"seed\" : %s", cases[i].seed);
      text = replace (good, "\"seed\" : \"7\"", with);
      back = ds_result_load_data (text, -1, &error);
      if (cases[i].ok)
        {
          ck_assert_msg (back != NULL, "%s: %s", cases[i].seed, error ? error->message : "");
          ck_assert_uint_eq (back->spec.seed, cases[i].value);
        }
      else
        {
          ck_assert_msg (back == NULL, "seed %s loaded", cases[i].seed);
          ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
          ck_assert_msg (strstr (error->message, "seed") != NULL, "%s", error->message);
        }
    }
}
END_TEST

/* The random offsets' alignment (issue 25): written for the kinds that
 * draw random offsets, read back; a file from before the member loads as
 * its run was (the logical block, 512); a bad value is refused. */
START_TEST (test_random_align_in_file)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  g_autofree char *good = NULL;
  g_autofree char *transfer = NULL;
  static const struct { const char *member; gboolean ok; uint64_t value; } cases[] = {
    { "\"random_align_bytes\" : 0,", TRUE, 0 },
    { "\"random_align_bytes\" : 512,", TRUE, 512 },
    { "\"random_align_bytes\" : 1048576,", TRUE, 1 << 20 },
    { "", TRUE, 512 },                              /* files before the member */
    { "\"random_align_bytes\" : 1000,", FALSE, 0 },
    { "\"random_align_bytes\" : 256,", FALSE, 0 },
    { "\"random_align_bytes\" : -512,", FALSE, 0 },
    { "\"random_align_bytes\" : \"block\",", FALSE, 0 },
  };

  good = ds_result_to_data (r, NULL);
  ck_assert_msg (strstr (good, "\"random_align_bytes\" : 0,") != NULL, "%s", good);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = replace (good, "\"random_align_bytes\" : 0,", cases[i].member);
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) back = ds_result_load_data (text, -1, &error);

      if (cases[i].ok)
        {
          ck_assert_msg (back != NULL, "%s: %s", cases[i].member, error ? error->message : "");
          ck_assert_uint_eq (back->spec.random_align_bytes, cases[i].value);
        }
      else
        {
          ck_assert_msg (back == NULL, "%s loaded", cases[i].member);
          ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
        }
    }

  /* A benchmark's random part reads one logical block: nothing to say. */
  transfer = ds_result_to_data (t, NULL);
  ck_assert (strstr (transfer, "random_align_bytes") == NULL);
  {
    g_autoptr (DsResult) back = ds_result_load_data (transfer, -1, NULL);

    ck_assert_uint_eq (back->spec.random_align_bytes, 0);
  }
}
END_TEST

START_TEST (test_parse_seed)
{
  static const struct { const char *text; gboolean ok; uint64_t value; } cases[] = {
    { "0", TRUE, 0 }, { "1", TRUE, 1 },
    { "18446744073709551615", TRUE, G_MAXUINT64 },
    { "-1", TRUE, G_MAXUINT64 },
    { "-9223372036854775808", TRUE, UINT64_C (1) << 63 },
    { "9223372036854775808", TRUE, UINT64_C (1) << 63 },
    { "18446744073709551616", FALSE, 0 },
    { "-9223372036854775809", FALSE, 0 },
    { "", FALSE, 0 }, { "x", FALSE, 0 }, { "1e3", FALSE, 0 }, { "0x10", FALSE, 0 },
    { " 1", FALSE, 0 }, { "--1", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t v = 12345;
      gboolean ok = ds_parse_seed (cases[i].text, &v, &error);

      ck_assert_msg (ok == cases[i].ok, "“%s”: %s", cases[i].text, error ? error->message : "accepted");
      if (ok)
        ck_assert_uint_eq (v, cases[i].value);
      else
        {
          ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
          ck_assert_uint_eq (v, 12345);
        }
    }
}
END_TEST

/* ---- strict envelope ---------------------------------------------------- */

/* What the loader reads around the kind's results is as strict as the rest
 * (the environment, the engine and the notes were once read with no error
 * at all). */
START_TEST (test_strict_envelope)
{
  g_autoptr (DsResult) r = ds_test_transfer_result ();
  g_autofree char *good = ds_result_to_data (r, NULL);
  static const struct { const char *from; const char *to; const char *message; } cases[] = {
    { "\"environment\" : {", "\"environmentx\" : {", "environment is missing" },
    { "\"hostname\" : \"", "\"hostname\" : 5, \"x\" : \"", "hostname" },
    { "\"kernel\" : \"", "\"kernel\" : [], \"x\" : \"", "kernel" },
    { "\"started_at\" : \"", "\"started_at\" : \"yesterday\", \"x\" : \"", "started_at" },
    { "\"hostname\" : \"", "\"hostnam\" : \"", "hostname is missing" },
    { "\"engine\" : \"sync\"", "\"engine\" : 5", "engine" },
    { "\"engine\" : \"sync\"", "\"engin\" : \"sync\"", "engine is missing" },
    { "\"notes\" : [", "\"notes\" : [1, ", "notes[0]" },
    { "\"notes\" : [", "\"notes\" : {}, \"x\" : [", "notes" },
    { "\"notes\" : [", "\"notez\" : [", "notes is missing" },
    { "\"model\" : \"Test Disk\"", "\"model\" : 7", "model" },
    { "\"target_path\" : \"/dev/loop9\"", "\"target_path\" : false", "target_path" },
    { "\"path\" : \"/dev/loop9\"", "\"path\" : \"/dev/loop9\", \"path_bytes\" : \"%zz\"", "path_bytes" },
    { "\"path\" : \"/dev/loop9\"", "\"path\" : \"/dev/loop9\", \"path_bytes\" : 5", "path_bytes" },
    { "\"message\" : \"", "\"messag\" : \"", "message" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *bad = replace (good, cases[i].from, cases[i].to);
      assert_corrupt (bad, -1, cases[i].message);
    }
}
END_TEST

/* A loaded result says what the file says about where and when it ran:
 * nothing of the machine that loads it. */
START_TEST (test_loaded_not_stamped)
{
  g_autoptr (DsResult) r = ds_test_transfer_result ();
  g_autoptr (DsResult) back = NULL;

  g_clear_pointer (&r->started_at, g_free);
  g_clear_pointer (&r->hostname, g_free);
  g_clear_pointer (&r->kernel, g_free);
  g_free (r->tool_version);
  r->tool_version = g_strdup ("0.0.1-old");
  back = ds_test_round_trip (r);
  ck_assert_ptr_null (back->started_at);
  ck_assert_ptr_null (back->hostname);
  ck_assert_ptr_null (back->kernel);
  ck_assert_str_eq (back->tool_version, "0.0.1-old");

  {
    g_autoptr (DsResult) blank = ds_result_new_blank (DS_BENCH_EXTRA);

    ck_assert_int_eq (blank->kind, DS_BENCH_EXTRA);
    ck_assert_ptr_null (blank->started_at);
    ck_assert_ptr_null (blank->hostname);
    ck_assert_ptr_null (blank->kernel);
    ck_assert_ptr_null (blank->tool_version);
    ck_assert_ptr_null (blank->data);
  }
}
END_TEST

/* Every kind, as a run leaves it when it stops before measuring anything
 * (refused, failed to open, stopped at once), saves a file that loads and
 * saves again as the same text.  (An error scan refused before it started
 * saved a block size of 0, which its loader called absurd.) */
START_TEST (test_every_kind_stopped_early)
{
  for (int kind = 0; kind < DS_BENCH_N_KINDS; kind++)
    for (int how = 0; how < 3; how++)
      {
        const DsBenchOps *ops = ds_bench_get ((DsBenchKind) kind);
        DsBenchSpec spec;
        g_autoptr (DsResult) r = NULL;
        g_autoptr (DsResult) back = NULL;
        g_autoptr (GError) error = NULL;
        g_autoptr (GError) why = NULL;
        g_autofree char *first = NULL;
        g_autofree char *second = NULL;

        ds_bench_spec_init (&spec, (DsBenchKind) kind);
        spec.target_path = g_strdup ("/dev/nope");
        r = ds_result_new (&spec);
        ds_bench_spec_clear (&spec);
        r->target.path = g_strdup ("/dev/nope");
        if (how == 1)
          {
            why = g_error_new_literal (DS_ERROR, DS_ERROR_NOT_FOUND, "/dev/nope: No such file or directory");
            ds_result_set_error (r, why, ENOENT, -1);
          }
        else if (how == 2)
          {
            why = g_error_new_literal (DS_ERROR, DS_ERROR_CANCELLED, "the run was stopped by the user");
            r->cancelled = TRUE;
            ds_result_set_error (r, why, 0, -1);
          }

        first = ds_result_to_data (r, NULL);
        back = ds_result_load_data (first, -1, &error);
        ck_assert_msg (back != NULL, "%s (%d): %s\n%s", ops->name, how,
                       error ? error->message : "", first);
        second = ds_result_to_data (back, NULL);
        ck_assert_msg (strcmp (first, second) == 0, "%s (%d) saved again differs", ops->name, how);
      }
}
END_TEST

/* ---- what the fuzzer found (issue 17) ----------------------------------- */

static char *
corpus_file (const char *name,
             gsize      *ret_length)
{
  g_autofree char *path = g_build_filename (DS_TEST_CORPUS_DIR, name, NULL);
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  ck_assert_msg (g_file_get_contents (path, &data, ret_length, &error), "%s", error ? error->message : "");
  return data;
}

/* A loaded workload whose p80 is 1e-14 saved as "1e-14.0", which did not
 * load again. */
START_TEST (test_fuzz_roundtrip_crash)
{
  static const char *const names[] = {
    "valid-fuzz-roundtrip-crash.json", "valid-fuzz-rss-growth.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gsize length = 0;
      g_autofree char *data = corpus_file (names[i], &length);
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) r = ds_result_load_data (data, (gssize) length, &error);
      g_autoptr (DsResult) again = NULL;
      g_autofree char *first = NULL;
      g_autofree char *second = NULL;

      ck_assert_msg (r != NULL, "%s: %s", names[i], error ? error->message : "");
      first = ds_result_to_data (r, NULL);
      assert_no_broken_number (first);
      again = ds_result_load_data (first, -1, &error);
      ck_assert_msg (again != NULL, "%s saved does not load: %s\n%s", names[i],
                     error ? error->message : "", first);
      second = ds_result_to_data (again, NULL);
      ck_assert_str_eq (second, first);
    }
}
END_TEST

START_TEST (test_save_is_atomic_and_loadable)
{
  g_autoptr (DsResult) r = ds_test_transfer_result ();
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
  tcase_add_test (tc, test_format_double);
  tcase_add_test (tc, test_format_double_reads_back);
  tcase_add_test (tc, test_round_trip_edges);
  tcase_add_test (tc, test_no_nan_written);
  tcase_add_test (tc, test_writer_strings);
  tcase_add_test (tc, test_non_utf8_path);
  tcase_add_test (tc, test_seed_round_trip);
  tcase_add_test (tc, test_seed_in_file);
  tcase_add_test (tc, test_random_align_in_file);
  tcase_add_test (tc, test_parse_seed);
  tcase_add_test (tc, test_strict_envelope);
  tcase_add_test (tc, test_loaded_not_stamped);
  tcase_add_test (tc, test_fuzz_roundtrip_crash);
  tcase_add_test (tc, test_every_kind_stopped_early);
  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
