/* test-cache.c: the cache probe's estimate on synthetic sets (a cache,
 * none, every set slow) and its result's JSON and report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-cache.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MIB (UINT64_C (1) << 20)

/* Sets of 16 MiB × 2^i over a cache of @cache_mib with reads taking
 * @hot_ms when held and @cold_ms when not (LRU, uniform: C/S hit). */
static GArray *
sets_over (double   cache_mib,
           unsigned n,
           double   hot_ms,
           double   cold_ms)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (DsCacheSet));

  for (unsigned i = 0; i < n; i++)
    {
      DsCacheSet s = { .bytes = (16 * MIB) << i, .complete = TRUE, .ios = 1000 };
      double h = MIN (1.0, cache_mib / (double) (16u << i));

      s.lat_mean_s = (h * hot_ms + (1 - h) * cold_ms) / 1e3;
      s.lat_p99_s = 2 * s.lat_mean_s;
      s.iops = 1 / s.lat_mean_s;
      s.bytes_per_s = s.iops * 4096;
      g_array_append_val (a, s);
    }
  return a;
}

START_TEST (test_estimate)
{
  static const double caches[] = { 16, 24, 48, 64, 100, 256 };

  for (unsigned c = 0; c < G_N_ELEMENTS (caches); c++)
    {
      g_autoptr (GArray) sets = sets_over (caches[c], 8, 0.1, 5.0);
      DsCacheEstimate e;

      ds_cache_estimate (sets, &e);
      ck_assert_msg (e.found, "cache %g MiB not found", caches[c]);
      /* The model is the rule's own: the estimate is exact but for the
       * largest set's few hits in the cold latency. */
      ck_assert_msg (e.estimate_bytes > 0.9 * caches[c] * MIB &&
                     e.estimate_bytes < 1.1 * caches[c] * MIB,
                     "cache %g MiB estimated %.1f MiB", caches[c], e.estimate_bytes / MIB);
      ck_assert_double_eq_tol (e.hot_latency_s, 1e-4, 1e-12);
    }
}
END_TEST

START_TEST (test_no_estimate)
{
  g_autoptr (GArray) none = sets_over (0, 6, 5.0, 5.0);
  g_autoptr (GArray) huge = sets_over (1e6, 6, 0.1, 5.0);
  g_autoptr (GArray) again = sets_over (32, 6, 0.1, 5.0);
  DsCacheEstimate e;

  ds_cache_estimate (none, &e);     /* a disk without a read cache */
  ck_assert (!e.found);
  ds_cache_estimate (huge, &e);     /* every set held: no edge seen */
  ck_assert (!e.found);
  /* Fast again at the end: not an edge. */
  g_array_index (again, DsCacheSet, 5) = g_array_index (again, DsCacheSet, 0);
  g_array_index (again, DsCacheSet, 5).bytes = 512 * MIB;
  ds_cache_estimate (again, &e);
  ck_assert (!e.found);
  /* Cut sets do not count. */
  g_array_set_size (again, 2);
  g_array_index (again, DsCacheSet, 1).complete = FALSE;
  ds_cache_estimate (again, &e);
  ck_assert (!e.found);
}
END_TEST

/* One slow set is no verdict (issue 25): the largest alone slow waits for
 * a second measurement; slow again it is the edge, fast again it was
 * noise.  The cache lies between the last fast set and the first slow. */
