/* test-sweep.c: the sweep's rules on synthetic curves (the knee, steady,
 * Little's law, the levels) and its result's JSON and report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-sweep.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MAX_STEPS 16

/* Levels 1, 2, 4 … (queue depths, one thread) with @iops[i] and @p99_ms[i];
 * the mean latency as Little's law makes it. */
static unsigned
curve (DsSweepStep  *steps,
       const double *iops,
       const double *p99_ms,
       unsigned      n)
{
  g_assert (n <= MAX_STEPS);
  for (unsigned i = 0; i < n; i++)
    {
      unsigned qd = 1u << i;

      steps[i] = (DsSweepStep) {
        .outstanding = qd, .queue_depth = qd, .threads = 1, .complete = TRUE,
        .runtime_s = 10, .ios = (uint64_t) (iops[i] * 10), .iops = iops[i],
        .bytes_per_s = iops[i] * 4096, .steady_at_s = -1,
        .lat_mean_s = qd / iops[i], .lat_p50_s = qd / iops[i],
        .lat_p99_s = p99_ms[i] / 1e3, .lat_p99_9_s = 2 * p99_ms[i] / 1e3,
      };
      steps[i].little_outstanding = steps[i].iops * steps[i].lat_mean_s;
    }
  return n;
}

/* A device that serves N at once: IOPS = min(qd, N) / service. */
START_TEST (test_knee_saturating)
{
  static const unsigned actuators[] = { 1, 2, 4, 16, 32 };

  for (unsigned a = 0; a < G_N_ELEMENTS (actuators); a++)
    {
      double iops[8], p99[8];
      DsSweepStep steps[MAX_STEPS];
      DsSweepKnee knee;

      for (unsigned i = 0; i < 8; i++)
        {
          double qd = 1u << i;

          iops[i] = MIN (qd, actuators[a]) / 0.002;
          p99[i] = 2.2 * MAX (1.0, qd / actuators[a]);
        }
      ck_assert (ds_sweep_find_knee (steps, curve (steps, iops, p99, 8), &knee));
      ck_assert_uint_eq (knee.outstanding, actuators[a]);
      ck_assert_double_eq_tol (knee.iops, actuators[a] / 0.002, 1e-6);
      if (actuators[a] < 128)
        {
          ck_assert_double_eq_tol (knee.p99_growth_per_step, 2.0, 1e-9);
          ck_assert_double_eq_tol (knee.iops_gain_per_step, 0.0, 1e-9);
        }
    }
}
END_TEST

/* The example: a soft knee with noise on the plateau. */
START_TEST (test_knee_soft_and_noisy)
{
  const double iops[] = { 5200, 10100, 19000, 31000, 41200, 42500, 41900, 43100 };
  const double p99[] = { 0.3, 0.31, 0.35, 0.45, 0.7, 1.3, 2.6, 5.1 };
  DsSweepStep steps[MAX_STEPS];
  DsSweepKnee knee;
  DsSweepData data = { 0 };
  g_autofree char *words = NULL;

  ck_assert (ds_sweep_find_knee (steps, curve (steps, iops, p99, 8), &knee));
  ck_assert_uint_eq (knee.outstanding, 16);
  ck_assert_uint_eq (knee.index, 4);

  data.levels = g_array_new (FALSE, FALSE, sizeof (unsigned));
  data.steps = g_array_new (FALSE, FALSE, sizeof (DsSweepStep));
  g_array_append_vals (data.steps, steps, 8);
  ds_sweep_update_knee (&data);
  words = ds_sweep_knee_words (&data);
  ck_assert_str_eq (words, "saturates at QD 16: 41 200 IOPS (p99 0.700 ms); past it p99 "
                           "latency grows 1.9× per step for 2 % more IOPS");
  g_array_unref (data.levels);
  g_array_unref (data.steps);
}
END_TEST

/* IOPS that fall past the knee, or stay: not "for -8 % IOPS", nor "for
 * -0 % IOPS" (issue 25). */
