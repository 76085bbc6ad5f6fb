/* ds-compare.c: results of one kind side by side, with ratios
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-annotation.h"
#include "ds-compare-private.h"
#include "ds-error.h"
#include "ds-library-entry.h"
#include "ds-params.h"
#include "ds-report.h"
#include "ds-text.h"
#include "ds-warnings.h"

static void
row_free (DsCompareRow *row)
{
  g_free (row->key);
  g_free (row->section);
  g_free (row->name);
  g_free (row->measure);
  g_free (row->values);
  g_free (row);
}

static void
column_free (DsCompareColumn *column)
{
  g_free (column->label);
  g_free (column->source);
  g_free (column->description);
  g_free (column);
}

void
ds_comparison_free (DsComparison *comparison)
{
  if (comparison == NULL)
    return;

  ds_compare_curves_free (comparison);
  g_ptr_array_unref (comparison->columns);
  g_ptr_array_unref (comparison->rows);
  g_ptr_array_unref (comparison->notes);
  g_clear_pointer (&comparison->warnings, g_ptr_array_unref);
  g_free (comparison);
}

guint
ds_comparison_get_n_columns (const DsComparison *comparison)
{
  return comparison->columns->len;
}

const DsCompareColumn *
ds_comparison_get_column (const DsComparison *comparison,
                          guint               column)
{
  g_return_val_if_fail (column < comparison->columns->len, NULL);
  return comparison->columns->pdata[column];
}

double
ds_compare_row_ratio (const DsCompareRow *row,
                      guint               column)
{
  double a = row->values[0];
  double v = row->values[column];

  if (isnan (a) || isnan (v) || a == 0)
    return NAN;

  return v / a;
}

/* ---- columns and notes -------------------------------------------------- */

static char *
describe_column (const DsResult *result)
{
  g_autofree char *what = ds_result_describe (result);
  g_autofree char *size = ds_format_size (result->target.size_bytes);
  const char *device = result->target.model ? result->target.model :
                       result->target.path ? result->target.path : "?";
  GString *out = g_string_new (device);
  g_autoptr (GDateTime) utc = result->started_at ?
    g_date_time_new_from_iso8601 (result->started_at, NULL) : NULL;

  if (result->target.size_bytes > 0)
    g_string_append_printf (out, " (%s)", size);
  g_string_append_printf (out, ", %s", what);
  if (utc != NULL)
    {
      g_autoptr (GDateTime) local = g_date_time_to_local (utc);
      g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H:%M");
      g_string_append_printf (out, ", %s", when);
    }
  if (result->hostname != NULL)
    g_string_append_printf (out, " on %s", result->hostname);

  return g_string_free (out, FALSE);
}

/* The span the kind says its figures depend on (0: none). */
static uint64_t
place_span (const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  return ops != NULL && ops->compare_span != NULL ? ops->compare_span (result) : 0;
}

/* The span curves against the position are drawn on (% of it when the
 * columns' differ). */
static uint64_t
tested_span (const DsResult *result)
{
  uint64_t span = place_span (result);

  return span > 0 ? span : ds_figures_tested_span (result);
}

static gboolean
has_position_curves (const DsComparison *cmp)
{
  return ds_comparison_find_curve (cmp, "read") != NULL || ds_comparison_find_curve (cmp, "write") != NULL;
}

/* Random offsets on 512 bytes (HD Tune's rule, and every result saved
 * before issue 25) against offsets on the block size: a 512e drive is
 * slower at the first, so the columns differ by more than the disks. */
static void
add_align_note (DsComparison *cmp)
{
  const DsCompareColumn *a = cmp->columns->pdata[0];
  g_autofree char *first = ds_report_random_align (a->result);
  gboolean differ = FALSE;
  GString *s;

  if (!ds_params_random_offsets (&a->result->spec))
    return;
  for (guint c = 1; c < cmp->columns->len && !differ; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      g_autofree char *other = ds_report_random_align (col->result);

      differ = strcmp (first, other) != 0;
    }
  if (!differ)
    return;

  s = g_string_new ("the random offsets were aligned differently (");
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      g_autofree char *align = ds_report_random_align (col->result);

      g_string_append_printf (s, "%s%c: multiples of %s", c ? ", " : "", col->letter, align);
    }
  g_string_append (s, "): off the block size, a drive with 4 KiB physical sectors "
                   "splits and may read-modify-write an I/O");
  g_ptr_array_add (cmp->notes, g_string_free (s, FALSE));
}

/* Whether the columns measured one thing (the same drive read twice) or
 * several, where the kind can tell (DsBenchOps.compare_identity). */
