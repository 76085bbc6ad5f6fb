/* ds-health.h: SMART health from smartctl's JSON, and a verdict in words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parser reads `smartctl --json --xall` output (smartmontools 7.x,
 * json_format_version 1) into plain structs; ds_health_judge() turns them
 * into a verdict with reasons.  No I/O here: ds-smartctl.h runs the
 * program, ds-bench-health.c is the kind.
 *
 * The verdict rules (README "Health"):
 *   failing  - the drive's own overall self-assessment failed
 *              (smart_status.passed false; smartctl exit bit 3), or an
 *              ATA attribute is at or below its threshold now (bit 4);
 *   warning  - reallocated (5), pending (197) or offline-uncorrectable (198)
 *              sectors or reported-uncorrectable errors (187) above 0;
 *              an attribute that was at or below its threshold in the past
 *              (bit 5); any NVMe critical-warning bit; NVMe available spare
 *              below its threshold; NVMe percentage used at 100 or more;
 *              NVMe media errors; SCSI grown defects or uncorrected errors;
 *              a temperature at or above the drive's trip point; the most
 *              recent self-test failed (bit 7);
 *   unknown  - none of these, and the output lacks the evidence "good"
 *              needs (below), or a figure a rule reads is unreadable or
 *              outside its physical range (ds-health-range.c), so the
 *              rule cannot be checked;
 *   good     - none of these, with evidence.
 * Each rule that fires adds one plain sentence to the reasons, the worst
 * first.  The drive's error log holding records (bit 6) is a note, not a
 * warning: it often records old cable or power-loss errors.
 *
 * The evidence "good" needs, at least one of:
 *   - the drive's own self-assessment, passed (smart_status.passed true);
 *   - an ATA attribute table with readable entries;
 *   - an NVMe SMART/health log (log page 02h) whose critical-warning byte
 *     is readable;
 *   - for SCSI, a readable grown-defect count or error counter log.
 * A passed self-assessment alone is evidence (the drive vouches for
 * itself), with a note when the attributes or the health log are missing.
 * And nothing smartctl wrote may be damaged: a section or entry that is
 * there but not what smartctl writes (a log that is not an object, an
 * attribute without an id, a number that is a string) is listed in
 * `unreadable` and makes the verdict unknown at best, as does a figure a
 * rule reads that is out of its range.  A figure only shown (power-on
 * hours, power cycles, a temperature with no trip point) that is out of
 * range is flagged where it is shown and noted; it judges nothing.
 *
 * smartctl's exit status (smartctl(8), "RETURN VALUES"), bit by bit:
 *   0  the command line did not parse: no data (an error, not a verdict;
 *      smartctl also sets it for a device type it cannot detect, e.g. an
 *      unknown USB bridge: its message says which);
 *   1  the device could not be opened or did not identify itself: no data
 *      (an error);
 *   2  a SMART or other command failed, or a SMART structure had a bad
 *      checksum: what was read is used, what is missing is not evidence;
 *      with nothing read, the verdict is unknown;
 *   3  SMART status says DISK FAILING: failing, whatever else was read;
 *   4  prefail attributes at or below threshold: failing;
 *   5  some attribute was at or below its threshold in the past: warning;
 *   6  the error log holds records: a note;
 *   7  the self-test log holds errors: warning.
 * None of the bits is evidence of health: bit-free output still needs
 * the evidence above.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* In order of severity: a worse verdict is a larger value. */
typedef enum {
  DS_HEALTH_GOOD,
  DS_HEALTH_UNDETERMINED,     /* "unknown": not enough evidence to judge */
  DS_HEALTH_WARNING,
  DS_HEALTH_FAILING,
} DsHealthVerdict;

/* An unknown number (not reported by the drive). */
#define DS_HEALTH_UNKNOWN INT64_MIN
/* A number that is there but is none (a string, a fraction, an object,
 * an integer beyond 64 bits): shown flagged, never judged. */
#define DS_HEALTH_INVALID (INT64_MIN + 1)

/* What a figure is, and so its physical range (ds-health-range.c). */
typedef enum {
  DS_HEALTH_TEMPERATURE,      /* °C, -40 .. 125 */
  DS_HEALTH_HOURS,            /* 0 .. 30 years */
  DS_HEALTH_PERCENT,          /* 0 .. 100 (NVMe available spare, threshold) */
  DS_HEALTH_PERCENT_USED,     /* 0 .. 255 (NVMe percentage used may pass 100) */
  DS_HEALTH_COUNT,            /* >= 0 */
  DS_HEALTH_DATA_UNITS,       /* >= 0, units of 512 000 bytes that fit 64 bits */
  DS_HEALTH_ROTATION,         /* rpm: 0 (solid state) or 1 000 .. 30 000 */
} DsHealthFigure;

typedef struct {
  unsigned  id;
  char     *name;
  int       value;            /* normalized, 0 .. 255; -1: not reported */
  int       worst;            /* the same */
  int       threshold;        /* the same */
  int64_t   raw;              /* raw.value: the raw bytes as one number */
  char     *raw_string;       /* smartctl's rendering ("34 (Min/Max 20/45)") */
  char     *when_failed;      /* "", "past" or "now" */
  gboolean  prefailure;
  int64_t   count;            /* what a counter (5, 9, 187, 197, 198) holds,
                               * decoded as ds-health-range.c says; else
                               * DS_HEALTH_UNKNOWN */
  char     *not_plausible;    /* why its figures cannot be what the drive
                               * measured, or NULL */
  DsHealthVerdict status;     /* this attribute's own verdict */
} DsHealthAttribute;

