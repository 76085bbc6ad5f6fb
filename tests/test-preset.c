/* test-preset.c: presets, their rules, and the mark result without I/O:
 * steps and their order, validation, JSON round trip and strict loading,
 * CrystalDiskMark's text and grid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-preset.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

static void
mark_spec (DsBenchSpec *spec,
           const char  *preset)
{
  ds_bench_spec_init (spec, DS_BENCH_MARK);
  spec->target_path = g_strdup ("/dev/null");
  if (preset != NULL)
    ds_preset_apply_defaults (spec, ds_preset_lookup (preset));
}

static char *
step_ids (const DsBenchSpec *spec)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) steps = ds_preset_steps (spec, &error);
  GString *ids = g_string_new (NULL);

  ck_assert_msg (steps != NULL, "%s", error ? error->message : "");
  for (guint i = 0; i < steps->len; i++)
    g_string_append_printf (ids, "%s%s", i ? " " : "", g_array_index (steps, DsPresetStep, i).id);

  return g_string_free (ids, FALSE);
}

/* ---- the presets -------------------------------------------------------- */

START_TEST (test_every_preset_valid)
{
  ck_assert_uint_ge (ds_preset_count (), 8);
  for (unsigned i = 0; i < ds_preset_count (); i++)
    {
      const DsPreset *preset = ds_preset_get (i);
      g_autoptr (GError) error = NULL;
      DsBenchSpec spec;

      ck_assert_ptr_eq (ds_preset_lookup (preset->name), preset);
      mark_spec (&spec, preset->name);
      ck_assert_msg (ds_bench_spec_validate (&spec, &error), "%s: %s", preset->name, error->message);
      ck_assert_uint_gt (spec.duration_ns, 0);
      ck_assert_uint_ge (ds_mark_options_const (&spec)->count, 1);
      ds_bench_spec_clear (&spec);
    }
  ck_assert_ptr_null (ds_preset_get (ds_preset_count ()));
  ck_assert_ptr_null (ds_preset_lookup ("cdm-nope"));
}
END_TEST

/* CrystalDiskMark's own order: every read, then every write, then the mix;
 * its defaults; and the NVMe, Peak, Real World and Demo rows. */
