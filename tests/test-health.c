/* test-health.c: the smartctl parser, the verdict and the smartctl runner
 * (no root, no drive: saved outputs and a stand-in smartctl)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/stat.h>

#include "ds-bench-health.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-smartctl.h"
#include "ds-test-util.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"

static char *
fixture_text (const char *name)
{
  g_autofree char *path = g_build_filename (FIXTURES, name, NULL);
  char *text = NULL;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  return text;
}

static DsHealth *
parse_fixture (const char *name)
{
  g_autofree char *text = fixture_text (name);
  g_autoptr (GError) error = NULL;
  DsHealth *h = ds_health_parse (text, -1, -1, &error);

  ck_assert_msg (h != NULL, "%s: %s", name, error ? error->message : "");
  return h;
}

static gboolean
has_reason (const DsHealth *h,
            const char     *text)
{
  for (guint i = 0; i < h->reasons->len; i++)
    if (strstr (h->reasons->pdata[i], text) != NULL)
      return TRUE;
  return FALSE;
}

/* Every fixture: its verdict, and what the README says it shows. */
static const struct {
  const char     *file;
  DsHealthVerdict verdict;
  const char     *protocol;
  const char     *reason;     /* a reason that must be there, or NULL */
  int64_t         temperature;
  int64_t         hours;
} expected[] = {
  { "WDC_WD20EFRX-68EUZN0_17.json", DS_HEALTH_GOOD, "ATA", NULL, 34, 47657 },
  { "HGST_HUS724020ALE640_28.json", DS_HEALTH_GOOD, "ATA", NULL, 26, 83425 },
  { "ST3500418AS_11.json", DS_HEALTH_WARNING, "ATA", "1 reallocated sector", 32, 44670 },
  { "ST3500418AS_12.json", DS_HEALTH_WARNING, "ATA", "304 reallocated sectors", 33, 44668 },
  { "SAMSUNG_MZ7WD240HAFV-00003_21.json", DS_HEALTH_GOOD, "ATA", NULL, 27, 84619 },
  { "SAMSUNG_MZVL21T0HCLR-00B00_23.json", DS_HEALTH_GOOD, "NVMe", NULL, 29, 10423 },
  { "nvme-null-CT250P2SSD8-nvme0.json", DS_HEALTH_GOOD, "NVMe", NULL, 26, 10147 },
  { "nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json", DS_HEALTH_FAILING, "NVMe",
    "NVMe critical warning: volatile memory backup failed", 40, 18376 },
  { "SEAGATE_ST373453LC_26.json", DS_HEALTH_WARNING, "SCSI", "260 grown defects", 33, 102880 },
};

START_TEST (test_every_fixture)
{
  g_autoptr (GDir) dir = g_dir_open (FIXTURES, 0, NULL);
  const char *name;
  guint seen = 0;

  ck_assert_ptr_nonnull (dir);
  /* Every file in the folder is in the table: a new fixture needs a row. */
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      gboolean listed = FALSE;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
        listed |= strcmp (expected[i].file, name) == 0;
      ck_assert_msg (listed, "%s has no expected verdict in test-health.c", name);
      seen++;
    }
  ck_assert_uint_eq (seen, G_N_ELEMENTS (expected));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (DsHealth) h = parse_fixture (expected[i].file);

      ck_assert_msg (h->verdict == expected[i].verdict, "%s: verdict %s, expected %s",
                     expected[i].file, ds_health_verdict_to_string (h->verdict),
                     ds_health_verdict_to_string (expected[i].verdict));
      ck_assert_str_eq (h->protocol, expected[i].protocol);
      ck_assert_ptr_nonnull (h->model);
      ck_assert_uint_gt (h->capacity_bytes, 0);
      ck_assert_int_eq (h->temperature_c, expected[i].temperature);
      ck_assert (h->power_on_hours > 0);
      ck_assert_int_eq (h->power_on_hours, expected[i].hours);
      if (expected[i].reason != NULL)
        ck_assert_msg (has_reason (h, expected[i].reason), "%s lacks “%s”",
                       expected[i].file, expected[i].reason);
      /* A verdict other than good always says why; good says nothing. */
      ck_assert_int_eq (h->reasons->len > 0, h->verdict != DS_HEALTH_GOOD);
      if (strcmp (expected[i].protocol, "ATA") == 0)
        ck_assert_uint_gt (h->attributes->len, 10);
      if (strcmp (expected[i].protocol, "NVMe") == 0)
        ck_assert (h->has_nvme);
    }
}
END_TEST

