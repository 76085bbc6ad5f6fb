/* ds-graph-axes.c: a graph's scales, grid, ticks and axis titles
 *
 * Each axis measures one quantity (DsGraphAxis).  The tables below say
 * how each looks: its title and units, how data units become the numbers
 * on its ticks, and how much room its scale leaves above the largest
 * value.  A new quantity (time, queue depth, IOPS) is a new row here and
 * in the enum; the layers never see any of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-graph-private.h"

/* HD Tune's block-size sweep: 0.5 KB (2^9) to 8 MB (2^23). */
#define BLOCK_LOG2_MIN 9
#define BLOCK_LOG2_MAX 23

#define DATE_DAY_S 86400.0

/* The vertical quantities.  Left: the axis reaches @headroom × the
 * largest value, and at least @floor.  The right axis shares the left's
 * grid lines and ends a little above its largest value
 * (DS_CHART_HEADROOM), at least @right_floor.  The rate and the latency
 * on the right are the exported pictures' rules (ds-chart-axes.h). */
static const struct {
  const char *title;        /* N_(); NULL: the rate unit */
  double      factor;       /* data to display units; 0: the rate unit's */
  double      headroom;
  double      floor;
  double      right_floor;
} y_quantities[] = {
  [DS_GRAPH_AXIS_RATE] = { NULL, 0, DS_CHART_HEADROOM, DS_CHART_RATE_FLOOR, 1 },
  [DS_GRAPH_AXIS_LATENCY] = { N_("ms"), 1000, 1.0, 1, DS_CHART_LATENCY_FLOOR_MS },
  [DS_GRAPH_AXIS_IOPS] = { N_("IOPS"), 1, 1.05, 10, 1 },
  [DS_GRAPH_AXIS_LATENCY_US] = { N_("µs"), 1e6, 1.0, 1, 1 },
  [DS_GRAPH_AXIS_COUNT] = { N_("I/Os"), 1, 1.05, 10, 1 },
  [DS_GRAPH_AXIS_NUMBER] = { "", 1, 1.05, 1, 1 },
};

/* A run's time axis reaches at least this many seconds. */
#define TIME_MIN_S 1.0
/* A latency histogram's axis (its bars are in nanoseconds) spans whole
 * decades, at least one, starting no lower than 100 ns. */
#define LATENCY_LOG_MIN_NS 1e2

gboolean
_ds_graph_axis_is_y (DsGraphAxis axis)
{
  return axis == DS_GRAPH_AXIS_RATE || axis == DS_GRAPH_AXIS_LATENCY ||
         axis == DS_GRAPH_AXIS_IOPS || axis == DS_GRAPH_AXIS_LATENCY_US ||
         axis == DS_GRAPH_AXIS_COUNT || axis == DS_GRAPH_AXIS_NUMBER;
}

static double
display_factor (const DsGraphAxes *axes,
                DsGraphAxis        axis)
{
  if (axis == DS_GRAPH_AXIS_RATE)
    return axes->units == DS_UNITS_MIB ? 1 / (1024.0 * 1024.0) : 1 / 1e6;

  return y_quantities[axis].factor;
}

/* Bytes in one unit of the position axis: GB, or GiB with the binary
 * units (as the exported picture, ds-render-transfer.c). */
static double
position_unit (const DsGraphAxes *axes)
{
  return axes->units == DS_UNITS_MIB ? 1073741824.0 : 1e9;
}

