/* ds-compare-private.h: building a comparison's rows and curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-compare.h"

G_BEGIN_DECLS

/* The sinks a kind fills (ds-figures.h), for one column at a time. */
typedef struct {
  DsFigures     figures;   /* first: a DsFigures * is a DsCompareBuilder * */
  DsCurves      curves;
  DsComparison *comparison;
  GHashTable   *by_key;    /* key -> DsCompareRow * (borrowed) */
  GHashTable   *curve_by_key; /* key -> DsCompareCurve * (borrowed) */
  guint         column;    /* the column being filled */
  GError       *error;     /* the first curve that shares no axis */
} DsCompareBuilder;

/* ds-compare-build.c */
void ds_compare_builder_init  (DsCompareBuilder *builder,
                               DsComparison     *comparison);
void ds_compare_builder_clear (DsCompareBuilder *builder);
/* The rows and curves of column @column's result, from its kind's hooks. */
void ds_compare_builder_add_result (DsCompareBuilder *builder,
                                    guint             column,
                                    const DsResult   *result);
/* Frees @comparison's curves (their per-column arrays included). */
void ds_compare_curves_free   (DsComparison     *comparison);
/* Sets the better column of each row. */
void ds_compare_rows_find_best (DsComparison    *comparison);

G_END_DECLS
