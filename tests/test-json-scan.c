/* test-json-scan.c: the bounds a JSON text is held to before json-glib
 * parses it (core/base/ds-json-scan.c)
 *
 * Unit suite: no root, no device, no file.  Every bound of ds-json.h's
 * ds_json_check_bounds() at its cap (accepted) and one past it (refused,
 * the message naming the list as a path and the cap): nesting depth,
 * values in all, members per object, entries per list by the member that
 * holds it, bytes per string, NUL bytes, the file's size, one document;
 * and what the scan does not count (brackets inside strings, keys as
 * values).  Texts are passed without a terminating NUL, so ASan sees a
 * read past @length.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/mman.h>

#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-test-util.h"

/* @text's bytes in a buffer of exactly its length (no NUL after it). */
static char *
exact_copy (const GString *text)
{
  return g_memdup2 (text->str, MAX (text->len, 1));
}

static gboolean
check (const GString *text,
       GError       **error)
{
  g_autofree char *data = exact_copy (text);

  return ds_json_check_bounds (data, text->len, error);
}

static void
assert_accepted (const GString *text)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (check (text, &error), "refused (%zu bytes): %s", text->len,
                 error != NULL ? error->message : "no message");
  ck_assert_ptr_null (error);
}

/* Refused with DS_ERROR_CORRUPT and exactly @message after the prefix. */
static void
assert_refused (const GString *text,
                const char    *message)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *want = g_strconcat ("not a Diskscope result: ", message, NULL);

  ck_assert_msg (!check (text, &error), "accepted (%zu bytes), expected “%s”", text->len, message);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s",
                 error != NULL ? error->message : "no error");
  ck_assert_str_eq (error->message, want);
}

/* "@before" + @n copies of @entry joined by ',' + "@after". */
static GString *
list_text (const char *before,
           const char *entry,
           guint       n,
           const char *after)
{
  GString *text = g_string_new (before);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append (text, entry);
    }
  g_string_append (text, after);
  return text;
}

/* ---- depth -------------------------------------------------------------- */

START_TEST (test_depth)
{
  g_autoptr (GString) at = g_string_new (NULL);
  g_autoptr (GString) past = g_string_new (NULL);
  g_autoptr (GString) objects = g_string_new (NULL);
  g_autoptr (GString) deep = g_string_new (NULL);

  /* 32 lists inside each other, and 32 objects: the cap. */
  for (guint i = 0; i < DS_JSON_MAX_DEPTH; i++)
    g_string_append_c (at, '[');
  for (guint i = 0; i < DS_JSON_MAX_DEPTH; i++)
    g_string_append_c (at, ']');
  assert_accepted (at);
  for (guint i = 0; i + 1 < DS_JSON_MAX_DEPTH; i++)
    g_string_append (objects, "{\"a\":");
  g_string_append (objects, "{}");
  for (guint i = 0; i + 1 < DS_JSON_MAX_DEPTH; i++)
    g_string_append_c (objects, '}');
  assert_accepted (objects);

  /* One more: refused, mixed or not. */
  g_string_append_printf (past, "{\"a\":%s}", at->str);
  assert_refused (past, "nested more than 32 levels deep (the cap DS_JSON_MAX_DEPTH)");

  /* A million '[' (json-glib's recursive parser would overflow its stack):
   * refused at the 33rd. */
  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (deep, '[');
  assert_refused (deep, "nested more than 32 levels deep (the cap DS_JSON_MAX_DEPTH)");

  /* Depth is nesting, not count: 10 000 lists side by side. */
  {
    g_autoptr (GString) wide = list_text ("[", "[[]]", 10000, "]");

    assert_accepted (wide);
  }
}
END_TEST

/* ---- values in all ------------------------------------------------------ */

START_TEST (test_values)
{
  /* The top object (1 value), 15 lists (15 values) and their entries:
   * 14 full lists and one of the rest, 1 500 000 values in all.  The keys
   * are not values: counted as values, this would be 15 over. */
  const guint full = DS_JSON_MAX_LIST;
  const guint rest = DS_JSON_MAX_VALUES - 1 - 15 - 14 * full;
  g_autoptr (GString) at = g_string_new ("{");
  g_autoptr (GString) past = NULL;

  ck_assert_uint_le (rest, DS_JSON_MAX_LIST);
  for (guint k = 0; k < 15; k++)
    {
      g_autofree char *before = g_strdup_printf ("%s\"l%u\":[", k > 0 ? "," : "", k);
      g_autoptr (GString) list = list_text (before, "0", k < 14 ? full : rest, "]");

      g_string_append_len (at, list->str, list->len);
    }
  past = g_string_new (at->str);
  g_string_append_c (at, '}');
  assert_accepted (at);

  /* One more value, of any kind. */
  g_string_append (past, ",\"x\":\"one too many\"}");
  assert_refused (past, "more than 1500000 values in all (the cap DS_JSON_MAX_VALUES)");
}
END_TEST

