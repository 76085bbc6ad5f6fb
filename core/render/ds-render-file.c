/* ds-render-file.c: a comparison drawn into memory, then saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Cairo reports every failure through a status (an error surface, an
 * error context), and this file checks each one.  Pango and fontconfig do
 * not: g_malloc() aborts, and fontconfig crashes on a failed allocation
 * while it parses its configuration (seen under `ulimit -v`).  So before
 * they run, the room they need is made sure of (check_room()), and a
 * picture that does not fit fails with a message instead of a signal.
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "ds-error.h"
#include "ds-png-text.h"
#include "ds-render.h"
#include "ds-render-private.h"

/* The largest image cairo draws: pixman's coordinates are 16-bit. */
#define MAX_IMAGE_SIDE 32767

/* What Pango and fontconfig take while they draw the first picture on a
 * thread, besides the picture: fontconfig's configuration and its mapped
 * caches (about 7 MiB with Debian's fonts; room for many more), and up to
 * FONT_THREADS of Pango's helper threads at once (its FcInit, and a
 * FcFontSetMatch and a FcFontSetSort per font), each a thread stack.
 * Measured with `compare --png` under `ulimit -v`: 33 MiB above what the
 * process held before drawing, with one malloc arena (the CLI's compare
 * keeps to one: each arena is 64 MiB of address space).  Later pictures
 * on the same thread reuse the fonts and need only LAYOUT_ROOM. */
#define FONT_ROOM   (UINT64_C (32) << 20)
#define FONT_THREADS 4
#define LAYOUT_ROOM (UINT64_C (8) << 20)

/* The fonts of this thread's Pango font map (one per thread) are loaded. */
static _Thread_local gboolean fonts_loaded;

/* The bytes a stream surface writes, in memory that may run out: cairo
 * gets CAIRO_STATUS_NO_MEMORY instead of an abort. */
typedef struct {
  guint8 *data;
  gsize   len;
  gsize   size;
} Sink;

static cairo_status_t
sink_write (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  Sink *sink = closure;

  if (length > sink->size - sink->len)
    {
      gsize size = MAX (sink->size * 2, MAX (sink->len + length, 65536));
      guint8 *grown = size > sink->len ? g_try_realloc (sink->data, size) : NULL;

      if (grown == NULL)
        return CAIRO_STATUS_NO_MEMORY;
      sink->data = grown;
      sink->size = size;
    }
  memcpy (sink->data + sink->len, data, length);
  sink->len += length;

  return CAIRO_STATUS_SUCCESS;
}

static guint64
thread_stack_bytes (void)
{
  pthread_attr_t attr;
  size_t size = 8 << 20;

  if (pthread_getattr_default_np (&attr) == 0)
    {
      (void) pthread_attr_getstacksize (&attr, &size);
      pthread_attr_destroy (&attr);
    }
  /* 0 means the size of the main thread's limit (8 MiB by default). */
  return size > 0 ? size : 8 << 20;
}

/* Whether the room the text needs (*@ret_need bytes: FONT_ROOM and the
 * threads' stacks the first time on this thread, LAYOUT_ROOM after) can
 * be mapped now, in address space, data and, under strict overcommit,
 * commit: a writable mapping that is never touched, so it costs no
 * memory, and is given back at once. */
static gboolean
check_room (guint64  *ret_need)
{
  guint64 need = fonts_loaded ? LAYOUT_ROOM : FONT_ROOM + FONT_THREADS * thread_stack_bytes ();
  void *p;

  *ret_need = need;
  if (need > G_MAXSIZE)
    return FALSE;
  p = mmap (NULL, (size_t) need, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return FALSE;
  munmap (p, (size_t) need);

  return TRUE;
}

static void
set_memory_error (GError         **error,
                  int              width,
                  int              height,
                  const char      *why)
{
  g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
               _("not enough memory to draw the picture (%d×%d px): %s"), width, height, why);
}

/* The surface to draw on, or NULL with the error. */
static cairo_surface_t *
create_surface (DsRenderFormat   format,
                double           width,
                double           height,
                Sink            *sink,
                GError         **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;

  if (format == DS_RENDER_PNG && (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the picture would be %.0f×%.0f px, more than the %d px a side "
                   "that a PNG is drawn at; save it as SVG or PDF"),
                   width, height, MAX_IMAGE_SIDE);
      return NULL;
    }

  switch (format)
    {
    case DS_RENDER_SVG:
      surface = cairo_svg_surface_create_for_stream (sink_write, sink, width, height);
      break;
    case DS_RENDER_PDF:
      surface = cairo_pdf_surface_create_for_stream (sink_write, sink, width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Diskscope " PACKAGE_VERSION);
      break;
    case DS_RENDER_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) width, (int) height);
      break;
    }

  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    return surface;

  cairo_surface_destroy (surface);
  if (status == CAIRO_STATUS_NO_MEMORY)
    set_memory_error (error, (int) width, (int) height, cairo_status_to_string (status));
  else
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("could not draw the picture (%d×%d px): %s"),
                 (int) width, (int) height, cairo_status_to_string (status));
  return NULL;
}

