/* ds-graph.c: the transfer-rate / access-time / block-size plot
 *
 * The graph only scales and draws: the numbers live in DsSeries objects
 * (sysprof's line layer over its xy series).  Everything is drawn in
 * snapshot() through cairo, with colours from the theme so dark and
 * high-contrast modes work.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ds-graph.h"

/* Room for the axis labels around the plot area, in pixels. */
#define MARGIN_LEFT   64
#define MARGIN_RIGHT  64
#define MARGIN_TOP    28
#define MARGIN_BOTTOM 40

/* HD Tune's block-size sweep: 0.5 KB (2^9) to 8 MB (2^23). */
#define BLOCK_LOG2_MIN 9
#define BLOCK_LOG2_MAX 23

struct _DsGraph
{
  GtkWidget    parent_instance;

  DsSeries    *read;
  DsSeries    *write;
  DsSeries    *access;
  /* Scatter mode: one cloud per group (Random Access: per transfer size),
   * each in its own colour with its own legend entry. */
  GPtrArray   *groups;            /* DsSeries */
  GStrv        group_labels;

  DsGraphMode  mode;
  DsUnits      units;
  double       x_max;
};

G_DEFINE_FINAL_TYPE (DsGraph, ds_graph, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODE,
  PROP_UNITS,
  PROP_X_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
ds_graph_mode_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { DS_GRAPH_TRANSFER, "DS_GRAPH_TRANSFER", "transfer" },
        { DS_GRAPH_SCATTER, "DS_GRAPH_SCATTER", "scatter" },
        { DS_GRAPH_BLOCK_SIZE, "DS_GRAPH_BLOCK_SIZE", "block-size" },
        { 0, NULL, NULL }
      };
      GType type = g_enum_register_static ("DsGraphMode", values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* 1, 2, 2.5, 5 × 10^n: the smallest "round" step that gives at most
 * @max_ticks intervals over [0, @max]. */
static double
nice_step (double max,
           int    max_ticks)
{
  static const double mantissas[] = { 1, 2, 2.5, 5, 10 };
  double raw, magnitude;

  if (!(max > 0))
    return 1;

  raw = max / max_ticks;
  magnitude = pow (10, floor (log10 (raw)));

  for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
    if (mantissas[i] * magnitude >= raw)
      return mantissas[i] * magnitude;

  return 10 * magnitude;
}

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback,
              GdkRGBA    *ret_color)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  if (!gtk_style_context_lookup_color (context, name, ret_color))
    gdk_rgba_parse (ret_color, fallback);
}

static void
draw_text (GtkWidget  *widget,
           cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      x_align,   /* 0 left, 0.5 centre, 1 right of x */
           double      y_align)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, round (x - width * x_align), round (y - height * y_align));
  pango_cairo_show_layout (cr, layout);
}

typedef struct {
  double left, top, width, height;   /* the plot area */
  double x_min, x_max;               /* data units (bytes, or log2 bytes) */
  double y_max;                      /* left axis, display units */
  double y2_max;                     /* right axis, ms */
  gboolean log_x;
} Plot;

static inline double
plot_x (const Plot *plot,
        double      x)
{
  if (plot->log_x)
    x = log2 (MAX (x, 1));

  return plot->left + (x - plot->x_min) / (plot->x_max - plot->x_min) * plot->width;
}

static inline double
plot_y (const Plot *plot,
        double      max,
        double      y)
{
  return plot->top + plot->height - CLAMP (y / max, 0, 1) * plot->height;
}

static double
rate_divisor (DsUnits units)
{
  return units == DS_UNITS_MIB ? 1024.0 * 1024.0 : 1e6;
}

static char *
format_block_label (double log2_bytes)
{
  double bytes = exp2 (log2_bytes);

  /* "0.5K" … "512K", "1M" … "8M": the unit on each tick, as the table
   * names the sizes. */
  if (bytes < 1024 * 1024)
    return g_strdup_printf ("%gK", bytes / 1024);
  return g_strdup_printf ("%gM", bytes / (1024 * 1024));
}

