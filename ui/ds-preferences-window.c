/* ds-preferences-window.c: units, snaps, accuracy, capacity, block and file sizes
 *
 * Every row is bound to its GSettings key, so changes apply at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-preferences-window.h"
#include "ds-settings.h"

struct _DsPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;

  /* Template widgets */
  AdwComboRow          *units_row;
  GtkSwitch            *snaps_switch;
  GtkAdjustment        *accuracy_adjustment;
  AdwComboRow          *capacity_row;
  AdwComboRow          *block_size_row;
  AdwComboRow          *file_size_row;
};

G_DEFINE_FINAL_TYPE (DsPreferencesWindow, ds_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The combo rows' choices, in the order of their string lists. */
static const guint64 capacities[] = {
  0, UINT64_C (1) << 30, UINT64_C (4) << 30, UINT64_C (16) << 30, UINT64_C (64) << 30,
  UINT64_C (256) << 30, UINT64_C (1) << 40,
};
static const guint64 block_sizes[] = {
  4 * 1024, 16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024, 8 * 1024 * 1024,
};
static const guint64 file_sizes[] = {
  UINT64_C (64) << 20, UINT64_C (256) << 20, UINT64_C (1) << 30,
  UINT64_C (4) << 30, UINT64_C (16) << 30,
};

typedef struct {
  const guint64 *values;
  guint          n_values;
} Choices;

static const Choices capacity_choices = { capacities, G_N_ELEMENTS (capacities) };
static const Choices block_choices = { block_sizes, G_N_ELEMENTS (block_sizes) };
static const Choices file_choices = { file_sizes, G_N_ELEMENTS (file_sizes) };

static gboolean
size_to_selected (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const Choices *choices = user_data;
  guint64 size = g_variant_get_uint64 (variant);
  guint best = 0;

  /* The nearest choice (a value set elsewhere may not be one of ours). */
  for (guint i = 0; i < choices->n_values; i++)
    if (choices->values[i] <= size)
      best = i;

  g_value_set_uint (value, best);
  return TRUE;
}

static GVariant *
selected_to_size (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  const Choices *choices = user_data;
  guint selected = g_value_get_uint (value);

  if (selected >= choices->n_values)
    return NULL;

  return g_variant_new_uint64 (choices->values[selected]);
}

static gboolean
units_to_selected (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  g_value_set_uint (value, g_strcmp0 (g_variant_get_string (variant, NULL), "mib") == 0);
  return TRUE;
}

static GVariant *
selected_to_units (const GValue       *value,
                   const GVariantType *type,
                   gpointer            user_data)
{
  return g_variant_new_string (g_value_get_uint (value) == 1 ? "mib" : "mb");
}

static void
ds_preferences_window_dispose (GObject *object)
{
  DsPreferencesWindow *self = (DsPreferencesWindow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ds_preferences_window_parent_class)->dispose (object);
}

static void
ds_preferences_window_class_init (DsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, units_row);
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, snaps_switch);
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, accuracy_adjustment);
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, capacity_row);
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, block_size_row);
  gtk_widget_class_bind_template_child (widget_class, DsPreferencesWindow, file_size_row);
}

static void
ds_preferences_window_init (DsPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The window's own settings (installed schema, or the build tree's). */
  self->settings = ds_settings_new (NULL, NULL);
  g_return_if_fail (self->settings != NULL);

  g_settings_bind_with_mapping (self->settings, "units", self->units_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                units_to_selected, selected_to_units, NULL, NULL);
  g_settings_bind (self->settings, "show-snap-devices", self->snaps_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "accuracy", self->accuracy_adjustment, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "capacity", self->capacity_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                size_to_selected, selected_to_size,
                                (gpointer) &capacity_choices, NULL);
  g_settings_bind_with_mapping (self->settings, "block-size", self->block_size_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                size_to_selected, selected_to_size,
                                (gpointer) &block_choices, NULL);
  g_settings_bind_with_mapping (self->settings, "file-size", self->file_size_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                size_to_selected, selected_to_size,
                                (gpointer) &file_choices, NULL);
}

GtkWidget *
ds_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (DS_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
