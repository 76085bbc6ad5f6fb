/* ds-window-pictures.c: screenshots and graphs saved as captioned PNGs
 *
 * A screenshot is the visible page whole, as HD Tune's is: laid out at its
 * natural height for its width, every table row in it, nothing scrolled
 * away; a graph is the page's DsGraph alone.  Both get the warnings bar
 * over them when the window shows one ("These figures are likely fooled",
 * an icon and a sentence each), a caption strip under them, and the same
 * caption and warnings in the PNG's text chunks (Title, Description,
 * Creation Time, Software, Warnings: ds-caption.c, ds-png-text.c), so a
 * picture says which disk, which test with which settings, when, which
 * Diskscope and how far to trust it, wherever it ends up.
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

/* The visible page's result when the window shows its warnings (not
 * while it runs), or NULL. */
static const DsResult *
visible_warned_result (DsWindow *self)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  DsBenchKind kind = info != NULL ? info->kind : DS_BENCH_N_KINDS;
  const DsResult *result = ds_session_get_result (self->session, kind);

  if (result == NULL || result->warnings == NULL || result->warnings->len == 0 ||
      kind == ds_session_get_running_kind (self->session))
    return NULL;
  return result;
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

/* ---- A page drawn whole --------------------------------------------------
 *
 * HD Tune's screenshot is the whole result; a page's tables scroll in the
 * window.  So a picture lays the page out again at its natural height for
 * its width (every scrolled window opened to its content), draws it, and
 * gives the window its own layout back before the next frame: the user
 * never sees the big page. */

/* The most a picture grows to (cairo's image surfaces stop at 32767). */
#define PICTURE_MAX_HEIGHT 16384

typedef struct {
  GtkScrolledWindow *window;
  GtkPolicyType      hpolicy, vpolicy;
  gboolean           propagate;
  int                max_height;
  double             value;       /* where it was scrolled to */
} Opened;

static void
open_scrolled (GtkWidget *widget,
               GArray    *opened)
{
  if (GTK_IS_SCROLLED_WINDOW (widget))
    {
      GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (widget);
      Opened o = { .window = g_object_ref (sw) };

      gtk_scrolled_window_get_policy (sw, &o.hpolicy, &o.vpolicy);
      o.propagate = gtk_scrolled_window_get_propagate_natural_height (sw);
      o.max_height = gtk_scrolled_window_get_max_content_height (sw);
      o.value = gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (sw));
      g_array_append_val (opened, o);

      /* NEVER: the scrolled window asks for all of its child's height. */
      gtk_scrolled_window_set_max_content_height (sw, -1);
      gtk_scrolled_window_set_propagate_natural_height (sw, TRUE);
      gtk_scrolled_window_set_policy (sw, o.hpolicy, GTK_POLICY_NEVER);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    open_scrolled (child, opened);
}

static void
opened_free (GArray *opened)
{
  for (guint i = 0; i < opened->len; i++)
    g_object_unref (g_array_index (opened, Opened, i).window);
  g_array_unref (opened);
}

/* After the frame that laid the page out again at the window's size:
 * each scrolled window back where the user had scrolled it. */
static void
restore_scroll_cb (GdkFrameClock *clock,
                   GArray        *opened)
{
  for (guint i = 0; i < opened->len; i++)
    {
      Opened *o = &g_array_index (opened, Opened, i);

      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (o->window), o->value);
    }
  /* Frees @opened. */
  g_signal_handlers_disconnect_by_func (clock, restore_scroll_cb, opened);
}

static void
close_scrolled (GtkWidget *page,
                GArray    *opened)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (page);

  for (guint i = 0; i < opened->len; i++)
    {
      Opened *o = &g_array_index (opened, Opened, i);

      gtk_scrolled_window_set_policy (o->window, o->hpolicy, o->vpolicy);
      gtk_scrolled_window_set_propagate_natural_height (o->window, o->propagate);
      gtk_scrolled_window_set_max_content_height (o->window, o->max_height);
    }

  if (clock != NULL && opened->len > 0)
    g_signal_connect_data (clock, "after-paint", G_CALLBACK (restore_scroll_cb), g_array_ref (opened),
                           (GClosureNotify) (void (*) (void)) opened_free, 0);
  else
    opened_free (g_array_ref (opened));
}

/* @widget laid out @width wide and at least @min_height high (its
 * natural height for that width when more, up to the limit), drawn into
 * @snapshot at its origin; its height in @ret_height.  The window lays
 * it out at its own size again in its next frame. */
static void
snapshot_whole (GtkWidget   *widget,
                int          width,
                int          min_height,
                GtkSnapshot *snapshot,
                int         *ret_height)
{
  g_autoptr(GArray) opened = g_array_new (FALSE, FALSE, sizeof (Opened));
  GtkAllocation allocation;
  GtkWidget *parent;
  graphene_point_t origin;
  graphene_rect_t bounds;
  int minimum, natural, height;

  open_scrolled (widget, opened);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, NULL, NULL);
  height = CLAMP (MAX (natural, min_height), minimum, MAX (minimum, PICTURE_MAX_HEIGHT));

  gtk_widget_get_allocation (widget, &allocation);
  allocation.width = width;
  allocation.height = height;
  gtk_widget_size_allocate (widget, &allocation, -1);

  /* Drawn anew as laid out now (a paintable would show the last frame's
   * image): its parent places it, so it is moved back to the origin, its
   * CSS box's corner there. */
  gtk_widget_queue_draw (widget);
  parent = gtk_widget_get_parent (widget);
  if (!gtk_widget_compute_point (widget, parent, &GRAPHENE_POINT_INIT (0, 0), &origin))
    origin = GRAPHENE_POINT_INIT (0, 0);
  if (!gtk_widget_compute_bounds (widget, widget, &bounds))
    graphene_rect_init (&bounds, 0, 0, width, height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-origin.x - bounds.origin.x,
                                                          -origin.y - bounds.origin.y));
  gtk_widget_snapshot_child (parent, widget, snapshot);
  gtk_snapshot_restore (snapshot);
  *ret_height = height;

  close_scrolled (widget, opened);
  gtk_widget_queue_allocate (widget);
}

