/* ds-info-page.h: what a device is and how it is set up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_INFO_PAGE (ds_info_page_get_type ())
G_DECLARE_FINAL_TYPE (DsInfoPage, ds_info_page, DS, INFO_PAGE, GtkWidget)

G_END_DECLS