START_TEST (test_details)
{
  g_autoptr (DsHealth) seagate = parse_fixture ("ST3500418AS_12.json");
  g_autoptr (DsHealth) nvme = parse_fixture ("nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
  g_autoptr (DsHealth) scsi = parse_fixture ("SEAGATE_ST373453LC_26.json");
  g_autoptr (DsHealth) hgst = parse_fixture ("HGST_HUS724020ALE640_28.json");
  const DsHealthAttribute *realloc = NULL;

  for (guint i = 0; i < seagate->attributes->len; i++)
    if (g_array_index (seagate->attributes, DsHealthAttribute, i).id == 5)
      realloc = &g_array_index (seagate->attributes, DsHealthAttribute, i);
  ck_assert_ptr_nonnull (realloc);
  ck_assert_str_eq (realloc->name, "Reallocated_Sector_Ct");
  ck_assert_int_eq (realloc->value, 93);
  ck_assert_int_eq (realloc->worst, 93);
  ck_assert_int_eq (realloc->threshold, 36);
  ck_assert_int_eq (realloc->raw, 304);
  ck_assert_str_eq (realloc->when_failed, "");
  ck_assert (realloc->prefailure);
  ck_assert_int_eq (realloc->status, DS_HEALTH_WARNING);
  ck_assert_str_eq (seagate->reasons->pdata[0], "304 reallocated sectors");

  /* The failing NVMe: the overall check first, then the bit in words. */
  ck_assert_int_eq (nvme->exit_status, 8);
  ck_assert (nvme->has_overall && !nvme->overall_passed);
  ck_assert_uint_eq (nvme->nvme.critical_warning, 16);
  ck_assert_int_eq (nvme->nvme.available_spare, 100);
  ck_assert_int_eq (nvme->nvme.available_spare_threshold, 10);
  ck_assert_int_eq (nvme->nvme.percentage_used, 0);
  ck_assert_int_eq (nvme->nvme.media_errors, 0);
  ck_assert_int_eq (nvme->nvme.unsafe_shutdowns, 4);
  ck_assert_uint_eq (nvme->nvme.n_sensors, 3);
  ck_assert_int_eq (nvme->nvme.sensors_c[2], 35);
  ck_assert_uint_eq (nvme->reasons->len, 2);
  ck_assert_str_eq (nvme->reasons->pdata[0], "the drive's SMART overall-health self-assessment failed");
  ck_assert_str_eq (nvme->reasons->pdata[1], "NVMe critical warning: volatile memory backup failed");

  ck_assert (scsi->has_scsi);
  ck_assert_int_eq (scsi->scsi.grown_defects, 260);
  ck_assert_int_eq (scsi->scsi.trip_temperature_c, 68);
  ck_assert_int_eq (scsi->scsi.read_uncorrected, 1);
  ck_assert_int_eq (scsi->scsi.write_uncorrected, 535);

  /* Exit bit 6 is a note, not a warning. */
  ck_assert_int_eq (hgst->exit_status, 64);
  ck_assert_uint_eq (hgst->notes->len, 1);
  ck_assert_ptr_nonnull (strstr (hgst->notes->pdata[0], "12 records"));
}
END_TEST

START_TEST (test_bits_in_words)
{
  g_auto (GStrv) none = ds_health_exit_bits (0);
  g_auto (GStrv) some = ds_health_exit_bits (8 | 64);
  g_auto (GStrv) nvme = ds_health_nvme_warning_bits (0x1 | 0x8 | 0x10);

  ck_assert_uint_eq (g_strv_length (none), 0);
  ck_assert_uint_eq (g_strv_length (some), 2);
  ck_assert_str_eq (some[0], "the SMART status says DISK FAILING");
  ck_assert_str_eq (some[1], "the device error log contains records of errors");
  ck_assert_uint_eq (g_strv_length (nvme), 3);
  ck_assert_str_eq (nvme[0], "available spare space has fallen below the threshold");
  ck_assert_str_eq (nvme[1], "the media has been placed in read-only mode");
  ck_assert_str_eq (nvme[2], "volatile memory backup failed");
}
END_TEST

/* The rules that no fixture shows, on edited copies of real output. */
static JsonNode *
fixture_node (const char *name)
{
  g_autofree char *text = fixture_text (name);
  g_autoptr (JsonParser) parser = json_parser_new ();

  ck_assert (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
attribute (JsonNode *root,
           gint64    id)
{
  JsonArray *table = json_object_get_array_member (
    json_object_get_object_member (json_node_get_object (root), "ata_smart_attributes"), "table");

  for (guint i = 0; i < json_array_get_length (table); i++)
    if (json_object_get_int_member (json_array_get_object_element (table, i), "id") == id)
      return json_array_get_object_element (table, i);
  ck_abort_msg ("no attribute %" G_GINT64_FORMAT, id);
  return NULL;
}

START_TEST (test_rules)
{
  g_autoptr (GError) error = NULL;

  /* An attribute failing now: failing. */
  {
    g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
    g_autoptr (DsHealth) h = NULL;

    json_object_set_string_member (attribute (root, 5), "when_failed", "now");
    h = ds_health_parse_node (root, -1, &error);
    ck_assert_int_eq (h->verdict, DS_HEALTH_FAILING);
    ck_assert_ptr_nonnull (strstr (h->reasons->pdata[0], "Reallocated_Sector_Ct (attribute 5) is at or below its threshold now"));
  }
  /* Failed in the past, pending and uncorrectable sectors: warnings. */
  {
    g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
    g_autoptr (DsHealth) h = NULL;

    json_object_set_string_member (attribute (root, 3), "when_failed", "past");
    /* As smartctl writes them: the value and its rendering agree. */
    json_object_set_int_member (json_object_get_object_member (attribute (root, 197), "raw"), "value", 8);
    json_object_set_string_member (json_object_get_object_member (attribute (root, 197), "raw"), "string", "8");
    json_object_set_int_member (json_object_get_object_member (attribute (root, 198), "raw"), "value", 1);
    json_object_set_string_member (json_object_get_object_member (attribute (root, 198), "raw"), "string", "1");
    h = ds_health_parse_node (root, -1, &error);
    ck_assert_int_eq (h->verdict, DS_HEALTH_WARNING);
    ck_assert (has_reason (h, "was at or below its threshold in the past"));
    ck_assert (has_reason (h, "8 sectors pending reallocation"));
    ck_assert (has_reason (h, "1 offline-uncorrectable sector"));
  }
  /* NVMe: spare below threshold, endurance used up, media errors. */
  {
    g_autoptr (JsonNode) root = fixture_node ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
    JsonObject *log = json_object_get_object_member (json_node_get_object (root),
                                                     "nvme_smart_health_information_log");
    g_autoptr (DsHealth) h = NULL;

    json_object_set_int_member (log, "available_spare", 5);
    json_object_set_int_member (log, "percentage_used", 104);
    json_object_set_int_member (log, "media_errors", 3);
    h = ds_health_parse_node (root, -1, &error);
    ck_assert_int_eq (h->verdict, DS_HEALTH_WARNING);
    ck_assert (has_reason (h, "available spare 5 % is below the threshold of 10 %"));
    ck_assert (has_reason (h, "rated endurance is used up (percentage used 104 %)"));
    ck_assert (has_reason (h, "3 media and data integrity errors"));
  }
  /* A self-test running, and a failed last self-test. */
  {
    g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (DsHealth) running = NULL;
    g_autoptr (DsHealth) failed = NULL;

    ck_assert (json_parser_load_from_data (parser,
      "{\"self_test\": {\"status\": {\"value\": 249, \"string\": \"in progress, 90% remaining\","
      " \"remaining_percent\": 90}, \"polling_minutes\": {\"short\": 2, \"extended\": 280}}}", -1, NULL));
    json_object_set_member (json_node_get_object (root), "ata_smart_data",
                            json_node_copy (json_parser_get_root (parser)));
    running = ds_health_parse_node (root, -1, &error);
    ck_assert (running->self_test_running);
    ck_assert_int_eq (running->self_test_remaining_percent, 90);
    ck_assert_int_eq (running->short_test_minutes, 2);
    ck_assert_int_eq (running->long_test_minutes, 280);

    ck_assert (json_parser_load_from_data (parser,
      "{\"standard\": {\"table\": [{\"type\": {\"string\": \"Extended offline\"},"
      " \"status\": {\"string\": \"Completed: read failure\", \"passed\": false},"
      " \"lifetime_hours\": 1200, \"lba\": 123456}]}}", -1, NULL));
    json_object_set_member (json_node_get_object (root), "ata_smart_self_test_log",
                            json_node_copy (json_parser_get_root (parser)));
    json_object_remove_member (json_node_get_object (root), "ata_smart_data");
    failed = ds_health_parse_node (root, -1, &error);
    ck_assert_uint_eq (failed->self_tests->len, 1);
    ck_assert_int_eq (((DsHealthSelfTest *) failed->self_tests->pdata[0])->lba, 123456);
    ck_assert_int_eq (failed->verdict, DS_HEALTH_WARNING);
    ck_assert (has_reason (failed, "the last self-test (Extended offline) failed: Completed: read failure"));
  }
}
END_TEST

START_TEST (test_bad_output)
{
  static const char *const bad[] = {
    "", "smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n", "{\"a\": 1}",
    "[1, 2]", "{\"json_format_version\": [2, 0], \"smartctl\": {}}", "{\"smartctl\": {",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsHealth) h = ds_health_parse (bad[i], -1, -1, &error);

      ck_assert_ptr_null (h);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%u: %s", i,
                     error ? error->message : "no error");
    }

  /* smartctl's own "cannot": a loop device, a missing one, no permission. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = ds_health_parse (
      "{\"json_format_version\": [1, 0], \"smartctl\": {\"argv\": [\"smartctl\", \"--json\","
      " \"--xall\", \"/dev/loop0\"], \"messages\": [{\"string\": \"/dev/loop0: Unable to"
      " detect device type\", \"severity\": \"error\"}], \"exit_status\": 1}}", -1, -1, &error);

    ck_assert_ptr_null (h);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
    ck_assert_ptr_nonnull (strstr (error->message, "/dev/loop0 has no SMART"));
  }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = ds_health_parse (
      "{\"json_format_version\": [1, 0], \"smartctl\": {\"argv\": [\"smartctl\", \"/dev/sdb\"],"
      " \"messages\": [{\"string\": \"Smartctl open device: /dev/sdb failed: Permission denied\"}],"
      " \"exit_status\": 2}}", -1, -1, &error);

    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION));
    ck_assert_ptr_nonnull (strstr (error->message, "needs root"));
  }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = ds_health_parse (
      "{\"json_format_version\": [1, 0], \"smartctl\": {\"exit_status\": 4},"
      " \"device\": {\"name\": \"/dev/sdc\"}, \"smart_support\": {\"available\": false}}",
      -1, -1, &error);

    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
    ck_assert_ptr_nonnull (strstr (error->message, "does not support SMART"));
  }
}
END_TEST

START_TEST (test_result_round_trip)
{
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *path = g_build_filename (FIXTURES, expected[i].file, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) result = ds_health_result_from_file (path, &error);
      g_autoptr (DsResult) back = NULL;
      g_autofree char *json = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *results;
      const DsHealthData *data;

      ck_assert_msg (result != NULL, "%s", error ? error->message : "");
      ck_assert (result->complete);
      json = ds_result_to_data (result, NULL);

      /* The names scripts rely on. */
      ck_assert (json_parser_load_from_data (parser, json, -1, NULL));
      results = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                               "results");
      ck_assert_str_eq (json_object_get_string_member (results, "verdict"),
                        ds_health_verdict_to_string (expected[i].verdict));
      ck_assert (json_object_has_member (results, "reasons"));
      ck_assert_int_eq (json_object_get_int_member (results, "temperature_c"), expected[i].temperature);
      ck_assert (json_object_get_int_member (results, "power_on_hours") > 0);
      ck_assert_int_eq (json_object_has_member (results, "attributes"),
                        strcmp (expected[i].protocol, "ATA") == 0);
      ck_assert_int_eq (json_object_has_member (results, "nvme"),
                        strcmp (expected[i].protocol, "NVMe") == 0);

      back = ds_result_load_data (json, -1, &error);
      ck_assert_msg (back != NULL, "%s: %s", expected[i].file, error ? error->message : "");
      data = back->data;
      ck_assert_int_eq (data->health->verdict, expected[i].verdict);
      {
        g_autofree char *report = ds_report_text (back, DS_UNITS_MB);
        g_autofree char *upper = g_ascii_strup (ds_health_verdict_to_string (expected[i].verdict), -1);

        ck_assert_ptr_nonnull (strstr (report, upper));
      }
    }
}
END_TEST

