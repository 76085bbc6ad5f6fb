/* test-health-self-test.c: the self-test a drive is running and its log,
 * from smartctl's JSON (core/health/ds-health-self-test.c)
 *
 * Unit suite: no root, no drive.  _ds_health_parse_self_tests()
 * (ds-health-private.h) on each way smartctl writes them: ATA's status
 * byte and polling times, its extended and standard logs; NVMe's current
 * operation and log (unused entries skipped); SCSI's scsi_self_test_N
 * (newest first, up to 20); self_test_in_progress; and what is out of
 * range or not what smartctl writes.  None of the real outputs in
 * tests/fixtures/smartctl/ holds a self-test log (smartctl_exporter's
 * captures leave them out): they give none, and the logs here follow
 * smartmontools 7.3's ataprint.cpp, nvmeprint.cpp and scsiprint.cpp.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-health-private.h"
#include "ds-test-util.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"
#define UNKNOWN DS_HEALTH_UNKNOWN

/* A DsHealth with nothing read (as ds_health_parse() leaves it). */
static DsHealth *
blank_health (void)
{
  static const char least[] = "{\"json_format_version\": [1, 0], \"smartctl\": {\"exit_status\": 0}}";
  g_autoptr (GError) error = NULL;
  DsHealth *h = ds_health_parse (least, -1, -1, &error);

  ck_assert_msg (h != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (h->self_tests->len, 0);
  ck_assert (!h->self_test_running);
  ck_assert_int_eq (h->self_test_remaining_percent, UNKNOWN);
  return h;
}

/* A blank DsHealth with the self tests of @json (smartctl's root object)
 * read. */
static DsHealth *
self_tests_of (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = json_from_string (json, &error);
  DsHealth *h = blank_health ();

  ck_assert_msg (root != NULL, "%s: %s", json, error ? error->message : "");
  _ds_health_parse_self_tests (h, json_node_get_object (root));
  return h;
}

static const DsHealthSelfTest *
entry (const DsHealth *h,
       guint           i)
{
  ck_assert_uint_lt (i, h->self_tests->len);
  return h->self_tests->pdata[i];
}

static void
assert_entry (const DsHealth *h,
              guint           i,
              const char     *type,
              const char     *status,
              gboolean        passed,
              int64_t         hours,
              int64_t         lba)
{
  const DsHealthSelfTest *t = entry (h, i);

  ck_assert_str_eq (t->type, type);
  ck_assert_str_eq (t->status, status);
  ck_assert_msg (t->passed == passed, "entry %u: passed %d", i, t->passed);
  ck_assert_int_eq (t->hours, hours);
  ck_assert_int_eq (t->lba, lba);
}

/* ---- ATA: the status byte and polling times ----------------------------- */

START_TEST (test_ata_status)
{
  /* Done: the status, no progress, the polling minutes. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": 0, \"string\": \"completed "
      "without error\", \"passed\": true}, \"polling_minutes\": {\"short\": 2, \"extended\": 280}}}}");

    ck_assert_str_eq (h->self_test_status, "completed without error");
    ck_assert (!h->self_test_running);
    ck_assert_int_eq (h->self_test_remaining_percent, UNKNOWN);
    ck_assert_int_eq (h->short_test_minutes, 2);
    ck_assert_int_eq (h->long_test_minutes, 280);
  }
  /* Status byte 0xF_: in progress, the low nibble tens of % left (when
   * smartctl gives no remaining_percent); 0xFF is over 100. */
  {
    static const struct { int value; int64_t remaining; } running[] = {
      { 0xf9, 90 }, { 0xf0, 0 }, { 0xf1, 10 }, { 0xfa, 100 }, { 0xff, 100 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (running); i++)
      {
        g_autofree char *json = g_strdup_printf (
          "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": %d, \"string\": \"in progress\"}}}}",
          running[i].value);
        g_autoptr (DsHealth) h = self_tests_of (json);

        ck_assert_msg (h->self_test_running, "0x%x", running[i].value);
        ck_assert_int_eq (h->self_test_remaining_percent, running[i].remaining);
      }
  }
  /* remaining_percent wins over the nibble, and alone says "running". */
  {
    g_autoptr (DsHealth) both = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": 249, \"remaining_percent\": 80}}}}");
    g_autoptr (DsHealth) alone = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"remaining_percent\": 30}}}}");

    ck_assert (both->self_test_running);
    ck_assert_int_eq (both->self_test_remaining_percent, 80);
    ck_assert (alone->self_test_running);
    ck_assert_int_eq (alone->self_test_remaining_percent, 30);
    ck_assert_ptr_null (alone->self_test_status);
  }
  /* Out of range, or not numbers: shown as unknown, never running. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": 505, \"remaining_percent\": 150,"
      " \"string\": 7}, \"polling_minutes\": {\"short\": 65536, \"extended\": -1}}}}");
    g_autoptr (DsHealth) strings = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": \"249\", \"remaining_percent\": \"90\"},"
      " \"polling_minutes\": {\"short\": \"2\", \"extended\": 2.5}}}}");
    g_autoptr (DsHealth) edges = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"polling_minutes\": {\"short\": 0, \"extended\": 65535}}}}");

    ck_assert (!h->self_test_running);
    ck_assert_int_eq (h->self_test_remaining_percent, UNKNOWN);
    ck_assert_ptr_null (h->self_test_status);
    ck_assert_int_eq (h->short_test_minutes, UNKNOWN);
    ck_assert_int_eq (h->long_test_minutes, UNKNOWN);
    ck_assert (!strings->self_test_running);
    ck_assert_int_eq (strings->self_test_remaining_percent, UNKNOWN);
    ck_assert_int_eq (strings->short_test_minutes, UNKNOWN);
    ck_assert_int_eq (strings->long_test_minutes, UNKNOWN);
    ck_assert_int_eq (edges->short_test_minutes, 0);
    ck_assert_int_eq (edges->long_test_minutes, 65535);
  }
}
END_TEST

/* ---- ATA: the log ------------------------------------------------------- */

#define ATA_ENTRY(type, status, passed, hours) \
  "{\"type\": {\"value\": 1, \"string\": \"" type "\"}, \"status\": {\"value\": 0, \"string\": \"" \
  status "\", \"passed\": " passed "}, \"lifetime_hours\": " hours "}"

START_TEST (test_ata_log)
{
  /* The standard log, newest first, as smartctl lists it. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_self_test_log\": {\"standard\": {\"revision\": 1, \"table\": ["
      ATA_ENTRY ("Short offline", "Completed without error", "true", "47657") ", "
      "{\"type\": {\"value\": 2, \"string\": \"Extended offline\"}, \"status\": {\"value\": 119,"
      " \"string\": \"Completed: read failure\", \"passed\": false}, \"lifetime_hours\": 47000,"
      " \"lba\": 123456789}"
      "], \"count\": 2, \"error_count_total\": 1}}}");

    ck_assert_uint_eq (h->self_tests->len, 2);
    assert_entry (h, 0, "Short offline", "Completed without error", TRUE, 47657, UNKNOWN);
    assert_entry (h, 1, "Extended offline", "Completed: read failure", FALSE, 47000, 123456789);
    /* The log says nothing of a test running now. */
    ck_assert (!h->self_test_running);
  }
  /* --xall reads the extended log where the drive has one: it wins. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_self_test_log\": {"
      "\"standard\": {\"table\": [" ATA_ENTRY ("Short offline", "old", "true", "1") "]},"
      "\"extended\": {\"table\": [" ATA_ENTRY ("Extended offline", "new", "true", "2") ", "
      ATA_ENTRY ("Conveyance offline", "newer", "true", "3") "]}}}");

    ck_assert_uint_eq (h->self_tests->len, 2);
    assert_entry (h, 0, "Extended offline", "new", TRUE, 2, UNKNOWN);
    assert_entry (h, 1, "Conveyance offline", "newer", TRUE, 3, UNKNOWN);
  }
  /* An extended log that is no list: the standard one. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_self_test_log\": {\"extended\": {\"table\": {}},"
      "\"standard\": {\"table\": [" ATA_ENTRY ("Short offline", "ok", "true", "5") "]}}}");

    ck_assert_uint_eq (h->self_tests->len, 1);
    assert_entry (h, 0, "Short offline", "ok", TRUE, 5, UNKNOWN);
  }
  /* What an entry lacks: "?" for words, passed when not said otherwise,
   * unknown numbers; entries that are no object are skipped. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_self_test_log\": {\"standard\": {\"table\": ["
      "1, \"x\", null, [], {}, {\"status\": {\"passed\": \"no\"}, \"lifetime_hours\": \"9\", \"lba\": -1.5}"
      "]}}}");

    ck_assert_uint_eq (h->self_tests->len, 2);
    assert_entry (h, 0, "?", "?", TRUE, UNKNOWN, UNKNOWN);
    assert_entry (h, 1, "?", "?", TRUE, DS_HEALTH_INVALID, DS_HEALTH_INVALID);
  }
  /* A log that is not an object, a table that is not a list: none. */
  {
    g_autoptr (DsHealth) a = self_tests_of ("{\"ata_smart_self_test_log\": [1, 2]}");
    g_autoptr (DsHealth) b = self_tests_of ("{\"ata_smart_self_test_log\": {\"standard\": {\"table\": 3}}}");

    ck_assert_uint_eq (a->self_tests->len, 0);
    ck_assert_uint_eq (b->self_tests->len, 0);
  }
}
END_TEST

