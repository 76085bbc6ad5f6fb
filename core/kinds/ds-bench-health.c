/* ds-bench-health.c: SMART health as a result (kind "health")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "ds-bench-health.h"
#include "ds-error.h"
#include "ds-file-read.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-smartctl.h"
#include "ds-text.h"

static gpointer
health_data_new (void)
{
  return g_new0 (DsHealthData, 1);
}

static void
health_data_free (gpointer p)
{
  DsHealthData *data = p;

  g_clear_pointer (&data->health, ds_health_free);
  g_free (data);
}

/* The target as smartctl saw it. */
static void
fill_target (DsResult       *result,
             const DsHealth *h,
             const char     *path)
{
  JsonObject *raw = json_node_get_object (h->raw);
  int64_t lbs = json_object_get_int_member_with_default (raw, "logical_block_size", 0);
  int64_t pbs = json_object_get_int_member_with_default (raw, "physical_block_size", lbs);
  struct stat st;

  ds_target_info_clear (&result->target);
  result->target.path = g_strdup (path != NULL ? path : h->device ? h->device : "?");
  result->target.is_block = path == NULL || (stat (path, &st) == 0 && S_ISBLK (st.st_mode));
  result->target.size_bytes = h->capacity_bytes;
  result->target.model = g_strdup (h->model);
  result->target.rotational = h->rotation_rate > 0;
  /* Only what the loader takes: 0 or a power of two of 512 .. 1 MiB. */
  if (lbs >= 512 && lbs <= (1 << 20) && (lbs & (lbs - 1)) == 0)
    result->target.logical_block_size = (uint32_t) lbs;
  if (lbs > 0 && pbs >= lbs && pbs <= (1 << 20) && (pbs & (pbs - 1)) == 0)
    result->target.physical_block_size = (uint32_t) pbs;
}

static int
health_run (DsRun   *run,
            GError **error)
{
  DsHealthData *data = run->result->data;
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .name = "smartctl" };

  ds_run_emit (run, &phase);
  data->health = ds_smartctl_read_health (run->spec->target_path, DS_SMARTCTL_TIMEOUT_NS,
                                          run->cancel, error);
  if (data->health == NULL)
    return -EIO;
  fill_target (run->result, data->health, run->spec->target_path);
  g_free (run->result->engine);
  run->result->engine = g_strdup_printf ("smartctl %s", data->health->smartctl_version ?
                                         data->health->smartctl_version : "");

  return 0;
}

DsResult *
ds_health_result_from_file (const char  *path,
                            GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  g_autoptr (DsResult) result = NULL;
  DsHealthData *data;
  DsHealth *h;
  DsBenchSpec spec;
  gsize length = 0;

  /* The program's bounded opener: a FIFO or /dev/zero is refused at once
   * (the app tries this on every file that is not a result). */
  if (!ds_file_read_bounded (path, _("smartctl's JSON output"), DS_SMARTCTL_JSON_MAX_BYTES,
                             "DS_SMARTCTL_JSON_MAX_BYTES", &text, &length, error))
    return NULL;
  h = ds_health_parse (text, (gssize) length, -1, &local);
  if (h == NULL)
    {
      g_autofree char *name = ds_text_sanitize (path);

      g_set_error (error, local->domain, local->code, "%s: %s", name, local->message);
      return NULL;
    }

  ds_bench_spec_init (&spec, DS_BENCH_HEALTH);
  spec.target_path = g_strdup (h->device);
  result = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  data = result->data;
  data->health = h;
  fill_target (result, h, NULL);
  result->engine = g_strdup_printf ("smartctl %s", h->smartctl_version ? h->smartctl_version : "");
  ds_result_add_note (result, _("read from the saved smartctl output %s, not from the drive now"), path);
  result->complete = TRUE;

  return g_steal_pointer (&result);
}

/* ---- JSON --------------------------------------------------------------- */

