/* ds-block-size-page.h: HD Tune's Block Size test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_BLOCK_SIZE_PAGE (ds_block_size_page_get_type ())
G_DECLARE_FINAL_TYPE (DsBlockSizePage, ds_block_size_page, DS, BLOCK_SIZE_PAGE, GtkWidget)

G_END_DECLS
