/* test-bench-rules.c: every kind's spec from its defaults to its rules
 * (core/run/ds-bench-rules.c and each kind's DsBenchOps hooks); no root,
 * no device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench.h"
#include "ds-bench-erase.h"
#include "ds-bench-file.h"
#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-params.h"
#include "ds-test-util.h"

/* A spec of @kind with a target, as a front end makes it. */
static void
spec_for (DsBenchSpec *spec,
          DsBenchKind  kind)
{
  ds_bench_spec_init (spec, kind);
  spec->target_path = g_strdup ("/dev/null-test");
}

/* @spec is refused, with a message holding @words. */
static void
assert_refused (const DsBenchSpec *spec,
                const char        *words)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (!ds_bench_spec_validate (spec, &error), "%s: accepted, expected “%s”",
                 ds_bench_get (spec->kind)->name, words);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID), "%s", error->message);
  ck_assert_msg (strstr (error->message, words) != NULL, "%s: “%s” lacks “%s”",
                 ds_bench_get (spec->kind)->name, error->message, words);
}

/* Every kind's defaults pass its own rules: what the CLI and the app start
 * from is runnable. */
START_TEST (test_defaults_valid)
{
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = ds_bench_get ((DsBenchKind) k);
      g_autoptr (GError) error = NULL;
      DsBenchSpec spec;

      ck_assert_ptr_nonnull (ops);
      ck_assert_int_eq (ops->kind, (int) k);
      ck_assert_ptr_eq (ds_bench_lookup (ops->name), ops);
      spec_for (&spec, (DsBenchKind) k);
      ck_assert_msg (ds_bench_spec_validate (&spec, &error), "%s: %s", ops->name,
                     error ? error->message : "");
      ck_assert_msg (ops->default_block_bytes == 0 || spec.block_size_bytes == ops->default_block_bytes,
                     "%s", ops->name);
      ck_assert_uint_eq (spec.duration_ns, ops->kind == DS_BENCH_MARK ? spec.duration_ns
                                                                      : ops->default_duration_ns);
      ds_bench_spec_clear (&spec);
    }
}
END_TEST

/* The defaults the kinds say, as the CLI and the app have always had them. */
START_TEST (test_defaults_values)
{
  static const struct {
    DsBenchKind kind;
    uint64_t    block;
    uint64_t    duration_ns;
    gboolean    write;
  } cases[] = {
    { DS_BENCH_TRANSFER, 64 * 1024, 0, FALSE },
    { DS_BENCH_WORKLOAD, 4096, 10 * DS_NS_PER_SEC, FALSE },
    { DS_BENCH_SWEEP, 4096, 10 * DS_NS_PER_SEC, FALSE },
    { DS_BENCH_CACHE, 4096, 5 * DS_NS_PER_SEC, FALSE },
    { DS_BENCH_ERROR_SCAN, DS_ERROR_SCAN_DEFAULT_BLOCK, 0, FALSE },
    { DS_BENCH_ERASE, DS_ERASE_DEFAULT_BLOCK, 0, TRUE },
    { DS_BENCH_SUSTAIN, UINT64_C (1) << 20, 0, FALSE },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsBenchSpec spec;

      ds_bench_spec_init (&spec, cases[i].kind);
      ck_assert_uint_eq (spec.block_size_bytes, cases[i].block);
      ck_assert_uint_eq (spec.duration_ns, cases[i].duration_ns);
      ck_assert_int_eq (spec.write, cases[i].write);
      ds_bench_spec_clear (&spec);
    }

  /* Sustain writes sequentially at QD 32 unless told otherwise. */
  {
    DsBenchSpec spec;

    ds_bench_spec_init (&spec, DS_BENCH_SUSTAIN);
    ck_assert_int_eq (spec.pattern, DS_PATTERN_WRITE);
    ck_assert_uint_eq (spec.queue_depth, 32);
    ck_assert (ds_bench_spec_is_write_test (&spec));
    ds_bench_spec_clear (&spec);
  }
}
END_TEST

/* Each kind's own rules, with the words it has always refused with. */
START_TEST (test_kind_rules)
{
  DsBenchSpec spec;

  spec_for (&spec, DS_BENCH_ERROR_SCAN);
  spec.block_size_bytes = 1024;
  assert_refused (&spec, "the error scan reads blocks of 4K to 16M");
  spec.block_size_bytes = DS_ERROR_SCAN_DEFAULT_BLOCK;
  spec.write = TRUE;
  assert_refused (&spec, "the error scan only reads");
  spec.write = FALSE;
  spec.offset_bytes = G_MAXUINT64 - 10;
  spec.span_bytes = 100;
  assert_refused (&spec, "does not fit in 64 bits");
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_ERASE);
  spec.write = FALSE;
  assert_refused (&spec, "its spec must be a write test");
  spec.write = TRUE;
  ds_erase_options (&spec)->method = (DsEraseMethod) 99;
  assert_refused (&spec, "unknown erase method 99");
  ds_erase_options (&spec)->method = DS_ERASE_ZEROS;
  spec.block_size_bytes = 4096;
  assert_refused (&spec, "erase writes blocks of 64K to 64M");
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_HEALTH);
  spec.write = TRUE;
  assert_refused (&spec, "the health check only reads");
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_FILE);
  ds_file_options (&spec)->size_bytes = 1 << 20;
  assert_refused (&spec, "the test file must be at least 16 MiB");
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_MARK);
  ds_mark_options (&spec)->comment = g_strdup ("two\nlines");
  assert_refused (&spec, "one line of text");
  ds_bench_spec_clear (&spec);

  /* The series kinds check their interval; the others have none. */
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *ops = ds_bench_get ((DsBenchKind) k);

      spec_for (&spec, (DsBenchKind) k);
      spec.interval_ns = DS_NS_PER_MSEC;
      if (ops->spec_flags & DS_BENCH_SPEC_SERIES)
        assert_refused (&spec, "the series interval must be 100ms to 1h");
      ds_bench_spec_clear (&spec);
    }

  /* A run time is needed where the kind has one by default. */
  spec_for (&spec, DS_BENCH_WORKLOAD);
  spec.duration_ns = 0;
  assert_refused (&spec, "the duration must be");
  ds_bench_spec_clear (&spec);
}
END_TEST