static void
add_identity_note (DsComparison *cmp)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  gboolean same = TRUE;

  if (ops == NULL || ops->compare_identity == NULL)
    return;
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      char *id = col->result->data != NULL ? ops->compare_identity (col->result) : NULL;

      if (id == NULL)
        return;
      g_ptr_array_add (ids, id);
      if (c > 0 && strcmp (id, ids->pdata[0]) != 0)
        same = FALSE;
    }
  if (same)
    {
      g_autofree char *id = ds_text_sanitize (ids->pdata[0]);

      g_ptr_array_add (cmp->notes, g_strdup_printf ("the same drive (%s) in every column: the "
                                                    "ratios are how it changed", id));
    }
  else
    {
      g_ptr_array_add (cmp->notes, g_strdup ("different drives side by side (see each column's "
                                             "note): the ratios compare drives, not one over time"));
    }
}

static void
add_notes (DsComparison *cmp)
{
  guint n = cmp->columns->len;
  const DsCompareColumn *a = cmp->columns->pdata[0];
  gboolean spans_differ = FALSE;
  gboolean profiles_differ = FALSE;

  for (guint c = 1; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      g_autofree char *da = ds_result_describe (a->result);
      g_autofree char *dc = ds_result_describe (col->result);

      /* Where on the device matters for the HD Tune kinds only. */
      if (place_span (col->result) != place_span (a->result))
        spans_differ = TRUE;
      if (strcmp (da, dc) != 0)
        profiles_differ = TRUE;
    }

  if (spans_differ)
    {
      GString *s = g_string_new ("the tested capacities differ (");

      for (guint c = 0; c < n; c++)
        {
          const DsCompareColumn *col = cmp->columns->pdata[c];
          g_autofree char *size = ds_format_size (tested_span (col->result));
          g_string_append_printf (s, "%s%c %s", c ? ", " : "", col->letter, size);
        }
      g_string_append (s, has_position_curves (cmp) ?
                       "): positions are compared as % of each capacity" : ")");
      g_ptr_array_add (cmp->notes, g_string_free (s, FALSE));
    }
  if (profiles_differ)
    g_ptr_array_add (cmp->notes, g_strdup ("the runs were set up differently (see each "
                                           "column's description): compare with care"));
  add_align_note (cmp);
  add_identity_note (cmp);

  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      const DsResult *r = col->result;

      if (r->cancelled)
        g_ptr_array_add (cmp->notes, g_strdup_printf ("%c was stopped before the end: its figures are partial",
                                                      col->letter));
      else if (r->error != NULL)
        g_ptr_array_add (cmp->notes, g_strdup_printf ("%c failed (%s): its figures are partial",
                                                      col->letter, r->error->message));
      for (guint i = 0; r->notes != NULL && i < r->notes->len; i++)
        g_ptr_array_add (cmp->notes, g_strdup_printf ("%c: %s", col->letter,
                                                      (const char *) r->notes->pdata[i]));
    }
}

/* Each result's warnings, the sentences its window shows in its bar. */
static void
add_warnings (DsComparison *cmp)
{
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = cmp->columns->pdata[c];
      const DsResult *r = col->result;

      for (guint i = 0; r->warnings != NULL && i < r->warnings->len; i++)
        {
          const DsWarning *w = r->warnings->pdata[i];

          if (w->message != NULL)
            g_ptr_array_add (cmp->warnings, g_strdup_printf ("%c: %s", col->letter, w->message));
        }
    }
}

DsComparison *
ds_comparison_new (DsResult *const   *results,
                   const char *const *sources,
                   guint              n_results,
                   GError           **error)
{
  g_autoptr (DsComparison) cmp = NULL;
  DsCompareBuilder builder;

  g_return_val_if_fail (results != NULL, NULL);

  if (n_results < 2 || n_results > DS_COMPARE_MAX_COLUMNS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("compare takes 2 to %d results (%u given)"), DS_COMPARE_MAX_COLUMNS, n_results);
      return NULL;
    }

  for (guint i = 1; i < n_results; i++)
    if (results[i]->kind != results[0]->kind)
      {
        const DsBenchOps *k0 = ds_bench_get (results[0]->kind);
        const DsBenchOps *ki = ds_bench_get (results[i]->kind);
        const char *s0 = sources && sources[0] ? sources[0] : results[0]->target.path;
        const char *si = sources && sources[i] ? sources[i] : results[i]->target.path;

        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("%s is a result of the %s test and %s of the %s test: compare results of one kind"),
                     s0 ? s0 : "the first", k0 ? k0->name : "?", si ? si : "another",
                     ki ? ki->name : "?");
        return NULL;
      }

  cmp = g_new0 (DsComparison, 1);
  cmp->kind = results[0]->kind;
  cmp->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  cmp->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  cmp->notes = g_ptr_array_new_with_free_func (g_free);
  cmp->curves = g_ptr_array_new ();
  cmp->warnings = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_results; i++)
    {
      DsCompareColumn *col = g_new0 (DsCompareColumn, 1);

      col->letter = (char) ('A' + i);
      col->label = ds_result_dup_label (results[i]);
      col->source = g_strdup (sources && sources[i] ? sources[i] : results[i]->target.path);
      col->description = describe_column (results[i]);
      col->result = results[i];
      g_ptr_array_add (cmp->columns, col);
    }

  ds_compare_builder_init (&builder, cmp);
  for (guint i = 0; i < n_results; i++)
    ds_compare_builder_add_result (&builder, i, results[i]);
  if (builder.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&builder.error));
      ds_compare_builder_clear (&builder);
      return NULL;
    }
  ds_compare_builder_clear (&builder);
  ds_compare_rows_find_best (cmp);

  cmp->x_max_bytes = 0;
  for (guint i = 0; i < n_results; i++)
    {
      uint64_t span = tested_span (results[i]);

      if (span != tested_span (results[0]))
        cmp->x_percent = TRUE;
      cmp->x_max_bytes = MAX (cmp->x_max_bytes, span);
    }

  add_notes (cmp);
  add_warnings (cmp);
  return g_steal_pointer (&cmp);
}