/* Draws on @surface; the drawing's status. */
static cairo_status_t
draw (const DsComparison    *cmp,
      const DsRenderOptions *options,
      cairo_surface_t       *surface,
      double                 width,
      double                 height)
{
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status = cairo_status (cr);

  if (status == CAIRO_STATUS_SUCCESS)
    {
      ds_render_comparison (cmp, options, cr, width, height);
      status = cairo_status (cr);
    }
  cairo_destroy (cr);

  return status;
}

/* A PNG says what it shows in its text chunks, as the app's pictures do:
 * the comparison, the software, and each result's warnings (a fooled
 * figure beside a true one must not lose its warning with the window). */
static GBytes *
add_png_text (GBytes              *png,
              const DsComparison  *cmp,
              GError             **error)
{
  const DsBenchOps *ops = ds_bench_get (cmp->kind);
  g_autoptr (GPtrArray) text = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) results = g_string_new (NULL);

  for (guint i = 0; i < cmp->columns->len; i++)
    {
      const DsCompareColumn *c = cmp->columns->pdata[i];

      g_string_append_printf (results, "%s%c: %s", i > 0 ? "\n" : "", c->letter,
                              c->label != NULL ? c->label : "?");
    }
  g_ptr_array_add (text, g_strdup ("Title"));
  g_ptr_array_add (text, g_strdup_printf ("Diskscope comparison: %s", ops != NULL ? ops->title : "?"));
  g_ptr_array_add (text, g_strdup ("Description"));
  g_ptr_array_add (text, g_strdup (results->str));
  g_ptr_array_add (text, g_strdup ("Software"));
  g_ptr_array_add (text, g_strdup_printf ("Diskscope %s", PACKAGE_VERSION));
  if (cmp->warnings != NULL && cmp->warnings->len > 0)
    {
      GString *lines = g_string_new (NULL);

      for (guint i = 0; i < cmp->warnings->len; i++)
        g_string_append_printf (lines, "%s%s", i > 0 ? "\n" : "", (const char *) cmp->warnings->pdata[i]);
      g_ptr_array_add (text, g_strdup ("Warnings"));
      g_ptr_array_add (text, g_string_free (lines, FALSE));
    }
  g_ptr_array_add (text, NULL);

  return ds_png_add_text (png, (const char *const *) text->pdata, error);
}

GBytes *
ds_render_comparison_to_bytes (const DsComparison    *cmp,
                               const DsRenderOptions *options,
                               DsRenderFormat         format,
                               GError               **error)
{
  double width = options->width > 0 ? options->width : DEFAULT_WIDTH;
  double height = ds_render_comparison_height (cmp, options);
  Sink sink = { 0 };
  cairo_surface_t *surface;
  cairo_status_t status;
  guint64 need = 0;

  surface = create_surface (format, width, height, &sink, error);
  if (surface == NULL)
    return NULL;

  /* With the picture's pixels taken: is there room for the fonts? */
  if (!check_room (&need))
    {
      g_autofree char *size = g_format_size_full (need, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *why = g_strdup_printf (_("drawing its text needs about %s more, which "
                                                "the memory limits (ulimit -v, ulimit -d) do not leave"),
                                              size);

      cairo_surface_destroy (surface);
      g_free (sink.data);
      set_memory_error (error, (int) width, (int) height, why);
      return NULL;
    }

  status = draw (cmp, options, surface, width, height);
  if (status == CAIRO_STATUS_SUCCESS)
    fonts_loaded = TRUE;
  if (status == CAIRO_STATUS_SUCCESS && format == DS_RENDER_PNG)
    status = cairo_surface_write_to_png_stream (surface, sink_write, &sink);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_free (sink.data);
      if (status == CAIRO_STATUS_NO_MEMORY)
        set_memory_error (error, (int) width, (int) height, cairo_status_to_string (status));
      else
        g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("could not draw the picture (%d×%d px): %s"),
                     (int) width, (int) height, cairo_status_to_string (status));
      return NULL;
    }

  {
    g_autoptr (GBytes) drawn = g_bytes_new_take (sink.data, sink.len);

    if (format != DS_RENDER_PNG)
      return g_steal_pointer (&drawn);
    return add_png_text (drawn, cmp, error);
  }
}

gboolean
ds_render_comparison_to_file (const DsComparison    *cmp,
                              const DsRenderOptions *options,
                              DsRenderFormat         format,
                              const char            *path,
                              const DsSaveKeep      *keep,
                              GError               **error)
{
  g_autoptr (GBytes) bytes = NULL;

  /* A destination that will be refused is refused before the drawing. */
  if (!ds_save_check (path, keep, error))
    return FALSE;

  bytes = ds_render_comparison_to_bytes (cmp, options, format, error);
  if (bytes == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }

  return ds_save_file (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), keep, error);
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
