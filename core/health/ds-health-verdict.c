/* ds-health-verdict.c: the rules of ds-health.h, in plain words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-health.h"

const char *
ds_health_verdict_to_string (DsHealthVerdict verdict)
{
  switch (verdict)
    {
    case DS_HEALTH_GOOD: return "good";
    case DS_HEALTH_WARNING: return "warning";
    case DS_HEALTH_FAILING: return "failing";
    default: return "unknown";
    }
}

/* smartctl(8), "RETURN VALUES". */
static const char *const exit_bit_words[8] = {
  "the command line did not parse",
  "the device could not be opened or did not identify itself (or is asleep)",
  "a SMART or other command to the disk failed, or a SMART structure had a bad checksum",
  "the SMART status says DISK FAILING",
  "prefail attributes are at or below their thresholds",
  "some attributes were at or below their thresholds in the past",
  "the device error log contains records of errors",
  "the self-test log contains records of errors",
};

/* One string per bit of @bits set, from @words (bit 0 first). */
static GStrv
bits_in_words (unsigned           bits,
               const char *const *words,
               guint              n_words)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; i < n_words; i++)
    if (bits & (1u << i))
      g_strv_builder_add (b, words[i]);

  return g_strv_builder_end (b);
}

GStrv
ds_health_exit_bits (int exit_status)
{
  return bits_in_words ((unsigned) exit_status, exit_bit_words, G_N_ELEMENTS (exit_bit_words));
}

/* NVMe base specification, SMART / Health Information log, byte 0. */
static const char *const nvme_warning_words[8] = {
  "available spare space has fallen below the threshold",
  "temperature is above or below a threshold",
  "NVM subsystem reliability is degraded by media or internal errors",
  "the media has been placed in read-only mode",
  "volatile memory backup failed",
  "the persistent memory region has become read-only or unreliable",
  "reserved bit 6 is set",
  "reserved bit 7 is set",
};

GStrv
ds_health_nvme_warning_bits (unsigned critical_warning)
{
  return bits_in_words (critical_warning, nvme_warning_words, G_N_ELEMENTS (nvme_warning_words));
}

typedef struct {
  DsHealth  *h;
  GPtrArray *failing;
  GPtrArray *warning;
} Judge;

static void
say (Judge           *j,
     DsHealthVerdict  level,
     const char      *format,
     ...) G_GNUC_PRINTF (3, 4);

static void
say (Judge           *j,
     DsHealthVerdict  level,
     const char      *format,
     ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (level == DS_HEALTH_FAILING ? j->failing : j->warning,
                   g_strdup_vprintf (format, args));
  va_end (args);
}

/* The ATA counters that mean damaged media when above 0 (the ones drive
 * failure studies single out). */
static const struct {
  unsigned    id;
  const char *one;
  const char *many;
} counters[] = {
  { 5,   "reallocated sector",                  "reallocated sectors" },
  { 197, "sector pending reallocation",         "sectors pending reallocation" },
  { 198, "offline-uncorrectable sector",        "offline-uncorrectable sectors" },
  { 187, "uncorrectable error reported",        "uncorrectable errors reported" },
};

static void
judge_ata (Judge *j)
{
  DsHealth *h = j->h;

  for (guint i = 0; i < h->attributes->len; i++)
    {
      DsHealthAttribute *a = &g_array_index (h->attributes, DsHealthAttribute, i);

      a->status = DS_HEALTH_GOOD;
      if (g_strcmp0 (a->when_failed, "now") == 0)
        {
          a->status = DS_HEALTH_FAILING;
          say (j, DS_HEALTH_FAILING, _("%s (attribute %u) is at or below its threshold now "
               "(value %d, threshold %d)"), a->name, a->id, a->value, a->threshold);
          continue;
        }
      if (g_strcmp0 (a->when_failed, "past") == 0)
        {
          a->status = DS_HEALTH_WARNING;
          say (j, DS_HEALTH_WARNING, _("%s (attribute %u) was at or below its threshold in "
               "the past (worst %d, threshold %d)"), a->name, a->id, a->worst, a->threshold);
        }
      for (guint k = 0; k < G_N_ELEMENTS (counters); k++)
        if (a->id == counters[k].id && a->raw > 0)
          {
            a->status = MAX (a->status, DS_HEALTH_WARNING);
            say (j, DS_HEALTH_WARNING, "%" G_GINT64_FORMAT " %s", a->raw,
                 a->raw == 1 ? counters[k].one : counters[k].many);
          }
    }
}

