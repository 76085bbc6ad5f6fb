/* ds-compare-format.h: a comparison as text, CSV, Markdown or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "ds-compare.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* The side-by-side table for a terminal or a write-up: the legend (A, B,
 * ... with label, description and source), then one table per section
 * with a column per result, a ratio column per result after the first
 * (B/A, ...) and "*" after the better value; then the notes. */
char     *ds_comparison_to_text     (const DsComparison *comparison,
                                     DsUnits             units);
/* RFC 4180 CSV, one row per figure: section, figure, measure, unit, one
 * column per result (numbers in the unit named: MB/s or MiB/s, ms, IOPS,
 * %; empty when not measured), the ratios, and the better column's letter.
 * Cells that a spreadsheet would take for a formula are quoted with a
 * leading apostrophe. */
char     *ds_comparison_to_csv      (const DsComparison *comparison,
                                     DsUnits             units);
/* GitHub-flavoured Markdown: a legend table, one table per section (the
 * better value in bold), the notes as a list. */
char     *ds_comparison_to_markdown (const DsComparison *comparison,
                                     DsUnits             units);
/* Schema "diskscope-compare/1": values in base units (bytes/s, s, IOPS,
 * percent), null where not measured; "ratios" has one entry per result
 * after the first; "best" is the better column's index or null. */
JsonNode *ds_comparison_to_json     (const DsComparison *comparison);
char     *ds_comparison_to_json_data (const DsComparison *comparison);

G_END_DECLS