static cairo_status_t
append_png_cb (void                *data,
               const unsigned char *bytes,
               unsigned int         length)
{
  g_byte_array_append (data, bytes, length);
  return CAIRO_STATUS_SUCCESS;
}

/* @node drawn as cairo draws GTK (any renderer, any height) and encoded
 * as a PNG. */
static GBytes *
node_to_png (GskRenderNode *node,
             int            width,
             int            height,
             GError       **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  g_autoptr(GByteArray) png = g_byte_array_new ();
  cairo_status_t status;
  cairo_t *cr = cairo_create (surface);

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  status = cairo_surface_write_to_png_stream (surface, append_png_cb, png);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The picture could not be drawn: %s"),
                   cairo_status_to_string (status));
      return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&png));
}

/* The caption's text chunks, and the result's warnings when it has some. */
static GStrv
picture_text (DsWindow        *self,
              const DsCaption *caption)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_auto(GStrv) text = ds_caption_png_text (caption, now);
  g_autofree char *warnings = NULL;
  const DsResult *result = visible_warned_result (self);
  g_autoptr(GStrvBuilder) builder = NULL;

  if (result == NULL || (warnings = ds_png_warnings_text (result->warnings)) == NULL)
    return g_steal_pointer (&text);

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) text);
  g_strv_builder_add_many (builder, "Warnings", warnings, NULL);
  return g_strv_builder_end (builder);
}

/* @content (the page drawn whole, or as it is on screen when @whole is
 * FALSE) over @background, @padding around it, the warnings bar over it
 * when the window shows one, the caption under it; written to @path with
 * the caption and the warnings in its text. */
static gboolean
save_captioned (DsWindow       *self,
                GtkWidget      *content,
                gboolean        whole,
                const GdkRGBA  *background,
                int             padding,
                const char     *path,
                GError        **error)
{
  g_autoptr(DsCaption) caption = visible_caption (self);
  g_autoptr(GskRenderNode) strip = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GBytes) captioned = NULL;
  g_auto(GStrv) text = NULL;
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  int width = gtk_widget_get_width (content);
  int height = gtk_widget_get_height (content);
  int full_width = width + 2 * padding;
  int bar_height = 0, strip_height, total;
  GtkSnapshot *snapshot;
  DsSessionKeep keep;

  /* Never over the page's target (the device it would run on when it has
   * no result yet) or an opened result; refused before anything is drawn,
   * and before the window is asked anything: a destination that will be
   * refused is said so whatever the window's state. */
  ds_session_get_save_keep (self->session, info != NULL ? info->kind : DS_BENCH_N_KINDS, &keep);
  if (keep.keep.target == NULL)
    keep.keep.target = self->device_path;
  if (!ds_save_check (path, &keep.keep, error))
    return FALSE;

  if (width <= 0 || height <= 0 || !gtk_widget_get_mapped (content))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not shown yet."));
      return FALSE;
    }

  strip = caption_node (self, caption, full_width, &strip_height);
  snapshot = gtk_snapshot_new ();

  /* The bar first, the width of the picture: what it says wraps there. */
  if (visible_warned_result (self) != NULL && gtk_widget_get_mapped (self->warnings_bar))
    {
      GtkSnapshot *bar = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) bar_node = NULL;

      snapshot_whole (self->warnings_bar, full_width, 0, bar, &bar_height);
      bar_node = gtk_snapshot_free_to_node (bar);
      gtk_snapshot_append_color (snapshot, background,
                                 &GRAPHENE_RECT_INIT (0, 0, full_width, bar_height));
      if (bar_node != NULL)
        gtk_snapshot_append_node (snapshot, bar_node);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (padding, bar_height + padding));
  if (whole)
    {
      /* The content's own layout first, so that its height is known
       * before the background under it is drawn. */
      GtkSnapshot *page = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) page_node = NULL;

      snapshot_whole (content, width, height, page, &height);
      page_node = gtk_snapshot_free_to_node (page);
      gtk_snapshot_append_color (snapshot, background,
                                 &GRAPHENE_RECT_INIT (-padding, -padding, full_width, height + 2 * padding));
      if (page_node != NULL)
        gtk_snapshot_append_node (snapshot, page_node);
    }
  else
    {
      g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (content);

      gtk_snapshot_append_color (snapshot, background,
                                 &GRAPHENE_RECT_INIT (-padding, -padding, full_width, height + 2 * padding));
      gdk_paintable_snapshot (paintable, snapshot, width, height);
    }
  gtk_snapshot_restore (snapshot);

  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, bar_height + height + 2 * padding));
  gtk_snapshot_append_node (snapshot, strip);
  node = gtk_snapshot_free_to_node (snapshot);
  total = bar_height + height + 2 * padding + strip_height;

  png = node_to_png (node, full_width, total, error);
  if (png == NULL)
    return FALSE;
  text = picture_text (self, caption);
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

  return save_captioned (self, content, TRUE, &background, 0, path, error);
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

  return save_captioned (self, graph, FALSE, &background, GRAPH_PADDING, path, error);
}