/* ---- NVMe --------------------------------------------------------------- */

#define NVME_ENTRY(code, code_string, result, result_string, hours) \
  "{\"self_test_code\": {\"value\": " code ", \"string\": \"" code_string "\"}, \"self_test_result\":" \
  " {\"value\": " result ", \"string\": \"" result_string "\"}, \"power_on_hours\": " hours "}"

START_TEST (test_nvme)
{
  /* The log: result 0 passed, others failed, 15 an unused entry. */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"nvme_self_test_log\": {\"current_self_test_operation\": {\"value\": 0, \"string\":"
      " \"No self-test in progress\"}, \"table\": ["
      NVME_ENTRY ("1", "Short", "0", "Completed without error", "10423") ", "
      "{\"self_test_code\": {\"value\": 2, \"string\": \"Extended\"}, \"self_test_result\": {\"value\": 7,"
      " \"string\": \"Completed: failed segments\"}, \"power_on_hours\": 10000, \"segment\": 2, \"lba\": 5}, "
      NVME_ENTRY ("0", "-", "15", "Unused", "0") ", "
      "\"not an entry\""
      "]}}");

    ck_assert_str_eq (h->self_test_status, "No self-test in progress");
    ck_assert (!h->self_test_running);
    ck_assert_int_eq (h->self_test_remaining_percent, UNKNOWN);
    ck_assert_uint_eq (h->self_tests->len, 2);
    assert_entry (h, 0, "Short", "Completed without error", TRUE, 10423, UNKNOWN);
    assert_entry (h, 1, "Extended", "Completed: failed segments", FALSE, 10000, 5);
  }
  /* Running: what is left is 100 - done; done out of range is unknown. */
  {
    static const struct { const char *done; int64_t remaining; } cases[] = {
      { "30", 70 }, { "0", 100 }, { "100", 0 }, { "150", UNKNOWN }, { "-1", UNKNOWN },
      { "\"30\"", UNKNOWN },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *json = g_strdup_printf (
          "{\"nvme_self_test_log\": {\"current_self_test_operation\": {\"value\": 1, \"string\":"
          " \"Short self-test in progress\"}, \"current_self_test_completion_percent\": %s}}",
          cases[i].done);
        g_autoptr (DsHealth) h = self_tests_of (json);

        ck_assert (h->self_test_running);
        ck_assert_int_eq (h->self_test_remaining_percent, cases[i].remaining);
        ck_assert_str_eq (h->self_test_status, "Short self-test in progress");
      }
  }
  /* NVMe's operation replaces an ATA status (a bridge that shows both). */
  {
    g_autoptr (DsHealth) h = self_tests_of (
      "{\"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": 0, \"string\": \"ata\"}}},"
      " \"nvme_self_test_log\": {\"current_self_test_operation\": {\"value\": 0, \"string\": \"nvme\"}}}");

    ck_assert_str_eq (h->self_test_status, "nvme");
  }
}
END_TEST

