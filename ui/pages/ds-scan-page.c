/* ds-scan-page.c: HD Tune's Error Scan tab
 *
 * The block map (DsBlockMap) grows while the scan reads the disk, one
 * square at a time; beside it the legend counts the blocks in each of
 * MHDD's latency buckets, the damaged ones and those not read yet, and
 * under it the bad ranges are listed with their byte offsets as the scan
 * finds them.  Quick scan and a range (START-END, as the CLI's --range)
 * are the page's choices.  Stop keeps the map; the result (saved,
 * reported, opened) shows the same map, counts and exact ranges.
 *
 * The samples (ds-bench-error-scan.h): the "scan" phase gives the map's
 * geometry, a point per finished cell its state, a "blocks" row each
 * count that changed, and an access sample each bad sector.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ds-block-map.h"
#include "ds-page.h"
#include "ds-scan-page.h"
#include "ds-session.h"

/* Bad ranges listed at most (the report and the JSON hold them all). */
#define MAX_LISTED 200

#define N_STATES (DS_SCAN_ERROR + 1)

struct _DsScanPage
{
  GtkWidget        parent_instance;

  DsSeries        *cells;           /* the map: x = cell, y = DsScanCell */
  DsRangeList      bad;             /* bad sectors found, merged */
  gboolean         bad_changed;
  uint64_t         counts[N_STATES];/* blocks per state ([UNREAD] unused) */
  uint64_t         n_reads;         /* blocks the scan reads */
  uint64_t         device_size;
  DsUnits          units;
  double           rate;            /* of the last cell, bytes/s */
  gboolean         shown;           /* a run or a result is on the page */
  GtkLabel        *count_labels[N_STATES];

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkStack        *map_stack;
  DsBlockMap      *block_map;
  GtkLabel        *status_label;
  GtkLabel        *bad_heading;
  GtkListBox      *bad_list;
  GtkSwitch       *quick_switch;
  AdwEntryRow     *range_row;
  GtkGrid         *legend_table;
  GtkLabel        *summary_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsScanPage, ds_scan_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

/* ---- Legend and bad ranges --------------------------------------------- */

/* The order of the legend: the buckets, the errors, what is left. */
static const DsScanCell legend_order[] = {
  DS_SCAN_LT_5MS, DS_SCAN_LT_20MS, DS_SCAN_LT_50MS, DS_SCAN_LT_150MS,
  DS_SCAN_LT_500MS, DS_SCAN_GE_500MS, DS_SCAN_ERROR, DS_SCAN_UNREAD,
};

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  ds_block_map_draw_square (GTK_WIDGET (area), cr, GPOINTER_TO_INT (user_data),
                            0, (height - 14) / 2.0, 14);
}

static void
build_legend (DsScanPage *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (legend_order); i++)
    {
      DsScanCell state = legend_order[i];
      GtkWidget *swatch = gtk_drawing_area_new ();
      GtkWidget *label = gtk_label_new (ds_block_map_state_label (state));
      GtkWidget *count = gtk_label_new ("—");

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 14);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 14);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                      GINT_TO_POINTER (state), NULL);
      gtk_widget_set_margin_start (swatch, 12);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_label_set_xalign (GTK_LABEL (count), 1);
      gtk_widget_add_css_class (count, "numeric");
      gtk_grid_attach (self->legend_table, swatch, 0, i, 1, 1);
      gtk_grid_attach (self->legend_table, label, 1, i, 1, 1);
      gtk_grid_attach (self->legend_table, count, 2, i, 1, 1);
      self->count_labels[state] = GTK_LABEL (count);
    }
}

static void
update_legend (DsScanPage *self)
{
  uint64_t read = 0;

  for (guint s = DS_SCAN_LT_5MS; s < N_STATES; s++)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, self->counts[s]);

      read += self->counts[s];
      gtk_label_set_label (self->count_labels[s], self->shown ? text : "—");
    }

  if (self->shown)
    {
      g_autofree char *left = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                               self->n_reads > read ? self->n_reads - read : 0);

      gtk_label_set_label (self->count_labels[DS_SCAN_UNREAD], left);
    }
  else
    gtk_label_set_label (self->count_labels[DS_SCAN_UNREAD], "—");
}

