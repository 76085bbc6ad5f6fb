/* ds-scan-page.h: HD Tune's Error Scan tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_SCAN_PAGE (ds_scan_page_get_type ())
G_DECLARE_FINAL_TYPE (DsScanPage, ds_scan_page, DS, SCAN_PAGE, GtkWidget)

G_END_DECLS
