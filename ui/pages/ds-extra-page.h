/* ds-extra-page.h: HD Tune's Extra Tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_EXTRA_PAGE (ds_extra_page_get_type ())
G_DECLARE_FINAL_TYPE (DsExtraPage, ds_extra_page, DS, EXTRA_PAGE, GtkWidget)

G_END_DECLS
