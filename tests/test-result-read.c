/* test-result-read.c: a result from its JSON tree, strictly
 * (core/results/ds-result-read.c)
 *
 * Unit suite: no root, no device.  What ds_result_from_json() promises,
 * called on the tree itself (test-result-json.c round-trips files through
 * the writer and the loader; the seed and random_align_bytes rules are
 * its): a tree that is not an object, or of another schema, or of a test
 * no row of the kinds' table names, is not a result; each member read is
 * DS_ERROR_CORRUPT with the exact message naming it when missing, of
 * another type or out of range (target kind and block sizes, the
 * pattern, the error object, "results" null in a complete result), with
 * the file's strings quoted safely; what older files lack loads as their
 * runs were (destroy_data_confirmed, cancelled, serial, wwn, the params of
 * the kind's defaults); and the error, its errno, offset and code, the
 * non-UTF-8 path from its _bytes twin, and a stopped run's empty data
 * are read as written.  A result of one kind with another's "test" is
 * refused by that kind's reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#include "ds-bench-workload.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* A complete randrw workload of ds-test-results.c as its JSON tree. */
static JsonNode *
good_tree (void)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();

  return ds_result_to_json (r);
}

/* The object that holds the last part of @path ("params.pattern": the
 * params object, "pattern"). */
static JsonObject *
parent_of (JsonNode    *root,
           const char  *path,
           const char **ret_member)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  JsonObject *o = json_node_get_object (root);
  guint n = g_strv_length (parts);
  static char member[64];

  for (guint i = 0; i + 1 < n; i++)
    {
      ck_assert_msg (json_object_has_member (o, parts[i]), "no %s in the good tree", path);
      o = json_object_get_object_member (o, parts[i]);
    }
  g_strlcpy (member, parts[n - 1], sizeof member);
  *ret_member = member;
  return o;
}

/* The good tree with @path set to @json (NULL: removed). */
static JsonNode *
tree_with (const char *path,
           const char *json)
{
  JsonNode *root = good_tree ();
  const char *member;
  JsonObject *o = parent_of (root, path, &member);

  if (json == NULL)
    {
      ck_assert_msg (json_object_has_member (o, member), "no %s to remove", path);
      json_object_remove_member (o, member);
    }
  else
    {
      g_autoptr (GError) error = NULL;
      JsonNode *value = json_from_string (json, &error);

      ck_assert_msg (error == NULL, "%s: %s", json, error ? error->message : "");
      json_object_set_member (o, member, value);
    }
  return root;
}

static DsResult *
read_ok (JsonNode *root)
{
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_result_from_json (root, &error);

  ck_assert_msg (r != NULL, "refused: %s", error ? error->message : "no error");
  ck_assert_ptr_null (error);
  return r;
}

static void
assert_refused (JsonNode   *root,
                const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_from_json (root, &error);

  ck_assert_msg (r == NULL, "accepted, expected “%s”", message);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s", error->message);
  ck_assert_str_eq (error->message, message);
}

/* ---- not a result ------------------------------------------------------- */

START_TEST (test_not_a_result)
{
  static const char *const not_objects[] = { "[]", "[{\"schema\": \"diskscope-result/1\"}]", "5", "\"x\"", "null" };

  assert_refused (NULL, "not a Diskscope result (not a JSON object)");
  for (guint i = 0; i < G_N_ELEMENTS (not_objects); i++)
    {
      g_autoptr (JsonNode) node = json_from_string (not_objects[i], NULL);

      ck_assert_ptr_nonnull (node);
      assert_refused (node, "not a Diskscope result (not a JSON object)");
    }
  {
    g_autoptr (JsonNode) node = json_from_string ("{}", NULL);

    assert_refused (node, "not a Diskscope result: schema is “missing”, expected “diskscope-result/1”");
  }
}
END_TEST

