/* test-words.c: a run's settings in words, the kinds' shared caption
 * words (core/kinds/common/ds-words.c)
 *
 * Unit suite: no root, no device.  What ds-words.h promises: "block
 * 64 KiB", "queue depth 32", "accuracy 3 (3 s a row)" from the time given
 * or the kind's default_row_ns, "whole device" or "first 4 GiB (4.3 GB)";
 * each appended after what @parts already holds; and the kinds that
 * spend a time per row name their settings with it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-random-access.h"
#include "ds-words.h"
#include "ds-test-util.h"

static GPtrArray *
parts_new (void)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);

  /* Something already there stays first. */
  g_ptr_array_add (parts, g_strdup ("randread"));
  return parts;
}

static void
assert_parts (GPtrArray  *parts,
              const char *second)
{
  ck_assert_uint_eq (parts->len, 2);
  ck_assert_str_eq (parts->pdata[0], "randread");
  ck_assert_str_eq (parts->pdata[1], second);
}

START_TEST (test_block)
{
  static const struct { uint64_t bytes; const char *words; } cases[] = {
    { 0, "block 0 bytes" }, { 512, "block 512 bytes" }, { 1023, "block 1023 bytes" },
    { 4096, "block 4 KiB" }, { 65536, "block 64 KiB" }, { 1536, "block 1.5 KiB" },
    { UINT64_C (1) << 20, "block 1 MiB" }, { UINT64_C (128) << 20, "block 128 MiB" },
    { G_MAXUINT64, "block 16.0 EiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) parts = parts_new ();

      ds_words_add_block (parts, cases[i].bytes);
      assert_parts (parts, cases[i].words);
    }
}
END_TEST

START_TEST (test_queue)
{
  static const struct { unsigned depth; const char *words; } cases[] = {
    { 1, "queue depth 1" }, { 32, "queue depth 32" }, { 0, "queue depth 0" },
    { G_MAXUINT, "queue depth 4294967295" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) parts = parts_new ();

      ds_words_add_queue (parts, cases[i].depth);
      assert_parts (parts, cases[i].words);
    }

  /* Block then queue, in the order called. */
  {
    g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

    ds_words_add_block (parts, 4096);
    ds_words_add_queue (parts, 32);
    ck_assert_uint_eq (parts->len, 2);
    ck_assert_str_eq (parts->pdata[0], "block 4 KiB");
    ck_assert_str_eq (parts->pdata[1], "queue depth 32");
  }
}
END_TEST

/* The time given wins; 0 is the kind's default_row_ns. */
START_TEST (test_row_settings)
{
  static const struct {
    DsBenchKind kind;
    unsigned    accuracy;
    uint64_t    duration_ns;
    const char *words;
  } cases[] = {
    { DS_BENCH_RANDOM_ACCESS, 3, 0, "accuracy 3 (3 s a row)" },
    { DS_BENCH_EXTRA, 5, 0, "accuracy 5 (3 s a row)" },
    { DS_BENCH_BLOCK_SIZE, 1, 0, "accuracy 1 (1 s a row)" },
    { DS_BENCH_RANDOM_ACCESS, 2, 2500000000, "accuracy 2 (2.5 s a row)" },
    { DS_BENCH_BLOCK_SIZE, 4, 250000000, "accuracy 4 (0.25 s a row)" },
    { DS_BENCH_EXTRA, 3, 60 * G_GUINT64_CONSTANT (1000000000), "accuracy 3 (60 s a row)" },
  };

  ck_assert_uint_eq (DS_RANDOM_ACCESS_DEFAULT_ROW_NS, 3000000000);
  ck_assert_uint_eq (DS_EXTRA_DEFAULT_ROW_NS, 3000000000);
  ck_assert_uint_eq (DS_BLOCK_SIZE_DEFAULT_ROW_NS, 1000000000);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (DsBenchSpec) spec = { 0 };
      g_autoptr (GPtrArray) parts = parts_new ();
      g_autoptr (GPtrArray) hook = parts_new ();
      const DsBenchOps *ops = ds_bench_get (cases[i].kind);

      ds_bench_spec_init (&spec, cases[i].kind);
      spec.accuracy = cases[i].accuracy;
      spec.duration_ns = cases[i].duration_ns;
      /* @result is not read: before the run it is NULL. */
      ds_words_row_settings (&spec, NULL, parts);
      assert_parts (parts, cases[i].words);

      /* The kind's own settings hook is this one. */
      ck_assert_ptr_nonnull (ops);
      ck_assert (ops->settings == ds_words_row_settings);
      ops->settings (&spec, NULL, hook);
      assert_parts (hook, cases[i].words);
    }

  /* A kind the table does not know (a spec from elsewhere): no default, so
   * "0 s", not a crash. */
  {
    DsBenchSpec spec = { .kind = DS_BENCH_N_KINDS, .accuracy = 3 };
    g_autoptr (GPtrArray) parts = parts_new ();

    ds_words_row_settings (&spec, NULL, parts);
    assert_parts (parts, "accuracy 3 (0 s a row)");
  }
}
END_TEST

START_TEST (test_capacity)
{
  static const struct { uint64_t bytes; const char *words; } cases[] = {
    { 0, "whole device" },
    { 1, "first 1 bytes" },
    { 999, "first 999 bytes" },
    { 1000, "first 1000 bytes (1.0 kB)" },
    { UINT64_C (4) << 30, "first 4 GiB (4.3 GB)" },
    { UINT64_C (200) << 20, "first 200 MiB (210 MB)" },
    { UINT64_C (1536) << 20, "first 1.5 GiB (1.6 GB)" },
    { UINT64_C (500) * 1000 * 1000 * 1000, "first 465.7 GiB (500 GB)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *words = ds_words_capacity (cases[i].bytes);

      ck_assert_str_eq (words, cases[i].words);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("words");
  TCase *tc = tcase_create ("words");

  tcase_add_test (tc, test_block);
  tcase_add_test (tc, test_queue);
  tcase_add_test (tc, test_row_settings);
  tcase_add_test (tc, test_capacity);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