static void
draw_line_series (DsGraph       *self,
                  cairo_t       *cr,
                  const Plot    *plot,
                  DsSeries      *series,
                  const GdkRGBA *color,
                  double         divisor,
                  gboolean       fill)
{
  const DsSeriesPoint *points;
  guint n_points;
  gboolean pen_down = FALSE;
  double first_x = 0, last_x = 0;
  double bottom = plot->top + plot->height;

  if (series == NULL || (n_points = ds_series_get_n_points (series)) == 0)
    return;

  points = ds_series_get_points (series);

  /* The curve, broken where a point failed. */
  cairo_new_path (cr);
  for (guint i = 0; i < n_points; i++)
    {
      double x, y;

      if (points[i].error != 0)
        {
          pen_down = FALSE;
          continue;
        }

      x = plot_x (plot, points[i].x);
      y = plot_y (plot, plot->y_max, points[i].y / divisor);

      if (!pen_down)
        {
          cairo_move_to (cr, x, y);
          if (first_x == 0 && last_x == 0)
            first_x = x;
        }
      else
        cairo_line_to (cr, x, y);

      pen_down = TRUE;
      last_x = x;
    }

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width (cr, 2);
  gdk_cairo_set_source_rgba (cr, color);

  if (fill && n_points > 1)
    {
      /* A light wash under the curve (only for one unbroken run). */
      cairo_path_t *path = cairo_copy_path (cr);

      cairo_stroke (cr);

      cairo_append_path (cr, path);
      cairo_path_destroy (path);
      cairo_line_to (cr, last_x, bottom);
      cairo_line_to (cr, first_x, bottom);
      cairo_close_path (cr);
      cairo_set_source_rgba (cr, color->red, color->green, color->blue,
                             color->alpha * 0.15);
      cairo_fill (cr);
    }
  else
    cairo_stroke (cr);

  /* A single point has no line: show it as a dot. */
  if (n_points == 1 && points[0].error == 0)
    {
      gdk_cairo_set_source_rgba (cr, color);
      cairo_arc (cr, plot_x (plot, points[0].x),
                 plot_y (plot, plot->y_max, points[0].y / divisor), 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
draw_error_ticks (DsGraph       *self,
                  cairo_t       *cr,
                  const Plot    *plot,
                  DsSeries      *series,
                  const GdkRGBA *color)
{
  const DsSeriesPoint *points;
  guint n_points;
  double bottom = plot->top + plot->height;

  if (series == NULL || (n_points = ds_series_get_n_points (series)) == 0)
    return;

  points = ds_series_get_points (series);

  for (guint i = 0; i < n_points; i++)
    {
      double x;

      if (points[i].error == 0)
        continue;

      x = round (plot_x (plot, points[i].x)) + 0.5;

      /* A faint band over the whole height, and a strong tick at the axis. */
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, 0.25);
      cairo_rectangle (cr, x - 1.5, plot->top, 3, plot->height);
      cairo_fill (cr);

      gdk_cairo_set_source_rgba (cr, color);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, bottom + 6);
      cairo_line_to (cr, x, bottom - 12);
      cairo_stroke (cr);
    }
}

/* Thousands of dots: set pixels in an image surface and paint it once,
 * instead of filling thousands of antialiased rectangles (which costs
 * milliseconds a frame at 10 000 dots). */
static void
draw_dots (DsGraph       *self,
           cairo_t       *cr,
           const Plot    *plot,
           DsSeries      *series,
           const GdkRGBA *color,
           double         max)
{
  const DsSeriesPoint *points;
  cairo_surface_t *surface;
  guint n_points;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int width, height, stride, size;
  guint32 pixel;
  guint8 *data;

  if (series == NULL || (n_points = ds_series_get_n_points (series)) == 0)
    return;

  width = (int) ceil (plot->width * scale);
  height = (int) ceil (plot->height * scale);
  if (width <= 0 || height <= 0)
    return;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  /* Premultiplied ARGB in native byte order, as cairo wants it. */
  pixel = ((guint32) (color->alpha * 255) << 24) |
          ((guint32) (color->red * color->alpha * 255) << 16) |
          ((guint32) (color->green * color->alpha * 255) << 8) |
          ((guint32) (color->blue * color->alpha * 255));

  /* Smaller dots when there are many, so the cloud keeps its shape. */
  size = (n_points > 2000 ? 2 : 3) * scale;

  points = ds_series_get_points (series);
  for (guint i = 0; i < n_points; i++)
    {
      int x = (int) ((plot_x (plot, points[i].x) - plot->left) * scale) - size / 2;
      int y = MAX ((int) ((plot_y (plot, max, points[i].y * 1000) - plot->top) * scale) - size / 2, 0);
      int x1 = MIN (x + size, width), y1 = MIN (y + size, height);

      for (int row = MAX (y, 0); row < y1; row++)
        {
          guint32 *line = (guint32 *) (gpointer) (data + (gsize) row * stride);

          for (int column = MAX (x, 0); column < x1; column++)
            line[column] = pixel;
        }
    }

  cairo_surface_mark_dirty (surface);
  cairo_surface_set_device_scale (surface, scale, scale);
  cairo_set_source_surface (cr, surface, plot->left, plot->top);
  cairo_paint (cr);
  cairo_surface_destroy (surface);
}

/* GNOME's palette (libadwaita's named colours), one per scatter group. */
static const struct {
  const char *name;
  const char *fallback;
} group_palette[] = {
  { "blue_3", "#3584e4" },
  { "green_5", "#26a269" },
  { "yellow_5", "#e5a50a" },
  { "red_3", "#e01b24" },
  { "purple_3", "#9141ac" },
  { "orange_4", "#e66100" },
  { "brown_3", "#986a44" },
};

static void
group_color (GtkWidget *widget,
             guint      index,
             GdkRGBA   *ret_color)
{
  guint i = index % G_N_ELEMENTS (group_palette);

  lookup_color (widget, group_palette[i].name, group_palette[i].fallback, ret_color);
}

static void
draw_legend (DsGraph    *self,
             cairo_t    *cr,
             const Plot *plot,
             const char *const *labels,
             const GdkRGBA *const *colors,
             guint       n_items,
             const GdkRGBA *text)
{
  double x = plot->left + plot->width;

  for (guint i = n_items; i-- > 0;)
    {
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                                      labels[i]);
      int width, height;

      pango_layout_get_pixel_size (layout, &width, &height);
      x -= width;
      gdk_cairo_set_source_rgba (cr, text);
      cairo_move_to (cr, x, plot->top - height - 6);
      pango_cairo_show_layout (cr, layout);

      x -= 16;
      gdk_cairo_set_source_rgba (cr, colors[i]);
      cairo_rectangle (cr, x, plot->top - height / 2.0 - 6 - 5, 10, 10);
      cairo_fill (cr);
      x -= 16;
    }
}

