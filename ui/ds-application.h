/* ds-application.h: the application: options, actions, windows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DS_TYPE_APPLICATION (ds_application_get_type ())
G_DECLARE_FINAL_TYPE (DsApplication, ds_application, DS, APPLICATION, AdwApplication)

/* Before GTK starts (main() calls it first): when GSK_RENDERER=cairo asks
 * for drawing without OpenGL, GDK is told not to load it at all. */
void           ds_application_prepare_environment (void);
DsApplication *ds_application_new             (void);
/* What main() returns after g_application_run() gave 0: non-zero when a
 * scripted run (--start --quit-when-done) failed. */
int            ds_application_get_exit_status (DsApplication *self);

G_END_DECLS
