/* ds-render.c: a comparison drawn with cairo (PNG, SVG, PDF, or any cairo_t)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ds-annotation.h"
#include "ds-error.h"
#include "ds-library-write.h"
#include "ds-render.h"

#define DEFAULT_WIDTH 1200.0
#define MARGIN        16.0
#define LINE          18.0    /* a line of text */
#define PANEL_HEIGHT  420.0   /* one transfer-curve panel */
#define BAR_HEIGHT    12.0
#define BAR_GAP       3.0
#define GROUP_GAP     9.0
#define LABEL_WIDTH   280.0   /* bar charts: the figure names */
#define VALUE_WIDTH   130.0   /* bar charts: room for the value after a bar */

typedef struct {
  cairo_t               *cr;
  const DsComparison    *cmp;
  const DsRenderOptions *opts;
  DsRenderColor          fg;
  DsRenderColor          bg;
  PangoFontDescription  *font;
  double                 width;
} Ctx;

DsRenderColor
ds_render_series_color (guint column)
{
  /* GNOME's palette, darker shades: apart on white, and for the common
   * kinds of colour blindness the first four differ in lightness too. */
  static const guint32 palette[] = {
    0x1c71d8, 0xe66100, 0x26a269, 0xc01c28, 0x813d9c, 0x986a44, 0x1a5fb4, 0x5e5c64,
  };
  guint32 rgb = palette[column % G_N_ELEMENTS (palette)];

  return (DsRenderColor) { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                           (rgb & 0xff) / 255.0, 1.0 };
}

static gboolean
color_is_unset (const DsRenderColor *c)
{
  return c->red == 0 && c->green == 0 && c->blue == 0 && c->alpha == 0;
}

