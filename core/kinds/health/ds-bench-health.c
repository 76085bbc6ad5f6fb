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
  result->target.serial = g_strdup (h->serial);
  result->target.rotational = h->rotation_rate > 0;
  /* Only what the loader takes: 0 or a power of two of 512 .. 1 MiB. */
  if (lbs >= 512 && lbs <= (1 << 20) && (lbs & (lbs - 1)) == 0)
    result->target.logical_block_size = (uint32_t) lbs;
  if (lbs > 0 && pbs >= lbs && pbs <= (1 << 20) && (pbs & (pbs - 1)) == 0)
    result->target.physical_block_size = (uint32_t) pbs;
}

static gboolean
health_run (DsRun   *run,
            GError **error)
{
  DsHealthData *data = run->result->data;
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .name = "smartctl" };

  ds_run_emit (run, &phase);
  data->health = ds_smartctl_read_health (run->spec->target_path, DS_SMARTCTL_TIMEOUT_NS,
                                          run->cancel, error);
  if (data->health == NULL)
    return ds_run_ok (run, -EIO, error);
  fill_target (run->result, data->health, run->spec->target_path);
  g_free (run->result->engine);
  run->result->engine = g_strdup_printf ("smartctl %s", data->health->smartctl_version ?
                                         data->health->smartctl_version : "");

  return TRUE;
}