/* ---- evidence and physical ranges (issue 21, class 9) ----------------- */

#define MADE FIXTURES "/made"

/* Hand-made outputs (tests/fixtures/smartctl/README.md), each a kind of
 * missing or wrong evidence: the verdict, and a reason that says why. */
static const struct {
  const char     *file;
  DsHealthVerdict verdict;
  const char     *reason;
} made[] = {
  { "bit2-nothing.json", DS_HEALTH_UNDETERMINED, "a SMART command failed: exit bit 2" },
  { "usb-bridge-hides-smart.json", DS_HEALTH_UNDETERMINED, "a USB bridge may hide" },
  { "scsi-no-health.json", DS_HEALTH_UNDETERMINED, "the SCSI device reports no health data" },
  { "nvme-log-wrong-type.json", DS_HEALTH_UNDETERMINED, "the NVMe health log is not an object" },
  { "flagged-ata.json", DS_HEALTH_UNDETERMINED,
    "Reallocated_Sector_Ct (attribute 5) cannot be judged: a count of 281474976710655 is "
    "more than the drive's 976773168 sectors" },
};

START_TEST (test_made_fixtures)
{
  g_autoptr (GDir) dir = g_dir_open (MADE, 0, NULL);
  const char *name;
  guint seen = 0;

  ck_assert_ptr_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    seen += g_str_has_suffix (name, ".json");
  /* The table, and unknown-usb-bridge.json (an error, below). */
  ck_assert_uint_eq (seen, G_N_ELEMENTS (made) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (made); i++)
    {
      g_autofree char *file = g_build_filename ("made", made[i].file, NULL);
      g_autoptr (DsHealth) h = parse_fixture (file);

      ck_assert_msg (h->verdict == made[i].verdict, "%s: verdict %s", made[i].file,
                     ds_health_verdict_to_string (h->verdict));
      ck_assert_msg (has_reason (h, made[i].reason), "%s lacks “%s”: %s", made[i].file,
                     made[i].reason, h->reasons->len ? (char *) h->reasons->pdata[0] : "no reason");
    }

  /* An unknown USB bridge sets exit bit 0: not the command line's fault. */
  {
    g_autofree char *text = fixture_text ("made/unknown-usb-bridge.json");
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = ds_health_parse (text, -1, -1, &error);

    ck_assert_ptr_null (h);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
    ck_assert_msg (strstr (error->message, "behind a USB bridge smartctl does not know") &&
                   strstr (error->message, "-d sat"), "%s", error->message);
  }

  /* The values out of range: flagged, never measured. */
  {
    g_autoptr (DsHealth) h = parse_fixture ("made/flagged-ata.json");
    g_autofree char *temp = ds_health_figure_text (DS_HEALTH_TEMPERATURE, h->temperature_c);
    g_autofree char *hours = ds_health_figure_text (DS_HEALTH_HOURS, h->power_on_hours);

    ck_assert_int_eq (h->temperature_c, -273);
    ck_assert_int_eq (h->power_on_hours, -5);
    ck_assert_str_eq (temp, "-273 °C (not plausible: drives work at -40 to 125 °C)");
    ck_assert_str_eq (hours, "-5 h (not plausible: a drive's age is 0 to 30 years)");
    ck_assert_uint_eq (h->reasons->len, 1);
    ck_assert_uint_eq (h->notes->len, 2);
    ck_assert_ptr_nonnull (strstr (h->notes->pdata[0], "-273 °C (not plausible"));
  }
}
END_TEST

