/* ds-compare-format.c: a comparison as text, CSV or Markdown (JSON:
 * ds-compare-json.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-annotation.h"
#include "ds-compare-format.h"
#include "ds-json.h"

static const char *
kind_title (const DsComparison *cmp)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);

  return ops != NULL ? ops->title : "?";
}

#define printable ds_printable_text

static glong
width (const char *s)
{
  return g_utf8_strlen (s, -1);
}

static void
pad (GString *out,
     glong    n)
{
  for (; n > 0; n--)
    g_string_append_c (out, ' ');
}

static gboolean
any_measure (const DsComparison *cmp)
{
  for (guint r = 0; r < cmp->rows->len; r++)
    if (((DsCompareRow *) cmp->rows->pdata[r])->measure[0] != '\0')
      return TRUE;

  return FALSE;
}

/* ---- text --------------------------------------------------------------- */

typedef struct {
  glong name;
  glong measure;
  glong value;
  glong ratio;
} Widths;

static char *
value_cell (const DsCompareRow *row,
            guint               c,
            DsUnits             units)
{
  g_autofree char *v = ds_compare_format_value (row->unit, row->values[c], units);

  return g_strdup_printf ("%s%s", v, row->best == (int) c ? " *" : "  ");
}

static Widths
measure_widths (const DsComparison *cmp,
                DsUnits             units)
{
  Widths w = { .name = 4, .measure = 0, .value = 3, .ratio = 3 };
  guint n = cmp->columns->len;

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];

      w.name = MAX (w.name, MAX (width (row->name), width (row->section)));
      w.measure = MAX (w.measure, width (row->measure));
      for (guint c = 0; c < n; c++)
        {
          g_autofree char *cell = value_cell (row, c, units);
          w.value = MAX (w.value, width (cell));
          if (c > 0)
            {
              g_autofree char *ratio = ds_compare_format_ratio (ds_compare_row_ratio (row, c));
              w.ratio = MAX (w.ratio, width (ratio));
            }
        }
    }

  return w;
}

static void
text_legend (GString            *out,
             const DsComparison *cmp)
{
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      g_autofree char *label = printable (col->label);
      g_autofree char *desc = printable (col->description);
      g_autofree char *source = printable (col->source);

      g_string_append_printf (out, "%c  %s\n   %s\n", col->letter, label, desc);
      if (col->source != NULL)
        g_string_append_printf (out, "   %s\n", source);
    }
}

char *
ds_comparison_to_text (const DsComparison *cmp,
                       DsUnits             units)
{
  GString *out = g_string_new (NULL);
  guint n = cmp->columns->len;
  Widths w = measure_widths (cmp, units);
  gboolean measures = any_measure (cmp);
  const char *section = NULL;

  g_string_append_printf (out, "Diskscope comparison: %s (%s; * marks the better value)\n\n",
                          kind_title (cmp),
                          units == DS_UNITS_MIB ? "MiB = 2^20 bytes" : "MB = 10^6 bytes");
  text_legend (out, cmp);

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];
      const DsCompareRow *prev = r > 0 ? cmp->rows->pdata[r - 1] : NULL;
      gboolean same_name;

      if (section == NULL || strcmp (section, row->section) != 0)
        {
          section = row->section;
          g_string_append_printf (out, "\n%s", section);
          pad (out, w.name - width (section) + (measures ? 2 + w.measure : 0));
          for (guint c = 0; c < n; c++)
            {
              pad (out, 2 + w.value - 3);
              g_string_append_printf (out, "%c  ", ((DsCompareColumn *) cmp->columns->pdata[c])->letter);
            }
          for (guint c = 1; c < n; c++)
            {
              pad (out, 2 + w.ratio - 3);
              g_string_append_printf (out, "%c/A", ((DsCompareColumn *) cmp->columns->pdata[c])->letter);
            }
          g_string_append_c (out, '\n');
          prev = NULL;
        }

      same_name = prev != NULL && strcmp (prev->name, row->name) == 0;
      g_string_append (out, same_name ? "" : row->name);
      pad (out, w.name - (same_name ? 0 : width (row->name)));
      if (measures)
        {
          g_string_append (out, "  ");
          g_string_append (out, row->measure);
          pad (out, w.measure - width (row->measure));
        }
      for (guint c = 0; c < n; c++)
        {
          g_autofree char *cell = value_cell (row, c, units);

          pad (out, 2 + w.value - width (cell));
          g_string_append (out, cell);
        }
      for (guint c = 1; c < n; c++)
        {
          g_autofree char *ratio = ds_compare_format_ratio (ds_compare_row_ratio (row, c));

          pad (out, 2 + w.ratio - width (ratio));
          g_string_append (out, ratio);
        }
      g_string_append_c (out, '\n');
    }

  if (cmp->rows->len == 0)
    g_string_append (out, "\nNo figures to compare (the results hold no measurements).\n");

  if (cmp->notes->len > 0)
    g_string_append_c (out, '\n');
  for (guint i = 0; i < cmp->notes->len; i++)
    {
      g_autofree char *note = printable (cmp->notes->pdata[i]);
      g_string_append_printf (out, "Note: %s\n", note);
    }
  for (guint i = 0; cmp->warnings != NULL && i < cmp->warnings->len; i++)
    {
      g_autofree char *warning = printable (cmp->warnings->pdata[i]);
      g_string_append_printf (out, "%sWarning: %s\n", i == 0 && cmp->notes->len == 0 ? "\n" : "", warning);
    }

  return g_string_free (out, FALSE);
}