START_TEST (test_knee_words_falling)
{
  static const double falling[] = { 5200, 10100, 19000, 31000, 41200, 39000, 36000, 33000 };
  static const double flat[] = { 5200, 10100, 19000, 31000, 41200, 41100, 41300, 41000 };
  static const double p99[] = { 0.3, 0.31, 0.35, 0.45, 0.7, 1.3, 2.6, 5.1 };
  const double *curves[] = { falling, flat };
  const char *want[] = { "per step while IOPS fall 7 %", "per step for no more IOPS" };

  for (guint c = 0; c < G_N_ELEMENTS (curves); c++)
    {
      DsSweepStep steps[MAX_STEPS];
      DsSweepData data = { 0 };
      g_autofree char *words = NULL;

      data.levels = g_array_new (FALSE, FALSE, sizeof (unsigned));
      data.steps = g_array_new (FALSE, FALSE, sizeof (DsSweepStep));
      g_array_append_vals (data.steps, steps, curve (steps, curves[c], p99, 8));
      ds_sweep_update_knee (&data);
      words = ds_sweep_knee_words (&data);
      ck_assert_msg (data.knee.found, "%s", words);
      ck_assert_msg (strstr (words, want[c]) != NULL, "%s", words);
      ck_assert_msg (strstr (words, "-") == NULL && strstr (words, "+") == NULL, "%s", words);
      g_array_unref (data.levels);
      g_array_unref (data.steps);
    }
}
END_TEST

static char *
no_knee_words (const double *iops,
               const double *p99,
               unsigned      n)
{
  DsSweepStep steps[MAX_STEPS];
  DsSweepKnee knee;
  DsSweepData data = { 0 };
  char *words;

  curve (steps, iops, p99, n);
  ck_assert (!ds_sweep_find_knee (steps, n, &knee));
  ck_assert (!knee.found);
  data.steps = g_array_new (FALSE, FALSE, sizeof (DsSweepStep));
  g_array_append_vals (data.steps, steps, n);
  ds_sweep_update_knee (&data);
  ck_assert (!data.knee.found);
  words = ds_sweep_knee_words (&data);
  g_array_unref (data.steps);
  return words;
}

/* No knee: still climbing; levelled off with flat latency; one level. */
START_TEST (test_no_knee)
{
  const double linear[] = { 500, 1000, 2000, 4000, 8000, 16000 };
  const double flat_p99[] = { 2, 2, 2, 2, 2, 2 };
  const double slowing[] = { 500, 900, 1500, 2100, 2600, 3000 };
  const double growing_p99[] = { 2, 2.2, 2.6, 3.8, 6.1, 10.6 };
  const double capped[] = { 500, 1000, 1000, 1010, 1000, 1000 };
  g_autofree char *a = no_knee_words (linear, flat_p99, 6);
  g_autofree char *b = no_knee_words (slowing, growing_p99, 6);
  g_autofree char *c = no_knee_words (capped, flat_p99, 6);
  g_autofree char *d = no_knee_words (linear, flat_p99, 1);
  g_autofree char *e = no_knee_words (linear, flat_p99, 0);

  ck_assert_msg (strstr (a, "still grow at the last level (+100 % from QD 16 to QD 32)") != NULL, "%s", a);
  /* +15 % a step at the end is still growth. */
  ck_assert_msg (strstr (b, "still grow") != NULL, "%s", b);
  ck_assert_msg (strstr (c, "level off but p99 latency does not grow") != NULL, "%s", c);
  ck_assert_str_eq (d, "no knee: fewer than two levels were measured");
  ck_assert_str_eq (e, "no knee: fewer than two levels were measured");
}
END_TEST

/* A plateau that later climbs again (a second tier) is not a knee; the
 * knee is found past it; incomplete levels do not count. */