static void
ds_graph_snapshot (GtkWidget   *widget,
                   GtkSnapshot *snapshot)
{
  DsGraph *self = (DsGraph *) widget;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA fg, read_color, write_color, access_color, error_color;
  GdkRGBA grid_color, text_color;
  double divisor = rate_divisor (self->units);
  const char *rate_unit = self->units == DS_UNITS_MIB ? _("MiB/s") : _("MB/s");
  double y_step, y2_step = 0, x_step;
  gboolean right_axis;
  cairo_t *cr;
  Plot plot;

  if (width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  lookup_color (widget, "accent_color", "#1c71d8", &read_color);
  lookup_color (widget, "success_color", "#26a269", &write_color);
  lookup_color (widget, "warning_color", "#e5a50a", &access_color);
  lookup_color (widget, "error_color", "#c01c28", &error_color);
  grid_color = fg;
  grid_color.alpha *= 0.12;
  text_color = fg;
  text_color.alpha *= 0.75;

  right_axis = self->mode == DS_GRAPH_TRANSFER;

  plot = (Plot) {
    .left = MARGIN_LEFT,
    .top = MARGIN_TOP,
    .width = width - MARGIN_LEFT - (right_axis ? MARGIN_RIGHT : 24),
    .height = height - MARGIN_TOP - MARGIN_BOTTOM,
  };

  /* Scales: round numbers just above the largest value seen. */
  if (self->mode == DS_GRAPH_BLOCK_SIZE)
    {
      plot.log_x = TRUE;
      plot.x_min = BLOCK_LOG2_MIN;
      plot.x_max = BLOCK_LOG2_MAX;
      x_step = 1;
    }
  else
    {
      double x_max = self->x_max;

      if (!(x_max > 0))
        {
          x_max = MAX (self->read ? ds_series_get_max_x (self->read) : 0,
                       self->access ? ds_series_get_max_x (self->access) : 0);
          x_max = MAX (x_max, 1e9);
        }
      plot.x_min = 0;
      plot.x_max = x_max;
      x_step = nice_step (x_max / 1e9, 10) * 1e9;
    }

  if (self->mode == DS_GRAPH_SCATTER)
    {
      double max_ms = self->access ? ds_series_get_max_y (self->access) * 1000 : 0;

      /* As the Benchmark page's dots: scaled to the bulk (99 % of each
       * transfer size's accesses, doubled), the rare slow one on the top
       * edge. */
      for (guint i = 0; self->groups != NULL && i < self->groups->len; i++)
        {
          DsSeries *group = self->groups->pdata[i];
          double group_ms = ds_series_get_max_y (group) * 1000;

          if (ds_series_get_n_points (group) >= 100)
            group_ms = MIN (group_ms, ds_series_get_y_percentile (group, 99.0) * 1000 * 2);
          max_ms = MAX (max_ms, group_ms);
        }

      y_step = nice_step (MAX (max_ms, 1), 8);
      plot.y_max = ceil (MAX (max_ms, 1) / y_step) * y_step;
    }
  else
    {
      double max_rate = 0;

      if (self->read != NULL)
        max_rate = MAX (max_rate, ds_series_get_max_y (self->read) / divisor);
      if (self->write != NULL)
        max_rate = MAX (max_rate, ds_series_get_max_y (self->write) / divisor);
      max_rate = MAX (max_rate * 1.05, 10);

      y_step = nice_step (max_rate, 8);
      plot.y_max = ceil (max_rate / y_step) * y_step;
    }

  if (right_axis)
    {
      /* Scaled to the bulk of the dots, not to the one slowest access: a
       * single 4 ms hiccup among 60 µs reads would press every other dot
       * onto the axis.  Dots above the top are drawn on the top edge. */
      double max_ms = self->access ? ds_series_get_max_y (self->access) * 1000 : 0;
      guint n_ticks = (guint) round (plot.y_max / y_step);

      if (self->access != NULL && ds_series_get_n_points (self->access) >= 100)
        max_ms = MIN (max_ms, ds_series_get_y_percentile (self->access, 99.0) * 1000 * 2);

      /* Same number of intervals as the left axis, so the grid is shared. */
      max_ms = MAX (max_ms * 1.05, 0.1);
      y2_step = nice_step (max_ms, n_ticks);
      while (y2_step * n_ticks < max_ms)
        y2_step = nice_step (y2_step * n_ticks * 1.01, n_ticks);
      plot.y2_max = y2_step * n_ticks;
    }

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* Grid and tick labels. */
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i * y_step <= plot.y_max * 1.0001; i++)
    {
      double v = i * y_step;
      double y = round (plot_y (&plot, plot.y_max, v)) + 0.5;
      g_autofree char *label = g_strdup_printf ("%g", v);

      gdk_cairo_set_source_rgba (cr, &grid_color);
      cairo_move_to (cr, plot.left, y);
      cairo_line_to (cr, plot.left + plot.width, y);
      cairo_stroke (cr);

      gdk_cairo_set_source_rgba (cr, &text_color);
      draw_text (widget, cr, label, plot.left - 8, y, 1, 0.5);

      if (right_axis)
        {
          g_autofree char *label2 = g_strdup_printf ("%g", i * y2_step);

          draw_text (widget, cr, label2, plot.left + plot.width + 8, y, 0, 0.5);
        }
    }

  for (double v = plot.x_min; v <= plot.x_max * 1.0001; v += x_step)
    {
      double x = round (plot.left + (v - plot.x_min) / (plot.x_max - plot.x_min) * plot.width) + 0.5;
      g_autofree char *label = NULL;

      if (plot.log_x)
        label = format_block_label (v);
      else
        label = g_strdup_printf ("%g", v / 1e9);

      gdk_cairo_set_source_rgba (cr, &grid_color);
      cairo_move_to (cr, x, plot.top);
      cairo_line_to (cr, x, plot.top + plot.height);
      cairo_stroke (cr);

      gdk_cairo_set_source_rgba (cr, &text_color);
      draw_text (widget, cr, label, x, plot.top + plot.height + 6, 0.5, 0);
    }

  /* Axis titles with their units. */
  gdk_cairo_set_source_rgba (cr, &text_color);
  draw_text (widget, cr,
             plot.log_x ? _("Block size") : _("Position (GB)"),
             plot.left + plot.width / 2, height - 2, 0.5, 1);
  draw_text (widget, cr,
             self->mode == DS_GRAPH_SCATTER ? _("ms") : rate_unit,
             plot.left - 8, plot.top - 8, 1, 1);
  if (right_axis)
    draw_text (widget, cr, _("ms"), plot.left + plot.width + 8, plot.top - 8, 0, 1);

  /* The frame. */
  gdk_cairo_set_source_rgba (cr, &grid_color);
  cairo_rectangle (cr, plot.left + 0.5, plot.top + 0.5, plot.width - 1, plot.height - 1);
  cairo_stroke (cr);

  /* Data, clipped to the plot area. */
  cairo_save (cr);
  cairo_rectangle (cr, plot.left, plot.top - 4, plot.width, plot.height + 8);
  cairo_clip (cr);

  switch (self->mode)
    {
    case DS_GRAPH_TRANSFER:
      draw_dots (self, cr, &plot, self->access, &access_color, plot.y2_max);
      draw_line_series (self, cr, &plot, self->write, &write_color, divisor, TRUE);
      draw_line_series (self, cr, &plot, self->read, &read_color, divisor, TRUE);
      break;

    case DS_GRAPH_SCATTER:
      draw_dots (self, cr, &plot, self->access, &access_color, plot.y_max);
      /* The last group first: the small transfers' quick accesses, dense
       * near the axis, stay on top. */
      for (guint i = self->groups ? self->groups->len : 0; i-- > 0;)
        {
          GdkRGBA color;

          group_color (widget, i, &color);
          draw_dots (self, cr, &plot, self->groups->pdata[i], &color, plot.y_max);
        }
      break;

    case DS_GRAPH_BLOCK_SIZE:
      draw_line_series (self, cr, &plot, self->read, &read_color, divisor, FALSE);
      draw_line_series (self, cr, &plot, self->write, &write_color, divisor, FALSE);
      break;

    default:
      g_assert_not_reached ();
    }

  cairo_restore (cr);

  draw_error_ticks (self, cr, &plot, self->read, &error_color);
  draw_error_ticks (self, cr, &plot, self->write, &error_color);

  /* Legend, above the plot on the right. */
  {
    guint n_groups = self->mode == DS_GRAPH_SCATTER && self->groups ? self->groups->len : 0;
    g_autofree const char **labels = g_new0 (const char *, 3 + n_groups);
    g_autofree const GdkRGBA **colors = g_new0 (const GdkRGBA *, 3 + n_groups);
    g_autofree GdkRGBA *group_colors = g_new0 (GdkRGBA, n_groups + 1);
    guint n = 0;

    if (self->mode != DS_GRAPH_SCATTER)
      {
        guint n_read = self->read ? ds_series_get_n_points (self->read) : 0;
        guint n_write = self->write ? ds_series_get_n_points (self->write) : 0;
        /* Before any run, the block-size graph names both curves it will
         * draw; after, only those it drew. */
        gboolean both = self->mode == DS_GRAPH_BLOCK_SIZE && n_read == 0 && n_write == 0;

        if (self->read != NULL && (both || n_read > 0))
          {
            labels[n] = _("Read");
            colors[n++] = &read_color;
          }
        if (self->write != NULL && (both || n_write > 0))
          {
            labels[n] = _("Write");
            colors[n++] = &write_color;
          }
      }
    if (self->access != NULL && self->mode != DS_GRAPH_BLOCK_SIZE)
      {
        labels[n] = _("Access time");
        colors[n++] = &access_color;
      }
    for (guint i = 0; i < n_groups; i++)
      {
        group_color (widget, i, &group_colors[i]);
        labels[n] = self->group_labels[i];
        colors[n++] = &group_colors[i];
      }

    draw_legend (self, cr, &plot, labels, colors, n, &text_color);
  }

  cairo_destroy (cr);
}