/* ---- SCSI --------------------------------------------------------------- */

static char *
scsi_entry (guint       i,
            int         result,
            const char *more)
{
  return g_strdup_printf ("\"scsi_self_test_%u\": {\"code\": {\"value\": 1, \"string\": \"Background short\"},"
                          " \"result\": {\"value\": %d, \"string\": \"%s\"}, \"power_on_time\":"
                          " {\"hours\": %u, \"aka\": \"accumulated_power_on_hours\"}%s}",
                          i, result, result == 0 ? "Completed" : "Failed in read element",
                          102880 - i, more);
}

START_TEST (test_scsi)
{
  /* Newest first: _0, _1, ...; a failed one with its first failing LBA. */
  {
    g_autofree char *e0 = scsi_entry (0, 0, "");
    g_autofree char *e1 = scsi_entry (1, 3, ", \"lba_first_failure\": 77");
    g_autofree char *e3 = scsi_entry (3, 0, "");
    /* _2 is missing: _3 is not read. */
    g_autofree char *json = g_strdup_printf ("{%s, %s, %s}", e0, e1, e3);
    g_autoptr (DsHealth) h = self_tests_of (json);

    ck_assert_uint_eq (h->self_tests->len, 2);
    assert_entry (h, 0, "Background short", "Completed", TRUE, 102880, UNKNOWN);
    assert_entry (h, 1, "Background short", "Failed in read element", FALSE, 102879, 77);
  }
  /* Twenty at most. */
  {
    g_autoptr (GString) json = g_string_new ("{");
    g_autoptr (DsHealth) h = NULL;

    for (guint i = 0; i < 25; i++)
      {
        g_autofree char *e = scsi_entry (i, 0, "");

        g_string_append_printf (json, "%s%s", i > 0 ? ", " : "", e);
      }
    g_string_append_c (json, '}');
    h = self_tests_of (json->str);
    ck_assert_uint_eq (h->self_tests->len, 20);
    assert_entry (h, 19, "Background short", "Completed", TRUE, 102880 - 19, UNKNOWN);
  }
  /* Not an object: the end of the list. */
  {
    g_autoptr (DsHealth) h = self_tests_of ("{\"scsi_self_test_0\": 1}");

    ck_assert_uint_eq (h->self_tests->len, 0);
  }
}
END_TEST