static void
set_color (cairo_t             *cr,
           const DsRenderColor *c,
           double               alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

/* ---- text --------------------------------------------------------------- */

typedef enum { ALIGN_LEFT, ALIGN_RIGHT, ALIGN_CENTER } Align;

/* Draws @text with its top at @y, aligned at @x; ellipsized to @max_width
 * when > 0.  Returns the width drawn. */
static double
text_at (Ctx        *ctx,
         const char *text,
         double      x,
         double      y,
         Align       align,
         gboolean    bold,
         double      max_width)
{
  g_autoptr (PangoLayout) layout = pango_cairo_create_layout (ctx->cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_copy (ctx->font);
  g_autofree char *clean = ds_printable_text (text);
  int w, h;

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, clean, -1);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_get_pixel_size (layout, &w, &h);

  if (align == ALIGN_RIGHT)
    x -= w;
  else if (align == ALIGN_CENTER)
    x -= w / 2.0;
  cairo_move_to (ctx->cr, x, y);
  pango_cairo_show_layout (ctx->cr, layout);

  return w;
}

/* ---- axes --------------------------------------------------------------- */

/* A step of 1, 2 or 5 times a power of ten giving about @n ticks to @max. */
static double
nice_step (double max,
           int    n)
{
  double raw = max / n;
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;

  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double
nice_max (double max)
{
  double step;

  if (!(max > 0) || !isfinite (max))
    return 1;
  step = nice_step (max, 5);
  return ceil (max * 1.05 / step) * step;
}

static char *
format_tick (double v)
{
  if (v == 0)
    return g_strdup ("0");
  if (fabs (v) >= 100 || v == floor (v))
    return g_strdup_printf ("%.0f", v);
  if (fabs (v) >= 1)
    return g_strdup_printf ("%.1f", v);
  return g_strdup_printf ("%.3g", v);
}

/* ---- legend and title --------------------------------------------------- */

static double
header_height (const DsComparison *cmp)
{
  return MARGIN + LINE * 1.5 + LINE * cmp->columns->len + MARGIN / 2;
}

static void
draw_header (Ctx *ctx)
{
  const DsBenchOps *ops = ds_bench_get (ctx->cmp->kind);
  g_autofree char *title = g_strdup_printf (ctx->cmp->kind == DS_BENCH_TRANSFER ?
                                            "Diskscope comparison: %s" :
                                            "Diskscope comparison: %s (the better value in bold)",
                                            ops ? ops->title : "?");
  double y = MARGIN;

  set_color (ctx->cr, &ctx->fg, 1);
  text_at (ctx, title, MARGIN, y, ALIGN_LEFT, TRUE, ctx->width - 2 * MARGIN);
  y += LINE * 1.5;

  for (guint c = 0; c < ctx->cmp->columns->len; c++)
    {
      const DsCompareColumn *col = ctx->cmp->columns->pdata[c];
      DsRenderColor color = ds_render_series_color (c);
      g_autofree char *line = g_strdup_printf ("%s — %s", col->label, col->description);
      char letter[2] = { col->letter, '\0' };

      set_color (ctx->cr, &color, 1);
      cairo_rectangle (ctx->cr, MARGIN, y + 4, 22, 9);
      cairo_fill (ctx->cr);
      set_color (ctx->cr, &ctx->fg, 1);
      text_at (ctx, letter, MARGIN + 30, y, ALIGN_LEFT, TRUE, 0);
      text_at (ctx, line, MARGIN + 46, y, ALIGN_LEFT, FALSE, ctx->width - MARGIN - 46 - MARGIN);
      y += LINE;
    }
}

/* ---- transfer curves ---------------------------------------------------- */

static gboolean
direction_present (const DsComparison *cmp,
                   gboolean            write)
{
  for (guint c = 0; c < cmp->columns->len; c++)
    if (ds_comparison_get_curve (cmp, c, write, NULL, NULL))
      return TRUE;

  return FALSE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef struct {
  double x0, y0, w, h;      /* the plot area */
  double x_max;             /* bytes, or 1 for a fraction */
  double rate_max;          /* bytes/s at the top */
  double access_max;        /* seconds at the top of the right axis */
} Plot;

static double
px (const Plot *p, double x)
{
  return p->x0 + p->w * CLAMP (x / p->x_max, 0, 1);
}

static double
py (const Plot *p, double v, double max)
{
  return p->y0 + p->h - p->h * CLAMP (v / max, 0, 1);
}

static void
draw_axes (Ctx        *ctx,
           const Plot *p,
           gboolean    dots)
{
  cairo_t *cr = ctx->cr;
  gboolean mib = ctx->opts->units == DS_UNITS_MIB;
  double unit = mib ? 1048576.0 : 1e6;
  double top = p->rate_max / unit;
  double step = nice_step (top, 5);
  double gb = mib ? 1073741824.0 : 1e9;

  cairo_set_line_width (cr, 1);
  /* Horizontal grid and the rate axis. */
  for (double v = 0; v <= top * 1.0001; v += step)
    {
      double y = py (p, v * unit, p->rate_max);
      g_autofree char *label = format_tick (v);

      set_color (cr, &ctx->fg, 0.12);
      cairo_move_to (cr, p->x0, round (y) + 0.5);
      cairo_line_to (cr, p->x0 + p->w, round (y) + 0.5);
      cairo_stroke (cr);
      set_color (cr, &ctx->fg, 0.85);
      text_at (ctx, label, p->x0 - 6, y - LINE / 2, ALIGN_RIGHT, FALSE, 0);
    }
  text_at (ctx, mib ? "MiB/s" : "MB/s", p->x0 - 6, p->y0 - LINE - 4, ALIGN_RIGHT, TRUE, 0);

  if (dots)
    {
      double ms_top = p->access_max * 1e3;
      double ms_step = nice_step (ms_top, 5);

      for (double v = 0; v <= ms_top * 1.0001; v += ms_step)
        {
          g_autofree char *label = format_tick (v);
          text_at (ctx, label, p->x0 + p->w + 6, py (p, v, ms_top) - LINE / 2, ALIGN_LEFT, FALSE, 0);
        }
      text_at (ctx, "ms", p->x0 + p->w + 6, p->y0 - LINE - 4, ALIGN_LEFT, TRUE, 0);
    }

  /* Vertical grid and the position axis: tenths of each capacity, or GB
   * (GiB) in steps of 1, 2 or 5. */
  {
    gboolean percent = ctx->cmp->x_percent;
    double x_top = percent ? 100 : p->x_max / gb;
    double x_step = percent ? 10 : nice_step (x_top, 10);
    double scale = percent ? 0.01 : gb;

    for (double v = 0; v <= x_top * 1.0001; v += x_step)
      {
        double x = px (p, v * scale);
        g_autofree char *label = format_tick (v);

        set_color (cr, &ctx->fg, 0.12);
        cairo_move_to (cr, round (x) + 0.5, p->y0);
        cairo_line_to (cr, round (x) + 0.5, p->y0 + p->h);
        cairo_stroke (cr);
        set_color (cr, &ctx->fg, 0.85);
        text_at (ctx, label, x, p->y0 + p->h + 4, ALIGN_CENTER, FALSE, 0);
      }
    text_at (ctx, percent ? "% of each tested capacity" : mib ? "GiB" : "GB",
             p->x0 + p->w, p->y0 + p->h + 4 + LINE, ALIGN_RIGHT, TRUE, 0);
  }

  set_color (cr, &ctx->fg, 0.6);
  cairo_rectangle (cr, round (p->x0) + 0.5, round (p->y0) + 0.5, round (p->w), round (p->h));
  cairo_stroke (cr);
}

static void
draw_transfer_panel (Ctx      *ctx,
                     double    y,
                     gboolean  write)
{
  const DsComparison *cmp = ctx->cmp;
  cairo_t *cr = ctx->cr;
  gboolean dots = ctx->opts->show_access;
  g_autoptr (GArray) all_access = g_array_new (FALSE, FALSE, sizeof (double));
  Plot p = { 0 };
  double rate_max = 0;

  for (guint c = 0; c < cmp->columns->len; c++)
    {
      g_autoptr (GArray) points = NULL;
      g_autoptr (GArray) access = NULL;

      if (!ds_comparison_get_curve (cmp, c, write, &points, &access))
        continue;
      for (guint i = 0; i < points->len; i++)
        {
          double v = g_array_index (points, DsCurvePoint, i).bytes_per_s;
          if (!isnan (v))
            rate_max = MAX (rate_max, v);
        }
      for (guint i = 0; i < access->len; i++)
        g_array_append_val (all_access, g_array_index (access, DsAccessDot, i).access_s);
    }
  dots = dots && all_access->len > 0;

  p.x0 = MARGIN + 64;
  p.y0 = y + LINE * 2.5;
  p.w = ctx->width - p.x0 - MARGIN - (dots ? 56 : 16);
  p.h = PANEL_HEIGHT - LINE * 2.5 - LINE * 2.5;
  p.x_max = cmp->x_percent ? 1.0 : (double) MAX (cmp->x_max_bytes, 1);
  p.rate_max = ctx->opts->units == DS_UNITS_MIB ?
               nice_max (rate_max / 1048576.0) * 1048576.0 : nice_max (rate_max / 1e6) * 1e6;
  if (dots)
    {
      /* The 98th percentile sets the scale: a few slow outliers would
       * flatten the rest; they are drawn at the top edge. */
      g_array_sort (all_access, compare_doubles);
      p.access_max = nice_max (g_array_index (all_access, double,
                                              (guint) (0.98 * (all_access->len - 1))) * 1e3) / 1e3;
    }

  set_color (cr, &ctx->fg, 1);
  text_at (ctx, write ? "Write transfer rate" : "Read transfer rate", MARGIN, y, ALIGN_LEFT, TRUE, 0);
  draw_axes (ctx, &p, dots);

  cairo_save (cr);
  cairo_rectangle (cr, p.x0, p.y0 - 3, p.w, p.h + 3);
  cairo_clip (cr);
  for (guint c = 0; c < cmp->columns->len; c++)
    {
      g_autoptr (GArray) points = NULL;
      g_autoptr (GArray) access = NULL;
      DsRenderColor color = ds_render_series_color (c);
      gboolean drawing = FALSE;

      if (!ds_comparison_get_curve (cmp, c, write, &points, &access))
        continue;

      if (dots)
        {
          set_color (cr, &color, 0.45);
          for (guint i = 0; i < access->len; i++)
            {
              const DsAccessDot *d = &g_array_index (access, DsAccessDot, i);
              cairo_arc (cr, px (&p, d->x), py (&p, MIN (d->access_s, p.access_max), p.access_max),
                         1.6, 0, 2 * G_PI);
              cairo_fill (cr);
            }
        }

      set_color (cr, &color, 1);
      cairo_set_line_width (cr, 1.6);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      for (guint i = 0; i < points->len; i++)
        {
          const DsCurvePoint *pt = &g_array_index (points, DsCurvePoint, i);

          if (isnan (pt->bytes_per_s))
            {
              drawing = FALSE;
              continue;
            }
          if (drawing)
            cairo_line_to (cr, px (&p, pt->x), py (&p, pt->bytes_per_s, p.rate_max));
          else
            cairo_move_to (cr, px (&p, pt->x), py (&p, pt->bytes_per_s, p.rate_max));
          drawing = TRUE;
        }
      cairo_stroke (cr);

      /* Failed points: a cross on the x-axis, in the series' colour. */
      for (guint i = 0; i < points->len; i++)
        {
          const DsCurvePoint *pt = &g_array_index (points, DsCurvePoint, i);
          double x = px (&p, pt->x), yb = p.y0 + p.h - 5;

          if (!isnan (pt->bytes_per_s))
            continue;
          cairo_move_to (cr, x - 4, yb - 4);
          cairo_line_to (cr, x + 4, yb + 4);
          cairo_move_to (cr, x - 4, yb + 4);
          cairo_line_to (cr, x + 4, yb - 4);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
}

/* ---- bars --------------------------------------------------------------- */

static double
row_height (const DsComparison *cmp)
{
  return cmp->columns->len * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP;
}

static double
bars_height (const DsComparison *cmp)
{
  const char *section = NULL;
  double h = 0;

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];

      if (section == NULL || strcmp (section, row->section) != 0)
        {
          section = row->section;
          h += LINE * 2;
        }
      h += row_height (cmp);
    }

  return h;
}

static void
draw_bars (Ctx    *ctx,
           double  y)
{
  const DsComparison *cmp = ctx->cmp;
  cairo_t *cr = ctx->cr;
  const char *section = NULL;
  double x0 = MARGIN + LABEL_WIDTH;
  double area = ctx->width - x0 - MARGIN - VALUE_WIDTH;

  for (guint r = 0; r < cmp->rows->len; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];
      g_autofree char *name = row->measure[0] ? g_strdup_printf ("%s, %s", row->name, row->measure)
                                              : g_strdup (row->name);
      double max = 0;

      if (section == NULL || strcmp (section, row->section) != 0)
        {
          section = row->section;
          y += LINE * 0.5;
          set_color (cr, &ctx->fg, 1);
          text_at (ctx, section, MARGIN, y, ALIGN_LEFT, TRUE, 0);
          y += LINE * 1.5;
        }

      for (guint c = 0; c < cmp->columns->len; c++)
        if (!isnan (row->values[c]))
          max = MAX (max, row->values[c]);

      set_color (cr, &ctx->fg, 0.85);
      text_at (ctx, name, x0 - 18, y + (cmp->columns->len * (BAR_HEIGHT + BAR_GAP) - LINE) / 2,
               ALIGN_RIGHT, FALSE, LABEL_WIDTH - 28);

      for (guint c = 0; c < cmp->columns->len; c++)
        {
          DsRenderColor color = ds_render_series_color (c);
          double v = row->values[c];
          double by = y + c * (BAR_HEIGHT + BAR_GAP);
          double len = !isnan (v) && max > 0 ? area * v / max : 0;
          g_autofree char *value = ds_compare_format_value (row->unit, v, ctx->opts->units);
          char letter[2] = { (char) ('A' + c), '\0' };

          set_color (cr, &color, 1);
          cairo_rectangle (cr, x0, by, MAX (len, isnan (v) ? 0 : 1), BAR_HEIGHT);
          cairo_fill (cr);
          set_color (cr, &ctx->fg, 0.5);
          text_at (ctx, letter, x0 - 2, by + BAR_HEIGHT / 2 - LINE / 2, ALIGN_RIGHT, FALSE, 0);
          set_color (cr, &ctx->fg, 1);
          text_at (ctx, value, x0 + len + 6, by + BAR_HEIGHT / 2 - LINE / 2, ALIGN_LEFT,
                   row->best == (int) c, 0);
        }
      y += row_height (cmp);
    }
}

/* ---- the page ----------------------------------------------------------- */

static double
notes_height (const DsComparison *cmp)
{
  return cmp->notes->len > 0 ? LINE * (cmp->notes->len + 0.5) : 0;
}

double
ds_render_comparison_height (const DsComparison    *cmp,
                             const DsRenderOptions *options)
{
  double h = header_height (cmp);

  if (cmp->kind == DS_BENCH_TRANSFER)
    {
      for (int write = 0; write < 2; write++)
        if (direction_present (cmp, write))
          h += PANEL_HEIGHT;
    }
  else
    {
      h += bars_height (cmp);
    }

  return ceil (h + notes_height (cmp) + MARGIN);
}

void
ds_render_comparison (const DsComparison    *cmp,
                      const DsRenderOptions *options,
                      cairo_t               *cr,
                      double                 width,
                      double                 height)
{
  static const DsRenderColor black = { 0, 0, 0, 1 };
  static const DsRenderColor white = { 1, 1, 1, 1 };
  Ctx ctx = {
    .cr = cr,
    .cmp = cmp,
    .opts = options,
    .fg = color_is_unset (&options->foreground) ? black : options->foreground,
    .bg = color_is_unset (&options->background) ? white : options->background,
    .font = pango_font_description_from_string (options->font ? options->font : "Sans 10"),
    .width = width,
  };
  double y;

  cairo_save (cr);
  set_color (cr, &ctx.bg, 1);
  cairo_paint (cr);

  draw_header (&ctx);
  y = header_height (cmp);

  if (cmp->kind == DS_BENCH_TRANSFER)
    {
      for (int write = 0; write < 2; write++)
        if (direction_present (cmp, write))
          {
            draw_transfer_panel (&ctx, y, write);
            y += PANEL_HEIGHT;
          }
    }
  else
    {
      draw_bars (&ctx, y);
      y += bars_height (cmp);
    }

  y += LINE * 0.5;
  set_color (cr, &ctx.fg, 0.8);
  for (guint i = 0; i < cmp->notes->len; i++, y += LINE)
    {
      g_autofree char *note = g_strdup_printf ("Note: %s", (const char *) cmp->notes->pdata[i]);
      text_at (&ctx, note, MARGIN, y, ALIGN_LEFT, FALSE, width - 2 * MARGIN);
    }

  (void) height;
  pango_font_description_free (ctx.font);
  cairo_restore (cr);
}

/* ---- files -------------------------------------------------------------- */

static cairo_status_t
append_to_array (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
ds_render_format_from_path (const char     *path,
                            DsRenderFormat *ret_format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *ret_format = DS_RENDER_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *ret_format = DS_RENDER_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *ret_format = DS_RENDER_PDF;
  else
    return FALSE;

  return TRUE;
}

gboolean
ds_render_comparison_to_file (const DsComparison    *cmp,
                              const DsRenderOptions *options,
                              DsRenderFormat         format,
                              const char            *path,
                              GError               **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  double width = options->width > 0 ? options->width : DEFAULT_WIDTH;
  double height = ds_render_comparison_height (cmp, options);
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  switch (format)
    {
    case DS_RENDER_SVG:
      surface = cairo_svg_surface_create_for_stream (append_to_array, bytes, width, height);
      break;
    case DS_RENDER_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_to_array, bytes, width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Diskscope " PACKAGE_VERSION);
      break;
    case DS_RENDER_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) width, (int) height);
      break;
    }

  cr = cairo_create (surface);
  ds_render_comparison (cmp, options, cr, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == DS_RENDER_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_to_array, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "could not draw %s: %s",
                   path, cairo_status_to_string (status));
      return FALSE;
    }

  return ds_library_write_file (path, (const char *) bytes->data, bytes->len,
                                DS_LIBRARY_WRITE_REPLACE, error);
}
