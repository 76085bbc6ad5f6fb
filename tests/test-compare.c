/* test-compare.c: comparisons of results and their text, CSV, Markdown and
 * JSON forms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-annotation.h"
#include "ds-bench-file.h"
#include "ds-bench-mark.h"
#include "ds-bench-transfer.h"
#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-library-entry.h"
#include "ds-test-library.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static const DsCompareRow *
row (const DsComparison *cmp,
     const char         *key)
{
  for (guint i = 0; i < cmp->rows->len; i++)
    if (strcmp (((DsCompareRow *) cmp->rows->pdata[i])->key, key) == 0)
      return cmp->rows->pdata[i];

  ck_abort_msg ("no row %s", key);
  return NULL;
}

/* Seed 000's two arrays, their read Benchmark figures: DX440 (500 GB)
 * and CX3-80 on a LUN of another size. */
static void
make_pair (DsResult **a,
           DsResult **b)
{
  *a = ds_test_library_transfer ("FUJITSU ETERNUS_DX400", UINT64_C (500) * 1000000000,
                                148.6e6, 166.4e6, 0.00594, "2012-10-19T02:10:00Z");
  *b = ds_test_library_transfer ("FSC FC66RAID 5", UINT64_C (250) * 1000000000,
                                120e6, 180e6, 0.0031, "2012-10-19T04:10:00Z");
  ds_annotation_set_label (&(*a)->annotation, "DX440 RAID 5", NULL);
  ds_annotation_set_label (&(*b)->annotation, "CX3-80 RAID 5", NULL);
}

START_TEST (test_transfer_rows)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (GError) error = NULL;
  const char *sources[] = { "dx440.json", "cx3.json" };
  const DsCompareRow *r;
  DsResult *results[2];

  make_pair (&a, &b);
  /* CPU 1.5 % and 1.506 %: within 0.5 %, a tie. */
  ((DsTransferData *) b->data)->read.cpu_percent = 1.506;
  results[0] = a;
  results[1] = b;
  cmp = ds_comparison_new (results, sources, 2, &error);
  ck_assert_msg (cmp != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (row (cmp, "read.cpu_usage")->best, -1);

  ck_assert_int_eq (cmp->kind, DS_BENCH_TRANSFER);
  ck_assert_uint_eq (ds_comparison_get_n_columns (cmp), 2);
  ck_assert_str_eq (ds_comparison_get_column (cmp, 0)->label, "DX440 RAID 5");
  ck_assert_str_eq (ds_comparison_get_column (cmp, 1)->source, "cx3.json");
  ck_assert_int_eq (ds_comparison_get_column (cmp, 1)->letter, 'B');

  r = row (cmp, "read.transfer_min");
  ck_assert_str_eq (r->section, "Read transfer rate");
  ck_assert_str_eq (r->name, "Transfer Rate Minimum");
  ck_assert_double_eq (r->values[0], 148.6e6);
  ck_assert_double_eq (r->values[1], 120e6);
  ck_assert_int_eq (r->best, 0);                        /* higher is better */
  ck_assert_double_eq_tol (ds_compare_row_ratio (r, 1), 120.0 / 148.6, 1e-12);

  r = row (cmp, "read.access_time");
  ck_assert (!r->higher_is_better);
  ck_assert_int_eq (r->best, 1);                        /* lower is better */
  ck_assert_double_eq_tol (ds_compare_row_ratio (r, 1), 0.0031 / 0.00594, 1e-12);

  /* Different capacities: bands and curves on % of each. */
  ck_assert (cmp->x_percent);
  r = row (cmp, "read.band_80_100");
  ck_assert_str_eq (r->name, "Transfer Rate at 80–100 %");
  /* Points 160..199 of a linear ramp: mean at i = 179.5. */
  ck_assert_double_eq_tol (r->values[0], 148.6e6 + (166.4e6 - 148.6e6) * 179.5 / 199, 1);
  ck_assert_double_eq_tol (r->values[1], 120e6 + 60e6 * 179.5 / 199, 1);
  ck_assert_int_eq (r->best, 1);
  {
    g_autoptr (GArray) points = NULL;
    g_autoptr (GArray) dots = NULL;

    ck_assert (ds_comparison_get_curve (cmp, 1, FALSE, &points, &dots));
    ck_assert_uint_eq (points->len, 200);
    ck_assert_double_eq_tol (g_array_index (points, DsCurvePoint, 100).x, 0.5, 1e-9);
    ck_assert_uint_eq (dots->len, 50);
    ck_assert_double_eq_tol (g_array_index (dots, DsAccessDot, 0).access_s, 0.0031, 1e-12);
    ck_assert (!ds_comparison_get_curve (cmp, 1, TRUE, NULL, NULL));
  }
  ck_assert_ptr_nonnull (strstr (cmp->notes->pdata[0], "tested capacities differ"));

  /* One capacity: x in bytes. */
  {
    g_autoptr (DsComparison) same = NULL;
    g_autoptr (GArray) points = NULL;

    results[1] = a;
    same = ds_comparison_new (results, NULL, 2, &error);
    ck_assert (!same->x_percent);
    ck_assert (ds_comparison_get_curve (same, 0, FALSE, &points, NULL));
    ck_assert_double_eq (g_array_index (points, DsCurvePoint, 100).x,
                         (double) (UINT64_C (500) * 1000000000 / 200 * 100));
    /* Equal values: a tie, nobody marked. */
    ck_assert_int_eq (row (same, "read.transfer_avg")->best, -1);
    ck_assert_double_eq (ds_compare_row_ratio (row (same, "read.transfer_avg"), 1), 1.0);
  }
}
END_TEST

