/* test-sustain.c: the sustained write's analysis on synthetic series (a
 * cliff, none, dips, a dip at the end) and its result's JSON and report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-sustain.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MB 1e6

/* A series of @n one-second intervals with the write rates @mb_per_s. */
static GArray *
series (const double *mb_per_s,
        unsigned      n)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));

  for (unsigned i = 0; i < n; i++)
    {
      DsIntervalPoint p = { .t_s = i + 1.0 };

      p.write.bytes_per_s = mb_per_s[i] * MB;
      p.write.iops = p.write.bytes_per_s / (1 << 20);
      p.write.p50_s = 0.001;
      p.write.p99_s = 0.002;
      g_array_append_val (a, p);
    }
  return a;
}

/* 10 s at 100 MB/s, interval 10 at @mid, then @rest s at 10 MB/s. */
static GArray *
cliff_series (double   mid,
              unsigned rest)
{
  double r[64];
  unsigned n = 0;

  for (unsigned i = 0; i < 10; i++)
    r[n++] = 100;
  r[n++] = mid;
  for (unsigned i = 0; i < rest; i++)
    r[n++] = 10;
  return series (r, n);
}

static void
analyse (GArray            *s,
         DsSustainAnalysis *a)
{
  ds_sustain_analyse ((const DsIntervalPoint *) s->data, s->len, a);
}

START_TEST (test_cliff)
{
  g_autoptr (GArray) a = cliff_series (28, 30);
  g_autoptr (GArray) b = cliff_series (55, 30);
  DsSustainAnalysis x = { 0 };

  /* The drop inside interval 10: 28 = 0.2 × 100 + 0.8 × 10. */
  analyse (a, &x);
  ck_assert (x.cliff_found);
  ck_assert_double_eq_tol (x.start_bytes_per_s, 100 * MB, 1);
  ck_assert_double_eq_tol (x.cliff_bytes, 1020 * MB, 1);
  ck_assert_double_eq_tol (x.cliff_t_s, 10.2, 1e-9);
  ck_assert_double_eq_tol (x.floor_bytes_per_s, 10 * MB, 1);
  ck_assert_uint_eq (x.dips->len, 0);

  /* 55 MB/s is above half the start: the next interval is the cliff's,
   * and the estimate is off by the part of 55 that came from the floor. */
  analyse (b, &x);
  ck_assert (x.cliff_found);
  ck_assert_double_eq_tol (x.cliff_bytes, 1055 * MB, 1);
  ck_assert_double_eq_tol (x.floor_bytes_per_s, 10 * MB, 1);
  ds_sustain_analysis_clear (&x);
}
END_TEST

START_TEST (test_no_cliff)
{
  double r[40];
  g_autoptr (GArray) s = NULL;
  DsSustainAnalysis x = { 0 };

  /* ±10 % noise, no drop. */
  for (unsigned i = 0; i < 40; i++)
    r[i] = 100 + (i % 3 == 0 ? 10 : i % 3 == 1 ? -10 : 0);
  s = series (r, 40);
  analyse (s, &x);
  ck_assert (!x.cliff_found);
  ck_assert_double_eq_tol (x.floor_bytes_per_s, 100.25 * MB, 1e-3 * MB);
  ck_assert_uint_eq (x.dips->len, 0);
  ck_assert_double_eq (x.dip_period_s, 0);
  {
    DsSustainData data = { .run = ds_workload_data_new (), .analysis = x };
    g_autofree char *words = NULL;

    data.run->write.io_bytes = UINT64_C (4010) * 1000 * 1000;
    words = ds_sustain_cliff_words (&data);
    ck_assert_str_eq (words, "none: the rate never stayed below 50 % of the start rate over "
                             "the 4.01 GB written (a cache larger than that would not show)");
    ds_workload_data_free (data.run);
  }

  /* Nothing, one interval. */
  analyse (s, &x);
  ds_sustain_analyse (NULL, 0, &x);
  ck_assert (!x.cliff_found && x.dips->len == 0 && x.start_bytes_per_s == 0);
  ds_sustain_analyse ((const DsIntervalPoint *) s->data, 1, &x);
  ck_assert (!x.cliff_found);
  ck_assert_double_eq_tol (x.start_bytes_per_s, 110 * MB, 1);
  ds_sustain_analysis_clear (&x);
}
END_TEST

