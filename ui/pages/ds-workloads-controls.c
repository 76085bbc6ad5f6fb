/* ds-workloads-controls.c: the Workloads page's controls and the spec
 * they make
 *
 * CrystalDiskMark's menus: the preset, the runs per step (the best is
 * kept), the test size, the measured time, the Mix row and the units; and
 * Reads Only (the CLI's --reads-only).  The choices are remembered in the
 * settings (workloads-*), as CrystalDiskMark remembers its own, so that
 * `diskscope --page workloads --start` runs what the page last showed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-limits.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-settings.h"
#include "ds-units.h"
#include "ds-workloads-private.h"

#define MIB (UINT64_C (1) << 20)
#define GIB (UINT64_C (1) << 30)
#define SEC_NS (UINT64_C (1000000000))

/* CrystalDiskMark's test sizes; index 0 is the preset's own (1 GiB for
 * its profiles, the whole device for IOMeter's and fio's, more than RAM
 * for sysbench's). */
static const uint64_t test_sizes[] = {
  0, 16 * MIB, 32 * MIB, 64 * MIB, 128 * MIB, 256 * MIB, 512 * MIB,
  1 * GIB, 2 * GIB, 4 * GIB, 8 * GIB, 16 * GIB, 32 * GIB, 64 * GIB,
};

/* CrystalDiskMark's Measure Time (5 to 60 s), and 1 s for a quick look.
 * Index 0 is the preset's own. */
static const unsigned times_s[] = { 0, 1, 5, 10, 20, 30, 60 };

/* The Mix row's reads, as CrystalDiskMark offers them; -1: no Mix row. */
static const int mixes[] = { -1, 70, 90, 80, 60, 50, 40, 30, 20, 10 };

#define MAX_COUNT 9

/* Series points per run: about 25 (5 s → 200 ms), never finer than the
 * core allows nor coarser than a second. */
#define POINTS_PER_RUN 25

static guint
index_of_size (uint64_t bytes)
{
  for (guint i = 0; i < G_N_ELEMENTS (test_sizes); i++)
    if (test_sizes[i] == bytes)
      return i;
  return 0;
}

static guint
index_of_time (unsigned seconds)
{
  for (guint i = 0; i < G_N_ELEMENTS (times_s); i++)
    if (times_s[i] == seconds)
      return i;
  return 0;
}

static guint
index_of_mix (int mix)
{
  for (guint i = 0; i < G_N_ELEMENTS (mixes); i++)
    if (mixes[i] == mix)
      return i;
  return 0;
}

static int
selected_mix (DsWorkloadsPage *self)
{
  guint i = gtk_drop_down_get_selected (self->mix_dropdown);

  return self->preset->mix_allowed && i < G_N_ELEMENTS (mixes) ? mixes[i] : -1;
}

static void
save_settings (DsWorkloadsPage *self)
{
  guint size = gtk_drop_down_get_selected (self->size_dropdown);
  guint time = gtk_drop_down_get_selected (self->time_dropdown);
  guint mix = gtk_drop_down_get_selected (self->mix_dropdown);

  if (self->settings == NULL || self->loading)
    return;

  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, "workloads-preset", self->preset->name);
  g_settings_set_string (self->settings, "workloads-rows", self->custom_rows);
  g_settings_set_uint (self->settings, "workloads-count",
                       gtk_drop_down_get_selected (self->count_dropdown) + 1);
  g_settings_set_uint64 (self->settings, "workloads-test-size",
                         size < G_N_ELEMENTS (test_sizes) ? test_sizes[size] : 0);
  g_settings_set_uint (self->settings, "workloads-time", time < G_N_ELEMENTS (times_s) ? times_s[time] : 0);
  g_settings_set_int (self->settings, "workloads-mix", mix < G_N_ELEMENTS (mixes) ? mixes[mix] : -1);
  g_settings_set_uint (self->settings, "workloads-units", self->mark_units);
  g_settings_set_boolean (self->settings, "workloads-reads-only",
                          gtk_toggle_button_get_active (self->reads_only_button));
  g_settings_apply (self->settings);
}

/* The custom rows' preset (the core keeps one per distinct list). */
static const DsPreset *
custom_preset (DsWorkloadsPage *self)
{
  g_auto (DsBenchSpec) spec = { 0 };

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_mark_options (&spec)->rows = g_strdup (self->custom_rows);
  return ds_preset_for_spec (&spec, NULL);
}