/* A complete health result from smartctl's JSON @text, read from @path. */
static DsResult *
health_from_foreign (const char  *path,
                     const char  *text,
                     gsize        length,
                     GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (DsResult) result = NULL;
  DsHealthData *data;
  DsHealth *h;
  DsBenchSpec spec;

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

DsResult *
ds_health_result_from_file (const char  *path,
                            GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  /* The program's bounded opener: a FIFO or /dev/zero is refused at once. */
  if (!ds_file_read_bounded (path, _("smartctl's JSON output"), DS_SMARTCTL_JSON_MAX_BYTES,
                             "DS_SMARTCTL_JSON_MAX_BYTES", &text, &length, error))
    return NULL;

  return health_from_foreign (path, text, length, error);
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

/* A figure with a physical range that is not plausible goes into
 * @flagged with what was reported and why it cannot be what the drive
 * measured: TRUE then. */
static gboolean
list_implausible (JsonArray      *flagged,
                  const char     *name,
                  DsHealthFigure  figure,
                  int64_t         v)
{
  const char *why = ds_health_implausible_why (figure, v);
  JsonObject *f;

  if (why == NULL)
    return FALSE;
  f = json_object_new ();
  json_object_set_string_member (f, "figure", name);
  if (v == DS_HEALTH_INVALID)
    json_object_set_null_member (f, "reported");
  else
    json_object_set_int_member (f, "reported", v);
  json_object_set_string_member (f, "why", why);
  json_array_add_object_element (flagged, f);
  return TRUE;
}

/* The number when plausible; null when not reported, and when not
 * plausible (then listed in @flagged). */
static void
set_figure (JsonObject     *o,
            const char     *section,
            const char     *name,
            DsHealthFigure  figure,
            int64_t         v,
            JsonArray      *flagged)
{
  g_autofree char *path = section != NULL ? g_strdup_printf ("%s.%s", section, name) : NULL;

  if (list_implausible (flagged, path != NULL ? path : name, figure, v))
    json_object_set_null_member (o, name);
  else
    set_num (o, name, v);
}

/* A normalized attribute value: -1 is not reported. */
static void
set_normalized (JsonObject *o,
                const char *name,
                int         v)
{
  if (v < 0)
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
  set_normalized (o, "value", a->value);
  set_normalized (o, "worst", a->worst);
  set_normalized (o, "threshold", a->threshold);
  set_num (o, "raw", a->raw == DS_HEALTH_INVALID ? DS_HEALTH_UNKNOWN : a->raw);
  set_str (o, "raw_string", a->raw_string);
  set_num (o, "count", a->count);
  set_str (o, "not_plausible", a->not_plausible);
  json_object_set_string_member (o, "when_failed", a->when_failed);
  json_object_set_boolean_member (o, "prefailure", a->prefailure);
  json_object_set_string_member (o, "status", ds_health_verdict_to_string (a->status));

  return o;
}

static JsonObject *
nvme_to_json (const DsHealthNvme *n,
              JsonArray          *flagged)
{
  JsonObject *o = json_object_new ();
  JsonArray *sensors = json_array_new ();
  g_auto (GStrv) bits = ds_health_nvme_warning_bits (n->critical_warning);

  if (n->critical_warning_known)
    json_object_set_int_member (o, "critical_warning", n->critical_warning);
  else
    json_object_set_null_member (o, "critical_warning");
  json_object_set_array_member (o, "critical_warning_bits", strv_array (bits));
  set_figure (o, "nvme", "media_errors", DS_HEALTH_COUNT, n->media_errors, flagged);
  set_figure (o, "nvme", "percentage_used", DS_HEALTH_PERCENT_USED, n->percentage_used, flagged);
  set_figure (o, "nvme", "available_spare", DS_HEALTH_PERCENT, n->available_spare, flagged);
  set_figure (o, "nvme", "available_spare_threshold", DS_HEALTH_PERCENT, n->available_spare_threshold,
              flagged);
  set_figure (o, "nvme", "temperature_c", DS_HEALTH_TEMPERATURE, n->temperature_c, flagged);
  for (guint i = 0; i < n->n_sensors; i++)
    {
      g_autofree char *name = g_strdup_printf ("nvme.temperature_sensors_c[%u]", i);

      if (list_implausible (flagged, name, DS_HEALTH_TEMPERATURE, n->sensors_c[i]))
        json_array_add_null_element (sensors);
      else
        json_array_add_int_element (sensors, n->sensors_c[i]);
    }
  json_object_set_array_member (o, "temperature_sensors_c", sensors);
  set_figure (o, "nvme", "power_on_hours", DS_HEALTH_HOURS, n->power_on_hours, flagged);
  set_figure (o, "nvme", "power_cycles", DS_HEALTH_COUNT, n->power_cycles, flagged);
  set_figure (o, "nvme", "unsafe_shutdowns", DS_HEALTH_COUNT, n->unsafe_shutdowns, flagged);
  set_figure (o, "nvme", "data_units_read", DS_HEALTH_DATA_UNITS, n->data_units_read, flagged);
  set_figure (o, "nvme", "data_units_written", DS_HEALTH_DATA_UNITS, n->data_units_written, flagged);
  set_figure (o, "nvme", "error_log_entries", DS_HEALTH_COUNT, n->error_log_entries, flagged);

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
      set_num (e, "hours", ds_health_plausible (DS_HEALTH_HOURS, t->hours) ? t->hours :
                           DS_HEALTH_UNKNOWN);
      set_num (e, "lba", t->lba >= 0 ? t->lba : DS_HEALTH_UNKNOWN);
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
  JsonArray *flagged = json_array_new ();
  g_auto (GStrv) bits = NULL;

  if (h == NULL)
    {
      /* The run failed before smartctl answered: the error says why. */
      json_object_set_null_member (o, "verdict");
      json_object_set_null_member (o, "smartctl_output");
      json_array_unref (flagged);
      return node;
    }

  json_object_set_string_member (o, "verdict", ds_health_verdict_to_string (h->verdict));
  json_object_set_array_member (o, "reasons", strings (h->reasons));
  json_object_set_array_member (o, "notes", strings (h->notes));
  json_object_set_array_member (o, "unreadable", strings (h->unreadable));
  set_figure (o, NULL, "temperature_c", DS_HEALTH_TEMPERATURE, h->temperature_c, flagged);
  set_figure (o, NULL, "power_on_hours", DS_HEALTH_HOURS, h->power_on_hours, flagged);
  set_figure (o, NULL, "power_cycles", DS_HEALTH_COUNT, h->power_cycles, flagged);
  set_str (o, "protocol", h->protocol);

  device = json_object_new ();
  set_str (device, "name", h->device);
  set_str (device, "model", h->model);
  set_str (device, "serial", h->serial);
  set_str (device, "firmware", h->firmware);
  json_object_set_int_member (device, "capacity_bytes", (gint64) h->capacity_bytes);
  set_figure (device, "device", "rotation_rate", DS_HEALTH_ROTATION, h->rotation_rate, flagged);
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
    json_object_set_object_member (o, "nvme", nvme_to_json (&h->nvme, flagged));
  if (h->has_scsi)
    {
      JsonObject *s = json_object_new ();

      set_figure (s, "scsi", "grown_defects", DS_HEALTH_COUNT, h->scsi.grown_defects, flagged);
      set_figure (s, "scsi", "trip_temperature_c", DS_HEALTH_TEMPERATURE, h->scsi.trip_temperature_c,
                  flagged);
      set_figure (s, "scsi", "read_uncorrected", DS_HEALTH_COUNT, h->scsi.read_uncorrected, flagged);
      set_figure (s, "scsi", "write_uncorrected", DS_HEALTH_COUNT, h->scsi.write_uncorrected, flagged);
      json_object_set_object_member (o, "scsi", s);
    }
  /* Every figure written as null because it was not plausible. */
  json_object_set_array_member (o, "not_plausible", flagged);
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

static gboolean
health_validate (const DsBenchSpec  *spec,
                 GError            **error)
{
  if (!spec->write)
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the health check only reads: it has no write mode"));
  return FALSE;
}

/* SMART through smartctl: nothing to set. */
static void
health_settings (const DsBenchSpec *spec,
                 const DsResult    *result,
                 GPtrArray         *parts)
{
  (void) spec;
  (void) result;
  (void) parts;
}

static char *
health_describe (const DsResult *result)
{
  (void) result;
  return g_strdup ("SMART");
}

/* What wears out and warns first: a device's history follows it. */
static const char *const health_headline_keys[] = {
  "ata.5.raw", "nvme.media_errors", "scsi.grown_defects", NULL,
};

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
  .report = ds_health_report,
  .writes = DS_BENCH_WRITES_NEVER,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY | DS_BENCH_SPEC_NEEDS_DEVICE | DS_BENCH_SPEC_NO_RATES,
  .validate = health_validate,
  .settings = health_settings,
  .describe = health_describe,
  .compare_rows = ds_health_compare_rows,
  .headline_keys = health_headline_keys,
  .compare_identity = ds_health_compare_identity,
  .fio_job = ds_health_fio_job,
  .from_foreign = health_from_foreign,
};