START_TEST (test_one_slow_set)
{
  /* A 160 MiB cache over sets of 16 … 256 MiB: only 256 MiB is slow. */
  g_autoptr (GArray) sets = sets_over (160, 5, 0.1, 5.0);
  DsCacheSet *last = &g_array_index (sets, DsCacheSet, 4);
  DsCacheEstimate e;

  ds_cache_estimate (sets, &e);
  ck_assert (!e.found);
  ck_assert_int_eq (e.verdict, DS_CACHE_VERDICT_SLOW_ONCE);
  ck_assert (ds_cache_wants_repeat (&e));
  ck_assert_uint_eq (e.largest_fast_bytes, 128 * MIB);
  ck_assert_uint_eq (e.first_slow_bytes, 256 * MIB);

  /* Slow again: the edge, between 128 and 256 MiB. */
  last->repeated = TRUE;
  last->repeat_iops = last->iops * 1.1;
  last->repeat_lat_mean_s = last->lat_mean_s / 1.1;
  ds_cache_estimate (sets, &e);
  ck_assert (e.found);
  ck_assert_int_eq (e.verdict, DS_CACHE_VERDICT_CACHE);
  ck_assert (!ds_cache_wants_repeat (&e));
  ck_assert_uint_eq (e.largest_fast_bytes, 128 * MIB);
  ck_assert_uint_eq (e.first_slow_bytes, 256 * MIB);
  ck_assert (e.estimate_bytes >= 128 * MIB && e.estimate_bytes <= 256 * MIB);

  /* Fast measured again: noise, no verdict. */
  last->repeat_iops = g_array_index (sets, DsCacheSet, 0).iops;
  last->repeat_lat_mean_s = g_array_index (sets, DsCacheSet, 0).lat_mean_s;
  ds_cache_estimate (sets, &e);
  ck_assert (!e.found);
  ck_assert_int_eq (e.verdict, DS_CACHE_VERDICT_NOISE);
  ck_assert (!ds_cache_wants_repeat (&e));
  /* Its access time: the measurement that was not the noise. */
  ck_assert_double_eq (e.cold_latency_s, last->repeat_lat_mean_s);

  /* Two slow sets at the end agree: no second measurement needed. */
  {
    g_autoptr (GArray) two = sets_over (100, 5, 0.1, 5.0);

    ds_cache_estimate (two, &e);
    ck_assert (e.found);
    ck_assert_uint_eq (e.largest_fast_bytes, 64 * MIB);
    ck_assert_uint_eq (e.first_slow_bytes, 128 * MIB);
  }
}
END_TEST

/* A slow set with fast ones after it is not the edge: the edge is where
 * the slow sets that end the probe begin. */
START_TEST (test_noisy_middle_set)
{
  g_autoptr (GArray) sets = sets_over (100, 7, 0.1, 5.0);
  DsCacheSet *noisy = &g_array_index (sets, DsCacheSet, 1);
  DsCacheEstimate e;

  noisy->iops /= 10;
  noisy->lat_mean_s *= 10;
  ds_cache_estimate (sets, &e);
  ck_assert (e.found);
  ck_assert_uint_eq (e.largest_fast_bytes, 64 * MIB);
  ck_assert_msg (e.estimate_bytes > 0.9 * 100 * MIB && e.estimate_bytes < 1.1 * 100 * MIB,
                 "estimated %.1f MiB", e.estimate_bytes / MIB);
}
END_TEST

static DsResult *
cache_result (void)
{
  DsResult *r = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", FALSE);
  DsCacheData *data = r->data;
  g_autoptr (GArray) sets = sets_over (48, 6, 0.2, 5.0);

  data->block_size_bytes = 4096;
  data->queue_depth = 1;
  data->set_time_s = 5;
  g_array_append_vals (data->sets, sets->data, sets->len);
  ds_cache_estimate (data->sets, &data->estimate);
  return r;
}

/* A probe of 64 KiB reads at QD 4 up to 2 GiB, 3 s a set: its file
 * says so, and the job exported from it is the run's. */
START_TEST (test_settings_kept)
{
  g_autoptr (DsResult) r = cache_result ();
  DsCacheData *data = r->data;

  r->spec.block_size_bytes = data->block_size_bytes = 65536;
  r->spec.queue_depth = data->queue_depth = 4;
  r->spec.span_bytes = UINT64_C (2) << 30;
  r->spec.duration_ns = UINT64_C (3) * 1000 * 1000 * 1000;
  ds_test_assert_settings_kept (r);
}
END_TEST

START_TEST (test_json)
{
  g_autoptr (DsResult) r = cache_result ();
  g_autoptr (DsResult) back = ds_test_round_trip (r);
  g_autoptr (JsonNode) root = ds_result_to_json (r);
  JsonObject *o = json_object_get_object_member (json_node_get_object (root), "results");
  g_autofree char *text_a = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *text_b = ds_report_text (back, DS_UNITS_MB);
  const DsCacheData *b = back->data;
  g_autofree char *forged = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (DsResult) refused = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *set1;

  ck_assert_uint_eq (b->sets->len, 6);
  ck_assert (b->estimate.found);
  ck_assert_str_eq (text_a, text_b);
  ck_assert_msg (strstr (text_a, "Cache                 : about 4") != NULL, "%s", text_a);
  ck_assert (strstr (text_a, "reads of 32 MiB stay fast") != NULL);
  /* The estimate's bounds: between the last fast set and the first slow. */
  ck_assert_msg (strstr (text_a, "(between 32 MiB and 64 MiB)") != NULL, "%s", text_a);
  ck_assert_str_eq (json_object_get_string_member (o, "verdict"), "cache");
  ck_assert_int_eq (json_object_get_int_member (o, "first_slow_bytes"), 64 * MIB);
  ck_assert (json_object_has_member (o, "cache_estimate_bytes"));
  ck_assert (json_object_has_member (json_array_get_object_element (
               json_object_get_array_member (o, "sets"), 0), "latency_s"));

  /* The estimate is the rule's, whatever the file says. */
  json_object_set_double_member (o, "cache_estimate_bytes", 1.0);
  forged = ds_json_to_text (root, NULL);
  loaded = ds_result_load_data (forged, -1, &error);
  ck_assert_msg (loaded != NULL, "%s", error->message);
  ck_assert_double_eq (((DsCacheData *) loaded->data)->estimate.estimate_bytes,
                       ((DsCacheData *) r->data)->estimate.estimate_bytes);

  /* Sets out of order are refused. */
  set1 = json_array_get_object_element (json_object_get_array_member (o, "sets"), 1);
  json_object_set_int_member (set1, "bytes", 1);
  g_free (forged);
  forged = ds_json_to_text (root, NULL);
  refused = ds_result_load_data (forged, -1, &error);
  ck_assert (refused == NULL);
  ck_assert_msg (strstr (error->message, "results.sets[1].bytes") != NULL, "%s", error->message);
}
END_TEST

