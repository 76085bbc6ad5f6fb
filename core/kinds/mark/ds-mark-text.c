/* ds-mark-text.c: a mark result as text: CrystalDiskMark's window grid, its
 * "Copy" text, and the report body (see ds-bench-mark.h)
 *
 * CrystalDiskMark's figures: MB/s = 10^6 bytes per second; IOPS = MB/s ×
 * 10^6 / the block size (so the best run's); the latency is the lowest mean
 * latency of the runs, in µs.  Its meters print MB/s and IOPS with two
 * decimals (whole numbers from 10^6 up), GB/s with three, µs with two.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-units.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-text.h"

#define MIB (UINT64_C (1) << 20)
#define GIB (UINT64_C (1) << 30)
#define RULE "------------------------------------------------------------------------------\n"

gboolean
ds_mark_units_from_string (const char   *text,
                           DsMarkUnits  *ret_units,
                           GError      **error)
{
  static const struct { const char *name; DsMarkUnits units; } names[] = {
    { "MB", DS_MARK_UNITS_MB_S }, { "MB/s", DS_MARK_UNITS_MB_S },
    { "GB", DS_MARK_UNITS_GB_S }, { "GB/s", DS_MARK_UNITS_GB_S },
    { "IOPS", DS_MARK_UNITS_IOPS },
    { "us", DS_MARK_UNITS_US }, { "µs", DS_MARK_UNITS_US },
  };

  if (text == NULL)
    {
      *ret_units = DS_MARK_UNITS_MB_S;
      return TRUE;
    }
  for (unsigned i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i].name) == 0 || strcmp (text, names[i].name) == 0)
      {
        *ret_units = names[i].units;
        return TRUE;
      }

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("--units is MB, GB, IOPS or us (µs), not “%s”"), text);
  return FALSE;
}

static const char *
units_name (DsMarkUnits units)
{
  switch (units)
    {
    case DS_MARK_UNITS_GB_S: return "GB/s";
    case DS_MARK_UNITS_IOPS: return "IOPS";
    case DS_MARK_UNITS_US: return "µs";
    case DS_MARK_UNITS_MB_S:
    default:
      return "MB/s";
    }
}

/* One meter as CrystalDiskMark prints it; a step cut short gets a "*". */
static char *
meter_figure (const DsMarkStep *step,
              DsMarkUnits       units);

char *
ds_mark_meter_text (const DsMarkStep *step,
                    DsMarkUnits       units)
{
  g_autofree char *figure = meter_figure (step, units);

  return g_strconcat (figure, step->complete ? "" : "*", NULL);
}

static char *
meter_figure (const DsMarkStep *step,
              DsMarkUnits       units)
{
  double mb_s = step->bytes_per_s / 1e6;
  double iops = step->block_size_bytes > 0 ? step->bytes_per_s / (double) step->block_size_bytes : 0;
  double us = step->lat_mean_s * 1e6;

  switch (units)
    {
    case DS_MARK_UNITS_GB_S:
      return g_strdup_printf ("%.3f", mb_s / 1000.0);
    case DS_MARK_UNITS_IOPS:
      return iops >= 1e6 ? g_strdup_printf ("%.0f", iops) : g_strdup_printf ("%.2f", iops);
    case DS_MARK_UNITS_US:
      if (mb_s <= 0)
        return g_strdup ("0.00");
      return us >= 1e6 ? g_strdup_printf ("%.0f", us) : g_strdup_printf ("%.2f", us);
    case DS_MARK_UNITS_MB_S:
    default:
      return mb_s >= 1e6 ? g_strdup_printf ("%.0f", mb_s) : g_strdup_printf ("%.2f", mb_s);
    }
}

/* The step of @row and @direction, or NULL. */
static const DsMarkStep *
find_step (const DsMarkData *data,
           unsigned          row,
           DsMarkDirection   direction)
{
  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];

      if (step->row == row && step->direction == direction)
        return step;
    }

  return NULL;
}

