/* ds-health-report.c: a health result's text report (the CLI's
 * `health` output and the session report's Health section): the verdict
 * and its reasons, the figures (flagged when not plausible), the
 * attribute table, the NVMe health log, the self-test log and notes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-health.h"
#include "ds-report.h"
#include "ds-text.h"

/* A figure as shown, flagged when not plausible; "–" when not reported. */
static char *
figure_text (DsHealthFigure figure,
             int64_t        v)
{
  char *text = ds_health_figure_text (figure, v);

  return text != NULL ? text : g_strdup ("–");
}

static char *
normalized_text (int v)
{
  return v < 0 ? g_strdup ("-") : g_strdup_printf ("%d", v);
}

static void
report_attributes (const DsHealth *h,
                   GString        *out)
{
  g_string_append_printf (out, "\n%3s %-26s %5s %5s %6s %-6s %-8s %s\n",
                          "ID", "Attribute", "Value", "Worst", "Thresh", "Failed", "Status", "Raw");
  for (guint i = 0; i < h->attributes->len; i++)
    {
      const DsHealthAttribute *a = &g_array_index (h->attributes, DsHealthAttribute, i);
      g_autofree char *value = normalized_text (a->value);
      g_autofree char *worst = normalized_text (a->worst);
      g_autofree char *threshold = normalized_text (a->threshold);
      /* smartctl's strings (or a saved file's): escaped where written. */
      g_autofree char *name = ds_text_sanitize_short (a->name, 40);
      g_autofree char *failed = ds_text_sanitize_short (a->when_failed[0] ? a->when_failed : "-", 20);
      g_autofree char *raw = ds_text_sanitize_short (a->raw_string ? a->raw_string : "", 80);

      g_string_append_printf (out, "%3u %-26s %5s %5s %6s %-6s %-8s %s",
                              a->id, name, value, worst, threshold, failed,
                              ds_health_verdict_to_string (a->status), raw);
      if (a->not_plausible != NULL)
        {
          g_autofree char *why = ds_text_sanitize (a->not_plausible);

          g_string_append_printf (out, " (not plausible: %s)", why);
        }
      g_string_append_c (out, '\n');
    }
}

static void
report_nvme (const DsHealthNvme *n,
             GString            *out)
{
  g_autofree char *cw = n->critical_warning_known ?
    g_strdup_printf ("0x%02x", n->critical_warning) : g_strdup ("unreadable");
  g_autofree char *spare = figure_text (DS_HEALTH_PERCENT, n->available_spare);
  g_autofree char *spare_threshold = figure_text (DS_HEALTH_PERCENT, n->available_spare_threshold);
  g_autofree char *spare_line = g_strdup_printf ("%s (threshold %s)", spare, spare_threshold);
  g_autofree char *used = figure_text (DS_HEALTH_PERCENT_USED, n->percentage_used);
  g_autofree char *media = figure_text (DS_HEALTH_COUNT, n->media_errors);
  g_autofree char *unsafe = figure_text (DS_HEALTH_COUNT, n->unsafe_shutdowns);
  g_autofree char *errlog = figure_text (DS_HEALTH_COUNT, n->error_log_entries);
  GString *sensors = g_string_new (NULL);

  for (guint i = 0; i < n->n_sensors; i++)
    {
      g_autofree char *t = figure_text (DS_HEALTH_TEMPERATURE, n->sensors_c[i]);

      g_string_append_printf (sensors, "%s%s", i ? ", " : "", t);
    }

  g_string_append (out, "\nNVMe health log\n");
  ds_report_figure (out, "Critical warning", cw);
  ds_report_figure (out, "Available spare", spare_line);
  ds_report_figure (out, "Percentage used", used);
  ds_report_figure (out, "Media errors", media);
  ds_report_figure (out, "Unsafe shutdowns", unsafe);
  ds_report_figure (out, "Error log entries", errlog);
  if (sensors->len > 0)
    ds_report_figure (out, "Temperature sensors", sensors->str);
  g_string_free (sensors, TRUE);
}

/* A self-test's power-on hour: "44600 h", flagged when not plausible. */
static char *
test_hours_text (int64_t hours)
{
  if (ds_health_plausible (DS_HEALTH_HOURS, hours))
    return g_strdup_printf ("%" G_GINT64_FORMAT " h", hours);
  return figure_text (DS_HEALTH_HOURS, hours);
}