/* The words and the file of one slow set measured twice: noise (no
 * estimate, and why), or the edge (its bounds, and that it was seen
 * again); a repeat with a bad figure is refused.  Without an edge the
 * first and the largest set are not called hot and cold (a disk without
 * a cache read its first set slower than its largest). */
START_TEST (test_json_repeat)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", FALSE);
  DsCacheData *data = r->data;
  g_autoptr (GArray) sets = sets_over (160, 5, 0.1, 5.0);
  g_autoptr (DsResult) back = NULL;
  g_autoptr (DsResult) refused = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *noise = NULL;
  g_autofree char *flat_text = NULL;
  g_autofree char *json = NULL;
  g_autofree char *bad = NULL;
  DsCacheSet *last;

  data->block_size_bytes = 4096;
  data->queue_depth = 1;
  data->set_time_s = 1;
  g_array_append_vals (data->sets, sets->data, sets->len);
  last = &g_array_index (data->sets, DsCacheSet, 4);
  last->repeated = TRUE;
  last->repeat_iops = last->iops;
  last->repeat_lat_mean_s = last->lat_mean_s;
  last->repeat_lat_p99_s = last->lat_p99_s;
  ds_cache_estimate (data->sets, &data->estimate);
  back = ds_test_round_trip (r);
  ck_assert (g_array_index (((DsCacheData *) back->data)->sets, DsCacheSet, 4).repeated);
  ck_assert (((DsCacheData *) back->data)->estimate.found);
  text = ds_report_text (back, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "(between 128 MiB and 256 MiB)") != NULL &&
                 strstr (text, "256 MiB, the only set past it, was as slow measured again") != NULL,
                 "%s", text);

  last->repeat_iops = g_array_index (data->sets, DsCacheSet, 0).iops;
  last->repeat_lat_mean_s = g_array_index (data->sets, DsCacheSet, 0).lat_mean_s;
  ds_cache_estimate (data->sets, &data->estimate);
  noise = ds_report_text (r, DS_UNITS_MB);
  ck_assert_msg (strstr (noise, "Cache                 : none: no clear edge: only the largest set, "
                         "256 MiB, was slow (") != NULL &&
                 strstr (noise, "and measured again it was fast (1.00): a moment of other I/O, not a "
                         "cache") != NULL, "%s", noise);
  json = ds_result_to_data (r, NULL);
  ck_assert_msg (strstr (json, "\"verdict\" : \"noise\"") != NULL, "%s", json);
  ck_assert (strstr (json, "\"cache_estimate_bytes\" : null") != NULL);

  {
    /* The repeat's IOPS made negative. */
    const char *at = strstr (strstr (json, "\"repeat\""), "\"iops\" : ") + 9;

    bad = g_strdup_printf ("%.*s-%s", (int) (at - json), json, at);
  }
  refused = ds_result_load_data (bad, -1, &error);
  ck_assert (refused == NULL);
  ck_assert_msg (strstr (error->message, "repeat") != NULL, "%s", error->message);

  /* No cache: the smallest set slower than the largest, not "hot". */
  {
    g_autoptr (DsResult) flat = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", FALSE);
    DsCacheData *f = flat->data;
    g_autoptr (GArray) same = sets_over (0, 4, 0.04, 0.04);

    f->block_size_bytes = 4096;
    f->queue_depth = 1;
    f->set_time_s = 1;
    g_array_index (same, DsCacheSet, 0).lat_mean_s = 0.048e-3;
    g_array_index (same, DsCacheSet, 3).lat_mean_s = 0.036e-3;
    g_array_append_vals (f->sets, same->data, same->len);
    ds_cache_estimate (f->sets, &f->estimate);
    flat_text = ds_report_text (flat, DS_UNITS_MB);
    ck_assert_msg (strstr (flat_text, "Access Time           : 0.048 ms on the smallest set, 0.036 ms "
                           "on the largest (no cache edge between them: the difference is noise, "
                           "not a hot and a cold)") != NULL, "%s", flat_text);
    ck_assert (strstr (flat_text, "hot") == NULL || strstr (flat_text, "hot 0") == NULL);
  }
}
END_TEST

