/* ds-label-layout.h: where the labels of marks on a graph go, so that none
 * covers another (no widgets: tested without a display)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One mark: a vertical line at line_x with a label of width × height. */
typedef struct {
  double line_x;   /* in */
  double width;    /* in */
  double height;   /* in */
  double x;        /* out: the label's left edge */
  double y;        /* out: its top */
} DsMarkLabel;

/* Lays out @n labels in the band [@left, @right], rows from @top down:
 * each beside its own line, right of it (@pad away) or left of it where
 * the right side would leave the band, in the first row where it overlaps
 * no label placed before it and, if any row up to then allows, crosses no
 * other mark's line.  Marks are placed from left to right.  No two labels
 * ever overlap: at worst each has a row of its own.  A label wider than
 * the band starts at @left. */
void ds_mark_labels_layout (DsMarkLabel *labels,
                            guint        n,
                            double       left,
                            double       right,
                            double       top,
                            double       pad,
                            double       row_gap);

/* TRUE when the labels @a and @b share a point (their edges touching
 * does not count). */
gboolean ds_mark_labels_overlap (const DsMarkLabel *a,
                                 const DsMarkLabel *b);

G_END_DECLS