START_TEST (test_knee_second_tier_and_incomplete)
{
  const double iops[] = { 1000, 1050, 1040, 3000, 6000, 6100, 6050 };
  const double p99[] = { 1, 2, 4, 1.5, 1.5, 3, 6 };
  DsSweepStep steps[MAX_STEPS];
  DsSweepKnee knee;
  DsSweepData data = { 0 };

  ck_assert (ds_sweep_find_knee (steps, curve (steps, iops, p99, 7), &knee));
  ck_assert_uint_eq (knee.outstanding, 16);

  /* The last two levels were cut short: only 1 … 16 count, and 16 is the
   * last of them, so no knee yet. */
  data.steps = g_array_new (FALSE, FALSE, sizeof (DsSweepStep));
  g_array_append_vals (data.steps, steps, 7);
  g_array_index (data.steps, DsSweepStep, 5).complete = FALSE;
  g_array_index (data.steps, DsSweepStep, 6).complete = FALSE;
  ds_sweep_update_knee (&data);
  ck_assert (!data.knee.found);
  g_array_index (data.steps, DsSweepStep, 5).complete = TRUE;
  ds_sweep_update_knee (&data);
  ck_assert (data.knee.found);
  ck_assert_uint_eq (data.knee.index, 4);
  g_array_unref (data.steps);
}
END_TEST

START_TEST (test_steady)
{
  const double flat[] = { 100, 500, 1000, 1010, 990, 1005, 998, 1002 };
  const double rising[] = { 800, 850, 900, 950, 1000 };
  const double noisy[] = { 1300, 700, 1000, 700, 1300 };
  const double zero[] = { 0, 0, 0, 0, 0 };

  ck_assert (!ds_sweep_is_steady (flat, 4));          /* too few */
  ck_assert (!ds_sweep_is_steady (flat, 5));          /* the ramp is in */
  ck_assert (!ds_sweep_is_steady (flat, 6));
  ck_assert (ds_sweep_is_steady (flat, 7));
  ck_assert (ds_sweep_is_steady (flat, 8));
  ck_assert (!ds_sweep_is_steady (rising, 5));        /* +22 % across */
  ck_assert (!ds_sweep_is_steady (zero, 5));
  /* Noise without a trend: the slope rule alone calls it steady. */
  ck_assert (ds_sweep_is_steady (noisy, 5));
}
END_TEST

START_TEST (test_little)
{
  DsSweepStep s = { .outstanding = 8, .queue_depth = 8, .threads = 1, .ios = 100 };

  s.little_outstanding = 7.3;
  ck_assert (!ds_sweep_little_off (&s));
  s.little_outstanding = 7.1;
  ck_assert (ds_sweep_little_off (&s));
  s.little_outstanding = 8.7;
  ck_assert (!ds_sweep_little_off (&s));
  s.little_outstanding = 9.0;
  ck_assert (ds_sweep_little_off (&s));
  s.ios = 0;
  ck_assert (!ds_sweep_little_off (&s));
}
END_TEST

static GArray *
levels_of (DsBenchSpec *spec,
           GError     **error)
{
  return ds_sweep_levels (spec, error);
}

START_TEST (test_levels)
{
  DsBenchSpec spec;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) a = NULL;
  g_autoptr (GArray) b = NULL;
  g_autoptr (GArray) c = NULL;
  static const char *const bad[] = { "4,2", "1,,2", "0,1", "1,x", "-1", "", "1,5000" };

  ds_bench_spec_init (&spec, DS_BENCH_SWEEP);
  spec.target_path = g_strdup ("/dev/null");
  a = levels_of (&spec, &error);
  ck_assert_uint_eq (a->len, 9);        /* 1 … 256 */
  ck_assert_uint_eq (g_array_index (a, unsigned, 8), 256);
  ck_assert (ds_bench_spec_validate (&spec, NULL));

  ds_sweep_options (&spec)->from = 3;
  ds_sweep_options (&spec)->to = 20;
  b = levels_of (&spec, &error);
  ck_assert_uint_eq (b->len, 4);        /* 3 6 12 20 */
  ck_assert_uint_eq (g_array_index (b, unsigned, 3), 20);

  ds_sweep_options (&spec)->levels = g_strdup ("1, 2,3,4,6,8");
  c = levels_of (&spec, &error);
  ck_assert_uint_eq (c->len, 6);
  ck_assert_uint_eq (g_array_index (c, unsigned, 4), 6);

  for (unsigned i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) e = NULL;

      g_free (ds_sweep_options (&spec)->levels);
      ds_sweep_options (&spec)->levels = g_strdup (bad[i]);
      ck_assert_ptr_null (levels_of (&spec, &e));
      ck_assert_msg (g_error_matches (e, DS_ERROR, DS_ERROR_INVALID), "%s", bad[i]);
      ck_assert (!ds_bench_spec_validate (&spec, NULL));
    }
  g_clear_pointer (&ds_sweep_options (&spec)->levels, g_free);

  /* The heaviest level is held to the workload's limits. */
  ds_sweep_options (&spec)->from = 1;
  ds_sweep_options (&spec)->to = 4096;
  spec.threads = 16;
  ck_assert (!ds_bench_spec_validate (&spec, &error) && strstr (error->message, "in flight") != NULL);
  g_clear_error (&error);
  ds_sweep_options (&spec)->to = 0;
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ds_bench_spec_clear (&spec);
}
END_TEST