START_TEST (test_missing_figures_and_failed_points)
{
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  DsTransferData *d;
  DsResult *results[2];

  make_pair (&a, &b);
  /* B: no burst rate measured, a write scan too, and a failed point. */
  d = b->data;
  d->read.burst_bytes_per_s = -1;
  g_array_index (d->read.points, DsTransferPoint, 10).error = 5;
  g_array_index (d->read.points, DsTransferPoint, 10).bytes_per_s = 0;
  d->write.present = TRUE;
  d->write.min_bytes_per_s = 1e8;
  d->write.max_bytes_per_s = 2e8;
  d->write.avg_bytes_per_s = 1.5e8;
  d->write.access_time_s = -1;
  d->write.burst_bytes_per_s = -1;
  d->write.cpu_percent = -1;
  b->cancelled = TRUE;
  b->complete = FALSE;

  results[0] = a;
  results[1] = b;
  cmp = ds_comparison_new (results, NULL, 2, &error);
  ck_assert_ptr_nonnull (cmp);

  ck_assert (isnan (row (cmp, "read.burst_rate")->values[1]));
  ck_assert_int_eq (row (cmp, "read.burst_rate")->best, -1);
  ck_assert (isnan (ds_compare_row_ratio (row (cmp, "read.burst_rate"), 1)));
  ck_assert (isnan (row (cmp, "write.transfer_min")->values[0]));
  ck_assert_double_eq (row (cmp, "write.transfer_min")->values[1], 1e8);
  {
    g_autoptr (GArray) points = NULL;

    ck_assert (ds_comparison_get_curve (cmp, 1, FALSE, &points, NULL));
    ck_assert (isnan (g_array_index (points, DsCurvePoint, 10).bytes_per_s));
  }

  text = ds_comparison_to_text (cmp, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "Burst Rate") != NULL, "%s", text);
  ck_assert_msg (strstr (text, "\nWrite transfer rate") != NULL, "%s", text);
  ck_assert_msg (strstr (text, "B was stopped before the end") != NULL, "%s", text);
}
END_TEST

