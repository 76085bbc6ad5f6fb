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
 *   good     - none of these.
 * Each rule that fires adds one plain sentence to the reasons, the worst
 * first.  The drive's error log holding records (bit 6) is a note, not a
 * warning: it often records old cable or power-loss errors.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
  DS_HEALTH_GOOD,
  DS_HEALTH_WARNING,
  DS_HEALTH_FAILING,
} DsHealthVerdict;

/* An unknown number (not reported by the drive). */
#define DS_HEALTH_UNKNOWN INT64_MIN

typedef struct {
  unsigned  id;
  char     *name;
  int       value;
  int       worst;
  int       threshold;
  int64_t   raw;
  char     *raw_string;       /* smartctl's rendering ("34 (Min/Max 20/45)") */
  char     *when_failed;      /* "", "past" or "now" */
  gboolean  prefailure;
  DsHealthVerdict status;     /* this attribute's own verdict */
} DsHealthAttribute;

typedef struct {
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
  char     *model;
  char     *serial;
  char     *firmware;
  uint64_t  capacity_bytes;
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

G_END_DECLS
