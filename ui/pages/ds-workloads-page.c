/* ds-workloads-page.c: CrystalDiskMark's grid, with each step's series and
 * latency histogram
 *
 * The controls are CrystalDiskMark's: a preset (its profiles, and the
 * seeds' IOMeter, fio and sysbench sets), the number of runs per step
 * (the best is kept), the test size, the measured time, a Mix row and the
 * units of the figures; a comment goes into the report and the result.
 * All (or the window's Start, F5, --start) runs every step; a row's
 * button runs that row.  Both go through the window's Start, so a step
 * that writes asks for the device's name first, as every write test does.
 *
 * What the run does is the core's (kinds/ds-bench-mark.c): this page only
 * fills a DS_BENCH_MARK spec and shows the samples and the result (the
 * grid and the graphs: ds-workloads-grid.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-interval.h"
#include "ds-page.h"
#include "ds-session.h"
#include "ds-workloads-private.h"

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsWorkloadsPage, ds_workloads_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
all_button_clicked_cb (DsWorkloadsPage *self)
{
  g_clear_pointer (&self->pending_steps, g_free);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.start", NULL);
}

static void
rows_button_clicked_cb (DsWorkloadsPage *self)
{
  ds_workloads_page_edit_rows (self);
}

static void
error_bar_response_cb (DsWorkloadsPage *self,
                       int              response,
                       GtkInfoBar      *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_workloads_page_set_device (DsPage         *page,
                              const DsDevice *device)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);

  g_free (self->device_path);
  self->device_path = device != NULL ? g_strdup (device->path) : NULL;
}

static void
ds_workloads_page_set_units (DsPage  *page,
                             DsUnits  units)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);

  self->units = units;
  ds_graph_set_units (self->series_graph, units);
}

static gboolean
ds_workloads_page_configure (DsPage       *page,
                             DsBenchSpec  *spec,
                             GError      **error)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);
  DsMarkOptions *o = ds_mark_options (spec);
  g_autofree char *steps = g_steal_pointer (&self->pending_steps);

  if (self->device_path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Choose a device first."));
      return FALSE;
    }

  g_free (spec->target_path);
  spec->target_path = g_strdup (self->device_path);
  g_free (o->steps);
  o->steps = g_steal_pointer (&steps);

  return _ds_workloads_controls_apply (self, spec, error);
}

/* While a run goes the menus and Start buttons rest (the figures stay
 * selectable): what they say is what runs. */
static void
set_running (DsWorkloadsPage *self,
             gboolean         running)
{
  GtkWidget *controls[] = {
    GTK_WIDGET (self->all_button), GTK_WIDGET (self->preset_dropdown), GTK_WIDGET (self->rows_button),
    GTK_WIDGET (self->count_dropdown), GTK_WIDGET (self->size_dropdown),
    GTK_WIDGET (self->time_dropdown), GTK_WIDGET (self->reads_only_button),
    GTK_WIDGET (self->comment_entry),
  };

  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    gtk_widget_set_sensitive (controls[i], !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mix_dropdown), !running && self->preset->mix_allowed);
  for (guint r = 0; r < DS_WORKLOADS_MAX_ROWS; r++)
    if (self->row_buttons[r] != NULL)
      gtk_widget_set_sensitive (self->row_buttons[r], !running);
}

static void
ds_workloads_page_show_error (DsPage     *page,
                              const char *message)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
  /* A run that failed without a result ends here. */
  if (message != NULL)
    set_running (self, FALSE);
}

static void
ds_workloads_page_begin (DsPage            *page,
                         const DsBenchSpec *spec)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const DsPreset *preset = ds_preset_for_spec (spec, NULL);

  ds_workloads_page_show_error (page, NULL);
  g_clear_pointer (&self->plan, g_array_unref);
  self->running = -1;
  if (preset == NULL)
    return;

  /* All empties the grid; a row's Start (its steps option) only the cells it
   * runs: the other rows keep their figures, as in CrystalDiskMark. */
  self->plan = ds_preset_steps (spec, NULL);
  if (preset != self->grid_preset || o->mix_percent != self->grid_mix)
    _ds_workloads_grid_build (self, preset, o->mix_percent);
  else if (o->steps != NULL && self->plan != NULL)
    _ds_workloads_grid_clear_plan (self);
  else
    _ds_workloads_grid_clear (self);
  self->run_s = (double) spec->duration_ns / 1e9;
  set_running (self, TRUE);
  gtk_label_set_label (self->status_label, _("Preparing…"));
}

