/* test-json-write.c: the JSON writer under every result file
 * (core/base/ds-json-write.c)
 *
 * Unit suite: no root, no device, no file.  What ds-json.h promises of
 * ds_json_to_text(): json-glib's layout (two-space indent, "key" : value,
 * members in the order they were set, a list of plain values on one
 * line), every kind of node, integers to 64 bits, doubles as
 * ds_json_format_double() writes them and NaN and the infinities as null,
 * strings escaped byte for byte as it says (C0, DEL, C1, U+2028/9; bytes
 * that are not UTF-8 as the text \xNN), and json-glib reading back the
 * same tree.  The shortest-digits table and a random round trip of
 * ds_json_format_double() are test-result-json.c's; here its steps (15,
 * 16, 17 digits) and the locale.  And the node helpers' references.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "ds-json.h"
#include "ds-test-util.h"

/* @node as ds_json_to_text() writes it; the length it says is the text's. */
static char *
to_text (JsonNode *node)
{
  gsize length = 0;
  char *text = ds_json_to_text (node, &length);

  ck_assert_uint_eq (length, strlen (text));
  return text;
}

/* A string member @s of one object, as written: the text between
 * "\"s\" : " and the line's end. */
static char *
written_string (const char *s)
{
  JsonObject *o = json_object_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_object (o);
  g_autofree char *text = NULL;
  const char *start, *end;

  json_object_set_string_member (o, "s", s);
  text = to_text (node);
  start = strstr (text, "\"s\" : ");
  ck_assert_ptr_nonnull (start);
  start += strlen ("\"s\" : ");
  end = strchr (start, '\n');
  ck_assert_ptr_nonnull (end);
  return g_strndup (start, end - start);
}

/* ---- layout ------------------------------------------------------------- */

START_TEST (test_layout)
{
  JsonObject *o = json_object_new ();
  JsonObject *inner = json_object_new ();
  JsonArray *plain = json_array_new ();
  JsonArray *objects = json_array_new ();
  JsonArray *lists = json_array_new ();
  JsonArray *one = json_array_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_object (o);
  g_autofree char *text = NULL;

  /* Not in alphabetical order: the order they are set in stays. */
  json_object_set_string_member (o, "zeta", "z");
  json_object_set_int_member (o, "alpha", 3);
  json_object_set_double_member (o, "d", 1.0);
  json_object_set_boolean_member (o, "yes", TRUE);
  json_object_set_boolean_member (o, "no", FALSE);
  json_object_set_null_member (o, "none");
  json_array_add_int_element (plain, 1);
  json_array_add_double_element (plain, 2.5);
  json_array_add_string_element (plain, "s");
  json_array_add_null_element (plain);
  json_array_add_boolean_element (plain, FALSE);
  json_object_set_array_member (o, "plain", plain);
  json_object_set_int_member (inner, "a", -1);
  json_array_add_object_element (objects, inner);
  json_array_add_object_element (objects, json_object_new ());
  json_object_set_array_member (o, "objects", objects);
  json_array_add_int_element (one, 7);
  json_array_add_array_element (lists, one);
  json_array_add_array_element (lists, json_array_new ());
  json_object_set_array_member (o, "lists", lists);
  json_object_set_array_member (o, "empty", json_array_new ());
  json_object_set_object_member (o, "empty_object", json_object_new ());

  text = to_text (node);
  ck_assert_str_eq (text,
                    "{\n"
                    "  \"zeta\" : \"z\",\n"
                    "  \"alpha\" : 3,\n"
                    "  \"d\" : 1.0,\n"
                    "  \"yes\" : true,\n"
                    "  \"no\" : false,\n"
                    "  \"none\" : null,\n"
                    "  \"plain\" : [1,2.5,\"s\",null,false],\n"
                    "  \"objects\" : [\n"
                    "    {\n"
                    "      \"a\" : -1\n"
                    "    },\n"
                    "    {}\n"
                    "  ],\n"
                    "  \"lists\" : [\n"
                    "    [7],\n"
                    "    []\n"
                    "  ],\n"
                    "  \"empty\" : [],\n"
                    "  \"empty_object\" : {}\n"
                    "}\n");
}
END_TEST