static void
report_self_tests (const DsHealth *h,
                   GString        *out)
{
  if (h->self_test_running)
    {
      g_autofree char *line = h->self_test_remaining_percent != DS_HEALTH_UNKNOWN ?
        g_strdup_printf ("running, %" G_GINT64_FORMAT " %% left", h->self_test_remaining_percent) :
        g_strdup ("running");
      ds_report_figure (out, "Self-test", line);
    }
  else if (h->self_test_status != NULL)
    ds_report_figure (out, "Self-test", h->self_test_status);

  if (h->self_tests->len == 0)
    return;
  g_string_append (out, "\nSelf-test log (newest first)\n");
  for (guint i = 0; i < h->self_tests->len && i < 21; i++)
    {
      const DsHealthSelfTest *t = h->self_tests->pdata[i];
      g_autofree char *hours = test_hours_text (t->hours);
      g_autofree char *lba = t->lba >= 0 ?
        g_strdup_printf ("LBA %" G_GINT64_FORMAT, t->lba) : g_strdup ("");
      const char *cells[] = { t->type, t->status, hours, lba };

      g_string_append (out, "  ");
      ds_report_row (out, cells, G_N_ELEMENTS (cells), 20, 12);
    }
}

void
ds_health_report (const DsResult *result,
                  DsUnits         units,
                  GString        *out)
{
  const DsHealthData *data = result->data;
  const DsHealth *h = data->health;
  g_autofree char *verdict = NULL;
  g_autofree char *temp = NULL;
  g_autofree char *hours = NULL;
  g_autofree char *cycles = NULL;
  g_autofree char *smartctl = NULL;
  g_auto (GStrv) bits = NULL;

  if (h == NULL)
    return;

  verdict = g_ascii_strup (ds_health_verdict_to_string (h->verdict), -1);
  ds_report_figure (out, "Health", verdict);
  for (guint i = 0; i < h->reasons->len; i++)
    {
      g_autofree char *reason = ds_text_sanitize (h->reasons->pdata[i]);

      g_string_append_printf (out, "  - %s\n", reason);
    }
  g_string_append_c (out, '\n');

  if (h->model != NULL)
    ds_report_figure (out, "Model", h->model);
  if (h->serial != NULL)
    ds_report_figure (out, "Serial number", h->serial);
  if (h->firmware != NULL)
    ds_report_figure (out, "Firmware", h->firmware);
  if (h->protocol != NULL)
    ds_report_figure (out, "Interface", h->protocol);
  temp = figure_text (DS_HEALTH_TEMPERATURE, h->temperature_c);
  ds_report_figure (out, "Temperature", temp);
  hours = figure_text (DS_HEALTH_HOURS, h->power_on_hours);
  ds_report_figure (out, "Power-on hours", hours);
  cycles = figure_text (DS_HEALTH_COUNT, h->power_cycles);
  ds_report_figure (out, "Power cycles", cycles);
  ds_report_figure (out, "SMART self-assessment",
                    !h->has_overall ? "not reported" : h->overall_passed ? "passed" : "FAILED");
  if (h->has_scsi)
    {
      g_autofree char *defects = figure_text (DS_HEALTH_COUNT, h->scsi.grown_defects);
      g_autofree char *trip = figure_text (DS_HEALTH_TEMPERATURE, h->scsi.trip_temperature_c);

      ds_report_figure (out, "Grown defects", defects);
      ds_report_figure (out, "Trip temperature", trip);
    }
  bits = ds_health_exit_bits (h->exit_status);
  smartctl = g_strdup_printf ("%s, exit status %d", h->smartctl_version ? h->smartctl_version : "?",
                              h->exit_status);
  ds_report_figure (out, "smartctl", smartctl);
  for (guint i = 0; bits[i] != NULL; i++)
    g_string_append_printf (out, "  bit: %s\n", bits[i]);
  report_self_tests (h, out);

  if (h->attributes->len > 0)
    report_attributes (h, out);
  if (h->has_nvme)
    report_nvme (&h->nvme, out);
  for (guint i = 0; i < h->notes->len; i++)
    {
      g_autofree char *note = ds_text_sanitize (h->notes->pdata[i]);

      g_string_append_printf (out, "%sNote: %s\n", i == 0 ? "\n" : "", note);
    }
}

