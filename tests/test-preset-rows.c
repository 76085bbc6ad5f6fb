/* test-preset-rows.c: custom rows without I/O: the row parser, its errors,
 * the steps a custom spec runs, and the rows' round trip through a
 * result's params
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
#include "ds-result-json.h"
#include "ds-test-util.h"

static DsPresetRow
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  DsPresetRow row = { 0 };

  ck_assert_msg (ds_preset_row_parse (text, &row, &error), "%s: %s", text,
                 error ? error->message : "");
  return row;
}

/* Refused with DS_ERROR_INVALID and a message holding @needle. */
static void
parse_fails (const char *text,
             const char *needle)
{
  g_autoptr (GError) error = NULL;
  DsPresetRow row = { 0 };

  ck_assert_msg (!ds_preset_row_parse (text, &row, &error), "%s was accepted", text);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, needle) != NULL, "%s: “%s” lacks “%s”", text,
                 error->message, needle);
}

START_TEST (test_row_parse)
{
  DsPresetRow row;
  g_autofree char *text = NULL;

  row = parse_ok ("randread,4k,qd32,t4");
  ck_assert (row.random);
  ck_assert_uint_eq (row.columns, DS_MARK_COLUMN (DS_MARK_READ));
  ck_assert_uint_eq (row.block_size_bytes, 4096);
  ck_assert_uint_eq (row.queue_depth, 32);
  ck_assert_uint_eq (row.threads, 4);
  ck_assert_uint_eq (row.duration_ns, 0);

  /* Defaults, spaces, case, CrystalDiskMark's Q8T1 and a row's own time. */
  row = parse_ok (" SEQ , 1M , Q8T1 ");
  ck_assert (!row.random);
  ck_assert_uint_eq (row.columns, DS_MARK_COLUMN (DS_MARK_READ) | DS_MARK_COLUMN (DS_MARK_WRITE));
  ck_assert_uint_eq (row.block_size_bytes, 1 << 20);
  ck_assert_uint_eq (row.queue_depth, 8);
  ck_assert_uint_eq (row.threads, 1);
  row = parse_ok ("write,128k");
  ck_assert_uint_eq (row.queue_depth, 1);
  ck_assert_uint_eq (row.threads, 1);
  ck_assert_uint_eq (row.columns, DS_MARK_COLUMN (DS_MARK_WRITE));
  row = parse_ok ("randrw,8k,q4,t2,2500ms");
  ck_assert_uint_eq (row.columns, DS_MARK_COLUMN (DS_MARK_MIX));
  ck_assert_uint_eq (row.mix_percent, 70);
  ck_assert_uint_eq (row.duration_ns, 2500 * DS_NS_PER_MSEC);
  row = parse_ok ("rw,64k,mix90");
  ck_assert (!row.random);
  ck_assert_uint_eq (row.mix_percent, 90);
  row = parse_ok ("randrw,8k,35%,10s");
  ck_assert_uint_eq (row.mix_percent, 35);
  ck_assert_uint_eq (row.duration_ns, 10 * DS_NS_PER_SEC);
  text = ds_preset_row_to_string (&row);
  ck_assert_str_eq (text, "randrw,8k,qd1,t1,mix35,10s");
}
END_TEST

START_TEST (test_row_errors)
{
  g_autofree char *limit = g_strdup_printf ("more than %u", DS_LIMIT_IN_FLIGHT_MAX);

  parse_fails ("", "a pattern and a block size");
  parse_fails ("randread", "a pattern and a block size");
  parse_fails ("sequential,4k", "unknown pattern “sequential”");
  parse_fails ("randread,4q", "not a block size");
  parse_fails ("randread,1000", "multiple of 512");
  parse_fails ("randread,0", "multiple of 512");
  parse_fails ("randread,2g", "at most 1 GiB");
  parse_fails ("randread,4k,qd0", "queue depth must be 1");
  parse_fails ("randread,4k,qd5000", "queue depth must be 1");
  parse_fails ("randread,4k,t0", "threads must be 1");
  parse_fails ("randread,4k,qd4096,t16", limit);
  parse_fails ("randread,4k,qd32,t1025", "threads must be 1");
  parse_fails ("seq,64m,qd32,t4", "MiB of buffers");
  parse_fails ("randrw,4k,mix101", "0 to 100");
  parse_fails ("randread,4k,mix50", "needs a mixed pattern");
  parse_fails ("randread,4k,fast", "“fast” is not a queue depth");
  parse_fails ("randread,4k,5ms", "100ms to 1h");
  parse_fails ("randread,4k,2h", "100ms to 1h");
}
END_TEST

