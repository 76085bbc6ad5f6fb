/* ds-compare-window.c: results of one kind overlaid and side by side
 *
 * A window over one DsComparison (core/library/ds-compare.h): the legend
 * (each result's colour, letter and label), for transfer benchmarks one
 * graph per direction with every result's curve in its own colour on a
 * common x-axis (GB when the tested capacities match, % of each capacity
 * when they differ) and its access-time dots, which each result's legend
 * row can hide; then the tables with a column per result and the ratios
 * (ds-compare-table.c), then the notes.  The graphs are the pages' own
 * DsGraph with a DsLineLayer and a DsDotsLayer per result.
 *
 * Export draws the same comparison with the render library (PNG, SVG,
 * PDF: the same colours) or writes its tables (CSV, Markdown), on a
 * worker thread; the comparison and its results never change once made,
 * so the worker reads them as they are, holding them (Shared) past the
 * window if it closes first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ds-compare-format.h"
#include "ds-compare-window-private.h"
#include "ds-dots-layer.h"
#include "ds-error.h"
#include "ds-export-chooser.h"
#include "ds-line-layer.h"
#include "ds-pages.h"
#include "ds-render.h"
#include "ds-save.h"

/* The comparison and the results it borrows from, shared with exports
 * still running on a worker when the window closes (a GRcBox). */
typedef struct {
  GPtrArray    *results;             /* DsResult *, the columns' */
  DsComparison *comparison;
  GStrv         inputs;              /* the files they were read from: an
                                      * export never replaces one */
} Shared;

static void
shared_clear (Shared *shared)
{
  /* The comparison borrows the results: it goes first. */
  g_clear_pointer (&shared->comparison, ds_comparison_free);
  g_clear_pointer (&shared->results, g_ptr_array_unref);
  g_clear_pointer (&shared->inputs, g_strfreev);
}

static void
shared_release (Shared *shared)
{
  g_rc_box_release_full (shared, (GDestroyNotify) shared_clear);
}

struct _DsCompareWindow
{
  AdwWindow             parent_instance;

  Shared               *shared;
  const DsComparison   *comparison;  /* shared->comparison */
  DsUnits               units;
  DsGraph              *graphs[2];   /* read, write; NULL when not run */
  GPtrArray            *dots;        /* per column: its DsDotsLayer of each
                                      * graph (a GPtrArray) */
  GtkFileChooserNative *chooser;
  GCancellable         *cancellable;

  /* Template widgets */
  AdwWindowTitle       *window_title;
  AdwToastOverlay      *toast_overlay;
  GtkBox               *content;
};

G_DEFINE_FINAL_TYPE (DsCompareWindow, ds_compare_window, ADW_TYPE_WINDOW)

/* ---- Graphs -------------------------------------------------------------- */

static DsSeries *
curve_series (GArray *points)
{
  DsSeries *series = ds_series_new ();

  for (guint i = 0; i < points->len; i++)
    {
      const DsCurvePoint *p = &g_array_index (points, DsCurvePoint, i);

      if (isnan (p->bytes_per_s))
        ds_series_append (series, p->x, 0, EIO);
      else
        ds_series_append (series, p->x, p->bytes_per_s, 0);
    }
  return series;
}

static DsSeries *
dots_series (GArray *dots)
{
  DsSeries *series = ds_series_new ();

  for (guint i = 0; i < dots->len; i++)
    {
      const DsAccessDot *d = &g_array_index (dots, DsAccessDot, i);

      ds_series_append (series, d->x, d->access_s, 0);
    }
  return series;
}

/* One direction's graph, or NULL when no result ran it. */
static DsGraph *
direction_graph (DsCompareWindow *self,
                 gboolean         write)
{
  const DsComparison *cmp = self->comparison;
  DsGraph *graph = NULL;
  gboolean any_dots = FALSE;

  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = ds_comparison_get_column (cmp, c);
      g_autoptr(GArray) points = NULL;
      g_autoptr(GArray) dots = NULL;
      g_autofree char *color = _ds_compare_color (c);
      g_autofree char *title = NULL;
      g_autoptr(DsSeries) series = NULL;
      g_autoptr(DsGraphLayer) line = NULL;

      if (!ds_comparison_get_curve (cmp, c, write, &points, &dots))
        continue;

      if (graph == NULL)
        {
          graph = DS_GRAPH (ds_graph_new ());
          ds_graph_set_units (graph, self->units);
          if (cmp->x_percent)
            ds_graph_set_x_axis (graph, DS_GRAPH_AXIS_FRACTION);
          else
            {
              ds_graph_set_x_axis (graph, DS_GRAPH_AXIS_POSITION);
              ds_graph_set_x_max (graph, (double) cmp->x_max_bytes);
            }
          gtk_widget_set_size_request (GTK_WIDGET (graph), -1, 340);
        }

      title = g_strdup_printf ("%c: %s", col->letter, col->label);
      series = curve_series (points);
      line = ds_line_layer_new ();
      ds_graph_layer_set_series (line, series);
      ds_graph_layer_set_title (line, title);
      ds_graph_layer_set_color (line, color);
      ds_graph_layer_set_legend (line, DS_GRAPH_LEGEND_ALWAYS);
      ds_line_layer_set_style (DS_LINE_LAYER (line), (int) c);
      ds_graph_add_layer (graph, line);

      if (dots != NULL && dots->len > 0)
        {
          g_autoptr(DsSeries) dot_series = dots_series (dots);
          g_autoptr(DsGraphLayer) layer = ds_dots_layer_new ();

          ds_graph_layer_set_series (layer, dot_series);
          ds_graph_layer_set_color (layer, color);
          ds_graph_layer_set_y_axis (layer, DS_GRAPH_SIDE_RIGHT);
          ds_graph_add_layer (graph, layer);
          g_ptr_array_add (self->dots->pdata[c], g_object_ref (layer));
          g_object_set_data (G_OBJECT (layer), "graph", graph);   /* the window holds it */
          any_dots = TRUE;
        }
    }

  if (graph != NULL && any_dots)
    ds_graph_set_y_axis (graph, DS_GRAPH_SIDE_RIGHT, DS_GRAPH_AXIS_LATENCY);

  return graph;
}

