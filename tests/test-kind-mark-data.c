/* test-kind-mark-data.c: a Workloads (mark) result's data and its JSON
 * without a run (core/kinds/mark/ds-mark-data.c, ds-mark-json.c); its
 * comparison, fio job and texts: test-kind-mark.c; its spec:
 * test-kind-mark-spec.c
 *
 * Unit suite: no root, no device.  What they promise: steps and data made
 * empty, copied deep (nothing shared with the original) and freed; the
 * "results" JSON member by member, read back to the same text, the rows
 * numbered by the preset's order or by first appearance, and every bad
 * member refused with the message that names it (another kind's results
 * too).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

#define GIB (UINT64_C (1) << 30)

/* A step of @row_id in @direction with @n_runs runs; with a measured run
 * (histogram and series) when @measured. */
static DsMarkStep *
step_new (const char      *row_id,
          DsMarkDirection  direction,
          guint            n_runs,
          gboolean         measured)
{
  DsMarkStep *step = ds_mark_step_new ();
  const DsLatencyBucket buckets[] = { { 1e-4, 3 }, { 2e-3, 1 } };

  step->id = g_strdup_printf ("%s-%s", row_id, ds_mark_direction_to_string (direction));
  step->row_id = g_strdup (row_id);
  step->label = g_ascii_strup (row_id, -1);
  step->direction = direction;
  step->pattern = direction == DS_MARK_MIX ? DS_PATTERN_RANDRW : DS_PATTERN_RANDREAD;
  step->block_size_bytes = 4096;
  step->queue_depth = 32;
  step->threads = 2;
  step->read_percent = direction == DS_MARK_MIX ? 70 : 100;
  step->complete = measured;
  for (guint i = 0; i < n_runs; i++)
    {
      DsMarkRun run = { 1e6 * (i + 1), 250.0 * (i + 1), 0.004 / (i + 1) };
      g_array_append_val (step->runs, run);
    }
  step->best_run = n_runs > 0 ? n_runs - 1 : 0;
  step->bytes_per_s = 1e6 * n_runs;
  step->iops = 250.0 * n_runs;
  step->lat_mean_s = n_runs > 0 ? 0.004 / n_runs : 0;
  if (measured)
    {
      DsWorkloadData *w = ds_workload_data_new ();
      DsIntervalPoint p = { .t_s = 1, .read = { 1e6, 250, 1e-4, 2e-3 } };

      w->runtime_s = 1;
      w->engine = g_strdup ("io_uring");
      w->interval_s = 1;
      w->read = (DsWorkloadDir) { .present = TRUE, .io_bytes = 16384, .ios = 4, .bytes_per_s = 1e6,
                                  .iops = 250, .lat_min_s = 1e-4, .lat_mean_s = 0.004, .lat_max_s = 0.01 };
      w->read.histogram = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));
      g_array_append_vals (w->read.histogram, buckets, G_N_ELEMENTS (buckets));
      w->series = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
      g_array_append_val (w->series, p);
      step->result = w;
    }
  return step;
}

/* cdm-default on a device: RND4K Q1T1 read (two runs, measured), then a
 * mix of it stopped before its first run ended. */
static DsMarkData *
data_new (void)
{
  DsMarkData *d = ds_mark_data_new ();

  d->preset = g_strdup ("cdm-default");
  d->test_size_bytes = GIB;
  d->count = 2;
  d->duration_s = 5;
  d->warmup_s = 1;
  d->pause_s = 0.5;
  d->interval_s = 1;
  d->os = g_strdup ("TestOS");
  d->steps_planned = 12;
  g_ptr_array_add (d->steps, step_new ("rnd4k-q1t1", DS_MARK_READ, 2, TRUE));
  g_ptr_array_add (d->steps, step_new ("rnd4k-q1t1", DS_MARK_MIX, 0, FALSE));
  return d;
}

static char *
data_text (const DsMarkData *d)
{
  g_autoptr (JsonNode) node = ds_mark_data_to_json (d);

  return ds_json_to_text (node, NULL);
}

/* ---- made, copied, freed ------------------------------------------------- */

START_TEST (test_new_free)
{
  DsMarkStep *step = ds_mark_step_new ();
  DsMarkData *d = ds_mark_data_new ();

  ck_assert_ptr_nonnull (step->runs);
  ck_assert_uint_eq (step->runs->len, 0);
  ck_assert_uint_eq (g_array_get_element_size (step->runs), sizeof (DsMarkRun));
  ck_assert (step->id == NULL && step->row_id == NULL && step->label == NULL && step->result == NULL);
  ck_assert (!step->complete && step->bytes_per_s == 0 && step->best_run == 0 && step->row == 0);
  ck_assert_int_eq (d->mix_percent, -1);
  ck_assert_uint_eq (d->steps->len, 0);
  ck_assert (d->preset == NULL && d->comment == NULL && d->os == NULL && d->directory == NULL);
  ck_assert (d->count == 0 && d->steps_planned == 0 && d->test_size_bytes == 0 && !d->buffered);
  /* The data owns its steps. */
  g_ptr_array_add (d->steps, step);
  ds_mark_data_free (d);
  ds_mark_step_free (NULL);
  ds_mark_data_free (NULL);
}
END_TEST