/* Sets of 16 MiB × 2^i each written once past a write-back cache of
 * @cache_mib: its first bytes at @hot_ms a write, the rest at @cold_ms. */
static GArray *
writes_over (double   cache_mib,
             unsigned n,
             double   hot_ms,
             double   cold_ms)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (DsCacheSet));

  for (unsigned i = 0; i < n; i++)
    {
      double size = (double) (16u << i);
      DsCacheSet s = { .bytes = (16 * MIB) << i, .complete = TRUE, .ios = 1000 };
      double h = MIN (1.0, cache_mib / size);

      s.lat_mean_s = (h * hot_ms + (1 - h) * cold_ms) / 1e3;
      s.lat_p99_s = 2 * s.lat_mean_s;
      s.read_lat_mean_s = cold_ms / 1e3;
      s.iops = 1 / s.lat_mean_s;
      s.bytes_per_s = s.iops * 256 * 1024;
      g_array_append_val (a, s);
    }
  return a;
}

/* The write rule: exact on its own model wherever two sets lie past the
 * cache (the read rule there is off: no set is cold); none without one. */
START_TEST (test_estimate_writes)
{
  static const double caches[] = { 20, 24, 40, 100 };

  for (unsigned c = 0; c < G_N_ELEMENTS (caches); c++)
    {
      g_autoptr (GArray) sets = writes_over (caches[c], 6, 1.3, 13.0);
      DsCacheEstimate e, reads;

      ds_cache_estimate_writes (sets, &e);
      ds_cache_estimate (sets, &reads);
      ck_assert_msg (e.found, "cache %g MiB not found", caches[c]);
      ck_assert_msg (fabs (e.estimate_bytes - caches[c] * MIB) < 0.01 * caches[c] * MIB,
                     "cache %g MiB estimated %.1f MiB (the read rule: %.1f MiB)", caches[c],
                     e.estimate_bytes / MIB, reads.estimate_bytes / MIB);
      ck_assert_double_eq_tol (e.cold_latency_s, 13e-3, 1e-9);
    }
  {
    g_autoptr (GArray) flat = writes_over (0, 6, 2.0, 2.0);
    DsCacheEstimate e;

    ds_cache_estimate_writes (flat, &e);
    ck_assert (!e.found);
  }
}
END_TEST

/* The write variant's JSON: "write" and each set's read latency, back the
 * same, and the report says it is a write-back cache. */
START_TEST (test_json_writes)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_CACHE, "/dev/sdz", TRUE);
  DsCacheData *data = r->data;
  g_autoptr (GArray) sets = writes_over (24, 4, 1.3, 13.0);
  g_autoptr (DsResult) back = NULL;
  g_autofree char *text = NULL;
  const DsCacheData *b;

  data->write = TRUE;
  data->block_size_bytes = 256 * 1024;
  data->queue_depth = 1;
  data->set_time_s = 1;
  g_array_append_vals (data->sets, sets->data, sets->len);
  ds_cache_estimate_writes (data->sets, &data->estimate);
  back = ds_test_round_trip (r);
  b = back->data;
  ck_assert (b->write);
  ck_assert_double_eq (g_array_index (b->sets, DsCacheSet, 2).read_lat_mean_s, 13e-3);
  ck_assert_double_eq (b->estimate.estimate_bytes, data->estimate.estimate_bytes);
  text = ds_report_text (back, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "a write-back cache of about 24 MiB") != NULL &&
                 strstr (text, "Read mean") != NULL, "%s", text);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("cache");
  TCase *tc = tcase_create ("cache");

  ds_test_init ("cache");
  tcase_add_test (tc, test_estimate);
  tcase_add_test (tc, test_no_estimate);
  tcase_add_test (tc, test_one_slow_set);
  tcase_add_test (tc, test_noisy_middle_set);
  tcase_add_test (tc, test_json);
  tcase_add_test (tc, test_settings_kept);
  tcase_add_test (tc, test_json_repeat);
  tcase_add_test (tc, test_estimate_writes);
  tcase_add_test (tc, test_json_writes);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