static const char *
axis_title (const DsGraphAxes *axes,
            DsGraphAxis        axis)
{
  switch (axis)
    {
    case DS_GRAPH_AXIS_POSITION:
      return axes->units == DS_UNITS_MIB ? _("Position (GiB)") : _("Position (GB)");
    /* xgettext:no-c-format */
    case DS_GRAPH_AXIS_FRACTION: return _("Position (% of capacity)");
    case DS_GRAPH_AXIS_BLOCK_SIZE: return _("Block size");
    case DS_GRAPH_AXIS_OUTSTANDING: return _("Outstanding I/Os");
    case DS_GRAPH_AXIS_SET_SIZE: return _("Working set");
    case DS_GRAPH_AXIS_RATE: return axes->units == DS_UNITS_MIB ? _("MiB/s") : _("MB/s");
    case DS_GRAPH_AXIS_LATENCY:
    case DS_GRAPH_AXIS_IOPS:
    case DS_GRAPH_AXIS_LATENCY_US:
    case DS_GRAPH_AXIS_COUNT:
      return _(y_quantities[axis].title);
    case DS_GRAPH_AXIS_NUMBER: return "";
    case DS_GRAPH_AXIS_TIME: return _("Time (s)");
    case DS_GRAPH_AXIS_DATE: return _("Date");
    case DS_GRAPH_AXIS_LATENCY_LOG: return _("Latency");
    case DS_GRAPH_AXIS_NONE:
    default:
      return "";
    }
}

/* A tick's label on the horizontal axis (a DsChartFormatFunc): "0.5K" …
 * "512K", "1M" … "8M" the unit on each tick, as the tables name the sizes;
 * numbers as ds_chart_format_tick() writes them. */
static char *
format_x_label (double   v,
                double   step,
                gpointer user_data)
{
  const DsGraphAxes *axes = user_data;
  double bytes;

  if (axes->x == DS_GRAPH_AXIS_TIME)
    return ds_chart_format_tick (v, step);
  if (axes->x == DS_GRAPH_AXIS_DATE)
    {
      g_autoptr (GDateTime) when = g_date_time_new_from_unix_local ((gint64) round (v));

      /* Hours apart: the day and the time; days apart: the date. */
      return when == NULL ? g_strdup ("") :
             g_date_time_format (when, step < DATE_DAY_S ? "%m-%d %H:%M" : "%Y-%m-%d");
    }
  if (axes->x == DS_GRAPH_AXIS_LATENCY_LOG)
    {
      /* Decades: 100 ns, 1 µs … 10 ms, 1 s. */
      double ns = round (exp2 (v));

      /* The units as the axes' titles and the values say them. */
      if (ns < 1e3)
        return g_strdup_printf ("%g %s", ns, _("ns"));
      if (ns < 1e6)
        return g_strdup_printf ("%g %s", ns / 1e3, _("µs"));
      if (ns < 1e9)
        return g_strdup_printf ("%g %s", ns / 1e6, _("ms"));
      /* Translators: seconds, after a number on an axis: "1 s" */
      return g_strdup_printf ("%g %s", ns / 1e9, _("s"));
    }
  if (axes->x == DS_GRAPH_AXIS_FRACTION)
    return ds_chart_format_tick (v * 100, step * 100);
  if (axes->x == DS_GRAPH_AXIS_OUTSTANDING)
    return g_strdup_printf ("%g", round (exp2 (v)));
  if (axes->x == DS_GRAPH_AXIS_SET_SIZE)
    {
      bytes = round (exp2 (v));
      if (bytes < 1024.0 * 1024 * 1024)
        return g_strdup_printf ("%gM", bytes / (1024 * 1024));
      return g_strdup_printf ("%gG", bytes / (1024.0 * 1024 * 1024));
    }
  if (axes->x != DS_GRAPH_AXIS_BLOCK_SIZE)
    return ds_chart_format_tick (v / position_unit (axes), step / position_unit (axes));

  bytes = exp2 (v);
  if (bytes < 1024 * 1024)
    return g_strdup_printf ("%gK", bytes / 1024);
  return g_strdup_printf ("%gM", bytes / (1024 * 1024));
}

/* A histogram's latencies: from the decade at or below its first bar's
 * lower edge to the decade above its last bar, in log2 of nanoseconds
 * (ticks one decade, log2 (10), apart). */