/* @step's JSON, as a result's; the step freed. */
static char *
step_text_free (DsMarkStep *step)
{
  DsMarkData *d = ds_mark_data_new ();
  char *text;

  g_ptr_array_add (d->steps, step);
  d->steps_planned = 1;
  text = data_text (d);
  ds_mark_data_free (d);
  return text;
}

/* A copy shares nothing with its step: the original freed, it is whole,
 * every member as it was. */
START_TEST (test_step_copy)
{
  DsMarkStep *step = step_new ("rnd4k-q32t2", DS_MARK_MIX, 3, TRUE);
  DsMarkStep *copy = ds_mark_step_copy (step);
  g_autofree char *before = NULL, *after = NULL, *bare = NULL, *bare_copy = NULL;

  ck_assert (copy->id != step->id && copy->row_id != step->row_id && copy->label != step->label);
  ck_assert (copy->runs != step->runs && copy->result != step->result);
  ck_assert (copy->result->engine != step->result->engine);
  ck_assert (copy->result->read.histogram != step->result->read.histogram);
  ck_assert (copy->result->series != step->result->series);
  ck_assert_ptr_null (copy->result->write.histogram);
  before = step_text_free (step);
  after = step_text_free (copy);
  ck_assert_str_eq (after, before);

  /* Nothing measured: no result in the copy either. */
  step = step_new ("seq1m-q8t1", DS_MARK_WRITE, 0, FALSE);
  copy = ds_mark_step_copy (step);
  ck_assert_ptr_null (copy->result);
  ck_assert_uint_eq (g_array_get_element_size (copy->runs), sizeof (DsMarkRun));
  bare = step_text_free (step);
  bare_copy = step_text_free (copy);
  ck_assert_str_eq (bare_copy, bare);
}
END_TEST

/* ---- JSON --------------------------------------------------------------- */

/* Every member, in the layout's order; nulls where nothing is known. */
START_TEST (test_json_write)
{
  DsMarkData *d = data_new ();
  g_autofree char *text = data_text (d);
  g_autofree char *folder = NULL;

  ck_assert_msg (g_str_has_prefix (text, "{\n  \"preset\" : \"cdm-default\",\n  \"profile\" : \"Default\",\n"
    "  \"test_size_bytes\" : 1073741824,\n  \"count\" : 2,\n  \"duration_s\" : 5.0,\n"
    "  \"warmup_s\" : 1.0,\n  \"pause_s\" : 0.5,\n  \"interval_s\" : 1.0,\n  \"mix_percent\" : null,\n"
    "  \"comment\" : null,\n  \"os\" : \"TestOS\",\n  \"directory\" : null,\n  \"buffered\" : false,\n"
    "  \"filesystem\" : null,\n  \"steps_planned\" : 12,\n  \"steps\" : [\n    {\n"
    "      \"id\" : \"rnd4k-q1t1-read\",\n      \"row\" : \"rnd4k-q1t1\",\n"
    "      \"label\" : \"RND4K-Q1T1\",\n      \"direction\" : \"read\",\n"
    "      \"pattern\" : \"randread\",\n      \"block_size_bytes\" : 4096,\n"
    "      \"queue_depth\" : 32,\n      \"threads\" : 2,\n      \"read_percent\" : 100,\n"
    "      \"complete\" : true,\n      \"bytes_per_s\" : 2000000.0,\n      \"iops\" : 500.0,\n"
    "      \"lat_mean_s\" : 0.002,\n      \"runs\" : [\n        {\n"
    "          \"bytes_per_s\" : 1000000.0,\n          \"iops\" : 250.0,\n"
    "          \"lat_mean_s\" : 0.004\n        },\n"), "%s", text);
  ck_assert_msg (strstr (text, "      ],\n      \"best_run\" : 1,\n      \"results\" : {\n"
                               "        \"runtime_s\" : 1.0,\n        \"engine\" : \"io_uring\",\n"), "%s", text);
  ck_assert_msg (g_str_has_suffix (text, "    {\n      \"id\" : \"rnd4k-q1t1-mix\",\n"
    "      \"row\" : \"rnd4k-q1t1\",\n      \"label\" : \"RND4K-Q1T1\",\n      \"direction\" : \"mix\",\n"
    "      \"pattern\" : \"randrw\",\n      \"block_size_bytes\" : 4096,\n      \"queue_depth\" : 32,\n"
    "      \"threads\" : 2,\n      \"read_percent\" : 70,\n      \"complete\" : false,\n"
    "      \"bytes_per_s\" : 0.0,\n      \"iops\" : 0.0,\n      \"lat_mean_s\" : 0.0,\n"
    "      \"runs\" : [],\n      \"best_run\" : 0,\n      \"results\" : null\n    }\n  ]\n}\n"), "%s", text);

  /* In a folder: its filesystem; a +Mix; a preset of no profile; no steps. */
  g_ptr_array_set_size (d->steps, 0);
  g_free (d->preset);
  d->preset = g_strdup ("fio-oltp");
  d->comment = g_strdup ("a \"comment\"");
  d->directory = g_strdup ("/srv/t");
  d->buffered = TRUE;
  d->fs_size_bytes = 100 * GIB;
  d->fs_free_bytes = 0;
  d->mix_percent = 0;
  folder = data_text (d);
  ck_assert_msg (strstr (folder, "  \"preset\" : \"fio-oltp\",\n  \"profile\" : null,\n") &&
                 strstr (folder, "  \"mix_percent\" : 0,\n  \"comment\" : \"a \\\"comment\\\"\",\n"
                                 "  \"os\" : \"TestOS\",\n  \"directory\" : \"/srv/t\",\n"
                                 "  \"buffered\" : true,\n  \"filesystem\" : {\n"
                                 "    \"size_bytes\" : 107374182400,\n    \"free_bytes\" : 0\n  },\n"
                                 "  \"steps_planned\" : 12,\n  \"steps\" : []\n}\n"), "%s", folder);
  ds_mark_data_free (d);
}
END_TEST

