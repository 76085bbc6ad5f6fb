/* ds-sustain-page.h: the Sustained Write page (the cliff and the floor)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_SUSTAIN_PAGE (ds_sustain_page_get_type ())
G_DECLARE_FINAL_TYPE (DsSustainPage, ds_sustain_page, DS, SUSTAIN_PAGE, GtkWidget)

/* What the page says of the cliff ("Cliff after 52.4 MB …"), as shown. */
const char *ds_sustain_page_get_finding (DsSustainPage *self);

G_END_DECLS
