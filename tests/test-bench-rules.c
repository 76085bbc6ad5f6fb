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
#include "ds-bench-replay.h"
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
  /* A replay's front end names the trace it replays. */
  if (kind == DS_BENCH_REPLAY)
    ds_replay_options (spec)->trace_path = g_strdup ("/var/tmp/null-test.dstrace");
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

/* @spec is refused with exactly @message. */
static void
assert_refused_with (const DsBenchSpec *spec,
                     const char        *message)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (!ds_bench_spec_validate (spec, &error), "accepted, expected “%s”", message);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID), "%s", error->message);
  ck_assert_str_eq (error->message, message);
}

/* ds_bench_spec_check_target() refuses @spec on @path of @size_bytes with
 * @lbs-byte blocks, with exactly @message. */
static void
assert_target_refused (const DsBenchSpec *spec,
                       uint64_t           size_bytes,
                       uint32_t           lbs,
                       const char        *message)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (!ds_bench_spec_check_target (spec, "/dev/x", size_bytes, lbs, &error),
                 "accepted, expected “%s”", message);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID), "%s", error->message);
  ck_assert_str_eq (error->message, message);
}

static void
assert_target_accepted (const DsBenchSpec *spec,
                        uint64_t           size_bytes,
                        uint32_t           lbs)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (ds_bench_spec_check_target (spec, "/dev/x", size_bytes, lbs, &error), "%s",
                 error != NULL ? error->message : "");
}

/* The rules every kind's spec is held to, each branch with its message,
 * on the kinds that have no rules of their own beyond them (only the
 * spec's common fields are set): what is given is said as it was typed. */
