/* test-buffer.c: alignment and incompressible data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <zlib.h>

#include "ds-buffer.h"
#include "ds-test-util.h"

START_TEST (test_alignment)
{
  const size_t aligns[] = { 8, 512, 4096, 65536 };

  for (unsigned i = 0; i < G_N_ELEMENTS (aligns); i++)
    {
      void *b = ds_buffer_alloc (12345, aligns[i]);

      ck_assert_ptr_nonnull (b);
      ck_assert_uint_eq ((uintptr_t) b % aligns[i], 0);
      ds_buffer_free (b);
    }
}
END_TEST

/* The fill must not compress: zram and some SSDs would store nothing. */
START_TEST (test_incompressible)
{
  enum { SIZE = 1 << 20 };
  uint8_t *b = ds_buffer_alloc (SIZE, 4096);
  uLongf out_len = compressBound (SIZE);
  g_autofree Bytef *out = g_malloc (out_len);
  DsRng rng;

  ds_rng_seed (&rng, 1);
  ds_buffer_fill (b, SIZE, &rng);
  ck_assert_int_eq (compress2 (out, &out_len, b, SIZE, 9), Z_OK);
  ck_assert_msg (out_len >= SIZE, "compressed to %lu of %d bytes", out_len, SIZE);
  ds_buffer_free (b);
}
END_TEST

/* A refresh changes every 512-byte block, so repeated writes differ. */
START_TEST (test_refresh_changes_every_sector)
{
  enum { SIZE = 64 * 1024 };
  uint8_t *b = ds_buffer_alloc (SIZE, 4096);
  g_autofree uint8_t *copy = g_malloc (SIZE);
  DsRng rng;

  ds_rng_seed (&rng, 3);
  ds_buffer_fill (b, SIZE, &rng);
  memcpy (copy, b, SIZE);
  ds_buffer_refresh (b, SIZE, &rng);
  for (unsigned s = 0; s < SIZE / 512; s++)
    ck_assert_msg (memcmp (b + s * 512, copy + s * 512, 512) != 0, "sector %u unchanged", s);
  ds_buffer_free (b);
}
END_TEST

START_TEST (test_rng_below_in_range)
{
  DsRng rng;
  unsigned hits[10] = { 0 };

  ds_rng_seed (&rng, 5);
  for (unsigned i = 0; i < 100000; i++)
    {
      uint64_t v = ds_rng_below (&rng, 10);
      ck_assert_uint_lt (v, 10);
      hits[v]++;
    }
  for (unsigned i = 0; i < 10; i++)
    ck_assert_msg (hits[i] > 9000 && hits[i] < 11000, "bucket %u: %u", i, hits[i]);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("buffer");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_alignment);
  tcase_add_test (tc, test_incompressible);
  tcase_add_test (tc, test_refresh_changes_every_sector);
  tcase_add_test (tc, test_rng_below_in_range);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
