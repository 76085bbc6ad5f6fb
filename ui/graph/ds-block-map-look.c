/* ds-block-map-look.c: how each state of the block map looks
 *
 * A square's colour (a theme colour at an opacity) and its mark (a dot, a
 * bar or a cross: colour is never the only sign), and the state in words:
 * the map (ds-block-map.c) and the page's legend draw and name them alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-block-map-private.h"
#include "ds-graph.h"

typedef enum {
  MARK_NONE,
  MARK_DOT,
  MARK_BAR,
  MARK_CROSS,
} Mark;

/* How each state looks: a theme colour (NULL: the text colour) at an
 * opacity, and a mark. */
static const struct {
  const char *color;
  double      alpha;
  Mark        mark;
} looks[] = {
  [DS_SCAN_UNREAD]   = { NULL, 0.10, MARK_NONE },
  [DS_SCAN_LT_5MS]   = { "success_color", 0.95, MARK_NONE },
  [DS_SCAN_LT_20MS]  = { "success_color", 0.60, MARK_NONE },
  [DS_SCAN_LT_50MS]  = { "success_color", 0.32, MARK_NONE },
  [DS_SCAN_LT_150MS] = { "warning_color", 0.45, MARK_NONE },
  [DS_SCAN_LT_500MS] = { "warning_color", 1.00, MARK_DOT },
  [DS_SCAN_GE_500MS] = { "error_color", 0.55, MARK_BAR },
  [DS_SCAN_ERROR]    = { "error_color", 1.00, MARK_CROSS },
};

G_STATIC_ASSERT (G_N_ELEMENTS (looks) == DS_BLOCK_MAP_N_STATES);

const char *
ds_block_map_state_label (DsScanCell state)
{
  switch (state)
    {
    case DS_SCAN_UNREAD:
      return _("Not read yet");
    case DS_SCAN_LT_5MS:
      return _("< 5 ms");
    case DS_SCAN_LT_20MS:
      return _("< 20 ms");
    case DS_SCAN_LT_50MS:
      return _("< 50 ms");
    case DS_SCAN_LT_150MS:
      return _("< 150 ms");
    case DS_SCAN_LT_500MS:
      return _("< 500 ms, slow");
    case DS_SCAN_GE_500MS:
      return _("≥ 500 ms, slow");
    case DS_SCAN_ERROR:
    default:
      return _("Read error");
    }
}

void
ds_block_map_state_color (GtkWidget  *widget,
                          DsScanCell  state,
                          GdkRGBA    *ret_color)
{
  if (looks[state].color != NULL)
    ds_graph_lookup_color (widget, looks[state].color, ret_color);
  else
    gtk_style_context_get_color (gtk_widget_get_style_context (widget), ret_color);
  ret_color->alpha *= looks[state].alpha;
}

gboolean
ds_block_map_state_has_mark (DsScanCell state)
{
  return looks[state].mark != MARK_NONE;
}

void
ds_block_map_draw_mark (GtkWidget  *widget,
                        cairo_t    *cr,
                        DsScanCell  state,
                        double      x,
                        double      y,
                        double      size)
{
  GdkRGBA ink;
  double c = size / 2, r = size * 0.28;

  switch (looks[state].mark)
    {
    case MARK_DOT:
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &ink);
      ink.alpha *= 0.8;
      gdk_cairo_set_source_rgba (cr, &ink);
      cairo_arc (cr, x + c, y + c, MAX (size * 0.14, 1.5), 0, 2 * G_PI);
      cairo_fill (cr);
      break;

    case MARK_BAR:
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &ink);
      ink.alpha *= 0.8;
      gdk_cairo_set_source_rgba (cr, &ink);
      cairo_rectangle (cr, x + c - r, y + c - MAX (size * 0.08, 1), 2 * r, MAX (size * 0.16, 2));
      cairo_fill (cr);
      break;

    case MARK_CROSS:
      ds_graph_lookup_color (widget, "error_fg_color", &ink);
      gdk_cairo_set_source_rgba (cr, &ink);
      cairo_set_line_width (cr, MAX (size * 0.14, 1.5));
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_move_to (cr, x + c - r, y + c - r);
      cairo_line_to (cr, x + c + r, y + c + r);
      cairo_move_to (cr, x + c + r, y + c - r);
      cairo_line_to (cr, x + c - r, y + c + r);
      cairo_stroke (cr);
      break;

    case MARK_NONE:
    default:
      break;
    }
}

void
ds_block_map_draw_square (GtkWidget  *widget,
                          cairo_t    *cr,
                          DsScanCell  state,
                          double      x,
                          double      y,
                          double      size)
{
  GdkRGBA color;

  g_return_if_fail ((guint) state < DS_BLOCK_MAP_N_STATES);

  ds_block_map_state_color (widget, state, &color);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_rectangle (cr, x, y, size, size);
  cairo_fill (cr);
  ds_block_map_draw_mark (widget, cr, state, x, y, size);
}