START_TEST (test_kinds_must_match)
{
  g_autoptr (DsResult) a = ds_test_library_transfer ("A", 1 << 30, 1e8, 2e8, 0.001, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) w = ds_test_library_workload ("W", DS_PATTERN_RANDREAD, 1e8, 1e-4, "2020-01-01T00:00:00Z");
  g_autoptr (GError) error = NULL;
  const char *sources[] = { "a.json", "w.json" };
  DsResult *results[2] = { a, w };

  ck_assert_ptr_null (ds_comparison_new (results, sources, 2, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message, "a.json is a result of the benchmark test and w.json of the "
                    "workload test: compare results of one kind");
  /* No article before a kind's name ("a extra result", issue 25). */
  {
    g_autoptr (DsResult) x = ds_test_extra_result (FALSE);
    g_autoptr (GError) local = NULL;
    DsResult *pair[2] = { a, x };

    ck_assert_ptr_null (ds_comparison_new (pair, NULL, 2, &local));
    ck_assert_msg (strstr (local->message, "of the extra test") != NULL &&
                   strstr (local->message, "a extra") == NULL, "%s", local->message);
  }
  g_clear_error (&error);
  ck_assert_ptr_null (ds_comparison_new (results, sources, 1, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
}
END_TEST

START_TEST (test_three_workloads)
{
  g_autoptr (DsResult) a = ds_test_library_workload ("A", DS_PATTERN_RANDREAD, 100e6, 200e-6, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("B", DS_PATTERN_RANDREAD, 300e6, 100e-6, "2020-01-02T00:00:00Z");
  g_autoptr (DsResult) c = ds_test_library_workload ("C", DS_PATTERN_RANDRW, 50e6, 400e-6, "2020-01-03T00:00:00Z");
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *md = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *json = NULL;
  DsResult *results[3] = { a, b, c };
  const DsCompareRow *r;

  cmp = ds_comparison_new (results, NULL, 3, &error);
  ck_assert_ptr_nonnull (cmp);

  r = row (cmp, "read.bandwidth");
  ck_assert_str_eq (r->section, "Workload, read");
  ck_assert_int_eq (r->best, 1);
  ck_assert_double_eq_tol (ds_compare_row_ratio (r, 1), 3.0, 1e-12);
  ck_assert_double_eq_tol (ds_compare_row_ratio (r, 2), 0.5, 1e-12);
  r = row (cmp, "read.lat_p99");
  ck_assert_int_eq (r->best, 1);
  /* Only C wrote: its write rows have one value, nobody is "better". */
  r = row (cmp, "write.bandwidth");
  ck_assert (isnan (r->values[0]) && isnan (r->values[1]));
  ck_assert_int_eq (r->best, -1);
  /* The profiles differ (C is randrw): said. */
  ck_assert_msg (strstr (cmp->notes->pdata[0], "set up differently") != NULL, "%s",
                 (char *) cmp->notes->pdata[0]);

  text = ds_comparison_to_text (cmp, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "\nBandwidth        100.0 MB/s    300.0 MB/s *   50.0 MB/s    3.00  0.50\n") != NULL,
                 "%s", text);
  ck_assert_msg (strstr (text, "Workload, read            A             B             C     B/A   C/A\n") != NULL, "%s", text);

  md = ds_comparison_to_markdown (cmp, DS_UNITS_MIB);
  ck_assert_msg (strstr (md, "| Bandwidth | 95.4 MiB/s | **286.1 MiB/s** | 47.7 MiB/s | 3.00 | 0.50 |") != NULL,
                 "%s", md);
  ck_assert_msg (strstr (md, "|---|---:|---:|---:|---:|---:|") != NULL, "%s", md);

  csv = ds_comparison_to_csv (cmp, DS_UNITS_MB);
  ck_assert_msg (g_str_has_prefix (csv, "section,figure,measure,unit,A: A · 2020-01-0"), "%s", csv);
  ck_assert_msg (strstr (csv, "\"Workload, read\",Bandwidth,,MB/s,100,300,50,3,0.5,B\r\n") != NULL, "%s", csv);

  json = ds_comparison_to_json_data (cmp);
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root;
    JsonArray *rows;
    JsonObject *first;

    ck_assert (json_parser_load_from_data (parser, json, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    ck_assert_str_eq (json_object_get_string_member (root, "schema"), "diskscope-compare/1");
    ck_assert_str_eq (json_object_get_string_member (root, "test"), "workload");
    ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (root, "columns")), 3);
    rows = json_object_get_array_member (root, "rows");
    first = json_array_get_object_element (rows, 0);
    ck_assert_str_eq (json_object_get_string_member (first, "key"), "read.bandwidth");
    ck_assert_str_eq (json_object_get_string_member (first, "unit"), "bytes_per_s");
    ck_assert_int_eq (json_object_get_int_member (first, "best"), 1);
    ck_assert_double_eq_tol (json_array_get_double_element (json_object_get_array_member (first, "values"), 1),
                             300e6, 1e-3);
    ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (first, "ratios")), 2);
  }
}
END_TEST

/* A run with 512-byte random offsets (HD Tune's rule; every result saved
 * before issue 25) beside one on the block size: said. */
