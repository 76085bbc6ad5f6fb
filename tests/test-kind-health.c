/* test-kind-health.c: the Health kind's parts beside its table
 * (core/kinds/health/ds-health-compare.c, ds-health-fio.c,
 * ds-health-report.c), on real `smartctl --json` outputs (tests/fixtures/)
 *
 * Unit suite: no root, no drive.  Its comparison: the verdict and the
 * drive's figures, then each ATA attribute's normalized value and its raw
 * value (or decoded count), the NVMe health log (data units as bytes) or
 * SCSI's counters, a figure not reported an empty cell; a note naming the
 * drive and its verdict with the worst reason; the drive's identity (model
 * and serial, none without a serial).  Its fio job: refused, saying why.
 * Its report, word for word for an ATA, an NVMe and a SCSI drive: the
 * verdict and reasons, the figures (flagged when not plausible, "–" when
 * not reported), smartctl's exit bits, the self-test state and log (21
 * entries at most), the attribute table, the NVMe health log, the notes;
 * a string from the drive escaped.  The parser and verdict are
 * test-health.c's; test-compare-kinds.c compares two reads of one drive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-health.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio.h"
#include "ds-fio-job.h"
#include "ds-test-kind.h"
#include "ds-test-util.h"

static DsResult *
load (const char *name)
{
  g_autofree char *path = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", name, NULL);
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_health_result_from_file (path, &error);

  ck_assert_msg (r != NULL, "%s: %s", name, error ? error->message : "");
  return r;
}

static DsHealth *
health_of (DsResult *r)
{
  return ((DsHealthData *) r->data)->health;
}

/* ---- compare ------------------------------------------------------------ */

/* What the kind's table hook gives a comparison for @r. */
static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_HEALTH)->compare_rows, ds_health_compare_rows);
  ds_bench_get (DS_BENCH_HEALTH)->compare_rows (r, &sink->figures);
}

/* An ATA drive with one reallocated sector: 5 figures, two rows per
 * attribute (a counter's decoded count, another's raw value), the note. */
START_TEST (test_compare_ata)
{
  g_autoptr (DsResult) r = load ("ST3500418AS_11.json");
  const char *const first[] = {
    "[Health]",
    "verdict|Verdict|0 good, higher worse|count|-|2",
    "temperature|Temperature|°C|count|-|32",
    "power_on_hours|Power-on hours||count|-|44670",
    "power_cycles|Power cycles||count|-|26",
    "error_log_count|Error log entries||count|-|0",
    "[Health, ATA attributes]",
    "ata.1.value|1 Raw_Read_Error_Rate|normalized|count|+|118",
    "ata.1.raw|1 Raw_Read_Error_Rate|raw|count|-|168165566",
    "ata.3.value|3 Spin_Up_Time|normalized|count|+|97",
    "ata.3.raw|3 Spin_Up_Time|raw|count|-|0",
    "ata.4.value|4 Start_Stop_Count|normalized|count|+|100",
    "ata.4.raw|4 Start_Stop_Count|raw|count|-|72",
    "ata.5.value|5 Reallocated_Sector_Ct|normalized|count|+|100",
    "ata.5.raw|5 Reallocated_Sector_Ct|count|count|-|1",
    NULL,
  };
  const char *const note[] = { "ST3500418AS, serial REDACTED: warning — 1 reallocated sector", NULL };
  DsTestSink sink;

  ck_assert_uint_eq (health_of (r)->attributes->len, 22);
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 2 + 5 + 2 * 22);
  for (guint i = 0; first[i] != NULL; i++)
    ck_assert_str_eq (sink.rows->pdata[i], first[i]);
  /* 194's raw is its six raw bytes, not a count. */
  ck_assert_str_eq (sink.rows->pdata[7 + 2 * 14 + 1], "ata.194.raw|194 Temperature_Celsius|raw|count|-|81604378656");
  ck_assert_str_eq (sink.rows->pdata[7 + 2 * 15 + 1], "ata.195.raw|195 Hardware_ECC_Recovered|raw|count|-|168165566");
  ck_assert_str_eq (sink.rows->pdata[sink.rows->len - 1], "ata.242.raw|242 Total_LBAs_Read|raw|count|-|224972325");
  ds_test_assert_list (sink.notes, note);
  ds_test_sink_clear (&sink);
}
END_TEST