/* ---- running, in any protocol ------------------------------------------- */

START_TEST (test_in_progress)
{
  g_autoptr (DsHealth) yes = self_tests_of ("{\"self_test_in_progress\": true}");
  g_autoptr (DsHealth) no = self_tests_of ("{\"self_test_in_progress\": false}");
  g_autoptr (DsHealth) word = self_tests_of ("{\"self_test_in_progress\": \"true\"}");
  /* false does not stop what the status byte says. */
  g_autoptr (DsHealth) byte = self_tests_of (
    "{\"self_test_in_progress\": false, \"ata_smart_data\": {\"self_test\": {\"status\": {\"value\": 249}}}}");

  ck_assert (yes->self_test_running);
  ck_assert_int_eq (yes->self_test_remaining_percent, UNKNOWN);
  ck_assert (!no->self_test_running);
  ck_assert (!word->self_test_running);
  ck_assert (byte->self_test_running);
  ck_assert_int_eq (byte->self_test_remaining_percent, 90);
}
END_TEST

/* ---- the real outputs --------------------------------------------------- */

START_TEST (test_fixtures)
{
  static const char *const real[] = {
    "WDC_WD20EFRX-68EUZN0_17.json", "HGST_HUS724020ALE640_28.json", "ST3500418AS_11.json",
    "ST3500418AS_12.json", "SAMSUNG_MZ7WD240HAFV-00003_21.json", "SAMSUNG_MZVL21T0HCLR-00B00_23.json",
    "nvme-null-CT250P2SSD8-nvme0.json", "nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json",
    "SEAGATE_ST373453LC_26.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      g_autofree char *path = g_build_filename (FIXTURES, real[i], NULL);
      g_autofree char *text = NULL;
      g_autoptr (DsHealth) h = NULL;

      ck_assert (g_file_get_contents (path, &text, NULL, NULL));
      h = ds_health_parse (text, -1, -1, NULL);
      ck_assert_ptr_nonnull (h);
      /* smartctl_exporter's captures hold no self-test section. */
      ck_assert_msg (h->self_tests->len == 0, "%s", real[i]);
      ck_assert (!h->self_test_running);
      ck_assert_ptr_null (h->self_test_status);
      ck_assert_int_eq (h->short_test_minutes, UNKNOWN);
    }

  /* A real output with a log added as smartctl writes it: the entries
   * read through the whole parser too, and the verdict sees the failure. */
  {
    g_autofree char *path = g_build_filename (FIXTURES, "WDC_WD20EFRX-68EUZN0_17.json", NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (JsonNode) log = json_from_string (
      "{\"extended\": {\"table\": [{\"type\": {\"string\": \"Short offline\"}, \"status\": {\"string\":"
      " \"Completed: read failure\", \"passed\": false}, \"lifetime_hours\": 47650, \"lba\": 3907029167}]}}",
      NULL);
    JsonNode *root;
    g_autoptr (DsHealth) h = NULL;

    ck_assert (json_parser_load_from_file (parser, path, NULL));
    root = json_parser_get_root (parser);
    json_object_set_member (json_node_get_object (root), "ata_smart_self_test_log",
                            g_steal_pointer (&log));
    h = ds_health_parse_node (root, -1, NULL);
    ck_assert_ptr_nonnull (h);
    ck_assert_uint_eq (h->self_tests->len, 1);
    assert_entry (h, 0, "Short offline", "Completed: read failure", FALSE, 47650, 3907029167);
    ck_assert_int_eq (h->verdict, DS_HEALTH_WARNING);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("health-self-test");
  TCase *tc = tcase_create ("self-test");

  tcase_add_test (tc, test_ata_status);
  tcase_add_test (tc, test_ata_log);
  tcase_add_test (tc, test_nvme);
  tcase_add_test (tc, test_scsi);
  tcase_add_test (tc, test_in_progress);
  tcase_add_test (tc, test_fixtures);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