/* ---- members per object ------------------------------------------------- */

START_TEST (test_members)
{
  g_autoptr (GString) at = g_string_new ("{\"params\":{");
  g_autoptr (GString) past = NULL;
  g_autoptr (GString) top = g_string_new ("{");

  for (guint i = 0; i < DS_JSON_MAX_MEMBERS; i++)
    g_string_append_printf (at, "%s\"m%u\":[1,{\"x\":2}]", i > 0 ? "," : "", i);
  past = g_string_new (at->str);
  g_string_append (at, "}}");
  assert_accepted (at);
  g_string_append (past, ",\"one more\":0}}");
  assert_refused (past, "params has more than 256 members (the cap DS_JSON_MAX_MEMBERS)");

  /* The top level, and a path through objects and lists. */
  for (guint i = 0; i <= DS_JSON_MAX_MEMBERS; i++)
    g_string_append_printf (top, "%s\"m%u\":null", i > 0 ? "," : "", i);
  g_string_append_c (top, '}');
  assert_refused (top, "the top level has more than 256 members (the cap DS_JSON_MAX_MEMBERS)");
  {
    g_autoptr (GString) inner = list_text ("{\"results\":{\"read\":[{\"x\":{", "\"k\":1", DS_JSON_MAX_MEMBERS + 1,
                               "}}]}}");

    assert_refused (inner, "results.read[].x has more than 256 members (the cap DS_JSON_MAX_MEMBERS)");
  }
}
END_TEST

/* ---- entries per list, by the member that holds it ---------------------- */

static const struct {
  const char *member;
  guint       cap;
  const char *what;
  const char *cap_name;
} caps[] = {
  { "points", DS_JSON_MAX_POINTS, "points", "DS_JSON_MAX_POINTS" },
  { "row", DS_JSON_MAX_POINTS, "points", "DS_JSON_MAX_POINTS" },
  { "offset_bytes", DS_JSON_MAX_POINTS, "points", "DS_JSON_MAX_POINTS" },
  { "transfer_bytes", DS_JSON_MAX_POINTS, "points", "DS_JSON_MAX_POINTS" },
  { "access_ns", DS_JSON_MAX_POINTS, "points", "DS_JSON_MAX_POINTS" },
  { "access", DS_JSON_MAX_ACCESS, "access-time dots", "DS_JSON_MAX_ACCESS" },
  { "errors", DS_JSON_MAX_ERRORS, "failed points", "DS_JSON_MAX_ERRORS" },
  { "notes", DS_JSON_MAX_NOTES, "notes", "DS_JSON_MAX_NOTES" },
  /* Any other list. */
  { "junk", DS_JSON_MAX_LIST, "entries", "DS_JSON_MAX_LIST" },
};

START_TEST (test_list_caps)
{
  /* The caps ds-limits.h documents. */
  ck_assert_uint_eq (DS_JSON_MAX_POINTS, 100000);
  ck_assert_uint_eq (DS_JSON_MAX_ACCESS, 65536);
  ck_assert_uint_eq (DS_JSON_MAX_NOTES, 1024);

  for (guint i = 0; i < G_N_ELEMENTS (caps); i++)
    {
      g_autofree char *before = g_strdup_printf ("{\"results\":{\"read\":{\"%s\":[", caps[i].member);
      /* A number of many characters, a string with a ',' in it, an
       * object: each one entry. */
      const char *entry = i % 3 == 0 ? "-1.5e+10" : i % 3 == 1 ? "\"a,b\"" : "{\"t\":1}";
      g_autoptr (GString) at = list_text (before, entry, caps[i].cap, "]}}}");
      g_autoptr (GString) past = list_text (before, entry, caps[i].cap + 1, "]}}}");
      g_autofree char *message = g_strdup_printf ("results.read.%s has more than %u %s (the cap %s)",
                                                  caps[i].member, caps[i].cap, caps[i].what,
                                                  caps[i].cap_name);

      assert_accepted (at);
      assert_refused (past, message);
    }
}
END_TEST

/* The cap comes from the member that holds the list, matched whole, and
 * from nothing else. */
