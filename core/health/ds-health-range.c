/* ds-health-range.c: what a figure from smartctl may be, and the counts
 * the raw values of counter attributes hold
 *
 * A figure outside its physical range is not what the drive measured: a
 * firmware bug, a bridge that mangles the data, or a file someone edited.
 * It is shown flagged and never judged as if it were measured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-health-private.h"
#include "ds-units.h"

/* The ranges.
 *   Temperature: drives are rated to run at about 0 .. 70 °C (industrial
 *   ones -40 .. 85 °C) and throttle or shut down well below 125 °C, so
 *   -40 .. 125 °C holds every reading of a working sensor.  Outside it the
 *   sensor or its reading is broken (an NVMe log's 0 K is -273 °C).
 *   Hours: a drive is not older than 30 years (262 980 hours), and never
 *   runs for less than no time.
 *   Percent: NVMe available spare and its threshold are 0 .. 100; the
 *   percentage used is a byte that the specification lets pass 100 (255
 *   at most).
 *   Counts are never below 0; data units (512 000 bytes each) must fit 64
 *   bits of bytes once multiplied.
 *   Rotation: ATA word 217 and SCSI's VPD B1h give 1 for "not rotating"
 *   (smartctl writes 0) or the rpm; no drive spins below 1 000 or above
 *   30 000 rpm (the fastest ever made turn 15 000). */
#define TEMPERATURE_MIN_C   (-40)
#define TEMPERATURE_MAX_C   125
#define HOURS_MAX           (INT64_C (30) * 8766)
#define PERCENT_USED_MAX    255
#define DATA_UNIT_BYTES     512000
#define ROTATION_MIN_RPM    1000
#define ROTATION_MAX_RPM    30000

gboolean
ds_health_plausible (DsHealthFigure figure,
                     int64_t        value)
{
  if (value == DS_HEALTH_UNKNOWN || value == DS_HEALTH_INVALID)
    return FALSE;

  switch (figure)
    {
    case DS_HEALTH_TEMPERATURE:
      return value >= TEMPERATURE_MIN_C && value <= TEMPERATURE_MAX_C;
    case DS_HEALTH_HOURS:
      return value >= 0 && value <= HOURS_MAX;
    case DS_HEALTH_PERCENT:
      return value >= 0 && value <= 100;
    case DS_HEALTH_PERCENT_USED:
      return value >= 0 && value <= PERCENT_USED_MAX;
    case DS_HEALTH_COUNT:
      return value >= 0;
    case DS_HEALTH_DATA_UNITS:
      return value >= 0 && (uint64_t) value <= UINT64_MAX / DATA_UNIT_BYTES;
    case DS_HEALTH_ROTATION:
      return value == 0 || (value >= ROTATION_MIN_RPM && value <= ROTATION_MAX_RPM);
    default:
      return FALSE;
    }
}

const char *
ds_health_implausible_why (DsHealthFigure figure,
                           int64_t        value)
{
  if (value == DS_HEALTH_UNKNOWN || ds_health_plausible (figure, value))
    return NULL;
  if (value == DS_HEALTH_INVALID)
    return _("not a number: the output is damaged");

  switch (figure)
    {
    case DS_HEALTH_TEMPERATURE:
      return _("drives work at -40 to 125 °C");
    case DS_HEALTH_HOURS:
      return _("a drive's age is 0 to 30 years");
    case DS_HEALTH_PERCENT:
      return _("a percentage is 0 to 100");
    case DS_HEALTH_PERCENT_USED:
      return _("NVMe reports 0 to 255 %");
    case DS_HEALTH_COUNT:
      return _("a count is never below 0");
    case DS_HEALTH_DATA_UNITS:
      return _("more bytes than 64 bits can count");
    case DS_HEALTH_ROTATION:
      return _("drives spin at 1000 to 30000 rpm, or not at all");
    default:
      return _("out of range");
    }
}

