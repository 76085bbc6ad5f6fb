/* ds-report.c: the plain-text report in HD Tune's layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-report.h"

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
                  const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  const char *name = result->target.model != NULL ? result->target.model : result->target.path;
  gsize start = out->len;

  g_string_append_printf (out, "Diskscope %s: %s",
                          result->tool_version ? result->tool_version : PACKAGE_VERSION,
                          name ? name : "?");
  pad_to (out, start, 46);
  g_string_append_printf (out, "  %s\n\n", ops ? ops->title : "?");

  if (result->target.path != NULL)
    {
      g_autofree char *size = ds_format_size (result->target.size_bytes);
      g_string_append_printf (out, "Device: %s (%s)\n", result->target.path, size);
    }

  if (result->kind != DS_BENCH_FILE && result->kind != DS_BENCH_WORKLOAD &&
      result->kind < DS_BENCH_HEALTH)  /* health, error-scan, erase: their own */
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
  g_string_append_c (out, '\n');
}

void
ds_report_figure (GString    *out,
                  const char *label,
                  const char *value)
{
  gsize start = out->len;

  g_string_append (out, label);
  pad_to (out, start, 22);
  g_string_append_printf (out, ": %s\n", value);
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
      const char *cell = cells[i] ? cells[i] : "";

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

static void
append_one (GString        *out,
            const DsResult *result,
            DsUnits         units)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  ds_report_header (out, result);

  if (ops != NULL && ops->report != NULL && result->data != NULL)
    ops->report (result, units, out);

  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    g_string_append_printf (out, "Note: %s\n", (const char *) result->notes->pdata[i]);

  if (result->cancelled)
    g_string_append (out, "\nStopped by the user: the figures above are partial\n");
  else if (result->error != NULL)
    g_string_append_printf (out, "\nError: %s\n", result->error->message);
  else if (!result->complete)
    g_string_append (out, "\nIncomplete run\n");
}

char *
ds_report_text (const DsResult *result,
                DsUnits         units)
{
  GString *out = g_string_new (NULL);

  append_one (out, result, units);

  return g_string_free (out, FALSE);
}

/* HD Tune's session order (shared/seeds/hdtune-*.txt): the read tests
 * (Benchmark, Extra, Random Access, Block Size), then the same as write
 * tests, then the File Benchmark; workloads last. */
static int
session_rank (const DsResult *r)
{
  int group;

  if (r->kind == DS_BENCH_FILE || r->kind == DS_BENCH_WORKLOAD)
    group = 2;
  else
    group = r->spec.write ? 1 : 0;

  return group * DS_BENCH_N_KINDS + (int) r->kind;
}

static int
compare_kind (gconstpointer a,
              gconstpointer b)
{
  return session_rank (*(DsResult *const *) a) - session_rank (*(DsResult *const *) b);
}

char *
ds_report_session_text (DsResult *const *results,
                        guint            n_results,
                        DsUnits          units)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GPtrArray) sorted = g_ptr_array_sized_new (n_results);

  for (guint i = 0; i < n_results; i++)
    g_ptr_array_add (sorted, results[i]);
  /* g_ptr_array_sort is a stable merge sort: runs of one kind keep their
   * order. */
  g_ptr_array_sort (sorted, compare_kind);

  for (guint i = 0; i < sorted->len; i++)
    {
      if (i > 0)
        g_string_append (out, "\n\n");
      append_one (out, sorted->pdata[i], units);
    }

  return g_string_free (out, FALSE);
}
