/* ds-health-verdict.c: the rules of ds-health.h, in plain words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-health-private.h"

const char *
ds_health_verdict_to_string (DsHealthVerdict verdict)
{
  switch (verdict)
    {
    case DS_HEALTH_GOOD: return "good";
    case DS_HEALTH_UNDETERMINED: return "unknown";
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
  GPtrArray *unknown;         /* what could not be judged, and why */
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
  g_ptr_array_add (level == DS_HEALTH_FAILING ? j->failing :
                   level == DS_HEALTH_WARNING ? j->warning : j->unknown,
                   g_strdup_vprintf (format, args));
  va_end (args);
}

/* A figure a rule reads (@label, as the reason says it): TRUE when the
 * rule may read it; when it was reported but is not plausible, the rule
 * cannot be checked, which is said. */
static gboolean
judged (Judge          *j,
        const char     *label,
        DsHealthFigure  figure,
        int64_t         value)
{
  g_autofree char *text = NULL;

  if (value == DS_HEALTH_UNKNOWN)
    return FALSE;
  if (ds_health_plausible (figure, value))
    return TRUE;
  text = ds_health_figure_text (figure, value);
  /* Translators: a figure's name, then its value flagged as not plausible */
  say (j, DS_HEALTH_UNDETERMINED, _("%s cannot be judged: %s"), label, text);
  return FALSE;
}

/* A figure only shown: noted when not plausible. */
static void
shown (Judge          *j,
       const char     *label,
       DsHealthFigure  figure,
       int64_t         value)
{
  g_autofree char *text = NULL;

  if (value == DS_HEALTH_UNKNOWN || ds_health_plausible (figure, value))
    return;
  text = ds_health_figure_text (figure, value);
  /* Translators: a figure's name, then its value flagged as not plausible */
  g_ptr_array_add (j->h->notes, g_strdup_printf (_("%s: %s; it is shown flagged and judges "
                                                   "nothing"), label, text));
}

/* The ATA counters that mean damaged media when above 0 (the ones drive
 * failure studies single out); their counts are decoded from the raw
 * value in ds-health-range.c. */
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
        if (a->id == counters[k].id && a->count != DS_HEALTH_UNKNOWN && a->count > 0)
          {
            a->status = MAX (a->status, DS_HEALTH_WARNING);
            say (j, DS_HEALTH_WARNING, "%" G_GINT64_FORMAT " %s", a->count,
                 a->count == 1 ? counters[k].one : counters[k].many);
          }
      if (a->not_plausible != NULL)
        {
          a->status = MAX (a->status, DS_HEALTH_UNDETERMINED);
          say (j, DS_HEALTH_UNDETERMINED, _("%s (attribute %u) cannot be judged: %s"),
               a->name, a->id, a->not_plausible);
        }
    }
}

static void
judge_nvme (Judge *j)
{
  DsHealthNvme *n = &j->h->nvme;
  g_auto (GStrv) bits = ds_health_nvme_warning_bits (n->critical_warning);
  gboolean spare = judged (j, _("the NVMe available spare"), DS_HEALTH_PERCENT, n->available_spare);
  gboolean spare_threshold = judged (j, _("the NVMe available spare threshold"), DS_HEALTH_PERCENT,
                                     n->available_spare_threshold);

  for (guint i = 0; bits[i] != NULL; i++)
    say (j, DS_HEALTH_WARNING, _("NVMe critical warning: %s"), bits[i]);
  /* Bit 0 says the same as this rule: one sentence is enough. */
  if (!(n->critical_warning & 1) && spare && spare_threshold &&
      n->available_spare < n->available_spare_threshold)
    say (j, DS_HEALTH_WARNING, _("available spare %" PRId64 " %% is below the "
         "threshold of %" PRId64 " %%"), n->available_spare, n->available_spare_threshold);
  if (judged (j, _("the NVMe percentage used"), DS_HEALTH_PERCENT_USED, n->percentage_used) &&
      n->percentage_used >= 100)
    say (j, DS_HEALTH_WARNING, _("the rated endurance is used up (percentage used %"
         PRId64 " %%)"), n->percentage_used);
  if (judged (j, _("the NVMe media errors"), DS_HEALTH_COUNT, n->media_errors) &&
      n->media_errors > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " media and data integrity error%s"),
         n->media_errors, n->media_errors == 1 ? "" : "s");

  shown (j, _("NVMe unsafe shutdowns"), DS_HEALTH_COUNT, n->unsafe_shutdowns);
  shown (j, _("NVMe error log entries"), DS_HEALTH_COUNT, n->error_log_entries);
  shown (j, _("NVMe data units read"), DS_HEALTH_DATA_UNITS, n->data_units_read);
  shown (j, _("NVMe data units written"), DS_HEALTH_DATA_UNITS, n->data_units_written);
  for (guint i = 0; i < n->n_sensors; i++)
    shown (j, _("an NVMe temperature sensor"), DS_HEALTH_TEMPERATURE, n->sensors_c[i]);
}