/* ---- CSV ---------------------------------------------------------------- */

static const char *
unit_name (DsCompareUnit unit,
           DsUnits       units)
{
  switch (unit)
    {
    case DS_COMPARE_RATE: return units == DS_UNITS_MIB ? "MiB/s" : "MB/s";
    case DS_COMPARE_TIME: return "ms";
    case DS_COMPARE_IOPS: return "IOPS";
    case DS_COMPARE_COUNT: return "count";
    case DS_COMPARE_BYTES: return "bytes";
    case DS_COMPARE_RATIO: return "ratio";
    case DS_COMPARE_PERCENT:
    default: return "%";
    }
}

static double
in_unit (DsCompareUnit unit,
         double        value,
         DsUnits       units)
{
  switch (unit)
    {
    case DS_COMPARE_RATE: return value / (units == DS_UNITS_MIB ? 1048576.0 : 1e6);
    case DS_COMPARE_TIME: return value * 1e3;
    case DS_COMPARE_IOPS:
    case DS_COMPARE_PERCENT:
    default: return value;
    }
}

static void
csv_cell (GString    *out,
          const char *text,
          gboolean    last)
{
  g_autofree char *clean = printable (text);
  /* A spreadsheet runs a cell that starts with = + - @ (after blanks, in
   * some) as a formula: such a cell is quoted and starts with ' instead
   * (OWASP's CSV injection advice).  Controls, line breaks included, are
   * spaces already (a label or model from a result file is anyone's). */
  const char *first = clean + strspn (clean, " ");
  gboolean formula = *first == '=' || *first == '+' || *first == '-' || *first == '@';

  if (formula || strpbrk (clean, ",\"\n") != NULL)
    {
      g_string_append_c (out, '"');
      if (formula)
        g_string_append_c (out, '\'');
      for (const char *p = clean; *p != '\0'; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else
    {
      g_string_append (out, clean);
    }
  g_string_append (out, last ? "\r\n" : ",");
}

static void
csv_number (GString *out,
            double   value,
            gboolean last)
{
  if (!isnan (value) && isfinite (value))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (buf, sizeof buf, "%.6g", value);
      g_string_append (out, buf);
    }
  g_string_append (out, last ? "\r\n" : ",");
}

char *
ds_comparison_to_csv (const DsComparison *cmp,
                      DsUnits             units)
{
  GString *out = g_string_new (NULL);
  guint n = cmp->columns->len;

  csv_cell (out, "section", FALSE);
  csv_cell (out, "figure", FALSE);
  csv_cell (out, "measure", FALSE);
  csv_cell (out, "unit", FALSE);
  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      g_autofree char *head = g_strdup_printf ("%c: %s", col->letter, col->label);
      csv_cell (out, head, FALSE);
    }
  for (guint c = 1; c < n; c++)
    {
      g_autofree char *head = g_strdup_printf ("%c/A", 'A' + c);
      csv_cell (out, head, FALSE);
    }
  csv_cell (out, "better", TRUE);

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];
      char better[2] = { row->best >= 0 ? (char) ('A' + row->best) : '\0', '\0' };

      csv_cell (out, row->section, FALSE);
      csv_cell (out, row->name, FALSE);
      csv_cell (out, row->measure, FALSE);
      csv_cell (out, unit_name (row->unit, units), FALSE);
      for (guint c = 0; c < n; c++)
        csv_number (out, in_unit (row->unit, row->values[c], units), FALSE);
      for (guint c = 1; c < n; c++)
        csv_number (out, ds_compare_row_ratio (row, c), FALSE);
      csv_cell (out, better, TRUE);
    }

  return g_string_free (out, FALSE);
}

