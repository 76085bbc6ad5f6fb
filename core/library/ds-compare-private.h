/* ds-compare-private.h: building a comparison's rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-compare.h"

G_BEGIN_DECLS

typedef struct {
  DsComparison *comparison;
  GHashTable   *by_key;    /* key -> DsCompareRow * (borrowed) */
  guint         column;    /* the column being filled */
} DsCompareBuilder;

/* Sets the figure @key of the current column, making its row (at the end)
 * the first time a column has it.  A negative or non-finite @value is "not
 * measured" and leaves the cell empty. */
void ds_compare_builder_add (DsCompareBuilder *builder,
                             const char       *key,
                             const char       *section,
                             const char       *name,
                             const char       *measure,
                             DsCompareUnit     unit,
                             gboolean          higher_is_better,
                             double            value);

/* ds-compare-rows.c: the rows of one result, per kind. */
void ds_compare_rows_add_result (DsCompareBuilder *builder,
                                 const DsResult   *result);

/* The transfer-rate bands: this many equal slices of the tested capacity. */
#define DS_COMPARE_TRANSFER_BANDS 5

G_END_DECLS
