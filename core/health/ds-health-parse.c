/* ds-health-parse.c: smartctl's JSON (smartmontools 7.x) into DsHealth
 *
 * Lenient about what a drive leaves out (every figure may be missing:
 * DS_HEALTH_UNKNOWN), strict about what is not smartctl's output at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health.h"

static void
attribute_clear (gpointer p)
{
  DsHealthAttribute *a = p;

  g_free (a->name);
  g_free (a->raw_string);
  g_free (a->when_failed);
}

static void
self_test_free (gpointer p)
{
  DsHealthSelfTest *t = p;

  g_free (t->type);
  g_free (t->status);
  g_free (t);
}

void
ds_health_free (DsHealth *h)
{
  if (h == NULL)
    return;

  g_free (h->device);
  g_free (h->protocol);
  g_free (h->model);
  g_free (h->serial);
  g_free (h->firmware);
  g_free (h->smartctl_version);
  g_free (h->self_test_status);
  g_clear_pointer (&h->messages, g_ptr_array_unref);
  g_clear_pointer (&h->attributes, g_array_unref);
  g_clear_pointer (&h->self_tests, g_ptr_array_unref);
  g_clear_pointer (&h->reasons, g_ptr_array_unref);
  g_clear_pointer (&h->notes, g_ptr_array_unref);
  g_clear_pointer (&h->raw, json_node_unref);
  g_free (h);
}

/* ---- lenient getters ---------------------------------------------------- */

static JsonNode *
member (JsonObject *o,
        const char *name)
{
  return o != NULL ? json_object_get_member (o, name) : NULL;
}

