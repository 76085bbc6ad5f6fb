/* ds-compare-window-private.h: what the comparison window's files share
 *
 * ds-compare-window.c is the window, its graphs and its export;
 * ds-compare-table.c the legend, the side-by-side tables and the notes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-compare-window.h"

G_BEGIN_DECLS

/* "#1c71d8": result @column's colour, the one its export draws with. */
char      *_ds_compare_color      (guint               column);
/* Each result's colour, letter, label, description and source; with
 * @curves (the window draws the results' curves), each key is its
 * curve's line pattern and marker, and a check button per result shows
 * its access-time dots (ds_compare_window_set_show_access()). */
GtkWidget *_ds_compare_legend_new (DsCompareWindow    *window,
                                   const DsComparison *comparison,
                                   gboolean            curves);
/* One table per section: a column per result, a ratio column per result
 * after the first (B/A …), the better value marked. */
GtkWidget *_ds_compare_tables_new (const DsComparison *comparison,
                                   DsUnits             units);
/* What to keep in mind, or NULL when nothing. */
GtkWidget *_ds_compare_notes_new  (const DsComparison *comparison);

G_END_DECLS