static void
set_num (JsonObject *o,
         const char *name,
         int64_t     v)
{
  if (v == DS_HEALTH_UNKNOWN)
    json_object_set_null_member (o, name);
  else
    json_object_set_int_member (o, name, v);
}

static void
set_str (JsonObject *o,
         const char *name,
         const char *v)
{
  if (v == NULL)
    json_object_set_null_member (o, name);
  else
    json_object_set_string_member (o, name, v);
}

static JsonArray *
strings (GPtrArray *list)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; list != NULL && i < list->len; i++)
    json_array_add_string_element (a, list->pdata[i]);

  return a;
}

static JsonArray *
strv_array (GStrv strv)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (a, strv[i]);

  return a;
}

static JsonObject *
attributes_row (const DsHealthAttribute *a)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "id", a->id);
  json_object_set_string_member (o, "name", a->name);
  json_object_set_int_member (o, "value", a->value);
  json_object_set_int_member (o, "worst", a->worst);
  json_object_set_int_member (o, "threshold", a->threshold);
  set_num (o, "raw", a->raw);
  set_str (o, "raw_string", a->raw_string);
  json_object_set_string_member (o, "when_failed", a->when_failed);
  json_object_set_boolean_member (o, "prefailure", a->prefailure);
  json_object_set_string_member (o, "status", ds_health_verdict_to_string (a->status));

  return o;
}

static JsonObject *
nvme_to_json (const DsHealthNvme *n)
{
  JsonObject *o = json_object_new ();
  JsonArray *sensors = json_array_new ();
  g_auto (GStrv) bits = ds_health_nvme_warning_bits (n->critical_warning);

  json_object_set_int_member (o, "critical_warning", n->critical_warning);
  json_object_set_array_member (o, "critical_warning_bits", strv_array (bits));
  set_num (o, "media_errors", n->media_errors);
  set_num (o, "percentage_used", n->percentage_used);
  set_num (o, "available_spare", n->available_spare);
  set_num (o, "available_spare_threshold", n->available_spare_threshold);
  set_num (o, "temperature_c", n->temperature_c);
  for (guint i = 0; i < n->n_sensors; i++)
    json_array_add_int_element (sensors, n->sensors_c[i]);
  json_object_set_array_member (o, "temperature_sensors_c", sensors);
  set_num (o, "power_on_hours", n->power_on_hours);
  set_num (o, "power_cycles", n->power_cycles);
  set_num (o, "unsafe_shutdowns", n->unsafe_shutdowns);
  set_num (o, "data_units_read", n->data_units_read);
  set_num (o, "data_units_written", n->data_units_written);
  set_num (o, "error_log_entries", n->error_log_entries);

  return o;
}

static JsonObject *
self_test_to_json (const DsHealth *h)
{
  JsonObject *o = json_object_new ();
  JsonArray *log = json_array_new ();

  json_object_set_boolean_member (o, "running", h->self_test_running);
  set_num (o, "remaining_percent", h->self_test_remaining_percent);
  set_str (o, "status", h->self_test_status);
  set_num (o, "short_minutes", h->short_test_minutes);
  set_num (o, "long_minutes", h->long_test_minutes);
  for (guint i = 0; i < h->self_tests->len; i++)
    {
      const DsHealthSelfTest *t = h->self_tests->pdata[i];
      JsonObject *e = json_object_new ();

      json_object_set_string_member (e, "type", t->type);
      json_object_set_string_member (e, "status", t->status);
      json_object_set_boolean_member (e, "passed", t->passed);
      set_num (e, "hours", t->hours);
      set_num (e, "lba", t->lba);
      json_array_add_object_element (log, e);
    }
  json_object_set_array_member (o, "log", log);

  return o;
}

