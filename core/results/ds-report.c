/* ds-report.c: the plain-text report in HD Tune's layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-environment.h"
#include "ds-params.h"
#include "ds-report.h"
#include "ds-text.h"
#include "ds-warnings.h"

static void
pad_to (GString *out,
        gsize    line_start,
        guint    width)
{
  glong len = g_utf8_strlen (out->str + line_start, -1);

  for (; len < (glong) width; len++)
    g_string_append_c (out, ' ');
}

void
ds_report_header (GString        *out,
                  const DsResult *result,
                  DsUnits         units)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  /* The model and the path come from a device or a file: printed safe. */
  g_autofree char *model = result->target.model ? ds_text_sanitize (result->target.model) : NULL;
  g_autofree char *path = result->target.path ? ds_text_sanitize (result->target.path) : NULL;
  g_autofree char *version = ds_text_sanitize (result->tool_version ? result->tool_version : PACKAGE_VERSION);
  const char *name = model != NULL ? model : path;
  gsize start = out->len;

  g_string_append_printf (out, "Diskscope %s: %s", version, name ? name : "?");
  pad_to (out, start, 46);
  g_string_append_printf (out, "  %s\n\n", ops ? ops->title : "?");

  if (path != NULL)
    {
      /* 0: not recorded (fio's JSON gives no size), not an empty device. */
      g_autofree char *size = result->target.size_bytes > 0 ?
                              ds_format_size (result->target.size_bytes) : g_strdup ("size not known");
      g_string_append_printf (out, "Device: %s (%s)\n", path, size);
    }

  if (ops != NULL && ops->takes_capacity)
    {
      if (result->spec.capacity_bytes == 0 ||
          result->spec.capacity_bytes >= result->target.size_bytes)
        {
          g_string_append (out, "Test capacity: full\n");
        }
      else
        {
          /* Typed in powers of 1024: echoed so, with the decimal the
           * device's size is given in. */
          g_autofree char *cap = ds_format_size_both (result->spec.capacity_bytes);
          g_string_append_printf (out, "Test capacity: %s\n", cap);
        }
    }

  if (ds_params_random_offsets (&result->spec))
    {
      g_autofree char *align = ds_report_random_align (result);
      g_string_append_printf (out, "Alignment: random offsets are multiples of %s\n", align);
    }

  /* What "MB" means here, and how to match HD Tune (whose "MB" is 2^20
   * bytes: 1952 IOPS x 64 KiB is printed as 121.995 MB/s there).  Health
   * prints no rates. */
  if (ops == NULL || !(ops->spec_flags & DS_BENCH_SPEC_NO_RATES))
    g_string_append_printf (out, "%s\n", ds_units_description (units));
  g_string_append_c (out, '\n');
}

char *
ds_report_random_align (const DsResult *result)
{
  uint64_t align = MAX (result->spec.random_align_bytes,
                        (uint64_t) result->target.logical_block_size);

  if (result->spec.random_align_bytes == 0)
    return g_strdup ("the block size");
  if (align % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " KiB", align / 1024);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", align);
}

void
ds_report_figure (GString    *out,
                  const char *label,
                  const char *value)
{
  g_autofree char *safe = ds_text_sanitize (value);
  gsize start = out->len;

  g_string_append (out, label);
  pad_to (out, start, 22);
  g_string_append_printf (out, ": %s\n", safe);
}

void
ds_report_row (GString           *out,
               const char *const *cells,
               guint              n_cells,
               guint              first_width,
               guint              cell_width)
{
  gsize start = out->len;

  for (guint i = 0; i < n_cells; i++)
    {
      g_autofree char *cell = ds_text_sanitize (cells[i]);

      if (i == 0)
        {
          g_string_append (out, cell);
          pad_to (out, start, first_width);
        }
      else
        {
          glong len = g_utf8_strlen (cell, -1);

          for (glong k = len; k < (glong) cell_width; k++)
            g_string_append_c (out, ' ');
          if (len >= (glong) cell_width)
            g_string_append_c (out, ' ');
          g_string_append (out, cell);
        }
    }
  g_string_append_c (out, '\n');
}

/* Each line of what a kind wrote since @start, made safe to print (a kind
 * may print a string from the file: a folder, an engine name). */
static void
sanitize_lines (GString *out,
                gsize    start)
{
  g_auto (GStrv) lines = g_strsplit (out->str + start, "\n", -1);

  g_string_truncate (out, start);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *safe = ds_text_sanitize (lines[i]);

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, safe);
    }
}

static void
append_one (GString        *out,
            const DsResult *result,
            DsUnits         units)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  ds_report_header (out, result, units);
  ds_warnings_report (result->warnings, out);

  if (ops != NULL && ops->report != NULL && result->data != NULL)
    {
      gsize start = out->len;

      ops->report (result, units, out);
      sanitize_lines (out, start);
    }

  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    {
      g_autofree char *note = ds_text_sanitize (result->notes->pdata[i]);
      g_string_append_printf (out, "Note: %s\n", note);
    }

  if (result->cancelled)
    g_string_append (out, "\nStopped by the user: the figures above are partial\n");
  else if (result->error != NULL)
    {
      g_autofree char *message = ds_text_sanitize (result->error->message);
      g_string_append_printf (out, "\nError: %s\n", message);
    }
  else if (!result->complete)
    g_string_append (out, "\nIncomplete run\n");

  if (result->environment != NULL)
    {
      gsize start = out->len;

      g_string_append_c (out, '\n');
      ds_environment_report (result->environment, result->kernel, out);
      sanitize_lines (out, start);
    }
}

char *
ds_report_text (const DsResult *result,
                DsUnits         units)
{
  GString *out = g_string_new (NULL);

  append_one (out, result, units);

  return g_string_free (out, FALSE);
}

char *
ds_report_session_text (DsResult *const *results,
                        guint            n_results,
                        DsUnits          units)
{
  GString *out = g_string_new (NULL);

  /* In the order given: the user's (`report a.json b.json` prints a, then
   * b), not resorted into HD Tune's tab order. */
  for (guint i = 0; i < n_results; i++)
    {
      if (i > 0)
        g_string_append (out, ds_report_separator ());
      append_one (out, results[i], units);
    }

  return g_string_free (out, FALSE);
}

const char *
ds_report_separator (void)
{
  return "\n\n";
}
