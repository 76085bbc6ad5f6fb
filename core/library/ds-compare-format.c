/* ds-compare-format.c: a comparison as text, CSV, Markdown or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-annotation.h"
#include "ds-compare-format.h"
#include "ds-json.h"

#define DS_COMPARE_SCHEMA "diskscope-compare/1"

static const char *
kind_title (const DsComparison *cmp)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);

  return ops != NULL ? ops->title : "?";
}

static const char *
kind_name (const DsComparison *cmp)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);

  return ops != NULL ? ops->name : "?";
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

/* ---- JSON --------------------------------------------------------------- */

static const char *
unit_key (DsCompareUnit unit)
{
  switch (unit)
    {
    case DS_COMPARE_RATE: return "bytes_per_s";
    case DS_COMPARE_TIME: return "s";
    case DS_COMPARE_IOPS: return "iops";
    case DS_COMPARE_COUNT: return "count";
    case DS_COMPARE_BYTES: return "bytes";
    case DS_COMPARE_RATIO: return "ratio";
    case DS_COMPARE_PERCENT:
    default: return "percent";
    }
}

static void
add_number_or_null (JsonArray *array,
                    double     value)
{
  if (isnan (value) || !isfinite (value))
    json_array_add_null_element (array);
  else
    json_array_add_double_element (array, value);
}

static JsonArray *
strings_array (GPtrArray *strings)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strings != NULL && i < strings->len; i++)
    json_array_add_string_element (array, strings->pdata[i]);
  return array;
}

/* The curves, per curve its axes and each column's points and mark; not
 * the dots (access times: thousands, and in the result files). */
static JsonArray *
curves_json (const DsComparison *cmp)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; cmp->curves != NULL && i < cmp->curves->len; i++)
    {
      const DsCompareCurve *curve = cmp->curves->pdata[i];
      JsonObject *o = json_object_new ();
      JsonArray *series = json_array_new ();

      if (curve->dots)
        {
          json_object_unref (o);
          json_array_unref (series);
          continue;
        }
      json_object_set_string_member (o, "key", curve->key);
      json_object_set_string_member (o, "title", curve->title);
      json_object_set_string_member (o, "x", curve->x_name);
      json_object_set_string_member (o, "x_unit", unit_key (curve->x_unit));
      json_object_set_string_member (o, "y", curve->y_name);
      json_object_set_string_member (o, "y_unit", unit_key (curve->y_unit));
      for (guint c = 0; c < cmp->columns->len; c++)
        {
          GArray *points = curve->points[c];
          JsonObject *s = json_object_new ();
          JsonArray *xy = json_array_new ();

          for (guint k = 0; points != NULL && k < points->len; k++)
            {
              const DsCurveXY *p = &g_array_index (points, DsCurveXY, k);
              JsonArray *pair = json_array_new ();

              add_number_or_null (pair, p->x);
              add_number_or_null (pair, p->y);
              json_array_add_array_element (xy, pair);
            }
          json_object_set_array_member (s, "points", xy);
          if (!isnan (curve->mark_x[c]))
            json_object_set_double_member (s, "mark_x", curve->mark_x[c]);
          else
            json_object_set_null_member (s, "mark_x");
          if (curve->mark_label[c] != NULL)
            json_object_set_string_member (s, "mark", curve->mark_label[c]);
          else
            json_object_set_null_member (s, "mark");
          json_array_add_object_element (series, s);
        }
      json_object_set_array_member (o, "columns", series);
      json_array_add_object_element (array, o);
    }

  return array;
}

JsonNode *
ds_comparison_to_json (const DsComparison *cmp)
{
  JsonObject *root = json_object_new ();
  JsonArray *columns = json_array_new ();
  JsonArray *rows = json_array_new ();
  JsonArray *notes = json_array_new ();
  guint n = cmp->columns->len;

  json_object_set_string_member (root, "schema", DS_COMPARE_SCHEMA);
  json_object_set_string_member (root, "test", kind_name (cmp));
  json_object_set_string_member (root, "x_axis", cmp->x_percent ? "percent" : "bytes");

  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      const DsResult *r = col->result;
      JsonObject *o = json_object_new ();
      char letter[2] = { col->letter, '\0' };

      json_object_set_string_member (o, "letter", letter);
      json_object_set_string_member (o, "label", col->label);
      if (col->source != NULL)
        json_object_set_string_member (o, "source", col->source);
      else
        json_object_set_null_member (o, "source");
      json_object_set_string_member (o, "description", col->description);
      if (r->target.path != NULL)
        json_object_set_string_member (o, "target", r->target.path);
      else
        json_object_set_null_member (o, "target");
      if (r->target.model != NULL)
        json_object_set_string_member (o, "model", r->target.model);
      else
        json_object_set_null_member (o, "model");
      json_object_set_int_member (o, "size_bytes", (gint64) r->target.size_bytes);
      if (r->started_at != NULL)
        json_object_set_string_member (o, "started_at", r->started_at);
      else
        json_object_set_null_member (o, "started_at");
      json_object_set_boolean_member (o, "complete", r->complete);
      json_array_add_object_element (columns, o);
    }
  json_object_set_array_member (root, "columns", columns);

  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const DsCompareRow *row = cmp->rows->pdata[i];
      JsonObject *o = json_object_new ();
      JsonArray *values = json_array_new ();
      JsonArray *ratios = json_array_new ();

      json_object_set_string_member (o, "key", row->key);
      json_object_set_string_member (o, "section", row->section);
      json_object_set_string_member (o, "name", row->name);
      json_object_set_string_member (o, "measure", row->measure);
      json_object_set_string_member (o, "unit", unit_key (row->unit));
      json_object_set_boolean_member (o, "higher_is_better", row->higher_is_better);
      for (guint c = 0; c < n; c++)
        add_number_or_null (values, row->values[c]);
      for (guint c = 1; c < n; c++)
        add_number_or_null (ratios, ds_compare_row_ratio (row, c));
      json_object_set_array_member (o, "values", values);
      json_object_set_array_member (o, "ratios", ratios);
      if (row->best >= 0)
        json_object_set_int_member (o, "best", row->best);
      else
        json_object_set_null_member (o, "best");
      json_array_add_object_element (rows, o);
    }
  json_object_set_array_member (root, "rows", rows);

  for (guint i = 0; i < cmp->notes->len; i++)
    json_array_add_string_element (notes, cmp->notes->pdata[i]);
  json_object_set_array_member (root, "notes", notes);
  json_object_set_array_member (root, "warnings", strings_array (cmp->warnings));
  json_object_set_array_member (root, "curves", curves_json (cmp));

  return ds_json_node_take_object (root);
}

char *
ds_comparison_to_json_data (const DsComparison *cmp)
{
  g_autoptr (JsonNode) root = ds_comparison_to_json (cmp);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);

  return g_strconcat (text, "\n", NULL);
}
