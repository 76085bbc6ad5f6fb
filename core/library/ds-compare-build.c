/* ds-compare-build.c: a comparison's rows and curves, from each kind's
 * hooks (DsBenchOps.compare_rows, .compare_curves)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The comparison is the sink of ds-figures.h: a figure the first results
 * did not have goes at the end of its section, so sections stay together;
 * a curve key is one pair of axes for every column, and a column whose
 * curve of that key has other axes cannot be drawn with the rest, so the
 * comparison is refused with a sentence that names both.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-compare-private.h"
#include "ds-error.h"
#include "ds-text.h"

/* Two values within 0.5 % of each other are a tie: neither is marked
 * better (no run repeats closer than that; the ratio still shows it). */
#define TIE_RELATIVE 0.005
/* A row's name, section or measure from a kind: at most this long. */
#define MAX_NAME_CHARS 120

static void
figures_add (DsFigures     *figures,
             const char    *key,
             const char    *section,
             const char    *name,
             const char    *measure,
             DsCompareUnit  unit,
             gboolean       higher_is_better,
             double         value)
{
  DsCompareBuilder *b = (DsCompareBuilder *) figures;
  DsComparison *cmp = b->comparison;
  DsCompareRow *row = g_hash_table_lookup (b->by_key, key);

  if (row == NULL)
    {
      guint n = cmp->columns->len;
      guint pos = cmp->rows->len;

      row = g_new0 (DsCompareRow, 1);
      row->key = g_strdup (key);
      /* A kind's names may come from the result file (a mark step's
       * label, a SMART attribute's name): anyone's, so escaped here, for
       * every format alike. */
      row->section = ds_text_sanitize_short (section, MAX_NAME_CHARS);
      row->name = ds_text_sanitize_short (name, MAX_NAME_CHARS);
      row->measure = ds_text_sanitize_short (measure ? measure : "", MAX_NAME_CHARS);
      row->unit = unit;
      row->higher_is_better = higher_is_better;
      row->values = g_new (double, n);
      row->best = -1;
      for (guint c = 0; c < n; c++)
        row->values[c] = NAN;

      /* Its section as the rows hold it (escaped and cut alike). */
      for (guint i = cmp->rows->len; i > 0; i--)
        if (strcmp (((DsCompareRow *) cmp->rows->pdata[i - 1])->section, row->section) == 0)
          {
            pos = i;
            break;
          }
      g_ptr_array_insert (cmp->rows, (gint) pos, row);
      g_hash_table_insert (b->by_key, row->key, row);
    }

  row->values[b->column] = isfinite (value) && value >= 0 ? value : NAN;
}

static void
figures_note (DsFigures  *figures,
              const char *text)
{
  DsCompareBuilder *b = (DsCompareBuilder *) figures;
  const DsCompareColumn *col = b->comparison->columns->pdata[b->column];

  g_autofree char *clean = ds_text_sanitize (text);

  g_ptr_array_add (b->comparison->notes, g_strdup_printf ("%c: %s", col->letter, clean));
}

static void
curve_free (DsCompareCurve *curve)
{
  g_free (curve->key);
  g_free (curve->title);
  g_free (curve->x_name);
  g_free (curve->y_name);
  g_free (curve->mark_x);
  /* points and mark_label: one per column, made by curve_new */
  g_free (curve);
}

static void
curve_free_columns (DsCompareCurve *curve,
                    guint           n)
{
  for (guint c = 0; c < n; c++)
    {
      if (curve->points[c] != NULL)
        g_array_unref (curve->points[c]);
      g_free (curve->mark_label[c]);
    }
  g_free (curve->points);
  g_free (curve->mark_label);
  curve_free (curve);
}

static DsCompareCurve *
curve_new (const DsCurveAxes *axes,
           guint              n)
{
  DsCompareCurve *curve = g_new0 (DsCompareCurve, 1);

  curve->key = g_strdup (axes->key);
  curve->title = g_strdup (axes->title);
  curve->x_name = g_strdup (axes->x_name);
  curve->y_name = g_strdup (axes->y_name);
  curve->x_unit = axes->x_unit;
  curve->y_unit = axes->y_unit;
  curve->x_log = axes->x_log;
  curve->dots = axes->dots;
  curve->points = g_new0 (GArray *, n);
  curve->mark_x = g_new (double, n);
  curve->mark_label = g_new0 (char *, n);
  for (guint c = 0; c < n; c++)
    curve->mark_x[c] = NAN;

  return curve;
}

