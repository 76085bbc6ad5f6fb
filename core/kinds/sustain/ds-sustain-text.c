/* ds-sustain-text.c: a sustained write's report section
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-sustain.h"
#include "ds-report.h"
#include "ds-result.h"

static void
figure_printf (GString    *out,
               const char *label,
               const char *format,
               ...) G_GNUC_PRINTF (3, 4);

static void
figure_printf (GString    *out,
               const char *label,
               const char *format,
               ...)
{
  g_autofree char *value = NULL;
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  ds_report_figure (out, label, value);
}

/* Decimal, three significant digits at least ("1.02 GB", "75.0 MB"):
 * ds_format_size() rounds "1.02 GB" to "1.0 GB", too coarse for a cache
 * size estimate. */
static char *
format_bytes (double bytes)
{
  if (bytes >= 1e12)
    return g_strdup_printf ("%.2f TB", bytes / 1e12);
  if (bytes >= 1e9)
    return g_strdup_printf ("%.2f GB", bytes / 1e9);
  if (bytes >= 1e6)
    return g_strdup_printf ("%.1f MB", bytes / 1e6);
  return g_strdup_printf ("%.1f kB", bytes / 1e3);
}

char *
ds_sustain_cliff_words (const DsSustainData *data)
{
  const DsSustainAnalysis *a = &data->analysis;
  g_autofree char *bytes = NULL;

  if (!a->cliff_found)
    {
      g_autofree char *written = format_bytes ((double) data->run->write.io_bytes);

      return g_strdup_printf ("none: the rate never stayed below %.0f %% of the start rate "
                              "over the %s written (a cache larger than that would not show)",
                              DS_SUSTAIN_CLIFF_FRACTION * 100, written);
    }

  bytes = format_bytes (a->cliff_bytes);
  return g_strdup_printf ("after %s (%.1f s): the rate fell below %.0f %% of the start "
                          "rate and stayed there: a write cache (or SLC cache) of about %s",
                          bytes, a->cliff_t_s, DS_SUSTAIN_CLIFF_FRACTION * 100, bytes);
}

/* The series, at most 40 rows (every k-th interval of a long run; the
 * JSON has them all), the cliff's interval marked. */
static void
series_table (const DsSustainData *data,
              DsUnits              units,
              GString             *out)
{
  const GArray *series = data->run->series;
  const char *head[] = { "Time", "Rate", "p99", "Written" };
  double written = 0;
  guint step;

  if (series == NULL || series->len == 0)
    return;
  step = (series->len + 39) / 40;
  g_string_append_printf (out, "\nPer %g s%s:\n", data->run->interval_s,
                          step > 1 ? " (every few intervals; the JSON has each)" : "");
  ds_report_row (out, head, G_N_ELEMENTS (head), 10, 14);
  for (guint i = 0; i < series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (series, DsIntervalPoint, i);
      double length = p->t_s - (i > 0 ? g_array_index (series, DsIntervalPoint, i - 1).t_s : 0);
      gboolean cliff = data->analysis.cliff_found && data->analysis.cliff_t_s > p->t_s - length &&
                       data->analysis.cliff_t_s <= p->t_s;

      written += p->write.bytes_per_s * length;
      if (i % step != 0 && i + 1 != series->len && !cliff)
        continue;
      {
        g_autofree char *t = g_strdup_printf ("%.1f s", p->t_s);
        g_autofree char *rate = ds_format_rate (p->write.bytes_per_s, units);
        g_autofree char *p99 = ds_format_ms (p->write.p99_s);
        g_autofree char *size = format_bytes (written);
        g_autofree char *total = g_strdup_printf ("%s%s", cliff ? "cliff " : "", size);
        const char *cells[] = { t, rate, p99, total };

        ds_report_row (out, cells, G_N_ELEMENTS (cells), 10, 14);
      }
    }
}

void
ds_sustain_report (const DsResult *result,
                   DsUnits         units,
                   GString        *out)
{
  const DsSustainData *data = result->data;
  const DsSustainAnalysis *a = &data->analysis;
  const DsWorkloadDir *w = &data->run->write;
  g_autofree char *block = ds_format_block (result->spec.block_size_bytes);
  g_autofree char *region = format_bytes ((double) data->region_bytes);
  g_autofree char *written = format_bytes ((double) w->io_bytes);
  g_autofree char *average = ds_format_rate (w->bytes_per_s, units);
  g_autofree char *start = ds_format_rate (a->start_bytes_per_s, units);
  g_autofree char *floor_rate = ds_format_rate (a->floor_bytes_per_s, units);
  g_autofree char *cliff = ds_sustain_cliff_words (data);

  figure_printf (out, "Workload", "%s write, %s blocks, queue depth %u, %s region",
                 data->random ? "random" : "sequential", block, result->spec.queue_depth, region);
  if (w->ios == 0)
    {
      ds_report_figure (out, "Written", "nothing");
      return;
    }
  figure_printf (out, "Written", "%s in %.1f s: %s (total bytes / total time)",
                 written, data->run->runtime_s, average);
  figure_printf (out, "Start Rate", "%s (the first %.0f %% of the bytes)", start,
                 DS_SUSTAIN_START_FRACTION * 100);
  ds_report_figure (out, "Cliff", cliff);
  figure_printf (out, "Floor", "%s (%s)", floor_rate,
                 a->cliff_found ? "after the cliff" : "the whole run: no cliff");
  if (a->dips != NULL && a->dips->len > 0)
    {
      double depth = 0;

      for (guint i = 0; i < a->dips->len; i++)
        depth += g_array_index (a->dips, DsSustainDip, i).depth_ratio / a->dips->len;
      if (a->dip_period_s > 0)
        figure_printf (out, "Dips", "%u below %.0f %% of the median rate, every %.1f s, "
                       "down to %.2f of it on average", a->dips->len,
                       DS_SUSTAIN_DIP_FRACTION * 100, a->dip_period_s, depth);
      else
        figure_printf (out, "Dips", "1 below %.0f %% of the median rate, at %.1f s, down to %.2f of it",
                       DS_SUSTAIN_DIP_FRACTION * 100,
                       g_array_index (a->dips, DsSustainDip, 0).t_s, depth);
    }
  else
    {
      figure_printf (out, "Dips", "none below %.0f %% of the median rate",
                     DS_SUSTAIN_DIP_FRACTION * 100);
    }
  if (data->has_recovery)
    {
      g_autofree char *rate = ds_format_rate (data->recovery.bytes_per_s, units);
      g_autofree char *bytes = format_bytes ((double) data->recovery.bytes);

      figure_printf (out, "Recovery", "after %.0f s idle: %s over %s (%.0f %% of the start rate)",
                     data->recovery.pause_s, rate, bytes,
                     a->start_bytes_per_s > 0 ? 100 * data->recovery.bytes_per_s / a->start_bytes_per_s : 0);
    }
  {
    /* ds_workload_percentiles: [6] is p50, [12] p99. */
    g_autofree char *mean = ds_format_ms (w->lat_mean_s);
    g_autofree char *p50 = ds_format_ms (w->lat_percentile_s[6]);
    g_autofree char *p99v = ds_format_ms (w->lat_percentile_s[12]);

    figure_printf (out, "Latency", "mean %s, p50 %s, p99 %s", mean, p50, p99v);
  }
  series_table (data, units, out);
}
