/* test-health-text.c: smartctl's output as text, checked before json-glib
 * parses it (core/health/ds-health-text.c)
 *
 * Unit suite: no root, no drive.  ds_health_parse() (ds-health.h): empty
 * output, binary output and output over DS_SMARTCTL_JSON_MAX_BYTES
 * (before a byte is read), the JSON bounds under smartctl's own prefix,
 * text that is not JSON (json-glib's reason and how the text began,
 * escaped and cut), @length honoured and -1 for a C string, the exit
 * status given or the file's, all with DS_ERROR_CORRUPT; and the real
 * outputs in tests/fixtures/smartctl/ read as text, with their values.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/mman.h>

#include "ds-error.h"
#include "ds-health.h"
#include "ds-limits.h"
#include "ds-test-util.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"

static char *
fixture_text (const char *name,
              gsize      *ret_length)
{
  g_autofree char *path = g_build_filename (FIXTURES, name, NULL);
  char *text = NULL;

  ck_assert_msg (g_file_get_contents (path, &text, ret_length, NULL), "%s", path);
  return text;
}

/* Refused with DS_ERROR_CORRUPT and exactly @message. */
static void
assert_refused (const char *json,
                gssize      length,
                const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsHealth) h = ds_health_parse (json, length, -1, &error);

  ck_assert_ptr_null (h);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s",
                 error ? error->message : "no error");
  ck_assert_str_eq (error->message, message);
}

START_TEST (test_nothing)
{
  assert_refused (NULL, -1, "smartctl printed nothing");
  assert_refused (NULL, 100, "smartctl printed nothing");
  assert_refused ("", -1, "smartctl printed nothing");
  /* A length of 0 is nothing, whatever the pointer holds. */
  assert_refused ("{\"smartctl\": {}}", 0, "smartctl printed nothing");
}
END_TEST

START_TEST (test_binary)
{
  static const char with_nul[] = "{\"json_format_version\": [1, 0],\0 \"smartctl\": {}}";

  assert_refused (with_nul, sizeof with_nul - 1, "not smartctl's JSON output (binary, or over 16 MiB)");
  assert_refused ("\0", 1, "not smartctl's JSON output (binary, or over 16 MiB)");
}
END_TEST

/* Over the bound: refused by its length, before any byte is read (the
 * mapping cannot be read at all). */