static JsonObject *
obj (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static JsonArray *
arr (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  return n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static int64_t
node_num (JsonNode *n)
{
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return DS_HEALTH_UNKNOWN;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      return json_node_get_int (n);
    case G_TYPE_DOUBLE:
      {
        /* 1e400 is inf to json-glib; past int64 the cast is undefined
         * (found by fuzz-smartctl): neither is a count smartctl gives. */
        double d = json_node_get_double (n);

        return isfinite (d) && d > -9.2e18 && d < 9.2e18 ? (int64_t) d : DS_HEALTH_UNKNOWN;
      }
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (n);
    default:
      return DS_HEALTH_UNKNOWN;
    }
}

static int64_t
num (JsonObject *o,
     const char *name)
{
  return node_num (member (o, name));
}

static const char *
str (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static gboolean
boolean (JsonObject *o,
         const char *name,
         gboolean   *ret)
{
  JsonNode *n = member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return FALSE;
  *ret = json_node_get_boolean (n);
  return TRUE;
}

/* {"value": N, "string": "..."}: the string. */
static const char *
value_string (JsonObject *o,
              const char *name)
{
  return str (obj (o, name), "string");
}

/* ---- sections ----------------------------------------------------------- */

static void
parse_identity (DsHealth   *h,
                JsonObject *root)
{
  JsonObject *device = obj (root, "device");
  JsonArray *version = arr (obj (root, "smartctl"), "version");
  const char *model = str (root, "model_name");

  h->device = g_strdup (str (device, "name"));
  if (h->device == NULL)
    {
      /* smartctl leaves "device" out when it cannot open it: the last
       * argument it was given names it. */
      JsonArray *argv = arr (obj (root, "smartctl"), "argv");
      guint n = argv != NULL ? json_array_get_length (argv) : 0;
      JsonNode *last = n > 1 ? json_array_get_element (argv, n - 1) : NULL;

      if (last != NULL && JSON_NODE_HOLDS_VALUE (last) &&
          json_node_get_value_type (last) == G_TYPE_STRING &&
          json_node_get_string (last)[0] != '-')
        h->device = g_strdup (json_node_get_string (last));
    }
  h->protocol = g_strdup (str (device, "protocol"));
  if (model == NULL)
    model = str (root, "scsi_model_name");
  h->model = g_strdup (model);
  h->serial = g_strdup (str (root, "serial_number"));
  h->firmware = g_strdup (str (root, "firmware_version"));
  if (h->firmware == NULL)
    h->firmware = g_strdup (str (root, "scsi_revision"));
  {
    int64_t bytes = num (obj (root, "user_capacity"), "bytes");
    if (bytes == DS_HEALTH_UNKNOWN)
      bytes = num (root, "nvme_total_capacity");
    h->capacity_bytes = bytes > 0 ? (uint64_t) bytes : 0;
  }
  h->rotation_rate = num (root, "rotation_rate");
  if (version != NULL && json_array_get_length (version) >= 2)
    h->smartctl_version = g_strdup_printf ("%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT,
                                           node_num (json_array_get_element (version, 0)),
                                           node_num (json_array_get_element (version, 1)));
}

static void
parse_common (DsHealth   *h,
              JsonObject *root)
{
  JsonObject *support = obj (root, "smart_support");
  JsonObject *status = obj (root, "smart_status");
  JsonArray *messages = arr (obj (root, "smartctl"), "messages");

  /* Absent smart_support (some NVMe outputs): SMART is the health log. */
  h->smart_available = TRUE;
  h->smart_enabled = TRUE;
  boolean (support, "available", &h->smart_available);
  boolean (support, "enabled", &h->smart_enabled);
  h->has_overall = boolean (status, "passed", &h->overall_passed);

  h->temperature_c = num (obj (root, "temperature"), "current");
  h->power_on_hours = num (obj (root, "power_on_time"), "hours");
  h->power_cycles = num (root, "power_cycle_count");
  h->error_log_count = num (obj (obj (root, "ata_smart_error_log"), "summary"), "count");
  if (h->error_log_count == DS_HEALTH_UNKNOWN)
    h->error_log_count = num (obj (obj (root, "ata_smart_error_log"), "extended"), "count");

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *n = json_array_get_element (messages, i);
      const char *s = JSON_NODE_HOLDS_OBJECT (n) ? str (json_node_get_object (n), "string") : NULL;

      if (s != NULL)
        g_ptr_array_add (h->messages, g_strdup (s));
    }
}

static void
parse_ata (DsHealth   *h,
           JsonObject *root)
{
  JsonArray *table = arr (obj (root, "ata_smart_attributes"), "table");

  for (guint i = 0; table != NULL && i < json_array_get_length (table); i++)
    {
      JsonNode *n = json_array_get_element (table, i);
      JsonObject *a;
      DsHealthAttribute attr = { 0 };
      JsonObject *raw;
      int64_t id;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      a = json_node_get_object (n);
      id = num (a, "id");
      if (id < 1 || id > 255)
        continue;
      raw = obj (a, "raw");
      attr.id = (unsigned) id;
      attr.name = g_strdup (str (a, "name") ? str (a, "name") : "Unknown_Attribute");
      attr.value = (int) CLAMP (num (a, "value"), -1, 255);
      attr.worst = (int) CLAMP (num (a, "worst"), -1, 255);
      attr.threshold = (int) CLAMP (num (a, "thresh"), -1, 255);
      attr.raw = num (raw, "value");
      attr.raw_string = g_strdup (str (raw, "string"));
      attr.when_failed = g_strdup (str (a, "when_failed") ? str (a, "when_failed") : "");
      boolean (obj (a, "flags"), "prefailure", &attr.prefailure);
      g_array_append_val (h->attributes, attr);
    }

  if (h->power_on_hours == DS_HEALTH_UNKNOWN)
    for (guint i = 0; i < h->attributes->len; i++)
      if (g_array_index (h->attributes, DsHealthAttribute, i).id == 9)
        h->power_on_hours = g_array_index (h->attributes, DsHealthAttribute, i).raw;
}

static void
parse_nvme (DsHealth   *h,
            JsonObject *root)
{
  JsonObject *log = obj (root, "nvme_smart_health_information_log");
  JsonArray *sensors;
  DsHealthNvme *n = &h->nvme;
  int64_t cw;

  if (log == NULL)
    return;
  h->has_nvme = TRUE;
  cw = num (log, "critical_warning");
  n->critical_warning = cw > 0 ? (unsigned) (cw & 0xff) : 0;
  n->media_errors = num (log, "media_errors");
  n->percentage_used = num (log, "percentage_used");
  n->available_spare = num (log, "available_spare");
  n->available_spare_threshold = num (log, "available_spare_threshold");
  n->temperature_c = num (log, "temperature");
  n->power_on_hours = num (log, "power_on_hours");
  n->power_cycles = num (log, "power_cycles");
  n->unsafe_shutdowns = num (log, "unsafe_shutdowns");
  n->data_units_read = num (log, "data_units_read");
  n->data_units_written = num (log, "data_units_written");
  n->error_log_entries = num (log, "num_err_log_entries");
  sensors = arr (log, "temperature_sensors");
  for (guint i = 0; sensors != NULL && i < json_array_get_length (sensors) &&
                    n->n_sensors < G_N_ELEMENTS (n->sensors_c); i++)
    n->sensors_c[n->n_sensors++] = node_num (json_array_get_element (sensors, i));

  if (h->temperature_c == DS_HEALTH_UNKNOWN)
    h->temperature_c = n->temperature_c;
  if (h->power_on_hours == DS_HEALTH_UNKNOWN)
    h->power_on_hours = n->power_on_hours;
  if (h->power_cycles == DS_HEALTH_UNKNOWN)
    h->power_cycles = n->power_cycles;
}

static void
parse_scsi (DsHealth   *h,
            JsonObject *root)
{
  JsonObject *errors = obj (root, "scsi_error_counter_log");

  if (member (root, "scsi_grown_defect_list") == NULL && errors == NULL &&
      g_strcmp0 (h->protocol, "SCSI") != 0)
    return;
  h->has_scsi = TRUE;
  h->scsi.grown_defects = num (root, "scsi_grown_defect_list");
  h->scsi.trip_temperature_c = num (obj (root, "temperature"), "drive_trip");
  h->scsi.read_uncorrected = num (obj (errors, "read"), "total_uncorrected_errors");
  h->scsi.write_uncorrected = num (obj (errors, "write"), "total_uncorrected_errors");
}

static void
add_self_test (DsHealth   *h,
               const char *type,
               const char *status,
               gboolean    passed,
               int64_t     hours,
               int64_t     lba)
{
  DsHealthSelfTest *t = g_new0 (DsHealthSelfTest, 1);

  t->type = g_strdup (type ? type : "?");
  t->status = g_strdup (status ? status : "?");
  t->passed = passed;
  t->hours = hours;
  t->lba = lba;
  g_ptr_array_add (h->self_tests, t);
}

static void
parse_self_tests (DsHealth   *h,
                  JsonObject *root)
{
  JsonObject *ata = obj (obj (root, "ata_smart_data"), "self_test");
  JsonObject *ata_log = obj (root, "ata_smart_self_test_log");
  JsonObject *nvme_log = obj (root, "nvme_self_test_log");
  JsonArray *table;

  if (ata != NULL)
    {
      JsonObject *status = obj (ata, "status");
      JsonObject *polling = obj (ata, "polling_minutes");
      int64_t value = num (status, "value");

      h->self_test_status = g_strdup (str (status, "string"));
      h->self_test_remaining_percent = num (status, "remaining_percent");
      /* Status byte 0xF_: in progress, the low nibble tens of % left. */
      h->self_test_running = (value != DS_HEALTH_UNKNOWN && (value >> 4) == 0xf) ||
                             h->self_test_remaining_percent != DS_HEALTH_UNKNOWN;
      if (h->self_test_running && h->self_test_remaining_percent == DS_HEALTH_UNKNOWN)
        h->self_test_remaining_percent = (value & 0xf) * 10;
      h->short_test_minutes = num (polling, "short");
      h->long_test_minutes = num (polling, "extended");
    }

  /* --xall reads the extended (GPL) log where the drive has one. */
  table = arr (obj (ata_log, "extended"), "table");
  if (table == NULL)
    table = arr (obj (ata_log, "standard"), "table");
  for (guint i = 0; table != NULL && i < json_array_get_length (table); i++)
    {
      JsonNode *n = json_array_get_element (table, i);
      JsonObject *e, *status;
      gboolean passed = TRUE;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      e = json_node_get_object (n);
      status = obj (e, "status");
      boolean (status, "passed", &passed);
      add_self_test (h, value_string (e, "type"), str (status, "string"), passed,
                     num (e, "lifetime_hours"), num (e, "lba"));
    }

  if (nvme_log != NULL)
    {
      JsonObject *op = obj (nvme_log, "current_self_test_operation");
      int64_t done = num (nvme_log, "current_self_test_completion_percent");

      if (num (op, "value") > 0)
        {
          h->self_test_running = TRUE;
          h->self_test_remaining_percent = done != DS_HEALTH_UNKNOWN ? 100 - done : DS_HEALTH_UNKNOWN;
        }
      g_free (h->self_test_status);
      h->self_test_status = g_strdup (str (op, "string"));
      table = arr (nvme_log, "table");
      for (guint i = 0; table != NULL && i < json_array_get_length (table); i++)
        {
          JsonNode *n = json_array_get_element (table, i);
          JsonObject *e;
          int64_t result;

          if (!JSON_NODE_HOLDS_OBJECT (n))
            continue;
          e = json_node_get_object (n);
          result = num (obj (e, "self_test_result"), "value");
          if (result == 15)   /* an unused entry */
            continue;
          add_self_test (h, value_string (e, "self_test_code"),
                         value_string (e, "self_test_result"), result == 0,
                         num (e, "power_on_hours"), num (e, "lba"));
        }
    }

  /* SCSI: scsi_self_test_0 .. _19, newest first. */
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("scsi_self_test_%u", i);
      JsonObject *e = obj (root, name);

      if (e == NULL)
        break;
      add_self_test (h, value_string (e, "code"), value_string (e, "result"),
                     num (obj (e, "result"), "value") == 0,
                     num (obj (e, "power_on_time"), "hours"), num (e, "lba_first_failure"));
    }
  {
    gboolean running = FALSE;
    if (boolean (root, "self_test_in_progress", &running) && running)
      h->self_test_running = TRUE;
  }
}