START_TEST (test_list_names)
{
  /* "notes" as a value before a list, a member before the one that holds
   * the list, a longer or shorter name, another case: not "notes". */
  static const char *const not_notes[] = {
    "[\"notes\",[", "{\"notes\":1,\"other\":[", "{\"notes2\":[", "{\"note\":[",
    "{\"Notes\":[", "{\"notez\":[", "{\"x\":{\"notes\":{},\"y\":[",
  };
  static const char *const closing[] = { "]]", "]}", "]}", "]}", "]}", "]}", "]}}" };

  for (guint i = 0; i < G_N_ELEMENTS (not_notes); i++)
    {
      g_autoptr (GString) text = list_text (not_notes[i], "1", DS_JSON_MAX_NOTES + 1, closing[i]);

      assert_accepted (text);
    }

  /* A list inside a list is an entry, named "[]", held to the general cap
   * even inside "notes"; the top-level list too. */
  {
    g_autoptr (GString) inner = list_text ("{\"notes\":[[", "1", DS_JSON_MAX_LIST + 1, "]]}");
    g_autoptr (GString) top = list_text ("[", "1", DS_JSON_MAX_LIST + 1, "]");
    g_autoptr (GString) fine = list_text ("{\"notes\":[[", "1", DS_JSON_MAX_NOTES + 1, "]]}");

    assert_refused (inner, "notes[] has more than 100000 entries (the cap DS_JSON_MAX_LIST)");
    assert_refused (top, "the top level has more than 100000 entries (the cap DS_JSON_MAX_LIST)");
    assert_accepted (fine);
  }

  /* A name that is not text a terminal may print is quoted escaped (and
   * cut) in the message. */
  {
    g_autoptr (GString) text = list_text ("{\"\033]0;owned\007\":[", "1", DS_JSON_MAX_LIST + 1, "]}");
    g_autofree char *long_name = g_strnfill (300, 'n');
    g_autofree char *before = g_strdup_printf ("{\"%s\":[", long_name);
    g_autoptr (GString) long_text = list_text (before, "1", DS_JSON_MAX_LIST + 1, "]}");
    g_autoptr (GError) error = NULL;
    g_autoptr (GError) long_error = NULL;

    ck_assert (!check (text, &error));
    ck_assert_msg (strchr (error->message, '\033') == NULL && strchr (error->message, '\007') == NULL,
                   "%s", error->message);
    ck_assert_msg (strstr (error->message, "\\x1B]0;owned\\x07 has more than 100000 entries") != NULL,
                   "%s", error->message);
    ck_assert (!check (long_text, &long_error));
    ck_assert_msg (strstr (long_error->message, long_name) == NULL, "not cut: %s", long_error->message);
    ck_assert_uint_lt (strlen (long_error->message), 200);
  }
}
END_TEST

/* ---- strings ------------------------------------------------------------ */

START_TEST (test_strings)
{
  g_autofree char *cap = g_strnfill (DS_JSON_MAX_STRING_BYTES, 'x');
  g_autofree char *over = g_strnfill (DS_JSON_MAX_STRING_BYTES + 1, 'x');
  g_autofree char *at_text = g_strdup_printf ("{\"target\":{\"model\":\"%s\"}}", cap);
  g_autofree char *past_text = g_strdup_printf ("{\"target\":{\"model\":\"%s\"}}", over);
  g_autofree char *key_text = g_strdup_printf ("{\"target\":{\"%s\":1}}", over);
  g_autofree char *top_text = g_strdup_printf ("\"%s\"", over);
  g_autoptr (GString) at = g_string_new (at_text);
  g_autoptr (GString) past = g_string_new (past_text);
  g_autoptr (GString) key = g_string_new (key_text);
  g_autoptr (GString) top = g_string_new (top_text);

  assert_accepted (at);
  assert_refused (past, "a string in target is longer than 65536 bytes (the cap DS_JSON_MAX_STRING_BYTES)");
  /* A key is a string too. */
  assert_refused (key, "a string in target is longer than 65536 bytes (the cap DS_JSON_MAX_STRING_BYTES)");
  assert_refused (top, "a string in the top level is longer than 65536 bytes "
                  "(the cap DS_JSON_MAX_STRING_BYTES)");

  /* Bytes as written: an escape is its characters. */
  {
    g_autoptr (GString) s = g_string_new ("[\"");

    for (guint i = 0; i < DS_JSON_MAX_STRING_BYTES / 2; i++)
      g_string_append (s, "\\n");
    g_string_append (s, "\"]");
    assert_accepted (s);
    g_string_insert (s, 2, "x");
    assert_refused (s, "a string in the top level is longer than 65536 bytes "
                    "(the cap DS_JSON_MAX_STRING_BYTES)");
  }

  /* What is inside a string is not structure: brackets, commas, colons
   * and escaped quotes count nothing. */
  {
    g_autofree char *brackets = g_strnfill (1000, '[');
    g_autofree char *inside = g_strdup_printf ("{\"notes\":[\"%s\\\"]]],,,::{{\",1]}", brackets);
    g_autoptr (GString) text = g_string_new (inside);

    assert_accepted (text);
  }
  {
    /* 1025 notes, each a string holding "\",": one entry each. */
    g_autoptr (GString) notes = list_text ("{\"notes\":[", "\"\\\",\"", DS_JSON_MAX_NOTES + 1, "]}");

    assert_refused (notes, "notes has more than 1024 notes (the cap DS_JSON_MAX_NOTES)");
  }

  /* Not JSON, but within the bounds: json-glib says what is wrong. */
  {
    static const char *const unended[] = { "\"abc", "[\"abc\\", "{\"a\\", "\"\\" };

    for (guint i = 0; i < G_N_ELEMENTS (unended); i++)
      {
        g_autoptr (GString) text = g_string_new (unended[i]);

        assert_accepted (text);
      }
  }
}
END_TEST

