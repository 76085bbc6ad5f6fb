/* ds-run-progress.h: the thin bar over the page that says how far a run is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_RUN_PROGRESS (ds_run_progress_get_type ())
G_DECLARE_FINAL_TYPE (DsRunProgress, ds_run_progress, DS, RUN_PROGRESS, GtkWidget)

GtkWidget *ds_run_progress_new          (void);
void       ds_run_progress_set_fraction (DsRunProgress *self,
                                         double         fraction);
double     ds_run_progress_get_fraction (DsRunProgress *self);

G_END_DECLS
