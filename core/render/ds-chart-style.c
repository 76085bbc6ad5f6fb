/* ds-chart-style.c: each series' colour, line pattern and marker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-chart-style.h"

/* GNOME's palette, darker shades: apart on white, and for the common
 * kinds of colour blindness the first four differ in lightness too. */
static const char *const palette[] = {
  "#1c71d8", "#e66100", "#26a269", "#c01c28", "#813d9c", "#986a44", "#1a5fb4", "#5e5c64",
};

#define N_DASHES  5
#define N_MARKERS 5

void
ds_chart_set_color (cairo_t            *cr,
                    const DsChartColor *color,
                    double              alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

const char *
ds_chart_series_color_name (guint column)
{
  return palette[column % G_N_ELEMENTS (palette)];
}

DsChartColor
ds_chart_series_color (guint column)
{
  guint32 rgb = (guint32) g_ascii_strtoull (ds_chart_series_color_name (column) + 1, NULL, 16);

  return (DsChartColor) { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                          (rgb & 0xff) / 255.0, 1.0 };
}

void
ds_chart_series_set_dash (cairo_t *cr,
                          guint    column,
                          double   line_width)
{
  /* In line widths: solid, dashed, dotted, dash-dot, long dashes. */
  static const double patterns[N_DASHES][4] = {
    { 0 }, { 4, 2.5 }, { 1, 1.6 }, { 5, 2, 1, 2 }, { 9, 3 },
  };
  static const int lengths[N_DASHES] = { 0, 2, 2, 4, 2 };
  guint k = column % N_DASHES;
  double dashes[4];

  for (int i = 0; i < lengths[k]; i++)
    dashes[i] = patterns[k][i] * MAX (line_width, 1.0);
  cairo_set_dash (cr, dashes, lengths[k], 0);
  /* Round caps make the dots of a dotted line round. */
  cairo_set_line_cap (cr, k == 2 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
}

void
ds_chart_mark_set_dash (cairo_t *cr,
                        double   line_width)
{
  /* In line widths: 3 on, 2 off (6, 4 pixels at the graph's 2). */
  double dashes[2] = { 3 * MAX (line_width, 1.0), 2 * MAX (line_width, 1.0) };

  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
}

void
ds_chart_series_marker (cairo_t *cr,
                        guint    column,
                        double   x,
                        double   y,
                        double   size)
{
  double r = size / 2;

  cairo_new_sub_path (cr);
  switch (column % N_MARKERS)
    {
    case 0:     /* circle */
      cairo_arc (cr, x, y, r * 0.9, 0, 2 * G_PI);
      break;
    case 1:     /* square */
      cairo_rectangle (cr, x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6);
      break;
    case 2:     /* triangle */
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r, y + r * 0.8);
      cairo_line_to (cr, x - r, y + r * 0.8);
      cairo_close_path (cr);
      break;
    case 3:     /* diamond */
      cairo_move_to (cr, x, y - r * 1.1);
      cairo_line_to (cr, x + r, y);
      cairo_line_to (cr, x, y + r * 1.1);
      cairo_line_to (cr, x - r, y);
      cairo_close_path (cr);
      break;
    default:    /* inverted triangle */
      cairo_move_to (cr, x, y + r);
      cairo_line_to (cr, x + r, y - r * 0.8);
      cairo_line_to (cr, x - r, y - r * 0.8);
      cairo_close_path (cr);
      break;
    }
  cairo_fill (cr);
}

void
ds_chart_series_markers (cairo_t      *cr,
                         guint         column,
                         const double *x,
                         const double *y,
                         guint         n,
                         double        size)
{
  double spacing = DS_CHART_MARKER_SPACING;
  double next;

  if (n == 0)
    return;
  /* Columns take turns along the spacing. */
  next = x[0] + spacing * (0.5 + (column % 4) / 4.0);
  for (guint i = 0; i < n; i++)
    {
      if (x[i] < next || isnan (y[i]))
        continue;
      ds_chart_series_marker (cr, column, x[i], y[i], size);
      next = x[i] + spacing;
    }
}

void
ds_chart_series_key (cairo_t *cr,
                     guint    column,
                     double   x,
                     double   y,
                     double   width,
                     double   line_width)
{
  cairo_save (cr);
  cairo_set_line_width (cr, line_width);
  ds_chart_series_set_dash (cr, column, line_width);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + width, y);
  cairo_stroke (cr);
  cairo_restore (cr);
  ds_chart_series_marker (cr, column, x + width / 2, y, line_width * 3.5);
}
