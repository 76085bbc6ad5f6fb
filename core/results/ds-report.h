/* ds-report.h: the plain-text report in HD Tune's layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-result.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* One report for one run. */
char *ds_report_text         (const DsResult        *result,
                              DsUnits                units);
/* Several runs, in the order given, separated by ds_report_separator(). */
char *ds_report_session_text (DsResult *const       *results,
                              guint                  n_results,
                              DsUnits                units);
/* What goes between two reports: a blank line. */
const char *ds_report_separator (void);

/* Everything these print that came from a device or a file (model, path,
 * notes, error messages, the kinds' figures and cells) goes through
 * ds_text_sanitize(): a result file cannot retitle or clear the terminal
 * the report is printed on, nor add lines to the report. */

/* The shared formatter the kinds' report() use. */
/* "HD Tune Pro: MODEL    Benchmark"-style header, "Test capacity: full",
 * and what the rates' unit means (ds_units_description()). */
void ds_report_header   (GString        *out,
                         const DsResult *result,
                         DsUnits         units);
/* What the run's random offsets were multiples of, for the header's
 * "Alignment:" line: "the block size", "512 bytes", "4 KiB" (--align;
 * never below the logical block). */
char *ds_report_random_align (const DsResult *result);
/* "Label  :  value" lines of the Benchmark tab, label padded to 22. */
void ds_report_figure   (GString        *out,
                         const char     *label,
                         const char     *value);
/* A table row: @cells[0] padded to @first_width, then each further cell
 * right-aligned in @cell_width. */
void ds_report_row      (GString        *out,
                         const char *const *cells,
                         guint           n_cells,
                         guint           first_width,
                         guint           cell_width);

G_END_DECLS