/* The rows that ran, in the preset's order: one step of each. */
static GPtrArray *
rows_in_order (const DsMarkData *data)
{
  GPtrArray *rows = g_ptr_array_new ();
  unsigned max_row = 0;

  for (guint i = 0; i < data->steps->len; i++)
    max_row = MAX (max_row, ((const DsMarkStep *) data->steps->pdata[i])->row);
  for (unsigned r = 0; data->steps->len > 0 && r <= max_row; r++)
    for (guint i = 0; i < data->steps->len; i++)
      if (((const DsMarkStep *) data->steps->pdata[i])->row == r)
        {
          g_ptr_array_add (rows, data->steps->pdata[i]);
          break;
        }

  return rows;
}

static unsigned
directions_present (const DsMarkData *data)
{
  unsigned columns = 0;

  for (guint i = 0; i < data->steps->len; i++)
    columns |= DS_MARK_COLUMN (((const DsMarkStep *) data->steps->pdata[i])->direction);

  return columns;
}

static const char *const column_titles[] = { "Read", "Write", "Mix" };

char *
ds_mark_grid_text (const DsResult *result,
                   DsMarkUnits     units)
{
  const DsMarkData *data = result->data;
  g_autoptr (GPtrArray) rows = rows_in_order (data);
  unsigned columns = directions_present (data);
  GString *out = g_string_new (NULL);
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (cells, g_strdup (""));
  for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    if (columns & DS_MARK_COLUMN (d))
      g_ptr_array_add (cells, g_strdup_printf ("%s (%s)", column_titles[d], units_name (units)));
  ds_report_row (out, (const char *const *) cells->pdata, cells->len, 16, 15);

  for (guint i = 0; i < rows->len; i++)
    {
      const DsMarkStep *row = rows->pdata[i];

      g_ptr_array_set_size (cells, 0);
      g_ptr_array_add (cells, g_strdup (row->label));
      for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
        if (columns & DS_MARK_COLUMN (d))
          {
            const DsMarkStep *step = find_step (data, row->row, (DsMarkDirection) d);

            g_ptr_array_add (cells, step == NULL ? g_strdup ("–") : ds_mark_meter_text (step, units));
          }
      ds_report_row (out, (const char *const *) cells->pdata, cells->len, 16, 15);
    }
  g_ptr_array_unref (cells);

  return g_string_free (out, FALSE);
}

/* ---- CrystalDiskMark's "Copy" text -------------------------------------- */

char *
ds_mark_size_text (uint64_t bytes)
{
  if (bytes >= GIB && bytes % GIB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " GiB", bytes / GIB);
  if (bytes >= GIB)
    return g_strdup_printf ("%.1f GiB", (double) bytes / GIB);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " MiB", bytes / MIB);
}

static void
cdm_row (GString          *out,
         const DsMarkStep *step)
{
  DsPresetRow row = {
    .random = step->pattern == DS_PATTERN_RANDREAD || step->pattern == DS_PATTERN_RANDWRITE ||
              step->pattern == DS_PATTERN_RANDRW,
    .block_size_bytes = (uint32_t) step->block_size_bytes,
    .queue_depth = step->queue_depth,
    .threads = step->threads,
  };
  g_autofree char *name = ds_preset_row_cdm_name (&row);
  double iops = step->block_size_bytes > 0 ? step->bytes_per_s / (double) step->block_size_bytes : 0;

  g_string_append_printf (out, "  %s: %9.3f MB/s [%9.1f IOPS] <%9.2f us>%s\n", name,
                          step->bytes_per_s / 1e6, iops, step->lat_mean_s * 1e6,
                          step->complete ? "" : " (stopped)");
}