/* The envelope: schema, test and tool, exactly. */
START_TEST (test_envelope)
{
  static const struct { const char *path, *json, *message; } cases[] = {
    { "schema", NULL, "not a Diskscope result: schema is “missing”, expected “diskscope-result/1”" },
    { "schema", "1", "not a Diskscope result: schema is “missing”, expected “diskscope-result/1”" },
    { "schema", "\"diskscope-result/10\"",
      "not a Diskscope result: schema is “diskscope-result/10”, expected “diskscope-result/1”" },
    { "schema", "\"Diskscope-Result/1\"",
      "not a Diskscope result: schema is “Diskscope-Result/1”, expected “diskscope-result/1”" },
    { "schema", "\"\\u001b[2Jx\"", "not a Diskscope result: schema is “\\x1B[2Jx”, expected “diskscope-result/1”" },
    { "test", NULL, "result.test is missing" },
    { "test", "5", "result.test is not a string" },
    { "test", "null", "result.test is not a string" },
    { "test", "\"Workload\"", "the result is of an unknown test “Workload”" },
    { "test", "\"\"", "the result is of an unknown test “”" },
    { "test", "\"work\\nload\"", "the result is of an unknown test “work\\nload”" },
    { "tool", NULL, "result.tool is missing" },
    { "tool", "[]", "result.tool is not an object" },
    { "tool.version", NULL, "tool.version is missing" },
    { "tool.version", "null", "tool.version is not a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with (cases[i].path, cases[i].json);

      assert_refused (root, cases[i].message);
    }

  /* Under a name of the table, the kind's reader decides: a workload's
   * figures are no benchmark's. */
  {
    g_autoptr (JsonNode) root = tree_with ("test", "\"benchmark\"");
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) r = ds_result_from_json (root, &error);

    ck_assert_ptr_null (r);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  }
  {
    g_autoptr (JsonNode) root = good_tree ();
    g_autoptr (DsResult) r = read_ok (root);

    ck_assert_int_eq (r->kind, DS_BENCH_WORKLOAD);
    ck_assert_int_eq (r->spec.kind, DS_BENCH_WORKLOAD);
    ck_assert_ptr_nonnull (r->data);
  }
}
END_TEST

/* ---- target ------------------------------------------------------------- */

