/* ds-probe-pages.h: what the Saturation, Sustained Write and Cache Probe
 * pages share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <stdint.h>

G_BEGIN_DECLS

/* "41 200": IOPS to the unit, digits grouped by threes. */
char     *ds_probe_format_iops   (double       iops);
/* The value behind a drop-down's selected item: @values lists one per
 * item, in order (0 when nothing is selected). */
uint64_t  ds_probe_choice        (GtkDropDown *dropdown,
                                  const uint64_t *values,
                                  guint        n_values);
/* Selects the item whose value is @value (an opened result shows what it
 * ran); nothing changes when no item has it. */
void      ds_probe_select        (GtkDropDown *dropdown,
                                  const uint64_t *values,
                                  guint        n_values,
                                  uint64_t     value);
/* For a script's --@option @text (parsed to @value): selects the item
 * whose value is @value, or FALSE with G_OPTION_ERROR_BAD_VALUE naming the
 * items the menu offers. */
gboolean  ds_probe_select_option (GtkDropDown *dropdown,
                                  const uint64_t *values,
                                  guint        n_values,
                                  uint64_t     value,
                                  const char  *option,
                                  const char  *text,
                                  GError     **error);
/* The page's error bar shows @message (NULL: hides it). */
void      ds_probe_show_error    (GtkInfoBar  *bar,
                                  GtkLabel    *label,
                                  const char  *message);
/* Every widget of @widgets (NULL-terminated) takes input unless @running. */
void      ds_probe_set_running   (GtkWidget  **widgets,
                                  gboolean     running);

G_END_DECLS
