/* ds-sweep-knee.c: a sweep's rules: the knee, steadiness, Little's law,
 * and the knee in words (see ds-bench-sweep.h for the rules)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "ds-bench-sweep.h"

gboolean
ds_sweep_little_off (const DsSweepStep *step)
{
  if (step->outstanding == 0 || step->ios == 0)
    return FALSE;

  return fabs (step->little_outstanding / step->outstanding - 1.0) > DS_SWEEP_LITTLE_TOLERANCE;
}

gboolean
ds_sweep_find_knee (const DsSweepStep *steps,
                    unsigned           n_steps,
                    DsSweepKnee       *ret_knee)
{
  for (unsigned k = 0; k + 1 < n_steps; k++)
    {
      const DsSweepStep *at = &steps[k];
      const DsSweepStep *last = &steps[n_steps - 1];
      gboolean plateau = at->iops > 0;
      double per_step;

      for (unsigned j = k + 1; plateau && j < n_steps; j++)
        if (steps[j].iops > at->iops * (1.0 + DS_SWEEP_KNEE_GAIN))
          plateau = FALSE;
      if (!plateau || at->lat_p99_s <= 0 ||
          !(steps[k + 1].lat_p99_s > at->lat_p99_s * (1.0 + DS_SWEEP_KNEE_GROWTH)))
        continue;

      /* Geometric means over the levels past the knee. */
      per_step = 1.0 / (double) (n_steps - 1 - k);
      *ret_knee = (DsSweepKnee) {
        .found = TRUE,
        .index = k,
        .outstanding = at->outstanding,
        .queue_depth = at->queue_depth,
        .threads = at->threads,
        .iops = at->iops,
        .p99_s = at->lat_p99_s,
        .iops_gain_per_step = pow (last->iops / at->iops, per_step) - 1.0,
        .p99_growth_per_step = pow (last->lat_p99_s / at->lat_p99_s, per_step),
      };
      return TRUE;
    }

  *ret_knee = (DsSweepKnee) { .found = FALSE };
  return FALSE;
}

void
ds_sweep_update_knee (DsSweepData *data)
{
  g_autoptr (GArray) done = g_array_new (FALSE, FALSE, sizeof (DsSweepStep));
  g_autoptr (GArray) where = g_array_new (FALSE, FALSE, sizeof (unsigned));

  for (guint i = 0; i < data->steps->len; i++)
    if (g_array_index (data->steps, DsSweepStep, i).complete)
      {
        g_array_append_val (done, g_array_index (data->steps, DsSweepStep, i));
        g_array_append_val (where, i);
      }

  if (ds_sweep_find_knee ((const DsSweepStep *) done->data, done->len, &data->knee))
    data->knee.index = g_array_index (where, unsigned, data->knee.index);
}

gboolean
ds_sweep_is_steady (const double *iops,
                    unsigned      n)
{
  double mean_x;
  double mean_y = 0;
  double sxy = 0;
  double sxx = 0;

  if (n < DS_SWEEP_STEADY_WINDOW)
    return FALSE;

  iops += n - DS_SWEEP_STEADY_WINDOW;
  n = DS_SWEEP_STEADY_WINDOW;
  mean_x = (n - 1) / 2.0;
  for (unsigned i = 0; i < n; i++)
    mean_y += iops[i] / n;
  if (!(mean_y > 0))
    return FALSE;
  for (unsigned i = 0; i < n; i++)
    {
      sxy += (i - mean_x) * (iops[i] - mean_y);
      sxx += (i - mean_x) * (i - mean_x);
    }

  /* The fitted line's rise across the window (n - 1 intervals), against
   * the mean. */
  return fabs (sxy / sxx) * (n - 1) < DS_SWEEP_STEADY_SLOPE * mean_y;
}

/* "QD 16", "16 threads (QD 4 each)". */
static char *
level_name (gboolean over_threads,
            unsigned queue_depth,
            unsigned threads)
{
  if (!over_threads)
    return threads > 1 ? g_strdup_printf ("QD %u × %u threads", queue_depth, threads)
                       : g_strdup_printf ("QD %u", queue_depth);

  return queue_depth > 1 ? g_strdup_printf ("%u thread%s (QD %u each)", threads, threads == 1 ? "" : "s",
                                            queue_depth)
                         : g_strdup_printf ("%u thread%s", threads, threads == 1 ? "" : "s");
}

/* 41200 → "41 200" (a thin gap every three digits, as the issue writes it). */
static char *
group_digits (double value)
{
  g_autofree char *digits = g_strdup_printf ("%.0f", value);
  GString *out = g_string_new (NULL);
  size_t len = strlen (digits);

  for (size_t i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ' ');
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

char *
ds_sweep_knee_words (const DsSweepData *data)
{
  const DsSweepKnee *knee = &data->knee;
  const DsSweepStep *steps = data->steps != NULL ? (const DsSweepStep *) data->steps->data : NULL;
  unsigned n = 0;

  for (guint i = 0; steps != NULL && i < data->steps->len; i++)
    if (steps[i].complete)
      n++;

  if (knee->found)
    {
      g_autofree char *where = level_name (data->over_threads, knee->queue_depth, knee->threads);
      g_autofree char *iops = group_digits (knee->iops);
      g_autofree char *p99 = ds_format_ms (knee->p99_s);

      double gain = knee->iops_gain_per_step * 100.0;
      /* Past the knee IOPS may grow a little, not at all, or fall. */
      g_autofree char *more = gain >= 0.5 ? g_strdup_printf ("for %.0f %% more IOPS", gain) :
                              gain <= -0.5 ? g_strdup_printf ("while IOPS fall %.0f %%", -gain) :
                              g_strdup ("for no more IOPS");

      return g_strdup_printf ("saturates at %s: %s IOPS (p99 %s); past it p99 "
                              "latency grows %.1f× per step %s",
                              where, iops, p99, knee->p99_growth_per_step, more);
    }

  if (n < 2)
    return g_strdup ("no knee: fewer than two levels were measured");

  {
    /* The complete levels, in order: is the last still climbing? */
    const DsSweepStep *last = NULL;
    const DsSweepStep *prev = NULL;
    double best_before = 0;

    for (guint i = 0; i < data->steps->len; i++)
      if (steps[i].complete)
        {
          if (last != NULL)
            {
              best_before = MAX (best_before, last->iops);
              prev = last;
            }
          last = &steps[i];
        }

    if (last->iops > best_before * (1.0 + DS_SWEEP_KNEE_GAIN))
      {
        g_autofree char *a = level_name (data->over_threads, prev->queue_depth, prev->threads);
        g_autofree char *b = level_name (data->over_threads, last->queue_depth, last->threads);

        return g_strdup_printf ("no knee: IOPS still grow at the last level (%+.0f %% from "
                                "%s to %s): not saturated yet; sweep further (--to)",
                                (last->iops / prev->iops - 1.0) * 100.0, a, b);
      }

    return g_strdup ("no knee: IOPS level off but p99 latency does not grow past "
                     "them: the limit is not queueing at the device (the host, "
                     "the engine or a rate cap)");
  }
}
