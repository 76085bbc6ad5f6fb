/* ds-sustain-analysis.c: the start rate, cliff, floor and dips of a write
 * series (the rules are in ds-bench-sustain.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>

#include "ds-bench-sustain.h"

/* Interval @i's length and bytes (its rate over its length). */
static double
length_s (const DsIntervalPoint *p,
          unsigned               i)
{
  return p[i].t_s - (i > 0 ? p[i - 1].t_s : 0);
}

static double
bytes_of (const DsIntervalPoint *p,
          unsigned               i)
{
  return p[i].write.bytes_per_s * length_s (p, i);
}

/* Total bytes over total time of intervals [from, to). */
static double
rate_over (const DsIntervalPoint *p,
           unsigned               from,
           unsigned               to)
{
  double bytes = 0;
  double time = 0;

  for (unsigned i = from; i < to; i++)
    {
      bytes += bytes_of (p, i);
      time += length_s (p, i);
    }
  return time > 0 ? bytes / time : 0;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
find_dips (const DsIntervalPoint *p,
           unsigned               from,
           unsigned               n,
           DsSustainAnalysis     *ret)
{
  g_autofree double *sorted = NULL;
  double median;
  double first_t = 0;
  double last_t = 0;
  unsigned count = 0;

  if (n < from + 3)
    return;

  sorted = g_new (double, n - from);
  for (unsigned i = from; i < n; i++)
    sorted[i - from] = p[i].write.bytes_per_s;
  qsort (sorted, n - from, sizeof (double), compare_double);
  median = (n - from) % 2 ? sorted[(n - from) / 2] :
           (sorted[(n - from) / 2 - 1] + sorted[(n - from) / 2]) / 2;
  if (!(median > 0))
    return;

  for (unsigned i = from; i < n && ret->dips->len < DS_SUSTAIN_MAX_DIPS; i++)
    {
      DsSustainDip dip;
      double lowest;

      if (!(p[i].write.bytes_per_s < DS_SUSTAIN_DIP_FRACTION * median))
        continue;

      dip.t_s = i > 0 ? p[i - 1].t_s : 0;
      lowest = p[i].write.bytes_per_s;
      while (i + 1 < n && p[i + 1].write.bytes_per_s < DS_SUSTAIN_DIP_FRACTION * median)
        {
          i++;
          lowest = MIN (lowest, p[i].write.bytes_per_s);
        }
      dip.depth_ratio = lowest / median;
      g_array_append_val (ret->dips, dip);
      if (count++ == 0)
        first_t = dip.t_s;
      last_t = dip.t_s;
    }

  if (count >= 2)
    ret->dip_period_s = (last_t - first_t) / (count - 1);
}

void
ds_sustain_analyse (const DsIntervalPoint *p,
                    unsigned               n,
                    DsSustainAnalysis     *ret)
{
  double total = 0;
  double cum = 0;
  unsigned start_end = 0;
  unsigned cliff = 0;

  ds_sustain_analysis_clear (ret);
  ret->dips = g_array_new (FALSE, FALSE, sizeof (DsSustainDip));
  if (n == 0)
    return;

  for (unsigned i = 0; i < n; i++)
    total += bytes_of (p, i);

  /* The intervals that wrote the first 10 % (the one crossing it too). */
  while (start_end < n && cum < DS_SUSTAIN_START_FRACTION * total)
    cum += bytes_of (p, start_end++);
  start_end = MAX (start_end, 1);
  ret->start_bytes_per_s = rate_over (p, 0, start_end);

  /* From the end back, counting the intervals below the limit, so each
   * "most of the rest" is one step: the median of the rest is below the
   * limit when more than half of the rest is.  (A mean alone would let a
   * short rest with one deep dip in it claim a cliff.)  Past a cliff the
   * disk does not come back: the rest's average must be below the limit
   * too, and at most a tenth of its intervals back at the start rate
   * (80 % of it).  Writes that stall for 40 % of every second put half
   * their intervals under the limit, yet most of the others run at full
   * speed: dips, not a cliff. */
  {
    double limit = DS_SUSTAIN_CLIFF_FRACTION * ret->start_bytes_per_s;
    double full = 0.8 * ret->start_bytes_per_s;
    unsigned below = 0;
    unsigned back = 0;
    unsigned min_rest = MAX (DS_SUSTAIN_CLIFF_MIN_REST, n / 10);
    double rest_bytes = 0;
    double rest_time = 0;

    for (unsigned i = n - 1; i >= 1; i--)
      {
        unsigned rest = n - i;

        rest_bytes += bytes_of (p, i);
        rest_time += length_s (p, i);
        if (p[i].write.bytes_per_s < limit)
          below++;
        if (p[i].write.bytes_per_s >= full)
          back++;
        if (p[i].write.bytes_per_s < limit && 2 * below > rest && rest >= min_rest
            && rest_time > 0 && rest_bytes / rest_time < limit && 10 * back <= rest)
          cliff = i;         /* the earliest such interval wins */
      }
  }

  if (cliff == 0)
    {
      ret->floor_bytes_per_s = rate_over (p, 0, n);
      find_dips (p, 0, n, ret);
      return;
    }

  {
    double before = 0;
    double fast = ret->start_bytes_per_s;
    double floor_rate = rate_over (p, cliff + 1 < n ? cliff + 1 : cliff, n);
    double dt = length_s (p, cliff);
    /* The share x of interval @cliff still at the start rate:
     * x × fast + (1 − x) × floor = its rate. */
    double x = fast > floor_rate ? (p[cliff].write.bytes_per_s - floor_rate) / (fast - floor_rate) : 0;

    x = CLAMP (x, 0.0, 1.0);
    for (unsigned i = 0; i < cliff; i++)
      before += bytes_of (p, i);
    ret->cliff_found = TRUE;
    ret->cliff_bytes = before + x * fast * dt;
    ret->cliff_t_s = p[cliff - 1].t_s + x * dt;
    ret->floor_bytes_per_s = floor_rate;
    find_dips (p, cliff + 1, n, ret);
  }
}

void
ds_sustain_analysis_clear (DsSustainAnalysis *analysis)
{
  g_clear_pointer (&analysis->dips, g_array_unref);
  *analysis = (DsSustainAnalysis) { 0 };
}
