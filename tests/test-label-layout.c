/* test-label-layout.c: the marks' labels on a graph never cover one
 * another (unit suite: no display)
 *
 * The Workloads page's latency histogram has lines at p50, p99 and p99.9,
 * often a few pixels apart (issue 25: their labels overlapped).  The
 * layout must keep every label clear of every other, beside its own line,
 * inside the plot, and off the other marks' lines wherever there is room.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-label-layout.h"
#include "ds-test-util.h"

#define LEFT   40.0
#define RIGHT  400.0
#define TOP    10.0
#define PAD    3.0
#define GAP    2.0

static void
assert_sound (const DsMarkLabel *labels,
              guint              n,
              double             left,
              double             right)
{
  for (guint i = 0; i < n; i++)
    {
      const DsMarkLabel *l = &labels[i];
      gboolean beside = fabs (l->x - (l->line_x + PAD)) < 1e-9 ||
                        fabs (l->x + l->width - (l->line_x - PAD)) < 1e-9;

      ck_assert_msg ((l->x >= left - 1e-9 && l->x + l->width <= right + 1e-9) || l->width > right - left,
                     "label %u at %g..%g outside %g..%g", i, l->x, l->x + l->width, left, right);
      ck_assert_msg (l->y >= TOP, "label %u above the plot", i);
      /* Beside its line, unless the plot's edge pushed it in. */
      ck_assert_msg (beside || l->x == left || fabs (l->x + l->width - right) < 1e-9,
                     "label %u at %g, its line at %g", i, l->x, l->line_x);
      for (guint j = i + 1; j < n; j++)
        ck_assert_msg (!ds_mark_labels_overlap (l, &labels[j]),
                       "labels %u (%g,%g %gx%g) and %u (%g,%g %gx%g) overlap", i, l->x, l->y, l->width,
                       l->height, j, labels[j].x, labels[j].y, labels[j].width, labels[j].height);
    }
}

static gboolean
crosses_other_line (const DsMarkLabel *labels,
                    guint              n,
                    guint              i)
{
  for (guint j = 0; j < n; j++)
    if (j != i && labels[j].line_x > labels[i].x + 1 && labels[j].line_x < labels[i].x + labels[i].width - 1)
      return TRUE;
  return FALSE;
}

/* The screenshot's case: p99 and p99.9 5 px apart, p50 far left.  No
 * overlap, and no label crossed by the other line. */
START_TEST (test_close_pair)
{
  DsMarkLabel labels[] = {
    { .line_x = 150, .width = 25, .height = 14 },   /* p50 */
    { .line_x = 300, .width = 25, .height = 14 },   /* p99 */
    { .line_x = 305, .width = 38, .height = 14 },   /* p99.9 */
  };

  ds_mark_labels_layout (labels, 3, LEFT, RIGHT, TOP, PAD, GAP);
  assert_sound (labels, 3, LEFT, RIGHT);
  for (guint i = 0; i < 3; i++)
    ck_assert_msg (!crosses_other_line (labels, 3, i), "label %u is crossed by another line", i);
  /* p50 alone in its part of the plot: the first row, right of its line. */
  ck_assert_double_eq (labels[0].y, TOP);
  ck_assert_double_eq (labels[0].x, 153);
}
END_TEST

/* Near the right edge: a label that does not fit right of its line goes
 * left of it, and does not run into its neighbour's there. */
START_TEST (test_right_edge)
{
  DsMarkLabel labels[] = {
    { .line_x = 380, .width = 25, .height = 14 },
    { .line_x = 392, .width = 38, .height = 14 },
    { .line_x = 398, .width = 38, .height = 14 },
  };

  ds_mark_labels_layout (labels, 3, LEFT, RIGHT, TOP, PAD, GAP);
  assert_sound (labels, 3, LEFT, RIGHT);
  for (guint i = 0; i < 3; i++)
    ck_assert_msg (labels[i].x + labels[i].width <= RIGHT, "label %u past the edge", i);
}
END_TEST

/* Three marks on one pixel (p50 = p99 = p99.9 on a device that answers
 * alike): three rows, in the order given. */
START_TEST (test_same_place)
{
  DsMarkLabel labels[] = {
    { .line_x = 200, .width = 25, .height = 14 },
    { .line_x = 200, .width = 25, .height = 14 },
    { .line_x = 200, .width = 38, .height = 14 },
  };

  ds_mark_labels_layout (labels, 3, LEFT, RIGHT, TOP, PAD, GAP);
  assert_sound (labels, 3, LEFT, RIGHT);
  ck_assert (labels[0].y < labels[1].y || labels[0].x != labels[1].x);
}
END_TEST

/* Any marks anywhere, in any order, of any width (a plot narrower than a
 * label included): never an overlap, always inside the plot and beside
 * the line, and a row more only when needed (n rows at most). */
START_TEST (test_random)
{
  GRand *rand = g_rand_new_with_seed (25);

  for (guint round = 0; round < 20000; round++)
    {
      DsMarkLabel labels[6];
      guint n = (guint) g_rand_int_range (rand, 1, 7);
      double right = g_rand_int_range (rand, 0, 4) == 0 ? LEFT + g_rand_double_range (rand, 20, 80) : RIGHT;

      for (guint i = 0; i < n; i++)
        labels[i] = (DsMarkLabel) {
          .line_x = g_rand_double_range (rand, LEFT, right),
          .width = g_rand_double_range (rand, 10, 60),
          .height = 14,
        };
      ds_mark_labels_layout (labels, n, LEFT, right, TOP, PAD, GAP);
      assert_sound (labels, n, LEFT, right);
      for (guint i = 0; i < n; i++)
        ck_assert_msg (labels[i].y < TOP + n * (14 + GAP), "label %u in row %g of %u", i,
                       (labels[i].y - TOP) / (14 + GAP), n);
    }
  g_rand_free (rand);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("label-layout");
  TCase *tc = tcase_create ("layout");

  tcase_add_test (tc, test_close_pair);
  tcase_add_test (tc, test_right_edge);
  tcase_add_test (tc, test_same_place);
  tcase_add_test (tc, test_random);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
