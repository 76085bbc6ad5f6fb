/* ds-health-view.c: the Health page's figures and tables
 *
 * Condition (temperature, power-on time, the drive's own verdict), the
 * drive's identity, the ATA attribute table with each attribute's status
 * in words and a tinted row (colour never says it alone), the NVMe health
 * log or the SCSI figures, the self-test log, and what smartctl itself
 * said (its exit-status bits in words, its messages, the notes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-health-page-private.h"
#include "ds-page.h"
#include "ds-units.h"

enum {
  ATTR_ID,
  ATTR_NAME,
  ATTR_VALUE,
  ATTR_WORST,
  ATTR_THRESHOLD,
  ATTR_RAW,
  ATTR_WHEN_FAILED,
  ATTR_STATUS,
};

enum {
  LOG_TYPE,
  LOG_STATUS,
  LOG_HOURS,
  LOG_LBA,
};

static void
add_row (DsHealthPage        *self,
         AdwPreferencesGroup *group,
         const char          *title,
         const char          *value,
         const char          *css_class)
{
  ds_rows_add_figure (self->rows, group, title, value, css_class);
}

/* Says under the last row added why its figure is not plausible. */
static void
flag_last_row (DsHealthPage *self,
               const char   *why)
{
  AdwActionRow *row = self->rows->pdata[self->rows->len - 1];

  /* Translators: under a figure the drive reported that cannot be real */
  g_autofree char *text = g_strdup_printf (_("Not plausible: %s"), why);

  adw_action_row_set_subtitle (row, text);
}

/* @value as shown, "(not plausible)" after it when it is not, and then
 * the first reason in @why; NULL when not reported. */
static char *
short_text (DsHealthFigure   figure,
            int64_t          value,
            const char     **why)
{
  g_autofree char *text = ds_health_figure_value (figure, value);
  const char *reason = ds_health_implausible_why (figure, value);

  if (text == NULL || reason == NULL)
    return g_steal_pointer (&text);
  if (*why == NULL)
    *why = reason;
  /* Translators: a figure as the drive reported it, flagged */
  return g_strdup_printf (_("%s (not plausible)"), text);
}

/* A row of a figure, or nothing when the drive did not report it; when it
 * is not plausible, flagged (marked "warning", the reason under it), else
 * marked with @css_class when above 0. */
static void
add_figure (DsHealthPage        *self,
            AdwPreferencesGroup *group,
            const char          *title,
            DsHealthFigure       figure,
            int64_t              value,
            const char          *css_class)
{
  const char *why = NULL;
  g_autofree char *text = short_text (figure, value, &why);

  if (text == NULL)
    return;
  add_row (self, group, title, text, why != NULL ? "warning" : value > 0 ? css_class : NULL);
  if (why != NULL)
    flag_last_row (self, why);
}

/* A note in the "smartctl Says" group: a line of text with an icon. */
static void
add_note (DsHealthPage *self,
          const char   *icon_name,
          const char   *text)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_preferences_group_add (self->notes_group, row);

  g_ptr_array_add (self->rows, self->notes_group);
  g_ptr_array_add (self->rows, row);
}

static const char *
verdict_word (DsHealthVerdict verdict)
{
  switch (verdict)
    {
    case DS_HEALTH_FAILING:
      return _("Failing");
    case DS_HEALTH_WARNING:
      return _("Warning");
    case DS_HEALTH_UNDETERMINED:
      return _("Unknown");
    case DS_HEALTH_GOOD:
    default:
      return _("OK");
    }
}

/* The style class that tints a row or colours a word of @verdict. */
static const char *
verdict_class (DsHealthVerdict verdict)
{
  switch (verdict)
    {
    case DS_HEALTH_FAILING:
      return "error";
    case DS_HEALTH_WARNING:
    case DS_HEALTH_UNDETERMINED:
      return "warning";
    case DS_HEALTH_GOOD:
    default:
      return NULL;
    }
}

