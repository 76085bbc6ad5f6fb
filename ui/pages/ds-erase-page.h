/* ds-erase-page.h: HD Tune's Erase tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_ERASE_PAGE (ds_erase_page_get_type ())
G_DECLARE_FINAL_TYPE (DsErasePage, ds_erase_page, DS, ERASE_PAGE, GtkWidget)

G_END_DECLS
