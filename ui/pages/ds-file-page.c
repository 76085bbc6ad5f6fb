/* ds-file-page.c: HD Tune's File Benchmark
 *
 * Sequential and random 4K figures for a test file in a folder the user
 * picks, and the block-size curves measured on that file.  The test file is
 * the core's business: it never touches anything else in the folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-file-page.h"
#include "ds-graph.h"
#include "ds-line-layer.h"
#include "ds-page.h"
#include "ds-series.h"
#include "ds-session.h"

enum {
  ROW_SEQ_READ = 1,
  ROW_SEQ_WRITE,
  ROW_RANDOM_READ,
  ROW_RANDOM_WRITE,
  ROW_QD32_READ,
  ROW_QD32_WRITE,
};

struct _DsFilePage
{
  GtkWidget             parent_instance;

  char                 *folder;
  uint64_t              file_size;
  DsSeries             *read;
  DsSeries             *write;
  DsUnits               units;
  GtkFileChooserNative *chooser;

  /* Template widgets */
  GtkInfoBar           *error_bar;
  GtkLabel             *error_label;
  AdwActionRow         *folder_row;
  GtkLabel             *size_label;
  DsGraph              *graph;
  DsGraphLayer         *read_layer;
  DsGraphLayer         *write_layer;
  GtkGrid              *table;
  GtkLabel             *status_label;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsFilePage, ds_file_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

enum {
  PROP_0,
  PROP_FOLDER,
  PROP_FILE_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_rate (DsFilePage *self,
          guint       row,
          double      bytes_per_s)
{
  g_autofree char *text = bytes_per_s >= 0 ? ds_format_rate_l10n (bytes_per_s, self->units) : NULL;

  ds_table_set_cell (self->table, row, 1, text);
}

static void
set_iops (DsFilePage *self,
          guint       row,
          double      iops)
{
  g_autofree char *text = iops >= 0 ? g_strdup_printf (_("%.0f IOPS"), iops) : NULL;

  ds_table_set_cell (self->table, row, 1, text);
}

static void
ds_file_page_set_units (DsPage  *page,
                        DsUnits  units)
{
  DsFilePage *self = DS_FILE_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->graph, units);
}

static const char *
no_folder_message (void)
{
  return _("Choose a folder for the test file first.");
}

static gboolean
ds_file_page_configure (DsPage       *page,
                        DsBenchSpec  *spec,
                        GError      **error)
{
  DsFilePage *self = DS_FILE_PAGE (page);

  if (self->folder == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, no_folder_message ());
      return FALSE;
    }

  g_free (spec->target_path);
  spec->target_path = g_strdup (self->folder);
  spec->write = FALSE;   /* only its own test file is written */
  if (self->file_size > 0)
    ds_file_options (spec)->size_bytes = self->file_size;

  return TRUE;
}

static void
ds_file_page_show_error (DsPage     *page,
                         const char *message)
{
  DsFilePage *self = DS_FILE_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

static void
clear (DsFilePage *self)
{
  ds_series_clear (self->read);
  ds_series_clear (self->write);
  ds_series_changed (self->read);
  ds_series_changed (self->write);
  ds_table_clear (self->table);
}

static void
ds_file_page_clear (DsPage *page)
{
  DsFilePage *self = DS_FILE_PAGE (page);

  ds_file_page_show_error (page, NULL);
  clear (self);
  gtk_label_set_label (self->status_label, "");
}

static void update_size_label (DsFilePage *self);

static void
ds_file_page_begin (DsPage            *page,
                    const DsBenchSpec *spec)
{
  DsFilePage *self = DS_FILE_PAGE (page);

  ds_file_page_show_error (page, NULL);
  clear (self);
  update_size_label (self);
  gtk_label_set_label (self->status_label, _("Writing the test file…"));
}

static void
ds_file_page_add_samples (DsPage         *page,
                          const DsSample *samples,
                          guint           n_samples)
{
  DsFilePage *self = DS_FILE_PAGE (page);
  gboolean changed = FALSE;

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];

      if (sample->kind != DS_SAMPLE_ROW)
        continue;

      if (g_strcmp0 (sample->name, "block-size") == 0)
        {
          if (sample->value >= 0 && sample->bytes > 0)
            {
              ds_series_append (sample->write ? self->write : self->read,
                                sample->bytes, sample->value, 0);
              changed = TRUE;
            }
          gtk_label_set_label (self->status_label, _("Measuring block sizes…"));
        }
      else if (sample->index < 2)
        set_rate (self, ROW_SEQ_READ + sample->index, sample->value);
      else if (sample->index < 6)
        set_iops (self, ROW_SEQ_READ + sample->index, sample->value);
    }

  if (changed)
    {
      ds_series_changed (self->read);
      ds_series_changed (self->write);
    }
}