/* An NVMe drive: no ATA error log (empty), its health log with data in
 * bytes (units of 512 000); a SCSI drive: its counters, the worst reason
 * of two in the note. */
START_TEST (test_compare_nvme_scsi)
{
  g_autoptr (DsResult) nvme = load ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
  g_autoptr (DsResult) scsi = load ("SEAGATE_ST373453LC_26.json");
  const char *const want_nvme[] = {
    "[Health]",
    "verdict|Verdict|0 good, higher worse|count|-|0",
    "temperature|Temperature|°C|count|-|29",
    "power_on_hours|Power-on hours||count|-|10423",
    "power_cycles|Power cycles||count|-|6",
    "error_log_count|Error log entries||count|-|-",
    "[Health, NVMe]",
    "nvme.media_errors|Media errors||count|-|0",
    "nvme.percentage_used|Percentage used||count|-|16",
    "nvme.available_spare|Available spare|%|count|+|100",
    "nvme.unsafe_shutdowns|Unsafe shutdowns||count|-|1",
    "nvme.error_log_entries|Error log entries||count|-|0",
    /* 113662783 and 7193048 units of 512 000 bytes */
    "nvme.data_written|Data written||bytes|-|58195344896000",
    "nvme.data_read|Data read||bytes|-|3682840576000",
    NULL,
  };
  const char *const want_scsi[] = {
    "[Health]",
    "verdict|Verdict|0 good, higher worse|count|-|2",
    "temperature|Temperature|°C|count|-|33",
    "power_on_hours|Power-on hours||count|-|102880",
    "power_cycles|Power cycles||count|-|-",
    "error_log_count|Error log entries||count|-|-",
    "[Health, SCSI]",
    "scsi.grown_defects|Grown defects||count|-|260",
    "scsi.read_uncorrected|Uncorrected reads||count|-|1",
    "scsi.write_uncorrected|Uncorrected writes||count|-|535",
    NULL,
  };
  const char *const notes[] = {
    "SAMSUNG MZVL21T0HCLR-00B00, serial REDACTED: good",
    "SEAGATE ST373453LC, serial REDACTED: warning — 260 grown defects (sectors the drive has remapped "
    "since it left the factory)",
    NULL,
  };
  DsTestSink sink;

  ck_assert_int_eq (health_of (nvme)->nvme.data_units_written, 113662783);
  ck_assert_int_eq (health_of (nvme)->nvme.data_units_read, 7193048);
  rows_of (nvme, &sink);
  ds_test_assert_list (sink.rows, want_nvme);
  ck_assert_str_eq (sink.notes->pdata[0], notes[0]);
  ds_test_sink_clear (&sink);
  rows_of (scsi, &sink);
  ds_test_assert_list (sink.rows, want_scsi);
  ds_test_assert_list (sink.notes, notes + 1);
  ds_test_sink_clear (&sink);
}
END_TEST

/* What was not reported, or cannot be a count (a negative, the parser's
 * "invalid"), is an empty cell; a drive of no model or serial is said to
 * be unknown; a result not read yet has no figures and no note. */
