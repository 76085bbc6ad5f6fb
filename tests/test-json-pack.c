/* test-json-pack.c: a result's long lists read into columns (ds-json-pack.c)
 * give what json-glib's tree gives, in the same words when they are wrong
 * (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 24: a result of 30 MB opens in under 1 s.  Every list of points
 * is read either packed or as json-glib read it; each test reads the same
 * text both ways and compares.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ds-bench-random-access.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* A document whose "access" list holds @n dots ({"offset_bytes",
 * "access_s"}), entry @odd replaced by @odd_text when not NULL, beside a
 * list of numbers ("row") and a list no reader packs ("other"). */
static char *
document (guint       n,
          guint       odd,
          const char *odd_text)
{
  GString *s = g_string_new ("{\"name\": \"a \\\"quoted\\\" [list]: of\", \"d\": {\n  \"access\": [");

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (s, ",\n    ");
      if (odd_text != NULL && i == odd)
        g_string_append (s, odd_text);
      else
        g_string_append_printf (s, "{\"offset_bytes\": %u, \"access_s\": %.9g, \"error\": null}",
                                i * 4096u, 1e-6 * (i + 1));
    }
  g_string_append (s, "],\n  \"row\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? ", " : "", i % 5);
  g_string_append (s, "],\n  \"other\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? ", " : "", i);
  g_string_append (s, "]}}\n");
  return g_string_free (s, FALSE);
}

typedef struct {
  JsonParser *parser;
  DsJsonPack *pack;
  GString    *packed;
  JsonObject *d;
} Doc;

/* @text parsed as the loader does, packed or not. */
static void
doc_open (Doc        *doc,
          const char *text,
          gboolean    pack)
{
  g_autoptr (GError) error = NULL;
  const char *data = text;
  gsize length = strlen (text);

  *doc = (Doc) { 0 };
  if (pack)
    doc->pack = ds_json_pack (text, length, &doc->packed);
  if (doc->packed != NULL)
    {
      data = doc->packed->str;
      length = doc->packed->len;
    }
  doc->parser = json_parser_new_immutable ();
  ck_assert_msg (json_parser_load_from_data (doc->parser, data, (gssize) length, &error),
                 "%s", error ? error->message : "");
  doc->d = json_object_get_object_member (json_node_get_object (json_parser_get_root (doc->parser)), "d");
  ds_json_pack_set_current (doc->pack);
}

static void
doc_close (Doc *doc)
{
  ds_json_pack_set_current (NULL);
  g_object_unref (doc->parser);
  ds_json_pack_free (doc->pack);
  if (doc->packed != NULL)
    g_string_free (doc->packed, TRUE);
}

/* Long lists of numbers and of flat objects are packed, the document
 * json-glib gets is a fraction of the text, and every value reads the
 * same as from the tree. */
START_TEST (test_packed_equals_tree)
{
  g_autofree char *text = document (5000, 0, NULL);
  Doc tree, packed;
  DsJsonList ta, pa, tr, pr, po;

  doc_open (&tree, text, FALSE);
  doc_open (&packed, text, TRUE);
  ck_assert_ptr_nonnull (packed.pack);
  /* "other" (5000 numbers) stays; "access" and "row" go. */
  ck_assert_uint_lt (packed.packed->len, strlen (text) / 4);

  ds_json_pack_set_current (NULL);
  ck_assert (ds_json_get_list (tree.d, "d", "access", &ta, NULL));
  ck_assert (ds_json_get_list (tree.d, "d", "row", &tr, NULL));
  ck_assert_ptr_nonnull (ta.array);
  ds_json_pack_set_current (packed.pack);
  ck_assert (ds_json_get_list (packed.d, "d", "access", &pa, NULL));
  ck_assert (ds_json_get_list (packed.d, "d", "row", &pr, NULL));
  ck_assert (ds_json_get_list (packed.d, "d", "other", &po, NULL));
  ck_assert_ptr_nonnull (pa.table);
  ck_assert_ptr_nonnull (pr.table);
  ck_assert_ptr_nonnull (po.array);
  ck_assert_uint_eq (ds_json_list_get_length (&pa), 5000);
  ck_assert_uint_eq (ds_json_list_get_length (&ta), 5000);
  ck_assert_uint_eq (ds_json_list_get_length (&pr), 5000);

  for (guint i = 0; i < 5000; i++)
    {
      uint64_t to = 0, po_ = 0;
      double ts = 0, ps = 0;
      gint64 tv = -1, pv = -2;

      ds_json_pack_set_current (NULL);
      ck_assert (ds_json_list_get_uint64 (&ta, i, "d.access", "offset_bytes", G_MAXINT64, &to, NULL));
      ck_assert (ds_json_list_get_double (&ta, i, "d.access", "access_s", 0, 1, &ts, NULL));
      ck_assert (ds_json_list_int (&tr, i, &tv));
      ck_assert_ptr_null (ds_json_list_get_object (&ta, i, "error"));
      ds_json_pack_set_current (packed.pack);
      ck_assert (ds_json_list_get_uint64 (&pa, i, "d.access", "offset_bytes", G_MAXINT64, &po_, NULL));
      ck_assert (ds_json_list_get_double (&pa, i, "d.access", "access_s", 0, 1, &ps, NULL));
      ck_assert (ds_json_list_int (&pr, i, &pv));
      ck_assert_ptr_null (ds_json_list_get_object (&pa, i, "error"));
      ck_assert_uint_eq (to, po_);
      ck_assert_uint_eq (to, (uint64_t) i * 4096);
      ck_assert (ts == ps);
      ck_assert_int_eq (tv, pv);
    }
  /* A list of numbers has no members, a list of objects no numbers. */
  ck_assert (!ds_json_list_int (&pa, 0, &(gint64) { 0 }));

  doc_close (&packed);
  doc_close (&tree);
}
END_TEST

/* An entry that is wrong says so in the words the tree's reader uses,
 * packed or not. */
START_TEST (test_same_messages)
{
  static const struct {
    const char *entry;
    gboolean    packs;     /* the list is still packed with it */
  } cases[] = {
    { "{\"offset_bytes\": -4096, \"access_s\": 1e-3}", TRUE },
    { "{\"offset_bytes\": 4096.5, \"access_s\": 1e-3}", TRUE },
    { "{\"offset_bytes\": 4096, \"access_s\": 7200}", TRUE },
    { "{\"offset_bytes\": 4096, \"access_s\": null}", TRUE },
    { "{\"offset_bytes\": 4096}", TRUE },
    { "{\"offset_bytes\": \"4096\", \"access_s\": 1e-3}", FALSE },
    { "{\"offset_bytes\": 4096, \"access_s\": [1]}", FALSE },
    { "{}", FALSE },
    { "17", FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *text = document (400, 333, cases[c].entry);
      g_autoptr (GError) tree_error = NULL;
      g_autoptr (GError) packed_error = NULL;
      Doc tree, packed;
      DsJsonList tl, pl;
      gboolean tree_ok = TRUE, packed_ok = TRUE;

      doc_open (&tree, text, FALSE);
      ds_json_pack_set_current (NULL);
      ck_assert (ds_json_get_list (tree.d, "d", "access", &tl, NULL));
      for (guint i = 0; tree_ok && i < 400; i++)
        {
          uint64_t o;
          double s;

          tree_ok = ds_json_list_get_uint64 (&tl, i, "d.access", "offset_bytes", G_MAXINT64, &o, &tree_error) &&
                    ds_json_list_get_double (&tl, i, "d.access", "access_s", 0, 3600, &s, &tree_error);
        }

      doc_open (&packed, text, TRUE);
      ck_assert (ds_json_get_list (packed.d, "d", "access", &pl, NULL));
      ck_assert_msg ((pl.table != NULL) == cases[c].packs, "%s: packed %d", cases[c].entry, pl.table != NULL);
      for (guint i = 0; packed_ok && i < 400; i++)
        {
          uint64_t o;
          double s;

          packed_ok = ds_json_list_get_uint64 (&pl, i, "d.access", "offset_bytes", G_MAXINT64, &o, &packed_error) &&
                      ds_json_list_get_double (&pl, i, "d.access", "access_s", 0, 3600, &s, &packed_error);
        }

      ck_assert_msg (!tree_ok, "%s was taken", cases[c].entry);
      ck_assert (!packed_ok);
      ds_test_note ("%s: %s", cases[c].entry, packed_error->message);
      ck_assert_str_eq (packed_error->message, tree_error->message);
      ck_assert_ptr_nonnull (strstr (packed_error->message, "d.access[333]"));
      doc_close (&packed);
      doc_close (&tree);
    }
}
END_TEST

/* An entry with a member the first did not have, or one twice, is not
 * packed: the list reads as json-glib reads it. */
START_TEST (test_odd_members_not_packed)
{
  static const char *const entries[] = {
    "{\"offset_bytes\": 4096, \"access_s\": 1e-3, \"new\": 1}",
    "{\"offset_bytes\": 4096, \"access_s\": 1e-3, \"offset_bytes\": 8192}",
    "{\"offset_\\u0062ytes\": 4096, \"access_s\": 1e-3}",
  };

  for (guint c = 0; c < G_N_ELEMENTS (entries); c++)
    {
      g_autofree char *text = document (400, 333, entries[c]);
      Doc packed;
      DsJsonList list;
      uint64_t o = 0;

      doc_open (&packed, text, TRUE);
      ck_assert (ds_json_get_list (packed.d, "d", "access", &list, NULL));
      ck_assert_ptr_null (list.table);
      ck_assert (ds_json_list_get_uint64 (&list, 333, "d.access", "offset_bytes", G_MAXINT64, &o, NULL));
      ck_assert_uint_eq (o, c == 1 ? 8192 : 4096);
      doc_close (&packed);
    }
}
END_TEST

/* Numbers as json-glib reads them: integers stay integers (to 2^63 - 1),
 * a fraction or an exponent makes a double, and what JSON does not allow
 * (or json-glib would wrap) is left to json-glib. */
START_TEST (test_numbers)
{
  static const struct {
    const char *number;
    gboolean    packs;
    gboolean    is_int;
    gint64      value;
  } cases[] = {
    { "9223372036854775807", TRUE, TRUE, G_MAXINT64 },
    { "-0", TRUE, TRUE, 0 },
    { "1e3", TRUE, FALSE, 1000 },
    { "2.5E-3", TRUE, FALSE, 2.5e-3 },
    { "9223372036854775808", FALSE, FALSE, 0 },
    { "01", FALSE, FALSE, 0 },
    { "1.", FALSE, FALSE, 0 },
    { ".5", FALSE, FALSE, 0 },
    { "+1", FALSE, FALSE, 0 },
    { "true", FALSE, FALSE, 0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      GString *text = g_string_new ("{\"row\": [");
      g_autoptr (GString) packed = NULL;
      g_autoptr (DsJsonPack) pack = NULL;

      for (guint i = 0; i < 300; i++)
        g_string_append_printf (text, "%s%s", i > 0 ? "," : "", i == 150 ? cases[c].number : "1");
      g_string_append (text, "]}");
      pack = ds_json_pack (text->str, text->len, &packed);
      ck_assert_msg ((pack != NULL) == cases[c].packs, "%s", cases[c].number);
      if (pack != NULL)
        {
          g_autoptr (JsonParser) parser = json_parser_new ();
          DsJsonList list;
          gint64 v = 0;

          ck_assert (json_parser_load_from_data (parser, packed->str, (gssize) packed->len, NULL));
          ds_json_pack_set_current (pack);
          ck_assert (ds_json_get_list (json_node_get_object (json_parser_get_root (parser)),
                                       "", "row", &list, NULL));
          ck_assert_ptr_nonnull (list.table);
          ck_assert_int_eq (ds_json_list_int (&list, 150, &v), cases[c].is_int);
          if (cases[c].is_int)
            ck_assert (v == cases[c].value);
          ds_json_pack_set_current (NULL);
        }
      g_string_free (text, TRUE);
    }
}
END_TEST

/* A file cannot name a packed list: a marker with another load's nonce,
 * or none loading, stays the string it is. */
START_TEST (test_forged_marker)
{
  g_autofree char *text = document (300, 0, NULL);
  const char *forged = "{\"d\": {\"access\": [\"\\u0001ds-pack 0000000000000000 0\"]}}";
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) packed = NULL;
  g_autoptr (DsJsonPack) pack = ds_json_pack (text, strlen (text), &packed);
  JsonObject *d;
  DsJsonList list;
  uint64_t o;

  ck_assert_ptr_nonnull (pack);
  ck_assert (json_parser_load_from_data (parser, forged, -1, NULL));
  d = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "d");
  ds_json_pack_set_current (pack);
  ck_assert (ds_json_get_list (d, "d", "access", &list, NULL));
  ck_assert_ptr_null (list.table);
  ck_assert_uint_eq (ds_json_list_get_length (&list), 1);
  ck_assert (!ds_json_list_get_uint64 (&list, 0, "d.access", "offset_bytes", G_MAXINT64, &o, &error));
  ck_assert_str_eq (error->message, "d.access[0] is not an object");
  ds_json_pack_set_current (NULL);
}
END_TEST

/* Reads every dot of "access" and every number of "row" in @text, packed
 * or not: what was read (and the first message) as text to compare. */
static char *
read_all (const char *text,
          gboolean    pack)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GString) packed = NULL;
  g_autoptr (DsJsonPack) p = NULL;
  g_autoptr (GError) error = NULL;
  GString *out = g_string_new (NULL);
  const char *data = text;
  gsize length = strlen (text);
  JsonNode *root;
  JsonObject *d;
  DsJsonList access, row;

  if (!ds_json_check_bounds (data, length, NULL))
    return g_string_free (out, FALSE);
  if (pack)
    p = ds_json_pack (text, length, &packed);
  if (packed != NULL)
    data = packed->str, length = packed->len;
  if (!json_parser_load_from_data (parser, data, (gssize) length, NULL))
    {
      g_string_append (out, "not JSON");
      return g_string_free (out, FALSE);
    }
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (d = ds_json_get_object (json_node_get_object (root), "", "d", NULL)) == NULL)
    return g_string_free (out, FALSE);
  ds_json_pack_set_current (p);
  if (ds_json_get_list (d, "d", "access", &access, &error))
    for (guint i = 0; i < ds_json_list_get_length (&access); i++)
      {
        uint64_t o = 0;
        double a = 0;

        if (!ds_json_list_get_uint64 (&access, i, "d.access", "offset_bytes", G_MAXINT64, &o, &error) ||
            !ds_json_list_get_double (&access, i, "d.access", "access_s", 0, 3600, &a, &error))
          break;
        g_string_append_printf (out, "%" G_GUINT64_FORMAT " %.17g%s,", o, a,
                                ds_json_list_get_object (&access, i, "error") != NULL ? " E" : "");
      }
  if (error != NULL)
    g_string_append_printf (out, "[%s]", error->message);
  g_clear_error (&error);
  if (ds_json_get_list (d, "d", "row", &row, &error))
    for (guint i = 0; i < ds_json_list_get_length (&row); i++)
      {
        gint64 v = 0;

        g_string_append_printf (out, ds_json_list_int (&row, i, &v) ? "%" G_GINT64_FORMAT "," : "x,", v);
      }
  if (error != NULL)
    g_string_append_printf (out, "[%s]", error->message);
  ds_json_pack_set_current (NULL);
  return g_string_free (out, FALSE);
}

