/* ds-window-pictures.c: screenshots and graphs saved as captioned PNGs
 *
 * A screenshot is the visible page as the user sees it; a graph is the
 * page's DsGraph alone.  Both get a caption strip under them and the same
 * caption in the PNG's text chunks (Title, Description, Creation Time,
 * Software: ds-caption.c, ds-png-text.c), so a picture says which disk,
 * which test with which settings, when, and which Diskscope, wherever it
 * ends up.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-caption.h"
#include "ds-graph.h"
#include "ds-png-text.h"
#include "ds-save.h"
#include "ds-window-private.h"

/* Around the caption's text, and around a graph saved alone, in pixels. */
#define CAPTION_PADDING_X 14
#define CAPTION_PADDING_Y 10
#define GRAPH_PADDING     12

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback,
              GdkRGBA    *ret_color)
{
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, ret_color))
    gdk_rgba_parse (ret_color, fallback);
}

static GtkWidget *
find_graph (GtkWidget *widget)
{
  if (DS_IS_GRAPH (widget))
    return gtk_widget_get_visible (widget) ? widget : NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *graph = find_graph (child);

      if (graph != NULL)
        return graph;
    }

  return NULL;
}

GtkWidget *
_ds_window_get_visible_graph (DsWindow *self)
{
  GtkWidget *page = adw_view_stack_get_visible_child (self->view_stack);

  return page != NULL ? find_graph (page) : NULL;
}

/* The caption of what the visible page shows: its result (run or opened,
 * with its own device), or the device and settings Start would use. */
static DsCaption *
visible_caption (DsWindow *self)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  DsBenchKind kind = info != NULL ? info->kind : DS_BENCH_N_KINDS;
  const DsResult *result = ds_session_get_result (self->session, kind);
  const DsDevice *device = _ds_window_get_device (self);
  const char *title = info != NULL ? _(info->title) : _("Diskscope");
  DsCaption *caption;
  DsBenchSpec spec;

  if (result != NULL || kind >= DS_BENCH_N_KINDS)
    return ds_caption_new (title, result, ds_session_get_result_file (self->session, kind),
                           NULL, device);

  ds_session_init_spec (self->session, &spec, kind,
                        ds_session_kind_needs_device (kind) ? self->device_path : NULL);
  /* The page's own choices (direction, folder), where it can give them. */
  ds_page_configure (_ds_window_get_visible_page (self), &spec, NULL);
  caption = ds_caption_new (title, NULL, NULL, &spec, device);
  ds_bench_spec_clear (&spec);

  return caption;
}

/* The strip under a picture: the device in bold, the test and its
 * settings, then when and which Diskscope, dimmer. */
static GskRenderNode *
caption_node (DsWindow        *self,
              const DsCaption *caption,
              int              width,
              int             *ret_height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autofree char *device = g_markup_escape_text (caption->device, -1);
  g_autofree char *test = g_markup_escape_text (caption->test, -1);
  g_autofree char *when = g_markup_escape_text (caption->when, -1);
  g_autofree char *software = g_markup_escape_text (caption->software, -1);
  g_autofree char *markup = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GdkRGBA background, text, rule;
  int text_height;

  markup = g_strdup_printf ("<b>%s</b>\n%s\n<span alpha=\"70%%\">%s · %s</span>",
                            device, test, when, software);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_set_width (layout, MAX (width - 2 * CAPTION_PADDING_X, 1) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  *ret_height = text_height + 2 * CAPTION_PADDING_Y;

  lookup_color (widget, "headerbar_bg_color", "#ebebeb", &background);
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &text);
  rule = text;
  rule.alpha *= 0.15;

  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, *ret_height));
  gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, 0, width, 1));
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (CAPTION_PADDING_X, CAPTION_PADDING_Y));
  gtk_snapshot_append_layout (snapshot, layout, &text);

  return gtk_snapshot_free_to_node (snapshot);
}

/* @content as it is on screen over @background, @padding around it, the
 * caption under it; written to @path with the caption in its text. */
static gboolean
save_captioned (DsWindow       *self,
                GtkWidget      *content,
                const GdkRGBA  *background,
                int             padding,
                const char     *path,
                GError        **error)
{
  g_autoptr(DsCaption) caption = visible_caption (self);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) strip = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GBytes) captioned = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_auto(GStrv) text = NULL;
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  int width = gtk_widget_get_width (content);
  int height = gtk_widget_get_height (content);
  int full_width = width + 2 * padding;
  int strip_height;
  GtkSnapshot *snapshot;
  DsSessionKeep keep;

  if (width <= 0 || height <= 0 || renderer == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not shown yet."));
      return FALSE;
    }

  /* Never over the page's target (the device it would run on when it has
   * no result yet) or an opened result; refused before anything is drawn. */
  ds_session_get_save_keep (self->session, info != NULL ? info->kind : DS_BENCH_N_KINDS, &keep);
  if (keep.keep.target == NULL)
    keep.keep.target = self->device_path;
  if (!ds_save_check (path, &keep.keep, error))
    return FALSE;

  strip = caption_node (self, caption, full_width, &strip_height);
  paintable = gtk_widget_paintable_new (content);
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, background,
                             &GRAPHENE_RECT_INIT (0, 0, full_width, height + 2 * padding));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (padding, padding));
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, height + 2 * padding));
  gtk_snapshot_append_node (snapshot, strip);
  node = gtk_snapshot_free_to_node (snapshot);

  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, full_width,
                                                              height + 2 * padding + strip_height));
  png = gdk_texture_save_to_png_bytes (texture);
  text = ds_caption_png_text (caption, now);
  captioned = ds_png_add_text (png, (const char *const *) text, error);
  if (captioned == NULL)
    return FALSE;

  /* Safe to point at anything: a path that exists and is not a regular
   * file is refused, never replaced (ds-save.h). */
  return ds_save_file (path, g_bytes_get_data (captioned, NULL),
                       g_bytes_get_size (captioned), &keep.keep, error);
}

gboolean
ds_window_save_screenshot (DsWindow    *self,
                           const char  *path,
                           GError     **error)
{
  GtkWidget *content;
  GdkRGBA background;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* The page (graph, figures, table) as the user sees it, over the
   * window's background: not the header bar, the switcher or the frame. */
  content = adw_view_stack_get_visible_child (self->view_stack);
  if (content == NULL)
    content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (self));
  lookup_color (GTK_WIDGET (self), "window_bg_color", "#fafafa", &background);

  return save_captioned (self, content, &background, 0, path, error);
}

gboolean
ds_window_save_graph (DsWindow    *self,
                      const char  *path,
                      GError     **error)
{
  GtkWidget *graph;
  GdkRGBA background;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  graph = _ds_window_get_visible_graph (self);
  if (graph == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This page has no graph."));
      return FALSE;
    }

  /* The graph's card, not the window behind it. */
  lookup_color (GTK_WIDGET (self), "card_bg_color", "#ffffff", &background);

  return save_captioned (self, graph, &background, GRAPH_PADDING, path, error);
}
