/* ds-sweep-text.c: a sweep's report section
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-sweep.h"
#include "ds-report.h"
#include "ds-result.h"

static char *
profile_text (const DsResult    *result,
              const DsSweepData *data)
{
  const DsBenchSpec *spec = &result->spec;
  g_autofree char *block = ds_format_block (spec->block_size_bytes);
  g_autofree char *mix = NULL;
  g_autofree char *fixed = NULL;
  unsigned first = data->levels->len > 0 ? g_array_index (data->levels, unsigned, 0) : 0;
  unsigned last = data->levels->len > 0 ?
                  g_array_index (data->levels, unsigned, data->levels->len - 1) : 0;

  if (spec->pattern == DS_PATTERN_RANDRW || spec->pattern == DS_PATTERN_RW)
    mix = g_strdup_printf (", %u%% reads", spec->read_mix_percent);
  fixed = data->over_threads ?
          g_strdup_printf ("queue depth %u per thread, threads %u to %u", spec->queue_depth, first, last) :
          g_strdup_printf ("%u thread%s, queue depth %u to %u", spec->threads,
                           spec->threads == 1 ? "" : "s", first, last);

  return g_strdup_printf ("%s, %s%s, %s (%u levels)", ds_pattern_to_string (spec->pattern),
                          block, mix != NULL ? mix : "", fixed, data->levels->len);
}

void
ds_sweep_report (const DsResult *result,
                 DsUnits         units,
                 GString        *out)
{
  const DsSweepData *data = result->data;
  const char *head[] = { "QD", "Threads", "In flight", "IOPS", "Rate", "Mean",
                         "p50", "p99", "p99.9", "Little", "Time" };
  g_autofree char *profile = profile_text (result, data);
  g_autofree char *knee = ds_sweep_knee_words (data);
  g_autofree char *step_time = g_strdup_printf ("%g s per level%s", data->step_time_s,
                                                data->steady ? ", or less once IOPS is steady" : "");
  g_autoptr (GString) off = g_string_new (NULL);

  ds_report_figure (out, "Workload", profile);
  ds_report_figure (out, "Step Time", step_time);
  if (data->steady)
    {
      g_autofree char *rule = g_strdup_printf ("the fitted line through the last %u "
                                               "intervals' IOPS moves < %.0f %% of their mean",
                                               DS_SWEEP_STEADY_WINDOW, DS_SWEEP_STEADY_SLOPE * 100);

      ds_report_figure (out, "Steady When", rule);
    }
  ds_report_figure (out, "Knee", knee);
  {
    g_autofree char *rule = g_strdup_printf ("the first level past which no level gains > %.0f %% "
                                             "IOPS, while the next level's p99 grows > %.0f %%",
                                             DS_SWEEP_KNEE_GAIN * 100, DS_SWEEP_KNEE_GROWTH * 100);

    ds_report_figure (out, "Knee Rule", rule);
  }
  if (data->steps->len == 0)
    return;
  g_string_append_c (out, '\n');

  ds_report_row (out, head, G_N_ELEMENTS (head), 4, 11);
  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsSweepStep *s = &g_array_index (data->steps, DsSweepStep, i);
      gboolean little_off = ds_sweep_little_off (s);
      g_autofree char *qd = g_strdup_printf ("%u", s->queue_depth);
      g_autofree char *threads = g_strdup_printf ("%u", s->threads);
      g_autofree char *outstanding = g_strdup_printf ("%u%s", s->outstanding,
                                                      data->knee.found && data->knee.index == i ? " <" : "");
      g_autofree char *iops = g_strdup_printf ("%.0f", s->iops);
      g_autofree char *rate = ds_format_rate (s->bytes_per_s, units);
      g_autofree char *mean = ds_format_ms (s->lat_mean_s);
      g_autofree char *p50 = ds_format_ms (s->lat_p50_s);
      g_autofree char *p99 = ds_format_ms (s->lat_p99_s);
      g_autofree char *p999 = ds_format_ms (s->lat_p99_9_s);
      g_autofree char *little = g_strdup_printf ("%.2f%s", s->little_outstanding,
                                                 little_off ? " !" : "");
      g_autofree char *time = g_strdup_printf ("%.1f s%s%s", s->runtime_s,
                                               s->steady_at_s >= 0 ? " st" : "",
                                               s->complete ? "" : " cut");
      const char *cells[] = { qd, threads, outstanding, iops, rate, mean, p50, p99, p999,
                              little, time };

      ds_report_row (out, cells, G_N_ELEMENTS (cells), 4, 11);
      if (little_off)
        g_string_append_printf (off, "%s%u", off->len > 0 ? ", " : "", s->outstanding);
    }

  g_string_append (out, "\n< the knee.  Little: IOPS × mean latency, the I/Os the device "
                        "really had in flight");
  if (data->steady)
    g_string_append (out, "; st: ended early, steady");
  for (guint i = 0; i < data->steps->len; i++)
    if (!g_array_index (data->steps, DsSweepStep, i).complete)
      {
        g_string_append (out, "; cut: the level was stopped");
        break;
      }
  g_string_append (out, ".\n");
  if (off->len > 0)
    g_string_append_printf (out, "! Little's law is off by more than %.0f %% at %s in flight: "
                            "the device did not see the load asked for (time lost between "
                            "a completion and the next submission, a capped depth, or a "
                            "level too short to settle).\n",
                            DS_SWEEP_LITTLE_TOLERANCE * 100, off->str);
}