START_TEST (test_dips)
{
  double r[64];
  g_autoptr (GArray) flat = NULL;
  g_autoptr (GArray) after = NULL;
  DsSustainAnalysis x = { 0 };
  unsigned n = 0;

  /* 100 MB/s with a drop to 20 every 5 s: dips, not a cliff. */
  for (unsigned i = 0; i < 40; i++)
    r[i] = i % 5 == 4 ? 20 : 100;
  flat = series (r, 40);
  analyse (flat, &x);
  ck_assert (!x.cliff_found);
  ck_assert_uint_eq (x.dips->len, 8);
  ck_assert_double_eq_tol (x.dip_period_s, 5.0, 1e-9);
  ck_assert_double_eq_tol (g_array_index (x.dips, DsSustainDip, 0).t_s, 4.0, 1e-9);
  ck_assert_double_eq_tol (g_array_index (x.dips, DsSustainDip, 0).depth_ratio, 0.2, 1e-9);
  ds_sustain_analysis_clear (&x);

  /* Writes that stall often: 6 intervals of every 10 under half the
   * start rate, yet 52 % of it on average over the rest.  Dips, not a
   * cliff. */
  for (unsigned i = 0; i < 40; i++)
    r[i] = i % 10 < 4 ? 100 : i % 10 < 7 ? 0 : 40;
  g_clear_pointer (&flat, g_array_unref);
  flat = series (r, 40);
  analyse (flat, &x);
  ck_assert (!x.cliff_found);
  ck_assert_uint_ge (x.dips->len, 4);
  ds_sustain_analysis_clear (&x);

  /* A cliff, then a floor of 10 with drops of two intervals to 3 and 4
   * every 6 s: the dips are the floor's. */
  for (unsigned i = 0; i < 8; i++)
    r[n++] = 100;
  for (unsigned i = 0; i < 36; i++)
    r[n++] = i % 6 == 3 ? 3 : i % 6 == 4 ? 4 : 10;
  after = series (r, n);
  analyse (after, &x);
  ck_assert (x.cliff_found);
  /* The floor's dips pull the floor below the cliff interval's rate: the
   * estimate is off by a few MB here. */
  ck_assert_double_eq_tol (x.cliff_bytes, 800 * MB, 5 * MB);
  ck_assert_uint_eq (x.dips->len, 6);
  ck_assert_double_eq_tol (x.dip_period_s, 6.0, 1e-9);
  ck_assert_double_eq_tol (g_array_index (x.dips, DsSustainDip, 0).depth_ratio, 0.3, 1e-9);
  ds_sustain_analysis_clear (&x);
}
END_TEST

/* A deep dip in the last seconds is not a cliff. */
START_TEST (test_dip_at_the_end)
{
  double r[30];
  g_autoptr (GArray) s = NULL;
  DsSustainAnalysis x = { 0 };

  for (unsigned i = 0; i < 30; i++)
    r[i] = i >= 25 ? 0.5 : 100;
  s = series (r, 30);
  analyse (s, &x);
  ck_assert (!x.cliff_found);
  ck_assert_uint_eq (x.dips->len, 1);
  ds_sustain_analysis_clear (&x);
}
END_TEST

static DsResult *
sustain_result (gboolean with_recovery)
{
  DsResult *r = ds_test_result_new (DS_BENCH_SUSTAIN, "/dev/sdz", TRUE);
  DsSustainData *data = r->data;
  DsWorkloadDir *w = &data->run->write;

  data->run->series = cliff_series (28, 30);
  data->run->interval_s = 1;
  data->run->runtime_s = 41;
  data->run->engine = g_strdup ("io_uring");
  w->present = TRUE;
  w->io_bytes = 1328 * 1000 * 1000;
  w->ios = w->io_bytes >> 20;
  w->bytes_per_s = w->io_bytes / 41.0;
  w->iops = w->ios / 41.0;
  w->lat_min_s = 0.001;
  w->lat_mean_s = 0.01;
  w->lat_max_s = 0.1;
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    w->lat_percentile_s[k] = 0.002 + 0.0005 * k;
  data->region_bytes = w->io_bytes;
  ds_sustain_analyse ((const DsIntervalPoint *) data->run->series->data,
                      data->run->series->len, &data->analysis);
  if (with_recovery)
    {
      data->has_recovery = TRUE;
      data->recovery = (DsSustainRecovery) { .pause_s = 30, .bytes = 1020000000,
                                             .runtime_s = 11.3, .bytes_per_s = 90.3 * MB };
    }
  return r;
}