/* "2024/05/01 14:43:45" in local time, as CrystalDiskMark's Date line. */
static char *
cdm_date (const char *iso8601)
{
  g_autoptr (GDateTime) utc = iso8601 ? g_date_time_new_from_iso8601 (iso8601, NULL) : NULL;
  g_autoptr (GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;

  return local ? g_date_time_format (local, "%Y/%m/%d %-H:%M:%S") : g_strdup ("?");
}

/* "io_uring and sync": the engines the steps ran on. */
/* The time each test ran, in seconds: "5", or "1–5" when custom rows had
 * times of their own; the counted time of each complete step's best run
 * (to a tenth of a second), the preset's duration when none is complete. */
static char *
measure_seconds (const DsMarkData *data)
{
  double lo = 0, hi = 0;
  gboolean any = FALSE;

  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];
      double t;

      if (!step->complete || step->result == NULL || !(step->result->runtime_s > 0))
        continue;
      t = round (step->result->runtime_s * 10) / 10;
      lo = any ? MIN (lo, t) : t;
      hi = any ? MAX (hi, t) : t;
      any = TRUE;
    }
  if (!any)
    return g_strdup_printf ("%g", data->duration_s);
  if (hi - lo < 0.05)
    return g_strdup_printf ("%g", lo);
  return g_strdup_printf ("%g–%g", lo, hi);
}

static char *
engines_used (const DsMarkData *data)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];
      const char *engine = step->result ? step->result->engine : NULL;

      if (engine != NULL && !g_ptr_array_find_with_equal_func (names, engine, g_str_equal, NULL))
        g_ptr_array_add (names, (gpointer) engine);
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *name = ds_text_sanitize_short (names->pdata[i], 40);

      g_string_append_printf (text, "%s%s", i == 0 ? "" : i + 1 == names->len ? " and " : ", ", name);
    }

  return g_string_free (text, FALSE);
}

static void
cdm_test_line (GString          *out,
               const DsResult   *result,
               const DsMarkData *data)
{
  g_autofree char *size = ds_mark_size_text (data->test_size_bytes);
  /* From the result file: anyone's text, escaped where written. */
  g_autofree char *directory = ds_text_sanitize (data->directory);
  g_autofree char *path = ds_text_sanitize (result->target.path);
  g_autofree char *model = ds_text_sanitize (result->target.model);

  g_string_append_printf (out, "   Test: %s (x%u)", size, data->count);
  if (data->directory != NULL && data->fs_size_bytes > 0)
    {
      uint64_t used = data->fs_size_bytes - MIN (data->fs_free_bytes, data->fs_size_bytes);

      g_string_append_printf (out, " [%s: %.0f%% (%.0f/%.0fGiB)]", directory,
                              100.0 * (double) used / (double) data->fs_size_bytes,
                              (double) used / GIB, (double) data->fs_size_bytes / GIB);
    }
  else if (result->target.path != NULL)
    {
      g_autofree char *device = ds_format_size (result->target.size_bytes);

      g_string_append_printf (out, " [%s: %s%s%s]", path, model,
                              result->target.model ? ", " : "", device);
    }
  g_string_append_c (out, '\n');
}