char *
ds_health_figure_value (DsHealthFigure figure,
                        int64_t        value)
{
  if (value == DS_HEALTH_UNKNOWN)
    return NULL;
  if (value == DS_HEALTH_INVALID)
    /* Translators: a figure the output gives as something other than a number */
    return g_strdup (_("unreadable"));

  switch (figure)
    {
    case DS_HEALTH_TEMPERATURE:
      return g_strdup_printf (_("%" PRId64 " °C"), value);
    case DS_HEALTH_HOURS:
      if (!ds_health_plausible (figure, value))
        return g_strdup_printf (_("%" PRId64 " h"), value);
      /* Translators: power-on hours, then the same in years */
      return g_strdup_printf (_("%" PRId64 " h (%.1f years)"), value,
                              (double) value / (24 * 365.25));
    case DS_HEALTH_PERCENT:
    case DS_HEALTH_PERCENT_USED:
      return g_strdup_printf ("%" PRId64 " %%", value);
    case DS_HEALTH_DATA_UNITS:
      if (ds_health_plausible (figure, value))
        return ds_format_size ((uint64_t) value * DATA_UNIT_BYTES);
      return g_strdup_printf (_("%" PRId64 " units"), value);
    case DS_HEALTH_ROTATION:
      if (value == 0)
        return g_strdup (_("solid state"));
      return g_strdup_printf (_("%" PRId64 " rpm"), value);
    case DS_HEALTH_COUNT:
    default:
      return g_strdup_printf ("%" PRId64, value);
    }
}

char *
ds_health_figure_text (DsHealthFigure figure,
                       int64_t        value)
{
  g_autofree char *shown = ds_health_figure_value (figure, value);
  const char *why = ds_health_implausible_why (figure, value);

  if (shown == NULL || why == NULL)
    return g_steal_pointer (&shown);
  /* Translators: a figure as reported, then why it cannot be what the drive
   * measured */
  return g_strdup_printf (_("%s (not plausible: %s)"), shown, why);
}

/* ---- counter attributes ------------------------------------------------- */

/* The attributes whose raw value is a count the verdict reads, and the
 * names drivedb.h gives them that mean that count.  drivedb renames some
 * ids on some drives to something else ("-v 198,raw48,Host_Reads_GiB",
 * "-v 197,raw48,Not_In_Use"): those are not judged.  A name is matched
 * without case, by part; "Unknown_Attribute" is a file that gave no name
 * (smartctl always names these ids), read as the default meaning.
 * 188 (Command_Timeout) is not here: Seagate packs three counters into it
 * (raw16, "a b c"), and timeouts are mostly cables and power. */
static const struct {
  unsigned    id;
  const char *names[7];
} counters[] = {
  { 5,   { "realloc", "retired", "bad_bl", "unknown_attribute", NULL } },
  { 9,   { "power_on_hours", NULL } },
  { 187, { "uncorr", "unc_", "ue_", "unknown_attribute", NULL } },
  { 197, { "pending", "unc_read", "unknown_attribute", NULL } },
  { 198, { "unc", "uerr", "unknown_attribute", NULL } },
};

static gboolean
is_counter (const DsHealthAttribute *a)
{
  g_autofree char *name = g_ascii_strdown (a->name ? a->name : "", -1);

  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    if (counters[i].id == a->id)
      for (guint k = 0; counters[i].names[k] != NULL; k++)
        if (strstr (name, counters[i].names[k]) != NULL)
          return TRUE;

  return FALSE;
}

/* The leading decimal number of @s, and where it ends; FALSE when @s does
 * not start with one that fits 63 bits. */
static gboolean
leading_number (const char  *s,
                int64_t     *ret_n,
                const char **ret_end)
{
  const char *p = s;
  uint64_t n = 0;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (n > (uint64_t) (INT64_MAX - 9) / 10)
        return FALSE;
      n = n * 10 + (uint64_t) (*p - '0');
    }
  *ret_n = (int64_t) n;
  *ret_end = p;
  return TRUE;
}

/* Every field of a packed rendering ("0 0 0", "0/0") is 0. */
static gboolean
all_fields_zero (const char *s)
{
  gboolean any = FALSE;

  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '0')
        any = TRUE;
      else if (*p != ' ' && *p != '/')
        return FALSE;
    }

  return any;
}