static double
scale_x_latency_log (GPtrArray   *layers,
                     DsGraphPlot *plot)
{
  double min_ns = G_MAXDOUBLE, max_ns = 0;

  for (guint i = 0; i < layers->len; i++)
    {
      DsSeries *series = ds_graph_layer_get_series (layers->pdata[i]);
      const DsSeriesPoint *points = series ? ds_series_get_points (series) : NULL;
      guint n = series ? ds_series_get_n_points (series) : 0;

      for (guint k = 0; k < n; k++)
        {
          min_ns = MIN (min_ns, points[k].x / 2);
          max_ns = MAX (max_ns, points[k].x);
        }
    }

  if (!(max_ns > 0))
    {
      min_ns = 1e3;
      max_ns = 1e6;
    }
  min_ns = pow (10, floor (log10 (MAX (min_ns, LATENCY_LOG_MIN_NS))));
  max_ns = pow (10, ceil (log10 (MAX (max_ns, min_ns * 10) * 1.0001)));

  plot->log2_x = TRUE;
  plot->x_min = log2 (min_ns);
  plot->x_max = log2 (max_ns);
  return log2 (10);
}

/* Dates: from the first point to the last (an hour around a single one),
 * with a little room at each end, ticks a round number of minutes, hours, days,
 * weeks, months or years apart (months and years as 30 and 365 days, so
 * a tick may fall a day or two beside the 1st). */
static double
scale_x_date (GPtrArray   *layers,
              DsGraphPlot *plot)
{
  static const double steps_s[] = {
    60, 300, 600, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, DATE_DAY_S, 2 * DATE_DAY_S, 7 * DATE_DAY_S,
    14 * DATE_DAY_S, 30 * DATE_DAY_S, 91 * DATE_DAY_S, 182 * DATE_DAY_S, 365 * DATE_DAY_S,
    2 * 365 * DATE_DAY_S, 5 * 365 * DATE_DAY_S, 10 * 365 * DATE_DAY_S,
  };
  double first = G_MAXDOUBLE, last = -G_MAXDOUBLE, span, step = steps_s[G_N_ELEMENTS (steps_s) - 1];

  for (guint i = 0; i < layers->len; i++)
    {
      DsSeries *series = ds_graph_layer_get_series (layers->pdata[i]);
      const DsSeriesPoint *points = series ? ds_series_get_points (series) : NULL;
      guint n = series ? ds_series_get_n_points (series) : 0;

      for (guint k = 0; k < n; k++)
        {
          first = MIN (first, points[k].x);
          last = MAX (last, points[k].x);
        }
    }
  if (first > last)
    first = last = (double) g_get_real_time () / G_USEC_PER_SEC;
  if (last - first < 60)
    {
      first -= 1800;
      last += 1800;
    }
  span = last - first;
  plot->log2_x = FALSE;
  plot->x_min = first - span * 0.04;
  plot->x_max = last + span * 0.04;
  /* Dates are wide: half as many ticks as numbers. */
  for (guint i = 0; i < G_N_ELEMENTS (steps_s); i++)
    if ((plot->x_max - plot->x_min) / steps_s[i] <= DS_CHART_X_TICKS / 2)
      {
        step = steps_s[i];
        break;
      }
  return step;
}

/* A log2 axis of powers of two from 2^@log2_min to the power at or above
 * the layers' largest x (or x_max, a run's planned end), at least
 * 2^(@log2_min + 1); a tick on each power, or every other one past 12. */
static double
scale_x_log2 (const DsGraphAxes *axes,
              GPtrArray         *layers,
              DsGraphPlot       *plot,
              double             log2_min)
{
  double max = MAX (axes->x_max, exp2 (log2_min + 1));

  for (guint i = 0; i < layers->len; i++)
    max = MAX (max, ds_graph_layer_get_x_extent (layers->pdata[i]));

  plot->log2_x = TRUE;
  plot->x_min = log2_min;
  plot->x_max = ceil (log2 (max) - 1e-9);
  return plot->x_max - plot->x_min > 12 ? 2 : 1;
}