/* The menu's preset: the named ones, then the custom rows. */
static const DsPreset *
selected_preset (DsWorkloadsPage *self)
{
  guint i = gtk_drop_down_get_selected (self->preset_dropdown);

  return i == ds_preset_count () ? custom_preset (self) : ds_preset_get (i);
}

/* The controls follow the preset: its count and size, Mix if it has one. */
static void
preset_selected_cb (DsWorkloadsPage *self)
{
  const DsPreset *preset = selected_preset (self);

  if (preset == NULL || preset == self->preset)
    return;

  self->preset = preset;
  gtk_drop_down_set_selected (self->count_dropdown, CLAMP (preset->count, 1, MAX_COUNT) - 1);
  gtk_drop_down_set_selected (self->size_dropdown, index_of_size (preset->test_size_bytes));
  gtk_drop_down_set_selected (self->time_dropdown, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mix_dropdown), preset->mix_allowed);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->preset_dropdown), preset->title);
  _ds_workloads_grid_build (self, preset, selected_mix (self));
  save_settings (self);
}

static void
mix_selected_cb (DsWorkloadsPage *self)
{
  if (self->preset != NULL && selected_mix (self) != self->grid_mix)
    _ds_workloads_grid_build (self, self->preset, selected_mix (self));
  save_settings (self);
}

static void
units_selected_cb (DsWorkloadsPage *self)
{
  self->mark_units = gtk_drop_down_get_selected (self->units_dropdown);
  _ds_workloads_grid_refresh (self);
  _ds_workloads_show_selected (self);
  save_settings (self);
}

static GListModel *
string_model (GPtrArray *strings)
{
  g_ptr_array_add (strings, NULL);
  return G_LIST_MODEL (gtk_string_list_new ((const char *const *) strings->pdata));
}

static void
set_model (GtkDropDown *dropdown,
           GPtrArray   *strings)
{
  g_autoptr(GListModel) model = string_model (strings);

  gtk_drop_down_set_model (dropdown, model);
}

static void
fill_dropdowns (DsWorkloadsPage *self)
{
  g_autoptr(GPtrArray) presets = g_ptr_array_new ();
  g_autoptr(GPtrArray) counts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) sizes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) mix_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) units = g_ptr_array_new ();

  for (unsigned i = 0; i < ds_preset_count (); i++)
    g_ptr_array_add (presets, (gpointer) ds_preset_get (i)->name);
  g_ptr_array_add (presets, (gpointer) DS_PRESET_CUSTOM);
  for (unsigned i = 1; i <= MAX_COUNT; i++)
    g_ptr_array_add (counts, g_strdup_printf (ngettext ("%u run", "%u runs", i), i));
  g_ptr_array_add (sizes, g_strdup (_("Preset size")));
  for (guint i = 1; i < G_N_ELEMENTS (test_sizes); i++)
    g_ptr_array_add (sizes, ds_mark_size_text (test_sizes[i]));
  g_ptr_array_add (times, g_strdup (_("Preset time")));
  for (guint i = 1; i < G_N_ELEMENTS (times_s); i++)
    g_ptr_array_add (times, g_strdup_printf (_("%u s"), times_s[i]));
  g_ptr_array_add (mix_names, g_strdup (_("No Mix")));
  for (guint i = 1; i < G_N_ELEMENTS (mixes); i++)
    g_ptr_array_add (mix_names, g_strdup_printf (_("R%d%%/W%d%%"), mixes[i], 100 - mixes[i]));
  /* In DsMarkUnits' order. */
  g_ptr_array_add (units, _("MB/s"));
  g_ptr_array_add (units, _("GB/s"));
  g_ptr_array_add (units, _("IOPS"));
  g_ptr_array_add (units, _("µs"));

  set_model (self->preset_dropdown, presets);
  set_model (self->count_dropdown, counts);
  set_model (self->size_dropdown, sizes);
  set_model (self->time_dropdown, times);
  set_model (self->mix_dropdown, mix_names);
  set_model (self->units_dropdown, units);
}