START_TEST (test_common_rules)
{
  static const DsBenchKind kinds[] = {
    DS_BENCH_TRANSFER, DS_BENCH_WORKLOAD, DS_BENCH_RANDOM_ACCESS, DS_BENCH_BLOCK_SIZE,
    DS_BENCH_EXTRA, DS_BENCH_CACHE,
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      DsBenchSpec spec;

      spec_for (&spec, kinds[i]);
      ck_assert_msg (ds_bench_spec_validate (&spec, NULL), "%s", ds_bench_get (kinds[i])->name);

      g_clear_pointer (&spec.target_path, g_free);
      assert_refused_with (&spec, "no device or file given");
      spec.target_path = g_strdup ("");
      assert_refused_with (&spec, "no device or file given");
      g_free (spec.target_path);
      spec.target_path = g_strdup ("/dev/null-test");

      g_free (spec.engine);
      spec.engine = g_strdup ("fast");
      assert_refused_with (&spec, "unknown engine “fast”: use auto, sync, io_uring or threads");
      for (const char *const *name = (const char *const[]) { "auto", "sync", "io_uring", "threads", NULL };
           *name != NULL; name++)
        {
          g_free (spec.engine);
          spec.engine = g_strdup (*name);
          ck_assert_msg (ds_bench_spec_validate (&spec, NULL), "engine %s", *name);
        }

      spec.accuracy = 0;
      assert_refused_with (&spec, "the accuracy must be 1 to 5, not 0");
      spec.accuracy = 6;
      assert_refused_with (&spec, "the accuracy must be 1 to 5, not 6");
      spec.accuracy = 5;

      spec.queue_depth = 0;
      assert_refused_with (&spec, "the queue depth must be 1 to 4096, not 0");
      spec.queue_depth = 4097;
      assert_refused_with (&spec, "the queue depth must be 1 to 4096, not 4097");
      /* -1 typed at the CLI arrives as a large unsigned number. */
      spec.queue_depth = (unsigned) -1;
      assert_refused_with (&spec, "the queue depth must be 1 to 4096, not -1");
      spec.queue_depth = 4096;
      ck_assert (ds_bench_spec_validate (&spec, NULL));
      spec.queue_depth = 1;

      spec.threads = 0;
      assert_refused_with (&spec, "the number of threads must be 1 to 1024, not 0");
      spec.threads = 1025;
      assert_refused_with (&spec, "the number of threads must be 1 to 1024, not 1025");
      spec.threads = 1;

      spec.read_mix_percent = 101;
      assert_refused_with (&spec, "the read mix is a percentage (0 to 100), not 101");
      spec.read_mix_percent = 100;

      spec.block_size_bytes = 0;
      assert_refused_with (&spec, "the block size must be between one sector and 1 GiB, not 0 bytes");
      spec.block_size_bytes = UINT64_C (2) << 30;
      assert_refused_with (&spec, "the block size must be between one sector and 1 GiB, not "
                           "2 GiB (2147483648 bytes)");
      spec.block_size_bytes = UINT64_C (1) << 30;
      ck_assert (ds_bench_spec_validate (&spec, NULL));
      spec.block_size_bytes = 4096;

      /* A run time below 10 ms or above a week, as it was typed. */
      spec.duration_ns = 5 * DS_NS_PER_MSEC;
      assert_refused_with (&spec, "the duration must be 10 ms to 7 days, not 5 ms");
      spec.duration_ns = UINT64_C (8) * 24 * 3600 * DS_NS_PER_SEC;
      assert_refused_with (&spec, "the duration must be 10 ms to 7 days, not 192 h");
      spec.duration_ns = 10 * DS_NS_PER_MSEC;
      ck_assert (ds_bench_spec_validate (&spec, NULL));

      ck_assert_msg (ds_bench_spec_validate (&spec, NULL), "%s", ds_bench_get (kinds[i])->name);
      ds_bench_spec_clear (&spec);
    }

  /* 0 is the kind's own time per row, where it has one; a workload must
   * run for some time. */
  {
    DsBenchSpec spec;

    spec_for (&spec, DS_BENCH_TRANSFER);
    spec.duration_ns = 0;
    ck_assert (ds_bench_spec_validate (&spec, NULL));
    ds_bench_spec_clear (&spec);
    spec_for (&spec, DS_BENCH_WORKLOAD);
    spec.duration_ns = 0;
    assert_refused_with (&spec, "the duration must be 10 ms to 7 days, not 0");
    ds_bench_spec_clear (&spec);
  }

  /* What is in flight at once: I/Os, then their buffers. */
  {
    DsBenchSpec spec;

    spec_for (&spec, DS_BENCH_WORKLOAD);
    spec.queue_depth = 4096;
    spec.threads = 16;
    assert_refused_with (&spec, "queue depth 4096 × 16 threads is 65536 I/Os in flight, "
                         "more than 32768");
    spec.threads = 8;
    spec.block_size_bytes = 4096;
    ck_assert (ds_bench_spec_validate (&spec, NULL));
    spec.queue_depth = 1024;
    spec.threads = 4;
    spec.block_size_bytes = UINT64_C (2) << 20;
    assert_refused_with (&spec, "queue depth 1024 × 4 threads × 2097152-byte blocks needs "
                         "8192 MiB of buffers, more than 4096 MiB");
    spec.block_size_bytes = UINT64_C (1) << 20;
    ck_assert (ds_bench_spec_validate (&spec, NULL));
    ds_bench_spec_clear (&spec);
  }

  /* The first rule broken is the one said. */
  {
    DsBenchSpec spec;

    spec_for (&spec, DS_BENCH_WORKLOAD);
    spec.queue_depth = 0;
    spec.block_size_bytes = 0;
    assert_refused_with (&spec, "the queue depth must be 1 to 4096, not 0");
    g_clear_pointer (&spec.target_path, g_free);
    assert_refused_with (&spec, "no device or file given");
    ds_bench_spec_clear (&spec);
  }

  /* A kind there is no table for. */
  {
    DsBenchSpec spec;

    spec_for (&spec, DS_BENCH_TRANSFER);
    spec.kind = (DsBenchKind) 99;
    assert_refused_with (&spec, "unknown kind of test (99)");
    spec.kind = DS_BENCH_TRANSFER;
    ds_bench_spec_clear (&spec);
  }
}
END_TEST

