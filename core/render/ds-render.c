/* ds-render.c: a comparison drawn with cairo (PNG, SVG, PDF, or any cairo_t)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-annotation.h"
#include "ds-render.h"
#include "ds-render-private.h"

static gboolean
color_is_unset (const DsRenderColor *c)
{
  return c->red == 0 && c->green == 0 && c->blue == 0 && c->alpha == 0;
}

/* ---- text --------------------------------------------------------------- */

PangoLayout *
ds_render_layout (DsRenderCtx *ctx,
                  gboolean     bold)
{
  PangoLayout *layout = pango_cairo_create_layout (ctx->cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_copy (ctx->font);

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  return layout;
}

/* Draws @text with its top at @y, aligned at @x; ellipsized to @max_width
 * when > 0.  Returns the width drawn. */
double
ds_render_text (DsRenderCtx *ctx,
                const char  *text,
                double       x,
                double       y,
                DsAlign      align,
                gboolean     bold,
                double       max_width)
{
  g_autoptr (PangoLayout) layout = ds_render_layout (ctx, bold);
  g_autofree char *clean = ds_printable_text (text);
  int w, h;

  pango_layout_set_text (layout, clean, -1);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_get_pixel_size (layout, &w, &h);

  if (align == DS_ALIGN_RIGHT)
    x -= w;
  else if (align == DS_ALIGN_CENTER)
    x -= w / 2.0;
  cairo_move_to (ctx->cr, x, y);
  pango_cairo_show_layout (ctx->cr, layout);

  return w;
}

/* ---- legend and title --------------------------------------------------- */

/* The Benchmark's curves against the position on the disk: drawn as HD
 * Tune draws them (ds-render-transfer.c), without bars. */
static gboolean
position_curves (const DsComparison *cmp)
{
  return ds_comparison_find_curve (cmp, "read") != NULL || ds_comparison_find_curve (cmp, "write") != NULL;
}

static double
header_height (const DsComparison *cmp)
{
  return MARGIN + LINE * 1.5 + LINE * cmp->columns->len + MARGIN / 2;
}

static void
draw_header (DsRenderCtx *ctx)
{
  const DsBenchOps *ops = ds_bench_get (ctx->cmp->kind);
  g_autofree char *title = g_strdup_printf (position_curves (ctx->cmp) ?
                                            "Diskscope comparison: %s" :
                                            "Diskscope comparison: %s (the better value in bold)",
                                            ops ? ops->title : "?");
  double y = MARGIN;

  ds_chart_set_color (ctx->cr, &ctx->fg, 1);
  ds_render_text (ctx, title, MARGIN, y, DS_ALIGN_LEFT, TRUE, ctx->width - 2 * MARGIN);
  y += LINE * 1.5;

  for (guint c = 0; c < ctx->cmp->columns->len; c++)
    {
      const DsCompareColumn *col = ctx->cmp->columns->pdata[c];
      DsRenderColor color = ds_chart_series_color (c);
      g_autofree char *line = g_strdup_printf ("%s — %s", col->label, col->description);
      char letter[2] = { col->letter, '\0' };

      ds_chart_set_color (ctx->cr, &color, 1);
      if (position_curves (ctx->cmp) || ds_render_curve_panels (ctx->cmp) > 0)
        ds_chart_series_key (ctx->cr, c, MARGIN, y + LINE / 2, 24, 1.6);
      else
        {
          /* Bars carry their letter beside them. */
          cairo_rectangle (ctx->cr, MARGIN, y + 4, 22, 9);
          cairo_fill (ctx->cr);
        }
      ds_chart_set_color (ctx->cr, &ctx->fg, 1);
      ds_render_text (ctx, letter, MARGIN + 30, y, DS_ALIGN_LEFT, TRUE, 0);
      ds_render_text (ctx, line, MARGIN + 46, y, DS_ALIGN_LEFT, FALSE, ctx->width - MARGIN - 46 - MARGIN);
      y += LINE;
    }
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
draw_bars (DsRenderCtx    *ctx,
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
          ds_chart_set_color (cr, &ctx->fg, 1);
          ds_render_text (ctx, section, MARGIN, y, DS_ALIGN_LEFT, TRUE, 0);
          y += LINE * 1.5;
        }

      for (guint c = 0; c < cmp->columns->len; c++)
        if (!isnan (row->values[c]))
          max = MAX (max, row->values[c]);

      ds_chart_set_color (cr, &ctx->fg, 0.85);
      ds_render_text (ctx, name, x0 - 18, y + (cmp->columns->len * (BAR_HEIGHT + BAR_GAP) - LINE) / 2,
               DS_ALIGN_RIGHT, FALSE, LABEL_WIDTH - 28);

      for (guint c = 0; c < cmp->columns->len; c++)
        {
          DsRenderColor color = ds_chart_series_color (c);
          double v = row->values[c];
          double by = y + c * (BAR_HEIGHT + BAR_GAP);
          double len = !isnan (v) && max > 0 ? area * v / max : 0;
          g_autofree char *value = ds_compare_format_value (row->unit, v, ctx->opts->units);
          char letter[2] = { (char) ('A' + c), '\0' };

          ds_chart_set_color (cr, &color, 1);
          cairo_rectangle (cr, x0, by, MAX (len, isnan (v) ? 0 : 1), BAR_HEIGHT);
          cairo_fill (cr);
          ds_chart_set_color (cr, &ctx->fg, 0.5);
          ds_render_text (ctx, letter, x0 - 2, by + BAR_HEIGHT / 2 - LINE / 2, DS_ALIGN_RIGHT, FALSE, 0);
          ds_chart_set_color (cr, &ctx->fg, 1);
          ds_render_text (ctx, value, x0 + len + 6, by + BAR_HEIGHT / 2 - LINE / 2, DS_ALIGN_LEFT,
                   row->best == (int) c, 0);
        }
      y += row_height (cmp);
    }
}