START_TEST (test_cdm_steps)
{
  DsBenchSpec spec;
  g_autofree char *plain = NULL;
  g_autofree char *mixed = NULL;
  g_autofree char *nvme = NULL;
  g_autofree char *peak = NULL;
  g_autofree char *real = NULL;
  g_autofree char *demo = NULL;

  mark_spec (&spec, "cdm-default");
  ck_assert_uint_eq (ds_mark_options_const (&spec)->test_size_bytes, UINT64_C (1) << 30);
  ck_assert_uint_eq (ds_mark_options_const (&spec)->count, 5);
  ck_assert_uint_eq (spec.duration_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (ds_mark_options_const (&spec)->warmup_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (ds_mark_options_const (&spec)->pause_ns, 5 * DS_NS_PER_SEC);
  ck_assert_uint_eq (spec.interval_ns, DS_NS_PER_SEC);
  plain = step_ids (&spec);
  ck_assert_str_eq (plain, "seq1m-q8t1-read seq1m-q1t1-read rnd4k-q32t1-read rnd4k-q1t1-read "
                           "seq1m-q8t1-write seq1m-q1t1-write rnd4k-q32t1-write rnd4k-q1t1-write");
  ds_mark_options (&spec)->mix_percent = 70;
  mixed = step_ids (&spec);
  ck_assert (g_str_has_suffix (mixed, "rnd4k-q1t1-write seq1m-q8t1-mix seq1m-q1t1-mix "
                                      "rnd4k-q32t1-mix rnd4k-q1t1-mix"));
  ds_bench_spec_clear (&spec);

  mark_spec (&spec, "cdm-nvme");
  nvme = step_ids (&spec);
  ck_assert (g_str_has_prefix (nvme, "seq1m-q8t1-read seq128k-q32t1-read rnd4k-q32t16-read rnd4k-q1t1-read"));
  ds_bench_spec_clear (&spec);
  mark_spec (&spec, "cdm-peak");
  peak = step_ids (&spec);
  ck_assert_str_eq (peak, "seq1m-q8t1-read rnd4k-q32t1-read seq1m-q8t1-write rnd4k-q32t1-write");
  ds_bench_spec_clear (&spec);
  mark_spec (&spec, "cdm-real-world");
  real = step_ids (&spec);
  ck_assert_str_eq (real, "seq1m-q1t1-read rnd4k-q1t1-read seq1m-q1t1-write rnd4k-q1t1-write");
  ds_bench_spec_clear (&spec);
  mark_spec (&spec, "cdm-demo");
  demo = step_ids (&spec);
  ck_assert_str_eq (demo, "seq1m-q8t1-read seq1m-q8t1-write");
  ds_bench_spec_clear (&spec);
}
END_TEST

/* The steps' workloads: patterns (sequential mix is rw), sizes, depths. */
START_TEST (test_step_specs)
{
  const struct { const char *preset; const char *step; DsPattern pattern; uint64_t bs; unsigned qd, t, mix; } want[] = {
    { "cdm-default", "seq1m-q8t1-read", DS_PATTERN_READ, 1 << 20, 8, 1, 100 },
    { "cdm-default", "rnd4k-q32t1-write", DS_PATTERN_RANDWRITE, 4096, 32, 1, 0 },
    { "cdm-default", "seq1m-q1t1-mix", DS_PATTERN_RW, 1 << 20, 1, 1, 70 },
    { "cdm-nvme", "rnd4k-q32t16-read", DS_PATTERN_RANDREAD, 4096, 32, 16, 100 },
    { "cdm-nvme", "seq128k-q32t1-write", DS_PATTERN_WRITE, 128 << 10, 32, 1, 0 },
    { "iometer-dbms", "rnd8k-q256t1-mix", DS_PATTERN_RANDRW, 8192, 256, 1, 67 },
    { "fio-oltp", "rnd8k-q1t256-mix", DS_PATTERN_RANDRW, 8192, 1, 256, 70 },
    { "sysbench-fileio", "seqwr-write", DS_PATTERN_WRITE, 16384, 1, 4, 0 },
    { "sysbench-fileio", "rndrw-mix", DS_PATTERN_RANDRW, 16384, 1, 4, 60 },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) steps = NULL;
      DsBenchSpec spec;
      DsBenchSpec step;
      const DsPresetStep *def;

      mark_spec (&spec, want[i].preset);
      ds_mark_options (&spec)->steps = g_strdup (want[i].step);
      ds_mark_options (&spec)->mix_percent = strcmp (want[i].preset, "cdm-default") == 0 ? 70 : -1;
      steps = ds_preset_steps (&spec, &error);
      ck_assert_msg (steps != NULL && steps->len == 1, "%s %s: %s", want[i].preset, want[i].step,
                     error ? error->message : "not one step");
      def = &g_array_index (steps, DsPresetStep, 0);
      ds_preset_step_spec (&spec, def, &step);
      ck_assert_int_eq (step.kind, DS_BENCH_WORKLOAD);
      ck_assert_int_eq (step.pattern, want[i].pattern);
      ck_assert_uint_eq (step.block_size_bytes, want[i].bs);
      ck_assert_uint_eq (step.queue_depth, want[i].qd);
      ck_assert_uint_eq (step.threads, want[i].t);
      ck_assert_uint_eq (step.read_mix_percent, want[i].mix);
      ck_assert_uint_eq (step.span_bytes, ds_mark_options_const (&spec)->test_size_bytes);
      ck_assert_uint_eq (step.duration_ns, spec.duration_ns);
      ck_assert_msg (ds_bench_spec_validate (&step, &error), "%s", error ? error->message : "");
      ds_bench_spec_clear (&step);
      ds_bench_spec_clear (&spec);
    }
}
END_TEST

/* The other presets run row after row: IOMeter's outstanding I/Os 1 .. 256,
 * fio's 16 .. 256 jobs, sysbench's tests in the order they were run. */
START_TEST (test_other_presets)
{
  DsBenchSpec spec;
  g_autofree char *iometer = NULL;
  g_autofree char *oltp = NULL;
  g_autofree char *sysbench = NULL;

  mark_spec (&spec, "iometer-dbms");
  iometer = step_ids (&spec);
  ck_assert_str_eq (iometer, "rnd8k-q1t1-mix rnd8k-q2t1-mix rnd8k-q4t1-mix rnd8k-q8t1-mix "
                             "rnd8k-q16t1-mix rnd8k-q32t1-mix rnd8k-q64t1-mix rnd8k-q128t1-mix "
                             "rnd8k-q256t1-mix");
  ck_assert_uint_eq (ds_mark_options_const (&spec)->test_size_bytes, 0);
  ds_bench_spec_clear (&spec);

  mark_spec (&spec, "fio-oltp");
  oltp = step_ids (&spec);
  ck_assert_str_eq (oltp, "rnd8k-q1t16-mix rnd8k-q1t32-mix rnd8k-q1t64-mix rnd8k-q1t128-mix "
                          "rnd8k-q1t256-mix");
  ds_bench_spec_clear (&spec);

  mark_spec (&spec, "sysbench-fileio");
  sysbench = step_ids (&spec);
  ck_assert_str_eq (sysbench, "seqwr-write seqrd-read rndrd-read rndwr-write rndrw-mix");
  /* A file set larger than RAM (up to the 64 GiB cap), in whole GiB. */
  {
    uint64_t ram = (uint64_t) sysconf (_SC_PHYS_PAGES) * (uint64_t) sysconf (_SC_PAGESIZE);

    ck_assert_uint_eq (ds_mark_options_const (&spec)->test_size_bytes % (UINT64_C (1) << 30), 0);
    ck_assert (ds_mark_options_const (&spec)->test_size_bytes > ram || ds_mark_options_const (&spec)->test_size_bytes == DS_LIMIT_TEST_SIZE_MAX);
  }
  ds_bench_spec_clear (&spec);
}
END_TEST

/* --steps and --reads-only. */
START_TEST (test_step_selection)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) none = NULL;
  g_autofree char *row = NULL;
  g_autofree char *two = NULL;
  g_autofree char *reads = NULL;
  DsBenchSpec spec;

  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->steps = g_strdup ("RND4K-Q1T1");
  row = step_ids (&spec);
  ck_assert_str_eq (row, "rnd4k-q1t1-read rnd4k-q1t1-write");
  g_free (ds_mark_options (&spec)->steps);
  ds_mark_options (&spec)->steps = g_strdup ("rnd4k-q1t1-write, seq1m-q8t1-read");
  two = step_ids (&spec);
  ck_assert_str_eq (two, "seq1m-q8t1-read rnd4k-q1t1-write");
  g_free (ds_mark_options (&spec)->steps);
  ds_mark_options (&spec)->steps = NULL;
  ds_mark_options (&spec)->reads_only = TRUE;
  reads = step_ids (&spec);
  ck_assert_str_eq (reads, "seq1m-q8t1-read seq1m-q1t1-read rnd4k-q32t1-read rnd4k-q1t1-read");

  g_free (ds_mark_options (&spec)->steps);
  ds_mark_options (&spec)->steps = g_strdup ("rnd4k-q1t1-write");
  none = ds_preset_steps (&spec, &error);
  ck_assert_ptr_null (none);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "rnd4k-q1t1-write") && strstr (error->message, "seq1m-q8t1"),
                 "%s", error->message);
  ds_bench_spec_clear (&spec);

  /* Nothing of iometer-dbms only reads. */
  g_clear_error (&error);
  mark_spec (&spec, "iometer-dbms");
  ds_mark_options (&spec)->reads_only = TRUE;
  ck_assert (!ds_bench_spec_validate (&spec, &error));
  ck_assert_msg (strstr (error->message, "writes"), "%s", error->message);
  ds_bench_spec_clear (&spec);
}
END_TEST