START_TEST (test_target_refused)
{
  static const struct { const char *path, *json, *message; } cases[] = {
    { "target", NULL, "result.target is missing" },
    { "target.path", NULL, "target.path is missing" },
    { "target.path", "null", "target.path is not a string" },
    { "target.path_bytes", "\"\"", "target.path_bytes is not a percent-encoded path" },
    { "target.path_bytes", "\"%00x\"", "target.path_bytes is not a percent-encoded path" },
    { "target.path_bytes", "\"%zz\"", "target.path_bytes is not a percent-encoded path" },
    { "target.path_bytes", "null", "target.path_bytes is not a string" },
    { "target.kind", NULL, "target.kind is missing" },
    { "target.kind", "\"Block\"", "target.kind is “Block”, not block or file" },
    { "target.kind", "\"char\"", "target.kind is “char”, not block or file" },
    { "target.size_bytes", "-1", "target.size_bytes is out of range (negative or above "
      "9223372036854775807; expected 0 to 9223372036854775807)" },
    { "target.size_bytes", "1.5", "target.size_bytes is not a whole number" },
    { "target.logical_block_size", "3072", "target.logical_block_size 3072 is not a block size" },
    { "target.logical_block_size", "256", "target.logical_block_size 256 is not a block size" },
    { "target.logical_block_size", "1", "target.logical_block_size 1 is not a block size" },
    { "target.physical_block_size", "513", "target.physical_block_size 513 is not a block size" },
    { "target.physical_block_size", "2097152",
      "target.physical_block_size is out of range (2097152; expected 0 to 1048576)" },
    { "target.rotational", "\"no\"", "target.rotational is not true or false" },
    { "target.rotational", NULL, "target.rotational is missing" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with (cases[i].path, cases[i].json);

      assert_refused (root, cases[i].message);
    }
}
END_TEST

START_TEST (test_target_read)
{
  {
    /* Older files have no serial or WWN; 0 is an unknown block size. */
    g_autoptr (JsonNode) root = tree_with ("target.logical_block_size", "0");
    g_autoptr (DsResult) r = NULL;
    JsonObject *t = json_object_get_object_member (json_node_get_object (root), "target");

    json_object_set_int_member (t, "physical_block_size", 1 << 20);
    json_object_set_string_member (t, "kind", "file");
    json_object_remove_member (t, "serial");
    json_object_remove_member (t, "wwn");
    r = read_ok (root);
    ck_assert_uint_eq (r->target.logical_block_size, 0);
    ck_assert_uint_eq (r->target.physical_block_size, 1 << 20);
    ck_assert (!r->target.is_block);
    ck_assert_ptr_null (r->target.serial);
    ck_assert_ptr_null (r->target.wwn);
  }
  {
    g_autoptr (JsonNode) root = tree_with ("target.serial", "\"S5Y1NX0R\"");
    g_autoptr (DsResult) r = NULL;
    JsonObject *t = json_object_get_object_member (json_node_get_object (root), "target");

    json_object_set_string_member (t, "wwn", "0x5000c500a1b2c3d4");
    json_object_set_string_member (t, "kind", "block");
    json_object_set_int_member (t, "logical_block_size", 4096);
    r = read_ok (root);
    ck_assert_str_eq (r->target.serial, "S5Y1NX0R");
    ck_assert_str_eq (r->target.wwn, "0x5000c500a1b2c3d4");
    ck_assert (r->target.is_block);
    ck_assert_uint_eq (r->target.logical_block_size, 4096);
  }
  {
    g_autoptr (JsonNode) root = tree_with ("target.serial", "5");

    assert_refused (root, "target.serial is not a string");
  }
  {
    /* The exact bytes of a path that is not UTF-8, over its readable form. */
    g_autoptr (JsonNode) root = tree_with ("target.path_bytes", "\"%2Fdev%2Fdisk%2Fby-id%2Fx%FF%FE\"");
    g_autoptr (DsResult) r = NULL;
    JsonObject *p = json_object_get_object_member (json_node_get_object (root), "params");

    json_object_set_string_member (p, "target_path_bytes", "%2Ftmp%2F%E9t%E9");
    r = read_ok (root);
    ck_assert_str_eq (r->target.path, "/dev/disk/by-id/x\xff\xfe");
    ck_assert_str_eq (r->spec.target_path, "/tmp/\xe9t\xe9");
  }
}
END_TEST

/* ---- params ------------------------------------------------------------- */

START_TEST (test_params_refused)
{
  static const struct { const char *path, *json, *message; } cases[] = {
    { "params", NULL, "result.params is missing" },
    { "params", "[]", "result.params is not an object" },
    { "params.target_path", NULL, "params.target_path is missing" },
    { "params.target_path", "7", "params.target_path is not a string" },
    { "params.write", NULL, "params.write is missing" },
    { "params.write", "0", "params.write is not true or false" },
    { "params.destroy_data_confirmed", "\"yes\"", "params.destroy_data_confirmed is not true or false" },
    { "params.engine", NULL, "params.engine is missing" },
    { "params.pattern", "\"zig\"", "params.pattern “zig” is unknown" },
    { "params.pattern", "\"RANDRW\"", "params.pattern “RANDRW” is unknown" },
    { "params.pattern", "\"\\u202eread\"", "params.pattern “\\u202Eread” is unknown" },
    { "params.pattern", "null", "params.pattern is not a string" },
    { "params.accuracy", "6", "params.accuracy is out of range (6; expected 0 to 5)" },
    { "params.read_mix_percent", "101", "params.read_mix_percent is out of range (101; expected 0 to 100)" },
    { "params.queue_depth", "\"32\"", "params.queue_depth is not a whole number" },
    { "params.duration_s", "-1", "params.duration_s is out of range (-1; expected 0 to 1e+07)" },
    { "params.ramp_s", "\"1s\"", "params.ramp_s is not a number" },
    { "params.offset_bytes", "-4096", "params.offset_bytes is out of range (negative or above "
      "9223372036854775807; expected 0 to 9223372036854775807)" },
    { "params.buffered", "null", "params.buffered is not true or false" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with (cases[i].path, cases[i].json);

      assert_refused (root, cases[i].message);
    }
}
END_TEST

START_TEST (test_params_read)
{
  {
    /* As written. */
    g_autoptr (JsonNode) root = good_tree ();
    g_autoptr (DsResult) r = read_ok (root);

    ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDRW);
    ck_assert_uint_eq (r->spec.queue_depth, 32);
    ck_assert (!r->spec.write_confirmed);
  }
  {
    /* Members a file lacks are the kind's defaults; what the gate
     * accepted is kept; a null engine was the automatic choice. */
    g_autoptr (JsonNode) root = tree_with ("params.queue_depth", NULL);
    g_autoptr (DsResult) r = NULL;
    JsonObject *p = json_object_get_object_member (json_node_get_object (root), "params");

    json_object_remove_member (p, "duration_s");
    json_object_remove_member (p, "block_size_bytes");
    json_object_remove_member (p, "pattern");
    json_object_set_boolean_member (p, "destroy_data_confirmed", TRUE);
    json_object_set_null_member (p, "engine");
    json_object_set_null_member (p, "target_path");
    r = read_ok (root);
    ck_assert_uint_eq (r->spec.queue_depth, 1);
    ck_assert_uint_eq (r->spec.duration_ns, 10 * DS_NS_PER_SEC);
    ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
    ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDREAD);
    ck_assert (r->spec.write_confirmed);
    ck_assert_str_eq (r->spec.engine, "auto");
    ck_assert_ptr_null (r->spec.target_path);
  }
  {
    /* Before destroy_data_confirmed: not confirmed, whatever the spec
     * held before it was read. */
    g_autoptr (JsonNode) root = tree_with ("params.destroy_data_confirmed", NULL);
    g_autoptr (DsResult) r = read_ok (root);

    ck_assert (!r->spec.write_confirmed);
  }
  {
    /* The limits themselves are accepted. */
    g_autoptr (JsonNode) root = tree_with ("params.accuracy", "5");
    g_autoptr (DsResult) r = NULL;
    JsonObject *p = json_object_get_object_member (json_node_get_object (root), "params");

    json_object_set_int_member (p, "read_mix_percent", 100);
    json_object_set_double_member (p, "duration_s", 1e7);
    json_object_set_double_member (p, "ramp_s", 0);
    r = read_ok (root);
    ck_assert_uint_eq (r->spec.accuracy, 5);
    ck_assert_uint_eq (r->spec.read_mix_percent, 100);
    ck_assert_uint_eq (r->spec.duration_ns, UINT64_C (10000000) * 1000000000);
    ck_assert_uint_eq (r->spec.ramp_ns, 0);
  }
}
END_TEST

