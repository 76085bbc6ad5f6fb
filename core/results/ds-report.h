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
/* A session: several runs of one device in HD Tune's order (read tests by
 * kind, then write tests by kind, then the file benchmark and workloads;
 * stable), separated by blank lines. */
char *ds_report_session_text (DsResult *const       *results,
                              guint                  n_results,
                              DsUnits                units);

/* The shared formatter the kinds' report() use. */
/* "HD Tune Pro: MODEL    Benchmark"-style header, "Test capacity: full". */
void ds_report_header   (GString        *out,
                         const DsResult *result);
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