START_TEST (test_compare_unknowns)
{
  g_autoptr (DsResult) r = load ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
  DsHealth *h = health_of (r);
  DsHealthAttribute a = { .id = 5, .name = NULL, .value = -1, .raw = -3, .count = DS_HEALTH_UNKNOWN,
                          .when_failed = g_strdup ("") };
  DsHealthAttribute b = { .id = 197, .name = g_strdup ("Pending"), .value = 0, .raw = 7,
                          .count = DS_HEALTH_INVALID, .when_failed = g_strdup ("") };
  const char *const want[] = {
    "[Health]",
    "verdict|Verdict|0 good, higher worse|count|-|1",
    "temperature|Temperature|°C|count|-|-",
    "power_on_hours|Power-on hours||count|-|-",
    "power_cycles|Power cycles||count|-|0",
    "error_log_count|Error log entries||count|-|-",
    "[Health, ATA attributes]",
    "ata.5.value|5 ?|normalized|count|+|-",
    "ata.5.raw|5 ?|raw|count|-|-",
    "ata.197.value|197 Pending|normalized|count|+|0",
    "ata.197.raw|197 Pending|count|count|-|-",
    "[Health, NVMe]",
    "nvme.media_errors|Media errors||count|-|-",
    "nvme.percentage_used|Percentage used||count|-|-",
    "nvme.available_spare|Available spare|%|count|+|-",
    "nvme.unsafe_shutdowns|Unsafe shutdowns||count|-|1",
    "nvme.error_log_entries|Error log entries||count|-|0",
    "nvme.data_written|Data written||bytes|-|-",
    "nvme.data_read|Data read||bytes|-|0",
    NULL,
  };
  /* Raw: the comparison escapes what it shows. */
  const char *const note[] = { "unknown model, serial unknown: unknown — first\nreason\033[31m", NULL };
  DsTestSink sink;

  h->verdict = DS_HEALTH_UNDETERMINED;
  g_ptr_array_add (h->reasons, g_strdup ("first\nreason\033[31m"));
  g_ptr_array_add (h->reasons, g_strdup ("second"));
  g_clear_pointer (&h->model, g_free);
  g_clear_pointer (&h->serial, g_free);
  h->temperature_c = -5;             /* the sink takes a negative as none */
  h->power_on_hours = DS_HEALTH_UNKNOWN;
  h->power_cycles = 0;
  g_array_append_val (h->attributes, a);
  g_array_append_val (h->attributes, b);
  h->nvme.media_errors = DS_HEALTH_INVALID;
  h->nvme.percentage_used = -1;
  h->nvme.available_spare = DS_HEALTH_UNKNOWN;
  h->nvme.data_units_written = DS_HEALTH_UNKNOWN;
  h->nvme.data_units_read = 0;
  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ds_test_assert_list (sink.notes, note);
  ds_test_sink_clear (&sink);
  ck_assert_ptr_null (ds_health_compare_identity (r));

  g_clear_pointer (&((DsHealthData *) r->data)->health, ds_health_free);
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len + sink.notes->len, 0);
  ds_test_sink_clear (&sink);
}
END_TEST

/* The drive, to tell whether two results are one: its model and serial;
 * none without a serial (or before it was read). */
START_TEST (test_identity)
{
  g_autoptr (DsResult) r = load ("SEAGATE_ST373453LC_26.json");
  DsHealth *h = health_of (r);
  g_autofree char *id = NULL;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_HEALTH)->compare_identity, ds_health_compare_identity);
  id = ds_health_compare_identity (r);
  ck_assert_str_eq (id, "SEAGATE ST373453LC, serial REDACTED");
  g_clear_pointer (&h->model, g_free);
  g_free (id);
  id = ds_health_compare_identity (r);
  ck_assert_str_eq (id, "?, serial REDACTED");
  g_free (h->serial);
  h->serial = g_strdup ("");
  ck_assert_ptr_null (ds_health_compare_identity (r));
  g_clear_pointer (&h->serial, g_free);
  ck_assert_ptr_null (ds_health_compare_identity (r));
  g_clear_pointer (&((DsHealthData *) r->data)->health, ds_health_free);
  ck_assert_ptr_null (ds_health_compare_identity (r));
}
END_TEST

/* ---- fio ---------------------------------------------------------------- */

/* Nothing for fio to run: refused with the reason, nothing written; the
 * same through the exporter, whatever the file given. */
START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = load ("WDC_WD20EFRX-68EUZN0_17.json");
  g_autoptr (GString) out = g_string_new (NULL);
  DsFioJobFile job = { .out = out, .filename = "/dev/sda" };
  const char *want = "a Health result cannot be expressed as a fio job, because it is what the drive's "
                     "SMART data said (smartctl), not a test that moves data";

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_HEALTH)->fio_job, ds_health_fio_job);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;

      if (i == 0)
        ck_assert (!ds_health_fio_job (r, &job, &error));
      else
        ck_assert_ptr_null (ds_fio_job_from_result (r, i == 1 ? NULL : "/tmp/x", &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
      ck_assert_str_eq (error->message, want);
    }
  ck_assert_uint_eq (out->len, 0);
}
END_TEST