static void
ds_graph_measure (GtkWidget      *widget,
                  GtkOrientation  orientation,
                  int             for_size,
                  int            *minimum,
                  int            *natural,
                  int            *minimum_baseline,
                  int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 640;
    }
  else
    {
      *minimum = 200;
      *natural = 360;
    }
}

static void
series_changed_cb (DsGraph  *self,
                   DsSeries *series)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_series (DsGraph   *self,
            DsSeries **slot,
            DsSeries  *series)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (series == NULL || DS_IS_SERIES (series));

  if (*slot == series)
    return;

  if (*slot != NULL)
    g_signal_handlers_disconnect_by_func (*slot, series_changed_cb, self);

  g_set_object (slot, series);

  if (series != NULL)
    g_signal_connect_object (series, "changed",
                             G_CALLBACK (series_changed_cb), self,
                             G_CONNECT_SWAPPED);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ds_graph_dispose (GObject *object)
{
  DsGraph *self = (DsGraph *) object;

  set_series (self, &self->read, NULL);
  set_series (self, &self->write, NULL);
  set_series (self, &self->access, NULL);
  ds_graph_set_groups (self, NULL, NULL, 0);

  G_OBJECT_CLASS (ds_graph_parent_class)->dispose (object);
}

static void
ds_graph_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  DsGraph *self = DS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;

    case PROP_UNITS:
      g_value_set_int (value, self->units);
      break;

    case PROP_X_MAX:
      g_value_set_double (value, self->x_max);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  DsGraph *self = DS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODE:
      ds_graph_set_mode (self, g_value_get_enum (value));
      break;

    case PROP_UNITS:
      ds_graph_set_units (self, g_value_get_int (value));
      break;

    case PROP_X_MAX:
      ds_graph_set_x_max (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_graph_class_init (DsGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_graph_dispose;
  object_class->get_property = ds_graph_get_property;
  object_class->set_property = ds_graph_set_property;

  widget_class->snapshot = ds_graph_snapshot;
  widget_class->measure = ds_graph_measure;

  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL,
                       DS_TYPE_GRAPH_MODE, DS_GRAPH_TRANSFER,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_UNITS] =
    g_param_spec_int ("units", NULL, NULL,
                      DS_UNITS_MB, DS_UNITS_MIB, DS_UNITS_MB,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_X_MAX] =
    g_param_spec_double ("x-max", NULL, NULL,
                         0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ds_graph_init (DsGraph *self)
{
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
ds_graph_new (void)
{
  return g_object_new (DS_TYPE_GRAPH, NULL);
}

DsGraphMode
ds_graph_get_mode (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), DS_GRAPH_TRANSFER);

  return self->mode;
}

void
ds_graph_set_mode (DsGraph     *self,
                   DsGraphMode  mode)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  if (self->mode == mode)
    return;

  self->mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
ds_graph_get_x_max (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), 0);

  return self->x_max;
}

