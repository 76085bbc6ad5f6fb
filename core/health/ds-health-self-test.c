/* ds-health-self-test.c: the self-test a drive is running and its log,
 * from smartctl's JSON (ATA, NVMe and SCSI each write it their own way)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-health-private.h"

/* @v when it is in @lo .. @hi, else DS_HEALTH_UNKNOWN: for the progress
 * of a self-test and its duration, shown only when they make sense. */
static int64_t
within (int64_t v,
        int64_t lo,
        int64_t hi)
{
  return v != DS_HEALTH_INVALID && v >= lo && v <= hi ? v : DS_HEALTH_UNKNOWN;
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

void
_ds_health_parse_self_tests (DsHealth   *h,
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
      int64_t value = within (num (status, "value"), 0, 255);

      h->self_test_status = g_strdup (str (status, "string"));
      h->self_test_remaining_percent = within (num (status, "remaining_percent"), 0, 100);
      /* Status byte 0xF_: in progress, the low nibble tens of % left. */
      h->self_test_running = (value != DS_HEALTH_UNKNOWN && (value >> 4) == 0xf) ||
                             h->self_test_remaining_percent != DS_HEALTH_UNKNOWN;
      if (h->self_test_running && h->self_test_remaining_percent == DS_HEALTH_UNKNOWN &&
          value != DS_HEALTH_UNKNOWN)
        h->self_test_remaining_percent = MIN ((value & 0xf) * 10, 100);
      /* ATA's polling times: a byte, or a word for the extended test. */
      h->short_test_minutes = within (num (polling, "short"), 0, 0xffff);
      h->long_test_minutes = within (num (polling, "extended"), 0, 0xffff);
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
      int64_t done = within (num (nvme_log, "current_self_test_completion_percent"), 0, 100);

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

