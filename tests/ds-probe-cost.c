/* ds-probe-cost.c: what the write gate's probe costs (driven by
 * tests/bench/probe-cost; prints figures, passes or fails nothing)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   ds-probe-cost PATH [ROUNDS]
 *
 * Runs ds_safety_probe() on PATH ROUNDS times for a read (shallow) and
 * for a write (deep: mounts, swap, signature, the stack of devices on the
 * same bytes), alternating, and prints the least, the median and the
 * 90th percentile of each in microseconds (the least is the one a busy
 * machine moves least).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ds-safety.h"

static int
compare_u64 (const void *a,
             const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

static void
print_figures (const char *what,
               uint64_t   *us,
               guint       n)
{
  qsort (us, n, sizeof *us, compare_u64);
  printf ("%-6s min %5" G_GUINT64_FORMAT " us   median %5" G_GUINT64_FORMAT " us   p90 %6"
          G_GUINT64_FORMAT " us   (%u rounds)\n", what, us[0], us[n / 2], us[(n * 9) / 10], n);
}

int
main (int    argc,
      char **argv)
{
  guint rounds = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 200;
  g_autofree uint64_t *shallow = NULL;
  g_autofree uint64_t *deep = NULL;

  if (argc < 2 || rounds == 0)
    {
      fprintf (stderr, "usage: %s PATH [ROUNDS]\n", argv[0]);
      return 2;
    }
  shallow = g_new (uint64_t, rounds);
  deep = g_new (uint64_t, rounds);
  for (guint i = 0; i < rounds; i++)
    {
      DsTargetFacts facts;
      gint64 t0 = g_get_monotonic_time ();

      ds_safety_probe (&facts, argv[1], argv[1], FALSE);
      shallow[i] = (uint64_t) (g_get_monotonic_time () - t0);
      ds_target_facts_clear (&facts);

      t0 = g_get_monotonic_time ();
      ds_safety_probe (&facts, argv[1], argv[1], TRUE);
      deep[i] = (uint64_t) (g_get_monotonic_time () - t0);
      ds_target_facts_clear (&facts);
    }
  print_figures ("read", shallow, rounds);
  print_figures ("write", deep, rounds);

  return 0;
}