static void
judge_nvme (Judge *j)
{
  DsHealthNvme *n = &j->h->nvme;
  g_auto (GStrv) bits = ds_health_nvme_warning_bits (n->critical_warning);

  for (guint i = 0; bits[i] != NULL; i++)
    say (j, DS_HEALTH_WARNING, _("NVMe critical warning: %s"), bits[i]);
  /* Bit 0 says the same as this rule: one sentence is enough. */
  if (!(n->critical_warning & 1) && n->available_spare != DS_HEALTH_UNKNOWN &&
      n->available_spare_threshold != DS_HEALTH_UNKNOWN &&
      n->available_spare < n->available_spare_threshold)
    say (j, DS_HEALTH_WARNING, _("available spare %" PRId64 " %% is below the "
         "threshold of %" PRId64 " %%"), n->available_spare, n->available_spare_threshold);
  if (n->percentage_used != DS_HEALTH_UNKNOWN && n->percentage_used >= 100)
    say (j, DS_HEALTH_WARNING, _("the rated endurance is used up (percentage used %"
         PRId64 " %%)"), n->percentage_used);
  if (n->media_errors != DS_HEALTH_UNKNOWN && n->media_errors > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " media and data integrity error%s"),
         n->media_errors, n->media_errors == 1 ? "" : "s");
}

static void
judge_scsi (Judge *j)
{
  DsHealth *h = j->h;
  DsHealthScsi *s = &h->scsi;
  int64_t read = s->read_uncorrected > 0 ? s->read_uncorrected : 0;
  int64_t write = s->write_uncorrected > 0 ? s->write_uncorrected : 0;

  if (s->grown_defects > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " grown defect%s (sectors the drive "
         "has remapped since it left the factory)"), s->grown_defects,
         s->grown_defects == 1 ? "" : "s");
  if (read + write > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " uncorrected error%s in the error "
         "counter log (read %" PRId64 ", write %" PRId64 ")"),
         read + write, read + write == 1 ? "" : "s", read, write);
  if (s->trip_temperature_c > 0 && h->temperature_c != DS_HEALTH_UNKNOWN &&
      h->temperature_c >= s->trip_temperature_c)
    say (j, DS_HEALTH_WARNING, _("temperature %" PRId64 " °C is at or above the "
         "drive's trip point of %" PRId64 " °C"), h->temperature_c,
         s->trip_temperature_c);
}

void
ds_health_judge (DsHealth *h)
{
  g_autoptr (GPtrArray) failing = g_ptr_array_new ();
  g_autoptr (GPtrArray) warning = g_ptr_array_new ();
  Judge j = { .h = h, .failing = failing, .warning = warning };

  g_ptr_array_set_size (h->reasons, 0);
  g_ptr_array_set_size (h->notes, 0);

  if (h->has_overall && !h->overall_passed)
    say (&j, DS_HEALTH_FAILING, _("the drive's SMART overall-health self-assessment failed"));
  if (!h->smart_enabled)
    say (&j, DS_HEALTH_WARNING, _("SMART is disabled on the drive: its health is not being "
         "tracked (smartctl -s on %s turns it on)"), h->device ? h->device : "DEVICE");

  judge_ata (&j);
  if (h->has_nvme)
    judge_nvme (&j);
  if (h->has_scsi)
    judge_scsi (&j);

  if (h->self_tests->len > 0)
    {
      const DsHealthSelfTest *last = h->self_tests->pdata[0];

      if (!last->passed && !h->self_test_running)
        say (&j, DS_HEALTH_WARNING, _("the last self-test (%s) failed: %s"), last->type, last->status);
    }

  /* smartctl's own bits, where the data above did not already say so. */
  if ((h->exit_status & (1 << 3)) && !(h->has_overall && !h->overall_passed))
    say (&j, DS_HEALTH_FAILING, _("smartctl reports the SMART status as DISK FAILING"));
  if ((h->exit_status & (1 << 4)) && failing->len == 0)
    say (&j, DS_HEALTH_FAILING, _("smartctl reports prefail attributes at or below their thresholds"));
  if ((h->exit_status & (1 << 5)) && warning->len == 0 && failing->len == 0)
    say (&j, DS_HEALTH_WARNING, _("smartctl reports attributes that were at or below their "
         "thresholds in the past"));
  if ((h->exit_status & (1 << 7)) && (h->self_tests->len == 0 ||
                                      ((const DsHealthSelfTest *) h->self_tests->pdata[0])->passed))
    say (&j, DS_HEALTH_WARNING, _("the self-test log records failed self-tests"));

  if (h->exit_status & (1 << 2))
    g_ptr_array_add (h->notes, g_strdup ("a SMART command failed or a SMART structure had a "
                                         "bad checksum: some figures may be missing"));
  if (h->exit_status & (1 << 6))
    {
      if (h->error_log_count > 0)
        g_ptr_array_add (h->notes, g_strdup_printf ("the drive's error log holds %" G_GINT64_FORMAT
                                                    " record%s (often old cable or power-loss "
                                                    "errors; smartctl -l error lists them)",
                                                    h->error_log_count,
                                                    h->error_log_count == 1 ? "" : "s"));
      else
        g_ptr_array_add (h->notes, g_strdup ("the drive's error log holds records (often old "
                                             "cable or power-loss errors; smartctl -l error "
                                             "lists them)"));
    }

  h->verdict = failing->len > 0 ? DS_HEALTH_FAILING :
               warning->len > 0 ? DS_HEALTH_WARNING : DS_HEALTH_GOOD;
  for (guint i = 0; i < failing->len; i++)
    g_ptr_array_add (h->reasons, failing->pdata[i]);
  for (guint i = 0; i < warning->len; i++)
    g_ptr_array_add (h->reasons, warning->pdata[i]);
}