/* ---- the rules ---------------------------------------------------------- */

static void
assert_invalid (DsBenchSpec *spec,
                const char  *expect)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (!ds_bench_spec_validate (spec, &error), "accepted; wanted “%s”", expect);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, expect) != NULL, "“%s” not in “%s”", expect, error->message);
  ds_bench_spec_clear (spec);
}

START_TEST (test_rules)
{
  DsBenchSpec spec;

  mark_spec (&spec, NULL);
  g_free (ds_mark_options (&spec)->preset);
  ds_mark_options (&spec)->preset = g_strdup ("crystal");
  assert_invalid (&spec, "unknown preset “crystal”: use cdm-default, cdm-nvme");

  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->mix_percent = 101;
  assert_invalid (&spec, "0 to 100");
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->mix_percent = -7;
  assert_invalid (&spec, "0 to 100");
  mark_spec (&spec, "iometer-dbms");
  ds_mark_options (&spec)->mix_percent = 50;
  assert_invalid (&spec, "no +Mix");
  mark_spec (&spec, "cdm-demo");
  ds_mark_options (&spec)->mix_percent = 70;
  assert_invalid (&spec, "Demo");

  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->count = 0;
  assert_invalid (&spec, "1 to 9");
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->count = 10;
  assert_invalid (&spec, "1 to 9");
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->test_size_bytes = 8 << 20;
  assert_invalid (&spec, "16M to 64G");
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->test_size_bytes = UINT64_C (65) << 30;
  assert_invalid (&spec, "16M to 64G");
  mark_spec (&spec, "cdm-default");
  spec.interval_ns = 50 * DS_NS_PER_MSEC;
  assert_invalid (&spec, "100ms");
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->pause_ns = 11 * 60 * DS_NS_PER_SEC;
  assert_invalid (&spec, "10m");
  mark_spec (&spec, "cdm-default");
  spec.duration_ns = 0;
  assert_invalid (&spec, "more than 0");

  /* Workloads: queue depth × threads, and the buffers that takes. */
  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/dev/null");
  spec.queue_depth = 4096;
  spec.threads = 16;
  assert_invalid (&spec, "queue depth 4096 × 16 threads is 65536 I/Os in flight, more than 32768");
  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/dev/null");
  spec.queue_depth = 64;
  spec.threads = 8;
  spec.block_size_bytes = 16 << 20;
  assert_invalid (&spec, "MiB of buffers");
  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/dev/null");
  spec.interval_ns = 99 * DS_NS_PER_MSEC;
  assert_invalid (&spec, "interval");
}
END_TEST

