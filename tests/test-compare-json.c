/* test-compare-json.c: a comparison as JSON (core/library/ds-compare-json.c,
 * `compare --json`, schema "diskscope-compare/1"): every member of the
 * document against the comparison it was made from, null where nothing
 * was measured, each unit's name, and strings escaped
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <json-glib/json-glib.h>

#include "ds-annotation.h"
#include "ds-bench-transfer.h"
#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

/* The members of @o, sorted, joined by spaces. */
static char *
members (JsonObject *o)
{
  g_autoptr (GList) names = g_list_sort (json_object_get_members (o), (GCompareFunc) strcmp);
  GString *s = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s", l == names ? "" : " ", (const char *) l->data);
  return g_string_free (s, FALSE);
}

static void
assert_members (JsonObject *o,
                const char *want)
{
  g_autofree char *got = members (o);

  ck_assert_str_eq (got, want);
}

/* @node is a number equal to @value, or null when @value is not finite. */
static void
assert_number_or_null (JsonNode *node,
                       double    value)
{
  if (!isfinite (value))
    {
      ck_assert_msg (JSON_NODE_HOLDS_NULL (node), "%g is not null", value);
      return;
    }
  ck_assert (JSON_NODE_HOLDS_VALUE (node));
  ck_assert_double_eq (json_node_get_double (node), value);
}

/* @node is the string @value, or null when it is NULL. */
static void
assert_string_or_null (JsonObject *o,
                       const char *member,
                       const char *value)
{
  JsonNode *node = json_object_get_member (o, member);

  ck_assert_msg (node != NULL, "no %s", member);
  if (value == NULL)
    ck_assert_msg (JSON_NODE_HOLDS_NULL (node), "%s is not null", member);
  else
    ck_assert_str_eq (json_node_get_string (node), value);
}

static void
assert_strings (JsonArray *array,
                GPtrArray *strings)
{
  ck_assert_uint_eq (json_array_get_length (array), strings->len);
  for (guint i = 0; i < strings->len; i++)
    ck_assert_str_eq (json_array_get_string_element (array, i), strings->pdata[i]);
}

static const char *
unit_name (DsCompareUnit unit)
{
  switch (unit)
    {
    case DS_COMPARE_RATE: return "bytes_per_s";
    case DS_COMPARE_IOPS: return "iops";
    case DS_COMPARE_TIME: return "s";
    case DS_COMPARE_PERCENT: return "percent";
    case DS_COMPARE_COUNT: return "count";
    case DS_COMPARE_BYTES: return "bytes";
    case DS_COMPARE_RATIO: return "ratio";
    default: ck_abort_msg ("unit %d", unit);
    }
  return NULL;
}

