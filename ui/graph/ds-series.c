/* ds-series.c: the numbers behind one curve or one cloud of dots
 *
 * Data and drawing are apart (sysprof's xy-series): the series only holds
 * points and running extremes; DsGraph scales and draws them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-series.h"

#include "ds-chart-axes.h"

struct _DsSeries
{
  GObject  parent_instance;

  GArray  *points;   /* DsSeriesPoint */
  double   min_y;
  double   max_y;
  double   max_x;
  guint    n_good;
  /* ds_series_get_y_percentile()'s last answer, valid while the series
   * still has cached_n points. */
  double   cached_percent;
  double   cached_value;
  guint    cached_n;
};

G_DEFINE_FINAL_TYPE (DsSeries, ds_series, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ds_series_finalize (GObject *object)
{
  DsSeries *self = (DsSeries *) object;

  g_clear_pointer (&self->points, g_array_unref);

  G_OBJECT_CLASS (ds_series_parent_class)->finalize (object);
}

static void
ds_series_class_init (DsSeriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ds_series_finalize;

  /**
   * DsSeries::changed:
   *
   * Points were added or removed.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
ds_series_init (DsSeries *self)
{
  self->points = g_array_new (FALSE, FALSE, sizeof (DsSeriesPoint));
}

DsSeries *
ds_series_new (void)
{
  return g_object_new (DS_TYPE_SERIES, NULL);
}

void
ds_series_append (DsSeries *self,
                  double    x,
                  double    y,
                  int       error)
{
  DsSeriesPoint point = { x, y, error };

  g_return_if_fail (DS_IS_SERIES (self));

  g_array_append_val (self->points, point);

  self->max_x = self->points->len == 1 ? x : MAX (self->max_x, x);

  if (error != 0)
    return;

  if (self->n_good++ == 0)
    {
      self->min_y = y;
      self->max_y = y;
    }
  else
    {
      self->min_y = MIN (self->min_y, y);
      self->max_y = MAX (self->max_y, y);
    }
}

void
ds_series_clear (DsSeries *self)
{
  g_return_if_fail (DS_IS_SERIES (self));

  if (self->points->len == 0)
    return;

  g_array_set_size (self->points, 0);
  self->min_y = self->max_y = self->max_x = 0;
  self->n_good = 0;
  self->cached_n = 0;

  ds_series_changed (self);
}

void
ds_series_changed (DsSeries *self)
{
  g_return_if_fail (DS_IS_SERIES (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

guint
ds_series_get_n_points (DsSeries *self)
{
  g_return_val_if_fail (DS_IS_SERIES (self), 0);

  return self->points->len;
}

const DsSeriesPoint *
ds_series_get_points (DsSeries *self)
{
  g_return_val_if_fail (DS_IS_SERIES (self), NULL);

  return (const DsSeriesPoint *) (gpointer) self->points->data;
}

double
ds_series_get_min_y (DsSeries *self)
{
  g_return_val_if_fail (DS_IS_SERIES (self), 0);

  return self->min_y;
}

double
ds_series_get_max_y (DsSeries *self)
{
  g_return_val_if_fail (DS_IS_SERIES (self), 0);

  return self->max_y;
}

double
ds_series_get_max_x (DsSeries *self)
{
  g_return_val_if_fail (DS_IS_SERIES (self), 0);

  return self->max_x;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The @percent-th percentile of the y values of the points that did not
 * fail (0 when there are none).  Sorting 10 000 values takes about a
 * millisecond, so the answer is kept until the series changes. */
double
ds_series_get_y_percentile (DsSeries *self,
                            double    percent)
{
  g_autoptr (GArray) values = NULL;

  g_return_val_if_fail (DS_IS_SERIES (self), 0);

  if (self->n_good == 0)
    return 0;
  if (self->cached_n == self->points->len && self->cached_percent == percent)
    return self->cached_value;

  values = g_array_sized_new (FALSE, FALSE, sizeof (double), self->n_good);
  for (guint i = 0; i < self->points->len; i++)
    {
      const DsSeriesPoint *p = &g_array_index (self->points, DsSeriesPoint, i);

      if (p->error == 0)
        g_array_append_val (values, p->y);
    }
  g_array_sort (values, compare_double);

  self->cached_percent = percent;
  self->cached_value = ds_chart_percentile ((const double *) (gpointer) values->data, values->len, percent);
  self->cached_n = self->points->len;

  return self->cached_value;
}
