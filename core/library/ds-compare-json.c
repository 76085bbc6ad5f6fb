/* ds-compare-json.c: a comparison as JSON (`compare --json`,
 * docs/result-json.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-compare-format.h"
#include "ds-json.h"

#define DS_COMPARE_SCHEMA "diskscope-compare/1"

static const char *
kind_name (const DsComparison *cmp)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);

  return ops != NULL ? ops->name : "?";
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

  return ds_json_to_generator_text (root);
}