static DsMarkData *
read_back (const char  *text,
           GError     **error)
{
  g_autoptr (JsonNode) node = json_from_string (text, NULL);

  ck_assert_ptr_nonnull (node);
  return ds_mark_data_from_json (json_node_get_object (node), error);
}

static void
assert_loads (const DsMarkData *d)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = data_text (d);
  DsMarkData *back = read_back (text, &error);
  g_autofree char *again = NULL;

  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  again = data_text (back);
  ck_assert_str_eq (again, text);
  ds_mark_data_free (back);
}

/* Read back, the same text; rows numbered by the preset's order, or
 * after its rows in the order they first appear. */
START_TEST (test_json_round_trip)
{
  g_autoptr (GError) error = NULL;
  DsMarkData *d = data_new ();
  g_autofree char *text = NULL;
  DsMarkData *back;
  const char *rows[] = { "seq1m-q1t1", "b", "seq1m-q8t1", "a", "b" };
  const unsigned cdm[] = { 1, 4, 0, 5, 4 }, custom[] = { 0, 1, 2, 3, 1 };

  d->mix_percent = 70;
  d->comment = g_strdup ("a comment");
  d->directory = g_strdup ("/srv/t");
  d->fs_size_bytes = 5;
  d->fs_free_bytes = 6;
  assert_loads (d);
  g_ptr_array_set_size (d->steps, 0);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_ptr_array_add (d->steps, step_new (rows[i], DS_MARK_READ, 1, FALSE));
  for (guint k = 0; k < 2; k++)
    {
      g_free (text);
      text = data_text (d);
      back = read_back (text, &error);
      ck_assert_msg (back != NULL, "%s", error ? error->message : "");
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        ck_assert_uint_eq (((DsMarkStep *) back->steps->pdata[i])->row, k == 0 ? cdm[i] : custom[i]);
      ds_mark_data_free (back);
      g_free (d->preset);
      d->preset = g_strdup (DS_PRESET_CUSTOM);
    }
  ds_mark_data_free (d);
}
END_TEST

/* Replaces the member @path ("steps.0.runs.0.iops") of the JSON of
 * data_new() with @value (JSON text; NULL removes it): refused with
 * @expect. */
static void
assert_refused (const char *path,
                const char *value,
                const char *expect)
{
  g_autoptr (GError) error = NULL;
  DsMarkData *d = data_new ();
  g_autoptr (JsonNode) root = ds_mark_data_to_json (d);
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  guint n = g_strv_length (parts);
  JsonNode *node = root;
  g_autofree char *text = NULL;

  for (guint i = 0; i + 1 < n; i++)
    node = g_ascii_isdigit (parts[i][0]) ? json_array_get_element (json_node_get_array (node), atoi (parts[i]))
                                         : json_object_get_member (json_node_get_object (node), parts[i]);
  if (value == NULL)
    json_object_remove_member (json_node_get_object (node), parts[n - 1]);
  else
    json_object_set_member (json_node_get_object (node), parts[n - 1], json_from_string (value, NULL));
  text = ds_json_to_text (root, NULL);
  ck_assert_msg (read_back (text, &error) == NULL, "loaded; wanted “%s”", expect);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, expect);
  ds_mark_data_free (d);
}