/* ---- the result --------------------------------------------------------- */

static DsWorkloadData *
make_workload (double bytes_per_s, gboolean write, unsigned n_points)
{
  DsWorkloadData *w = ds_workload_data_new ();
  DsWorkloadDir *dir = write ? &w->write : &w->read;
  DsLatencyBucket buckets[] = { { 50e-6, 900 }, { 120e-6, 90 }, { 2e-3, 10 } };

  w->runtime_s = 5;
  w->engine = g_strdup ("io_uring");
  w->interval_s = 1;
  *dir = (DsWorkloadDir) { .present = TRUE, .ios = 1000, .io_bytes = 1000 * 4096,
                           .bytes_per_s = bytes_per_s, .iops = bytes_per_s / 4096,
                           .lat_min_s = 10e-6, .lat_mean_s = 80e-6, .lat_max_s = 2e-3,
                           .lat_stddev_s = 30e-6 };
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    dir->lat_percentile_s[k] = 40e-6 + k * 1e-6;
  dir->histogram = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));
  g_array_append_vals (dir->histogram, buckets, G_N_ELEMENTS (buckets));
  w->series = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  for (unsigned i = 0; i < n_points; i++)
    {
      DsIntervalPoint p = { .t_s = i + 1.0 };
      DsIntervalDir *d = write ? &p.write : &p.read;

      *d = (DsIntervalDir) { .bytes_per_s = bytes_per_s * (0.9 + 0.05 * i), .iops = 100 + i,
                             .p50_s = 40e-6, .p99_s = 1e-3 };
      g_array_append_val (w->series, p);
    }

  return w;
}

static DsMarkStep *
make_step (const char *row_id, const char *label, unsigned row, DsMarkDirection direction,
           DsPattern pattern, uint64_t bs, unsigned qd, double best, gboolean complete)
{
  DsMarkStep *step = ds_mark_step_new ();
  DsMarkRun runs[] = { { best * 0.97, best * 0.97 / bs, 120e-6 }, { best, best / bs, 110e-6 } };

  step->row_id = g_strdup (row_id);
  step->label = g_strdup (label);
  step->id = g_strdup_printf ("%s-%s", row_id, ds_mark_direction_to_string (direction));
  step->row = row;
  step->direction = direction;
  step->pattern = pattern;
  step->block_size_bytes = bs;
  step->queue_depth = qd;
  step->threads = 1;
  step->read_percent = direction == DS_MARK_READ ? 100 : direction == DS_MARK_WRITE ? 0 : 70;
  step->complete = complete;
  g_array_append_vals (step->runs, runs, complete ? 2 : 1);
  step->best_run = complete ? 1 : 0;
  step->bytes_per_s = complete ? best : best * 0.97;
  step->iops = step->bytes_per_s / bs;
  step->lat_mean_s = complete ? 110e-6 : 120e-6;
  step->result = make_workload (step->bytes_per_s, direction == DS_MARK_WRITE, 5);

  return step;
}