/* The rules against a target: each kind's check_target hook after the
 * common ones. */
START_TEST (test_check_target)
{
  g_autoptr (GError) error = NULL;
  DsBenchSpec spec;

  /* Every kind whose block must fall on the target's blocks. */
  static const DsBenchKind aligned[] = {
    DS_BENCH_TRANSFER, DS_BENCH_WORKLOAD, DS_BENCH_SWEEP, DS_BENCH_SUSTAIN, DS_BENCH_CACHE,
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (aligned); i++)
    {
      spec_for (&spec, aligned[i]);
      spec.block_size_bytes = 6 * 1024;
      ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 30, 4096, &error));
      ck_assert_msg (strstr (error->message, "must be a multiple of /dev/x's logical block size") != NULL,
                     "%s", error->message);
      g_clear_error (&error);
      spec.block_size_bytes = 8 * 1024;
      ck_assert_msg (ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 30, 4096, &error),
                     "%s", error ? error->message : "");
      ds_bench_spec_clear (&spec);
    }

  /* Transfer: two blocks at least, said against the capacity given. */
  spec_for (&spec, DS_BENCH_TRANSFER);
  spec.block_size_bytes = UINT64_C (1) << 20;
  ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 20, 512, &error));
  ck_assert_msg (strstr (error->message, "fewer than two blocks") != NULL, "%s", error->message);
  g_clear_error (&error);
  spec.capacity_bytes = UINT64_C (1) << 20;
  ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 30, 512, &error));
  ck_assert_msg (strstr (error->message, "the test capacity given, 1 MiB") != NULL, "%s", error->message);
  g_clear_error (&error);
  ds_bench_spec_clear (&spec);

  /* The region kinds: the offset inside and aligned. */
  spec_for (&spec, DS_BENCH_SUSTAIN);
  spec.offset_bytes = UINT64_C (2) << 30;
  ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 30, 512, &error));
  ck_assert_msg (strstr (error->message, "is past the end of /dev/x") != NULL, "%s", error->message);
  g_clear_error (&error);
  spec.offset_bytes = 100;
  ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", UINT64_C (1) << 30, 512, &error));
  ck_assert_msg (strstr (error->message, "the offset, 100 bytes, must be a multiple") != NULL,
                 "%s", error->message);
  g_clear_error (&error);
  ds_bench_spec_clear (&spec);

  /* A kind with a least span (Extra Tests' burst region). */
  spec_for (&spec, DS_BENCH_EXTRA);
  ck_assert (ds_bench_get (DS_BENCH_EXTRA)->min_span_bytes > 4096);
  ck_assert (!ds_bench_spec_check_target (&spec, "/dev/x", 4096, 512, &error));
  ck_assert_msg (strstr (error->message, "too small for the extra test") != NULL, "%s", error->message);
  ds_bench_spec_clear (&spec);
}
END_TEST

/* The params a result keeps, and the accuracy's rows. */
START_TEST (test_params_and_accuracy)
{
  DsBenchSpec spec;
  JsonObject *params;

  spec_for (&spec, DS_BENCH_WORKLOAD);
  spec.pattern = DS_PATTERN_RANDRW;
  params = json_object_new ();
  json_object_set_int_member (params, "read_mix_percent", 70);
  json_object_set_int_member (params, "file_size_bytes", 1);
  json_object_set_int_member (params, "random_align_bytes", 0);
  ds_params_prune (params, &spec);
  ck_assert (json_object_has_member (params, "read_mix_percent"));
  ck_assert (json_object_has_member (params, "random_align_bytes"));
  ck_assert (!json_object_has_member (params, "file_size_bytes"));
  json_object_unref (params);
  spec.pattern = DS_PATTERN_READ;
  ck_assert (!ds_params_random_offsets (&spec));
  spec.pattern = DS_PATTERN_RANDREAD;
  ck_assert (ds_params_random_offsets (&spec));
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_TRANSFER);
  ck_assert (!ds_params_random_offsets (&spec));
  ds_bench_spec_set_accuracy (&spec, 1);
  ck_assert_uint_eq (spec.duration_ns, 0);   /* its points, not rows */
  ds_bench_spec_clear (&spec);

  spec_for (&spec, DS_BENCH_EXTRA);
  ck_assert (ds_params_random_offsets (&spec));
  ds_bench_spec_set_accuracy (&spec, 1);
  ck_assert_uint_eq (spec.duration_ns, 250 * DS_NS_PER_MSEC);
  ds_bench_spec_set_accuracy (&spec, 3);
  ck_assert_uint_eq (spec.duration_ns, 250 * DS_NS_PER_MSEC);   /* kept, not reset */
  ds_bench_spec_clear (&spec);

  ck_assert (ds_bench_kind_has_folder (DS_BENCH_FILE));
  ck_assert (!ds_bench_kind_has_folder (DS_BENCH_TRANSFER));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("bench-rules");
  TCase *tc = tcase_create ("bench-rules");

  ds_test_init ("bench-rules");
  tcase_add_test (tc, test_defaults_valid);
  tcase_add_test (tc, test_defaults_values);
  tcase_add_test (tc, test_kind_rules);
  tcase_add_test (tc, test_check_target);
  tcase_add_test (tc, test_params_and_accuracy);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
