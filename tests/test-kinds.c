/* test-kinds.c: the kinds' table itself (core/kinds/common/ds-kinds.c)
 *
 * Unit suite: no root, no device.  What the table promises: one row per
 * DsBenchKind, in the enum's order, each row naming its own kind; the
 * names (the CLI's commands and the JSON's "test") exactly those files
 * have always held, unique, and found again by ds_bench_lookup() only as
 * spelled (another case, a blank, the enum's name, NULL or "" are
 * refused, as are kinds outside the enum in ds_bench_get()); a result of
 * each kind written with its row's name and read back as that kind; every
 * row whole (the hooks every kind must have) and consistent with its own
 * flags (a folder kind opens its own target and has a file size, a kind
 * with its own I/O says what it measured, row times come with
 * --duration's words, a capacity with a span to compare...); options_size
 * against the options hooks and what ds_bench_spec_init() and _copy()
 * make of them; params_members exactly what params_to_json writes, read
 * back by params_from_json, and no member of the common params.  Each
 * kind's own hooks are tested in its own files (test-kinds-json.c,
 * test-compare-kinds.c, test-bench-rules.c...).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

/* The names results have always been saved with, in the enum's order. */
static const char *const names[DS_BENCH_N_KINDS] = {
  "benchmark", "extra", "random-access", "block-size", "file", "workload",
  "health", "error-scan", "erase", "mark", "sweep", "sustain", "cache", "replay",
};

static const DsBenchOps *
row (unsigned k)
{
  const DsBenchOps *ops = ds_bench_get ((DsBenchKind) k);

  ck_assert_msg (ops != NULL, "kind %u has no row", k);
  return ops;
}

/* One row per kind, each its own, named as files name it. */
START_TEST (test_rows_and_names)
{
  ck_assert_int_eq (DS_BENCH_N_KINDS, 14);
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = row (k);

      ck_assert_int_eq (ops->kind, (int) k);
      ck_assert_str_eq (ops->name, names[k]);
      ck_assert_ptr_eq (ds_bench_lookup (names[k]), ops);
      ck_assert_msg (ops->title != NULL && *ops->title != '\0', "%s has no title", ops->name);
      for (unsigned j = 0; j < k; j++)
        {
          ck_assert_msg (row (j) != ops, "%s and %s share a row", names[j], names[k]);
          ck_assert_str_ne (row (j)->name, ops->name);
          ck_assert_str_ne (row (j)->title, ops->title);
        }
      /* A CLI command and a file name's part: lower case and dashes. */
      for (const char *c = ops->name; *c != '\0'; c++)
        ck_assert_msg (g_ascii_islower (*c) || *c == '-', "“%s”", ops->name);
    }
  ck_assert_str_eq (row (DS_BENCH_TRANSFER)->title, "Benchmark");
  ck_assert_str_eq (row (DS_BENCH_EXTRA)->title, "Extra Tests");
}
END_TEST

/* Only the names as spelled, only the kinds of the enum. */
START_TEST (test_unknown_refused)
{
  static const char *const unknown[] = {
    "", "Benchmark", "BENCHMARK", "benchmark ", " benchmark", "transfer", "random_access",
    "randomaccess", "block", "error_scan", "scan", "erase\n", "marks", "benchmarks",
    "health-", "-", "☃", "DS_BENCH_FILE",
  };

  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    ck_assert_msg (ds_bench_lookup (unknown[i]) == NULL, "“%s” found", unknown[i]);
  ck_assert_ptr_null (ds_bench_lookup (NULL));

  ck_assert_ptr_null (ds_bench_get (DS_BENCH_N_KINDS));
  ck_assert_ptr_null (ds_bench_get ((DsBenchKind) (DS_BENCH_N_KINDS + 1)));
  ck_assert_ptr_null (ds_bench_get ((DsBenchKind) -1));
  ck_assert_ptr_null (ds_bench_get ((DsBenchKind) G_MAXINT));
  ck_assert_ptr_null (ds_bench_get ((DsBenchKind) G_MININT));
  ck_assert (!ds_bench_kind_has_folder (DS_BENCH_N_KINDS));
  ck_assert (!ds_bench_kind_has_folder ((DsBenchKind) -1));

  /* Only the file test's target is a folder. */
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    ck_assert_msg (ds_bench_kind_has_folder ((DsBenchKind) k) == (k == DS_BENCH_FILE), "%s", names[k]);
}
END_TEST