static DsHealth *
judge_edited (JsonNode *root)
{
  g_autoptr (GError) error = NULL;
  DsHealth *h = ds_health_parse_node (root, -1, &error);

  ck_assert_msg (h != NULL, "%s", error ? error->message : "");
  return h;
}

static JsonNode *
value_node (const char *json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  ck_assert_msg (json_parser_load_from_data (parser, json, -1, NULL), "%s", json);
  return json_node_copy (json_parser_get_root (parser));
}

static const DsHealthAttribute *
find_attribute (const DsHealth *h,
                unsigned        id)
{
  for (guint i = 0; i < h->attributes->len; i++)
    if (g_array_index (h->attributes, DsHealthAttribute, i).id == id)
      return &g_array_index (h->attributes, DsHealthAttribute, i);
  ck_abort_msg ("no attribute %u", id);
  return NULL;
}

/* Attribute 5's raw value, as smartctl encodes it, and as it cannot be. */
START_TEST (test_raw_counts)
{
  static const struct {
    const char     *raw;            /* the attribute's "raw" member */
    DsHealthVerdict verdict;
    int64_t         count;
    const char     *reason;
  } cases[] = {
    /* raw48: the whole number. */
    { "{\"value\": 304, \"string\": \"304\"}", DS_HEALTH_WARNING, 304, "304 reallocated sectors" },
    /* raw16(raw16), attribute 5's default: the low word, other words after. */
    { "{\"value\": 8589934592000, \"string\": \"0 (2000 0)\"}", DS_HEALTH_GOOD, 0, NULL },
    { "{\"value\": 8589934592003, \"string\": \"3 (2000 0)\"}", DS_HEALTH_WARNING, 3,
      "3 reallocated sectors" },
    /* Packed with no count among the fields: all zero is 0. */
    { "{\"value\": 0, \"string\": \"0 0 0\"}", DS_HEALTH_GOOD, 0, NULL },
    { "{\"value\": 65537, \"string\": \"0 1 1\"}", DS_HEALTH_UNDETERMINED, DS_HEALTH_UNKNOWN,
      "packs fields of which none is the count" },
    /* The table shows 304, the value says otherwise. */
    { "{\"value\": -5, \"string\": \"304\"}", DS_HEALTH_UNDETERMINED, DS_HEALTH_UNKNOWN,
      "its raw value is not a number smartctl writes" },
    { "{\"value\": \"304\", \"string\": \"304\"}", DS_HEALTH_UNDETERMINED, DS_HEALTH_UNKNOWN,
      "its raw value is not a number smartctl writes" },
    { "{\"value\": 1e30, \"string\": \"304\"}", DS_HEALTH_UNDETERMINED, DS_HEALTH_UNKNOWN,
      "its raw value is not a number smartctl writes" },
    { "{\"value\": 18446744073709551615, \"string\": \"304\"}", DS_HEALTH_UNDETERMINED,
      DS_HEALTH_UNKNOWN, "its raw value is not a number smartctl writes" },
    { "{\"value\": 12345, \"string\": \"304\"}", DS_HEALTH_UNDETERMINED, DS_HEALTH_UNKNOWN,
      "smartctl's raw value 12345 and its rendering “304” disagree" },
    /* More sectors than the drive has (976773168). */
    { "{\"value\": 281474976710655, \"string\": \"281474976710655\"}", DS_HEALTH_UNDETERMINED,
      DS_HEALTH_UNKNOWN, "is more than the drive's 976773168 sectors" },
    { "{\"value\": 976773169, \"string\": \"976773169\"}", DS_HEALTH_UNDETERMINED,
      DS_HEALTH_UNKNOWN, "is more than the drive's 976773168 sectors" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) root = fixture_node ("ST3500418AS_11.json");
      g_autoptr (DsHealth) h = NULL;
      const DsHealthAttribute *a;

      json_object_set_member (attribute (root, 5), "raw", value_node (cases[i].raw));
      h = judge_edited (root);
      a = find_attribute (h, 5);
      ck_assert_msg (h->verdict == cases[i].verdict, "%s: %s", cases[i].raw,
                     ds_health_verdict_to_string (h->verdict));
      ck_assert_msg (a->count == cases[i].count, "%s: count %" G_GINT64_FORMAT, cases[i].raw, a->count);
      if (cases[i].reason != NULL)
        ck_assert_msg (has_reason (h, cases[i].reason), "%s: %s", cases[i].raw,
                       h->reasons->len ? (char *) h->reasons->pdata[0] : "no reason");
      else
        ck_assert_uint_eq (h->reasons->len, 0);
      ck_assert_int_eq (a->status, cases[i].verdict);
      ck_assert_int_eq (a->not_plausible != NULL, cases[i].count == DS_HEALTH_UNKNOWN);
    }

  /* A renamed 198 (drivedb: "Host_Reads_GiB") is not a count of bad
   * sectors; attribute 9 packed as raw24(raw8) gives the hours. */
  {
    g_autoptr (JsonNode) root = fixture_node ("ST3500418AS_11.json");
    g_autoptr (DsHealth) h = NULL;

    json_object_set_string_member (attribute (root, 198), "name", "Host_Reads_GiB");
    json_object_set_member (attribute (root, 198), "raw",
                            value_node ("{\"value\": 52000, \"string\": \"52000\"}"));
    json_object_set_member (attribute (root, 9), "raw",
                            value_node ("{\"value\": 1421634355580, \"string\": \"44668 (5 89 0)\"}"));
    json_object_remove_member (json_node_get_object (root), "power_on_time");
    h = judge_edited (root);
    ck_assert_int_eq (find_attribute (h, 198)->count, DS_HEALTH_UNKNOWN);
    ck_assert (!has_reason (h, "offline-uncorrectable"));
    ck_assert_int_eq (h->power_on_hours, 44668);
    ck_assert_int_eq (h->verdict, DS_HEALTH_WARNING);   /* its 1 reallocated sector */
  }
}
END_TEST