static gboolean
layer_shown (DsGraphLayer *layer)
{
  DsGraph *graph = g_object_get_data (G_OBJECT (layer), "graph");

  for (guint j = 0; j < ds_graph_get_n_layers (graph); j++)
    if (ds_graph_get_layer (graph, j) == layer)
      return TRUE;
  return FALSE;
}

void
ds_compare_window_set_show_access (DsCompareWindow *self,
                                   guint            column,
                                   gboolean         show)
{
  GPtrArray *layers;

  g_return_if_fail (DS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (column < self->dots->len);

  layers = self->dots->pdata[column];
  for (guint i = 0; i < layers->len; i++)
    {
      DsGraphLayer *layer = layers->pdata[i];
      DsGraph *graph = g_object_get_data (G_OBJECT (layer), "graph");
      gboolean shown = layer_shown (layer);

      if (show && !shown)
        ds_graph_add_layer (graph, layer);
      else if (!show && shown)
        ds_graph_remove_layer (graph, layer);
    }
}

DsGraph *
ds_compare_window_get_graph (DsCompareWindow *self,
                             gboolean         write)
{
  g_return_val_if_fail (DS_IS_COMPARE_WINDOW (self), NULL);

  return self->graphs[write ? 1 : 0];
}

const DsComparison *
ds_compare_window_get_comparison (DsCompareWindow *self)
{
  g_return_val_if_fail (DS_IS_COMPARE_WINDOW (self), NULL);

  return self->comparison;
}

static GtkWidget *
heading (const char *text,
         const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
build (DsCompareWindow *self)
{
  const DsComparison *cmp = self->comparison;
  const DsPageInfo *page = ds_pages_for_kind (cmp->kind);
  const DsBenchOps *ops = ds_bench_get (cmp->kind);
  const char *title = page != NULL ? _(page->title) : ops != NULL ? ops->title : "?";
  gboolean curves = FALSE;
  g_autofree char *subtitle = NULL;
  GtkWidget *notes;

  for (gboolean write = FALSE; write <= TRUE; write++)
    {
      self->graphs[write] = direction_graph (self, write);
      curves = curves || self->graphs[write] != NULL;
    }

  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u result", "%s, %u results",
                                           cmp->columns->len),
                              title, cmp->columns->len);
  adw_window_title_set_subtitle (self->window_title, subtitle);

  gtk_box_append (self->content, _ds_compare_legend_new (self, cmp, curves));
  for (guint write = 0; write < 2; write++)
    if (self->graphs[write] != NULL)
      {
        gtk_box_append (self->content, heading (write ? _("Write transfer rate") : _("Read transfer rate"),
                                                "title-4"));
        gtk_box_append (self->content, GTK_WIDGET (self->graphs[write]));
      }
  gtk_box_append (self->content, _ds_compare_tables_new (cmp, self->units));
  notes = _ds_compare_notes_new (cmp);
  if (notes != NULL)
    gtk_box_append (self->content, notes);
}

/* ---- Export -------------------------------------------------------------- */

/* Thread-safe: the comparison never changes once made.  Under ds-save.h's
 * rules, and never over one of the compared results' files. */
