/* ds-health-page.h: HD Tune's Health tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_HEALTH_PAGE (ds_health_page_get_type ())
G_DECLARE_FINAL_TYPE (DsHealthPage, ds_health_page, DS, HEALTH_PAGE, GtkWidget)

G_END_DECLS
