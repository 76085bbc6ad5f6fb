/* test-units.c: size and duration parsing, formatting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-units.h"

START_TEST (test_sizes)
{
  static const struct { const char *text; uint64_t bytes; } ok[] = {
    { "512", 512 }, { "4K", 4096 }, { "4k", 4096 }, { "64K", 65536 },
    { "1M", 1048576 }, { "8M", 8388608 }, { "1G", 1073741824 },
    { "2T", UINT64_C (2) << 40 }, { "0.5K", 512 }, { "4KiB", 4096 },
    { "1MB", 1048576 }, { "100B", 100 }, { "0", 0 },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t v = 1234;

      ck_assert_msg (ds_parse_size (ok[i].text, &v, &error), "%s: %s", ok[i].text,
                     error ? error->message : "");
      ck_assert_uint_eq (v, ok[i].bytes);
    }
}
END_TEST

START_TEST (test_bad_sizes)
{
  static const char *const bad[] = {
    "", "K", "-4K", "4X", "4 K B", "abc", "1.3", "99999999999T", "0x10", NULL,
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t v = 77;

      ck_assert_msg (!ds_parse_size (bad[i], &v, &error), "%s parsed", bad[i] ? bad[i] : "NULL");
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_ptr_nonnull (strstr (error->message, "size"));
      ck_assert_uint_eq (v, 77);
    }
}
END_TEST

START_TEST (test_durations)
{
  static const struct { const char *text; uint64_t ns; } ok[] = {
    { "500ms", 500000000 }, { "5s", UINT64_C (5000000000) }, { "1m", UINT64_C (60000000000) },
    { "2", UINT64_C (2000000000) }, { "250us", 250000 }, { "1h", UINT64_C (3600000000000) },
    { "1.5s", 1500000000 }, { "10ns", 10 },
  };
  static const char *const bad[] = { "", "s", "5x", "-1s", "ms5", NULL };

  for (unsigned i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      uint64_t v = 0;

      ck_assert_msg (ds_parse_duration (ok[i].text, &v, NULL), "%s", ok[i].text);
      ck_assert_uint_eq (v, ok[i].ns);
    }
  for (unsigned i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t v = 5;

      ck_assert (!ds_parse_duration (bad[i], &v, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_uint_eq (v, 5);
    }
}
END_TEST

START_TEST (test_formatting)
{
  g_autofree char *r1 = ds_format_rate (153.9e6, DS_UNITS_MB);
  g_autofree char *r2 = ds_format_rate (0.097e6, DS_UNITS_MB);
  g_autofree char *r3 = ds_format_rate (1048576.0 * 100, DS_UNITS_MIB);
  g_autofree char *t1 = ds_format_ms (0.00594);
  g_autofree char *t2 = ds_format_ms (0.018387);
  g_autofree char *b1 = ds_format_block (512);
  g_autofree char *b2 = ds_format_block (4096);
  g_autofree char *b3 = ds_format_block (1 << 20);
  g_autofree char *s1 = ds_format_size (500107862016);

  ck_assert_str_eq (r1, "153.9 MB/s");
  ck_assert_str_eq (r2, "0.097 MB/s");
  ck_assert_str_eq (r3, "100.0 MiB/s");
  ck_assert_str_eq (t1, "5.940 ms");
  ck_assert_str_eq (t2, "18.39 ms");
  ck_assert_str_eq (b1, "512 bytes");
  ck_assert_str_eq (b2, "4 KiB");
  ck_assert_str_eq (b3, "1 MiB");
  ck_assert_str_eq (s1, "500 GB");
}
END_TEST

/* A figure that was not measured is a dash, not a rate of 0. */
START_TEST (test_rate_not_measured)
{
  g_autofree char *a = ds_format_rate (-1, DS_UNITS_MB);
  g_autofree char *b = ds_format_rate (NAN, DS_UNITS_MIB);
  g_autofree char *c = ds_format_rate (0, DS_UNITS_MB);

  ck_assert_str_eq (a, "–");
  ck_assert_str_eq (b, "–");
  ck_assert_str_eq (c, "0.000 MB/s");
}
END_TEST

