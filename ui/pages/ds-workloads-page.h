/* ds-workloads-page.h: CrystalDiskMark's grid, with each step's series and
 * latency histogram
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_WORKLOADS_PAGE (ds_workloads_page_get_type ())
G_DECLARE_FINAL_TYPE (DsWorkloadsPage, ds_workloads_page, DS, WORKLOADS_PAGE, GtkWidget)

/* The preset the page runs ("cdm-default"); FALSE if there is no such
 * preset. */
gboolean    ds_workloads_page_set_preset (DsWorkloadsPage *self,
                                          const char      *name);
const char *ds_workloads_page_get_preset (DsWorkloadsPage *self);
/* The grid cell of @row (from 0) and @direction (DsMarkDirection): its
 * figure as shown ("1234.56", "—" before it ran), or NULL when the grid
 * has no such cell. */
const char *ds_workloads_page_get_figure (DsWorkloadsPage *self,
                                          guint            row,
                                          guint            direction);
/* Shows the series and histogram of that cell. */
void        ds_workloads_page_select     (DsWorkloadsPage *self,
                                          guint            row,
                                          guint            direction);

/* The custom rows' editor (ds-workloads-rows.c), a modal window over the
 * page's; its Save stores the rows and selects the custom preset. */
GtkWindow  *ds_workloads_page_edit_rows  (DsWorkloadsPage *self);
/* For tests: sets the editor's row @index (a new row past the last) from
 * a row as --row takes it, or removes it (@text NULL); and presses Save. */
gboolean    ds_workloads_rows_editor_set  (GtkWindow       *editor,
                                           guint            index,
                                           const char      *text,
                                           GError         **error);
void        ds_workloads_rows_editor_save (GtkWindow       *editor);

G_END_DECLS