/* The whole document of @cmp, member by member, against @cmp itself. */
static void
assert_document (const DsComparison *cmp,
                 JsonObject         *root,
                 const char         *test)
{
  JsonArray *columns = json_object_get_array_member (root, "columns");
  JsonArray *rows = json_object_get_array_member (root, "rows");
  JsonArray *curves = json_object_get_array_member (root, "curves");
  guint n = cmp->columns->len;
  guint drawn = 0;

  assert_members (root, "columns curves notes rows schema test warnings x_axis");
  ck_assert_str_eq (json_object_get_string_member (root, "schema"), "diskscope-compare/1");
  ck_assert_str_eq (json_object_get_string_member (root, "test"), test);
  ck_assert_str_eq (json_object_get_string_member (root, "x_axis"), cmp->x_percent ? "percent" : "bytes");

  ck_assert_uint_eq (json_array_get_length (columns), n);
  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      JsonObject *o = json_array_get_object_element (columns, c);
      char letter[2] = { col->letter, '\0' };

      assert_members (o, "complete description label letter model size_bytes source started_at target");
      ck_assert_str_eq (json_object_get_string_member (o, "letter"), letter);
      ck_assert_str_eq (json_object_get_string_member (o, "label"), col->label);
      ck_assert_str_eq (json_object_get_string_member (o, "description"), col->description);
      assert_string_or_null (o, "source", col->source);
      assert_string_or_null (o, "target", col->result->target.path);
      assert_string_or_null (o, "model", col->result->target.model);
      assert_string_or_null (o, "started_at", col->result->started_at);
      ck_assert_int_eq (json_object_get_int_member (o, "size_bytes"), (gint64) col->result->target.size_bytes);
      ck_assert_int_eq (json_object_get_boolean_member (o, "complete"), col->result->complete);
    }

  ck_assert_uint_eq (json_array_get_length (rows), cmp->rows->len);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const DsCompareRow *row = cmp->rows->pdata[i];
      JsonObject *o = json_array_get_object_element (rows, i);
      JsonArray *values = json_object_get_array_member (o, "values");
      JsonArray *ratios = json_object_get_array_member (o, "ratios");

      assert_members (o, "best higher_is_better key measure name ratios section unit values");
      ck_assert_str_eq (json_object_get_string_member (o, "key"), row->key);
      ck_assert_str_eq (json_object_get_string_member (o, "section"), row->section);
      ck_assert_str_eq (json_object_get_string_member (o, "name"), row->name);
      ck_assert_str_eq (json_object_get_string_member (o, "measure"), row->measure);
      ck_assert_str_eq (json_object_get_string_member (o, "unit"), unit_name (row->unit));
      ck_assert_int_eq (json_object_get_boolean_member (o, "higher_is_better"), row->higher_is_better);
      ck_assert_uint_eq (json_array_get_length (values), n);
      for (guint c = 0; c < n; c++)
        assert_number_or_null (json_array_get_element (values, c), row->values[c]);
      /* One ratio per column after the first. */
      ck_assert_uint_eq (json_array_get_length (ratios), n - 1);
      for (guint c = 1; c < n; c++)
        assert_number_or_null (json_array_get_element (ratios, c - 1), ds_compare_row_ratio (row, c));
      if (row->best < 0)
        ck_assert (json_object_get_null_member (o, "best"));
      else
        ck_assert_int_eq (json_object_get_int_member (o, "best"), row->best);
    }

  assert_strings (json_object_get_array_member (root, "notes"), cmp->notes);
  assert_strings (json_object_get_array_member (root, "warnings"), cmp->warnings);

  /* The curves, not the dots (thousands of access times). */
  for (guint i = 0; i < cmp->curves->len; i++)
    {
      const DsCompareCurve *curve = cmp->curves->pdata[i];
      JsonObject *o;
      JsonArray *series;

      if (curve->dots)
        continue;
      ck_assert_uint_lt (drawn, json_array_get_length (curves));
      o = json_array_get_object_element (curves, drawn++);
      assert_members (o, "columns key title x x_unit y y_unit");
      ck_assert_str_eq (json_object_get_string_member (o, "key"), curve->key);
      ck_assert_str_eq (json_object_get_string_member (o, "title"), curve->title);
      ck_assert_str_eq (json_object_get_string_member (o, "x"), curve->x_name);
      ck_assert_str_eq (json_object_get_string_member (o, "x_unit"), unit_name (curve->x_unit));
      ck_assert_str_eq (json_object_get_string_member (o, "y"), curve->y_name);
      ck_assert_str_eq (json_object_get_string_member (o, "y_unit"), unit_name (curve->y_unit));
      series = json_object_get_array_member (o, "columns");
      ck_assert_uint_eq (json_array_get_length (series), n);
      for (guint c = 0; c < n; c++)
        {
          JsonObject *s = json_array_get_object_element (series, c);
          JsonArray *points = json_object_get_array_member (s, "points");
          guint len = curve->points[c] != NULL ? curve->points[c]->len : 0;

          assert_members (s, "mark mark_x points");
          ck_assert_uint_eq (json_array_get_length (points), len);
          for (guint k = 0; k < len; k++)
            {
              const DsCurveXY *p = &g_array_index (curve->points[c], DsCurveXY, k);
              JsonArray *pair = json_array_get_array_element (points, k);

              ck_assert_uint_eq (json_array_get_length (pair), 2);
              assert_number_or_null (json_array_get_element (pair, 0), p->x);
              assert_number_or_null (json_array_get_element (pair, 1), p->y);
            }
          assert_number_or_null (json_object_get_member (s, "mark_x"), curve->mark_x[c]);
          assert_string_or_null (s, "mark", curve->mark_label[c]);
        }
    }
  ck_assert_uint_eq (json_array_get_length (curves), drawn);
}