void
ds_graph_set_x_max (DsGraph *self,
                    double   x_max)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  if (self->x_max == x_max)
    return;

  self->x_max = x_max;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_MAX]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

DsUnits
ds_graph_get_units (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), DS_UNITS_MB);

  return self->units;
}

void
ds_graph_set_units (DsGraph *self,
                    DsUnits  units)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  if (self->units == units)
    return;

  self->units = units;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ds_graph_set_read (DsGraph  *self,
                   DsSeries *series)
{
  set_series (self, &self->read, series);
}

void
ds_graph_set_write (DsGraph  *self,
                    DsSeries *series)
{
  set_series (self, &self->write, series);
}

void
ds_graph_set_access (DsGraph  *self,
                     DsSeries *series)
{
  set_series (self, &self->access, series);
}

DsSeries *
ds_graph_get_read (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), NULL);

  return self->read;
}

DsSeries *
ds_graph_get_write (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), NULL);

  return self->write;
}

DsSeries *
ds_graph_get_access (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), NULL);

  return self->access;
}

void
ds_graph_set_groups (DsGraph           *self,
                     DsSeries *const   *series,
                     const char *const *labels,
                     guint              n_groups)
{
  g_return_if_fail (DS_IS_GRAPH (self));
  g_return_if_fail (n_groups == 0 || (series != NULL && labels != NULL));

  for (guint i = 0; self->groups != NULL && i < self->groups->len; i++)
    g_signal_handlers_disconnect_by_func (self->groups->pdata[i], series_changed_cb, self);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->group_labels, g_strfreev);

  if (n_groups > 0)
    {
      self->groups = g_ptr_array_new_full (n_groups, g_object_unref);
      self->group_labels = g_new0 (char *, n_groups + 1);
      for (guint i = 0; i < n_groups; i++)
        {
          g_ptr_array_add (self->groups, g_object_ref (series[i]));
          self->group_labels[i] = g_strdup (labels[i]);
          g_signal_connect_object (series[i], "changed",
                                   G_CALLBACK (series_changed_cb), self,
                                   G_CONNECT_SWAPPED);
        }
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ds_graph_get_n_groups (DsGraph *self)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), 0);

  return self->groups ? self->groups->len : 0;
}

DsSeries *
ds_graph_get_group (DsGraph *self,
                    guint    index)
{
  g_return_val_if_fail (DS_IS_GRAPH (self), NULL);
  g_return_val_if_fail (index < ds_graph_get_n_groups (self), NULL);

  return self->groups->pdata[index];
}

void
ds_graph_get_group_color (DsGraph *self,
                          guint    index,
                          GdkRGBA *ret_color)
{
  g_return_if_fail (DS_IS_GRAPH (self));

  group_color (GTK_WIDGET (self), index, ret_color);
}
