/* ds-sweep-page.h: the Saturation page (a sweep over queue depths)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_SWEEP_PAGE (ds_sweep_page_get_type ())
G_DECLARE_FINAL_TYPE (DsSweepPage, ds_sweep_page, DS, SWEEP_PAGE, GtkWidget)

/* What the page says of the knee ("Saturates at QD 4: …"), as shown. */
const char *ds_sweep_page_get_finding (DsSweepPage *self);

G_END_DECLS