static void
ds_file_page_show_result (DsPage         *page,
                          const DsResult *result)
{
  DsFilePage *self = DS_FILE_PAGE (page);
  const DsFileData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);

  g_return_if_fail (result->kind == DS_BENCH_FILE);

  ds_file_page_show_error (page, error);
  clear (self);
  gtk_label_set_label (self->status_label, "");

  if (data == NULL)
    return;

  if (data->directory != NULL)
    ds_file_page_set_folder (self, data->directory);

  /* The size tested, which is smaller than the setting when the
   * filesystem had less room. */
  if (data->file_bytes > 0 && data->file_bytes != self->file_size)
    {
      g_autofree char *size = ds_format_size_both (data->file_bytes);
      g_autofree char *text = g_strdup_printf (_("%s (tested)"), size);

      gtk_label_set_label (self->size_label, text);
    }
  else
    update_size_label (self);

  if (data->buffered)
    gtk_label_set_label (self->status_label,
                         _("The filesystem refused direct I/O: these figures went through the page cache."));

  set_rate (self, ROW_SEQ_READ, data->sequential_read_bytes_per_s);
  set_rate (self, ROW_SEQ_WRITE, data->sequential_write_bytes_per_s);
  set_iops (self, ROW_RANDOM_READ, data->random_read_iops);
  set_iops (self, ROW_RANDOM_WRITE, data->random_write_iops);
  set_iops (self, ROW_QD32_READ, data->random_read_qd32_iops);
  set_iops (self, ROW_QD32_WRITE, data->random_write_qd32_iops);

  for (guint i = 0; data->block_size != NULL && i < data->block_size->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (data->block_size, DsBlockSizeRow, i);

      if (row->read_bytes_per_s >= 0)
        ds_series_append (self->read, row->block_bytes, row->read_bytes_per_s, 0);
      if (row->write_bytes_per_s >= 0)
        ds_series_append (self->write, row->block_bytes, row->write_bytes_per_s, 0);
    }
  ds_series_changed (self->read);
  ds_series_changed (self->write);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_units = ds_file_page_set_units;
  iface->configure = ds_file_page_configure;
  iface->begin = ds_file_page_begin;
  iface->add_samples = ds_file_page_add_samples;
  iface->show_result = ds_file_page_show_result;
  iface->show_error = ds_file_page_show_error;
  iface->clear = ds_file_page_clear;
}

static void
error_bar_response_cb (DsFilePage *self,
                       int         response,
                       GtkInfoBar *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
chooser_response_cb (DsFilePage           *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        ds_file_page_set_folder (self, path);
    }

  g_clear_object (&self->chooser);
}

static void
folder_button_clicked_cb (DsFilePage *self,
                          GtkButton  *button)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Choose a Folder for the Test File"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* In powers of 1024, as Preferences offers it, and in GB beside it. */
static void
update_size_label (DsFilePage *self)
{
  g_autofree char *text = ds_format_size_both (self->file_size);

  gtk_label_set_label (self->size_label, text);
}

static void
ds_file_page_dispose (GObject *object)
{
  DsFilePage *self = (DsFilePage *) object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_FILE_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->read);
  g_clear_object (&self->write);

  G_OBJECT_CLASS (ds_file_page_parent_class)->dispose (object);
}

static void
ds_file_page_finalize (GObject *object)
{
  DsFilePage *self = (DsFilePage *) object;

  g_clear_pointer (&self->folder, g_free);

  G_OBJECT_CLASS (ds_file_page_parent_class)->finalize (object);
}

static void
ds_file_page_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  DsFilePage *self = DS_FILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      g_value_set_string (value, self->folder);
      break;

    case PROP_FILE_SIZE:
      g_value_set_uint64 (value, self->file_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_file_page_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  DsFilePage *self = DS_FILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      ds_file_page_set_folder (self, g_value_get_string (value));
      break;

    case PROP_FILE_SIZE:
      if (self->file_size != g_value_get_uint64 (value))
        {
          self->file_size = g_value_get_uint64 (value);
          update_size_label (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_file_page_class_init (DsFilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_file_page_dispose;
  object_class->finalize = ds_file_page_finalize;
  object_class->get_property = ds_file_page_get_property;
  object_class->set_property = ds_file_page_set_property;

  properties[PROP_FOLDER] =
    g_param_spec_string ("folder", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILE_SIZE] =
    g_param_spec_uint64 ("file-size", NULL, NULL,
                         0, G_MAXUINT64, UINT64_C (1) << 30,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-file-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, folder_row);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, size_label);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, graph);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, read_layer);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, write_layer);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, table);
  gtk_widget_class_bind_template_child (widget_class, DsFilePage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, folder_button_clicked_cb);
}

static void
ds_file_page_init (DsFilePage *self)
{
  const char *headings[] = { _("Test"), _("Result"), NULL };
  const char *rows[] = {
    _("Sequential read"), _("Sequential write"),
    _("Random 4 KB read"), _("Random 4 KB write"),
    _("Random 4 KB read, QD32"), _("Random 4 KB write, QD32"),
  };

  self->read = ds_series_new ();
  self->write = ds_series_new ();
  self->file_size = UINT64_C (1) << 30;

  gtk_widget_init_template (GTK_WIDGET (self));

  ds_graph_layer_set_series (self->read_layer, self->read);
  ds_graph_layer_set_series (self->write_layer, self->write);
  update_size_label (self);

  ds_table_set_headings (self->table, headings);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    ds_table_set_cell (self->table, i + 1, 0, rows[i]);
  ds_table_clear (self->table);
}

const char *
ds_file_page_get_folder (DsFilePage *self)
{
  g_return_val_if_fail (DS_IS_FILE_PAGE (self), NULL);

  return self->folder;
}

void
ds_file_page_set_folder (DsFilePage *self,
                         const char *folder)
{
  g_return_if_fail (DS_IS_FILE_PAGE (self));

  if (g_strcmp0 (self->folder, folder) == 0)
    return;

  g_free (self->folder);
  self->folder = g_strdup (folder);

  adw_action_row_set_subtitle (self->folder_row,
                               folder ? folder : _("Choose where the test file goes"));

  /* "Choose a folder first" is answered. */
  if (folder != NULL && g_str_equal (gtk_label_get_label (self->error_label), no_folder_message ()))
    ds_file_page_show_error (DS_PAGE (self), NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
}