#define S "results.steps[0]"

START_TEST (test_json_refused)
{
  const struct { const char *path, *value, *expect; } cases[] = {
    { "preset", NULL, "results.preset is missing" },
    { "preset", "null", "results.preset is null but steps were run" },
    { "comment", "[]", "results.comment is not a string" },
    { "test_size_bytes", "-1", "results.test_size_bytes is out of range (negative or above "
      "9223372036854775807; expected 0 to 9223372036854775807)" },
    { "count", "10", "results.count is out of range (10; expected 0 to 9)" },
    { "duration_s", "-1", "results.duration_s is out of range (-1; expected 0 to 1e+07)" },
    { "pause_s", "\"5\"", "results.pause_s is not a number" },
    { "buffered", "1", "results.buffered is not true or false" },
    { "steps_planned", "257", "results.steps_planned is out of range (257; expected 0 to 256)" },
    { "steps_planned", "1", "results.steps has 2 steps, more than the 1 planned" },
    { "mix_percent", "101", "results.mix_percent is out of range (101; expected 0 to 100)" },
    { "filesystem", "\"ext4\"", "results.filesystem is not an object" },
    { "filesystem", "{ \"size_bytes\" : 1 }", "results.filesystem.free_bytes is missing" },
    { "steps", "{}", "results.steps is not a list" },
    { "steps", "[7]", S " is not an object" },
    { "steps.0.id", NULL, S ".id is missing" },
    { "steps.0.label", "null", S " has no id, row or label" },
    { "steps.0.direction", "\"up\"", S ".direction is not read, write or mix" },
    { "steps.0.direction", "null", S ".direction is not read, write or mix" },
    { "steps.0.pattern", "\"zigzag\"", S ".pattern is unknown" },
    { "steps.0.block_size_bytes", "1073741825",
      S ".block_size_bytes is out of range (1073741825; expected 0 to 1073741824)" },
    { "steps.0.queue_depth", "4097", S ".queue_depth is out of range (4097; expected 0 to 4096)" },
    { "steps.0.threads", "1025", S ".threads is out of range (1025; expected 0 to 1024)" },
    { "steps.0.read_percent", "101", S ".read_percent is out of range (101; expected 0 to 100)" },
    { "steps.0.complete", NULL, S ".complete is missing" },
    { "steps.0.iops", "1e13", S ".iops is out of range (1e+13; expected 0 to 1e+12)" },
    { "steps.0.runs", "null", S ".runs is not a list" },
    { "steps.0.runs", "[1,2,3,4,5,6,7,8,9,10]", S ".runs has 10 runs, more than 9" },
    { "steps.0.runs", "[[]]", S ".runs[0] is not an object" },
    { "steps.0.runs.0.lat_mean_s", "1e7", S ".runs[0].lat_mean_s is out of range (1e+07; expected 0 to 1e+06)" },
    { "steps.0.best_run", "2", S ".best_run is not one of its 2 runs" },
    { "steps.0.best_run", "10", S ".best_run is out of range (10; expected 0 to 9)" },
    { "steps.0.results", NULL, S ".results is missing" },
    { "steps.0.results", "null", S " is complete but has no results" },
    { "steps.0.results", "[]", S ".results is not an object" },
    { "steps.0.results.runtime_s", NULL, S ".results.runtime_s is missing" },
    { "steps.1.results", NULL, "results.steps[1].results is missing" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_refused (cases[i].path, cases[i].value, cases[i].expect);
}
END_TEST

/* What loads that might look odd: no preset and no steps (a run refused
 * before it began); a best run of a step without runs; nothing planned
 * and one step.  And another kind's results are refused. */
START_TEST (test_json_edges)
{
  g_autoptr (GError) error = NULL;
  DsMarkData *d = data_new ();

  ((DsMarkStep *) d->steps->pdata[1])->best_run = 5;
  assert_loads (d);
  g_ptr_array_set_size (d->steps, 1);
  d->steps_planned = 0;
  assert_loads (d);
  g_ptr_array_set_size (d->steps, 0);
  g_clear_pointer (&d->preset, g_free);
  assert_loads (d);
  ds_mark_data_free (d);

  ck_assert_ptr_null (read_back ("{ \"runtime_s\" : 1.0, \"engine\" : null, \"cpu\" : { \"user_s\" : 0, "
                                 "\"system_s\" : 0 } }", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, "results.preset is missing");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-mark-data");
  TCase *tc = tcase_create ("mark-data");

  tcase_add_test (tc, test_new_free);
  tcase_add_test (tc, test_step_copy);
  tcase_add_test (tc, test_json_write);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_json_refused);
  tcase_add_test (tc, test_json_edges);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