/* Each kind of missing or damaged evidence, on edited real outputs. */
START_TEST (test_no_evidence)
{
  /* Exit bit 2 with a passed self-assessment but no attributes: good, on
   * the drive's word, saying so; without the assessment: unknown. */
  {
    g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
    JsonObject *o = json_node_get_object (root);
    g_autoptr (DsHealth) vouched = NULL;
    g_autoptr (DsHealth) nothing = NULL;

    json_object_remove_member (o, "ata_smart_attributes");
    json_object_set_int_member (json_object_get_object_member (o, "smartctl"), "exit_status", 4);
    vouched = judge_edited (root);
    ck_assert_int_eq (vouched->verdict, DS_HEALTH_GOOD);
    ck_assert_ptr_nonnull (strstr (vouched->notes->pdata[0], "rests on the drive's own self-assessment"));
    json_object_remove_member (o, "smart_status");
    nothing = judge_edited (root);
    ck_assert_int_eq (nothing->verdict, DS_HEALTH_UNDETERMINED);
    ck_assert (has_reason (nothing, "exit bit 2"));
  }
  /* The NVMe log of the wrong type (an array, a number), or its critical
   * warning not a byte: unknown, even with the self-assessment passed. */
  {
    static const char *const logs[] = {
      "[1, 2]", "2", "null", "{\"critical_warning\": \"0\", \"available_spare\": 100}",
      "{\"critical_warning\": 256}", "{\"available_spare\": 100}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (logs); i++)
      {
        g_autoptr (JsonNode) root = fixture_node ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
        g_autoptr (DsHealth) h = NULL;

        json_object_set_member (json_node_get_object (root), "nvme_smart_health_information_log",
                                value_node (logs[i]));
        h = judge_edited (root);
        ck_assert_msg (h->verdict == DS_HEALTH_UNDETERMINED, "%s: %s", logs[i],
                       ds_health_verdict_to_string (h->verdict));
        ck_assert_msg (has_reason (h, "the NVMe health log"), "%s: %s", logs[i],
                       (char *) h->reasons->pdata[0]);
      }
  }
  /* Damaged sections and entries. */
  {
    static const struct {
      const char *member;
      const char *value;
      const char *reason;
    } damaged[] = {
      { "smart_status", "{\"passed\": \"yes\"}", "“smart_status.passed” is not true or false" },
      { "smart_status", "true", "the SMART self-assessment is not an object" },
      { "ata_smart_attributes", "{\"table\": {\"id\": 5}}", "the attribute table is not a list" },
      { "ata_smart_attributes", "{\"table\": [{\"id\": 5, \"value\": 100}, {\"name\": \"x\"}]}",
        "1 entry of the attribute table has no attribute id" },
      { "ata_smart_attributes", "{\"table\": [{\"id\": 9, \"value\": 300}]}",
        "its “value” of 300 is not a normalized value" },
      { "ata_smart_attributes", "{\"table\": [{\"id\": 9, \"value\": 100, \"when_failed\": \"soon\"}]}",
        "its “when_failed” is none of" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
      {
        g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
        g_autoptr (DsHealth) h = NULL;

        json_object_set_member (json_node_get_object (root), damaged[i].member,
                                value_node (damaged[i].value));
        h = judge_edited (root);
        ck_assert_msg (h->verdict == DS_HEALTH_UNDETERMINED, "%s: %s", damaged[i].value,
                       ds_health_verdict_to_string (h->verdict));
        ck_assert_msg (has_reason (h, damaged[i].reason), "%s: %s", damaged[i].value,
                       (char *) h->reasons->pdata[0]);
      }
  }
  /* A SCSI drive's counts out of range: unknown, not good. */
  {
    g_autoptr (JsonNode) root = fixture_node ("SEAGATE_ST373453LC_26.json");
    JsonObject *o = json_node_get_object (root);
    g_autoptr (DsHealth) h = NULL;

    json_object_set_int_member (o, "scsi_grown_defect_list", -1);
    json_object_remove_member (o, "scsi_error_counter_log");
    h = judge_edited (root);
    ck_assert_int_eq (h->verdict, DS_HEALTH_UNDETERMINED);
    ck_assert (has_reason (h, "the SCSI grown defects cannot be judged: -1 (not plausible"));
  }
  /* Exit bit 3 alone is failing, whatever else is missing. */
  {
    g_autoptr (DsHealth) h = NULL;
    g_autofree char *text = fixture_text ("made/bit2-nothing.json");
    char *bit = strstr (text, "\"exit_status\": 4");

    ck_assert_ptr_nonnull (bit);
    bit[strlen ("\"exit_status\": ")] = '8';
    h = ds_health_parse (text, -1, -1, NULL);
    ck_assert_int_eq (h->verdict, DS_HEALTH_FAILING);
    ck_assert_int_eq (h->exit_status, 8);
  }
}
END_TEST

/* Values out of their physical range never count as measured. */
START_TEST (test_out_of_range)
{
  /* An NVMe drive at -273 °C (0 K), 300 % used, -1 media errors. */
  {
    g_autoptr (JsonNode) root = fixture_node ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
    JsonObject *o = json_node_get_object (root);
    JsonObject *log = json_object_get_object_member (o, "nvme_smart_health_information_log");
    g_autoptr (DsHealth) cold = NULL;
    g_autoptr (DsHealth) used = NULL;

    json_object_set_int_member (log, "temperature", -273);
    json_object_set_int_member (json_object_get_object_member (o, "temperature"), "current", -273);
    cold = judge_edited (root);
    /* Shown flagged and noted; the health log still judges the drive. */
    ck_assert_int_eq (cold->verdict, DS_HEALTH_GOOD);
    ck_assert_ptr_nonnull (strstr (cold->notes->pdata[0], "-273 °C (not plausible"));

    json_object_set_int_member (log, "percentage_used", 300);
    json_object_set_int_member (log, "media_errors", -1);
    used = judge_edited (root);
    ck_assert_int_eq (used->verdict, DS_HEALTH_UNDETERMINED);
    ck_assert (has_reason (used, "the NVMe percentage used cannot be judged: 300 % (not plausible"));
    ck_assert (has_reason (used, "the NVMe media errors cannot be judged: -1 (not plausible"));
  }
  /* Hours below 0 or over 30 years, a temperature that is not a number,
   * an integer json-glib could not hold, our own markers. */
  {
    static const char *const hours[] = { "-5", "262981", "\"44668\"", "44668.5",
                                         "-9223372036854775808", "-9223372036854775807" };

    for (guint i = 0; i < G_N_ELEMENTS (hours); i++)
      {
        g_autoptr (JsonNode) root = fixture_node ("WDC_WD20EFRX-68EUZN0_17.json");
        g_autoptr (DsHealth) h = NULL;
        g_autofree char *text = NULL;

        json_object_set_member (json_object_get_object_member (json_node_get_object (root),
                                                               "power_on_time"),
                                "hours", value_node (hours[i]));
        h = judge_edited (root);
        ck_assert_msg (!ds_health_plausible (DS_HEALTH_HOURS, h->power_on_hours), "%s", hours[i]);
        ck_assert_int_ne (h->power_on_hours, DS_HEALTH_UNKNOWN);
        text = ds_health_figure_text (DS_HEALTH_HOURS, h->power_on_hours);
        ck_assert_msg (strstr (text, "not plausible") != NULL, "%s: %s", hours[i], text);
        ck_assert_msg (strstr (h->notes->pdata[0], "the power-on time") != NULL, "%s", hours[i]);
      }
  }
  /* The ranges themselves. */
  ck_assert (ds_health_plausible (DS_HEALTH_TEMPERATURE, -40));
  ck_assert (ds_health_plausible (DS_HEALTH_TEMPERATURE, 125));
  ck_assert (!ds_health_plausible (DS_HEALTH_TEMPERATURE, 126));
  ck_assert (!ds_health_plausible (DS_HEALTH_TEMPERATURE, DS_HEALTH_UNKNOWN));
  ck_assert (ds_health_plausible (DS_HEALTH_HOURS, 30 * 8766));
  ck_assert (!ds_health_plausible (DS_HEALTH_HOURS, 30 * 8766 + 1));
  ck_assert (ds_health_plausible (DS_HEALTH_PERCENT_USED, 255));
  ck_assert (!ds_health_plausible (DS_HEALTH_PERCENT_USED, 256));
  ck_assert (!ds_health_plausible (DS_HEALTH_PERCENT, 101));
  ck_assert (!ds_health_plausible (DS_HEALTH_COUNT, -1));
  ck_assert (!ds_health_plausible (DS_HEALTH_COUNT, DS_HEALTH_INVALID));
  ck_assert (!ds_health_plausible (DS_HEALTH_ROTATION, 500));
  ck_assert (ds_health_plausible (DS_HEALTH_ROTATION, 0));
  ck_assert_ptr_null (ds_health_figure_text (DS_HEALTH_COUNT, DS_HEALTH_UNKNOWN));
  {
    g_autofree char *ok = ds_health_figure_text (DS_HEALTH_HOURS, 44668);
    g_autofree char *bad = ds_health_figure_text (DS_HEALTH_COUNT, DS_HEALTH_INVALID);

    ck_assert_str_eq (ok, "44668 h (5.1 years)");
    ck_assert_str_eq (bad, "unreadable (not plausible: not a number: the output is damaged)");
  }
}
END_TEST

/* The CLI's text and JSON: the verdict unknown, the figures flagged, and
 * scripts never see an out-of-range figure as a number. */
START_TEST (test_cli_flagged)
{
  g_autofree char *file = g_build_filename (MADE, "flagged-ata.json", NULL);
  const char *text_argv[] = { ds_test_cli_path (), "health", "--from-json", file, NULL };
  const char *json_argv[] = { ds_test_cli_path (), "health", "--from-json", file, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *results;
  JsonArray *flagged;

  ck_assert_int_eq (ds_test_run (text_argv, &out, NULL), 0);
  ck_assert_msg (strstr (out, "Health                : UNKNOWN\n  - Reallocated_Sector_Ct") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Temperature           : -273 °C (not plausible: drives work at "
                         "-40 to 125 °C)") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "Power-on hours        : -5 h (not plausible") != NULL, "%s", out);
  ck_assert_msg (strstr (out, " unknown  281474976710655 (not plausible: a count of") != NULL, "%s", out);

  ck_assert_int_eq (ds_test_run (json_argv, &json, NULL), 0);
  ck_assert (json_parser_load_from_data (parser, json, -1, NULL));
  results = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "results");
  ck_assert_str_eq (json_object_get_string_member (results, "verdict"), "unknown");
  ck_assert (json_object_get_null_member (results, "temperature_c"));
  ck_assert (json_object_get_null_member (results, "power_on_hours"));
  flagged = json_object_get_array_member (results, "not_plausible");
  ck_assert_uint_eq (json_array_get_length (flagged), 2);
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (flagged, 0), "figure"),
                    "temperature_c");
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (flagged, 0), "reported"),
                    -273);
}
END_TEST