static DsResult *
make_mark (gboolean complete)
{
  DsBenchSpec spec;
  DsResult *r;
  DsMarkData *d;

  mark_spec (&spec, "cdm-default");
  g_free (spec.target_path);
  spec.target_path = g_strdup ("/dev/loop9");
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  r->target.path = g_strdup ("/dev/loop9");
  r->target.is_block = TRUE;
  r->target.model = g_strdup ("Loop device");
  r->target.size_bytes = UINT64_C (1) << 30;
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 512;
  g_free (r->started_at);
  r->started_at = g_strdup ("2024-06-11T12:34:56Z");
  r->complete = complete;

  d = r->data;
  d->preset = g_strdup ("cdm-default");
  d->test_size_bytes = UINT64_C (1) << 30;
  d->count = 2;
  d->duration_s = 5;
  d->warmup_s = 5;
  d->pause_s = 5;
  d->interval_s = 1;
  d->comment = g_strdup ("RAID 10, 4 × DC500M");
  d->os = g_strdup ("Debian GNU/Linux 12 (bookworm) [Linux 6.1.0] (x86_64)");
  d->steps_planned = 8;
  g_ptr_array_add (d->steps, make_step ("seq1m-q8t1", "SEQ1M Q8T1", 0, DS_MARK_READ, DS_PATTERN_READ,
                                        1 << 20, 8, 2345.678e6, TRUE));
  g_ptr_array_add (d->steps, make_step ("rnd4k-q1t1", "RND4K Q1T1", 3, DS_MARK_READ,
                                        DS_PATTERN_RANDREAD, 4096, 1, 45.5e6, TRUE));
  g_ptr_array_add (d->steps, make_step ("seq1m-q8t1", "SEQ1M Q8T1", 0, DS_MARK_WRITE,
                                        DS_PATTERN_WRITE, 1 << 20, 8, 1200e6, complete));
  if (!complete)
    {
      GError *error = g_error_new_literal (DS_ERROR, DS_ERROR_CANCELLED, "the run was stopped by the user");

      ds_result_set_error (r, error, 0, -1);
      r->cancelled = TRUE;
      g_error_free (error);
    }

  return r;
}

START_TEST (test_mark_round_trip)
{
  g_autoptr (DsResult) r = make_mark (FALSE);
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = ds_result_to_data (r, NULL);
  g_autofree char *again = NULL;
  DsMarkData *d;
  DsMarkStep *step;

  ck_assert_ptr_nonnull (strstr (data, "\"test\" : \"mark\""));
  back = ds_result_load_data (data, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (back->kind, DS_BENCH_MARK);
  ck_assert (!back->complete);
  ck_assert (back->cancelled);
  d = back->data;
  ck_assert_str_eq (d->preset, "cdm-default");
  ck_assert_str_eq (d->comment, "RAID 10, 4 × DC500M");
  ck_assert_uint_eq (d->count, 2);
  ck_assert_uint_eq (d->steps_planned, 8);
  ck_assert_int_eq (d->mix_percent, -1);
  ck_assert_uint_eq (d->steps->len, 3);
  step = d->steps->pdata[1];
  ck_assert_str_eq (step->id, "rnd4k-q1t1-read");
  ck_assert_uint_eq (step->row, 3);
  ck_assert_int_eq (step->pattern, DS_PATTERN_RANDREAD);
  ck_assert_uint_eq (step->runs->len, 2);
  ck_assert_uint_eq (step->best_run, 1);
  ck_assert_double_eq_tol (step->bytes_per_s, 45.5e6, 1e-3);
  ck_assert_uint_eq (step->result->series->len, 5);
  ck_assert_uint_eq (step->result->read.histogram->len, 3);
  ck_assert_double_eq_tol (g_array_index (step->result->read.histogram, DsLatencyBucket, 2).upper_s,
                           2e-3, 1e-12);
  step = d->steps->pdata[2];
  ck_assert (!step->complete);
  ck_assert_uint_eq (step->runs->len, 1);

  /* Written again, byte for byte. */
  again = ds_result_to_data (back, NULL);
  ck_assert_str_eq (strstr (data, "\"results\""), strstr (again, "\"results\""));
}
END_TEST

static char *
replace (const char *haystack, const char *needle, const char *with)
{
  g_auto (GStrv) parts = g_strsplit (haystack, needle, 2);

  ck_assert_msg (parts[1] != NULL, "“%s” not in the JSON", needle);
  return g_strconcat (parts[0], with, parts[1], NULL);
}

static void
assert_corrupt (const char *data,
                const char *expect)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_load_data (data, -1, &error);

  ck_assert_msg (r == NULL, "loaded; wanted “%s”", expect);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (strstr (error->message, expect) != NULL, "“%s” not in “%s”", expect, error->message);
}