START_TEST (test_alignment_note)
{
  g_autoptr (DsResult) a = ds_test_library_workload ("A", DS_PATTERN_RANDREAD, 100e6, 200e-6, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("B", DS_PATTERN_RANDREAD, 90e6, 220e-6, "2020-01-02T00:00:00Z");
  g_autoptr (DsComparison) same = NULL;
  g_autoptr (DsComparison) cmp = NULL;
  DsResult *results[2] = { a, b };
  gboolean found = FALSE;

  same = ds_comparison_new (results, NULL, 2, NULL);
  for (guint i = 0; i < same->notes->len; i++)
    ck_assert_msg (strstr (same->notes->pdata[i], "aligned") == NULL, "%s", (char *) same->notes->pdata[i]);

  b->spec.random_align_bytes = 512;
  cmp = ds_comparison_new (results, NULL, 2, NULL);
  for (guint i = 0; i < cmp->notes->len; i++)
    if (strstr (cmp->notes->pdata[i], "the random offsets were aligned differently (A: multiples of "
                "the block size, B: multiples of 512 bytes)") != NULL)
      found = TRUE;
  ck_assert_msg (found, "no alignment note among %u", cmp->notes->len);
}
END_TEST

/* What a column's heading says of its run (issue 25): the file tested
 * (not the size asked for: "1.1 GB test file" for a 941 MB one), a full
 * mark as reads and writes (not "write"), Health as SMART. */
START_TEST (test_describe_runs)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) file = NULL;
  g_autoptr (DsResult) mark = NULL;
  g_autoptr (DsResult) reads = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *mark_text = NULL;
  g_autofree char *reads_text = NULL;

  ds_bench_spec_init (&spec, DS_BENCH_FILE);
  spec.target_path = g_strdup ("/mnt");
  file = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  ((DsFileData *) file->data)->file_bytes = 941 * 1000 * 1000;
  file_text = ds_result_describe (file);
  ck_assert_str_eq (file_text, "941 MB test file");

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  spec.target_path = g_strdup ("/dev/sdz");
  spec.write = TRUE;
  mark = ds_result_new (&spec);
  spec.write = FALSE;
  ds_mark_options (&spec)->reads_only = TRUE;
  reads = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  mark_text = ds_result_describe (mark);
  reads_text = ds_result_describe (reads);
  ck_assert_str_eq (mark_text, "cdm-default, reads and writes");
  ck_assert_str_eq (reads_text, "cdm-default, reads only");
}
END_TEST

/* Labels come from files anyone may have written: no terminal escapes in
 * the text, no formulas in the CSV, no broken Markdown tables. */
START_TEST (test_hostile_labels)
{
  g_autoptr (DsResult) a = ds_test_library_workload ("A", DS_PATTERN_RANDREAD, 1e8, 1e-4, "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_workload ("B\033[2J", DS_PATTERN_RANDREAD, 2e8, 1e-4, "2020-01-01T00:00:00Z");
  g_autoptr (DsComparison) cmp = NULL;
  g_autofree char *text = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *md = NULL;
  DsResult *results[2] = { a, b };

  ds_annotation_set_label (&a->annotation, "=HYPERLINK(\"x\"), \"quoted\"", NULL);
  ds_annotation_set_label (&b->annotation, "a | b", NULL);
  cmp = ds_comparison_new (results, NULL, 2, NULL);

  text = ds_comparison_to_text (cmp, DS_UNITS_MB);
  ck_assert_ptr_null (strchr (text, '\033'));
  csv = ds_comparison_to_csv (cmp, DS_UNITS_MB);
  ck_assert_msg (strstr (csv, ",\"A: =HYPERLINK(\"\"x\"\"), \"\"quoted\"\"\",") != NULL, "%s", csv);
  md = ds_comparison_to_markdown (cmp, DS_UNITS_MB);
  ck_assert_msg (strstr (md, "| **B** | a \\| b |") != NULL, "%s", md);
  ck_assert_ptr_null (strchr (md, '\033'));
}
END_TEST

START_TEST (test_format_value)
{
  struct { DsCompareUnit unit; double v; const char *want; } cases[] = {
    { DS_COMPARE_RATE, 153.9e6, "153.9 MB/s" },
    { DS_COMPARE_TIME, 0.00594, "5.940 ms" },
    { DS_COMPARE_IOPS, 198.4, "198 IOPS" },
    { DS_COMPARE_IOPS, 54.25, "54.2 IOPS" },
    { DS_COMPARE_PERCENT, 0.1, "0.1%" },
    { DS_COMPARE_RATE, NAN, "–" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = ds_compare_format_value (cases[i].unit, cases[i].v, DS_UNITS_MB);
      ck_assert_str_eq (s, cases[i].want);
    }
  {
    g_autofree char *r1 = ds_compare_format_ratio (0.8123);
    g_autofree char *r2 = ds_compare_format_ratio (33.75);
    g_autofree char *r3 = ds_compare_format_ratio (NAN);

    ck_assert_str_eq (r1, "0.81");
    ck_assert_str_eq (r2, "33.8");
    ck_assert_str_eq (r3, "–");
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("compare");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_transfer_rows);
  tcase_add_test (tc, test_missing_figures_and_failed_points);
  tcase_add_test (tc, test_kinds_must_match);
  tcase_add_test (tc, test_three_workloads);
  tcase_add_test (tc, test_alignment_note);
  tcase_add_test (tc, test_describe_runs);
  tcase_add_test (tc, test_hostile_labels);
  tcase_add_test (tc, test_format_value);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