/* ---- a stand-in smartctl ---------------------------------------------- */

static char *
fake_smartctl (const char *script_body)
{
  /* In the suite's scratch folder, which ds_test_run_suite() removes. */
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "fake-smartctl-XXXXXX", NULL);
  char *path;

  ck_assert_ptr_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, "smartctl", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n%s\n", script_body);

  ck_assert (g_file_set_contents (path, script, -1, NULL));
  ck_assert_int_eq (chmod (path, 0755), 0);
  g_setenv ("DISKSCOPE_SMARTCTL", path, TRUE);
  return path;
}

START_TEST (test_runner)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *args_file = g_build_filename (ds_test_scratch_dir (), "fake-smartctl-args", NULL);
  g_autofree char *body = NULL;
  g_autofree char *fake = NULL;
  g_autofree char *recorded = NULL;
  g_autoptr (DsHealth) h = NULL;
  const char *sleep_args[] = { "--json", NULL };
  int status = 0;
  uint64_t t0;

  /* Not installed. */
  g_setenv ("DISKSCOPE_SMARTCTL", "/nonexistent/smartctl", TRUE);
  h = ds_smartctl_read_health ("/dev/sda", DS_NS_PER_SEC, NULL, &error);
  ck_assert_ptr_null (h);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_ptr_nonnull (strstr (error->message, "smartmontools"));
  g_clear_error (&error);

  /* argv, not a shell: a device name with spaces and quotes arrives whole. */
  body = g_strdup_printf ("for a in \"$@\"; do printf '%%s\\n' \"$a\"; done > %s\n"
                          "cat %s/ST3500418AS_12.json\nexit 0", args_file, FIXTURES);
  fake = fake_smartctl (body);
  h = ds_smartctl_read_health ("/dev/disk by'id\"; rm -rf x", DS_NS_PER_SEC * 10, NULL, &error);
  ck_assert_msg (h != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (h->verdict, DS_HEALTH_WARNING);
  ck_assert (g_file_get_contents (args_file, &recorded, NULL, NULL));
  ck_assert_str_eq (recorded, "--json\n--xall\n/dev/disk by'id\"; rm -rf x\n");
  g_clear_pointer (&h, ds_health_free);
  g_clear_pointer (&fake, g_free);

  /* Not JSON at all. */
  fake = fake_smartctl ("echo 'smartctl: unrecognized option --json'; exit 1");
  h = ds_smartctl_read_health ("/dev/sda", DS_NS_PER_SEC * 10, NULL, &error);
  ck_assert_ptr_null (h);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_ptr_nonnull (strstr (error->message, "did not print JSON"));
  g_clear_error (&error);
  g_clear_pointer (&fake, g_free);

  /* Hangs: killed at the timeout. */
  fake = fake_smartctl ("exec sleep 30");
  t0 = ds_clock_ns ();
  ck_assert (!ds_smartctl_run (sleep_args, 300 * DS_NS_PER_MSEC, NULL, &out, &status, &error));
  ck_assert (ds_clock_ns () - t0 < 5 * DS_NS_PER_SEC);
  ck_assert_ptr_nonnull (strstr (error->message, "did not finish within 0.3 s"));
  g_clear_error (&error);
  g_clear_pointer (&fake, g_free);

  /* A self-test the drive refuses: smartctl's message, in words. */
  fake = fake_smartctl ("echo '{\"json_format_version\": [1, 0], \"smartctl\": {\"exit_status\": 4,"
                        " \"messages\": [{\"string\": \"Self-test not supported\"}]},"
                        " \"device\": {\"name\": \"/dev/sda\"}}'; exit 4");
  ck_assert (!ds_smartctl_start_self_test ("/dev/sda", DS_SELF_TEST_SHORT, &error));
  ck_assert_ptr_nonnull (strstr (error->message, "could not start a short self-test on /dev/sda: Self-test not supported"));
  g_clear_error (&error);
  g_clear_pointer (&fake, g_free);

  g_unsetenv ("DISKSCOPE_SMARTCTL");
  unlink (args_file);
}
END_TEST

