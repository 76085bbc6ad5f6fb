/* test-kind-mark-spec.c: a Workloads (mark) run's spec without a run
 * (core/kinds/mark/ds-mark-rules.c, the params of ds-mark-json.c and the
 * caption's words of ds-mark-text.c); its data and JSON:
 * test-kind-mark-data.c; its comparison, fio job and texts:
 * test-kind-mark.c
 *
 * Unit suite: no root, no device.  What they promise: the defaults are
 * CrystalDiskMark's; each rule refuses word for word, and each number is
 * accepted at its bounds and refused one past; a result's params name its
 * preset, or "custom" and its rows canonical, and read back as --row
 * checks them; the caption's words of a spec and of a result; and the
 * --units names (ds-mark-text.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-preset.h"
#include "ds-test-util.h"

#define MIB (UINT64_C (1) << 20)
#define GIB (UINT64_C (1) << 30)

static char *
params_text (const DsBenchSpec *spec)
{
  g_autoptr (JsonObject) p = json_object_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->params_to_json, ds_mark_params_to_json);
  ds_mark_params_to_json (spec, p);
  json_node_set_object (node, p);
  return json_to_string (node, FALSE);
}

/* @json into a default spec: its preset and rows, or @expect refused. */
static void
assert_params (const char *json,
               const char *preset,
               const char *rows,
               const char *expect)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = json_from_string (json, NULL);
  g_auto (DsBenchSpec) spec;
  gboolean ok;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_mark_spec_defaults (&spec);
  ok = ds_mark_params_from_json (json_node_get_object (node), &spec, &error);
  if (expect != NULL)
    {
      ck_assert_msg (!ok, "%s loaded; wanted “%s”", json, expect);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
      ck_assert_str_eq (error->message, expect);
      return;
    }
  ck_assert_msg (ok, "%s: %s", json, error ? error->message : "");
  ck_assert_str_eq (ds_mark_options (&spec)->preset, preset);
  if (rows == NULL)
    ck_assert_ptr_null (ds_mark_options (&spec)->rows);
  else
    ck_assert_str_eq (ds_mark_options (&spec)->rows, rows);
}

/* The preset, or "custom" and the rows canonical, one to a string; read
 * back as --row checks them.  Older results have neither. */
START_TEST (test_params)
{
  g_auto (DsBenchSpec) spec;
  g_autofree char *named = NULL, *custom = NULL, *raw = NULL;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_preset_apply_defaults (&spec, ds_preset_lookup ("cdm-nvme"));
  named = params_text (&spec);
  ck_assert_str_eq (named, "{\"preset\":\"cdm-nvme\",\"rows\":null}");
  ds_mark_options (&spec)->rows = g_strdup ("seq,1m,q8t1\nrandrw,8k,qd4,t2,mix60,2s");
  custom = params_text (&spec);
  ck_assert_str_eq (custom, "{\"preset\":\"custom\",\"rows\":[\"seq,1m,qd8,t1\",\"randrw,8k,qd4,t2,mix60,2s\"]}");
  /* Rows that do not parse (the run refuses them): as given. */
  g_free (ds_mark_options (&spec)->rows);
  ds_mark_options (&spec)->rows = g_strdup ("zig;zag");
  raw = params_text (&spec);
  ck_assert_str_eq (raw, "{\"preset\":\"custom\",\"rows\":[\"zig\",\"zag\"]}");

  assert_params ("{}", "cdm-default", NULL, NULL);
  assert_params ("{ \"preset\" : null, \"rows\" : null }", "cdm-default", NULL, NULL);
  assert_params ("{ \"preset\" : \"cdm-peak\" }", "cdm-peak", NULL, NULL);
  assert_params ("{ \"preset\" : \"custom\", \"rows\" : [ \"rnd,4k,q32t1\", \"read,1m\" ] }", "custom",
                 "rnd,4k,qd32,t1;read,1m,qd1,t1", NULL);
  assert_params ("{ \"preset\" : 3 }", NULL, NULL, "params.preset is not a string");
  assert_params ("{ \"rows\" : \"seq,1m\" }", NULL, NULL, "params.rows is not a list");
  assert_params ("{ \"rows\" : [ \"seq,1m\", 5 ] }", NULL, NULL, "params.rows[1] is not a string");
  assert_params ("{ \"rows\" : [ \"seq,1m\", [] ] }", NULL, NULL, "params.rows[1] is not a string");
  assert_params ("{ \"rows\" : [ \"seq,1m\", \"zig,4k\" ] }", NULL, NULL, "params.rows: row 2 “zig,4k”: "
                 "unknown pattern “zig”: use read, write, randread, randwrite, randrw, rw, seq or rnd");
  assert_params ("{ \"rows\" : [] }", NULL, NULL, "params.rows: give 1 to 16 rows, not 0");
}
END_TEST