static const DsPresetStep *
plan_step (DsWorkloadsPage *self,
           guint            index)
{
  return self->plan != NULL && index < self->plan->len ?
    &g_array_index (self->plan, DsPresetStep, index) : NULL;
}

static void
ds_workloads_page_add_samples (DsPage         *page,
                               const DsSample *samples,
                               guint           n_samples)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);

  for (guint i = 0; i < n_samples; i++)
    {
      const DsSample *sample = &samples[i];
      const DsPresetStep *step = NULL;

      switch (sample->kind)
        {
        case DS_SAMPLE_PHASE:
          step = plan_step (self, sample->index);
          self->running = step != NULL ? (int) sample->index : -1;
          if (step != NULL)
            {
              g_autofree char *text =
                g_strdup_printf (_("Measuring %s %s (step %u of %u)…"), step->row->label,
                                 ds_mark_direction_to_string (step->direction),
                                 sample->index + 1, self->plan->len);

              gtk_label_set_label (self->status_label, text);
              _ds_workloads_cell_begin (self, step->row_index, step->direction);
            }
          break;

        case DS_SAMPLE_INTERVAL:
          step = self->running >= 0 ? plan_step (self, self->running) : NULL;
          if (step != NULL && sample->interval != NULL)
            _ds_workloads_cell_add_live (self, step->row_index, step->direction,
                                         sample->index, sample->interval, sample->histogram);
          break;

        case DS_SAMPLE_ROW:
          if (sample->detail != NULL)
            _ds_workloads_cell_set_step (self, ds_mark_step_copy (sample->detail));
          break;

        case DS_SAMPLE_POINT:
        case DS_SAMPLE_ACCESS:
        case DS_SAMPLE_PROGRESS:
        default:
          break;
        }
    }
}

static void
ds_workloads_page_show_result (DsPage         *page,
                               const DsResult *result)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (page);
  const DsMarkData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);
  const DsPreset *preset = data != NULL ? ds_preset_for_spec (&result->spec, NULL) : NULL;
  g_autofree char *status = NULL;
  gboolean shown = FALSE;
  /* The end of the run this page began: its grid holds the other rows'
   * figures, which stay. */
  gboolean ran_here = self->plan != NULL && data != NULL && preset == self->grid_preset &&
                      data->mix_percent == self->grid_mix;

  g_return_if_fail (result->kind == DS_BENCH_MARK);

  g_clear_pointer (&self->plan, g_array_unref);
  self->running = -1;
  set_running (self, FALSE);
  ds_workloads_page_show_error (page, error);
  if (preset == NULL)
    {
      gtk_label_set_label (self->status_label, "");
      return;
    }

  /* An opened result shows with the controls it was run with. */
  if (!ran_here)
    {
      const char *rows = ds_mark_options_const (&result->spec)->rows;

      if (rows != NULL)
        _ds_workloads_controls_set_rows (self, rows, FALSE);
      _ds_workloads_controls_show (self, data);
      _ds_workloads_grid_build (self, preset, data->mix_percent);
    }

  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];

      _ds_workloads_cell_set_step (self, ds_mark_step_copy (step));
      if (!shown && step->result != NULL)
        {
          ds_workloads_page_select (self, step->row, step->direction);
          shown = TRUE;
        }
    }

  if (result->cancelled)
    status = g_strdup (_("Stopped. The grid shows the steps that finished; a figure with * is from a step cut short."));
  else if (data->count > 1)
    status = g_strdup_printf (_("Each figure is the best of %u runs of %.0f s, as CrystalDiskMark keeps it. "
                                "Select a figure for its series and latency histogram."),
                              data->count, data->duration_s);
  else
    status = g_strdup (_("Select a figure for its series and latency histogram."));
  gtk_label_set_label (self->status_label, status);
}

