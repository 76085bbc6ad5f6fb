/* ds-random-access-page.h: HD Tune's Random Access
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_RANDOM_ACCESS_PAGE (ds_random_access_page_get_type ())
G_DECLARE_FINAL_TYPE (DsRandomAccessPage, ds_random_access_page, DS, RANDOM_ACCESS_PAGE, GtkWidget)

G_END_DECLS