char *
ds_mark_cdm_text (const DsResult *result)
{
  const DsMarkData *data = result->data;
  const DsPreset *preset = ds_preset_lookup (data->preset);
  g_autoptr (GPtrArray) rows = rows_in_order (data);
  unsigned columns = directions_present (data);
  g_autofree char *engines = engines_used (data);
  g_autofree char *date = cdm_date (result->started_at);
  GString *out = g_string_new (NULL);
  /* Every string of the file that goes into the text, escaped (a result
   * file is anyone's: none may start a line of its own). */
  g_autofree char *version = ds_text_sanitize (result->tool_version ? result->tool_version
                                                                    : PACKAGE_VERSION);
  g_autofree char *preset_name = ds_text_sanitize (data->preset);
  g_autofree char *os = ds_text_sanitize (data->os ? data->os : "?");
  g_autofree char *comment = ds_text_sanitize (data->comment);
  g_autofree char *why = ds_text_sanitize (result->error ? result->error->message : "");

  g_string_append (out, RULE);
  g_string_append_printf (out, "Diskscope %s: CrystalDiskMark 8's text layout\n", version);
  g_string_append (out, "                         (measured by Diskscope, not by CrystalDiskMark)\n");
  g_string_append (out, RULE);
  g_string_append (out, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
                        "* KB = 1000 bytes, KiB = 1024 bytes\n");

  for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
    {
      if (!(columns & DS_MARK_COLUMN (d)))
        continue;
      g_string_append_printf (out, "\n[%s]", column_titles[d]);
      if (d == DS_MARK_MIX)
        for (guint i = 0; i < data->steps->len; i++)
          {
            const DsMarkStep *step = data->steps->pdata[i];

            if (step->direction == DS_MARK_MIX)
              {
                g_string_append_printf (out, " Read %u%%/Write %u%%", step->read_percent,
                                        100 - step->read_percent);
                break;
              }
          }
      g_string_append_c (out, '\n');
      for (guint i = 0; i < rows->len; i++)
        {
          const DsMarkStep *step = find_step (data, ((const DsMarkStep *) rows->pdata[i])->row,
                                              (DsMarkDirection) d);
          if (step != NULL)
            cdm_row (out, step);
        }
    }

  g_string_append_c (out, '\n');
  if (preset != NULL && preset->profile != NULL)
    g_string_append_printf (out, "Profile: %s\n", preset->profile);
  else if (data->preset != NULL)
    g_string_append_printf (out, "Profile: %s%s%s%s\n", preset_name, preset ? " (" : "",
                            preset ? preset->title : "", preset ? ")" : "");
  cdm_test_line (out, result, data);
  g_string_append_printf (out, "   Mode: %s%s%s\n", data->buffered ? "buffered (page cache)" : "O_DIRECT",
                          engines[0] ? ", " : "", engines);
  {
    g_autofree char *measure = measure_seconds (data);

    g_string_append_printf (out, "   Time: Measure %s sec / Interval %g sec \n", measure,
                            data->pause_s);
  }
  g_string_append_printf (out, "  Count: best of %u run%s per test (highest MB/s; lowest mean "
                          "latency)", data->count, data->count == 1 ? "" : "s");
  if (data->warmup_s > 0)
    g_string_append_printf (out, ", each test after an unmeasured %g sec run", data->warmup_s);
  g_string_append_c (out, '\n');
  g_string_append_printf (out, "   Date: %s\n", date);
  g_string_append_printf (out, "     OS: %s\n", os);
  if (data->comment != NULL && data->comment[0] != '\0')
    g_string_append_printf (out, "Comment: %s\n", comment);
  if (!result->complete)
    g_string_append_printf (out, "Stopped: %u of %u tests ran%s%s\n", data->steps->len,
                            data->steps_planned, result->error ? ": " : "", why);

  return g_string_free (out, FALSE);
}

/* ---- the report body (HD Tune's layout) ---------------------------------- */

static char *
p99_text (const DsMarkStep *step)
{
  const DsWorkloadData *r = step->result;
  g_autofree char *read = NULL;
  g_autofree char *write = NULL;
  const unsigned p99 = 12;   /* ds_workload_percentiles[12] == 99 */

  if (r == NULL)
    return g_strdup ("–");
  if (r->read.present)
    read = ds_format_ms (r->read.lat_percentile_s[p99]);
  if (r->write.present)
    write = ds_format_ms (r->write.lat_percentile_s[p99]);
  if (read != NULL && write != NULL)
    return g_strdup_printf ("%s / %s", read, write);

  return g_strdup (read ? read : write ? write : "–");
}

/* A row of the report's table: four cells as every table has them, then
 * the p99 cell ("12.34 ms / 56.78 ms") right-aligned in a wider column. */
static void
mark_row (GString           *out,
          const char *const *cells)
{
  glong len = g_utf8_strlen (cells[4], -1);

  ds_report_row (out, cells, 4, 24, 14);
  g_string_truncate (out, out->len - 1);
  for (glong k = len; k < 22; k++)
    g_string_append_c (out, ' ');
  if (len >= 22)
    g_string_append_c (out, ' ');
  g_string_append_printf (out, "%s\n", cells[4]);
}