static void
load_settings (DsWorkloadsPage *self)
{
  g_autofree char *preset = NULL;

  if (self->settings == NULL)
    return;

  self->loading = TRUE;
  {
    g_autofree char *rows = g_settings_get_string (self->settings, "workloads-rows");
    g_autofree char *canonical = ds_preset_rows_normalize (rows, NULL);

    /* Rows the parser refuses (edited by hand) leave the defaults. */
    if (canonical != NULL)
      _ds_workloads_controls_set_rows (self, canonical, FALSE);
  }
  preset = g_settings_get_string (self->settings, "workloads-preset");
  ds_workloads_page_set_preset (self, preset);
  gtk_drop_down_set_selected (self->count_dropdown,
                              CLAMP (g_settings_get_uint (self->settings, "workloads-count"), 1, MAX_COUNT) - 1);
  gtk_drop_down_set_selected (self->size_dropdown,
                              index_of_size (g_settings_get_uint64 (self->settings, "workloads-test-size")));
  gtk_drop_down_set_selected (self->time_dropdown,
                              index_of_time (g_settings_get_uint (self->settings, "workloads-time")));
  gtk_drop_down_set_selected (self->mix_dropdown,
                              index_of_mix (g_settings_get_int (self->settings, "workloads-mix")));
  gtk_drop_down_set_selected (self->units_dropdown,
                              MIN (g_settings_get_uint (self->settings, "workloads-units"), DS_MARK_UNITS_US));
  gtk_toggle_button_set_active (self->reads_only_button,
                                g_settings_get_boolean (self->settings, "workloads-reads-only"));
  self->loading = FALSE;
}

void
_ds_workloads_controls_init (DsWorkloadsPage *self)
{
  self->custom_rows = g_strdup ("seq,1m,qd8,t1;seq,1m,qd1,t1;rnd,4k,qd32,t1;rnd,4k,qd1,t1");
  fill_dropdowns (self);
  g_signal_connect_swapped (self->preset_dropdown, "notify::selected",
                            G_CALLBACK (preset_selected_cb), self);
  g_signal_connect_swapped (self->mix_dropdown, "notify::selected",
                            G_CALLBACK (mix_selected_cb), self);
  g_signal_connect_swapped (self->units_dropdown, "notify::selected",
                            G_CALLBACK (units_selected_cb), self);
  g_signal_connect_swapped (self->count_dropdown, "notify::selected",
                            G_CALLBACK (save_settings), self);
  g_signal_connect_swapped (self->size_dropdown, "notify::selected",
                            G_CALLBACK (save_settings), self);
  g_signal_connect_swapped (self->time_dropdown, "notify::selected",
                            G_CALLBACK (save_settings), self);
  g_signal_connect_swapped (self->reads_only_button, "toggled",
                            G_CALLBACK (save_settings), self);
  gtk_drop_down_set_selected (self->preset_dropdown, 0);
  preset_selected_cb (self);

  /* Without a schema (never in the app: ds_settings_new() finds the
   * build tree's) the page still works, unremembered. */
  self->settings = ds_settings_new (NULL, NULL);
  load_settings (self);
}

void
_ds_workloads_controls_show (DsWorkloadsPage  *self,
                             const DsMarkData *data)
{
  self->loading = TRUE;
  ds_workloads_page_set_preset (self, data->preset);
  gtk_drop_down_set_selected (self->count_dropdown, CLAMP (data->count, 1, MAX_COUNT) - 1);
  gtk_drop_down_set_selected (self->size_dropdown, index_of_size (data->test_size_bytes));
  gtk_drop_down_set_selected (self->time_dropdown, index_of_time ((unsigned) data->duration_s));
  gtk_drop_down_set_selected (self->mix_dropdown, index_of_mix (data->mix_percent));
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), data->comment ? data->comment : "");
  self->loading = FALSE;
}

gboolean
_ds_workloads_controls_apply (DsWorkloadsPage  *self,
                              DsBenchSpec      *spec,
                              GError          **error)
{
  DsMarkOptions *o = ds_mark_options (spec);
  guint size = gtk_drop_down_get_selected (self->size_dropdown);
  guint time = gtk_drop_down_get_selected (self->time_dropdown);
  const char *comment = gtk_editable_get_text (GTK_EDITABLE (self->comment_entry));
  g_autoptr(GArray) plan = NULL;

  g_clear_pointer (&o->rows, g_free);
  if (g_strcmp0 (self->preset->name, DS_PRESET_CUSTOM) == 0)
    o->rows = g_strdup (self->custom_rows);
  ds_preset_apply_defaults (spec, self->preset);
  o->count = gtk_drop_down_get_selected (self->count_dropdown) + 1;
  if (size > 0 && size < G_N_ELEMENTS (test_sizes))
    o->test_size_bytes = test_sizes[size];
  if (time > 0 && time < G_N_ELEMENTS (times_s))
    {
      /* A shorter measure shortens the warm-up and the pause with it. */
      spec->duration_ns = times_s[time] * SEC_NS;
      o->warmup_ns = MIN (o->warmup_ns, spec->duration_ns);
      o->pause_ns = MIN (o->pause_ns, spec->duration_ns);
    }
  spec->interval_ns = CLAMP (spec->duration_ns / POINTS_PER_RUN / DS_LIMIT_INTERVAL_MIN_NS *
                             DS_LIMIT_INTERVAL_MIN_NS, DS_LIMIT_INTERVAL_MIN_NS, SEC_NS);
  o->mix_percent = selected_mix (self);
  o->reads_only = gtk_toggle_button_get_active (self->reads_only_button);
  g_free (o->comment);
  o->comment = *comment != '\0' ? g_strdup (comment) : NULL;

  /* A write test (the typed name, the core's gate) when a step writes. */
  plan = ds_preset_steps (spec, error);
  if (plan == NULL)
    return FALSE;
  spec->write = FALSE;
  for (guint i = 0; i < plan->len; i++)
    spec->write |= g_array_index (plan, DsPresetStep, i).read_percent < 100;

  return TRUE;
}

