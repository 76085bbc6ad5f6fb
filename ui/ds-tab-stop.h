/* ds-tab-stop.h: a list that Tab enters and leaves as one stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_TAB_STOP (ds_tab_stop_get_type ())
G_DECLARE_FINAL_TYPE (DsTabStop, ds_tab_stop, DS, TAB_STOP, GtkWidget)

G_END_DECLS