/* A result of each kind says its row's name as "test", and that name
 * brings it back as the kind it was. */
START_TEST (test_json_names)
{
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      g_autoptr (DsResult) blank = ds_result_new_blank ((DsBenchKind) k);
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (DsResult) back = NULL;
      g_autoptr (GError) error = NULL;
      JsonObject *o;

      ck_assert_int_eq (blank->kind, (int) k);
      ck_assert_int_eq (blank->spec.kind, (int) k);
      g_free (blank->target.path);
      blank->target.path = g_strdup ("/dev/sdz");
      node = ds_result_to_json (blank);
      o = json_node_get_object (node);
      ck_assert_str_eq (json_object_get_string_member (o, "test"), names[k]);

      back = ds_result_from_json (node, &error);
      ck_assert_msg (back != NULL, "%s: %s", names[k], error->message);
      ck_assert_int_eq (back->kind, (int) k);
      ck_assert_int_eq (back->spec.kind, (int) k);
    }
}
END_TEST

/* What every row must have, whatever the kind. */
START_TEST (test_rows_whole)
{
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = row (k);

      ck_assert_msg (ops->data_new != NULL && ops->data_free != NULL, "%s: data hooks", ops->name);
      ck_assert_msg (ops->run != NULL, "%s: run", ops->name);
      ck_assert_msg (ops->to_json != NULL && ops->from_json != NULL, "%s: JSON hooks", ops->name);
      ck_assert_msg (ops->report != NULL, "%s: report", ops->name);
      ck_assert_msg (ops->settings != NULL, "%s: settings", ops->name);
      ck_assert_msg (ops->compare_rows != NULL, "%s: compare_rows", ops->name);
      ck_assert_msg (ops->fio_job != NULL, "%s: fio_job", ops->name);
      ck_assert_msg ((unsigned) ops->writes <= DS_BENCH_WRITES_DESTROYS, "%s: writes", ops->name);

      /* Made and freed by its own hooks. */
      {
        gpointer data = ops->data_new ();

        ck_assert_msg (data != NULL, "%s: data_new gave NULL", ops->name);
        ops->data_free (data);
      }
    }
}
END_TEST