/* The x range, in plot units (bytes, or log2 bytes); returns the step. */
static double
scale_x (const DsGraphAxes *axes,
         GPtrArray         *layers,
         DsGraphPlot       *plot)
{
  double x_max = axes->x_max;

  if (axes->x == DS_GRAPH_AXIS_BLOCK_SIZE)
    {
      plot->log2_x = TRUE;
      plot->x_min = BLOCK_LOG2_MIN;
      plot->x_max = BLOCK_LOG2_MAX;
      return 1;
    }

  if (axes->x == DS_GRAPH_AXIS_LATENCY_LOG)
    return scale_x_latency_log (layers, plot);
  if (axes->x == DS_GRAPH_AXIS_OUTSTANDING)
    return scale_x_log2 (axes, layers, plot, 0);
  if (axes->x == DS_GRAPH_AXIS_SET_SIZE)
    return scale_x_log2 (axes, layers, plot, 24);
  if (axes->x == DS_GRAPH_AXIS_DATE)
    return scale_x_date (layers, plot);

  /* Time with a length set (the Disk Monitor's window, a workload step's
   * run time): 0 to x_max while the points fit, then the last x_max
   * seconds, scrolling. */
  if (axes->x == DS_GRAPH_AXIS_TIME && x_max > 0)
    {
      double newest = 0;

      for (guint i = 0; i < layers->len; i++)
        newest = MAX (newest, ds_graph_layer_get_x_extent (layers->pdata[i]));
      plot->log2_x = FALSE;
      plot->x_max = MAX (newest, x_max);
      plot->x_min = plot->x_max - x_max;
      return ds_chart_nice_step (x_max, DS_CHART_X_TICKS);
    }

  /* Time without one: as far as the points go, from 0. */
  if (axes->x == DS_GRAPH_AXIS_TIME)
    {
      /* The run's length when it is known (a run in progress fills it). */
      x_max = MAX (x_max, TIME_MIN_S);
      for (guint i = 0; i < layers->len; i++)
        x_max = MAX (x_max, ds_graph_layer_get_x_extent (layers->pdata[i]));
      plot->log2_x = FALSE;
      plot->x_min = 0;
      plot->x_max = x_max;
      return ds_chart_nice_step (x_max, DS_CHART_X_TICKS);
    }

  if (axes->x == DS_GRAPH_AXIS_FRACTION)
    {
      plot->log2_x = FALSE;
      plot->x_min = 0;
      plot->x_max = 1;
      return 0.1;
    }

  if (!(x_max > 0))
    {
      x_max = 1e9;
      for (guint i = 0; i < layers->len; i++)
        x_max = MAX (x_max, ds_graph_layer_get_x_extent (layers->pdata[i]));
    }

  plot->log2_x = FALSE;
  plot->x_min = 0;
  plot->x_max = x_max;
  return ds_chart_nice_step (x_max / position_unit (axes), DS_CHART_X_TICKS) * position_unit (axes);
}

/* The largest value the layers on @side need, in display units. */
static double
y_extent (GPtrArray   *layers,
          DsGraphSide  side,
          double       factor)
{
  double max = 0;

  for (guint i = 0; i < layers->len; i++)
    if (ds_graph_layer_get_y_axis (layers->pdata[i]) == side)
      max = MAX (max, ds_graph_layer_get_y_extent (layers->pdata[i]) * factor);

  return max;
}

void
_ds_graph_axes_scale (const DsGraphAxes *axes,
                      GPtrArray         *layers,
                      DsGraphPlot       *plot,
                      DsGraphSteps      *ret_steps)
{
  DsGraphAxis left = axes->y[DS_GRAPH_SIDE_LEFT];
  DsGraphAxis right = axes->y[DS_GRAPH_SIDE_RIGHT];
  DsChartScale scale;
  double max;

  ret_steps->x = scale_x (axes, layers, plot);

  plot->y_factor[DS_GRAPH_SIDE_LEFT] = display_factor (axes, left);
  max = y_extent (layers, DS_GRAPH_SIDE_LEFT, plot->y_factor[DS_GRAPH_SIDE_LEFT]);
  ds_chart_scale_nice (MAX (max * y_quantities[left].headroom, y_quantities[left].floor),
                       DS_CHART_Y_TICKS, &scale);
  plot->y_max[DS_GRAPH_SIDE_LEFT] = scale.max;
  ret_steps->y[DS_GRAPH_SIDE_LEFT] = scale.step;

  ret_steps->y[DS_GRAPH_SIDE_RIGHT] = 0;
  plot->y_factor[DS_GRAPH_SIDE_RIGHT] = 1;
  plot->y_max[DS_GRAPH_SIDE_RIGHT] = 1;
  if (right != DS_GRAPH_AXIS_NONE)
    {
      /* Same number of intervals as the left axis, so the grid is shared. */
      guint n_intervals = (guint) round (scale.max / scale.step);

      plot->y_factor[DS_GRAPH_SIDE_RIGHT] = display_factor (axes, right);
      max = y_extent (layers, DS_GRAPH_SIDE_RIGHT, plot->y_factor[DS_GRAPH_SIDE_RIGHT]);
      ds_chart_scale_shared (MAX (max * DS_CHART_HEADROOM, y_quantities[right].right_floor),
                             n_intervals, &scale);
      plot->y_max[DS_GRAPH_SIDE_RIGHT] = scale.max;
      ret_steps->y[DS_GRAPH_SIDE_RIGHT] = scale.step;
    }
}