/* The text `compare --json` prints, parsed back: the same document. */
static JsonNode *
printed (const DsComparison *cmp)
{
  g_autofree char *text = ds_comparison_to_json_data (cmp);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  ck_assert (g_str_has_prefix (text, "{\n"));
  ck_assert (g_str_has_suffix (text, "}\n"));
  ck_assert_msg (json_parser_load_from_data (parser, text, -1, &error), "%s\n%s",
                 error ? error->message : "", text);
  return json_node_copy (json_parser_get_root (parser));
}

/* Two read benchmarks of different capacities (x as a share of each), the
 * second with two failed points: every member, and the figures the
 * results were made with. */
START_TEST (test_transfer_pair)
{
  g_autoptr (DsResult) a = ds_test_library_transfer ("FUJITSU ETERNUS_DX400", UINT64_C (500) * 1000000000,
                                                     148.6e6, 166.4e6, 0.00594, "2012-10-19T02:10:00Z");
  g_autoptr (DsResult) b = ds_test_library_transfer ("FSC FC66RAID 5", UINT64_C (250) * 1000000000,
                                                     120e6, 180e6, 0.0031, "2012-10-19T04:10:00Z");
  const char *sources[] = { "dx440.json", "cx3.json" };
  DsResult *results[2] = { a, b };
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) back = NULL;
  g_autoptr (GError) error = NULL;
  DsTransferData *bd = b->data;
  JsonObject *root;
  JsonArray *rows, *curves, *points;
  JsonObject *min_row = NULL;

  g_array_index (bd->read.points, DsTransferPoint, 3).error = 5;
  g_array_index (bd->read.points, DsTransferPoint, 4).error = 5;
  cmp = ds_comparison_new (results, sources, 2, &error);
  ck_assert_msg (cmp != NULL, "%s", error ? error->message : "");

  node = ds_comparison_to_json (cmp);
  root = json_node_get_object (node);
  assert_document (cmp, root, "benchmark");
  ck_assert_str_eq (json_object_get_string_member (root, "x_axis"), "percent");

  rows = json_object_get_array_member (root, "rows");
  for (guint i = 0; i < json_array_get_length (rows); i++)
    if (strcmp (json_object_get_string_member (json_array_get_object_element (rows, i), "key"),
                "read.transfer_min") == 0)
      min_row = json_array_get_object_element (rows, i);
  ck_assert_ptr_nonnull (min_row);
  ck_assert_str_eq (json_object_get_string_member (min_row, "unit"), "bytes_per_s");
  ck_assert (json_object_get_boolean_member (min_row, "higher_is_better"));
  ck_assert_double_eq (json_array_get_double_element (json_object_get_array_member (min_row, "values"), 0),
                       148.6e6);
  ck_assert_double_eq (json_array_get_double_element (json_object_get_array_member (min_row, "values"), 1),
                       120e6);
  ck_assert_double_eq (json_array_get_double_element (json_object_get_array_member (min_row, "ratios"), 0),
                       120e6 / 148.6e6);
  ck_assert_int_eq (json_object_get_int_member (min_row, "best"), 0);

  /* One curve, "read": the access dots stay in the result files. */
  curves = json_object_get_array_member (root, "curves");
  ck_assert_uint_eq (json_array_get_length (curves), 1);
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (curves, 0), "key"), "read");
  points = json_object_get_array_member (
             json_array_get_object_element (json_object_get_array_member (
               json_array_get_object_element (curves, 0), "columns"), 1), "points");
  ck_assert_uint_eq (json_array_get_length (points), DS_BENCH_TRANSFER_POINTS);
  ck_assert (JSON_NODE_HOLDS_NULL (json_array_get_element (json_array_get_array_element (points, 3), 1)));
  ck_assert (JSON_NODE_HOLDS_VALUE (json_array_get_element (json_array_get_array_element (points, 5), 1)));

  /* Printed and read back: the same. */
  back = printed (cmp);
  ck_assert (json_node_equal (node, back));
}
END_TEST

/* What was not measured or is not known is null, not 0 or absent: a
 * value that is NaN or infinite, a ratio to a first value of 0, no best
 * column, a column without source, target, model or start; a curve
 * point's x; a mark is a number and a label where there is one.  Every
 * unit by its name, and a kind this build does not know as "?". */
