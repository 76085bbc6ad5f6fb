/* ds-compare-window.h: results of one kind overlaid and side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-compare.h"
#include "ds-graph.h"

G_BEGIN_DECLS

#define DS_TYPE_COMPARE_WINDOW (ds_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (DsCompareWindow, ds_compare_window, DS, COMPARE_WINDOW, AdwWindow)

/* Compares @results (DsResult *, taken: 2 to 26 of one kind), named by
 * @sources (library ids or paths; NULL: their targets).  NULL with
 * DS_ERROR_INVALID when they cannot be compared. */
DsCompareWindow    *ds_compare_window_new            (GtkWindow          *parent,
                                                      GPtrArray          *results,
                                                      const char *const  *sources,
                                                      DsUnits             units,
                                                      GError            **error);
const DsComparison *ds_compare_window_get_comparison (DsCompareWindow    *self);
/* The graph of one direction (kind benchmark), or NULL when that
 * direction was not run by any result. */
DsGraph            *ds_compare_window_get_graph      (DsCompareWindow    *self,
                                                      gboolean            write);
/* Shows or hides the access-time dots of result @column. */
void                ds_compare_window_set_show_access (DsCompareWindow   *self,
                                                       guint              column,
                                                       gboolean           show);
/* The files the results were read from (NULL-terminated; a library
 * entry's file, an opened result): an export never replaces one.  Set
 * before the window is shown. */
void                ds_compare_window_set_inputs     (DsCompareWindow    *self,
                                                      const char *const  *files);
/* Writes the comparison to @path: PNG, SVG or PDF (drawn), CSV or
 * Markdown (.md) tables, by the name's ending, under ds-save.h's rules
 * and never over one of its inputs; blocking. */
gboolean            ds_compare_window_export         (DsCompareWindow    *self,
                                                      const char         *path,
                                                      GError            **error);

G_END_DECLS