/* How smartctl writes an attribute's raw value (ataprint.cpp,
 * ata_get_attr_raw_value() and ata_format_attr_raw_value() in atacmds.cpp):
 * raw.value is the six raw bytes as one number (48 bits; the raw56/raw64
 * formats add the reserved and normalized bytes on top), raw.string that
 * number in the format drivedb.h gives the attribute:
 *   raw48, raw56, raw64     "N"            the whole number;
 *   raw16(raw16)            "N" "N (a b)"  N the low 16 bits, a b the two
 *                                          words above (attribute 5's
 *                                          default: some drives keep
 *                                          other counts there);
 *   raw24(raw8)             "N (a b c)"    N the low 24 bits (9's default);
 *   raw16(avg16)            "N (Average a)";
 *   raw16, raw8             "a b c"        several fields, none the count;
 *   raw24/raw32             "a/b";
 *   hex48, hex56, hex64     "0x...".
 * So the count is N, the leading number, when the rendering has the "N"
 * or "N (...)" form; a field is never more than the whole, and "N" alone
 * is the whole.  A packed rendering names no count: all zero is 0, else
 * the count cannot be read.  Without raw.string (not smartctl's output)
 * only a raw.value of 16 bits reads the same in every format.
 * Plausible: the count of sectors (or errors) is not above the drive's
 * number of sectors (2^32 when the capacity is unknown: more reallocated
 * or pending sectors than that has never been seen); hours are hours. */
void
ds_health_decode_attribute (DsHealthAttribute *a,
                            uint64_t           sectors)
{
  uint64_t max_count = sectors > 0 ? sectors : UINT32_MAX;
  const char *end = NULL;
  gboolean single = FALSE;
  int64_t n = 0;

  a->count = DS_HEALTH_UNKNOWN;
  if (!is_counter (a))
    return;

  if (a->raw == DS_HEALTH_INVALID || (a->raw != DS_HEALTH_UNKNOWN && a->raw < 0))
    {
      if (a->not_plausible == NULL)
        a->not_plausible = g_strdup (_("its raw value is not a number smartctl writes "
                                       "(0 to 2^48 - 1)"));
      return;
    }

  if (a->raw_string != NULL && leading_number (a->raw_string, &n, &end) &&
      (*end == '\0' || g_str_has_prefix (end, " (")))
    single = *end == '\0';
  else if (a->raw_string != NULL && all_fields_zero (a->raw_string))
    n = 0;
  else if (a->raw_string == NULL && a->raw != DS_HEALTH_UNKNOWN && a->raw <= 0xffff)
    n = a->raw;
  else
    {
      if (a->not_plausible == NULL)
        a->not_plausible = g_strdup_printf (_("its raw value (%s) packs fields of which none "
                                              "is the count"),
                                            a->raw_string ? a->raw_string : "?");
      return;
    }

  if (a->raw != DS_HEALTH_UNKNOWN && (single ? n != a->raw : n > a->raw))
    {
      if (a->not_plausible == NULL)
        a->not_plausible = g_strdup_printf (_("smartctl's raw value %" PRId64 " and its "
                                              "rendering “%s” disagree"),
                                            a->raw, a->raw_string);
      return;
    }

  if (a->id == 9)
    {
      if (ds_health_plausible (DS_HEALTH_HOURS, n))
        a->count = n;
      else if (a->not_plausible == NULL)
        a->not_plausible = g_strdup_printf (_("%" PRId64 " hours: %s"), n,
                                            ds_health_implausible_why (DS_HEALTH_HOURS, n));
      return;
    }
  if ((uint64_t) n > max_count)
    {
      if (a->not_plausible == NULL)
        a->not_plausible = sectors > 0 ?
          g_strdup_printf (_("a count of %" PRId64 " is more than the drive's %" PRIu64
                             " sectors: the drive reports nonsense"), n, sectors) :
          g_strdup_printf (_("a count of %" PRId64 " is more than 2^32: the drive reports "
                             "nonsense"), n);
      return;
    }
  a->count = n;
}
