/* ds-monitor-page.h: HD Tune's Disk Monitor tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_MONITOR_PAGE (ds_monitor_page_get_type ())
G_DECLARE_FINAL_TYPE (DsMonitorPage, ds_monitor_page, DS, MONITOR_PAGE, GtkWidget)

G_END_DECLS