static void
update_bad_list (DsScanPage        *self,
                 const DsRangeList *bad)
{
  GtkWidget *child;
  g_autofree char *heading = NULL;
  g_autofree char *bytes = NULL;
  guint n = bad->ranges->len;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->bad_list))) != NULL)
    gtk_list_box_remove (self->bad_list, child);

  for (guint i = 0; i < n && i < MAX_LISTED; i++)
    {
      const DsByteRange *r = &g_array_index (bad->ranges, DsByteRange, i);
      g_autofree char *gb = g_strdup_printf ("%.3f", r->offset_bytes / 1e9);
      g_autofree char *offset = g_strdup_printf ("%" G_GUINT64_FORMAT, r->offset_bytes);
      g_autofree char *length = g_strdup_printf ("%" G_GUINT64_FORMAT, r->length_bytes);
      /* Translators: where a bad range starts in GB, its byte offset, its length */
      g_autofree char *text = g_strdup_printf (_("At %s GB: offset %s, %s bytes"), gb, offset, length);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_box_append (self->bad_list, label);
    }
  if (n > MAX_LISTED || bad->truncated)
    {
      gtk_list_box_append (self->bad_list,
                           gtk_label_new (_("… and more: the report and the saved result list them all")));
    }

  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, bad->total_bytes);
  if (n == 0)
    heading = g_strdup (_("Bad Ranges"));
  else
    /* Translators: the number of bad ranges, then the bytes in them */
    heading = g_strdup_printf (ngettext ("Bad Ranges: %u, %s bytes", "Bad Ranges: %u, %s bytes", n),
                               n, bytes);
  gtk_label_set_label (self->bad_heading, heading);
}

/* ---- The map before a run ---------------------------------------------- */

/* The page's range, or FALSE with why it cannot be read. */
static gboolean
read_range (DsScanPage  *self,
            uint64_t    *ret_offset,
            uint64_t    *ret_span,
            GError     **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->range_row));

  *ret_offset = *ret_span = 0;
  if (text == NULL || *text == '\0')
    return TRUE;

  return ds_parse_range (text, ret_offset, ret_span, error);
}

/* Shows the map a scan with these choices will fill, all unread. */
static void
set_geometry (DsScanPage *self,
              uint64_t    offset,
              uint64_t    span,
              gboolean    quick)
{
  DsBenchSpec spec;
  DsScanGeometry g;

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  if (span == 0 && self->device_size > offset)
    span = self->device_size - offset;
  ds_scan_geometry (offset, span, spec.block_size_bytes, quick, &g);
  ds_bench_spec_clear (&spec);

  self->n_reads = g.n_reads;
  ds_block_map_set_geometry (self->block_map, g.n_cells, g.start_bytes, g.cell_bytes,
                             g.start_bytes + g.span_bytes);
  gtk_stack_set_visible_child_name (self->map_stack, g.n_cells > 0 ? "map" : "empty");
}

static void
preview (DsScanPage *self)
{
  uint64_t offset, span;

  if (self->shown)
    return;

  if (self->device_size == 0 || !read_range (self, &offset, &span, NULL) ||
      offset >= self->device_size)
    {
      gtk_stack_set_visible_child_name (self->map_stack, "empty");
      return;
    }

  ds_series_clear (self->cells);
  ds_series_changed (self->cells);
  set_geometry (self, offset, span, gtk_switch_get_active (self->quick_switch));
}

static void
options_changed_cb (DsScanPage *self)
{
  preview (self);
}