/* ---- curves ------------------------------------------------------------- */

const DsCompareCurve *
ds_comparison_find_curve (const DsComparison *comparison,
                          const char         *key)
{
  for (guint i = 0; comparison->curves != NULL && i < comparison->curves->len; i++)
    {
      const DsCompareCurve *curve = comparison->curves->pdata[i];

      if (strcmp (curve->key, key) == 0)
        return curve;
    }

  return NULL;
}

/* The transfer curves (keys "read", "write" and their ".access" dots, x in
 * bytes from the start) on the comparison's x-axis. */
gboolean
ds_comparison_get_curve (const DsComparison *comparison,
                         guint               column,
                         gboolean            write,
                         GArray            **ret_points,
                         GArray            **ret_dots)
{
  const DsCompareColumn *col;
  const DsCompareCurve *rate;
  const DsCompareCurve *access;
  double span;

  g_return_val_if_fail (column < comparison->columns->len, FALSE);

  col = comparison->columns->pdata[column];
  rate = ds_comparison_find_curve (comparison, write ? "write" : "read");
  access = ds_comparison_find_curve (comparison, write ? "write.access" : "read.access");
  if (rate == NULL || rate->points[column] == NULL)
    return FALSE;

  span = (double) tested_span (col->result);
  if (span <= 0)
    span = 1;

  if (ret_points != NULL)
    {
      GArray *from = rate->points[column];
      GArray *points = g_array_sized_new (FALSE, FALSE, sizeof (DsCurvePoint), from->len);

      for (guint i = 0; i < from->len; i++)
        {
          const DsCurveXY *p = &g_array_index (from, DsCurveXY, i);
          DsCurvePoint cp = { comparison->x_percent ? p->x / span : p->x, p->y };

          g_array_append_val (points, cp);
        }
      *ret_points = points;
    }

  if (ret_dots != NULL)
    {
      GArray *from = access != NULL ? access->points[column] : NULL;
      GArray *dots = g_array_new (FALSE, FALSE, sizeof (DsAccessDot));

      for (guint i = 0; from != NULL && i < from->len; i++)
        {
          const DsCurveXY *p = &g_array_index (from, DsCurveXY, i);
          DsAccessDot dot = { comparison->x_percent ? p->x / span : p->x, p->y };

          g_array_append_val (dots, dot);
        }
      *ret_dots = dots;
    }

  return TRUE;
}

/* ---- formatting one value ----------------------------------------------- */

char *
ds_compare_format_value (DsCompareUnit unit,
                         double        value,
                         DsUnits       units)
{
  if (isnan (value))
    return g_strdup ("–");

  switch (unit)
    {
    case DS_COMPARE_RATE:
      return ds_format_rate (value, units);
    case DS_COMPARE_TIME:
      return ds_format_ms (value);
    case DS_COMPARE_IOPS:
      return value >= 100 ? g_strdup_printf ("%.0f IOPS", value) : g_strdup_printf ("%.1f IOPS", value);
    case DS_COMPARE_COUNT:
      return value == floor (value) ? g_strdup_printf ("%.0f", value) : g_strdup_printf ("%.1f", value);
    case DS_COMPARE_BYTES:
      return ds_format_size ((uint64_t) value);
    case DS_COMPARE_RATIO:
      return g_strdup_printf ("%.2f", value);
    case DS_COMPARE_PERCENT:
    default:
      return g_strdup_printf ("%.1f%%", value);
    }
}

char *
ds_compare_format_ratio (double ratio)
{
  if (isnan (ratio) || !isfinite (ratio))
    return g_strdup ("–");
  if (ratio >= 10)
    return g_strdup_printf ("%.1f", ratio);

  return g_strdup_printf ("%.2f", ratio);
}