/* Each flag and field against the hooks it implies. */
START_TEST (test_rows_consistent)
{
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = row (k);
      gboolean folder = (ops->spec_flags & DS_BENCH_SPEC_FOLDER) != 0;
      const char *n = ops->name;

      /* A folder: the kind makes its file there, of a size of its own. */
      ck_assert_msg (!folder || !ops->opens_target, "%s", n);
      ck_assert_msg (folder == (ops->file_size != NULL), "%s: file_size", n);
      ck_assert_msg ((ops->writes == DS_BENCH_WRITES_OWN_FILE) == folder, "%s: writes", n);
      /* The device the app asks for is not opened by the run. */
      ck_assert_msg (!(ops->spec_flags & DS_BENCH_SPEC_NEEDS_DEVICE) || !ops->opens_target, "%s", n);
      /* I/O outside the loop: the loop cannot say what was measured. */
      ck_assert_msg (!(ops->spec_flags & DS_BENCH_SPEC_OWN_IO) || ops->measured != NULL, "%s: measured", n);
      /* A time per row: --duration says it, and the accuracy shortens it. */
      ck_assert_msg (ops->default_row_ns == 0 || ops->duration_help != NULL, "%s: duration_help", n);
      ck_assert_msg (ops->default_row_ns == 0 || (ops->spec_flags & DS_BENCH_SPEC_ROWS_ACCURACY), "%s", n);
      ck_assert_msg (ops->default_row_ns == 0 || ops->default_duration_ns == 0, "%s: two times", n);
      /* Where on the disk matters exactly when a capacity may be given. */
      ck_assert_msg (ops->takes_capacity == (ops->compare_span != NULL), "%s: compare_span", n);
      ck_assert_msg (ops->min_span_bytes == 0 || ops->takes_capacity, "%s: min_span_bytes", n);
      /* A destroying write says what it does to the target. */
      ck_assert_msg ((ops->writes == DS_BENCH_WRITES_DESTROYS) == (ops->confirm_words != NULL), "%s", n);
      /* The I/O shape is the pattern's, and the pattern says the writes. */
      ck_assert_msg (!(ops->cli_options & DS_BENCH_CLI_SHAPE) || ops->writes == DS_BENCH_WRITES_PATTERN,
                     "%s: shape", n);
      ck_assert_msg (!(ops->cli_options & DS_BENCH_CLI_SHAPE) || (ops->spec_flags & DS_BENCH_SPEC_SERIES),
                     "%s: shape without a series", n);
      ck_assert_msg (!(ops->cli_options & DS_BENCH_CLI_BUFFERED) || folder, "%s: --buffered", n);
      ck_assert_msg (!(ops->spec_flags & DS_BENCH_SPEC_BLOCK_SETTING) ||
                     (ops->cli_options & DS_BENCH_CLI_BLOCK_SIZE), "%s: block setting", n);
      /* A sample detail copied is freed by its own, and a comparison's
       * extras need figures. */
      ck_assert_msg ((ops->detail_copy == NULL) == (ops->detail_free == NULL), "%s: detail", n);
      ck_assert_msg (ops->headline_keys == NULL || ops->headline_keys[0] != NULL, "%s: headline", n);
      ck_assert_msg (ops->default_block_bytes == 0 ||
                     (ops->default_block_bytes >= 512 &&
                      (ops->default_block_bytes & (ops->default_block_bytes - 1)) == 0),
                     "%s: default block %" G_GUINT64_FORMAT, n, ops->default_block_bytes);
    }

  /* Where the table says who is who. */
  ck_assert (!row (DS_BENCH_FILE)->opens_target);
  ck_assert (!row (DS_BENCH_HEALTH)->opens_target);
  ck_assert (!row (DS_BENCH_MARK)->opens_target);
  ck_assert (row (DS_BENCH_TRANSFER)->opens_target);
  ck_assert_ptr_nonnull (row (DS_BENCH_HEALTH)->from_foreign);
  ck_assert_ptr_nonnull (row (DS_BENCH_HEALTH)->headline_keys);
  ck_assert_uint_eq (row (DS_BENCH_SUSTAIN)->writes, DS_BENCH_WRITES_ALWAYS);
  ck_assert_uint_eq (row (DS_BENCH_HEALTH)->writes, DS_BENCH_WRITES_NEVER);
  ck_assert_uint_eq (row (DS_BENCH_ERROR_SCAN)->writes, DS_BENCH_WRITES_NEVER);
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    if (k != DS_BENCH_HEALTH)
      ck_assert_msg (row (k)->from_foreign == NULL, "%s reads another program's output", names[k]);
}
END_TEST

/* options_size against the options hooks, and what a spec makes of them. */
START_TEST (test_options)
{
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = row (k);
      DsBenchSpec spec, copy;

      /* Hooks only for a kind with options; copy and free go together. */
      ck_assert_msg (ops->options_size != 0 ||
                     (ops->options_new == NULL && ops->options_copy == NULL && ops->options_free == NULL),
                     "%s: options hooks without options_size", ops->name);
      ck_assert_msg ((ops->options_copy == NULL) == (ops->options_free == NULL), "%s: copy/free", ops->name);

      ds_bench_spec_init (&spec, (DsBenchKind) k);
      ck_assert_int_eq (spec.kind, (int) k);
      ck_assert_msg ((spec.options != NULL) == (ops->options_size != 0), "%s: spec.options", ops->name);
      if (spec.options != NULL && ops->options_new == NULL && ops->defaults == NULL)
        {
          /* Made zeroed. */
          g_autofree guint8 *zeros = g_malloc0 (ops->options_size);

          ck_assert_msg (memcmp (spec.options, zeros, ops->options_size) == 0, "%s: not zeroed", ops->name);
        }

      ds_bench_spec_copy (&copy, &spec);
      ck_assert_int_eq (copy.kind, (int) k);
      ck_assert_msg ((copy.options != NULL) == (spec.options != NULL), "%s", ops->name);
      if (spec.options != NULL)
        {
          ck_assert_ptr_ne (copy.options, spec.options);
          /* Byte for byte where the kind owns no strings in them. */
          if (ops->options_copy == NULL)
            ck_assert_msg (memcmp (copy.options, spec.options, ops->options_size) == 0, "%s", ops->name);
        }
      ds_bench_spec_clear (&copy);
      ds_bench_spec_clear (&spec);
      ck_assert_ptr_null (spec.options);
    }

  ck_assert_uint_ne (row (DS_BENCH_MARK)->options_size, 0);
  ck_assert_ptr_nonnull (row (DS_BENCH_MARK)->options_copy);
  ck_assert_uint_eq (row (DS_BENCH_TRANSFER)->options_size, 0);
  ck_assert_uint_eq (row (DS_BENCH_HEALTH)->options_size, 0);
}
END_TEST