/* A sweep result as the run makes it. */
static DsResult *
sweep_result (void)
{
  const double iops[] = { 500, 1000, 2000, 2010, 1990 };
  const double p99[] = { 2.2, 2.2, 2.3, 4.6, 9.1 };
  DsResult *r = ds_test_result_new (DS_BENCH_SWEEP, "/dev/sdz", FALSE);
  DsSweepData *data = r->data;
  DsSweepStep steps[MAX_STEPS];

  r->spec.pattern = DS_PATTERN_RANDREAD;
  curve (steps, iops, p99, 5);
  steps[1].steady_at_s = 3.5;
  steps[4].complete = FALSE;
  steps[3].little_outstanding = 6.0;   /* 25 % off */
  steps[3].lat_mean_s = 6.0 / steps[3].iops;
  for (unsigned i = 0; i < 6; i++)
    {
      unsigned level = 1u << i;

      g_array_append_val (data->levels, level);
    }
  g_array_append_vals (data->steps, steps, 5);
  data->step_time_s = 10;
  data->interval_s = 1;
  data->steady = TRUE;
  ds_sweep_update_knee (data);
  return r;
}

START_TEST (test_json_round_trip)
{
  g_autoptr (DsResult) r = sweep_result ();
  g_autoptr (DsResult) back = ds_test_round_trip (r);
  g_autoptr (JsonNode) root = ds_result_to_json (r);
  JsonObject *results = json_object_get_object_member (json_node_get_object (root), "results");
  JsonObject *knee = json_object_get_object_member (results, "knee");
  JsonObject *step = json_array_get_object_element (json_object_get_array_member (results, "steps"), 3);
  const DsSweepData *a = r->data;
  const DsSweepData *b = back->data;
  g_autofree char *text_a = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *text_b = ds_report_text (back, DS_UNITS_MB);

  ck_assert (a->knee.found && a->knee.outstanding == 4);
  ck_assert_uint_eq (b->steps->len, 5);
  ck_assert_uint_eq (b->levels->len, 6);
  ck_assert (b->steady && !b->over_threads);
  ck_assert (b->knee.found);
  ck_assert_uint_eq (b->knee.outstanding, 4);
  for (guint i = 0; i < 5; i++)
    {
      const DsSweepStep *x = &g_array_index (a->steps, DsSweepStep, i);
      const DsSweepStep *y = &g_array_index (b->steps, DsSweepStep, i);

      ck_assert_uint_eq (x->outstanding, y->outstanding);
      ck_assert_int_eq (x->complete, y->complete);
      ck_assert_double_eq (x->iops, y->iops);
      ck_assert_double_eq (x->lat_p99_9_s, y->lat_p99_9_s);
      ck_assert_double_eq (x->steady_at_s, y->steady_at_s);
      ck_assert_double_eq_tol (x->little_outstanding, y->little_outstanding, 1e-9);
    }

  /* The names scripts rely on. */
  ck_assert_int_eq (json_object_get_int_member (knee, "outstanding"), 4);
  ck_assert (json_object_has_member (knee, "iops") && json_object_has_member (knee, "p99_s"));
  ck_assert (strstr (json_object_get_string_member (knee, "rule"), "saturates at QD 4") != NULL);
  ck_assert (json_object_has_member (step, "bytes_per_s") && json_object_has_member (step, "threads"));
  ck_assert (json_object_get_boolean_member (json_object_get_object_member (step, "little"), "off"));
  ck_assert (json_object_has_member (json_object_get_object_member (step, "latency_s"), "p99_9"));

  /* The report says it all, the same after loading. */
  ck_assert_str_eq (text_a, text_b);
  ck_assert_msg (strstr (text_a, "Knee                  : saturates at QD 4: 2 000 IOPS") != NULL, "%s", text_a);
  ck_assert (strstr (text_a, "Little's law is off by more than 10 % at 8 in flight") != NULL);
  ck_assert (strstr (text_a, "cut: the level was stopped") != NULL);
  ck_assert (strstr (text_a, "3.5 s st") == NULL && strstr (text_a, "10.0 s st") != NULL);
}
END_TEST