static JsonNode *
health_to_json (const DsResult *result)
{
  const DsHealthData *data = result->data;
  const DsHealth *h = data->health;
  JsonObject *o = json_object_new ();
  JsonNode *node = ds_json_node_take_object (o);
  JsonObject *device, *smartctl;
  g_auto (GStrv) bits = NULL;

  if (h == NULL)
    {
      /* The run failed before smartctl answered: the error says why. */
      json_object_set_null_member (o, "verdict");
      json_object_set_null_member (o, "smartctl_output");
      return node;
    }

  json_object_set_string_member (o, "verdict", ds_health_verdict_to_string (h->verdict));
  json_object_set_array_member (o, "reasons", strings (h->reasons));
  json_object_set_array_member (o, "notes", strings (h->notes));
  set_num (o, "temperature_c", h->temperature_c);
  set_num (o, "power_on_hours", h->power_on_hours);
  set_num (o, "power_cycles", h->power_cycles);
  set_str (o, "protocol", h->protocol);

  device = json_object_new ();
  set_str (device, "name", h->device);
  set_str (device, "model", h->model);
  set_str (device, "serial", h->serial);
  set_str (device, "firmware", h->firmware);
  json_object_set_int_member (device, "capacity_bytes", (gint64) h->capacity_bytes);
  set_num (device, "rotation_rate", h->rotation_rate);
  json_object_set_object_member (o, "device", device);

  smartctl = json_object_new ();
  set_str (smartctl, "version", h->smartctl_version);
  json_object_set_int_member (smartctl, "exit_status", h->exit_status);
  bits = ds_health_exit_bits (h->exit_status);
  json_object_set_array_member (smartctl, "exit_bits", strv_array (bits));
  json_object_set_array_member (smartctl, "messages", strings (h->messages));
  json_object_set_object_member (o, "smartctl", smartctl);

  json_object_set_boolean_member (o, "smart_available", h->smart_available);
  json_object_set_boolean_member (o, "smart_enabled", h->smart_enabled);
  if (h->has_overall)
    json_object_set_boolean_member (o, "overall_passed", h->overall_passed);
  else
    json_object_set_null_member (o, "overall_passed");

  if (h->attributes->len > 0)
    {
      JsonArray *attrs = json_array_new ();

      for (guint i = 0; i < h->attributes->len; i++)
        json_array_add_object_element (attrs, attributes_row (&g_array_index (h->attributes,
                                                                               DsHealthAttribute, i)));
      json_object_set_array_member (o, "attributes", attrs);
    }
  if (h->has_nvme)
    json_object_set_object_member (o, "nvme", nvme_to_json (&h->nvme));
  if (h->has_scsi)
    {
      JsonObject *s = json_object_new ();

      set_num (s, "grown_defects", h->scsi.grown_defects);
      set_num (s, "trip_temperature_c", h->scsi.trip_temperature_c);
      set_num (s, "read_uncorrected", h->scsi.read_uncorrected);
      set_num (s, "write_uncorrected", h->scsi.write_uncorrected);
      json_object_set_object_member (o, "scsi", s);
    }
  json_object_set_object_member (o, "self_test", self_test_to_json (h));
  json_object_set_member (o, "smartctl_output", json_node_copy (h->raw));

  return node;
}

static gpointer
health_from_json (JsonObject  *o,
                  GError     **error)
{
  DsHealthData *data = health_data_new ();
  JsonNode *raw = json_object_get_member (o, "smartctl_output");

  if (raw == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.smartctl_output is missing"));
      health_data_free (data);
      return NULL;
    }
  if (JSON_NODE_HOLDS_NULL (raw))
    return data;

  /* The saved output is judged again: the verdict is the rules', now. */
  data->health = ds_health_parse_node (raw, -1, error);
  if (data->health == NULL)
    {
      g_prefix_error (error, _("results.smartctl_output: "));
      if (error != NULL && *error != NULL && (*error)->domain == DS_ERROR)
        (*error)->code = DS_ERROR_CORRUPT;
      health_data_free (data);
      return NULL;
    }

  return data;
}

/* ---- report ------------------------------------------------------------- */