void
ds_mark_report (const DsResult *result,
                DsUnits         units,
                GString        *out)
{
  const DsMarkData *data = result->data;
  const DsPreset *preset = ds_preset_lookup (data->preset);
  g_autofree char *size = ds_mark_size_text (data->test_size_bytes);
  g_autofree char *where = NULL;
  g_autofree char *runs = NULL;
  g_autofree char *title = g_strdup_printf ("%s%s%s%s", data->preset != NULL ? data->preset : "–",
                                            preset ? " (" : "",
                                            preset ? preset->title : "", preset ? ")" : "");
  /* The mean's and the p99's columns apart: the p99 cell holds two times. */
  const char *head[] = { "Test", "Rate", "IOPS", "Mean latency", "p99 read / write" };
  g_autofree char *measure = measure_seconds (data);

  if (data->directory != NULL)
    where = g_strdup_printf ("a %s test file in %s%s", size, data->directory,
                             data->buffered ? " (buffered: the page cache's figures)" : "");
  else
    where = g_strdup_printf ("the first %s of %s", size,
                             result->target.path ? result->target.path : "?");
  runs = g_strdup_printf ("best of %u × %s s per test (highest rate, lowest mean "
                          "latency); %g s warm-up, %g s between tests; series per %g s",
                          data->count, measure, data->warmup_s, data->pause_s,
                          data->interval_s);

  ds_report_figure (out, "Preset", title);
  ds_report_figure (out, "Test Region", where);
  ds_report_figure (out, "Runs", runs);
  if (data->mix_percent >= 0)
    {
      g_autofree char *mix = g_strdup_printf ("%d %% reads", data->mix_percent);
      ds_report_figure (out, "Mix", mix);
    }
  if (data->comment != NULL && data->comment[0] != '\0')
    ds_report_figure (out, "Comment", data->comment);
  g_string_append_c (out, '\n');

  mark_row (out, head);
  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];
      g_autofree char *name = g_strdup_printf ("%s %s%s", step->label,
                                               ds_mark_direction_to_string (step->direction),
                                               step->complete ? "" : " *");
      g_autofree char *rate = ds_format_rate (step->bytes_per_s, units);
      g_autofree char *iops = g_strdup_printf ("%.0f", step->iops);
      g_autofree char *lat = ds_format_ms (step->lat_mean_s);
      g_autofree char *p99 = p99_text (step);
      const char *cells[] = { name, rate, iops, lat, p99 };

      mark_row (out, cells);
    }
  if (data->steps->len < data->steps_planned || data->steps->len == 0)
    g_string_append_printf (out, "\n%u of %u tests ran\n", data->steps->len, data->steps_planned);
  for (guint i = 0; i < data->steps->len; i++)
    if (!((const DsMarkStep *) data->steps->pdata[i])->complete)
      {
        g_string_append (out, "* cut short: the figures are of the part that ran\n");
        break;
      }
}

/* The Workloads page's (a mark): the preset or the custom rows, the test
 * size and the runs per step; each row has its own block size. */
void
ds_mark_settings (const DsBenchSpec *spec,
                  const DsResult    *result,
                  GPtrArray         *parts)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);

  /* A result keeps its own (a file's params do not: results.count …). */
  const DsMarkData *data = result != NULL ? result->data : NULL;
  uint64_t size_bytes = data != NULL ? data->test_size_bytes : o->test_size_bytes;
  unsigned count = data != NULL ? data->count : o->count;
  double seconds = data != NULL ? data->duration_s : spec->duration_ns / 1e9;

  if (o->rows != NULL)
    g_ptr_array_add (parts, g_strdup (_("custom rows")));
  else if (data != NULL && data->preset != NULL)
    g_ptr_array_add (parts, g_strdup (data->preset));
  else if (o->preset != NULL)
    g_ptr_array_add (parts, g_strdup (o->preset));
  if (o->reads_only || (result != NULL && !spec->write))
    g_ptr_array_add (parts, g_strdup (_("reads only")));
  if (size_bytes > 0)
    {
      g_autofree char *size = ds_format_size_iec (size_bytes);

      /* Translators: the region or the test file a preset runs over */
      g_ptr_array_add (parts, g_strdup_printf (_("test size %s"), size));
    }
  /* Custom rows may each have a time of their own. */
  if (o->rows != NULL)
    g_ptr_array_add (parts, g_strdup_printf (_("best of %u"), count));
  else
    /* Translators: CrystalDiskMark's count and time: "best of 5 × 5 s" */
    g_ptr_array_add (parts, g_strdup_printf (_("best of %u × %g s"), count, seconds));
}