/* Any node at the top, and none. */
START_TEST (test_top_level)
{
  g_autoptr (JsonNode) number = json_node_new (JSON_NODE_VALUE);
  g_autoptr (JsonNode) string = json_node_new (JSON_NODE_VALUE);
  g_autoptr (JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr (JsonNode) list = ds_json_node_take_array (json_array_new ());
  g_autoptr (JsonNode) object = ds_json_node_take_object (json_object_new ());
  g_autofree char *t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL, *t5 = NULL, *t6 = NULL;

  json_node_set_int (number, 5);
  json_node_set_string (string, "x\n");
  ck_assert_str_eq ((t1 = to_text (number)), "5\n");
  ck_assert_str_eq ((t2 = to_text (string)), "\"x\\n\"\n");
  ck_assert_str_eq ((t3 = to_text (null)), "null\n");
  ck_assert_str_eq ((t4 = to_text (list)), "[]\n");
  ck_assert_str_eq ((t5 = to_text (object)), "{}\n");
  /* No node at all, and no length asked for. */
  ck_assert_str_eq ((t6 = ds_json_to_text (NULL, NULL)), "null\n");
}
END_TEST

/* ---- numbers ------------------------------------------------------------ */

START_TEST (test_integers)
{
  JsonArray *a = json_array_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_array (a);
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) back = NULL;
  JsonArray *b;

  json_array_add_int_element (a, G_MININT64);
  json_array_add_int_element (a, G_MAXINT64);
  json_array_add_int_element (a, 0);
  json_array_add_int_element (a, -1);
  text = to_text (node);
  ck_assert_str_eq (text, "[-9223372036854775808,9223372036854775807,0,-1]\n");
  back = json_from_string (text, NULL);
  b = json_node_get_array (back);
  for (guint i = 0; i < 4; i++)
    {
      ck_assert (json_node_get_value_type (json_array_get_element (b, i)) == G_TYPE_INT64);
      ck_assert_int_eq (json_array_get_int_element (b, i), json_array_get_int_element (a, i));
    }
}
END_TEST

START_TEST (test_doubles)
{
  /* The header's examples, and each step of the search for the shortest
   * text: 15 digits (0.2), 16 (1/3), 17 (0.1 + 0.2). */
  static const struct { double v; const char *text; } cases[] = {
    { 0.2, "0.2" }, { 1.0, "1.0" }, { -0.0, "-0.0" }, { 1e-14, "1e-14" },
    { 1.8e19, "1.8e+19" }, { -1.0, "-1.0" }, { 1.5e300, "1.5e+300" },
    { 1.0 / 3, "0.3333333333333333" }, { 0.1 + 0.2, "0.30000000000000004" },
    { DBL_MAX, "1.7976931348623157e+308" }, { -DBL_MIN, "-2.2250738585072014e-308" },
    { 100.0, "100.0" }, { 1e15, "1e+15" }, { 123456789012345.0, "123456789012345.0" },
  };
  char buf[DS_JSON_DOUBLE_BUF];
  JsonArray *a = json_array_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_array (a);
  g_autoptr (GString) want = g_string_new ("[");
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) back = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      memset (buf, 'X', sizeof buf);
      ck_assert (ds_json_format_double (cases[i].v, buf));
      ck_assert_str_eq (buf, cases[i].text);
      json_array_add_double_element (a, cases[i].v);
      g_string_append_printf (want, "%s%s", i > 0 ? "," : "", cases[i].text);
    }

  /* In a tree: the same text; read back, the same doubles, as doubles. */
  g_string_append (want, "]\n");
  text = to_text (node);
  ck_assert_str_eq (text, want->str);
  back = json_from_string (text, NULL);
  ck_assert_ptr_nonnull (back);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      JsonNode *n = json_array_get_element (json_node_get_array (back), i);
      double v = json_node_get_double (n);

      ck_assert (json_node_get_value_type (n) == G_TYPE_DOUBLE);
      ck_assert_msg (memcmp (&v, &cases[i].v, sizeof v) == 0, "%s read back as %.17g", cases[i].text, v);
    }

  /* The smallest subnormal: the header's example says "5e-324", but 15
   * digits already read back, so it is written "4.94065645841247e-324"
   * (not the shortest; still the same double, and a double). */
  ck_assert (ds_json_format_double (5e-324, buf));
  ck_assert_str_eq (buf, "4.94065645841247e-324");
  ck_assert (g_ascii_strtod (buf, NULL) == 5e-324);
}
END_TEST

