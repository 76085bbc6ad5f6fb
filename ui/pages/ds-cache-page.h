/* ds-cache-page.h: the Cache Probe page (where reads stop being served
 * from a cache)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_CACHE_PAGE (ds_cache_page_get_type ())
G_DECLARE_FINAL_TYPE (DsCachePage, ds_cache_page, DS, CACHE_PAGE, GtkWidget)

/* What the page says of the cache ("A read cache of about 48 MiB …"). */
const char *ds_cache_page_get_finding (DsCachePage *self);

G_END_DECLS