START_TEST (test_rows_normalize)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = ds_preset_rows_normalize ("seq,1M,Q8T1; rnd,4K,q32\n\nrandrw,8k,t2", &error);
  g_autofree char *too_many = NULL;
  GString *many = g_string_new (NULL);

  ck_assert_msg (text != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (text, "seq,1m,qd8,t1;rnd,4k,qd32,t1;randrw,8k,qd1,t2,mix70");

  /* The error names the row. */
  g_free (ds_preset_rows_normalize ("seq,1m;rnd,4k,qd0", &error) /* NULL */);
  ck_assert_ptr_nonnull (error);
  ck_assert_ptr_nonnull (strstr (error->message, "row 2 “rnd,4k,qd0”"));
  g_clear_error (&error);
  ck_assert_ptr_null (ds_preset_rows_normalize (" ; ", &error));
  ck_assert_ptr_nonnull (strstr (error->message, "1 to 16 rows"));
  g_clear_error (&error);
  for (unsigned i = 0; i <= DS_PRESET_ROWS_MAX; i++)
    g_string_append (many, "read,4k;");
  too_many = ds_preset_rows_normalize (many->str, &error);
  ck_assert_ptr_null (too_many);
  ck_assert_ptr_nonnull (strstr (error->message, "not 17"));
  g_string_free (many, TRUE);
}
END_TEST

static void
custom_spec (DsBenchSpec *spec,
             const char  *rows)
{
  g_autoptr (GError) error = NULL;
  const DsPreset *preset;

  ds_bench_spec_init (spec, DS_BENCH_MARK);
  spec->target_path = g_strdup ("/dev/null");
  ds_mark_options (spec)->rows = g_strdup (rows);
  preset = ds_preset_for_spec (spec, &error);
  ck_assert_msg (preset != NULL, "%s", error ? error->message : "");
  ds_preset_apply_defaults (spec, preset);
}

START_TEST (test_custom_steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) steps = NULL;
  const DsPreset *preset;
  const DsPresetStep *step;
  DsBenchSpec spec, step_spec;

  custom_spec (&spec, "rnd,4k,q32t4;randrw,8k,qd4,t2,mix60,2s;rnd,4k,q32t4");
  ck_assert_str_eq (ds_mark_options_const (&spec)->preset, DS_PRESET_CUSTOM);
  preset = ds_preset_for_spec (&spec, NULL);
  /* The same list is the same preset: steps may keep pointing into it. */
  ck_assert_ptr_eq (preset, ds_preset_for_spec (&spec, NULL));
  ck_assert_uint_eq (preset->n_rows, 3);
  ck_assert_msg (ds_bench_spec_validate (&spec, &error), "%s", error ? error->message : "");

  steps = ds_preset_steps (&spec, &error);
  ck_assert_ptr_nonnull (steps);
  /* Row after row; the repeated row gets its own id. */
  ck_assert_uint_eq (steps->len, 5);
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 0).id, "rnd4k-q32t4-read");
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 1).id, "rnd4k-q32t4-write");
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 2).id, "rnd8k-q4t2-r60-mix");
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 3).id, "rnd4k-q32t4-2-read");
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 4).id, "rnd4k-q32t4-2-write");
  ck_assert_str_eq (g_array_index (steps, DsPresetStep, 2).row->label, "RND8K Q4T2 R60");

  step = &g_array_index (steps, DsPresetStep, 2);
  ck_assert_uint_eq (step->read_percent, 60);
  ds_preset_step_spec (&spec, step, &step_spec);
  ck_assert_int_eq (step_spec.pattern, DS_PATTERN_RANDRW);
  ck_assert_uint_eq (step_spec.read_mix_percent, 60);
  ck_assert_uint_eq (step_spec.queue_depth, 4);
  ck_assert_uint_eq (step_spec.threads, 2);
  ck_assert_uint_eq (step_spec.duration_ns, 2 * DS_NS_PER_SEC);
  ds_bench_spec_clear (&step_spec);
  /* The other rows run the spec's time. */
  ds_preset_step_spec (&spec, &g_array_index (steps, DsPresetStep, 0), &step_spec);
  ck_assert_uint_eq (step_spec.duration_ns, spec.duration_ns);
  ck_assert_int_eq (step_spec.pattern, DS_PATTERN_RANDREAD);
  ds_bench_spec_clear (&step_spec);

  /* Read-only keeps the reads; --steps picks rows by their ids. */
  ds_mark_options (&spec)->reads_only = TRUE;
  g_clear_pointer (&steps, g_array_unref);
  steps = ds_preset_steps (&spec, &error);
  ck_assert_uint_eq (steps->len, 2);
  ds_mark_options (&spec)->reads_only = FALSE;
  ds_mark_options (&spec)->steps = g_strdup ("rnd8k-q4t2-r60");
  g_clear_pointer (&steps, g_array_unref);
  steps = ds_preset_steps (&spec, &error);
  ck_assert_uint_eq (steps->len, 1);
  ds_bench_spec_clear (&spec);

  /* A spec with bad rows is refused by the validator with the parser's words. */
  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  spec.target_path = g_strdup ("/dev/null");
  ds_mark_options (&spec)->rows = g_strdup ("randread,4k,qd4096,t16");
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ck_assert_ptr_nonnull (strstr (error->message, "I/Os in flight"));
  ds_bench_spec_clear (&spec);
}
END_TEST