static void
judge_scsi (Judge *j)
{
  DsHealth *h = j->h;
  DsHealthScsi *s = &h->scsi;
  gboolean read = judged (j, _("the SCSI uncorrected read errors"), DS_HEALTH_COUNT,
                          s->read_uncorrected);
  gboolean write = judged (j, _("the SCSI uncorrected write errors"), DS_HEALTH_COUNT,
                           s->write_uncorrected);
  int64_t errors = (read ? s->read_uncorrected : 0) + (write ? s->write_uncorrected : 0);

  if (judged (j, _("the SCSI grown defects"), DS_HEALTH_COUNT, s->grown_defects) &&
      s->grown_defects > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " grown defect%s (sectors the drive "
         "has remapped since it left the factory)"), s->grown_defects,
         s->grown_defects == 1 ? "" : "s");
  if (errors > 0)
    say (j, DS_HEALTH_WARNING, _("%" PRId64 " uncorrected error%s in the error "
         "counter log (read %" PRId64 ", write %" PRId64 ")"),
         errors, errors == 1 ? "" : "s", read ? s->read_uncorrected : 0,
         write ? s->write_uncorrected : 0);
  shown (j, _("the drive's trip temperature"), DS_HEALTH_TEMPERATURE, s->trip_temperature_c);
  if (ds_health_plausible (DS_HEALTH_TEMPERATURE, s->trip_temperature_c) &&
      s->trip_temperature_c > 0 && ds_health_plausible (DS_HEALTH_TEMPERATURE, h->temperature_c) &&
      h->temperature_c >= s->trip_temperature_c)
    say (j, DS_HEALTH_WARNING, _("temperature %" PRId64 " °C is at or above the "
         "drive's trip point of %" PRId64 " °C"), h->temperature_c,
         s->trip_temperature_c);
}

/* What "good" needs (ds-health.h): TRUE when @h holds it. */
static gboolean
has_evidence (const DsHealth *h)
{
  const DsHealthScsi *s = &h->scsi;

  return (h->has_overall && h->overall_passed) ||
         h->attributes->len > 0 ||
         (h->has_nvme && h->nvme.critical_warning_known) ||
         (h->has_scsi && (ds_health_plausible (DS_HEALTH_COUNT, s->grown_defects) ||
                          ds_health_plausible (DS_HEALTH_COUNT, s->read_uncorrected) ||
                          ds_health_plausible (DS_HEALTH_COUNT, s->write_uncorrected)));
}

static void
judge_evidence (Judge *j)
{
  DsHealth *h = j->h;
  const char *hint = h->behind_usb ?
    _(": a USB bridge may hide the drive's SMART data (smartctl's -d option names the "
      "bridge's type: -d sat, -d usbjmicron, -d sntjmicron ...)") : "";

  if (!has_evidence (h))
    {
      if (h->exit_status & (1 << 2))
        say (j, DS_HEALTH_UNDETERMINED, _("smartctl could not read the drive's SMART data (a "
             "SMART command failed: exit bit 2), and its output holds no self-assessment, "
             "attribute table or health log to judge%s"), hint);
      else if (g_strcmp0 (h->protocol, "SCSI") == 0)
        say (j, DS_HEALTH_UNDETERMINED, _("the SCSI device reports no health data: no SMART "
             "health status, grown-defect list or error counter log%s"), hint);
      else
        say (j, DS_HEALTH_UNDETERMINED, _("smartctl's output holds no health data: no "
             "self-assessment, attribute table or health log to judge%s"), hint);
      return;
    }

  /* The self-assessment alone: the drive vouches for itself. */
  if (g_strcmp0 (h->protocol, "ATA") == 0 && h->attributes->len == 0)
    g_ptr_array_add (h->notes, g_strdup (_("the attribute table was not read: the verdict "
                                           "rests on the drive's own self-assessment")));
  if (g_strcmp0 (h->protocol, "NVMe") == 0 && !h->has_nvme)
    g_ptr_array_add (h->notes, g_strdup (_("the NVMe health log was not read: the verdict "
                                           "rests on the drive's own self-assessment")));
}

