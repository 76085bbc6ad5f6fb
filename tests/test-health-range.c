/* test-health-range.c: what a figure from smartctl may be, and the count a
 * counter attribute's raw value holds (core/health/ds-health-range.c)
 *
 * Unit suite: no root, no drive.  Every figure's physical range at both
 * ends, why a value is out of it, how each figure is shown (ds-health.h);
 * ds_health_decode_attribute() (ds-health-private.h) on every form of raw
 * value its comment lists, every reason a count cannot be read, and the
 * names that make an id a counter.  The real outputs in
 * tests/fixtures/smartctl/ decode to the counts their tables show.
 * (test-health.c judges whole outputs; this is the module alone.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-health-private.h"
#include "ds-test-util.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"

/* ---- ranges ------------------------------------------------------------- */

START_TEST (test_plausible)
{
  static const struct {
    DsHealthFigure figure;
    int64_t        lowest;    /* the range's ends, plausible */
    int64_t        highest;
  } ranges[] = {
    { DS_HEALTH_TEMPERATURE, -40, 125 },
    { DS_HEALTH_HOURS, 0, 30 * 8766 },
    { DS_HEALTH_PERCENT, 0, 100 },
    { DS_HEALTH_PERCENT_USED, 0, 255 },
    { DS_HEALTH_COUNT, 0, G_MAXINT64 },
    /* 512 000 bytes a unit, to 2^64 - 1 bytes. */
    { DS_HEALTH_DATA_UNITS, 0, (int64_t) (G_MAXUINT64 / 512000) },
    { DS_HEALTH_ROTATION, 1000, 30000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      DsHealthFigure f = ranges[i].figure;

      ck_assert_msg (ds_health_plausible (f, ranges[i].lowest), "figure %d: %" G_GINT64_FORMAT,
                     f, ranges[i].lowest);
      ck_assert_msg (ds_health_plausible (f, ranges[i].highest), "figure %d: %" G_GINT64_FORMAT,
                     f, ranges[i].highest);
      ck_assert_msg (!ds_health_plausible (f, ranges[i].lowest - 1), "figure %d: %" G_GINT64_FORMAT,
                     f, ranges[i].lowest - 1);
      if (ranges[i].highest < G_MAXINT64)
        ck_assert_msg (!ds_health_plausible (f, ranges[i].highest + 1), "figure %d: %" G_GINT64_FORMAT,
                       f, ranges[i].highest + 1);
      /* The markers are never a figure. */
      ck_assert (!ds_health_plausible (f, DS_HEALTH_UNKNOWN));
      ck_assert (!ds_health_plausible (f, DS_HEALTH_INVALID));
      ck_assert (!ds_health_plausible (f, G_MININT64 + 2));
    }

  /* Rotation: 0 is a solid-state drive, 1 .. 999 nothing that spins. */
  ck_assert (ds_health_plausible (DS_HEALTH_ROTATION, 0));
  ck_assert (!ds_health_plausible (DS_HEALTH_ROTATION, 1));
  ck_assert (!ds_health_plausible (DS_HEALTH_ROTATION, 999));
  /* A figure this version does not know: nothing is plausible. */
  ck_assert (!ds_health_plausible ((DsHealthFigure) 99, 0));
}
END_TEST

START_TEST (test_why)
{
  static const struct {
    DsHealthFigure figure;
    int64_t        value;
    const char    *why;
  } cases[] = {
    { DS_HEALTH_TEMPERATURE, -273, "drives work at -40 to 125 °C" },
    { DS_HEALTH_TEMPERATURE, 126, "drives work at -40 to 125 °C" },
    { DS_HEALTH_HOURS, -5, "a drive's age is 0 to 30 years" },
    { DS_HEALTH_PERCENT, 101, "a percentage is 0 to 100" },
    { DS_HEALTH_PERCENT_USED, 256, "NVMe reports 0 to 255 %" },
    { DS_HEALTH_COUNT, -1, "a count is never below 0" },
    { DS_HEALTH_DATA_UNITS, G_MAXINT64, "more bytes than 64 bits can count" },
    { DS_HEALTH_ROTATION, 500, "drives spin at 1000 to 30000 rpm, or not at all" },
    { (DsHealthFigure) 99, 1, "out of range" },
    /* Not a number, whatever the figure. */
    { DS_HEALTH_TEMPERATURE, DS_HEALTH_INVALID, "not a number: the output is damaged" },
    { DS_HEALTH_COUNT, DS_HEALTH_INVALID, "not a number: the output is damaged" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *why = ds_health_implausible_why (cases[i].figure, cases[i].value);

      ck_assert_msg (why != NULL, "case %u", i);
      ck_assert_str_eq (why, cases[i].why);
    }

  /* Plausible, or not reported: no reason. */
  ck_assert_ptr_null (ds_health_implausible_why (DS_HEALTH_TEMPERATURE, 34));
  ck_assert_ptr_null (ds_health_implausible_why (DS_HEALTH_ROTATION, 0));
  ck_assert_ptr_null (ds_health_implausible_why (DS_HEALTH_HOURS, DS_HEALTH_UNKNOWN));
}
END_TEST

START_TEST (test_shown)
{
  static const struct {
    DsHealthFigure figure;
    int64_t        value;
    const char    *shown;     /* ds_health_figure_value() */
    const char    *flagged;   /* ds_health_figure_text() */
  } cases[] = {
    { DS_HEALTH_TEMPERATURE, 34, "34 °C", "34 °C" },
    { DS_HEALTH_TEMPERATURE, -273, "-273 °C", "-273 °C (not plausible: drives work at -40 to 125 °C)" },
    { DS_HEALTH_HOURS, 47657, "47657 h (5.4 years)", "47657 h (5.4 years)" },
    { DS_HEALTH_HOURS, 0, "0 h (0.0 years)", "0 h (0.0 years)" },
    /* No years for hours that are not plausible. */
    { DS_HEALTH_HOURS, 262981, "262981 h", "262981 h (not plausible: a drive's age is 0 to 30 years)" },
    { DS_HEALTH_PERCENT, 100, "100 %", "100 %" },
    { DS_HEALTH_PERCENT, 101, "101 %", "101 % (not plausible: a percentage is 0 to 100)" },
    { DS_HEALTH_PERCENT_USED, 104, "104 %", "104 %" },
    { DS_HEALTH_COUNT, 304, "304", "304" },
    { DS_HEALTH_COUNT, -1, "-1", "-1 (not plausible: a count is never below 0)" },
    /* The NVMe log's data units (SAMSUNG_MZVL21T0HCLR-00B00_23.json):
     * 113 662 783 x 512 000 bytes. */
    { DS_HEALTH_DATA_UNITS, 113662783, "58.2 TB", "58.2 TB" },
    { DS_HEALTH_DATA_UNITS, 1000, "512 MB", "512 MB" },
    { DS_HEALTH_DATA_UNITS, -1, "-1 units", "-1 units (not plausible: more bytes than 64 bits can count)" },
    { DS_HEALTH_ROTATION, 0, "solid state", "solid state" },
    { DS_HEALTH_ROTATION, 7200, "7200 rpm", "7200 rpm" },
    { DS_HEALTH_ROTATION, 500, "500 rpm",
      "500 rpm (not plausible: drives spin at 1000 to 30000 rpm, or not at all)" },
    { DS_HEALTH_TEMPERATURE, DS_HEALTH_INVALID, "unreadable",
      "unreadable (not plausible: not a number: the output is damaged)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = ds_health_figure_value (cases[i].figure, cases[i].value);
      g_autofree char *flagged = ds_health_figure_text (cases[i].figure, cases[i].value);

      ck_assert_msg (shown != NULL && flagged != NULL, "case %u", i);
      ck_assert_str_eq (shown, cases[i].shown);
      ck_assert_str_eq (flagged, cases[i].flagged);
    }

  /* Not reported: nothing to show, for every figure. */
  for (int f = DS_HEALTH_TEMPERATURE; f <= DS_HEALTH_ROTATION; f++)
    {
      ck_assert_ptr_null (ds_health_figure_value ((DsHealthFigure) f, DS_HEALTH_UNKNOWN));
      ck_assert_ptr_null (ds_health_figure_text ((DsHealthFigure) f, DS_HEALTH_UNKNOWN));
    }
}
END_TEST

/* ---- counter attributes ------------------------------------------------- */

typedef struct {
  unsigned    id;
  const char *name;
  int64_t     raw;
  const char *raw_string;
  uint64_t    sectors;
  int64_t     count;          /* what it decodes to */
  const char *not_plausible;  /* or why not (NULL: no reason) */
} DecodeCase;

static void
check_decode (const DecodeCase *c,
              guint             i)
{
  DsHealthAttribute a = {
    .id = c->id,
    .name = g_strdup (c->name),
    .raw = c->raw,
    .raw_string = g_strdup (c->raw_string),
    /* Whatever was there before is replaced. */
    .count = 12345,
  };

  ds_health_decode_attribute (&a, c->sectors);
  ck_assert_msg (a.count == c->count, "case %u (%u %s “%s”): count %" G_GINT64_FORMAT ", expected %"
                 G_GINT64_FORMAT, i, c->id, c->name, c->raw_string, a.count, c->count);
  if (c->not_plausible == NULL)
    ck_assert_msg (a.not_plausible == NULL, "case %u: %s", i, a.not_plausible);
  else
    {
      ck_assert_msg (a.not_plausible != NULL, "case %u: no reason", i);
      ck_assert_str_eq (a.not_plausible, c->not_plausible);
    }
  g_free (a.name);
  g_free (a.raw_string);
  g_free (a.not_plausible);
}

#define DRIVE UINT64_C (976773168)   /* ST3500418AS's sectors */
#define UNKNOWN DS_HEALTH_UNKNOWN

START_TEST (test_raw_forms)
{
  static const DecodeCase cases[] = {
    /* raw48: the whole number. */
    { 5, "Reallocated_Sector_Ct", 304, "304", DRIVE, 304, NULL },
    { 5, "Reallocated_Sector_Ct", 0, "0", DRIVE, 0, NULL },
    /* raw16(raw16): the low word, the words above after it. */
    { 5, "Reallocated_Sector_Ct", 8589934592003, "3 (2000 0)", DRIVE, 3, NULL },
    /* raw24(raw8), attribute 9's default. */
    { 9, "Power_On_Hours", 1421634355580, "44668 (5 89 0)", DRIVE, 44668, NULL },
    /* raw16(avg16). */
    { 187, "Reported_Uncorrect", 65537, "1 (Average 1)", DRIVE, 1, NULL },
    /* Packed fields: all zero is 0 ... */
    { 197, "Current_Pending_Sector", 0, "0 0 0", DRIVE, 0, NULL },
    { 198, "Offline_Uncorrectable", 0, "0/0", DRIVE, 0, NULL },
    /* ... else none of them is the count. */
    { 197, "Current_Pending_Sector", 65537, "0 1 1", DRIVE, UNKNOWN,
      "its raw value (0 1 1) packs fields of which none is the count" },
    { 198, "Offline_Uncorrectable", 8, "0/8", DRIVE, UNKNOWN,
      "its raw value (0/8) packs fields of which none is the count" },
    { 5, "Reallocated_Sector_Ct", 5, "0x000000000005", DRIVE, UNKNOWN,
      "its raw value (0x000000000005) packs fields of which none is the count" },
    /* A leading number past 63 bits is no count. */
    { 5, "Reallocated_Sector_Ct", 1, "99999999999999999999", DRIVE, UNKNOWN,
      "its raw value (99999999999999999999) packs fields of which none is the count" },
    /* No rendering (not smartctl's output): 16 bits read the same in every
     * format; more do not; nothing at all is nothing. */
    { 5, "Reallocated_Sector_Ct", 65535, NULL, UINT64_C (1) << 40, 65535, NULL },
    { 5, "Reallocated_Sector_Ct", 65536, NULL, DRIVE, UNKNOWN,
      "its raw value (?) packs fields of which none is the count" },
    { 5, "Reallocated_Sector_Ct", UNKNOWN, NULL, DRIVE, UNKNOWN,
      "its raw value (?) packs fields of which none is the count" },
    /* A rendering alone. */
    { 5, "Reallocated_Sector_Ct", UNKNOWN, "7", DRIVE, 7, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_decode (&cases[i], i);
}
END_TEST

START_TEST (test_raw_refused)
{
  static const DecodeCase cases[] = {
    /* Not a number smartctl writes. */
    { 5, "Reallocated_Sector_Ct", DS_HEALTH_INVALID, "304", DRIVE, UNKNOWN,
      "its raw value is not a number smartctl writes (0 to 2^48 - 1)" },
    { 5, "Reallocated_Sector_Ct", -5, "304", DRIVE, UNKNOWN,
      "its raw value is not a number smartctl writes (0 to 2^48 - 1)" },
    /* The value and its rendering disagree: "N" is the whole, a field is
     * never more than the whole. */
    { 5, "Reallocated_Sector_Ct", 12345, "304", DRIVE, UNKNOWN,
      "smartctl's raw value 12345 and its rendering “304” disagree" },
    { 5, "Reallocated_Sector_Ct", 2, "3 (0 0)", DRIVE, UNKNOWN,
      "smartctl's raw value 2 and its rendering “3 (0 0)” disagree" },
    /* Hours: 30 years at most. */
    { 9, "Power_On_Hours", 262981, "262981", DRIVE, UNKNOWN,
      "262981 hours: a drive's age is 0 to 30 years" },
    { 9, "Power_On_Hours", 262980, "262980", DRIVE, 262980, NULL },
    /* Not more than the drive's sectors ... */
    { 5, "Reallocated_Sector_Ct", 1000, "1000", 1000, 1000, NULL },
    { 5, "Reallocated_Sector_Ct", 1001, "1001", 1000, UNKNOWN,
      "a count of 1001 is more than the drive's 1000 sectors: the drive reports nonsense" },
    /* ... or than 2^32 when they are not known.  Hours are not sectors. */
    { 197, "Current_Pending_Sector", G_MAXUINT32, "4294967295", 0, G_MAXUINT32, NULL },
    { 197, "Current_Pending_Sector", G_MAXUINT32 + INT64_C (1), "4294967296", 0, UNKNOWN,
      "a count of 4294967296 is more than 2^32: the drive reports nonsense" },
    { 9, "Power_On_Hours", 2000, "2000", 1000, 2000, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_decode (&cases[i], i);

  /* The first reason found stays (a normalized value read before). */
  {
    DsHealthAttribute a = {
      .id = 5, .name = g_strdup ("Reallocated_Sector_Ct"), .raw = -1,
      .raw_string = g_strdup ("1"), .not_plausible = g_strdup ("earlier"),
    };

    ds_health_decode_attribute (&a, DRIVE);
    ck_assert_int_eq (a.count, UNKNOWN);
    ck_assert_str_eq (a.not_plausible, "earlier");
    g_free (a.name);
    g_free (a.raw_string);
    g_free (a.not_plausible);
  }
}
END_TEST

/* An id is a counter only under a name that means the count. */
START_TEST (test_counter_names)
{
  static const DecodeCase cases[] = {
    { 5, "Retired_Block_Count", 2, "2", DRIVE, 2, NULL },
    { 5, "Runtime_Bad_Block", 2, "2", DRIVE, 2, NULL },
    { 5, "REALLOCATED_SECTOR_CT", 2, "2", DRIVE, 2, NULL },
    { 187, "Uncorrectable_Error_Cnt", 2, "2", DRIVE, 2, NULL },
    { 187, "Reported_UE_Counts", 2, "2", DRIVE, 2, NULL },
    { 197, "Total_Pending_Sectors", 2, "2", DRIVE, 2, NULL },
    { 198, "Offline_Uncorrectable", 2, "2", DRIVE, 2, NULL },
    /* A file that gave no name: the default meaning. */
    { 198, "Unknown_Attribute", 2, "2", DRIVE, 2, NULL },
    { 5, "Unknown_Attribute", 2, "2", DRIVE, 2, NULL },
    /* drivedb's other meanings for these ids: not judged. */
    { 198, "Host_Reads_GiB", 52000, "52000", DRIVE, UNKNOWN, NULL },
    { 197, "Not_In_Use", 9, "9", DRIVE, UNKNOWN, NULL },
    { 9, "Unknown_Attribute", 9, "9", DRIVE, UNKNOWN, NULL },
    /* No name at all, and ids that are no counter (188 packs three). */
    { 5, NULL, 2, "2", DRIVE, UNKNOWN, NULL },
    { 188, "Command_Timeout", 1, "1", DRIVE, UNKNOWN, NULL },
    { 194, "Temperature_Celsius", 81604378657, "33 (0 19 0 0 0)", DRIVE, UNKNOWN, NULL },
    /* Not a counter: even a damaged raw value is not its business. */
    { 194, "Temperature_Celsius", -1, "x", DRIVE, UNKNOWN, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_decode (&cases[i], i);
}
END_TEST

/* ---- real outputs ------------------------------------------------------- */

static DsHealth *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (FIXTURES, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  DsHealth *h;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  h = ds_health_parse (text, -1, -1, &error);
  ck_assert_msg (h != NULL, "%s: %s", name, error ? error->message : "");
  return h;
}

static const DsHealthAttribute *
find_attribute (const DsHealth *h,
                unsigned        id)
{
  for (guint i = 0; i < h->attributes->len; i++)
    if (g_array_index (h->attributes, DsHealthAttribute, i).id == id)
      return &g_array_index (h->attributes, DsHealthAttribute, i);
  return NULL;
}

START_TEST (test_fixtures)
{
  /* The counters of each real ATA output, as its table shows them. */
  static const struct {
    const char *file;
    uint64_t    sectors;
    unsigned    id;
    int64_t     count;
  } counts[] = {
    { "ST3500418AS_12.json", 976773168, 5, 304 },
    { "ST3500418AS_12.json", 976773168, 9, 44668 },
    { "ST3500418AS_12.json", 976773168, 187, 0 },
    { "ST3500418AS_12.json", 976773168, 188, UNKNOWN },
    { "ST3500418AS_12.json", 976773168, 194, UNKNOWN },
    { "ST3500418AS_12.json", 976773168, 197, 0 },
    { "ST3500418AS_11.json", 976773168, 5, 1 },
    { "ST3500418AS_11.json", 976773168, 9, 44670 },
    { "WDC_WD20EFRX-68EUZN0_17.json", 3907029168, 9, 47657 },
    { "WDC_WD20EFRX-68EUZN0_17.json", 3907029168, 198, 0 },
    { "HGST_HUS724020ALE640_28.json", 3907029168, 9, 83425 },
    { "SAMSUNG_MZ7WD240HAFV-00003_21.json", 468862128, 187, 0 },
    { "SAMSUNG_MZ7WD240HAFV-00003_21.json", 468862128, 9, 84619 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autoptr (DsHealth) h = parse_fixture (counts[i].file);
      const DsHealthAttribute *a = find_attribute (h, counts[i].id);
      DsHealthAttribute again;

      ck_assert_msg (a != NULL, "%s: no attribute %u", counts[i].file, counts[i].id);
      ck_assert_uint_eq (h->sectors, counts[i].sectors);
      ck_assert_msg (a->count == counts[i].count, "%s %u: %" G_GINT64_FORMAT, counts[i].file,
                     counts[i].id, a->count);
      ck_assert_ptr_null (a->not_plausible);

      /* Decoded again, alone, the same; and with the sectors unknown. */
      again = (DsHealthAttribute) { .id = a->id, .name = a->name, .raw = a->raw,
                                    .raw_string = a->raw_string };
      ds_health_decode_attribute (&again, h->sectors);
      ck_assert_int_eq (again.count, counts[i].count);
      ds_health_decode_attribute (&again, 0);
      ck_assert_int_eq (again.count, counts[i].count);
      ck_assert_ptr_null (again.not_plausible);
    }

  /* flagged-ata.json: attribute 5 at 2^48 - 1, more than the drive has. */
  {
    g_autoptr (DsHealth) h = parse_fixture ("made/flagged-ata.json");
    const DsHealthAttribute *a = find_attribute (h, 5);

    ck_assert_int_eq (a->raw, (INT64_C (1) << 48) - 1);
    ck_assert_int_eq (a->count, UNKNOWN);
    ck_assert_str_eq (a->not_plausible, "a count of 281474976710655 is more than the drive's "
                      "976773168 sectors: the drive reports nonsense");
  }

  /* The real figures are in range, and shown as such. */
  {
    g_autoptr (DsHealth) wdc = parse_fixture ("WDC_WD20EFRX-68EUZN0_17.json");
    g_autoptr (DsHealth) ssd = parse_fixture ("SAMSUNG_MZ7WD240HAFV-00003_21.json");
    g_autoptr (DsHealth) scsi = parse_fixture ("SEAGATE_ST373453LC_26.json");
    g_autoptr (DsHealth) nvme = parse_fixture ("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
    g_autofree char *wdc_rpm = ds_health_figure_text (DS_HEALTH_ROTATION, wdc->rotation_rate);
    g_autofree char *ssd_rpm = ds_health_figure_text (DS_HEALTH_ROTATION, ssd->rotation_rate);
    g_autofree char *scsi_rpm = ds_health_figure_text (DS_HEALTH_ROTATION, scsi->rotation_rate);
    g_autofree char *wdc_temp = ds_health_figure_text (DS_HEALTH_TEMPERATURE, wdc->temperature_c);
    g_autofree char *written = ds_health_figure_text (DS_HEALTH_DATA_UNITS, nvme->nvme.data_units_written);
    g_autofree char *read = ds_health_figure_text (DS_HEALTH_DATA_UNITS, nvme->nvme.data_units_read);
    g_autofree char *used = ds_health_figure_text (DS_HEALTH_PERCENT_USED, nvme->nvme.percentage_used);

    ck_assert_str_eq (wdc_rpm, "5400 rpm");
    ck_assert_str_eq (ssd_rpm, "solid state");
    ck_assert_str_eq (scsi_rpm, "15015 rpm");
    ck_assert_str_eq (wdc_temp, "34 °C");
    ck_assert_str_eq (written, "58.2 TB");
    ck_assert_str_eq (read, "3.7 TB");
    ck_assert_str_eq (used, "16 %");
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("health-range");
  TCase *tc = tcase_create ("range");

  tcase_add_test (tc, test_plausible);
  tcase_add_test (tc, test_why);
  tcase_add_test (tc, test_shown);
  tcase_add_test (tc, test_raw_forms);
  tcase_add_test (tc, test_raw_refused);
  tcase_add_test (tc, test_counter_names);
  tcase_add_test (tc, test_fixtures);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