static void
clear (DsScanPage *self)
{
  ds_series_clear (self->cells);
  ds_series_changed (self->cells);
  ds_range_list_clear (&self->bad);
  ds_range_list_init (&self->bad, G_MAXUINT);
  memset (self->counts, 0, sizeof self->counts);
  self->rate = 0;
  self->bad_changed = FALSE;
  update_bad_list (self, &self->bad);
  gtk_label_set_label (self->summary_label, "");
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_scan_page_set_device (DsPage         *page,
                         const DsDevice *device)
{
  DsScanPage *self = DS_SCAN_PAGE (page);

  self->device_size = device ? device->size_bytes : 0;
  preview (self);
}

static void
ds_scan_page_set_units (DsPage  *page,
                        DsUnits  units)
{
  DS_SCAN_PAGE (page)->units = units;
}

static gboolean
ds_scan_page_configure (DsPage       *page,
                        DsBenchSpec  *spec,
                        GError      **error)
{
  DsScanPage *self = DS_SCAN_PAGE (page);

  ds_error_scan_options (spec)->quick = gtk_switch_get_active (self->quick_switch);
  return read_range (self, &spec->offset_bytes, &spec->span_bytes, error);
}

static void
ds_scan_page_show_error (DsPage     *page,
                         const char *message)
{
  DsScanPage *self = DS_SCAN_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
ds_scan_page_begin (DsPage            *page,
                    const DsBenchSpec *spec)
{
  DsScanPage *self = DS_SCAN_PAGE (page);

  ds_scan_page_show_error (page, NULL);
  clear (self);
  self->shown = TRUE;
  set_geometry (self, spec->offset_bytes, spec->span_bytes,
                ds_error_scan_options_const (spec)->quick);
  update_legend (self);
  gtk_label_set_label (self->status_label, _("Starting the scan…"));
}

static void
show_progress (DsScanPage     *self,
               const DsSample *sample,
               uint64_t        position)
{
  g_autofree char *rate = self->rate > 0 ? ds_format_rate_l10n (self->rate, self->units) : NULL;
  g_autofree char *at = g_strdup_printf ("%.2f", position / 1e9);
  g_autofree char *text = NULL;

  /* Translators: percent done, where the scan reads in GB, its read rate */
  text = g_strdup_printf (_("Reading: %.0f %% done, at %s GB, %s"), sample->progress * 100, at,
                          rate ? rate : "…");
  gtk_label_set_label (self->status_label, text);
}

static void
ds_scan_page_add_samples (DsPage         *page,
                          const DsSample *samples,
                          guint           n_samples)
{
  DsScanPage *self = DS_SCAN_PAGE (page);
  const DsSample *last = NULL;
  uint64_t position = 0;
  gboolean cells = FALSE, counts = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      switch (sample->kind)
        {
        case DS_SAMPLE_PHASE:
          if (g_strcmp0 (sample->name, "scan") == 0)
            {
              uint64_t end = sample->offset_bytes + (uint64_t) sample->index * sample->bytes;

              ds_block_map_set_geometry (self->block_map, sample->index, sample->offset_bytes,
                                         sample->bytes, self->device_size ? MIN (end, self->device_size) : end);
            }
          break;

        case DS_SAMPLE_POINT:
          ds_series_append (self->cells, sample->index,
                            ds_scan_cell_for (sample->elapsed_ns, sample->error != 0), sample->error);
          if (sample->value > 0)
            self->rate = sample->value;
          position = sample->offset_bytes + sample->bytes;
          cells = TRUE;
          break;

        case DS_SAMPLE_ROW:
          if (g_strcmp0 (sample->name, "blocks") == 0 && sample->index < N_STATES)
            {
              self->counts[sample->index] = (uint64_t) sample->value;
              counts = TRUE;
            }
          break;

        case DS_SAMPLE_ACCESS:
          ds_range_list_add (&self->bad, sample->offset_bytes, sample->bytes);
          self->bad_changed = TRUE;
          break;

        case DS_SAMPLE_PROGRESS:
          position = sample->offset_bytes;
          break;

        default:
          break;
        }
      last = sample;
    }

  if (cells)
    ds_series_changed (self->cells);
  if (counts)
    update_legend (self);
  if (self->bad_changed)
    update_bad_list (self, &self->bad);
  self->bad_changed = FALSE;
  if (last != NULL && position > 0)
    show_progress (self, last, position);
}

static void
show_summary (DsScanPage       *self,
              const DsScanData *data)
{
  g_autofree char *rate = ds_format_rate_l10n (data->elapsed_ns ? (double) data->bytes_read * 1e9 /
                                          (double) data->elapsed_ns : 0, self->units);
  g_autofree char *slowest = ds_format_ms_l10n ((double) data->max_latency_ns / 1e9);
  g_autofree char *block = ds_format_block (data->geometry.block_bytes);
  g_autofree char *read = g_strdup_printf ("%" G_GUINT64_FORMAT, data->blocks_read);
  g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, data->geometry.n_reads);
  g_autofree char *text = NULL;

  /* Translators: blocks read, blocks to read, the block size, the average
   * read rate, the slowest block's read time */
  text = g_strdup_printf (_("%s of %s blocks of %s read, on average at %s; the slowest took %s."),
                          read, total, block, rate, slowest);
  if (data->geometry.quick)
    {
      g_autofree char *quick = g_strdup_printf ("%s %s", text,
                                                _("A quick scan reads one block per square: "
                                                  "damage between them is not seen."));

      g_free (text);
      text = g_steal_pointer (&quick);
    }
  gtk_label_set_label (self->summary_label, text);
}