/* The units said truthfully: MB is 10^6 bytes, and HD Tune's is 2^20. */
START_TEST (test_units_description)
{
  ck_assert_str_eq (ds_units_description (DS_UNITS_MB),
                    "Rates: MB/s, 1 MB = 10^6 bytes (HD Tune's MB is 2^20: --units MiB)");
  ck_assert_ptr_nonnull (strstr (ds_units_description (DS_UNITS_MIB), "2^20"));
}
END_TEST

/* Sizes echoed in the unit they are typed in (powers of 1024), and both
 * where they meet decimal device sizes. */
/* --align: "block" or a size; the spec's rule wants 0 or a power of two
 * from 512 bytes to 1 GiB. */
START_TEST (test_random_align)
{
  static const struct { const char *text; gboolean parses; uint64_t bytes; gboolean valid; } cases[] = {
    { "block", TRUE, 0, TRUE }, { "BLOCK", TRUE, 0, TRUE }, { "512", TRUE, 512, TRUE },
    { "4K", TRUE, 4096, TRUE }, { "1G", TRUE, UINT64_C (1) << 30, TRUE },
    { "1000", TRUE, 1000, FALSE }, { "256", TRUE, 256, FALSE }, { "2G", TRUE, UINT64_C (2) << 30, FALSE },
    { "blocks", FALSE, 0, FALSE }, { "", FALSE, 0, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t bytes = 77;
      DsBenchSpec spec;

      ck_assert_msg (ds_parse_random_align (cases[i].text, &bytes, &error) == cases[i].parses,
                     "%s", cases[i].text);
      if (!cases[i].parses)
        continue;
      ck_assert_uint_eq (bytes, cases[i].bytes);
      ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
      spec.target_path = g_strdup ("/dev/loop9");
      spec.random_align_bytes = bytes;
      ck_assert_msg (ds_bench_spec_validate (&spec, &error) == cases[i].valid, "%s: %s",
                     cases[i].text, error ? error->message : "valid");
      if (!cases[i].valid)
        ck_assert_msg (strstr (error->message, "random offsets align") != NULL, "%s", error->message);
      ds_bench_spec_clear (&spec);
    }
}
END_TEST

START_TEST (test_iec_sizes)
{
  static const struct { uint64_t bytes; const char *iec; const char *both; } cases[] = {
    { 512, "512 bytes", "512 bytes" },
    { 4096, "4 KiB", "4 KiB (4.1 kB)" },
    { 200 * 1048576, "200 MiB", "200 MiB (210 MB)" },
    { UINT64_C (1) << 30, "1 GiB", "1 GiB (1.1 GB)" },
    { UINT64_C (3) << 29, "1.5 GiB", "1.5 GiB (1.6 GB)" },
    { UINT64_C (2) << 40, "2 TiB", "2 TiB (2.2 TB)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *iec = ds_format_size_iec (cases[i].bytes);
      g_autofree char *both = ds_format_size_both (cases[i].bytes);
      uint64_t parsed = 0;

      ck_assert_str_eq (iec, cases[i].iec);
      ck_assert_str_eq (both, cases[i].both);
      /* What is shown, typed back (without the space), is the same size
       * when it is a whole number of its unit. */
      if (cases[i].bytes % 1024 == 0 && strchr (iec, '.') == NULL)
        {
          g_auto(GStrv) words = g_strsplit (iec, " ", 2);
          g_autofree char *typed = g_strconcat (words[0], words[1], NULL);

          ck_assert_msg (ds_parse_size (typed, &parsed, NULL), "%s", typed);
          ck_assert_uint_eq (parsed, cases[i].bytes);
        }
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("units");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_bad_sizes);
  tcase_add_test (tc, test_rate_not_measured);
  tcase_add_test (tc, test_units_description);
  tcase_add_test (tc, test_durations);
  tcase_add_test (tc, test_formatting);
  tcase_add_test (tc, test_iec_sizes);
  tcase_add_test (tc, test_random_align);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