/* ---- errors smartctl reported ------------------------------------------ */

static gboolean
any_message_contains (DsHealth   *h,
                      const char *needle)
{
  for (guint i = 0; i < h->messages->len; i++)
    if (strstr (h->messages->pdata[i], needle) != NULL)
      return TRUE;

  return FALSE;
}

/* FALSE with @error when smartctl could not read the device at all. */
static gboolean
check_readable (DsHealth  *h,
                GError   **error)
{
  g_autofree char *said = g_strdup ("no message");
  const char *dev = h->device ? h->device : "the device";

  if (h->messages->len > 0)
    {
      g_free (said);
      g_ptr_array_add (h->messages, NULL);
      said = g_strjoinv ("; ", (char **) h->messages->pdata);
      g_ptr_array_remove_index (h->messages, h->messages->len - 1);
    }

  /* smartctl's messages say more than its bits (an undetectable device
   * type sets bit 0, as if the command line were wrong). */
  if (any_message_contains (h, "Permission denied") ||
      any_message_contains (h, "Operation not permitted"))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                   _("smartctl could not open %s: %s. Reading SMART needs root "
                   "(sudo diskscope-cli health ...)"), dev, said);
      return FALSE;
    }
  if (any_message_contains (h, "Unable to detect device type"))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s has no SMART that smartctl can read (%s): loop, zram, "
                   "virtual and RAID-volume devices have none; a disk behind a USB "
                   "bridge or a RAID controller may need smartctl's -d option"),
                   dev, said);
      return FALSE;
    }
  if ((h->exit_status & 0x3) && (any_message_contains (h, "No such device") ||
                                 any_message_contains (h, "No such file")))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("%s: no such device (%s)"), dev, said);
      return FALSE;
    }
  if (h->exit_status & 0x1)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("smartctl did not accept its command line (exit status %d)%s%s"),
                   h->exit_status, ": ", said);
      return FALSE;
    }
  if (h->exit_status & 0x2)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("smartctl could not read %s (exit status %d: the device could not be "
                   "opened, did not identify itself, or is asleep)%s%s"),
                   dev, h->exit_status, ": ", said);
      return FALSE;
    }
  if (!h->smart_available)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s%s%s does not support SMART: there is no health data to read"),
                   dev, h->model ? " " : "", h->model ? h->model : "");
      return FALSE;
    }

  return TRUE;
}