void
_ds_graph_axes_draw_above (const DsGraphAxes  *axes,
                           GtkWidget          *widget,
                           cairo_t            *cr,
                           const DsGraphPlot  *plot,
                           const guint        *n_above,
                           const DsChartLook  *look)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(PangoLayout) layout = NULL;

  for (guint side = 0; side < DS_GRAPH_N_SIDES; side++)
    {
      DsGraphAxis axis = axes->y[side];

      if (n_above[side] == 0 || axis == DS_GRAPH_AXIS_NONE)
        continue;

      if (text->len > 0)
        g_string_append (text, "   ");
      /* Translators: points above the top of an axis: "▲ 23 above 2 ms" */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "▲ %u above %g %s",
                                                 "▲ %u above %g %s", n_above[side]),
                              n_above[side], plot->y_max[side], axis_title (axes, axis));
    }

  if (text->len == 0)
    return;

  layout = gtk_widget_create_pango_layout (widget, NULL);
  ds_chart_set_color (cr, &look->text, 1);
  ds_chart_draw_text (cr, layout, text->str, plot->left + 4, plot->top - 6, 0, 1);
}

void
_ds_graph_axes_draw (const DsGraphAxes  *axes,
                     GtkWidget          *widget,
                     cairo_t            *cr,
                     const DsGraphPlot  *plot,
                     const DsGraphSteps *steps,
                     const DsChartLook  *look)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  DsChartArea area = { plot->left, plot->top, plot->width, plot->height };
  DsChartAxis y_axis = {
    .scale = { 0, plot->y_max[DS_GRAPH_SIDE_LEFT], steps->y[DS_GRAPH_SIDE_LEFT] },
    .edge = DS_CHART_EDGE_LEFT,
    .grid = TRUE,
  };
  DsChartAxis right_axis = {
    .scale = { 0, plot->y_max[DS_GRAPH_SIDE_RIGHT], steps->y[DS_GRAPH_SIDE_RIGHT] },
    .edge = DS_CHART_EDGE_RIGHT,
  };
  /* From the first round value: a time axis scrolls. */
  DsChartAxis x_axis = {
    .scale = { plot->x_min, plot->x_max, steps->x },
    .edge = DS_CHART_EDGE_BOTTOM,
    .grid = TRUE,
    .format = format_x_label,
    .format_data = (gpointer) axes,
  };
  gboolean right = steps->y[DS_GRAPH_SIDE_RIGHT] > 0;

  ds_chart_draw_axis (cr, layout, &area, &y_axis, look);
  if (right)
    ds_chart_draw_axis (cr, layout, &area, &right_axis, look);
  ds_chart_draw_axis (cr, layout, &area, &x_axis, look);
  /* Axis titles with their units, and the frame. */
  ds_chart_draw_titles (cr, layout, &area, axis_title (axes, axes->x),
                        axis_title (axes, axes->y[DS_GRAPH_SIDE_LEFT]),
                        right ? axis_title (axes, axes->y[DS_GRAPH_SIDE_RIGHT]) : NULL, look);
  ds_chart_draw_frame (cr, &area, look);
}

const char *
_ds_graph_axes_unit (const DsGraphAxes *axes,
                     DsGraphSide        side)
{
  return axis_title (axes, axes->y[side]);
}

const char *
_ds_graph_axes_x_title (const DsGraphAxes *axes)
{
  return axis_title (axes, axes->x);
}