/* ---- Markdown ----------------------------------------------------------- */

static void
md_text (GString    *out,
         const char *text)
{
  g_autofree char *clean = printable (text);

  for (const char *p = clean; *p != '\0'; p++)
    {
      if (strchr ("|\\*_`<>[]", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

char *
ds_comparison_to_markdown (const DsComparison *cmp,
                           DsUnits             units)
{
  GString *out = g_string_new (NULL);
  guint n = cmp->columns->len;
  const char *section = NULL;

  g_string_append_printf (out, "## Comparison: %s\n\n", kind_title (cmp));
  g_string_append (out, "| | Result | Run | Source |\n|---|---|---|---|\n");
  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];

      g_string_append_printf (out, "| **%c** | ", col->letter);
      md_text (out, col->label);
      g_string_append (out, " | ");
      md_text (out, col->description);
      g_string_append (out, " | ");
      md_text (out, col->source);
      g_string_append (out, " |\n");
    }
  g_string_append_printf (out, "\nRates in %s; the better value in bold.\n",
                          units == DS_UNITS_MIB ? "MiB/s (2^20 bytes)" : "MB/s (10^6 bytes)");

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];

      if (section == NULL || strcmp (section, row->section) != 0)
        {
          section = row->section;
          g_string_append (out, "\n### ");
          md_text (out, section);
          g_string_append (out, "\n\n|");
          for (guint c = 0; c < n; c++)
            g_string_append_printf (out, " | %c", 'A' + c);
          for (guint c = 1; c < n; c++)
            g_string_append_printf (out, " | %c/A", 'A' + c);
          g_string_append (out, " |\n|---");
          for (guint c = 1; c < 2 * n; c++)
            g_string_append (out, "|---:");
          g_string_append (out, "|\n");
        }

      g_string_append (out, "| ");
      md_text (out, row->name);
      if (row->measure[0] != '\0')
        {
          g_string_append (out, ", ");
          md_text (out, row->measure);
        }
      for (guint c = 0; c < n; c++)
        {
          g_autofree char *v = ds_compare_format_value (row->unit, row->values[c], units);
          g_string_append_printf (out, row->best == (int) c ? " | **%s**" : " | %s", v);
        }
      for (guint c = 1; c < n; c++)
        {
          g_autofree char *ratio = ds_compare_format_ratio (ds_compare_row_ratio (row, c));
          g_string_append_printf (out, " | %s", ratio);
        }
      g_string_append (out, " |\n");
    }

  if (cmp->notes->len > 0)
    g_string_append (out, "\nNotes:\n\n");
  for (guint i = 0; i < cmp->notes->len; i++)
    {
      g_string_append (out, "- ");
      md_text (out, cmp->notes->pdata[i]);
      g_string_append_c (out, '\n');
    }
  if (cmp->warnings != NULL && cmp->warnings->len > 0)
    g_string_append (out, "\nWarnings (these figures are likely fooled):\n\n");
  for (guint i = 0; cmp->warnings != NULL && i < cmp->warnings->len; i++)
    {
      g_string_append (out, "- ⚠ ");
      md_text (out, cmp->warnings->pdata[i]);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}