static gboolean
in_list (const char *const *list,
         const char        *name)
{
  for (; list != NULL && *list != NULL; list++)
    if (strcmp (*list, name) == 0)
      return TRUE;
  return FALSE;
}

/* What params_to_json writes is exactly what params_members lists, and
 * params_from_json reads it back; no member of a kind's own is one of
 * the common ones (ds_params_prune() would drop it from other kinds). */
START_TEST (test_params_members)
{
  static const char *const common[] = {
    "target_path", "target_path_bytes", "write", "destroy_data_confirmed", "engine", "seed",
    "block_size_bytes", "capacity_bytes", "accuracy", "pattern", "queue_depth", "threads",
    "read_mix_percent", "duration_s", "ramp_s", "offset_bytes", "span_bytes", "buffered",
    "random_align_bytes", NULL,
  };
  guint n_with = 0;

  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = row (k);
      g_autoptr (JsonObject) params = json_object_new ();
      g_autoptr (GError) error = NULL;
      DsBenchSpec spec, back;
      guint n = 0;

      ck_assert_msg ((ops->params_to_json == NULL) == (ops->params_members == NULL) &&
                     (ops->params_to_json == NULL) == (ops->params_from_json == NULL),
                     "%s: params hooks and members", ops->name);
      if (ops->params_to_json == NULL)
        continue;
      n_with++;
      ck_assert_msg (ops->params_members[0] != NULL, "%s: no members", ops->name);
      ck_assert_msg (ops->options_size != 0, "%s: params of its own without options", ops->name);

      ds_bench_spec_init (&spec, (DsBenchKind) k);
      ops->params_to_json (&spec, params);
      for (const char *const *m = ops->params_members; *m != NULL; m++, n++)
        {
          ck_assert_msg (json_object_has_member (params, *m), "%s: %s not written", ops->name, *m);
          ck_assert_msg (!in_list (common, *m), "%s: %s is a common member", ops->name, *m);
          ck_assert_msg (!in_list (m + 1, *m), "%s: %s twice", ops->name, *m);
          for (unsigned j = 0; j < DS_BENCH_N_KINDS; j++)
            ck_assert_msg (j == k || !in_list (row (j)->params_members, *m), "%s and %s: %s",
                           ops->name, names[j], *m);
        }
      ck_assert_uint_eq (json_object_get_size (params), n);

      ds_bench_spec_init (&back, (DsBenchKind) k);
      ck_assert_msg (ops->params_from_json (params, &back, &error), "%s: %s", ops->name, error->message);
      ds_bench_spec_clear (&back);
      ds_bench_spec_clear (&spec);
    }
  /* The file test's size, the mark's preset and rows, the replay's trace. */
  ck_assert_uint_eq (n_with, 3);
  ck_assert (in_list (row (DS_BENCH_REPLAY)->params_members, "trace_path"));
  ck_assert (in_list (row (DS_BENCH_FILE)->params_members, "file_size_bytes"));
  ck_assert (in_list (row (DS_BENCH_MARK)->params_members, "preset"));
  ck_assert (in_list (row (DS_BENCH_MARK)->params_members, "rows"));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kinds");
  TCase *tc = tcase_create ("table");

  tcase_add_test (tc, test_rows_and_names);
  tcase_add_test (tc, test_unknown_refused);
  tcase_add_test (tc, test_json_names);
  tcase_add_test (tc, test_rows_whole);
  tcase_add_test (tc, test_rows_consistent);
  tcase_add_test (tc, test_options);
  tcase_add_test (tc, test_params_members);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