/* The defaults are the first preset's, CrystalDiskMark's. */
START_TEST (test_defaults)
{
  g_auto (DsBenchSpec) spec;
  const DsMarkOptions *o;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->defaults, ds_mark_spec_defaults);
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->validate, ds_mark_spec_valid);
  ds_mark_spec_defaults (&spec);
  o = ds_mark_options_const (&spec);
  ck_assert_str_eq (o->preset, "cdm-default");
  ck_assert_uint_eq (o->count, 5);
  ck_assert_uint_eq (spec.duration_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (o->warmup_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (o->pause_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (o->test_size_bytes, GIB);
  ck_assert_int_eq (o->mix_percent, -1);
  ck_assert (o->steps == NULL && o->rows == NULL && o->comment == NULL && !o->reads_only);
  ck_assert (ds_mark_spec_valid (&spec, NULL));
}
END_TEST

typedef enum { MIX, COUNT, SIZE, TIME, PAUSE, WARMUP, COMMENT, STEPS, ROWS } Field;

/* The defaults of @preset (NULL: cdm-default), @field set to @number or
 * @text, reads only when @reads_only: valid when @expect is NULL, else
 * refused with it. */
static void
assert_rule (const char *preset, gboolean reads_only, Field field, int64_t number, const char *text,
             const char *expect)
{
  g_autoptr (GError) error = NULL;
  g_auto (DsBenchSpec) spec;
  DsMarkOptions *o;
  gboolean valid;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_preset_apply_defaults (&spec, ds_preset_lookup (preset ? preset : "cdm-default"));
  o = ds_mark_options (&spec);
  o->reads_only = reads_only;
  switch (field)
    {
    case MIX: o->mix_percent = (int) number; break;
    case COUNT: o->count = (unsigned) number; break;
    case SIZE: o->test_size_bytes = (uint64_t) number; break;
    case TIME: spec.duration_ns = (uint64_t) number; break;
    case PAUSE: o->pause_ns = (uint64_t) number; break;
    case WARMUP: o->warmup_ns = (uint64_t) number; break;
    case COMMENT: o->comment = g_strdup (text); break;
    case STEPS: o->steps = g_strdup (text); break;
    case ROWS: o->rows = g_strdup (text); break;
    default: g_assert_not_reached ();
    }
  valid = ds_mark_spec_valid (&spec, &error);
  if (expect == NULL)
    ck_assert_msg (valid, "field %d = %" G_GINT64_FORMAT " “%s”: %s", field, number, text,
                   error ? error->message : "");
  else
    {
      ck_assert_msg (!valid, "field %d = %" G_GINT64_FORMAT " “%s”: valid; wanted “%s”", field,
                     number, text, expect);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_str_eq (error->message, expect);
    }
}

#define CTRL "the comment is one line of text: no control characters "
#define SEC ((int64_t) DS_NS_PER_SEC)

/* Each rule word for word, each number at its bounds and one past. */
START_TEST (test_rules)
{
  const struct { const char *preset; gboolean ro; Field field; int64_t n; const char *text, *expect; } cases[] = {
    { NULL, 0, COMMENT, 0, "RAID 10, 4 × DC500M", NULL }, { NULL, 0, COMMENT, 0, "", NULL },
    { NULL, 0, COMMENT, 0, "a\xff", "the comment is not UTF-8 text" },
    { NULL, 0, COMMENT, 0, "two\nlines", CTRL "(U+000A)" }, { NULL, 0, COMMENT, 0, "a\tb", CTRL "(U+0009)" },
    { NULL, 0, COMMENT, 0, "del\x7f", CTRL "(U+007F)" }, { NULL, 0, COMMENT, 0, "c1\xc2\x85", CTRL "(U+0085)" },
    { NULL, 0, COMMENT, 0, "a\xe2\x80\xa8" "b", CTRL "(U+2028)" }, { NULL, 0, COMMENT, 0, "a\xe2\x80\xa9", CTRL "(U+2029)" },
    { NULL, 0, MIX, -1, NULL, NULL }, { NULL, 0, MIX, 0, NULL, NULL }, { NULL, 0, MIX, 100, NULL, NULL },
    { NULL, 0, MIX, -2, NULL, "the mix is a percentage of reads (0 to 100), not -2" },
    { NULL, 0, MIX, 101, NULL, "the mix is a percentage of reads (0 to 100), not 101" },
    { NULL, 0, MIX, G_MININT, NULL, "the mix is a percentage of reads (0 to 100), not -2147483648" },
    { "cdm-demo", 0, MIX, 50, NULL, "cdm-demo has no +Mix row (nor has CrystalDiskMark's Demo)" },
    { "iometer-dbms", 0, MIX, 0, NULL, "iometer-dbms has no +Mix row: its own steps set their mix" },
    { "iometer-dbms", 0, MIX, -1, NULL, NULL },
    { NULL, 0, COUNT, 1, NULL, NULL }, { NULL, 0, COUNT, 9, NULL, NULL },
    { NULL, 0, COUNT, 0, NULL, "the count (runs per test) must be 1 to 9, not 0" },
    { NULL, 0, COUNT, 10, NULL, "the count (runs per test) must be 1 to 9, not 10" },
    { NULL, 0, SIZE, 0, NULL, NULL }, { NULL, 0, SIZE, 16 * MIB, NULL, NULL }, { NULL, 0, SIZE, 64 * GIB, NULL, NULL },
    { NULL, 0, SIZE, 16 * MIB - 1, NULL, "the test size must be 16M to 64G (CrystalDiskMark's range), not 16777215 bytes" },
    { NULL, 0, SIZE, 64 * GIB + 1, NULL, "the test size must be 16M to 64G (CrystalDiskMark's range), not 68719476737 bytes" },
    { NULL, 0, TIME, 1, NULL, NULL }, { NULL, 0, TIME, 3600 * SEC, NULL, NULL },
    { NULL, 0, TIME, 0, NULL, "the time per test must be more than 0 and at most 1h" },
    { NULL, 0, TIME, 3600 * SEC + 1, NULL, "the time per test must be more than 0 and at most 1h" },
    { NULL, 0, PAUSE, 600 * SEC, NULL, NULL }, { NULL, 0, WARMUP, 600 * SEC, NULL, NULL },
    { NULL, 0, PAUSE, 600 * SEC + 1, NULL, "the pause between tests and the warm-up are at most 10m" },
    { NULL, 0, WARMUP, 600 * SEC + 1, NULL, "the pause between tests and the warm-up are at most 10m" },
    { NULL, 0, STEPS, 0, "rnd4k-q1t1,seq1m-q8t1-write", NULL },
    { NULL, 0, STEPS, 0, "rnd4k-q1t1-mix", "cdm-default has no step “rnd4k-q1t1-mix”: its rows are "
      "seq1m-q8t1, seq1m-q1t1, rnd4k-q32t1, rnd4k-q1t1 (a row id runs the row; add -read, -write or "
      "-mix for one step)" },
    { NULL, 1, ROWS, 0, "write,4k", "custom has no step that only reads: every one of its steps writes" },
    { NULL, 0, ROWS, 0, "randread,4k,qd32,t4;write,1m", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_rule (cases[i].preset, cases[i].ro, cases[i].field, cases[i].n, cases[i].text, cases[i].expect);
}
END_TEST

/* A comment of DS_LIMIT_COMMENT_CHARS characters, not bytes; an unknown
 * preset named with the known ones. */
START_TEST (test_rules_limits)
{
  g_autoptr (GString) comment = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (DsBenchSpec) spec;

  for (guint i = 0; i < DS_LIMIT_COMMENT_CHARS; i++)
    g_string_append (comment, "é");
  assert_rule (NULL, FALSE, COMMENT, 0, comment->str, NULL);
  g_string_append_c (comment, 'x');
  assert_rule (NULL, FALSE, COMMENT, 0, comment->str, "the comment is 4097 characters long: at most 4096");

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_mark_spec_defaults (&spec);
  g_free (ds_mark_options (&spec)->preset);
  ds_mark_options (&spec)->preset = g_strdup ("crystal");
  ck_assert (!ds_mark_spec_valid (&spec, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (g_str_has_prefix (error->message, "unknown preset “crystal”: use cdm-default, cdm-nvme, "),
                 "%s", error->message);
}
END_TEST

static void
assert_settings (const DsBenchSpec *spec,
                 const DsResult    *result,
                 const char        *expect)
{
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *words = NULL;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->settings, ds_mark_settings);
  ds_mark_settings (spec, result, parts);
  g_ptr_array_add (parts, NULL);
  words = g_strjoinv ("|", (char **) parts->pdata);
  ck_assert_str_eq (words, expect);
}

/* The caption's words (ds-mark-text.c): a spec's, or a result's own. */
START_TEST (test_settings)
{
  g_auto (DsBenchSpec) spec;
  DsResult *r;
  DsMarkData *d;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_mark_spec_defaults (&spec);
  assert_settings (&spec, NULL, "cdm-default|test size 1 GiB|best of 5 × 5 s");
  ds_mark_options (&spec)->reads_only = TRUE;
  ds_mark_options (&spec)->test_size_bytes = 0;
  spec.duration_ns = 1500 * DS_NS_PER_MSEC;
  assert_settings (&spec, NULL, "cdm-default|reads only|best of 5 × 1.5 s");
  ds_mark_options (&spec)->rows = g_strdup ("seq,1m");
  assert_settings (&spec, NULL, "custom rows|reads only|best of 5");

  /* A result: its data's preset, size, count and time; a read test says so. */
  ds_mark_options (&spec)->reads_only = FALSE;
  g_clear_pointer (&ds_mark_options (&spec)->rows, g_free);
  spec.write = TRUE;
  r = ds_result_new (&spec);
  d = r->data;
  d->preset = g_strdup ("cdm-peak");
  d->test_size_bytes = 20000000;
  d->count = 3;
  d->duration_s = 0.25;
  assert_settings (&r->spec, r, "cdm-peak|test size 19.1 MiB|best of 3 × 0.25 s");
  r->spec.write = FALSE;
  g_clear_pointer (&d->preset, g_free);
  assert_settings (&r->spec, r, "cdm-default|reads only|test size 19.1 MiB|best of 3 × 0.25 s");
  ds_result_free (r);
}
END_TEST

/* --units (ds-mark-text.c): the names CrystalDiskMark's meters take. */
START_TEST (test_units)
{
  const struct { const char *text; DsMarkUnits units; } names[] = {
    { NULL, DS_MARK_UNITS_MB_S }, { "MB", DS_MARK_UNITS_MB_S }, { "mb/S", DS_MARK_UNITS_MB_S },
    { "GB", DS_MARK_UNITS_GB_S }, { "gb/s", DS_MARK_UNITS_GB_S }, { "IOPS", DS_MARK_UNITS_IOPS },
    { "iops", DS_MARK_UNITS_IOPS }, { "us", DS_MARK_UNITS_US }, { "US", DS_MARK_UNITS_US },
    { "µs", DS_MARK_UNITS_US }, { "µS", DS_MARK_UNITS_US },
  };
  const char *const bad[] = { "MiB", "", "ms", "MB/s ", "GiB/s" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      DsMarkUnits units = 99;

      ck_assert_msg (ds_mark_units_from_string (names[i].text, &units, NULL), "%s", names[i].text);
      ck_assert_int_eq (units, names[i].units);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *want = g_strdup_printf ("--units is MB, GB, IOPS or us (µs), not “%s”", bad[i]);
      DsMarkUnits units = 99;

      ck_assert (!ds_mark_units_from_string (bad[i], &units, &error));
      ck_assert_int_eq (units, 99);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_str_eq (error->message, want);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-mark-spec");
  TCase *tc = tcase_create ("mark-spec");

  tcase_add_test (tc, test_params);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_rules);
  tcase_add_test (tc, test_rules_limits);
  tcase_add_test (tc, test_settings);
  tcase_add_test (tc, test_units);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
