/* ds-label-layout.c: where the labels of marks on a graph go (see
 * ds-label-layout.h)
 *
 * The latency histogram's p50, p99 and p99.9 lines are often a few pixels
 * apart: a label put right of its line with a row each was still crossed
 * by the next mark's dashed line, and one pushed left of its line near the
 * right edge ran into its neighbour's.  Here each label looks for the
 * first row where it is clear of the labels already placed and of every
 * other mark's line, on either side of its own line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-label-layout.h"

gboolean
ds_mark_labels_overlap (const DsMarkLabel *a,
                        const DsMarkLabel *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

static double
clamp_x (double x,
         double width,
         double left,
         double right)
{
  if (x + width > right)
    x = right - width;
  return MAX (x, left);
}

/* Another mark's line through the label at @x (one pixel in from its
 * edges: a line at the very edge does not cross the text). */
static gboolean
crosses_line (const DsMarkLabel *labels,
              guint              n,
              guint              self,
              double             x,
              double             width)
{
  for (guint j = 0; j < n; j++)
    if (j != self && labels[j].line_x > x + 1 && labels[j].line_x < x + width - 1)
      return TRUE;
  return FALSE;
}

static gboolean
clear_of_placed (const DsMarkLabel *labels,
                 const guint       *placed,
                 guint              n_placed,
                 const DsMarkLabel *candidate)
{
  for (guint k = 0; k < n_placed; k++)
    if (ds_mark_labels_overlap (&labels[placed[k]], candidate))
      return FALSE;
  return TRUE;
}

static void
place_one (DsMarkLabel *labels,
           guint        n,
           guint        i,
           const guint *placed,
           guint        n_placed,
           double       left,
           double       right,
           double       top,
           double       pad,
           double       row_step)
{
  DsMarkLabel *l = &labels[i];
  double right_x = l->line_x + pad;
  double left_x = l->line_x - pad - l->width;
  double sides[2];
  gboolean have_fallback = FALSE;
  double fallback_x = 0, fallback_y = 0;

  /* Right of the line where it fits, else left of it. */
  if (right_x + l->width <= right || left_x < left)
    {
      sides[0] = clamp_x (right_x, l->width, left, right);
      sides[1] = clamp_x (left_x, l->width, left, right);
    }
  else
    {
      sides[0] = clamp_x (left_x, l->width, left, right);
      sides[1] = clamp_x (right_x, l->width, left, right);
    }

  /* Row n_placed has no label yet: the search always ends there. */
  for (guint row = 0; row <= n_placed; row++)
    for (guint s = 0; s < 2; s++)
      {
        DsMarkLabel candidate = *l;

        candidate.x = sides[s];
        candidate.y = top + row * row_step;
        if (!clear_of_placed (labels, placed, n_placed, &candidate))
          continue;
        if (!crosses_line (labels, n, i, candidate.x, candidate.width))
          {
            l->x = candidate.x;
            l->y = candidate.y;
            return;
          }
        if (!have_fallback)
          {
            have_fallback = TRUE;
            fallback_x = candidate.x;
            fallback_y = candidate.y;
          }
      }

  /* Lines too close everywhere: clear of the labels, across a line. */
  l->x = fallback_x;
  l->y = fallback_y;
}

void
ds_mark_labels_layout (DsMarkLabel *labels,
                       guint        n,
                       double       left,
                       double       right,
                       double       top,
                       double       pad,
                       double       row_gap)
{
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  double row_height = 0;

  for (guint i = 0; i < n; i++)
    {
      order[i] = i;
      row_height = MAX (row_height, labels[i].height);
    }
  /* Left to right (an insertion sort: a handful of marks), ties in the
   * order given. */
  for (guint i = 1; i < n; i++)
    for (guint k = i; k > 0 && labels[order[k]].line_x < labels[order[k - 1]].line_x; k--)
      {
        guint t = order[k];

        order[k] = order[k - 1];
        order[k - 1] = t;
      }

  for (guint k = 0; k < n; k++)
    place_one (labels, n, order[k], order, k, left, right, top, pad, row_height + row_gap);
}