/* Each corruption is refused with a message naming the member. */
/* A sweep of 16 KiB random writes at 4 threads over 1 GB from 1 GB in:
 * its file says so, and the job exported from the file is the run's. */
START_TEST (test_settings_kept)
{
  g_autoptr (DsResult) r = sweep_result ();

  r->spec.pattern = DS_PATTERN_RANDWRITE;
  r->spec.write = TRUE;
  r->spec.block_size_bytes = 16384;
  r->spec.threads = 4;
  r->spec.offset_bytes = UINT64_C (1) << 30;
  r->spec.span_bytes = UINT64_C (1) << 30;
  r->spec.duration_ns = UINT64_C (7) * 1000 * 1000 * 1000;
  ds_test_assert_settings_kept (r);
}
END_TEST

START_TEST (test_json_strict)
{
  static const struct { const char *from; const char *to; const char *says; } cases[] = {
    { "\"over\" : \"qd\"", "\"over\" : \"disks\"", "results.over" },
    { "\"outstanding\" : 2,", "\"outstanding\" : 3,", "is not queue_depth" },
    { "\"p99_9\" : ", "\"p99_9x\" : ", "p99_9" },
    { "\"levels\" : [", "\"levels\" : [0,", "results.levels[0]" },
    { "\"steady_at_s\" : null", "\"steady_at_s\" : \"soon\"", "steady_at_s" },
    { "\"iops\" : 500.0", "\"iops\" : -1.0", "iops" },
  };
  g_autoptr (DsResult) r = sweep_result ();
  g_autofree char *text = ds_result_to_data (r, NULL);

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GString) bad = g_string_new (text);
      g_autoptr (DsResult) loaded = NULL;

      ck_assert_msg (strstr (text, cases[i].from) != NULL, "%s not in %s", cases[i].from, text);
      g_string_replace (bad, cases[i].from, cases[i].to, 1);
      loaded = ds_result_load_data (bad->str, (gssize) bad->len, &error);
      ck_assert_msg (loaded == NULL, "case %u loaded", i);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) &&
                     strstr (error->message, cases[i].says) != NULL,
                     "case %u: %s", i, error->message);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("sweep");
  TCase *tc = tcase_create ("sweep");

  ds_test_init ("sweep");
  tcase_add_test (tc, test_knee_saturating);
  tcase_add_test (tc, test_knee_soft_and_noisy);
  tcase_add_test (tc, test_knee_words_falling);
  tcase_add_test (tc, test_no_knee);
  tcase_add_test (tc, test_knee_second_tier_and_incomplete);
  tcase_add_test (tc, test_steady);
  tcase_add_test (tc, test_little);
  tcase_add_test (tc, test_levels);
  tcase_add_test (tc, test_settings_kept);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_json_strict);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