void
_ds_workloads_controls_set_rows (DsWorkloadsPage *self,
                                 const char      *rows,
                                 gboolean         save)
{
  gboolean custom = self->preset != NULL && g_strcmp0 (self->preset->name, DS_PRESET_CUSTOM) == 0;

  g_free (self->custom_rows);
  self->custom_rows = g_strdup (rows);
  if (!save)
    {
      /* The grid follows rows shown from a result only if they are shown. */
      if (custom && !self->loading)
        self->preset = custom_preset (self);
      return;
    }

  if (custom)
    {
      /* Already selected: the menu does not change, the rows do. */
      self->preset = NULL;
      preset_selected_cb (self);
    }
  else
    ds_workloads_page_set_preset (self, DS_PRESET_CUSTOM);
  save_settings (self);
}

const char *
_ds_workloads_controls_get_rows (DsWorkloadsPage *self)
{
  return self->custom_rows;
}

static gboolean
set_preset_option (DsWorkloadsPage  *self,
                   const char       *value,
                   GError          **error)
{
  g_autoptr(GString) names = NULL;

  if (value != NULL && ds_workloads_page_set_preset (self, value))
    return TRUE;

  names = g_string_new (NULL);
  for (unsigned i = 0; i < ds_preset_count (); i++)
    g_string_append_printf (names, "%s, ", ds_preset_get (i)->name);
  g_string_append (names, DS_PRESET_CUSTOM);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--preset: no preset called “%s” (the presets: %s)"), value ? value : "",
               names->str);
  return FALSE;
}

gboolean
_ds_workloads_controls_set_option (DsWorkloadsPage  *self,
                                   const char       *option,
                                   const char       *value,
                                   GError          **error)
{
  const char *text = value != NULL ? value : "";
  uint64_t number = G_MAXUINT64;   /* no menu item has it: the menu says what it offers */
  uint64_t sizes[G_N_ELEMENTS (test_sizes)], times[G_N_ELEMENTS (times_s)], counts[MAX_COUNT];

  if (g_str_equal (option, "preset"))
    return set_preset_option (self, value, error);
  if (g_str_equal (option, "reads-only"))
    {
      gtk_toggle_button_set_active (self->reads_only_button, TRUE);
      return TRUE;
    }

  if (g_str_equal (option, "size"))
    {
      /* Item 0 is the preset's own size: a script names a size. */
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        sizes[i] = i > 0 ? test_sizes[i] : G_MAXUINT64 - 1;
      if (value == NULL || !ds_parse_size (value, &number, NULL))
        number = G_MAXUINT64;
      return ds_probe_select_option (self->size_dropdown, sizes, G_N_ELEMENTS (sizes), number,
                                     option, text, error);
    }
  if (g_str_equal (option, "duration"))
    {
      for (guint i = 0; i < G_N_ELEMENTS (times); i++)
        times[i] = i > 0 ? times_s[i] : G_MAXUINT64 - 1;
      if (value != NULL && ds_parse_duration (value, &number, NULL) && number % SEC_NS == 0)
        number /= SEC_NS;
      else
        number = G_MAXUINT64;
      return ds_probe_select_option (self->time_dropdown, times, G_N_ELEMENTS (times), number,
                                     option, text, error);
    }
  if (g_str_equal (option, "count"))
    {
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        counts[i] = i + 1;
      if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 1, MAX_COUNT, &number, NULL))
        number = G_MAXUINT64;
      return ds_probe_select_option (self->count_dropdown, counts, G_N_ELEMENTS (counts), number,
                                     option, text, error);
    }

  return ds_page_no_such_option (option, error);
}