/* JSON has no NaN or infinity: "null", FALSE; in a tree, null. */
START_TEST (test_not_finite)
{
  static const double bad[] = { NAN, -NAN, INFINITY, -INFINITY };
  char buf[DS_JSON_DOUBLE_BUF];
  JsonObject *o = json_object_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_object (o);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) back = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      memset (buf, 'X', sizeof buf);
      ck_assert (!ds_json_format_double (bad[i], buf));
      ck_assert_str_eq (buf, "null");
    }

  json_object_set_double_member (o, "nan", NAN);
  json_object_set_double_member (o, "inf", INFINITY);
  json_object_set_double_member (o, "minus_inf", -INFINITY);
  text = to_text (node);
  ck_assert_str_eq (text, "{\n  \"nan\" : null,\n  \"inf\" : null,\n  \"minus_inf\" : null\n}\n");
  back = json_from_string (text, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert (json_object_get_null_member (json_node_get_object (back), "inf"));
}
END_TEST

/* A '.' whatever the locale says (Russian writes 0,5). */
START_TEST (test_locale)
{
  char buf[DS_JSON_DOUBLE_BUF];
  JsonArray *a = json_array_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_array (a);
  g_autofree char *text = NULL;

  if (setlocale (LC_ALL, "ru_RU.UTF-8") == NULL && setlocale (LC_ALL, "ru_RU.utf8") == NULL)
    {
      ds_test_note ("no ru_RU locale here: the decimal comma is not tried");
      return;
    }
  ck_assert (ds_json_format_double (0.5, buf));
  ck_assert_str_eq (buf, "0.5");
  json_array_add_double_element (a, 1234.5);
  json_array_add_double_element (a, 1e-14);
  text = to_text (node);
  ck_assert_str_eq (text, "[1234.5,1e-14]\n");
  setlocale (LC_ALL, "C.UTF-8");
}
END_TEST

/* ---- strings ------------------------------------------------------------ */