static gboolean
ds_workloads_page_set_option (DsPage      *page,
                              const char  *option,
                              const char  *value,
                              GError     **error)
{
  return _ds_workloads_controls_set_option (DS_WORKLOADS_PAGE (page), option, value, error);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_workloads_page_set_device;
  iface->set_units = ds_workloads_page_set_units;
  iface->configure = ds_workloads_page_configure;
  iface->begin = ds_workloads_page_begin;
  iface->add_samples = ds_workloads_page_add_samples;
  iface->show_result = ds_workloads_page_show_result;
  iface->show_error = ds_workloads_page_show_error;
  iface->set_option = ds_workloads_page_set_option;
}

/* ---- The widget -------------------------------------------------------- */

static void
ds_workloads_page_dispose (GObject *object)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (object);

  _ds_workloads_grid_free (self);
  g_clear_pointer (&self->plan, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), DS_TYPE_WORKLOADS_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (object));
  g_clear_object (&self->rate);
  g_clear_object (&self->p99);
  g_clear_object (&self->histogram);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ds_workloads_page_parent_class)->dispose (object);
}

static void
ds_workloads_page_finalize (GObject *object)
{
  DsWorkloadsPage *self = DS_WORKLOADS_PAGE (object);

  g_free (self->device_path);
  g_free (self->pending_steps);
  g_free (self->custom_rows);

  G_OBJECT_CLASS (ds_workloads_page_parent_class)->finalize (object);
}

static void
ds_workloads_page_class_init (DsWorkloadsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_workloads_page_dispose;
  object_class->finalize = ds_workloads_page_finalize;

  g_type_ensure (DS_TYPE_GRAPH);
  g_type_ensure (DS_TYPE_LINE_LAYER);
  g_type_ensure (DS_TYPE_HISTOGRAM_LAYER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-workloads-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, all_button);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, preset_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, count_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, time_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, mix_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, units_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, reads_only_button);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, comment_entry);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, grid);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, series_title);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, series_graph);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, rate_layer);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, p99_layer);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, histogram_title);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, histogram_graph);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, histogram_layer);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, all_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, rows_button_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, DsWorkloadsPage, rows_button);
}

static void
ds_workloads_page_init (DsWorkloadsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->rate = ds_series_new ();
  self->p99 = ds_series_new ();
  self->histogram = ds_series_new ();
  ds_graph_layer_set_series (self->rate_layer, self->rate);
  ds_graph_layer_set_series (self->p99_layer, self->p99);
  ds_graph_layer_set_series (self->histogram_layer, self->histogram);
  self->running = -1;
  self->grid_mix = -1;

  _ds_workloads_controls_init (self);
}

gboolean
ds_workloads_page_set_preset (DsWorkloadsPage *self,
                              const char      *name)
{
  g_return_val_if_fail (DS_IS_WORKLOADS_PAGE (self), FALSE);

  for (unsigned i = 0; i < ds_preset_count (); i++)
    if (ds_preset_get (i) == ds_preset_lookup (name))
      {
        gtk_drop_down_set_selected (self->preset_dropdown, i);
        return TRUE;
      }
  /* The custom rows follow the named presets in the menu. */
  if (g_strcmp0 (name, DS_PRESET_CUSTOM) == 0)
    {
      gtk_drop_down_set_selected (self->preset_dropdown, ds_preset_count ());
      return TRUE;
    }

  return FALSE;
}

const char *
ds_workloads_page_get_preset (DsWorkloadsPage *self)
{
  g_return_val_if_fail (DS_IS_WORKLOADS_PAGE (self), NULL);

  return self->preset->name;
}

const char *
ds_workloads_page_get_figure (DsWorkloadsPage *self,
                              guint            row,
                              guint            direction)
{
  g_return_val_if_fail (DS_IS_WORKLOADS_PAGE (self), NULL);

  if (row >= DS_WORKLOADS_MAX_ROWS || direction >= DS_MARK_N_DIRECTIONS ||
      self->cells[row][direction].label == NULL)
    return NULL;

  return gtk_label_get_label (self->cells[row][direction].label);
}

void
ds_workloads_page_select (DsWorkloadsPage *self,
                          guint            row,
                          guint            direction)
{
  DsWorkloadsCell *cell;

  g_return_if_fail (DS_IS_WORKLOADS_PAGE (self));
  g_return_if_fail (row < DS_WORKLOADS_MAX_ROWS && direction < DS_MARK_N_DIRECTIONS);

  cell = &self->cells[row][direction];
  if (cell->button != NULL)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (cell->button), TRUE);
}