START_TEST (test_cli_health)
{
  g_autofree char *file = g_build_filename (FIXTURES, "ST3500418AS_12.json", NULL);
  const char *json_argv[] = { ds_test_cli_path (), "health", "--from-json", file, "--json", NULL };
  const char *text_argv[] = { ds_test_cli_path (), "health", "--from-json", file, NULL };
  const char *bad_argv[] = { ds_test_cli_path (), "health", "--from-json", "/etc/hostname", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *results;

  ck_assert_int_eq (ds_test_run (json_argv, &out, &err), 0);
  ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
  results = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "results");
  ck_assert_str_eq (json_object_get_string_member (results, "verdict"), "warning");
  ck_assert_str_eq (json_array_get_string_element (json_object_get_array_member (results, "reasons"), 0),
                    "304 reallocated sectors");
  g_clear_pointer (&out, g_free);

  ck_assert_int_eq (ds_test_run (text_argv, &out, NULL), 0);
  ck_assert_ptr_nonnull (strstr (out, "WARNING"));
  ck_assert_ptr_nonnull (strstr (out, "  - 304 reallocated sectors"));
  ck_assert_ptr_nonnull (strstr (out, "Reallocated_Sector_Ct"));

  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_run (bad_argv, &out, &err), 1);
  ck_assert_ptr_nonnull (strstr (err, "did not print JSON"));
}
END_TEST

static Suite *
health_suite (void)
{
  Suite *suite = suite_create ("health");
  TCase *tc = tcase_create ("health");

  /* The CLI cases run diskscope-cli (slow under ASan). */
  tcase_set_timeout (tc, 60);

  tcase_add_test (tc, test_every_fixture);
  tcase_add_test (tc, test_details);
  tcase_add_test (tc, test_bits_in_words);
  tcase_add_test (tc, test_rules);
  tcase_add_test (tc, test_bad_output);
  tcase_add_test (tc, test_made_fixtures);
  tcase_add_test (tc, test_raw_counts);
  tcase_add_test (tc, test_no_evidence);
  tcase_add_test (tc, test_out_of_range);
  tcase_add_test (tc, test_cli_flagged);
  tcase_add_test (tc, test_result_round_trip);
  tcase_add_test (tc, test_runner);
  tcase_add_test (tc, test_cli_health);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("health");
  return ds_test_run_suite (health_suite ());
}