START_TEST (test_escapes)
{
  static const struct { const char *in; const char *out; } cases[] = {
    { "plain", "\"plain\"" },
    { "\"\\/", "\"\\\"\\\\/\"" },
    { "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
    /* The other C0 controls, ESC among them. */
    { "\001\037\033[31m", "\"\\u0001\\u001f\\u001b[31m\"" },
    /* DEL, the C1 controls and the separators; the characters next to them
     * stay. */
    { "\177", "\"\\u007f\"" },
    { "\xc2\x80\xc2\x85\xc2\x9f", "\"\\u0080\\u0085\\u009f\"" },
    { "\xc2\xa0~", "\"\xc2\xa0~\"" },
    { "\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"" },
    { "\xe2\x80\xa7\xe2\x80\xaa", "\"\xe2\x80\xa7\xe2\x80\xaa\"" },
    /* UTF-8 of every length stays as it is. */
    { "Диск 磁盘 \xf0\x9f\x92\xbe", "\"Диск 磁盘 \xf0\x9f\x92\xbe\"" },
    /* Not UTF-8: each byte as the text \xNN (a backslash, escaped, then
     * "xNN"), what follows still read as UTF-8. */
    { "caf\xe9", "\"caf\\\\xE9\"" },
    { "\xff\xfe", "\"\\\\xFF\\\\xFE\"" },
    { "cut \xe2\x82", "\"cut \\\\xE2\\\\x82\"" },
    { "\xc0\xaf overlong", "\"\\\\xC0\\\\xAF overlong\"" },
    { "\xed\xa0\x80 surrogate", "\"\\\\xED\\\\xA0\\\\x80 surrogate\"" },
    { "\x80\n\xc3\xa9", "\"\\\\x80\\n\xc3\xa9\"" },
    { "", "\"\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = written_string (cases[i].in);

      ck_assert_msg (strcmp (got, cases[i].out) == 0, "case %u: %s, expected %s", i, got, cases[i].out);
    }
}
END_TEST

/* Member names are strings too. */
START_TEST (test_keys)
{
  JsonObject *o = json_object_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_object (o);
  g_autofree char *text = NULL;

  json_object_set_int_member (o, "a\"b\n\033\xff", 1);
  text = to_text (node);
  ck_assert_str_eq (text, "{\n  \"a\\\"b\\n\\u001b\\\\xFF\" : 1\n}\n");
}
END_TEST

/* ---- read back ---------------------------------------------------------- */

/* A tree of every kind of node, nested; json-glib reads the text back as
 * the same tree, and writing that gives the same text. */
static JsonNode *
sample_tree (guint depth,
             GRand *rand)
{
  JsonObject *o = json_object_new ();
  JsonArray *values = json_array_new ();
  JsonArray *children = json_array_new ();
  char name[32];

  for (guint i = 0; i < 20; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double d;
      char bytes[16];

      memcpy (&d, &bits, sizeof d);
      if (isfinite (d))
        json_array_add_double_element (values, d);
      json_array_add_int_element (values, (gint64) bits);
      /* Random UTF-8 text (controls included). */
      for (guint k = 0; k < sizeof bytes - 1; k++)
        bytes[k] = (char) g_rand_int_range (rand, 1, 128);
      bytes[sizeof bytes - 1] = '\0';
      json_array_add_string_element (values, bytes);
    }
  json_object_set_array_member (o, "values", values);
  json_object_set_boolean_member (o, "flag", depth % 2 == 0);
  json_object_set_null_member (o, "nothing");
  g_snprintf (name, sizeof name, "depth %u \t\"", depth);
  json_object_set_string_member (o, name, "named");
  if (depth > 0)
    for (guint i = 0; i < 3; i++)
      json_array_add_element (children, sample_tree (depth - 1, rand));
  json_object_set_array_member (o, "children", children);

  return ds_json_node_take_object (o);
}

START_TEST (test_round_trip)
{
  GRand *rand = g_rand_new_with_seed (22);
  g_autoptr (JsonNode) tree = sample_tree (4, rand);
  g_autofree char *text = to_text (tree);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) back = json_from_string (text, &error);
  g_autofree char *again = NULL;

  g_rand_free (rand);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p != '\0'; p++)
    ck_assert_msg ((guchar) *p >= 0x20 || *p == '\n', "a raw 0x%02x", (guchar) *p);
  /* The same tree: json_node_equal() compares doubles and integers by
   * value and type. */
  ck_assert (json_node_equal (tree, back));
  again = to_text (back);
  ck_assert_str_eq (again, text);
}
END_TEST

/* ---- the node helpers, and json-glib's own text ------------------------- */

/* The node takes the caller's reference: one more of the caller's keeps
 * the object alive after the node is gone, and that one is the last
 * (LeakSanitizer, under --sanitize, sees a reference too many). */
START_TEST (test_take)
{
  JsonObject *o = json_object_new ();
  JsonArray *a = json_array_new ();
  JsonNode *on = ds_json_node_take_object (o);
  JsonNode *an = ds_json_node_take_array (a);

  ck_assert (JSON_NODE_HOLDS_OBJECT (on));
  ck_assert_ptr_eq (json_node_get_object (on), o);
  ck_assert (JSON_NODE_HOLDS_ARRAY (an));
  ck_assert_ptr_eq (json_node_get_array (an), a);

  json_object_ref (o);
  json_array_ref (a);
  json_node_unref (on);
  json_node_unref (an);
  json_object_set_int_member (o, "still", 1);
  json_array_add_int_element (a, 1);
  ck_assert_int_eq (json_object_get_int_member (o, "still"), 1);
  ck_assert_uint_eq (json_array_get_length (a), 1);
  json_object_unref (o);
  json_array_unref (a);
}
END_TEST

START_TEST (test_generator_text)
{
  JsonObject *o = json_object_new ();
  g_autoptr (JsonNode) node = ds_json_node_take_object (o);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *theirs = NULL;
  g_autofree char *text = NULL;

  json_object_set_int_member (o, "n", 3);
  json_object_set_string_member (o, "s", "x");
  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  theirs = json_generator_to_data (gen, NULL);
  text = ds_json_to_generator_text (node);
  ck_assert (g_str_has_suffix (text, "}\n"));
  ck_assert_uint_eq (strlen (text), strlen (theirs) + 1);
  ck_assert (strncmp (text, theirs, strlen (theirs)) == 0);
  ck_assert_str_eq (text, "{\n  \"n\" : 3,\n  \"s\" : \"x\"\n}\n");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("json-write");
  TCase *tc = tcase_create ("writer");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_top_level);
  tcase_add_test (tc, test_integers);
  tcase_add_test (tc, test_doubles);
  tcase_add_test (tc, test_not_finite);
  tcase_add_test (tc, test_locale);
  tcase_add_test (tc, test_escapes);
  tcase_add_test (tc, test_keys);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_take);
  tcase_add_test (tc, test_generator_text);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