/* ---- environment, notes, state ------------------------------------------ */

START_TEST (test_envelope_rest)
{
  static const struct { const char *path, *json, *message; } cases[] = {
    { "environment.started_at", "\"2024-13-01T00:00:00Z\"",
      "environment.started_at “2024-13-01T00:00:00Z” is not an ISO 8601 time" },
    { "environment.started_at", "\"\"", "environment.started_at “” is not an ISO 8601 time" },
    { "notes", "[\"fine\", 2]", "result.notes[1] is not a string" },
    { "notes", "[null]", "result.notes[0] is not a string" },
    { "notes", "[[\"nested\"]]", "result.notes[0] is not a string" },
    { "complete", NULL, "result.complete is missing" },
    { "complete", "1", "result.complete is not true or false" },
    { "cancelled", "\"no\"", "result.cancelled is not true or false" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with (cases[i].path, cases[i].json);

      assert_refused (root, cases[i].message);
    }

  {
    /* Unknown where and when, no cancelled (older files), notes kept in
     * their order. */
    g_autoptr (JsonNode) root = tree_with ("environment.started_at", "null");
    g_autoptr (DsResult) r = NULL;
    JsonObject *o = json_node_get_object (root);

    json_object_remove_member (o, "cancelled");
    json_object_set_member (o, "notes", json_from_string ("[\"one\", \"\", \"three\"]", NULL));
    r = read_ok (root);
    ck_assert_ptr_null (r->started_at);
    ck_assert (!r->cancelled);
    ck_assert (r->complete);
    ck_assert_uint_eq (r->notes->len, 3);
    ck_assert_str_eq (r->notes->pdata[0], "one");
    ck_assert_str_eq (r->notes->pdata[1], "");
    ck_assert_str_eq (r->notes->pdata[2], "three");
  }
  {
    g_autoptr (JsonNode) root = tree_with ("environment.started_at", "\"2024-02-29T23:59:59.5+02:00\"");
    g_autoptr (DsResult) r = read_ok (root);

    ck_assert_str_eq (r->started_at, "2024-02-29T23:59:59.5+02:00");
  }
}
END_TEST

/* ---- error and results -------------------------------------------------- */

START_TEST (test_error_refused)
{
  static const struct { const char *path, *json, *message; } cases[] = {
    { "error", NULL, "result.error is missing" },
    { "error", "3", "result.error is neither null nor an object" },
    { "error", "\"EIO\"", "result.error is neither null nor an object" },
    { "error", "[]", "result.error is neither null nor an object" },
    { "error", "{}", "error.message is missing" },
    { "error", "{\"message\": null}", "error.message is not a string" },
    { "error", "{\"message\": \"x\", \"errno\": 4096}", "error.errno is out of range (4096; expected 0 to 4095)" },
    { "error", "{\"message\": \"x\", \"errno\": \"5\"}", "error.errno is not a whole number" },
    { "error", "{\"message\": \"x\", \"errno\": -5}", "error.errno is out of range (negative or above "
      "9223372036854775807; expected 0 to 4095)" },
    { "error", "{\"message\": \"x\", \"offset_bytes\": 1.5}", "error.offset_bytes is not a whole number" },
    { "results", NULL, "result.results is missing" },
    { "results", "[]", "results is not an object" },
    { "results", "7", "results is not an object" },
    { "results", "null", "result.results is empty in a complete result" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with (cases[i].path, cases[i].json);

      assert_refused (root, cases[i].message);
    }

  /* The kind's reader names what it lacks. */
  {
    g_autoptr (JsonNode) root = tree_with ("results", "{}");
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) r = ds_result_from_json (root, &error);

    ck_assert_ptr_null (r);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
    ck_assert_msg (g_str_has_prefix (error->message, "results."), "%s", error->message);
  }
}
END_TEST

/* A failed or stopped run's error as written: its errno gives the code,
 * a stop is DS_ERROR_CANCELLED, neither is DS_ERROR_FAILED; "results"
 * null is the kind's empty data. */
START_TEST (test_error_read)
{
  static const struct {
    const char *error;
    gboolean    cancelled;
    int         code;
    int         errno_value;
    int64_t     offset;
  } cases[] = {
    { "{\"message\": \"read error\", \"errno\": 5, \"offset_bytes\": 1048576}", FALSE, DS_ERROR_IO, EIO, 1048576 },
    { "{\"message\": \"read error\", \"errno\": null, \"offset_bytes\": null}", FALSE, DS_ERROR_FAILED, 0, -1 },
    { "{\"message\": \"read error\"}", FALSE, DS_ERROR_FAILED, 0, -1 },
    { "{\"message\": \"read error\", \"errno\": 0}", FALSE, DS_ERROR_FAILED, 0, -1 },
    { "{\"message\": \"read error\", \"errno\": 13}", FALSE, DS_ERROR_PERMISSION, EACCES, -1 },
    { "{\"message\": \"read error\", \"errno\": 5, \"offset_bytes\": 0}", TRUE, DS_ERROR_CANCELLED, EIO, 0 },
    { "{\"message\": \"read error\", \"offset_bytes\": 9223372036854775807}", FALSE, DS_ERROR_FAILED, 0,
      G_MAXINT64 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = tree_with ("error", cases[i].error);
      g_autoptr (DsResult) r = NULL;
      JsonObject *o = json_node_get_object (root);

      json_object_set_boolean_member (o, "complete", FALSE);
      json_object_set_boolean_member (o, "cancelled", cases[i].cancelled);
      json_object_set_null_member (o, "results");
      r = read_ok (root);
      ck_assert_msg (r->error != NULL, "case %u", i);
      ck_assert_msg (g_error_matches (r->error, DS_ERROR, cases[i].code), "case %u: code %d", i, r->error->code);
      ck_assert_str_eq (r->error->message, "read error");
      ck_assert_int_eq (r->error_errno, cases[i].errno_value);
      ck_assert_int_eq (r->error_offset_bytes, cases[i].offset);
      ck_assert (!r->complete);
      ck_assert_int_eq (r->cancelled, cases[i].cancelled);
      /* A run stopped before it measured: the kind's empty data. */
      ck_assert_ptr_nonnull (r->data);
      ck_assert (!((DsWorkloadData *) r->data)->read.present);
    }

  {
    /* A complete run has no error. */
    g_autoptr (JsonNode) root = good_tree ();
    g_autoptr (DsResult) r = read_ok (root);

    ck_assert_ptr_null (r->error);
    ck_assert_int_eq (r->error_errno, 0);
    ck_assert_int_eq (r->error_offset_bytes, -1);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("result-read");
  TCase *tc = tcase_create ("read");

  tcase_add_test (tc, test_not_a_result);
  tcase_add_test (tc, test_envelope);
  tcase_add_test (tc, test_target_refused);
  tcase_add_test (tc, test_target_read);
  tcase_add_test (tc, test_params_refused);
  tcase_add_test (tc, test_params_read);
  tcase_add_test (tc, test_envelope_rest);
  tcase_add_test (tc, test_error_refused);
  tcase_add_test (tc, test_error_read);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