static void
fill_condition (DsHealthPage   *self,
                const DsHealth *h)
{
  AdwPreferencesGroup *group = self->condition_group;

  {
    gboolean hot = ds_health_plausible (DS_HEALTH_TEMPERATURE, h->temperature_c) && h->has_scsi &&
                   ds_health_plausible (DS_HEALTH_TEMPERATURE, h->scsi.trip_temperature_c) &&
                   h->temperature_c >= h->scsi.trip_temperature_c;

    add_figure (self, group, _("Temperature"), DS_HEALTH_TEMPERATURE, h->temperature_c,
                hot ? "warning" : NULL);
  }
  add_figure (self, group, _("Power-On Time"), DS_HEALTH_HOURS, h->power_on_hours, NULL);
  add_figure (self, group, _("Power Cycles"), DS_HEALTH_COUNT, h->power_cycles, NULL);
  add_row (self, group, _("Drive’s Own Assessment"),
           !h->has_overall ? _("Not reported") : h->overall_passed ? _("Passed") : _("FAILED"),
           h->has_overall && !h->overall_passed ? "error" : NULL);
  add_figure (self, group, _("Error Log Entries"), DS_HEALTH_COUNT, h->error_log_count, NULL);
  if (!h->smart_enabled)
    add_row (self, group, _("SMART"), h->smart_available ? _("Disabled") : _("Not available"),
             "warning");
}

static void
fill_drive (DsHealthPage   *self,
            const DsHealth *h)
{
  AdwPreferencesGroup *group = self->drive_group;

  if (h->model != NULL)
    add_row (self, group, _("Model"), h->model, NULL);
  if (h->serial != NULL)
    add_row (self, group, _("Serial Number"), h->serial, NULL);
  if (h->firmware != NULL)
    add_row (self, group, _("Firmware"), h->firmware, NULL);
  if (h->capacity_bytes > 0)
    {
      g_autofree char *size = ds_format_size (h->capacity_bytes);

      add_row (self, group, _("Capacity"), size, NULL);
    }
  if (h->protocol != NULL)
    add_row (self, group, _("Interface"), h->protocol, NULL);
  add_figure (self, group, _("Rotation"), DS_HEALTH_ROTATION, h->rotation_rate, NULL);
}

static void
fill_attributes (DsHealthPage   *self,
                 const DsHealth *h)
{
  const char *headings[] = {
    _("ID"), _("Attribute"), _("Value"), _("Worst"), _("Threshold"), _("Raw"),
    _("When Failed"), _("Status"), NULL
  };

  ds_table_remove_rows (self->attributes_table);
  gtk_widget_set_visible (GTK_WIDGET (self->attributes_box), h->attributes->len > 0);
  if (h->attributes->len == 0)
    return;

  ds_table_set_headings (self->attributes_table, headings);
  for (guint i = 0; i < h->attributes->len; i++)
    {
      const DsHealthAttribute *a = &g_array_index (h->attributes, DsHealthAttribute, i);
      guint row = i + 1;
      g_autofree char *id = g_strdup_printf ("%u", a->id);
      g_autofree char *value = a->value >= 0 ? g_strdup_printf ("%d", a->value) : NULL;
      g_autofree char *worst = a->worst >= 0 ? g_strdup_printf ("%d", a->worst) : NULL;
      g_autofree char *threshold = a->threshold >= 0 ? g_strdup_printf ("%d", a->threshold) : NULL;
      /* Translators: an attribute's raw value that cannot be what the drive
       * measured (the verdict's reasons say why) */
      g_autofree char *raw = a->not_plausible == NULL ? g_strdup (a->raw_string) :
        g_strdup_printf (_("%s (not plausible)"), a->raw_string ? a->raw_string : "?");
      g_autofree char *name = g_strdelimit (g_strdup (a->name), "_", ' ');
      const char *when = g_str_equal (a->when_failed, "now") ? _("Now") :
                         g_str_equal (a->when_failed, "past") ? _("In the past") : NULL;
      const char *css = verdict_class (a->status);

      ds_table_set_cell (self->attributes_table, row, ATTR_ID, id);
      ds_table_set_cell (self->attributes_table, row, ATTR_NAME, name);
      ds_table_set_cell (self->attributes_table, row, ATTR_VALUE, value);
      ds_table_set_cell (self->attributes_table, row, ATTR_WORST, worst);
      ds_table_set_cell (self->attributes_table, row, ATTR_THRESHOLD, threshold);
      ds_table_set_cell (self->attributes_table, row, ATTR_RAW, raw);
      ds_table_set_cell (self->attributes_table, row, ATTR_WHEN_FAILED, when);
      ds_table_set_cell (self->attributes_table, row, ATTR_STATUS, verdict_word (a->status));
      if (css != NULL)
        ds_table_add_row_class (self->attributes_table, row, g_str_equal (css, "error") ?
                                "failing-row" : "warning-row");
    }
  ds_table_align_column (self->attributes_table, ATTR_ID, 0, FALSE);
  ds_table_align_column (self->attributes_table, ATTR_NAME, 0, TRUE);
  ds_table_align_column (self->attributes_table, ATTR_STATUS, 0, FALSE);
}