/* The rules against the target, each with its message: the block on the
 * target's logical block, the region inside it and holding a block, and
 * the least span a kind can test, against the capacity given or the
 * target's size. */
START_TEST (test_target_rules)
{
  const uint64_t gib = UINT64_C (1) << 30;
  DsBenchSpec spec;

  spec_for (&spec, DS_BENCH_WORKLOAD);
  spec.block_size_bytes = 6 * 1024;
  assert_target_refused (&spec, gib, 4096, "the block size, 6 KiB (6144 bytes), must be a "
                         "multiple of /dev/x's logical block size (4096 bytes)");
  assert_target_accepted (&spec, gib, 512);
  spec.block_size_bytes = 64 * 1024;

  spec.offset_bytes = 100;
  assert_target_refused (&spec, gib, 512, "the offset, 100 bytes, must be a multiple of "
                         "/dev/x's logical block size (512 bytes)");
  spec.offset_bytes = gib;
  assert_target_refused (&spec, gib, 512, "the offset given, 1 GiB (1073741824 bytes), is past "
                         "the end of /dev/x, which has 1 GiB (1073741824 bytes)");
  spec.offset_bytes = gib - 4096;
  assert_target_refused (&spec, gib, 512, "the region tested (4 KiB (4096 bytes) from offset "
                         "1048572 KiB (1073737728 bytes) of /dev/x's 1 GiB (1073741824 bytes)) is smaller "
                         "than one block of 64 KiB (65536 bytes)");
  spec.offset_bytes = gib - 64 * 1024;
  assert_target_accepted (&spec, gib, 512);
  spec.offset_bytes = 0;
  spec.span_bytes = 32 * 1024;
  assert_target_refused (&spec, gib, 512, "the region tested (32 KiB (32768 bytes) from offset "
                         "0 bytes of /dev/x's 1 GiB (1073741824 bytes)) is smaller than one "
                         "block of 64 KiB (65536 bytes)");
  spec.span_bytes = 64 * 1024;
  assert_target_accepted (&spec, gib, 512);
  ds_bench_spec_clear (&spec);

  /* Random Access needs 1 MiB: of the target, or of the capacity given
   * when that is less than the target. */
  spec_for (&spec, DS_BENCH_RANDOM_ACCESS);
  assert_target_refused (&spec, 512 * 1024, 512, "/dev/x has 512 KiB (524288 bytes): too small "
                         "for the random-access test, which needs at least 1 MiB (1048576 bytes)");
  spec.capacity_bytes = 512 * 1024;
  assert_target_refused (&spec, gib, 512, "the test capacity given, 512 KiB (524288 bytes), is "
                         "too small for the random-access test, which needs at least 1 MiB "
                         "(1048576 bytes); /dev/x has 1 GiB (1073741824 bytes)");
  spec.capacity_bytes = 1024 * 1024;
  assert_target_accepted (&spec, gib, 512);
  /* A capacity beyond the target is the target. */
  spec.capacity_bytes = 2 * gib;
  assert_target_accepted (&spec, gib, 512);
  assert_target_refused (&spec, 512 * 1024, 512, "/dev/x has 512 KiB (524288 bytes): too small "
                         "for the random-access test, which needs at least 1 MiB (1048576 bytes)");
  ds_bench_spec_clear (&spec);

  /* Transfer: two blocks of the target, said without a capacity. */
  spec_for (&spec, DS_BENCH_TRANSFER);
  spec.block_size_bytes = UINT64_C (1) << 20;
  assert_target_refused (&spec, UINT64_C (1) << 20, 512, "/dev/x has 1 MiB (1048576 bytes): "
                         "fewer than two blocks of the block size given, 1 MiB (1048576 bytes); "
                         "use a block size of at most half of /dev/x's size");
  assert_target_accepted (&spec, UINT64_C (2) << 20, 512);
  ds_bench_spec_clear (&spec);
}
END_TEST

