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
#include <inttypes.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health-private.h"

static void
attribute_clear (gpointer p)
{
  DsHealthAttribute *a = p;

  g_free (a->name);
  g_free (a->raw_string);
  g_free (a->when_failed);
  g_free (a->not_plausible);
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
  g_free (h->device_type);
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
  g_clear_pointer (&h->unreadable, g_ptr_array_unref);
  g_clear_pointer (&h->raw, json_node_unref);
  g_free (h);
}

/* ---- what is there but cannot be read --------------------------------- */

static void
unreadable (DsHealth   *h,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
unreadable (DsHealth   *h,
            const char *format,
            ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (h->unreadable, g_strdup_vprintf (format, args));
  va_end (args);
}

/* @o's member @name as an object: NULL when it is absent, and when it is
 * there but no object (then said, as @what). */
static JsonObject *
section (DsHealth   *h,
         JsonObject *o,
         const char *name,
         const char *what)
{
  JsonNode *n = member (o, name);

  if (n == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      unreadable (h, _("%s is not an object, as smartctl writes it: it cannot be read"), what);
      return NULL;
    }
  return json_node_get_object (n);
}

/* A true/false member: FALSE when absent, and when it is something else
 * (then said). */
static gboolean
flag (DsHealth   *h,
      JsonObject *o,
      const char *section_name,
      const char *name,
      gboolean   *ret)
{
  JsonNode *n = member (o, name);

  if (n == NULL)
    return FALSE;
  if (!boolean (o, name, ret))
    {
      unreadable (h, _("“%s.%s” is not true or false"), section_name, name);
      return FALSE;
    }
  return TRUE;
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
  h->device_type = g_strdup (str (device, "type"));
  /* smartctl's USB bridge types: usbjmicron, usbcypress, ... and sntjmicron,
   * sntasmedia, ... for NVMe behind USB; "/dev/sdb [USB JMicron]". */
  h->behind_usb = (h->device_type != NULL && (g_str_has_prefix (h->device_type, "usb") ||
                                              g_str_has_prefix (h->device_type, "snt"))) ||
                  (str (device, "info_name") != NULL && strstr (str (device, "info_name"), "USB"));
  if (model == NULL)
    model = str (root, "scsi_model_name");
  h->model = g_strdup (model);
  h->serial = g_strdup (str (root, "serial_number"));
  h->firmware = g_strdup (str (root, "firmware_version"));
  if (h->firmware == NULL)
    h->firmware = g_strdup (str (root, "scsi_revision"));
  {
    int64_t bytes = num (obj (root, "user_capacity"), "bytes");
    int64_t blocks = num (obj (root, "user_capacity"), "blocks");
    int64_t lbs = num (root, "logical_block_size");

    if (bytes == DS_HEALTH_UNKNOWN)
      bytes = num (root, "nvme_total_capacity");
    h->capacity_bytes = bytes > 0 ? (uint64_t) bytes : 0;
    /* What the counters of sectors are held to (ds-health-range.c). */
    h->sectors = blocks > 0 ? (uint64_t) blocks :
                 h->capacity_bytes / (lbs >= 512 && lbs <= (1 << 20) ? (uint64_t) lbs : 512);
  }
  h->rotation_rate = num (root, "rotation_rate");
  if (version != NULL && json_array_get_length (version) >= 2)
    {
      int64_t major = node_num (json_array_get_element (version, 0));
      int64_t minor = node_num (json_array_get_element (version, 1));

      if (major >= 0 && major < 1000 && minor >= 0 && minor < 1000)
        h->smartctl_version = g_strdup_printf ("%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT,
                                               major, minor);
    }
}

static void
parse_common (DsHealth   *h,
              JsonObject *root)
{
  JsonObject *support = section (h, root, "smart_support", "smart_support");
  JsonObject *status = section (h, root, "smart_status", _("the SMART self-assessment"));
  JsonArray *messages = arr (obj (root, "smartctl"), "messages");

  /* Absent smart_support (some NVMe outputs): SMART is the health log. */
  h->smart_available = TRUE;
  h->smart_enabled = TRUE;
  flag (h, support, "smart_support", "available", &h->smart_available);
  flag (h, support, "smart_support", "enabled", &h->smart_enabled);
  h->has_overall = flag (h, status, "smart_status", "passed", &h->overall_passed);

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
      if (s != NULL && strstr (s, "USB") != NULL)
        h->behind_usb = TRUE;
    }
}

/* A normalized value (value, worst, thresh): a byte, or -1 when absent
 * (smartctl leaves them out where the drive has none). */
static int
normalized (DsHealthAttribute *attr,
            JsonObject        *a,
            const char        *name)
{
  int64_t v = num (a, name);

  if (v == DS_HEALTH_UNKNOWN)
    return -1;
  if (v >= 0 && v <= 255)
    return (int) v;
  if (attr->not_plausible == NULL)
    attr->not_plausible = v == DS_HEALTH_INVALID ?
      g_strdup_printf (_("its “%s” is not a number"), name) :
      g_strdup_printf (_("its “%s” of %" PRId64 " is not a normalized value (0 to 255)"),
                       name, v);
  return -1;
}

