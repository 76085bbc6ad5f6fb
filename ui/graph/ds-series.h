/* ds-series.h: the numbers behind one curve or one cloud of dots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
  double x;
  double y;
  int    error;   /* errno of a failed point (drawn as a red tick), else 0 */
} DsSeriesPoint;

#define DS_TYPE_SERIES (ds_series_get_type ())
G_DECLARE_FINAL_TYPE (DsSeries, ds_series, DS, SERIES, GObject)

DsSeries            *ds_series_new          (void);
/* Appends without notifying: call ds_series_changed() after a batch. */
void                 ds_series_append       (DsSeries *self,
                                             double    x,
                                             double    y,
                                             int       error);
void                 ds_series_clear        (DsSeries *self);
/* Emits "changed" once. */
void                 ds_series_changed      (DsSeries *self);

guint                ds_series_get_n_points (DsSeries *self);
const DsSeriesPoint *ds_series_get_points   (DsSeries *self);
/* Running extremes over the points that did not fail (0 when empty). */
double               ds_series_get_min_y    (DsSeries *self);
double               ds_series_get_max_y    (DsSeries *self);
double               ds_series_get_max_x    (DsSeries *self);
double               ds_series_get_y_percentile (DsSeries *self,
                                                 double    percent);

G_END_DECLS