START_TEST (test_mark_strict)
{
  g_autoptr (DsResult) r = make_mark (TRUE);
  g_autofree char *data = ds_result_to_data (r, NULL);
  const struct { const char *needle; const char *with; const char *expect; } cases[] = {
    { "\"direction\" : \"read\"", "\"direction\" : \"sideways\"", "direction is not read" },
    { "\"best_run\" : 1", "\"best_run\" : 2", "best_run is not one of its 2 runs" },
    { "\"steps_planned\" : 8", "\"steps_planned\" : 2", "more than the 2 planned" },
    { "\"count\" : 900", "\"count\" : 901", "counts 1001 I/Os, not the 1000" },
    { "\"upper_s\" : 0.00012", "\"upper_s\" : 0.00001", "not above the bucket before it" },
    { "\"t_s\" : 2.0", "\"t_s\" : 1.0", "t_s is not after the point before it" },
    { "\"p99_s\" : 0.001", "\"p99_s\" : \"slow\"", "p99_s is not a number" },
    { "\"pattern\" : \"read\"", "\"pattern\" : \"zigzag\"", "pattern is unknown" },
    { "\"read_percent\" : 100", "\"read_percent\" : 101", "read_percent is out of range" },
    { "\"preset\" : \"cdm-default\",\n    \"profile\"", "\"preset\" : null,\n    \"profile\"",
      "results.preset is null but steps were run" },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *bad = replace (data, cases[i].needle, cases[i].with);
      assert_corrupt (bad, cases[i].expect);
    }
}
END_TEST

/* CrystalDiskMark's "Copy" layout: the rows as it prints them (MB/s with
 * three decimals, IOPS = MB/s over the block size, the lowest mean latency
 * in µs), the Profile/Test/Mode/Time/Date/OS lines and the comment. */
START_TEST (test_cdm_text)
{
  g_autoptr (DsResult) r = make_mark (TRUE);
  g_autofree char *text = ds_mark_cdm_text (r);
  g_autofree char *grid_mb = ds_mark_grid_text (r, DS_MARK_UNITS_MB_S);
  g_autofree char *grid_gb = ds_mark_grid_text (r, DS_MARK_UNITS_GB_S);
  g_autofree char *grid_iops = ds_mark_grid_text (r, DS_MARK_UNITS_IOPS);
  g_autofree char *grid_us = ds_mark_grid_text (r, DS_MARK_UNITS_US);
  g_autofree char *report = ds_report_text (r, DS_UNITS_MB);
  DsMarkUnits units;

  ck_assert_msg (strstr (text, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
                               "* KB = 1000 bytes, KiB = 1024 bytes\n\n[Read]\n"
                               "  SEQ    1MiB (Q=  8, T= 1):  2345.678 MB/s [   2237.0 IOPS] <   110.00 us>\n"
                               "  RND    4KiB (Q=  1, T= 1):    45.500 MB/s [  11108.4 IOPS] <   110.00 us>\n"
                               "\n[Write]\n"
                               "  SEQ    1MiB (Q=  8, T= 1):  1200.000 MB/s [   1144.4 IOPS] <   110.00 us>\n"),
                 "%s", text);
  ck_assert_msg (strstr (text, "\nProfile: Default\n   Test: 1 GiB (x2) [/dev/loop9: Loop device, 1.1 GB]\n"
                               "   Mode: O_DIRECT, io_uring\n   Time: Measure 5 sec / Interval 5 sec \n"),
                 "%s", text);
  ck_assert_msg (strstr (text, "     OS: Debian GNU/Linux 12 (bookworm) [Linux 6.1.0] (x86_64)\n"
                               "Comment: RAID 10, 4 × DC500M\n"), "%s", text);
  ck_assert_msg (strstr (text, "best of 2 runs per test"), "%s", text);
  ck_assert_msg (strstr (text, "   Date: 2024/06/"), "%s", text);

  ck_assert_msg (strstr (grid_mb, "Read (MB/s)") && strstr (grid_mb, "2345.68") &&
                 strstr (grid_mb, "45.50") && strstr (grid_mb, "1200.00"), "%s", grid_mb);
  ck_assert_msg (strstr (grid_gb, "2.346") && strstr (grid_gb, "Write (GB/s)"), "%s", grid_gb);
  ck_assert_msg (strstr (grid_iops, "11108.40") && strstr (grid_iops, "2237.01"), "%s", grid_iops);
  ck_assert_msg (strstr (grid_us, "110.00") && strstr (grid_us, "Read (µs)"), "%s", grid_us);
  /* RND4K Q1T1 wrote nothing: its cell is a dash. */
  ck_assert_msg (strstr (grid_mb, "–"), "%s", grid_mb);

  ck_assert_msg (strstr (report, "Workloads") && strstr (report, "cdm-default") &&
                 strstr (report, "SEQ1M Q8T1 read") && strstr (report, "RAID 10"), "%s", report);

  ck_assert (ds_mark_units_from_string ("IOPS", &units, NULL));
  ck_assert_int_eq (units, DS_MARK_UNITS_IOPS);
  ck_assert (ds_mark_units_from_string ("µs", &units, NULL));
  ck_assert_int_eq (units, DS_MARK_UNITS_US);
  ck_assert (!ds_mark_units_from_string ("MiB", &units, NULL));
}
END_TEST