static void
ds_scan_page_show_result (DsPage         *page,
                          const DsResult *result)
{
  DsScanPage *self = DS_SCAN_PAGE (page);
  const DsScanData *data = result->data;
  const DsScanGeometry *g;
  g_autofree char *error = NULL;

  g_return_if_fail (result->kind == DS_BENCH_ERROR_SCAN);

  clear (self);
  self->shown = TRUE;
  error = ds_session_describe_error (result);
  ds_scan_page_show_error (page, error);

  if (result->complete)
    gtk_label_set_label (self->status_label, data->error_blocks > 0 ?
                         _("Done: some blocks could not be read.") :
                         _("Done: every block read without an error."));
  else if (result->cancelled)
    gtk_label_set_label (self->status_label, _("Stopped. The map shows what was read."));
  else
    gtk_label_set_label (self->status_label, _("The scan did not finish."));

  if (data == NULL || data->cells == NULL)
    {
      update_legend (self);
      return;
    }

  g = &data->geometry;
  self->n_reads = g->n_reads;
  ds_block_map_set_geometry (self->block_map, g->n_cells, g->start_bytes, g->cell_bytes,
                             g->start_bytes + g->span_bytes);
  for (guint i = 0; i < g->n_cells; i++)
    if (data->cells[i] != DS_SCAN_UNREAD)
      ds_series_append (self->cells, i, data->cells[i], data->cells[i] == DS_SCAN_ERROR);
  ds_series_changed (self->cells);
  gtk_stack_set_visible_child_name (self->map_stack, "map");

  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    self->counts[DS_SCAN_LT_5MS + i] = data->buckets[i];
  self->counts[DS_SCAN_ERROR] = data->error_blocks;
  self->counts[DS_SCAN_UNREAD] = 0;
  update_legend (self);
  update_bad_list (self, &data->bad);
  show_summary (self, data);
}

/* --quick: the quick scan. */
static gboolean
ds_scan_page_set_option (DsPage      *page,
                         const char  *option,
                         const char  *value,
                         GError     **error)
{
  if (!g_str_equal (option, "quick"))
    return ds_page_no_such_option (option, error);

  gtk_switch_set_active (DS_SCAN_PAGE (page)->quick_switch, TRUE);
  return TRUE;
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_scan_page_set_device;
  iface->set_units = ds_scan_page_set_units;
  iface->configure = ds_scan_page_configure;
  iface->begin = ds_scan_page_begin;
  iface->add_samples = ds_scan_page_add_samples;
  iface->show_result = ds_scan_page_show_result;
  iface->show_error = ds_scan_page_show_error;
  iface->set_option = ds_scan_page_set_option;
}

/* ---- Life cycle -------------------------------------------------------- */

static void
error_bar_response_cb (DsScanPage *self,
                       int         response,
                       GtkInfoBar *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_scan_page_dispose (GObject *object)
{
  DsScanPage *self = (DsScanPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_SCAN_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->cells);

  G_OBJECT_CLASS (ds_scan_page_parent_class)->dispose (object);
}

static void
ds_scan_page_finalize (GObject *object)
{
  DsScanPage *self = (DsScanPage *) object;

  ds_range_list_clear (&self->bad);

  G_OBJECT_CLASS (ds_scan_page_parent_class)->finalize (object);
}

static void
ds_scan_page_class_init (DsScanPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_scan_page_dispose;
  object_class->finalize = ds_scan_page_finalize;

  g_type_ensure (DS_TYPE_BLOCK_MAP);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-scan-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, map_stack);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, block_map);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, bad_heading);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, bad_list);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, quick_switch);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, range_row);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, legend_table);
  gtk_widget_class_bind_template_child (widget_class, DsScanPage, summary_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, options_changed_cb);
}

static void
ds_scan_page_init (DsScanPage *self)
{
  self->cells = ds_series_new ();
  ds_range_list_init (&self->bad, G_MAXUINT);

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_block_map_set_series (self->block_map, self->cells);
  {
    GtkWidget *none = gtk_label_new (_("None found"));

    gtk_widget_add_css_class (none, "dim-label");
    gtk_list_box_set_placeholder (self->bad_list, none);
  }
  build_legend (self);
  update_legend (self);
}