static gboolean
export_comparison (const Shared          *shared,
                   const DsRenderOptions *options,
                   const char            *path,
                   GError               **error)
{
  const DsComparison *cmp = shared->comparison;
  const DsSaveKeep keep = { .inputs = (const char *const *) shared->inputs };
  g_autofree char *text = NULL;
  DsRenderFormat format;

  if (ds_render_format_from_path (path, &format))
    return ds_render_comparison_to_file (cmp, options, format, path, &keep, error);

  if (g_str_has_suffix (path, ".csv"))
    text = ds_comparison_to_csv (cmp, options->units);
  else if (g_str_has_suffix (path, ".md") || g_str_has_suffix (path, ".markdown"))
    text = ds_comparison_to_markdown (cmp, options->units);
  else
    {
      g_autofree char *name = g_path_get_basename (path);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("“%s”: end the name with .png, .svg, .pdf, .csv or .md to choose the format"),
                   name);
      return FALSE;
    }

  return ds_save_file (path, text, strlen (text), &keep, error);
}

/* The drawing as the window shows it: the dots drawn unless every run's
 * are hidden (the drawing has one switch for all). */
static DsRenderOptions
render_options (DsCompareWindow *self)
{
  DsRenderOptions options = { .units = self->units, .show_access = FALSE };

  for (guint c = 0; c < self->dots->len; c++)
    for (guint i = 0; i < ((GPtrArray *) self->dots->pdata[c])->len; i++)
      if (layer_shown (((GPtrArray *) self->dots->pdata[c])->pdata[i]))
        options.show_access = TRUE;

  return options;
}

gboolean
ds_compare_window_export (DsCompareWindow  *self,
                          const char       *path,
                          GError          **error)
{
  DsRenderOptions options;

  g_return_val_if_fail (DS_IS_COMPARE_WINDOW (self), FALSE);

  options = render_options (self);
  return export_comparison (self->shared, &options, path, error);
}

typedef struct {
  Shared          *shared;
  DsRenderOptions  options;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  shared_release (job->shared);
  g_free (job);
}

static gboolean
export_job (gpointer     data,
            const char  *path,
            GError     **error)
{
  ExportJob *job = data;

  return export_comparison (job->shared, &job->options, path, error);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  DsCompareWindow *self = DS_COMPARE_WINDOW (widget);
  const char *extension = g_variant_get_string (param, NULL);
  g_autofree char *name = g_strdup_printf ("comparison-%s.%s", ds_bench_get (self->comparison->kind)->name,
                                           extension);
  ExportJob *job;

  if (self->chooser != NULL)
    return;

  job = g_new0 (ExportJob, 1);
  job->shared = g_rc_box_acquire (self->shared);
  job->options = render_options (self);
  ds_export_ask (GTK_WINDOW (self), &self->chooser, self->toast_overlay, _("Export the Comparison"), name,
                 _("Comparison exported"), export_job, job, (GDestroyNotify) export_job_free,
                 self->cancellable);
}

/* ---- Life cycle ---------------------------------------------------------- */

static void
ds_compare_window_dispose (GObject *object)
{
  DsCompareWindow *self = (DsCompareWindow *) object;

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->dots, g_ptr_array_unref);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_COMPARE_WINDOW);

  G_OBJECT_CLASS (ds_compare_window_parent_class)->dispose (object);
}

static void
ds_compare_window_finalize (GObject *object)
{
  DsCompareWindow *self = (DsCompareWindow *) object;

  g_clear_pointer (&self->shared, shared_release);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (ds_compare_window_parent_class)->finalize (object);
}

static void
ds_compare_window_class_init (DsCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_compare_window_dispose;
  object_class->finalize = ds_compare_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskscope/Diskscope/ui/ds-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DsCompareWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DsCompareWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DsCompareWindow, content);

  gtk_widget_class_install_action (widget_class, "compare.export", "s", export_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
ds_compare_window_init (DsCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
}

DsCompareWindow *
ds_compare_window_new (GtkWindow          *parent,
                       GPtrArray          *results,
                       const char *const  *sources,
                       DsUnits             units,
                       GError            **error)
{
  g_autoptr(GPtrArray) owned = results;
  g_autoptr(DsComparison) comparison = NULL;
  DsCompareWindow *self;

  g_return_val_if_fail (results != NULL, NULL);

  comparison = ds_comparison_new ((DsResult *const *) results->pdata, sources, results->len, error);
  if (comparison == NULL)
    return NULL;

  self = g_object_new (DS_TYPE_COMPARE_WINDOW, "transient-for", parent, NULL);
  self->shared = g_rc_box_new0 (Shared);
  self->shared->results = g_steal_pointer (&owned);
  self->shared->comparison = g_steal_pointer (&comparison);
  self->comparison = self->shared->comparison;
  self->units = units;
  self->dots = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint c = 0; c < self->comparison->columns->len; c++)
    g_ptr_array_add (self->dots, g_ptr_array_new_with_free_func (g_object_unref));

  build (self);
  return self;
}

void
ds_compare_window_set_inputs (DsCompareWindow    *self,
                              const char *const  *files)
{
  g_return_if_fail (DS_IS_COMPARE_WINDOW (self));

  g_clear_pointer (&self->shared->inputs, g_strfreev);
  self->shared->inputs = g_strdupv ((char **) files);
}