START_TEST (test_too_long)
{
  gsize length = DS_SMARTCTL_JSON_MAX_BYTES + 1;
  char *data = mmap (NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

  ck_assert (data != MAP_FAILED);
  assert_refused (data, (gssize) length, "not smartctl's JSON output (binary, or over 16 MiB)");
  ck_assert_int_eq (munmap (data, length), 0);

  /* At the bound: a real output padded with white space is read. */
  {
    gsize fixture_length = 0;
    g_autofree char *fixture = fixture_text ("WDC_WD20EFRX-68EUZN0_17.json", &fixture_length);
    g_autofree char *padded = g_malloc (DS_SMARTCTL_JSON_MAX_BYTES);
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = NULL;

    memcpy (padded, fixture, fixture_length);
    memset (padded + fixture_length, ' ', DS_SMARTCTL_JSON_MAX_BYTES - fixture_length);
    h = ds_health_parse (padded, DS_SMARTCTL_JSON_MAX_BYTES, -1, &error);
    ck_assert_msg (h != NULL, "%s", error ? error->message : "");
    ck_assert_str_eq (h->model, "WDC WD20EFRX-68EUZN0");
  }
}
END_TEST

/* The result loader's bounds, said as smartctl's output. */
START_TEST (test_bounds)
{
  g_autofree char *deep = g_strnfill (DS_JSON_MAX_DEPTH + 1, '[');
  g_autoptr (GString) members = g_string_new ("{\"json_format_version\": [1, 0], \"smartctl\": {");

  for (guint i = 0; i <= DS_JSON_MAX_MEMBERS; i++)
    g_string_append_printf (members, "%s\"m%u\": 0", i > 0 ? ", " : "", i);
  g_string_append (members, "}}");

  assert_refused (deep, -1, "not smartctl's JSON output: nested more than 32 levels deep "
                  "(the cap DS_JSON_MAX_DEPTH)");
  assert_refused (members->str, -1, "not smartctl's JSON output: smartctl has more than 256 members "
                  "(the cap DS_JSON_MAX_MEMBERS)");
  assert_refused ("{\"json_format_version\": [1, 0], \"smartctl\": {}}\n{}", -1,
                  "not smartctl's JSON output: more than one JSON document in it");
}
END_TEST

/* Not JSON: json-glib's reason, and the start of the text on one line,
 * escaped, cut to 80 characters. */
START_TEST (test_not_json)
{
  static const struct { const char *text; const char *began; } cases[] = {
    /* No bracket, brace or quote: the bounds scan passes it on. */
    { "/usr/sbin/smartctl: error while loading shared libraries:\n\tlibstdc++.so.6: cannot open "
      "shared object file: No such file or directory\n",
      "; it began: /usr/sbin/smartctl: error while loading shared libraries:  libstdc++.so.6: canno" },
    { "  \t\n<html>\033c\033(0title\007", "; it began: <html>\\x1Bc\\x1B(0title\\x07" },
    { "{\"smartctl\": {", "; it began: {\"smartctl\": {" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsHealth) h = ds_health_parse (cases[i].text, -1, -1, &error);

      ck_assert_ptr_null (h);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
      ck_assert_msg (g_str_has_prefix (error->message, "smartctl did not print JSON ("), "%s", error->message);
      ck_assert_msg (g_str_has_suffix (error->message, cases[i].began), "%s\nexpected the end: %s",
                     error->message, cases[i].began);
      ck_assert_msg (strchr (error->message, '\n') == NULL && strchr (error->message, '\033') == NULL,
                     "%s", error->message);
    }

  /* JSON, but not smartctl's: the tree's reader says so. */
  assert_refused ("[1, 2]", -1, "not smartctl's JSON output (not an object)");
  assert_refused ("{\"a\": 1}", -1, "not smartctl's JSON output (no “smartctl” or “json_format_version”)");
}
END_TEST

/* @length bytes are the output, whatever follows; -1 is a C string. */
START_TEST (test_length)
{
  gsize length = 0;
  g_autofree char *text = fixture_text ("ST3500418AS_12.json", &length);
  g_autofree char *trailing = g_strconcat (text, "}}}]]] not JSON", NULL);
  g_autoptr (DsHealth) whole = ds_health_parse (text, -1, -1, NULL);
  g_autoptr (DsHealth) exact = ds_health_parse (trailing, (gssize) length, -1, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsHealth) cut = ds_health_parse (text, (gssize) length / 2, -1, &error);
  g_autoptr (GError) trailing_error = NULL;
  g_autoptr (DsHealth) all = ds_health_parse (trailing, -1, -1, &trailing_error);

  ck_assert_ptr_nonnull (whole);
  ck_assert_ptr_nonnull (exact);
  ck_assert_str_eq (exact->model, whole->model);
  ck_assert_ptr_null (cut);
  ck_assert_msg (g_str_has_prefix (error->message, "smartctl did not print JSON ("), "%s", error->message);
  /* The same bytes with what follows them: not one document. */
  ck_assert_ptr_null (all);
  ck_assert (g_error_matches (trailing_error, DS_ERROR, DS_ERROR_CORRUPT));
}
END_TEST

/* The exit status given wins over the file's; -1 takes the file's. */
START_TEST (test_exit_status)
{
  g_autofree char *text = fixture_text ("HGST_HUS724020ALE640_28.json", NULL);
  g_autoptr (DsHealth) file = ds_health_parse (text, -1, -1, NULL);
  g_autoptr (DsHealth) given = ds_health_parse (text, -1, 0, NULL);
  g_autoptr (DsHealth) failing = ds_health_parse (text, -1, 8, NULL);

  ck_assert_int_eq (file->exit_status, 64);
  ck_assert_int_eq (given->exit_status, 0);
  ck_assert_uint_eq (given->notes->len, 0);
  ck_assert_int_eq (failing->exit_status, 8);
  ck_assert_int_eq (failing->verdict, DS_HEALTH_FAILING);
}
END_TEST

/* The real outputs, as text, with what they say. */
START_TEST (test_fixtures)
{
  {
    g_autofree char *text = fixture_text ("ST3500418AS_12.json", NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = ds_health_parse (text, -1, -1, &error);

    ck_assert_msg (h != NULL, "%s", error ? error->message : "");
    ck_assert_str_eq (h->device, "/dev/sda");
    ck_assert_str_eq (h->protocol, "ATA");
    ck_assert_str_eq (h->device_type, "sat");
    ck_assert_str_eq (h->model, "ST3500418AS");
    ck_assert_str_eq (h->smartctl_version, "7.3");
    ck_assert_uint_eq (h->capacity_bytes, 500107862016);
    ck_assert_uint_eq (h->sectors, 976773168);
    ck_assert_int_eq (h->rotation_rate, 7200);
    ck_assert_int_eq (h->error_log_count, 0);
    /* The whole output is kept, for saving. */
    ck_assert_ptr_nonnull (h->raw);
    ck_assert (JSON_NODE_HOLDS_OBJECT (h->raw));
  }
  {
    /* 12 records in the error log (exit bit 6). */
    g_autofree char *text = fixture_text ("HGST_HUS724020ALE640_28.json", NULL);
    g_autoptr (DsHealth) h = ds_health_parse (text, -1, -1, NULL);

    ck_assert_ptr_nonnull (h);
    ck_assert_str_eq (h->model, "HGST HUS724020ALE640");
    ck_assert_str_eq (h->device, "/dev/sdb");
    ck_assert_int_eq (h->error_log_count, 12);
    ck_assert_int_eq (h->power_cycles, 81);
  }
  {
    g_autofree char *text = fixture_text ("SEAGATE_ST373453LC_26.json", NULL);
    g_autoptr (DsHealth) h = ds_health_parse (text, -1, -1, NULL);

    ck_assert_ptr_nonnull (h);
    ck_assert_str_eq (h->protocol, "SCSI");
    ck_assert_int_eq (h->rotation_rate, 15015);
    ck_assert_uint_eq (h->sectors, 143374650);
    ck_assert_int_eq (h->error_log_count, DS_HEALTH_UNKNOWN);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("health-text");
  TCase *tc = tcase_create ("text");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_nothing);
  tcase_add_test (tc, test_binary);
  tcase_add_test (tc, test_too_long);
  tcase_add_test (tc, test_bounds);
  tcase_add_test (tc, test_not_json);
  tcase_add_test (tc, test_length);
  tcase_add_test (tc, test_exit_status);
  tcase_add_test (tc, test_fixtures);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