/* A mark at its bounds (issue 21, class 7): DS_LIMIT_MARK_STEPS mixed
 * steps, each with two full latency histograms and its share of
 * DS_LIMIT_MARK_SERIES_POINTS, and a comment of DS_LIMIT_COMMENT_CHARS
 * characters that JSON escapes (quotes) or spells in two bytes: saved, it
 * loads again. */
START_TEST (test_mark_at_bounds)
{
  g_autoptr (DsResult) r = make_mark (TRUE);
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  DsMarkData *d = r->data;
  guint share = DS_LIMIT_MARK_SERIES_POINTS / DS_LIMIT_MARK_STEPS;
  GString *comment = g_string_new (NULL);
  gsize length = 0;

  for (guint i = 0; i < DS_LIMIT_COMMENT_CHARS; i++)
    g_string_append (comment, i % 2 ? "é" : "\"");
  g_free (d->comment);
  d->comment = g_string_free (comment, FALSE);
  g_ptr_array_set_size (d->steps, 0);
  d->steps_planned = DS_LIMIT_MARK_STEPS;
  for (guint k = 0; k < DS_LIMIT_MARK_STEPS; k++)
    {
      DsMarkStep *step = make_step ("mix4k", "RND4K MIX", k / 2, DS_MARK_MIX, DS_PATTERN_RANDRW,
                                    4096, 1, 1e8, TRUE);
      DsWorkloadData *w = step->result;

      for (int dir = 0; dir < 2; dir++)
        {
          DsWorkloadDir *wd = dir ? &w->write : &w->read;
          GArray *hist = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));

          for (guint b = 0; b < DS_HIST_BUCKETS; b++)
            {
              DsLatencyBucket bucket = { (b + 1) * 1e-6, 1 };
              g_array_append_val (hist, bucket);
            }
          ds_workload_dir_clear (wd);
          *wd = (DsWorkloadDir) { .present = TRUE, .ios = DS_HIST_BUCKETS,
                                  .io_bytes = DS_HIST_BUCKETS * 4096, .bytes_per_s = 1e8,
                                  .iops = 1e8 / 4096, .lat_min_s = 1e-6, .lat_mean_s = 1e-3,
                                  .lat_max_s = DS_HIST_BUCKETS * 1e-6, .histogram = hist };
        }
      g_array_set_size (w->series, 0);
      for (guint i = 0; i < share; i++)
        {
          DsIntervalPoint p = { .t_s = (i + 1) * 0.1,
                                .read = { 1234567.891 + i, 301.5 + i, 1.234567e-4, 9.87654e-3 },
                                .write = { 7654321.123 + i, 1868.25 + i, 2.345678e-4, 8.76543e-3 } };
          g_array_append_val (w->series, p);
        }
      g_free (step->id);
      step->id = g_strdup_printf ("mix4k-%u", k);
      g_ptr_array_add (d->steps, step);
    }

  text = ds_result_to_data (r, &length);
  ds_test_note ("a mark at its bounds: %" G_GSIZE_FORMAT " bytes", length);
  back = ds_result_load_data (text, (gssize) length, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (((DsMarkData *) back->data)->steps->len, DS_LIMIT_MARK_STEPS);
  ck_assert_str_eq (((DsMarkData *) back->data)->comment, d->comment);
}
END_TEST

/* The most steps a run can have (the most custom rows, each a Read and a
 * Write column, and a +Mix) are within DS_LIMIT_MARK_STEPS, what the
 * series share and the loader are sized for. */