typedef struct {
  gboolean critical_warning_known;  /* read, and a byte */
  unsigned critical_warning;  /* bits, NVMe 1.4 figure 194 */
  int64_t  media_errors;
  int64_t  percentage_used;
  int64_t  available_spare;
  int64_t  available_spare_threshold;
  int64_t  temperature_c;
  int64_t  sensors_c[8];
  guint    n_sensors;
  int64_t  power_on_hours;
  int64_t  power_cycles;
  int64_t  unsafe_shutdowns;
  int64_t  data_units_read;   /* units of 512 000 bytes */
  int64_t  data_units_written;
  int64_t  error_log_entries;
} DsHealthNvme;

typedef struct {
  int64_t  grown_defects;
  int64_t  trip_temperature_c;
  int64_t  read_uncorrected;
  int64_t  write_uncorrected;
} DsHealthScsi;

typedef struct {
  char     *type;             /* "Short offline", "Extended", ... */
  char     *status;           /* "Completed without error", ... */
  gboolean  passed;
  int64_t   hours;            /* power-on hours when it ran */
  int64_t   lba;              /* first failing LBA, or DS_HEALTH_UNKNOWN */
} DsHealthSelfTest;

typedef struct {
  /* The drive. */
  char     *device;           /* smartctl's device.name */
  char     *protocol;         /* "ATA", "NVMe", "SCSI" */
  char     *device_type;      /* smartctl's -d: "sat", "nvme", "scsi", ... */
  gboolean  behind_usb;       /* smartctl reached it through a USB bridge */
  char     *model;
  char     *serial;
  char     *firmware;
  uint64_t  capacity_bytes;
  uint64_t  sectors;          /* logical sectors, or 0: not known */
  int64_t   rotation_rate;    /* rpm; 0 for an SSD */

  char     *smartctl_version; /* "7.3" */
  int       exit_status;      /* smartctl's (bits: ds_health_exit_bits()) */
  GPtrArray *messages;        /* char*: smartctl's own messages */

  gboolean  smart_available;
  gboolean  smart_enabled;
  gboolean  has_overall;      /* smart_status.passed was reported */
  gboolean  overall_passed;
  int64_t   temperature_c;
  int64_t   power_on_hours;
  int64_t   power_cycles;
  int64_t   error_log_count;  /* ATA error log entries */

  GArray   *attributes;       /* DsHealthAttribute (ATA) */
  gboolean  has_nvme;
  DsHealthNvme nvme;
  gboolean  has_scsi;
  DsHealthScsi scsi;

  gboolean  self_test_running;
  int64_t   self_test_remaining_percent;
  char     *self_test_status;
  int64_t   short_test_minutes;
  int64_t   long_test_minutes;
  GPtrArray *self_tests;      /* DsHealthSelfTest*, newest first */

  /* What is there but could not be read, in words (the parser's). */
  GPtrArray *unreadable;      /* char* */

  /* ds_health_judge(). */
  DsHealthVerdict verdict;
  GPtrArray *reasons;         /* char*, worst first */
  GPtrArray *notes;           /* char*: worth knowing, not a warning */

  JsonNode *raw;              /* smartctl's whole output, kept for saving */
} DsHealth;

void        ds_health_free            (DsHealth        *health);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsHealth, ds_health_free)

/* Parses smartctl's JSON output (and judges it).  @exit_status is the
 * process's, or -1 to take smartctl.exit_status from the JSON.  Fails with
 * DS_ERROR_CORRUPT for output that is not smartctl's JSON, and with
 * DS_ERROR_UNSUPPORTED / DS_ERROR_PERMISSION / DS_ERROR_NOT_FOUND when
 * smartctl could not read the device (exit bits 0-1, no SMART), the
 * message saying why in plain words. */
DsHealth   *ds_health_parse           (const char      *json,
                                       gssize           length,
                                       int              exit_status,
                                       GError         **error);
DsHealth   *ds_health_parse_node      (JsonNode        *root,
                                       int              exit_status,
                                       GError         **error);

/* Fills verdict, reasons and notes (the rules above). */
void        ds_health_judge           (DsHealth        *health);

const char *ds_health_verdict_to_string (DsHealthVerdict verdict);
/* smartctl's exit-status bits in words, one string per bit set. */
GStrv       ds_health_exit_bits       (int              exit_status);
/* The NVMe critical-warning bits in words, one string per bit set. */
GStrv       ds_health_nvme_warning_bits (unsigned       critical_warning);

/* ds-health-range.c: TRUE when @value was reported and lies in @figure's
 * physical range. */
gboolean    ds_health_plausible       (DsHealthFigure   figure,
                                       int64_t          value);
/* Why @value cannot be a measured @figure, in words; NULL when it is
 * plausible or was not reported. */
const char *ds_health_implausible_why (DsHealthFigure   figure,
                                       int64_t          value);
/* @value as shown ("33 °C", "44668 h (5.1 years)", "unreadable"), without
 * a flag; NULL when not reported. */
char       *ds_health_figure_value    (DsHealthFigure   figure,
                                       int64_t          value);
/* The same, flagged when it is not plausible ("-273 °C (not plausible:
 * drives work at -40 to 125 °C)"); NULL when not reported. */
char       *ds_health_figure_text     (DsHealthFigure   figure,
                                       int64_t          value);

G_END_DECLS