/* Which specs are write tests (the gate wants a confirmation for them):
 * --write where a kind has it, a pattern that writes, always for sustain
 * and erase, never for the kinds that only read or write a file of their
 * own, whatever spec.write says. */
START_TEST (test_is_write_test)
{
  static const struct {
    DsBenchKind kind;
    gboolean    write;
    DsPattern   pattern;
    gboolean    expect;
  } cases[] = {
    { DS_BENCH_TRANSFER, FALSE, DS_PATTERN_READ, FALSE },
    { DS_BENCH_TRANSFER, TRUE, DS_PATTERN_READ, TRUE },
    { DS_BENCH_EXTRA, TRUE, DS_PATTERN_READ, TRUE },
    { DS_BENCH_RANDOM_ACCESS, TRUE, DS_PATTERN_READ, TRUE },
    { DS_BENCH_BLOCK_SIZE, FALSE, DS_PATTERN_READ, FALSE },
    { DS_BENCH_CACHE, TRUE, DS_PATTERN_READ, TRUE },
    /* The pattern, not the flag. */
    { DS_BENCH_WORKLOAD, TRUE, DS_PATTERN_READ, FALSE },
    { DS_BENCH_WORKLOAD, TRUE, DS_PATTERN_RANDREAD, FALSE },
    { DS_BENCH_WORKLOAD, FALSE, DS_PATTERN_WRITE, TRUE },
    { DS_BENCH_WORKLOAD, FALSE, DS_PATTERN_RANDWRITE, TRUE },
    { DS_BENCH_WORKLOAD, FALSE, DS_PATTERN_RANDRW, TRUE },
    { DS_BENCH_WORKLOAD, FALSE, DS_PATTERN_RW, TRUE },
    { DS_BENCH_SWEEP, FALSE, DS_PATTERN_RANDWRITE, TRUE },
    { DS_BENCH_SWEEP, TRUE, DS_PATTERN_RANDREAD, FALSE },
    /* Always. */
    { DS_BENCH_SUSTAIN, FALSE, DS_PATTERN_READ, TRUE },
    { DS_BENCH_ERASE, FALSE, DS_PATTERN_READ, TRUE },
    /* Never. */
    { DS_BENCH_HEALTH, TRUE, DS_PATTERN_WRITE, FALSE },
    { DS_BENCH_ERROR_SCAN, TRUE, DS_PATTERN_WRITE, FALSE },
    { DS_BENCH_FILE, TRUE, DS_PATTERN_WRITE, FALSE },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsBenchSpec spec;

      spec_for (&spec, cases[i].kind);
      spec.write = cases[i].write;
      spec.pattern = cases[i].pattern;
      ck_assert_msg (ds_bench_spec_is_write_test (&spec) == cases[i].expect,
                     "%s, write %d, pattern %s: expected %s", ds_bench_get (cases[i].kind)->name,
                     cases[i].write, ds_pattern_to_string (cases[i].pattern),
                     cases[i].expect ? "a write test" : "no write test");
      ds_bench_spec_clear (&spec);
    }

  /* A kind there is no table for: what the spec says. */
  {
    DsBenchSpec spec = { .kind = (DsBenchKind) 99, .write = TRUE };

    ck_assert (ds_bench_spec_is_write_test (&spec));
    spec.write = FALSE;
    ck_assert (!ds_bench_spec_is_write_test (&spec));
  }
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

  /* The branches of the common rules, with the spec's common fields. */
  tc = tcase_create ("common");
  tcase_add_test (tc, test_common_rules);
  tcase_add_test (tc, test_target_rules);
  tcase_add_test (tc, test_is_write_test);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
