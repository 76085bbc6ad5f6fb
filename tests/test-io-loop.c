/* test-io-loop.c: the I/O loop's random offsets, without a device: every
 * offset on the alignment, inside the region, and every place equally
 * likely
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-io-loop.h"
#include "ds-test-util.h"

/* The alignment a plan asks for: the block size unless told otherwise,
 * never below the logical block. */
START_TEST (test_plan_align)
{
  DsIoPlan plan = { .block_bytes = 4096 };

  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 4096);
  ck_assert_uint_eq (ds_io_plan_align (&plan, 4096), 4096);
  plan.block_bytes = 1 << 20;
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 1 << 20);
  /* --align 512 (HD Tune's rule), on 512-byte and 4096-byte sectors. */
  plan.align_bytes = 512;
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 512);
  ck_assert_uint_eq (ds_io_plan_align (&plan, 4096), 4096);
  /* A variable size (block_max_bytes): the smallest, as fio's bsrange. */
  plan = (DsIoPlan) { .block_bytes = 512, .block_max_bytes = 65536 };
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 512);
}
END_TEST

/* Every offset is the region's start plus a multiple of the alignment and
 * the I/O ends inside the region, with a region whose length is no
 * multiple of the alignment and a start that is not 0. */
START_TEST (test_offsets_aligned_and_inside)
{
  const uint64_t aligns[] = { 512, 4096, 65536, 1 << 20 };
  const uint64_t start = 3 << 20;
  const uint64_t span = (64 << 20) + 3 * 512;
  DsRng rng;

  ds_rng_seed (&rng, 7);
  for (unsigned a = 0; a < G_N_ELEMENTS (aligns); a++)
    for (unsigned i = 0; i < 100000; i++)
      {
        uint64_t len = aligns[a] >= 4096 ? aligns[a] : 4096;
        uint64_t off = ds_io_random_offset (&rng, start, span, len, aligns[a]);

        /* Check's assertions report each pass to the test's parent (a write
         * per call); 400 000 of them took 17 s under ASan. Test plainly and
         * assert only on a failure. */
        if (off < start || off + len > start + span || (off - start) % aligns[a] != 0)
          ck_abort_msg ("offset %" G_GUINT64_FORMAT " (length %" G_GUINT64_FORMAT
                        ") outside [%" G_GUINT64_FORMAT ", +%" G_GUINT64_FORMAT
                        ") or not on %" G_GUINT64_FORMAT,
                        off, len, start, span, aligns[a]);
      }
}
END_TEST

/* Uniform over the places: a chi-square over every place of a small region
 * (fixed seed, so the test is exact; the bound is the 0.1 % tail), and
 * both ends reached, the last place included. */
START_TEST (test_offsets_uniform)
{
  enum { PLACES = 256, DRAWS = PLACES * 400 };
  const uint64_t align = 4096;
  const uint64_t len = 4096;
  /* PLACES places, and a tail shorter than one more block. */
  const uint64_t span = (PLACES - 1) * align + len + 2048;
  unsigned hits[PLACES] = { 0 };
  double expected = (double) DRAWS / PLACES;
  double chi2 = 0;
  DsRng rng;

  ds_rng_seed (&rng, 11);
  for (unsigned i = 0; i < DRAWS; i++)
    {
      uint64_t off = ds_io_random_offset (&rng, 0, span, len, align);

      if (off / align >= PLACES)
        ck_abort_msg ("offset %" G_GUINT64_FORMAT " past the last place", off);
      hits[off / align]++;
    }
  for (unsigned k = 0; k < PLACES; k++)
    {
      ck_assert_msg (hits[k] > 0, "place %u never drawn", k);
      chi2 += (hits[k] - expected) * (hits[k] - expected) / expected;
    }
  /* 255 degrees of freedom: P(chi2 > 330.5) = 0.001. */
  ck_assert_msg (chi2 < 330.5, "chi-square %.1f over %d places", chi2, PLACES);
}
END_TEST

/* One place only (the region is one block and a bit): always the start. */
START_TEST (test_offsets_one_place)
{
  DsRng rng;

  ds_rng_seed (&rng, 13);
  for (unsigned i = 0; i < 1000; i++)
    ck_assert_uint_eq (ds_io_random_offset (&rng, 8192, 4096 + 1024, 4096, 4096), 8192);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("io-loop");
  TCase *tc = tcase_create ("offsets");

  tcase_add_test (tc, test_plan_align);
  tcase_add_test (tc, test_offsets_aligned_and_inside);
  tcase_add_test (tc, test_offsets_uniform);
  tcase_add_test (tc, test_offsets_one_place);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
