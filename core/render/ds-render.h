/* ds-render.h: a comparison drawn with cairo (PNG, SVG, PDF, or any cairo_t)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Benchmark (transfer) comparisons are drawn as HD Tune draws one run:
 * the transfer-rate curves across the capacity (left axis) with the
 * access-time dots (right axis), one colour and legend entry per result,
 * one panel per direction; the x-axis is in GB when the tested capacities
 * match and in % of each capacity when they differ.  Every other kind is
 * drawn as grouped bars, one group per figure, each bar scaled to the
 * largest of its group and labelled with its value (the better value in
 * bold), so figures of different units share a page.
 *
 * Vector where the surface is (SVG, PDF); the GUI calls
 * ds_render_comparison() on the cairo_t of gtk_snapshot_append_cairo()
 * with its theme's colours.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ds-chart-style.h"
#include "ds-compare.h"
#include "ds-save.h"
#include "ds-units.h"

G_BEGIN_DECLS

typedef enum {
  DS_RENDER_PNG,
  DS_RENDER_SVG,
  DS_RENDER_PDF,
} DsRenderFormat;

/* The comparison's colours (ds-chart-style.h). */
typedef DsChartColor DsRenderColor;

typedef struct {
  DsUnits       units;
  gboolean      show_access;   /* transfer: the access-time dots */
  double        width;         /* 0: 1200 */
  /* Colours; all-zero (the default) means black on white. */
  DsRenderColor foreground;
  DsRenderColor background;
  const char   *font;          /* Pango font family and size; NULL: "Sans 10" */
} DsRenderOptions;

/* Each column's colour, line pattern and marker: ds-chart-style.h. */

/* The height ds_render_comparison() needs at @options->width. */
double    ds_render_comparison_height  (const DsComparison    *comparison,
                                        const DsRenderOptions *options);
/* Draws on @cr from (0, 0) over @width × @height (user units). */
void      ds_render_comparison         (const DsComparison    *comparison,
                                        const DsRenderOptions *options,
                                        cairo_t               *cr,
                                        double                 width,
                                        double                 height);
/* The picture as PNG, SVG or PDF bytes.  NULL with DS_ERROR_FAILED when
 * it cannot be drawn: "not enough memory to draw the picture (W×H px)"
 * when the pixels, or the room Pango and fontconfig need for the text, do
 * not fit (they would abort); DS_ERROR_INVALID for a PNG taller or wider
 * than cairo draws.  Never a crash for want of memory it can see. */
GBytes   *ds_render_comparison_to_bytes (const DsComparison    *comparison,
                                         const DsRenderOptions *options,
                                         DsRenderFormat         format,
                                         GError               **error);
/* To a file under ds-save.h's rules, never over what @keep (NULL: nothing)
 * protects: the destination is checked before the drawing, and nothing is
 * left at @path when drawing or writing fails.  Errors name @path. */
gboolean  ds_render_comparison_to_file (const DsComparison    *comparison,
                                        const DsRenderOptions *options,
                                        DsRenderFormat         format,
                                        const char            *path,
                                        const DsSaveKeep      *keep,
                                        GError               **error);
/* "png", "svg", "pdf" from a file name's end; FALSE when none matches. */
gboolean  ds_render_format_from_path   (const char            *path,
                                        DsRenderFormat        *ret_format);

G_END_DECLS