/* ---- entry points ------------------------------------------------------- */

DsHealth *
ds_health_parse_node (JsonNode  *root,
                      int        exit_status,
                      GError   **error)
{
  g_autoptr (DsHealth) h = NULL;
  JsonObject *o;
  JsonObject *smartctl;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("not smartctl's JSON output (not an object)"));
      return NULL;
    }
  o = json_node_get_object (root);
  smartctl = obj (o, "smartctl");
  if (smartctl == NULL || arr (o, "json_format_version") == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not smartctl's JSON output (no “smartctl” or “json_format_version”)"));
      return NULL;
    }
  if (node_num (json_array_get_element (arr (o, "json_format_version"), 0)) != 1)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("smartctl's JSON is of a format this version does not know "
                   "(json_format_version is not 1)"));
      return NULL;
    }

  h = g_new0 (DsHealth, 1);
  h->messages = g_ptr_array_new_with_free_func (g_free);
  h->attributes = g_array_new (FALSE, TRUE, sizeof (DsHealthAttribute));
  g_array_set_clear_func (h->attributes, attribute_clear);
  h->self_tests = g_ptr_array_new_with_free_func (self_test_free);
  h->reasons = g_ptr_array_new_with_free_func (g_free);
  h->notes = g_ptr_array_new_with_free_func (g_free);
  h->self_test_remaining_percent = DS_HEALTH_UNKNOWN;
  h->short_test_minutes = DS_HEALTH_UNKNOWN;
  h->long_test_minutes = DS_HEALTH_UNKNOWN;
  h->raw = json_node_copy (root);

  if (exit_status < 0)
    {
      int64_t s = num (smartctl, "exit_status");
      exit_status = s >= 0 && s <= 255 ? (int) s : 0;
    }
  h->exit_status = exit_status;

  parse_identity (h, o);
  parse_common (h, o);
  if (!check_readable (h, error))
    return NULL;
  parse_ata (h, o);
  parse_nvme (h, o);
  parse_scsi (h, o);
  parse_self_tests (h, o);
  ds_health_judge (h);

  return g_steal_pointer (&h);
}