START_TEST (test_nulls_marks_and_units)
{
  g_autoptr (DsResult) a = ds_test_library_transfer ("A", UINT64_C (1) << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_transfer ("B", UINT64_C (1) << 30, 2e8, 3e8, 0.002, "2020-01-02T00:00:00Z");
  DsResult *results[2] = { a, b };
  g_autoptr (DsComparison) cmp = ds_comparison_new (results, NULL, 2, NULL);
  g_autoptr (JsonNode) node = NULL;
  const DsCompareUnit units[] = {
    DS_COMPARE_RATE, DS_COMPARE_IOPS, DS_COMPARE_TIME, DS_COMPARE_PERCENT,
    DS_COMPARE_COUNT, DS_COMPARE_BYTES, DS_COMPARE_RATIO,
  };
  DsCompareColumn *col;
  DsCompareCurve *curve = NULL;
  DsCompareRow *row;
  JsonObject *root, *o;
  JsonArray *rows;

  ck_assert_ptr_nonnull (cmp);
  ck_assert_uint_ge (cmp->rows->len, G_N_ELEMENTS (units) + 3);
  ck_assert (!cmp->x_percent);

  col = cmp->columns->pdata[1];
  g_clear_pointer (&col->source, g_free);
  g_clear_pointer (&b->target.path, g_free);
  g_clear_pointer (&b->target.model, g_free);
  g_clear_pointer (&b->started_at, g_free);
  b->complete = FALSE;

  row = cmp->rows->pdata[0];
  row->values[0] = INFINITY;
  row->best = 1;
  row = cmp->rows->pdata[1];
  row->values[0] = 0;
  row->best = -1;
  row = cmp->rows->pdata[2];
  row->values[1] = NAN;
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    ((DsCompareRow *) cmp->rows->pdata[3 + u])->unit = units[u];

  for (guint i = 0; i < cmp->curves->len && curve == NULL; i++)
    if (!((DsCompareCurve *) cmp->curves->pdata[i])->dots)
      curve = cmp->curves->pdata[i];
  ck_assert_ptr_nonnull (curve);
  curve->mark_x[1] = 0.5;
  curve->mark_label[1] = g_strdup ("the knee");
  g_array_index (curve->points[0], DsCurveXY, 0).x = NAN;
  curve->x_unit = DS_COMPARE_COUNT;
  curve->y_unit = DS_COMPARE_IOPS;

  node = ds_comparison_to_json (cmp);
  root = json_node_get_object (node);
  assert_document (cmp, root, "benchmark");
  ck_assert_str_eq (json_object_get_string_member (root, "x_axis"), "bytes");

  o = json_array_get_object_element (json_object_get_array_member (root, "columns"), 1);
  ck_assert (json_object_get_null_member (o, "source"));
  ck_assert (json_object_get_null_member (o, "target"));
  ck_assert (json_object_get_null_member (o, "model"));
  ck_assert (json_object_get_null_member (o, "started_at"));
  ck_assert (!json_object_get_boolean_member (o, "complete"));
  o = json_array_get_object_element (json_object_get_array_member (root, "columns"), 0);
  ck_assert (JSON_NODE_HOLDS_VALUE (json_object_get_member (o, "target")));

  rows = json_object_get_array_member (root, "rows");
  o = json_array_get_object_element (rows, 0);
  ck_assert (JSON_NODE_HOLDS_NULL (json_array_get_element (json_object_get_array_member (o, "values"), 0)));
  ck_assert_int_eq (json_object_get_int_member (o, "best"), 1);
  o = json_array_get_object_element (rows, 1);
  ck_assert_double_eq (json_array_get_double_element (json_object_get_array_member (o, "values"), 0), 0);
  ck_assert (JSON_NODE_HOLDS_NULL (json_array_get_element (json_object_get_array_member (o, "ratios"), 0)));
  ck_assert (json_object_get_null_member (o, "best"));
  o = json_array_get_object_element (rows, 2);
  ck_assert (JSON_NODE_HOLDS_NULL (json_array_get_element (json_object_get_array_member (o, "values"), 1)));
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (rows, 3 + u), "unit"),
                      unit_name (units[u]));

  o = json_array_get_object_element (json_object_get_array_member (root, "curves"), 0);
  ck_assert_str_eq (json_object_get_string_member (o, "x_unit"), "count");
  ck_assert_str_eq (json_object_get_string_member (o, "y_unit"), "iops");
  {
    JsonArray *series = json_object_get_array_member (o, "columns");
    JsonObject *first = json_array_get_object_element (series, 0);
    JsonObject *second = json_array_get_object_element (series, 1);
    JsonArray *pair = json_array_get_array_element (json_object_get_array_member (first, "points"), 0);

    ck_assert (JSON_NODE_HOLDS_NULL (json_array_get_element (pair, 0)));
    ck_assert (JSON_NODE_HOLDS_VALUE (json_array_get_element (pair, 1)));
    ck_assert (json_object_get_null_member (first, "mark_x"));
    ck_assert (json_object_get_null_member (first, "mark"));
    ck_assert_double_eq (json_object_get_double_member (second, "mark_x"), 0.5);
    ck_assert_str_eq (json_object_get_string_member (second, "mark"), "the knee");
  }

  /* A kind this build does not know. */
  cmp->kind = DS_BENCH_N_KINDS;
  g_clear_pointer (&node, json_node_unref);
  node = ds_comparison_to_json (cmp);
  ck_assert_str_eq (json_object_get_string_member (json_node_get_object (node), "test"), "?");
}
END_TEST