/* One entry of the attribute table, or FALSE when it cannot be one. */
static gboolean
parse_attribute (DsHealth          *h,
                 JsonNode          *n,
                 DsHealthAttribute *attr)
{
  JsonObject *a, *raw;
  const char *when;
  int64_t id;

  if (!JSON_NODE_HOLDS_OBJECT (n))
    return FALSE;
  a = json_node_get_object (n);
  id = num (a, "id");
  if (id < 1 || id > 255)
    return FALSE;
  attr->id = (unsigned) id;
  attr->name = g_strdup (str (a, "name") ? str (a, "name") : "Unknown_Attribute");
  attr->value = normalized (attr, a, "value");
  attr->worst = normalized (attr, a, "worst");
  attr->threshold = normalized (attr, a, "thresh");
  raw = obj (a, "raw");
  attr->raw = num (raw, "value");
  attr->raw_string = g_strdup (str (raw, "string"));
  when = str (a, "when_failed");
  attr->when_failed = g_strdup (when ? when : "");
  if (member (a, "when_failed") != NULL && (when == NULL ||
      (when[0] != '\0' && strcmp (when, "past") != 0 && strcmp (when, "now") != 0)) &&
      attr->not_plausible == NULL)
    attr->not_plausible = g_strdup (_("its “when_failed” is none of “”, “past” "
                                      "and “now”"));
  boolean (obj (a, "flags"), "prefailure", &attr->prefailure);
  ds_health_decode_attribute (attr, h->sectors);
  return TRUE;
}

static void
parse_ata (DsHealth   *h,
           JsonObject *root)
{
  JsonObject *attributes = section (h, root, "ata_smart_attributes", _("the attribute table"));
  JsonNode *table_node = member (attributes, "table");
  JsonArray *table = arr (attributes, "table");
  guint bad = 0;

  if (table_node != NULL && table == NULL)
    unreadable (h, _("the attribute table is not a list, as smartctl writes it: it cannot be read"));
  for (guint i = 0; table != NULL && i < json_array_get_length (table); i++)
    {
      DsHealthAttribute attr = { 0 };

      if (parse_attribute (h, json_array_get_element (table, i), &attr))
        g_array_append_val (h->attributes, attr);
      else
        {
          attribute_clear (&attr);
          bad++;
        }
    }
  if (bad > 0)
    unreadable (h, g_dngettext (GETTEXT_PACKAGE, "%u entry of the attribute table has no "
                                "attribute id (1 to 255): it cannot be read",
                                "%u entries of the attribute table have no attribute id "
                                "(1 to 255): they cannot be read", bad), bad);

  /* smartctl's power_on_time comes from attribute 9; a file without it
   * may still have the attribute (its count, decoded). */
  if (h->power_on_hours == DS_HEALTH_UNKNOWN)
    for (guint i = 0; i < h->attributes->len; i++)
      if (g_array_index (h->attributes, DsHealthAttribute, i).id == 9)
        h->power_on_hours = g_array_index (h->attributes, DsHealthAttribute, i).count;
}

static void
parse_nvme (DsHealth   *h,
            JsonObject *root)
{
  JsonObject *log = section (h, root, "nvme_smart_health_information_log",
                             _("the NVMe health log"));
  JsonArray *sensors;
  DsHealthNvme *n = &h->nvme;
  int64_t cw;

  if (log == NULL)
    return;
  h->has_nvme = TRUE;
  cw = num (log, "critical_warning");
  /* A byte (NVMe base specification, SMART / Health Information log). */
  n->critical_warning_known = cw >= 0 && cw <= 255;
  n->critical_warning = n->critical_warning_known ? (unsigned) cw : 0;
  if (!n->critical_warning_known)
    unreadable (h, cw == DS_HEALTH_UNKNOWN ?
                _("the NVMe health log has no critical-warning byte") :
                _("the NVMe health log's critical warning is not a byte (0 to 255)"));
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
  JsonObject *errors = section (h, root, "scsi_error_counter_log", _("the SCSI error counter log"));

  if (member (root, "scsi_grown_defect_list") == NULL && errors == NULL &&
      g_strcmp0 (h->protocol, "SCSI") != 0)
    return;
  h->has_scsi = TRUE;
  h->scsi.grown_defects = num (root, "scsi_grown_defect_list");
  h->scsi.trip_temperature_c = num (obj (root, "temperature"), "drive_trip");
  h->scsi.read_uncorrected = num (obj (errors, "read"), "total_uncorrected_errors");
  h->scsi.write_uncorrected = num (obj (errors, "write"), "total_uncorrected_errors");
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
  h->unreadable = g_ptr_array_new_with_free_func (g_free);
  h->self_test_remaining_percent = DS_HEALTH_UNKNOWN;
  h->short_test_minutes = DS_HEALTH_UNKNOWN;
  h->long_test_minutes = DS_HEALTH_UNKNOWN;
  h->raw = json_node_copy (root);

  if (exit_status < 0)
    {
      int64_t s = num (smartctl, "exit_status");

      exit_status = s >= 0 && s <= 255 ? (int) s : 0;
      /* Bits 2-7 say what went wrong: without them nothing says it did not. */
      if (s != DS_HEALTH_UNKNOWN && exit_status != s)
        unreadable (h, _("smartctl's exit status is not a byte (0 to 255)"));
    }
  h->exit_status = exit_status;

  parse_identity (h, o);
  parse_common (h, o);
  if (!_ds_health_check_readable (h, error))
    return NULL;
  parse_ata (h, o);
  parse_nvme (h, o);
  parse_scsi (h, o);
  _ds_health_parse_self_tests (h, o);
  ds_health_judge (h);

  return g_steal_pointer (&h);
}