static void
fill_nvme (DsHealthPage       *self,
           const DsHealthNvme *n)
{
  AdwPreferencesGroup *group = self->nvme_group;
  g_auto(GStrv) bits = ds_health_nvme_warning_bits (n->critical_warning);

  if (!n->critical_warning_known)
    add_row (self, group, _("Critical Warning"), _("Unreadable"), "warning");
  else if (bits[0] == NULL)
    add_row (self, group, _("Critical Warning"), _("None"), NULL);
  else
    {
      g_autofree char *joined = g_strjoinv ("\n", bits);

      add_row (self, group, _("Critical Warning"), joined, "error");
    }
  if (n->available_spare != DS_HEALTH_UNKNOWN)
    {
      const char *why = NULL;
      g_autofree char *spare = short_text (DS_HEALTH_PERCENT, n->available_spare, &why);
      g_autofree char *threshold = short_text (DS_HEALTH_PERCENT, n->available_spare_threshold,
                                               &why);
      /* Translators: available spare, then its threshold, both in percent */
      g_autofree char *text = g_strdup_printf (_("%s (threshold %s)"), spare,
                                               threshold != NULL ? threshold : "–");

      add_row (self, group, _("Available Spare"), text,
               why != NULL || n->available_spare < n->available_spare_threshold ? "warning" : NULL);
      if (why != NULL)
        flag_last_row (self, why);
    }
  add_figure (self, group, _("Wear (Percentage Used)"), DS_HEALTH_PERCENT_USED, n->percentage_used,
              n->percentage_used >= 100 ? "warning" : NULL);
  add_figure (self, group, _("Media Errors"), DS_HEALTH_COUNT, n->media_errors, "warning");
  add_figure (self, group, _("Unsafe Shutdowns"), DS_HEALTH_COUNT, n->unsafe_shutdowns, NULL);
  add_figure (self, group, _("Error Log Entries"), DS_HEALTH_COUNT, n->error_log_entries, NULL);
  if (n->data_units_read != DS_HEALTH_UNKNOWN && n->data_units_written != DS_HEALTH_UNKNOWN)
    {
      const char *why = NULL;
      /* NVMe counts data in units of 1000 sectors of 512 bytes. */
      g_autofree char *read = short_text (DS_HEALTH_DATA_UNITS, n->data_units_read, &why);
      g_autofree char *written = short_text (DS_HEALTH_DATA_UNITS, n->data_units_written, &why);
      /* Translators: bytes read, then bytes written over the drive's life */
      g_autofree char *text = g_strdup_printf (_("%s read, %s written"), read, written);

      add_row (self, group, _("Data Transferred"), text, why != NULL ? "warning" : NULL);
      if (why != NULL)
        flag_last_row (self, why);
    }
  if (n->n_sensors > 0)
    {
      GString *sensors = g_string_new (NULL);
      const char *why = NULL;

      for (guint i = 0; i < n->n_sensors; i++)
        {
          g_autofree char *t = short_text (DS_HEALTH_TEMPERATURE, n->sensors_c[i], &why);

          g_string_append_printf (sensors, "%s%s", i ? ", " : "", t != NULL ? t : "–");
        }
      add_row (self, group, _("Temperature Sensors"), sensors->str, why != NULL ? "warning" : NULL);
      if (why != NULL)
        flag_last_row (self, why);
      g_string_free (sensors, TRUE);
    }
}