START_TEST (test_mark_most_steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) rows = g_string_new (NULL);
  g_autoptr (GArray) steps = NULL;
  g_autofree char *too_many = NULL;
  DsBenchSpec spec;
  guint n = 0;

  /* As many rows as are allowed: one more is refused. */
  for (;; n++)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *more = g_strdup_printf ("%s%sseq,%uk", rows->str, n ? ";" : "", 4u << (n % 8));
      g_autofree char *normal = ds_preset_rows_normalize (more, &local);

      if (normal == NULL)
        break;
      g_string_assign (rows, more);
      ck_assert_uint_lt (n, 1000);
    }
  mark_spec (&spec, "cdm-default");
  ds_mark_options (&spec)->rows = ds_preset_rows_normalize (rows->str, &error);
  ds_mark_options (&spec)->mix_percent = 70;
  steps = ds_preset_steps (&spec, &error);
  ck_assert_msg (steps != NULL, "%s", error ? error->message : "");
  ds_test_note ("%u rows: %u steps (DS_LIMIT_MARK_STEPS %u)", n, steps->len, DS_LIMIT_MARK_STEPS);
  ck_assert_uint_le (steps->len, DS_LIMIT_MARK_STEPS);
  ds_bench_spec_clear (&spec);
}
END_TEST

/* The time the tests ran, not the preset's default (issue 25: "Measure 5
 * sec" when custom rows ran 1 s each), and the report's mean and p99
 * columns apart, the p99 cell's two times under their heading. */
START_TEST (test_mark_times_and_columns)
{
  g_autoptr (DsResult) r = make_mark (TRUE);
  DsMarkData *d = r->data;
  g_autofree char *text = NULL;
  g_autofree char *report = NULL;
  g_auto (GStrv) lines = NULL;
  glong head_width = -1;

  for (guint i = 0; i < d->steps->len; i++)
    ((DsMarkStep *) d->steps->pdata[i])->result->runtime_s = 1.0004;
  text = ds_mark_cdm_text (r);
  ck_assert_msg (strstr (text, "   Time: Measure 1 sec / Interval 5 sec \n"), "%s", text);
  ((DsMarkStep *) d->steps->pdata[2])->result->runtime_s = 3;
  g_free (text);
  text = ds_mark_cdm_text (r);
  ck_assert_msg (strstr (text, "   Time: Measure 1–3 sec / Interval 5 sec \n"), "%s", text);

  {
    /* A step that read and wrote: two p99s in its cell. */
    DsWorkloadData *w = ((DsMarkStep *) d->steps->pdata[2])->result;

    w->write.lat_percentile_s[12] = 12.345e-3;
    w->read.present = TRUE;
    w->read.lat_percentile_s[12] = 12.345e-3;
  }
  report = ds_report_text (r, DS_UNITS_MB);
  ck_assert_msg (strstr (report, "best of 2 × 1–3 s per test"), "%s", report);
  lines = g_strsplit (report, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Test ") && strstr (lines[i], " Rate") != NULL)
        {
          ck_assert_msg (strstr (lines[i], "  Mean latency") && strstr (lines[i], "  p99 read / write"),
                         "%s", lines[i]);
          head_width = g_utf8_strlen (lines[i], -1);
        }
      else if (head_width > 0 && (g_str_has_prefix (lines[i], "SEQ1M") || g_str_has_prefix (lines[i], "RND4K")))
        ck_assert_msg (g_utf8_strlen (lines[i], -1) == head_width, "“%s” is not as wide as the "
                       "heading (%ld)", lines[i], head_width);
    }
  ck_assert_msg (head_width > 0, "no table heading in:\n%s", report);
  ck_assert_msg (strstr (report, "  12.35 ms / 12.35 ms\n"), "%s", report);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("preset");
  TCase *presets = tcase_create ("presets");
  TCase *result = tcase_create ("result");

  tcase_add_test (presets, test_every_preset_valid);
  tcase_add_test (presets, test_cdm_steps);
  tcase_add_test (presets, test_step_specs);
  tcase_add_test (presets, test_other_presets);
  tcase_add_test (presets, test_step_selection);
  tcase_add_test (presets, test_rules);
  suite_add_tcase (s, presets);
  tcase_add_test (result, test_mark_round_trip);
  tcase_add_test (result, test_mark_strict);
  tcase_add_test (result, test_cdm_text);
  tcase_add_test (result, test_mark_at_bounds);
  tcase_add_test (result, test_mark_most_steps);
  tcase_set_timeout (result, 120);
  tcase_add_test (result, test_mark_times_and_columns);
  suite_add_tcase (s, result);

  return ds_test_run_suite (s);
}