/* ---- report ------------------------------------------------------------- */

#define ATTR_HEAD " ID Attribute                  Value Worst Thresh Failed Status   Raw"

/* An ATA drive, word for word: the verdict and its reason, the figures,
 * smartctl, the attribute table (smartctl's raw strings). */
START_TEST (test_report_ata)
{
  g_autoptr (DsResult) r = load ("ST3500418AS_11.json");
  g_autofree char *text = ds_test_report (r, DS_UNITS_MB);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_HEALTH)->report, ds_health_report);
  const char *want[] = {
    "Health                : WARNING",
    "  - 1 reallocated sector",
    "",
    "Model                 : ST3500418AS",
    "Serial number         : REDACTED",
    "Firmware              : REDACTED",
    "Interface             : ATA",
    "Temperature           : 32 °C",
    "Power-on hours        : 44670 h (5.1 years)",
    "Power cycles          : 26",
    "SMART self-assessment : passed",
    "smartctl              : 7.3, exit status 0",
    "",
    ATTR_HEAD,
    "  1 Raw_Read_Error_Rate          118    99      6 -      good     168165566",
    "  3 Spin_Up_Time                  97    97      0 -      good     0",
    "  4 Start_Stop_Count             100   100     20 -      good     72",
    "  5 Reallocated_Sector_Ct        100   100     36 -      warning  1",
    "  7 Seek_Error_Rate               87    60     30 -      good     610424933",
    "  9 Power_On_Hours                50    11      0 -      good     44670",
    " 10 Spin_Retry_Count             100   100     97 -      good     0",
    " 12 Power_Cycle_Count            100   100     20 -      good     26",
    "183 Runtime_Bad_Block            100   100      0 -      good     0",
    "184 End-to-End_Error             100   100     99 -      good     0",
    "187 Reported_Uncorrect           100   100      0 -      good     0",
    "188 Command_Timeout              100   100      0 -      good     1",
    "189 High_Fly_Writes               42    42      0 -      good     58",
    "190 Airflow_Temperature_Cel       68    58     45 -      good     32 (Min/Max 23/35)",
    "194 Temperature_Celsius           32    42      0 -      good     32 (0 19 0 0 0)",
    "195 Hardware_ECC_Recovered        40    17      0 -      good     168165566",
    "197 Current_Pending_Sector       100   100      0 -      good     0",
    "198 Offline_Uncorrectable        100   100      0 -      good     0",
    "199 UDMA_CRC_Error_Count         200   200      0 -      good     0",
    "240 Head_Flying_Hours            100   253      0 -      good     122817 (237 33 0)",
    "241 Total_LBAs_Written           100   253      0 -      good     543343366",
    "242 Total_LBAs_Read              100   253      0 -      good     224972325",
    "",
    NULL,
  };

  ds_test_assert_lines (text, want);
}
END_TEST

/* A failing NVMe drive (its SMART status FAILED, exit bit 3, a critical
 * warning bit), and a SCSI drive (no power cycles: "–"; its defects and
 * trip temperature), word for word. */
