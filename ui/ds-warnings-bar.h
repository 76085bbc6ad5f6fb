/* ds-warnings-bar.h: the visible result's warnings ("likely fooled"), one
 * row each with an icon and the sentence, above the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* A bar, hidden until a result with warnings is set. */
GtkWidget *ds_warnings_bar_new        (void);
/* Shows @result's warnings (NULL or none: hides the bar). */
void       ds_warnings_bar_set_result (GtkWidget      *bar,
                                       const DsResult *result);

G_END_DECLS