static void
curves_add (DsCurves          *curves,
            const DsCurveAxes *axes,
            const DsCurveXY   *points,
            guint              n,
            double             mark_x,
            const char        *mark_label)
{
  DsCompareBuilder *b = (DsCompareBuilder *) ((char *) curves - G_STRUCT_OFFSET (DsCompareBuilder, curves));
  DsComparison *cmp = b->comparison;
  DsCompareCurve *curve = g_hash_table_lookup (b->curve_by_key, axes->key);

  if (curve == NULL)
    {
      curve = curve_new (axes, cmp->columns->len);
      g_ptr_array_add (cmp->curves, curve);
      g_hash_table_insert (b->curve_by_key, curve->key, curve);
    }
  else if (b->error == NULL &&
           (strcmp (curve->x_name, axes->x_name) != 0 || curve->x_unit != axes->x_unit ||
            strcmp (curve->y_name, axes->y_name) != 0 || curve->y_unit != axes->y_unit))
    {
      const DsCompareColumn *col = cmp->columns->pdata[b->column];
      const DsCompareColumn *first = NULL;

      for (guint c = 0; c < b->column && first == NULL; c++)
        if (curve->points[c] != NULL)
          first = cmp->columns->pdata[c];
      g_set_error (&b->error, DS_ERROR, DS_ERROR_INVALID,
                   _("%c's %s is against %s and %c's against %s: curves that share no axis cannot "
                     "be overlaid, so these results do not compare (compare runs that varied the same thing)"),
                   first ? first->letter : 'A', curve->y_name, curve->x_name, col->letter, axes->x_name);
      return;
    }

  if (curve->points[b->column] != NULL)
    g_array_unref (curve->points[b->column]);
  curve->points[b->column] = g_array_sized_new (FALSE, FALSE, sizeof (DsCurveXY), n);
  g_array_append_vals (curve->points[b->column], points, n);
  curve->mark_x[b->column] = mark_x;
  g_free (curve->mark_label[b->column]);
  curve->mark_label[b->column] = g_strdup (mark_label);
}

void
ds_compare_builder_init (DsCompareBuilder *b,
                         DsComparison     *comparison)
{
  *b = (DsCompareBuilder) {
    .figures = { .add = figures_add, .note = figures_note },
    .curves = { .add = curves_add },
    .comparison = comparison,
    .by_key = g_hash_table_new (g_str_hash, g_str_equal),
    .curve_by_key = g_hash_table_new (g_str_hash, g_str_equal),
  };
}

void
ds_compare_builder_clear (DsCompareBuilder *b)
{
  g_clear_pointer (&b->by_key, g_hash_table_unref);
  g_clear_pointer (&b->curve_by_key, g_hash_table_unref);
  g_clear_error (&b->error);
}

void
ds_compare_builder_add_result (DsCompareBuilder *b,
                               guint             column,
                               const DsResult   *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  b->column = column;
  if (result->data == NULL || ops == NULL)
    return;
  if (ops->compare_rows != NULL)
    ops->compare_rows (result, &b->figures);
  if (ops->compare_curves != NULL)
    ops->compare_curves (result, &b->curves);
}

void
ds_compare_curves_free (DsComparison *comparison)
{
  if (comparison->curves == NULL)
    return;
  for (guint i = 0; i < comparison->curves->len; i++)
    curve_free_columns (comparison->curves->pdata[i], comparison->columns->len);
  g_ptr_array_unref (comparison->curves);
  comparison->curves = NULL;
}

static void
find_best (DsCompareRow *row,
           guint         n)
{
  int best = -1;
  guint present = 0;

  for (guint c = 0; c < n; c++)
    {
      double v = row->values[c];

      if (isnan (v))
        continue;
      present++;
      if (best < 0 || (row->higher_is_better ? v > row->values[best] : v < row->values[best]))
        best = (int) c;
    }

  row->best = -1;
  if (present < 2 || best < 0)
    return;

  /* A tie with another column marks nobody. */
  for (guint c = 0; c < n; c++)
    {
      double v = row->values[c];
      double scale = MAX (fabs (v), fabs (row->values[best]));

      if ((int) c != best && !isnan (v) && fabs (v - row->values[best]) <= TIE_RELATIVE * scale)
        return;
    }
  row->best = best;
}

void
ds_compare_rows_find_best (DsComparison *comparison)
{
  for (guint r = 0; r < comparison->rows->len; r++)
    find_best (comparison->rows->pdata[r], comparison->columns->len);
}