/* The same text with a few bytes changed at random, 1 500 times: packed
 * or not, what is read (or said to be wrong) is the same, and nothing
 * reads out of bounds (the suite runs under ASan too). */
START_TEST (test_mutations_agree)
{
  g_autofree char *base = document (260, 1000, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (2024);
  static const char alphabet[] = "0123456789-+.eE\"{}[],: nul";
  gsize length = strlen (base);

  for (guint n = 0; n < 1500; n++)
    {
      g_autofree char *text = g_strdup (base);
      g_autofree char *tree = NULL;
      g_autofree char *packed = NULL;
      guint changes = 1 + g_rand_int_range (rand, 0, 3);

      for (guint k = 0; k < changes; k++)
        text[g_rand_int_range (rand, 0, (gint32) length)] =
          alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      tree = read_all (text, FALSE);
      packed = read_all (text, TRUE);
      ck_assert_msg (strcmp (tree, packed) == 0, "mutation %u differs:\n%.300s\n%.300s", n, tree, packed);
    }
}
END_TEST

static void
assert_same_points (const DsRandomAccessDir *a,
                    const DsRandomAccessDir *b)
{
  ck_assert_uint_eq (a->points->len, b->points->len);
  for (guint i = 0; i < a->points->len; i++)
    {
      const DsRandomAccessPoint *p = &g_array_index (a->points, DsRandomAccessPoint, i);
      const DsRandomAccessPoint *q = &g_array_index (b->points, DsRandomAccessPoint, i);

      ck_assert_uint_eq (p->row, q->row);
      ck_assert_uint_eq (p->offset_bytes, q->offset_bytes);
      ck_assert_uint_eq (p->transfer_bytes, q->transfer_bytes);
      ck_assert_msg (fabs (p->access_s - q->access_s) <= 1e-9, "%u: %g %g", i, p->access_s, q->access_s);
    }
}

/* A random access result at its bound (100 000 points a direction), saved
 * and loaded again, in today's parallel lists and in the older one object
 * a point: every point comes back. */
START_TEST (test_random_access_result)
{
  g_autoptr (DsResult) result = ds_test_random_access_result (FALSE);
  DsRandomAccessData *d = result->data;
  g_autofree char *text = NULL;
  g_autofree char *old_text = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (DsResult) old = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  JsonObject *read;
  JsonArray *objects;
  g_autoptr (GRand) rand = g_rand_new_with_seed (24);
  DsRandomAccessPoint *p;

  g_array_set_size (d->read.points, 0);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS * DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW; i++)
    {
      DsRandomAccessPoint point = {
        .row = i % DS_RANDOM_ACCESS_N_ROWS,
        .offset_bytes = (uint64_t) g_rand_int_range (rand, 0, 1 << 30) * 512,
        .transfer_bytes = 512u << (i % DS_RANDOM_ACCESS_N_ROWS),
        .access_s = (double) g_rand_int_range (rand, 1000, 100000000) / 1e9,
      };
      g_array_append_val (d->read.points, point);
    }
  text = ds_result_to_data (result, &length);
  ds_test_note ("a random access result of %u points: %.1f MB", d->read.points->len, length / 1e6);
  loaded = ds_result_load_data (text, (gssize) length, &error);
  ck_assert_msg (loaded != NULL, "%s", error ? error->message : "");
  assert_same_points (&d->read, &((DsRandomAccessData *) loaded->data)->read);

  /* The older form, as results saved before the parallel lists hold it. */
  ck_assert (json_parser_load_from_data (parser, text, (gssize) length, NULL));
  read = json_object_get_object_member (json_object_get_object_member (
           json_node_get_object (json_parser_get_root (parser)), "results"), "read");
  objects = json_array_new ();
  for (guint i = 0; i < d->read.points->len; i++)
    {
      JsonObject *o = json_object_new ();

      p = &g_array_index (d->read.points, DsRandomAccessPoint, i);
      json_object_set_int_member (o, "row", p->row);
      json_object_set_int_member (o, "offset_bytes", (gint64) p->offset_bytes);
      json_object_set_int_member (o, "transfer_bytes", p->transfer_bytes);
      json_object_set_double_member (o, "access_s", p->access_s);
      json_array_add_object_element (objects, o);
    }
  json_object_set_array_member (read, "points", objects);
  json_generator_set_root (generator, json_parser_get_root (parser));
  json_generator_set_pretty (generator, TRUE);
  old_text = json_generator_to_data (generator, &length);
  ds_test_note ("the same in one object a point: %.1f MB", length / 1e6);
  old = ds_result_load_data (old_text, (gssize) length, &error);
  ck_assert_msg (old != NULL, "%s", error ? error->message : "");
  assert_same_points (&d->read, &((DsRandomAccessData *) old->data)->read);
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("json-pack");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_packed_equals_tree);
  tcase_add_test (tc, test_same_messages);
  tcase_add_test (tc, test_odd_members_not_packed);
  tcase_add_test (tc, test_numbers);
  tcase_add_test (tc, test_forged_marker);
  tcase_add_test (tc, test_mutations_agree);
  tcase_add_test (tc, test_random_access_result);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