/* ---- bytes -------------------------------------------------------------- */

START_TEST (test_binary)
{
  static const struct { const char *data; gsize length; } binary[] = {
    { "\0", 1 }, { "{}\0", 3 }, { "{\"a\":\"x\0y\"}", 11 }, { "[1,\0002]", 6 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (binary); i++)
    {
      g_autoptr (GString) text = g_string_new_len (binary[i].data, binary[i].length);

      assert_refused (text, "the file is binary, not JSON");
    }

  /* Only @length bytes are looked at. */
  ck_assert (ds_json_check_bounds ("{}\0junk", 2, NULL));
  /* Nothing at all is not refused here (json-glib refuses it). */
  ck_assert (ds_json_check_bounds ("", 0, NULL));
}
END_TEST

/* The size is checked first, before any byte is read: the mapping is of
 * zero pages that were never touched (NUL bytes, which would be "binary"). */
START_TEST (test_file_bytes)
{
  gsize length = DS_JSON_MAX_FILE_BYTES + 1;
  char *data = mmap (NULL, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_autoptr (GError) error = NULL;

  ck_assert (data != MAP_FAILED);
  ck_assert (!ds_json_check_bounds (data, length, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, "not a Diskscope result: 134217729 bytes, more than it may "
                    "hold (128 MiB, the cap DS_JSON_MAX_FILE_BYTES)");
  ck_assert_int_eq (munmap (data, length), 0);
}
END_TEST

/* ---- one document ------------------------------------------------------- */

START_TEST (test_one_document)
{
  /* A second document starting with each kind of token. */
  static const char *const two[] = {
    "{}{}", "{} {}", "{}\n[]", "[]\"a\"", "{} 7", "[1]true", "{}\n{}\n", "[] -1",
  };
  static const char *const one[] = {
    "{}", "[]", "{}\n \t\r\n", "  [1, {\"a\": [2]}]  ", "\"just a string\"", "17",
  };

  for (guint i = 0; i < G_N_ELEMENTS (two); i++)
    {
      g_autoptr (GString) text = g_string_new (two[i]);

      assert_refused (text, "more than one JSON document in it");
    }
  for (guint i = 0; i < G_N_ELEMENTS (one); i++)
    {
      g_autoptr (GString) text = g_string_new (one[i]);

      assert_accepted (text);
    }
}
END_TEST

/* ---- the message's prefix ----------------------------------------------- */

START_TEST (test_as)
{
  g_autofree char *deep = g_strnfill (DS_JSON_MAX_DEPTH + 1, '[');
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) fine = NULL;

  ck_assert (!ds_json_check_bounds_as (deep, strlen (deep), "not smartctl's JSON output", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, "not smartctl's JSON output: nested more than 32 levels deep "
                    "(the cap DS_JSON_MAX_DEPTH)");
  /* No error asked for: still refused. */
  ck_assert (!ds_json_check_bounds_as (deep, strlen (deep), "x", NULL));
  ck_assert (!ds_json_check_bounds (deep, strlen (deep), NULL));
  /* Accepted: the error untouched. */
  ck_assert (ds_json_check_bounds_as ("{\"a\": [1, 2]}", 13, "x", &fine));
  ck_assert_ptr_null (fine);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("json-scan");
  TCase *tc = tcase_create ("bounds");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_depth);
  tcase_add_test (tc, test_values);
  tcase_add_test (tc, test_members);
  tcase_add_test (tc, test_list_caps);
  tcase_add_test (tc, test_list_names);
  tcase_add_test (tc, test_strings);
  tcase_add_test (tc, test_binary);
  tcase_add_test (tc, test_file_bytes);
  tcase_add_test (tc, test_one_document);
  tcase_add_test (tc, test_as);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