static char *
num_text (int64_t     v,
          const char *unit)
{
  if (v == DS_HEALTH_UNKNOWN)
    return g_strdup ("–");
  return g_strdup_printf ("%" G_GINT64_FORMAT "%s", v, unit);
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
      /* smartctl's strings (or a saved file's): escaped where written. */
      g_autofree char *name = ds_text_sanitize_short (a->name, 40);
      g_autofree char *failed = ds_text_sanitize_short (a->when_failed[0] ? a->when_failed : "-", 20);
      g_autofree char *raw = ds_text_sanitize_short (a->raw_string ? a->raw_string : "", 80);

      g_string_append_printf (out, "%3u %-26s %5d %5d %6d %-6s %-8s %s\n",
                              a->id, name, a->value, a->worst, a->threshold, failed,
                              ds_health_verdict_to_string (a->status), raw);
    }
}

static void
report_nvme (const DsHealthNvme *n,
             GString            *out)
{
  g_autofree char *cw = g_strdup_printf ("0x%02x", n->critical_warning);
  g_autofree char *spare = n->available_spare != DS_HEALTH_UNKNOWN ?
    g_strdup_printf ("%" G_GINT64_FORMAT " %% (threshold %" G_GINT64_FORMAT " %%)",
                     n->available_spare, n->available_spare_threshold) : g_strdup ("–");
  g_autofree char *used = num_text (n->percentage_used, " %");
  g_autofree char *media = num_text (n->media_errors, "");
  g_autofree char *unsafe = num_text (n->unsafe_shutdowns, "");
  g_autofree char *errlog = num_text (n->error_log_entries, "");
  GString *sensors = g_string_new (NULL);

  for (guint i = 0; i < n->n_sensors; i++)
    g_string_append_printf (sensors, "%s%" G_GINT64_FORMAT " °C", i ? ", " : "", n->sensors_c[i]);

  g_string_append (out, "\nNVMe health log\n");
  ds_report_figure (out, "Critical warning", cw);
  ds_report_figure (out, "Available spare", spare);
  ds_report_figure (out, "Percentage used", used);
  ds_report_figure (out, "Media errors", media);
  ds_report_figure (out, "Unsafe shutdowns", unsafe);
  ds_report_figure (out, "Error log entries", errlog);
  if (sensors->len > 0)
    ds_report_figure (out, "Temperature sensors", sensors->str);
  g_string_free (sensors, TRUE);
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
      g_autofree char *hours = num_text (t->hours, " h");
      g_autofree char *lba = t->lba != DS_HEALTH_UNKNOWN ?
        g_strdup_printf ("LBA %" G_GINT64_FORMAT, t->lba) : g_strdup ("");
      const char *cells[] = { t->type, t->status, hours, lba };

      g_string_append (out, "  ");
      ds_report_row (out, cells, G_N_ELEMENTS (cells), 20, 12);
    }
}

static void
health_report (const DsResult *result,
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
  temp = num_text (h->temperature_c, " °C");
  ds_report_figure (out, "Temperature", temp);
  hours = h->power_on_hours != DS_HEALTH_UNKNOWN ?
    g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f years)", h->power_on_hours,
                     (double) h->power_on_hours / (24 * 365.25)) : g_strdup ("–");
  ds_report_figure (out, "Power-on hours", hours);
  cycles = num_text (h->power_cycles, "");
  ds_report_figure (out, "Power cycles", cycles);
  ds_report_figure (out, "SMART self-assessment",
                    !h->has_overall ? "not reported" : h->overall_passed ? "passed" : "FAILED");
  if (h->has_scsi)
    {
      g_autofree char *defects = num_text (h->scsi.grown_defects, "");
      g_autofree char *trip = num_text (h->scsi.trip_temperature_c, " °C");

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

const DsBenchOps ds_bench_health = {
  .kind = DS_BENCH_HEALTH,
  .name = "health",
  .title = "Health",
  .opens_target = FALSE,
  .data_new = health_data_new,
  .data_free = health_data_free,
  .run = health_run,
  .to_json = health_to_json,
  .from_json = health_from_json,
  .report = health_report,
  .writes = DS_BENCH_WRITES_NEVER,
};