static void
set_target (DsResult *r)
{
  r->target.path = g_strdup ("/dev/loop9");
  r->target.is_block = TRUE;
  r->target.model = g_strdup ("Loop device");
  r->target.size_bytes = UINT64_C (1) << 30;
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 512;
}

START_TEST (test_params_round_trip)
{
  g_autoptr (DsResult) r = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autoptr (DsResult) named = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *bad = NULL;
  g_auto (GStrv) parts = NULL;
  DsBenchSpec spec;

  custom_spec (&spec, "seq,1m,q8t1;randrw,8k,qd4,t2,mix60,2s");
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  set_target (r);
  data = ds_result_to_data (r, NULL);
  ck_assert_ptr_nonnull (strstr (data, "\"preset\" : \"custom\""));
  ck_assert_ptr_nonnull (strstr (data, "\"rows\" : ["));
  ck_assert_ptr_nonnull (strstr (data, "\"seq,1m,qd8,t1\""));
  ck_assert_ptr_nonnull (strstr (data, "\"randrw,8k,qd4,t2,mix60,2s\""));
  back = ds_result_load_data (data, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (ds_mark_options_const (&back->spec)->preset, DS_PRESET_CUSTOM);
  ck_assert_str_eq (ds_mark_options_const (&back->spec)->rows, "seq,1m,qd8,t1;randrw,8k,qd4,t2,mix60,2s");
  /* The loaded spec runs the same steps. */
  ck_assert_ptr_eq (ds_preset_for_spec (&back->spec, NULL), ds_preset_for_spec (&r->spec, NULL));

  /* A named preset comes back named, without rows. */
  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  spec.target_path = g_strdup ("/dev/loop9");
  ds_preset_apply_defaults (&spec, ds_preset_lookup ("cdm-nvme"));
  named = ds_result_new (&spec);
  set_target (named);
  ds_bench_spec_clear (&spec);
  g_free (data);
  data = ds_result_to_data (named, NULL);
  g_clear_pointer (&back, ds_result_free);
  back = ds_result_load_data (data, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (ds_mark_options_const (&back->spec)->preset, "cdm-nvme");
  ck_assert_ptr_null (ds_mark_options_const (&back->spec)->rows);

  /* A row the parser refuses makes the file corrupt, saying which. */
  g_free (data);
  data = ds_result_to_data (r, NULL);
  parts = g_strsplit (data, "qd8,t1", -1);
  bad = g_strjoinv ("qd4096,t16", parts);
  g_clear_pointer (&back, ds_result_free);
  back = ds_result_load_data (bad, -1, &error);
  ck_assert_ptr_null (back);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_ptr_nonnull (strstr (error->message, "params.rows"));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("preset-rows");
  TCase *rows = tcase_create ("rows");

  tcase_add_test (rows, test_row_parse);
  tcase_add_test (rows, test_row_errors);
  tcase_add_test (rows, test_rows_normalize);
  tcase_add_test (rows, test_custom_steps);
  tcase_add_test (rows, test_params_round_trip);
  suite_add_tcase (s, rows);

  return ds_test_run_suite (s);
}