START_TEST (test_report_nvme_scsi)
{
  g_autoptr (DsResult) nvme = load ("nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
  g_autoptr (DsResult) scsi = load ("SEAGATE_ST373453LC_26.json");
  g_autofree char *text = ds_test_report (nvme, DS_UNITS_MB);
  const char *want_nvme[] = {
    "Health                : FAILING",
    "  - the drive's SMART overall-health self-assessment failed",
    "  - NVMe critical warning: volatile memory backup failed",
    "",
    "Model                 : SAMSUNG MZWLL3T2HAJQ-00005",
    "Serial number         : REDACTED",
    "Firmware              : REDACTED",
    "Interface             : NVMe",
    "Temperature           : 40 °C",
    "Power-on hours        : 18376 h (2.1 years)",
    "Power cycles          : 6",
    "SMART self-assessment : FAILED",
    "smartctl              : 7.3, exit status 8",
    "  bit: the SMART status says DISK FAILING",
    "",
    "NVMe health log",
    "Critical warning      : 0x10",
    "Available spare       : 100 % (threshold 10 %)",
    "Percentage used       : 0 %",
    "Media errors          : 0",
    "Unsafe shutdowns      : 4",
    "Error log entries     : 0",
    "Temperature sensors   : 40 °C, 40 °C, 35 °C",
    "",
    NULL,
  };
  const char *want_scsi[] = {
    "Health                : WARNING",
    "  - 260 grown defects (sectors the drive has remapped since it left the factory)",
    "  - 536 uncorrected errors in the error counter log (read 1, write 535)",
    "",
    "Model                 : SEAGATE ST373453LC",
    "Serial number         : REDACTED",
    "Firmware              : DX10",
    "Interface             : SCSI",
    "Temperature           : 33 °C",
    "Power-on hours        : 102880 h (11.7 years)",
    "Power cycles          : –",
    "SMART self-assessment : passed",
    "Grown defects         : 260",
    "Trip temperature      : 68 °C",
    "smartctl              : 7.4, exit status 0",
    "",
    NULL,
  };

  ds_test_assert_lines (text, want_nvme);
  g_free (text);
  text = ds_test_report (scsi, DS_UNITS_MB);
  ds_test_assert_lines (text, want_scsi);
}
END_TEST

static void
add_self_test (DsHealth   *h,
               const char *status,
               int64_t     hours,
               int64_t     lba)
{
  DsHealthSelfTest *t = g_new0 (DsHealthSelfTest, 1);

  t->type = g_strdup ("Short offline");
  t->status = g_strdup (status);
  t->hours = hours;
  t->lba = lba;
  g_ptr_array_add (h->self_tests, t);
}

/* What no fixture shows: a self-test running, its log (25 entries, a
 * failing LBA, an hour not plausible), an attribute failing now with no
 * normalized values, an NVMe log with nothing readable, smartctl of no
 * version; strings with control characters. */
static void
add_edges (DsHealth *h)
{
  DsHealthAttribute a = { .id = 5, .name = g_strdup ("Realloc\033[2J"), .value = -1, .worst = -1,
                          .threshold = -1, .raw = 9, .raw_string = NULL, .when_failed = g_strdup ("now"),
                          .count = 9, .not_plausible = g_strdup ("why\nnot"), .status = DS_HEALTH_FAILING };

  g_free (h->model);
  h->model = g_strdup ("Disk\033]0;x\007");
  g_ptr_array_add (h->reasons, g_strdup ("two\nlines"));
  g_clear_pointer (&h->smartctl_version, g_free);
  h->self_test_running = TRUE;
  h->self_test_remaining_percent = 90;
  add_self_test (h, "Completed: read failure", 44600, 12345);
  add_self_test (h, "Completed without error", -5, DS_HEALTH_UNKNOWN);
  for (guint i = 0; i < 23; i++)
    add_self_test (h, "Completed without error", 1000 - i, DS_HEALTH_UNKNOWN);
  g_array_append_val (h->attributes, a);
  h->has_nvme = TRUE;
  memset (&h->nvme, 0, sizeof h->nvme);
  h->nvme.available_spare = h->nvme.available_spare_threshold = DS_HEALTH_UNKNOWN;
  h->nvme.percentage_used = h->nvme.media_errors = DS_HEALTH_UNKNOWN;
  h->nvme.unsafe_shutdowns = h->nvme.error_log_entries = DS_HEALTH_UNKNOWN;
  g_ptr_array_add (h->notes, g_strdup ("tab\there"));
}

/* The report of those, word for word: 21 self-tests shown of 25, "-" for
 * a normalized value not reported, "–" for a figure, "unreadable" for
 * the critical warning, "?" for smartctl's version, everything escaped. */
START_TEST (test_report_edges)
{
  g_autoptr (DsResult) r = load ("made/bit2-nothing.json");
  DsHealth *h = health_of (r);
  g_autofree char *text = NULL;
  static const char *const head[] = {
    "Health                : UNKNOWN",
    "  - smartctl could not read the drive's SMART data (a SMART command failed: exit bit 2), and its output "
    "holds no self-assessment, attribute table or health log to judge",
    "  - two\\nlines",
    "",
    "Model                 : Disk\\x1B]0;x\\x07",
    "Serial number         : REDACTED",
    "Firmware              : CC38",
    "Interface             : ATA",
    "Temperature           : –",
    "Power-on hours        : –",
    "Power cycles          : –",
    "SMART self-assessment : not reported",
    "smartctl              : ?, exit status 4",
    "  bit: a SMART or other command to the disk failed, or a SMART structure had a bad checksum",
    "Self-test             : running, 90 % left",
    "",
    "Self-test log (newest first)",
    /* type, then status, hours and LBA right-aligned in 12 */
    "  Short offline        Completed: read failure     44600 h   LBA 12345",
    "  Short offline        Completed without error -5 h (not plausible: a drive's age is 0 to 30 years)"
    "            ",
    NULL,
  };
  static const char *const tail[] = {
    "",
    ATTR_HEAD,
    "  5 Realloc\\x1B[2J                 -     -      - now    failing   (not plausible: why\\nnot)",
    "",
    "NVMe health log",
    "Critical warning      : unreadable",
    "Available spare       : – (threshold –)",
    "Percentage used       : –",
    "Media errors          : –",
    "Unsafe shutdowns      : –",
    "Error log entries     : –",
    "",
    "Note: a SMART command failed or a SMART structure had a bad checksum: some figures may be missing",
    "Note: tab\\there",
    "",
    NULL,
  };
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);

  add_edges (h);
  text = ds_test_report (r, DS_UNITS_MB);
  for (guint i = 0; head[i] != NULL; i++)
    g_ptr_array_add (want, g_strdup (head[i]));
  /* 21 entries of the 25, newest first. */
  for (guint i = 0; i < 19; i++)
    {
      g_autofree char *hours = g_strdup_printf ("%u h", 1000 - i);

      g_ptr_array_add (want, g_strdup_printf ("  %-20s %s%12s%12s", "Short offline", "Completed without error",
                                              hours, ""));
    }
  for (guint i = 0; tail[i] != NULL; i++)
    g_ptr_array_add (want, g_strdup (tail[i]));
  g_ptr_array_add (want, NULL);
  ds_test_assert_lines (text, (const char *const *) want->pdata);

  /* Running with no figure; then done, in smartctl's words; a result not
   * read yet reports nothing. */
  h->self_test_remaining_percent = DS_HEALTH_UNKNOWN;
  g_free (text);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "\nSelf-test             : running\n\n") != NULL, "%s", text);
  h->self_test_running = FALSE;
  g_free (h->self_test_status);
  h->self_test_status = g_strdup ("Completed\twithout error");
  g_free (text);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "\nSelf-test             : Completed\\twithout error\n\n") != NULL, "%s", text);
  g_clear_pointer (&((DsHealthData *) r->data)->health, ds_health_free);
  g_free (text);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_str_eq (text, "");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-health");
  TCase *tc_compare = tcase_create ("compare");
  TCase *tc_fio = tcase_create ("fio");
  TCase *tc_report = tcase_create ("report");

  tcase_add_test (tc_compare, test_compare_ata);
  tcase_add_test (tc_compare, test_compare_nvme_scsi);
  tcase_add_test (tc_compare, test_compare_unknowns);
  tcase_add_test (tc_compare, test_identity);
  suite_add_tcase (s, tc_compare);
  tcase_add_test (tc_fio, test_fio_refused);
  suite_add_tcase (s, tc_fio);
  tcase_add_test (tc_report, test_report_ata);
  tcase_add_test (tc_report, test_report_nvme_scsi);
  tcase_add_test (tc_report, test_report_edges);
  suite_add_tcase (s, tc_report);

  return ds_test_run_suite (s);
}