static void
fill_scsi (DsHealthPage       *self,
           const DsHealthScsi *s)
{
  AdwPreferencesGroup *group = self->scsi_group;

  add_figure (self, group, _("Grown Defects"), DS_HEALTH_COUNT, s->grown_defects, "warning");
  add_figure (self, group, _("Trip Temperature"), DS_HEALTH_TEMPERATURE, s->trip_temperature_c, NULL);
  add_figure (self, group, _("Uncorrected Read Errors"), DS_HEALTH_COUNT, s->read_uncorrected,
              "warning");
  add_figure (self, group, _("Uncorrected Write Errors"), DS_HEALTH_COUNT, s->write_uncorrected,
              "warning");
}

static void
fill_log (DsHealthPage   *self,
          const DsHealth *h)
{
  const char *headings[] = { _("Test"), _("Result"), _("At Hour"), _("First Error at LBA"), NULL };

  ds_table_remove_rows (self->log_table);
  gtk_widget_set_visible (GTK_WIDGET (self->log_box), h->self_tests->len > 0);
  if (h->self_tests->len == 0)
    return;

  ds_table_set_headings (self->log_table, headings);
  for (guint i = 0; i < h->self_tests->len; i++)
    {
      const DsHealthSelfTest *t = h->self_tests->pdata[i];
      g_autofree char *hours = ds_health_plausible (DS_HEALTH_HOURS, t->hours) ?
        g_strdup_printf ("%" G_GINT64_FORMAT, t->hours) :
        ds_health_figure_text (DS_HEALTH_HOURS, t->hours);
      g_autofree char *lba = t->lba >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, t->lba) : NULL;

      ds_table_set_cell (self->log_table, i + 1, LOG_TYPE, t->type);
      ds_table_set_cell (self->log_table, i + 1, LOG_STATUS, t->status);
      ds_table_set_cell (self->log_table, i + 1, LOG_HOURS, hours);
      ds_table_set_cell (self->log_table, i + 1, LOG_LBA, lba);
      if (!t->passed)
        ds_table_add_row_class (self->log_table, i + 1, "failing-row");
    }
  ds_table_align_column (self->log_table, LOG_STATUS, 0, TRUE);
}

static void
fill_notes (DsHealthPage   *self,
            const DsHealth *h,
            const DsResult *result)
{
  g_auto(GStrv) bits = ds_health_exit_bits (h->exit_status);
  g_autofree char *status = NULL;
  guint n = 0;

  for (guint i = 0; bits[i] != NULL; i++, n++)
    add_note (self, "dialog-warning-symbolic", bits[i]);
  for (guint i = 0; h->messages != NULL && i < h->messages->len; i++, n++)
    add_note (self, "utilities-terminal-symbolic", h->messages->pdata[i]);
  for (guint i = 0; h->notes != NULL && i < h->notes->len; i++, n++)
    add_note (self, "dialog-information-symbolic", h->notes->pdata[i]);
  for (guint i = 0; result != NULL && result->notes != NULL && i < result->notes->len; i++, n++)
    add_note (self, "dialog-information-symbolic", result->notes->pdata[i]);

  /* Translators: smartctl's version, then its exit status */
  status = g_strdup_printf (_("smartctl %s exited with status %d"),
                            h->smartctl_version ? h->smartctl_version : "?", h->exit_status);
  adw_preferences_group_set_description (self->notes_group, status);
}

void
_ds_health_page_clear (DsHealthPage *self)
{
  ds_rows_remove_all (self->rows);
}

void
_ds_health_page_fill (DsHealthPage   *self,
                      const DsHealth *health,
                      const DsResult *result)
{
  _ds_health_page_clear (self);

  fill_condition (self, health);
  fill_drive (self, health);
  fill_attributes (self, health);

  gtk_widget_set_visible (GTK_WIDGET (self->nvme_group), health->has_nvme);
  if (health->has_nvme)
    fill_nvme (self, &health->nvme);
  gtk_widget_set_visible (GTK_WIDGET (self->scsi_group), health->has_scsi);
  if (health->has_scsi)
    fill_scsi (self, &health->scsi);

  fill_log (self, health);
  fill_notes (self, health, result);
}