/* 128 KiB random writes at QD 8 over 10 GB from 1 GB in, for at most a
 * minute: its file says so, and the job exported from it is the run's. */
START_TEST (test_settings_kept)
{
  g_autoptr (DsResult) r = sustain_result (FALSE);

  r->spec.pattern = DS_PATTERN_RANDWRITE;
  r->spec.block_size_bytes = 131072;
  r->spec.queue_depth = 8;
  r->spec.offset_bytes = UINT64_C (1) << 30;
  r->spec.span_bytes = UINT64_C (10) * 1000 * 1000 * 1000;
  r->spec.duration_ns = UINT64_C (60) * 1000 * 1000 * 1000;
  ds_test_assert_settings_kept (r);
}
END_TEST

START_TEST (test_json_round_trip)
{
  for (int rec = 0; rec < 2; rec++)
    {
      g_autoptr (DsResult) r = sustain_result (rec);
      g_autoptr (DsResult) back = ds_test_round_trip (r);
      const DsSustainData *a = r->data;
      const DsSustainData *b = back->data;
      g_autofree char *text_a = ds_report_text (r, DS_UNITS_MB);
      g_autofree char *text_b = ds_report_text (back, DS_UNITS_MB);
      g_autoptr (JsonNode) root = ds_result_to_json (r);
      JsonObject *o = json_object_get_object_member (json_node_get_object (root), "results");

      ck_assert (b->analysis.cliff_found);
      ck_assert_double_eq (a->analysis.cliff_bytes, b->analysis.cliff_bytes);
      ck_assert_double_eq (a->analysis.floor_bytes_per_s, b->analysis.floor_bytes_per_s);
      ck_assert_uint_eq (b->run->series->len, 41);
      ck_assert_int_eq (b->has_recovery, rec);
      ck_assert_double_eq (a->recovery.bytes_per_s, b->recovery.bytes_per_s);
      ck_assert_str_eq (text_a, text_b);

      /* The names scripts rely on. */
      ck_assert_double_eq_tol (json_object_get_double_member (o, "cliff_bytes"), 1020 * MB, 1);
      ck_assert (json_object_has_member (o, "floor_bytes_per_s"));
      ck_assert (json_object_has_member (o, "series") && json_object_has_member (o, "dips"));
      ck_assert_msg (strstr (text_a, "Cliff                 : after 1.02 GB (10.2 s)") != NULL, "%s", text_a);
      ck_assert (strstr (text_a, "Floor                 : 10.0 MB/s (after the cliff)") != NULL);
      ck_assert_msg (strstr (text_a, "cliff 1.03 GB") != NULL, "%s", text_a);
      if (rec)
        ck_assert_msg (strstr (text_a, "Recovery              : after 30 s idle: 90.3 MB/s over 1.02 GB (90 % of the start rate)") != NULL, "%s", text_a);
    }
}
END_TEST

/* The figures come from the series: a file that claims another cliff
 * loads with the series' own; a missing recovery is refused. */
START_TEST (test_json_derived_and_strict)
{
  g_autoptr (DsResult) r = sustain_result (FALSE);
  g_autofree char *text = ds_result_to_data (r, NULL);
  g_autoptr (JsonNode) root = ds_result_to_json (r);
  g_autofree char *forged = NULL;
  g_autoptr (GString) missing = g_string_new (text);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (DsResult) refused = NULL;
  JsonObject *o = json_object_get_object_member (json_node_get_object (root), "results");

  json_object_set_double_member (o, "cliff_bytes", 5.0);
  forged = ds_json_to_text (root, NULL);
  loaded = ds_result_load_data (forged, -1, &error);
  ck_assert_msg (loaded != NULL, "%s", error->message);
  ck_assert_double_eq_tol (((DsSustainData *) loaded->data)->analysis.cliff_bytes, 1020 * MB, 1);

  g_string_replace (missing, "\"recovery\" : null", "\"recovered\" : null", 1);
  refused = ds_result_load_data (missing->str, (gssize) missing->len, &error);
  ck_assert (refused == NULL);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (strstr (error->message, "results.recovery") != NULL, "%s", error->message);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("sustain");
  TCase *tc = tcase_create ("sustain");

  ds_test_init ("sustain");
  tcase_add_test (tc, test_cliff);
  tcase_add_test (tc, test_no_cliff);
  tcase_add_test (tc, test_dips);
  tcase_add_test (tc, test_dip_at_the_end);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_settings_kept);
  tcase_add_test (tc, test_json_derived_and_strict);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