/* smartctl's own bits, where the data did not already say so. */
static void
judge_exit_bits (Judge *j)
{
  DsHealth *h = j->h;

  if ((h->exit_status & (1 << 3)) && !(h->has_overall && !h->overall_passed))
    say (j, DS_HEALTH_FAILING, _("smartctl reports the SMART status as DISK FAILING"));
  if ((h->exit_status & (1 << 4)) && j->failing->len == 0)
    say (j, DS_HEALTH_FAILING, _("smartctl reports prefail attributes at or below their thresholds"));
  if ((h->exit_status & (1 << 5)) && j->warning->len == 0 && j->failing->len == 0)
    say (j, DS_HEALTH_WARNING, _("smartctl reports attributes that were at or below their "
         "thresholds in the past"));
  if ((h->exit_status & (1 << 7)) && (h->self_tests->len == 0 ||
                                      ((const DsHealthSelfTest *) h->self_tests->pdata[0])->passed))
    say (j, DS_HEALTH_WARNING, _("the self-test log records failed self-tests"));

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
}

void
ds_health_judge (DsHealth *h)
{
  g_autoptr (GPtrArray) failing = g_ptr_array_new ();
  g_autoptr (GPtrArray) warning = g_ptr_array_new ();
  g_autoptr (GPtrArray) unknown = g_ptr_array_new ();
  Judge j = { .h = h, .failing = failing, .warning = warning, .unknown = unknown };

  g_ptr_array_set_size (h->reasons, 0);
  g_ptr_array_set_size (h->notes, 0);

  if (h->has_overall && !h->overall_passed)
    say (&j, DS_HEALTH_FAILING, _("the drive's SMART overall-health self-assessment failed"));
  if (!h->smart_enabled)
    say (&j, DS_HEALTH_WARNING, _("SMART is disabled on the drive: its health is not being "
         "tracked (smartctl -s on %s turns it on)"), h->device ? h->device : "DEVICE");
  for (guint i = 0; i < h->unreadable->len; i++)
    say (&j, DS_HEALTH_UNDETERMINED, "%s", (const char *) h->unreadable->pdata[i]);

  judge_ata (&j);
  if (h->has_nvme)
    judge_nvme (&j);
  if (h->has_scsi)
    judge_scsi (&j);
  judge_evidence (&j);

  if (h->self_tests->len > 0)
    {
      const DsHealthSelfTest *last = h->self_tests->pdata[0];

      if (!last->passed && !h->self_test_running)
        say (&j, DS_HEALTH_WARNING, _("the last self-test (%s) failed: %s"), last->type, last->status);
    }
  judge_exit_bits (&j);

  shown (&j, _("the temperature"), DS_HEALTH_TEMPERATURE, h->temperature_c);
  shown (&j, _("the power-on time"), DS_HEALTH_HOURS, h->power_on_hours);
  shown (&j, _("the power cycles"), DS_HEALTH_COUNT, h->power_cycles);
  shown (&j, _("the error log entries"), DS_HEALTH_COUNT, h->error_log_count);
  shown (&j, _("the rotation rate"), DS_HEALTH_ROTATION, h->rotation_rate);

  h->verdict = failing->len > 0 ? DS_HEALTH_FAILING :
               warning->len > 0 ? DS_HEALTH_WARNING :
               unknown->len > 0 ? DS_HEALTH_UNDETERMINED : DS_HEALTH_GOOD;
  g_ptr_array_extend_and_steal (h->reasons, g_steal_pointer (&failing));
  g_ptr_array_extend_and_steal (h->reasons, g_steal_pointer (&warning));
  g_ptr_array_extend_and_steal (h->reasons, g_steal_pointer (&unknown));
}