/* Strings from files anyone may have written (labels, models, notes) and
 * the warnings: escaped in the text (quotes, backslashes, control
 * characters as \uXXXX, no raw control byte anywhere), valid JSON, and
 * read back exactly as they were.
 *
 * Not U+001F, nor bytes that are not UTF-8: this output is json-glib's
 * generator's, kept byte for byte (ds-json.h), and json-glib 1.6 writes
 * both as they are, which strict parsers refuse. */
START_TEST (test_escaping)
{
  const char *hostile = "say \"hi\" \\ C:\\dir\n\ttab \001\036 \033[2J </script> Ü€ \u2028 end";
  g_autoptr (DsResult) a = ds_test_library_workload ("A\033]0;x\007", DS_PATTERN_RANDREAD, 1e8, 1e-4,
                                                     "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("B", DS_PATTERN_RANDREAD, 2e8, 1e-4, "2020-01-02T00:00:00Z");
  const char *sources[] = { "a \"quoted\" source.json", hostile };
  DsResult *results[2] = { a, b };
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;
  JsonObject *root, *o;
  gboolean noted = FALSE;

  ck_assert (ds_annotation_set_label (&a->annotation, "=HYPERLINK(\"x\"), \"quoted\" \\ back", NULL));
  ds_result_add_note (b, "%s", hostile);
  cmp = ds_comparison_new (results, sources, 2, NULL);
  ck_assert_ptr_nonnull (cmp);
  g_ptr_array_add (cmp->warnings, g_strdup (hostile));

  text = ds_comparison_to_json_data (cmp);
  for (const char *p = text; *p != '\0'; p++)
    ck_assert_msg ((guchar) *p >= 0x20 || *p == '\n', "a raw control byte 0x%02x in the JSON", (guchar) *p);
  ck_assert (g_utf8_validate (text, -1, NULL));
  ck_assert_msg (strstr (text, "say \\\"hi\\\" \\\\ C:\\\\dir\\n\\ttab \\u0001\\u001e \\u001b[2J") != NULL,
                 "%s", text);

  node = printed (cmp);
  root = json_node_get_object (node);
  assert_document (cmp, root, "workload");
  o = json_array_get_object_element (json_object_get_array_member (root, "columns"), 0);
  ck_assert_str_eq (json_object_get_string_member (o, "label"), "=HYPERLINK(\"x\"), \"quoted\" \\ back");
  ck_assert_str_eq (json_object_get_string_member (o, "source"), "a \"quoted\" source.json");
  ck_assert_str_eq (json_object_get_string_member (o, "model"), "A\033]0;x\007");
  o = json_array_get_object_element (json_object_get_array_member (root, "columns"), 1);
  ck_assert_str_eq (json_object_get_string_member (o, "source"), hostile);
  ck_assert_str_eq (json_array_get_string_element (json_object_get_array_member (root, "warnings"), 0), hostile);
  {
    JsonArray *notes = json_object_get_array_member (root, "notes");
    g_autofree char *want = g_strdup_printf ("B: %s", hostile);

    for (guint i = 0; i < json_array_get_length (notes); i++)
      noted |= strcmp (json_array_get_string_element (notes, i), want) == 0;
  }
  ck_assert_msg (noted, "B's note is not in the notes as it was");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("compare-json");
  TCase *tc = tcase_create ("json");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_transfer_pair);
  tcase_add_test (tc, test_nulls_marks_and_units);
  tcase_add_test (tc, test_escaping);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
