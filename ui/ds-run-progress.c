/* ds-run-progress.c: the thin bar over the page that says how far a run is
 *
 * The window's progress lies over the page, along its top edge, and moves
 * with every batch of samples.  A GtkProgressBar there cost the main loop
 * a 20-35 ms frame soon after every Start (tests/bench/ui-latency, issue
 * 29): at fraction 0 it draws no progress node, at the first sample it
 * adds one, and when the number of nodes under the overlay changes GTK
 * 4.8's render-node diff gives up on the overlay's children and repaints
 * the whole page under it (measured: 688 × 631 pixels of the Info page
 * for a bar 4 pixels high).  This bar draws exactly one node whatever its
 * fraction, a gradient with a hard stop where the filled part ends, so a
 * new fraction repaints its own few pixels; it asks for a redraw only
 * when the filled width moves by a pixel.  It takes no clicks (the page
 * under it keeps them) and tells assistive technologies what a progress
 * bar would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-graph.h"
#include "ds-run-progress.h"

/* Adwaita's OSD progress bar, as style.css had it. */
#define BAR_HEIGHT 4

struct _DsRunProgress
{
  GtkWidget parent_instance;

  double    fraction;
  int       percent;    /* what assistive technologies were last told */
};

G_DEFINE_FINAL_TYPE (DsRunProgress, ds_run_progress, GTK_TYPE_WIDGET)

static void
ds_run_progress_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? BAR_HEIGHT : 0;
}

static void
ds_run_progress_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  DsRunProgress *self = DS_RUN_PROGRESS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  GdkRGBA done, left;
  GskColorStop stops[4];

  if (width <= 0 || height <= 0)
    return;

  ds_graph_lookup_color (widget, "accent_color", &done);
  left = done;
  left.alpha = 0;
  stops[0] = (GskColorStop) { 0, rtl ? left : done };
  stops[1] = (GskColorStop) { rtl ? 1 - self->fraction : self->fraction, rtl ? left : done };
  stops[2] = (GskColorStop) { rtl ? 1 - self->fraction : self->fraction, rtl ? done : left };
  stops[3] = (GskColorStop) { 1, rtl ? done : left };
  gtk_snapshot_append_linear_gradient (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height),
                                       &GRAPHENE_POINT_INIT (0, 0), &GRAPHENE_POINT_INIT (width, 0),
                                       stops, G_N_ELEMENTS (stops));
}

static void
ds_run_progress_class_init (DsRunProgressClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = ds_run_progress_measure;
  widget_class->snapshot = ds_run_progress_snapshot;

  gtk_widget_class_set_css_name (widget_class, "runprogress");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_PROGRESS_BAR);
}

static void
ds_run_progress_init (DsRunProgress *self)
{
  self->percent = -1;
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, 100.0,
                                  -1);
  ds_run_progress_set_fraction (self, 0);
}

GtkWidget *
ds_run_progress_new (void)
{
  return g_object_new (DS_TYPE_RUN_PROGRESS, NULL);
}

void
ds_run_progress_set_fraction (DsRunProgress *self,
                              double         fraction)
{
  int width;
  int percent;

  g_return_if_fail (DS_IS_RUN_PROGRESS (self));

  fraction = isfinite (fraction) ? CLAMP (fraction, 0.0, 1.0) : 0.0;
  if (fraction == self->fraction && self->percent >= 0)
    return;

  /* A redraw only when the filled part gains or loses a pixel. */
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (lround (width * fraction) != lround (width * self->fraction) || (fraction > 0) != (self->fraction > 0))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  self->fraction = fraction;

  percent = (int) floor (fraction * 100);
  if (percent != self->percent)
    {
      self->percent = percent;
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, (double) percent,
                                      -1);
    }
}

double
ds_run_progress_get_fraction (DsRunProgress *self)
{
  g_return_val_if_fail (DS_IS_RUN_PROGRESS (self), 0);

  return self->fraction;
}