/* ---- the page ----------------------------------------------------------- */

/* A warning is a sentence the picture must carry whole: broken at blanks
 * into lines of at most this many characters per 1200 units of width
 * (bold Sans 10 is about 7.5 units a character). */
#define WARNING_CHARS_PER_1200 140

static GPtrArray *
wrap_words (const char *text,
            double      width)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  glong max = MAX ((glong) (WARNING_CHARS_PER_1200 * width / DEFAULT_WIDTH), 40);
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  GString *line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (line->len > 0 && g_utf8_strlen (line->str, -1) + 1 + g_utf8_strlen (words[i], -1) > max)
        {
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, "    ");
        }
      if (line->len > 0 && !g_str_has_suffix (line->str, "    "))
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
    }
  g_ptr_array_add (lines, g_string_free (line, FALSE));

  return lines;
}

static guint
warning_lines (const DsComparison *cmp,
               double              width)
{
  guint n = 0;

  for (guint i = 0; cmp->warnings != NULL && i < cmp->warnings->len; i++)
    {
      g_autofree char *text = g_strdup_printf ("⚠ Warning: %s", (const char *) cmp->warnings->pdata[i]);
      g_autoptr (GPtrArray) lines = wrap_words (text, width);

      n += lines->len;
    }

  return n;
}

static double
notes_height (const DsComparison *cmp,
              double              width)
{
  guint warnings = warning_lines (cmp, width);

  return cmp->notes->len + warnings > 0 ? LINE * (cmp->notes->len + warnings + 0.5) : 0;
}

double
ds_render_comparison_height (const DsComparison    *cmp,
                             const DsRenderOptions *options)
{
  double h = header_height (cmp);

  if (position_curves (cmp))
    {
      for (int write = 0; write < 2; write++)
        if (ds_render_direction_present (cmp, write))
          h += PANEL_HEIGHT;
    }
  else
    {
      h += ds_render_curve_panels (cmp) * PANEL_HEIGHT;
      h += bars_height (cmp);
    }

  return ceil (h + notes_height (cmp, options->width > 0 ? options->width : DEFAULT_WIDTH) + MARGIN);
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
  DsRenderCtx ctx = {
    .cr = cr,
    .cmp = cmp,
    .opts = options,
    .fg = color_is_unset (&options->foreground) ? black : options->foreground,
    .bg = color_is_unset (&options->background) ? white : options->background,
    .font = pango_font_description_from_string (options->font ? options->font : "Sans 10"),
    .width = width,
  };
  double y;

  ds_chart_look_init (&ctx.look, &ctx.fg);
  cairo_save (cr);
  ds_chart_set_color (cr, &ctx.bg, 1);
  cairo_paint (cr);

  draw_header (&ctx);
  y = header_height (cmp);

  if (position_curves (cmp))
    {
      for (int write = 0; write < 2; write++)
        if (ds_render_direction_present (cmp, write))
          {
            ds_render_transfer_panel (&ctx, y, write);
            y += PANEL_HEIGHT;
          }
    }
  else
    {
      ds_render_curve_panels_draw (&ctx, y);
      y += ds_render_curve_panels (cmp) * PANEL_HEIGHT;
      draw_bars (&ctx, y);
      y += bars_height (cmp);
    }

  y += LINE * 0.5;
  ds_chart_set_color (cr, &ctx.fg, 0.8);
  for (guint i = 0; i < cmp->notes->len; i++, y += LINE)
    {
      g_autofree char *note = g_strdup_printf ("Note: %s", (const char *) cmp->notes->pdata[i]);
      ds_render_text (&ctx, note, MARGIN, y, DS_ALIGN_LEFT, FALSE, width - 2 * MARGIN);
    }
  /* Each result's warnings, as its window's bar says them: a fooled
   * figure beside a true one is the trap a comparison must not hide. */
  for (guint i = 0; cmp->warnings != NULL && i < cmp->warnings->len; i++)
    {
      g_autofree char *warning = g_strdup_printf ("⚠ Warning: %s", (const char *) cmp->warnings->pdata[i]);
      g_autoptr (GPtrArray) lines = wrap_words (warning, width);

      ds_chart_set_color (cr, &ctx.fg, 1);
      for (guint l = 0; l < lines->len; l++, y += LINE)
        ds_render_text (&ctx, lines->pdata[l], MARGIN, y, DS_ALIGN_LEFT, TRUE, width - 2 * MARGIN);
    }

  (void) height;
  pango_font_description_free (ctx.font);
  cairo_restore (cr);
}
