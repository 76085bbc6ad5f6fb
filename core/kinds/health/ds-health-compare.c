/* ds-health-compare.c: Health results side by side: the same drive over
 * time, or different drives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each figure is a row, keyed by what it is (the ATA attribute's id, the
 * NVMe field), so the same drive read twice shows by how much each
 * attribute changed in the ratio column; each column's note names the
 * drive (model, serial) and its verdict, so whether they are one drive is
 * read off the notes.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-health.h"
#include "ds-figures.h"
#include "ds-health.h"
#include "ds-result.h"

static double
known (int64_t v)
{
  return v == DS_HEALTH_UNKNOWN || v < 0 ? NAN : (double) v;
}

static void
nvme_rows (DsFigures          *f,
           const DsHealthNvme *n)
{
  const char *s = "Health, NVMe";

  ds_figures_add (f, "nvme.media_errors", s, "Media errors", "", DS_COMPARE_COUNT, FALSE, known (n->media_errors));
  ds_figures_add (f, "nvme.percentage_used", s, "Percentage used", "", DS_COMPARE_COUNT, FALSE,
                  known (n->percentage_used));
  ds_figures_add (f, "nvme.available_spare", s, "Available spare", "%", DS_COMPARE_COUNT, TRUE,
                  known (n->available_spare));
  ds_figures_add (f, "nvme.unsafe_shutdowns", s, "Unsafe shutdowns", "", DS_COMPARE_COUNT, FALSE,
                  known (n->unsafe_shutdowns));
  ds_figures_add (f, "nvme.error_log_entries", s, "Error log entries", "", DS_COMPARE_COUNT, FALSE,
                  known (n->error_log_entries));
  ds_figures_add (f, "nvme.data_written", s, "Data written", "", DS_COMPARE_BYTES, FALSE,
                  isnan (known (n->data_units_written)) ? NAN : known (n->data_units_written) * 512000.0);
  ds_figures_add (f, "nvme.data_read", s, "Data read", "", DS_COMPARE_BYTES, FALSE,
                  isnan (known (n->data_units_read)) ? NAN : known (n->data_units_read) * 512000.0);
}

void
ds_health_compare_rows (const DsResult *result,
                        DsFigures      *f)
{
  const DsHealthData *data = result->data;
  const DsHealth *h = data->health;
  g_autofree char *who = NULL;

  if (h == NULL)
    return;

  ds_figures_add (f, "verdict", "Health", "Verdict", "0 good, higher worse", DS_COMPARE_COUNT, FALSE,
                  (double) h->verdict);
  ds_figures_add (f, "temperature", "Health", "Temperature", "°C", DS_COMPARE_COUNT, FALSE,
                  known (h->temperature_c));
  ds_figures_add (f, "power_on_hours", "Health", "Power-on hours", "", DS_COMPARE_COUNT, FALSE,
                  known (h->power_on_hours));
  ds_figures_add (f, "power_cycles", "Health", "Power cycles", "", DS_COMPARE_COUNT, FALSE,
                  known (h->power_cycles));
  ds_figures_add (f, "error_log_count", "Health", "Error log entries", "", DS_COMPARE_COUNT, FALSE,
                  known (h->error_log_count));

  for (guint i = 0; h->attributes != NULL && i < h->attributes->len; i++)
    {
      const DsHealthAttribute *a = &g_array_index (h->attributes, DsHealthAttribute, i);
      g_autofree char *name = g_strdup_printf ("%u %s", a->id, a->name ? a->name : "?");
      g_autofree char *k_raw = g_strdup_printf ("ata.%u.raw", a->id);
      g_autofree char *k_value = g_strdup_printf ("ata.%u.value", a->id);

      ds_figures_add (f, k_value, "Health, ATA attributes", name, "normalized", DS_COMPARE_COUNT, TRUE,
                      a->value >= 0 ? (double) a->value : NAN);
      ds_figures_add (f, k_raw, "Health, ATA attributes", name,
                      a->count != DS_HEALTH_UNKNOWN ? "count" : "raw", DS_COMPARE_COUNT, FALSE,
                      a->count != DS_HEALTH_UNKNOWN ? known (a->count) : known (a->raw));
    }
  if (h->has_nvme)
    nvme_rows (f, &h->nvme);
  if (h->has_scsi)
    {
      ds_figures_add (f, "scsi.grown_defects", "Health, SCSI", "Grown defects", "", DS_COMPARE_COUNT, FALSE,
                      known (h->scsi.grown_defects));
      ds_figures_add (f, "scsi.read_uncorrected", "Health, SCSI", "Uncorrected reads", "", DS_COMPARE_COUNT,
                      FALSE, known (h->scsi.read_uncorrected));
      ds_figures_add (f, "scsi.write_uncorrected", "Health, SCSI", "Uncorrected writes", "", DS_COMPARE_COUNT,
                      FALSE, known (h->scsi.write_uncorrected));
    }

  who = g_strdup_printf ("%s, serial %s: %s%s%s", h->model ? h->model : "unknown model",
                         h->serial ? h->serial : "unknown", ds_health_verdict_to_string (h->verdict),
                         h->reasons != NULL && h->reasons->len > 0 ? " — " : "",
                         h->reasons != NULL && h->reasons->len > 0 ? (const char *) h->reasons->pdata[0] : "");
  ds_figures_note (f, who);
}

/* The drive: its serial (with its model, since two makers' serials may
 * collide); NULL when smartctl read no serial. */
char *
ds_health_compare_identity (const DsResult *result)
{
  const DsHealthData *data = result->data;
  const DsHealth *h = data != NULL ? data->health : NULL;

  if (h == NULL || h->serial == NULL || *h->serial == '\0')
    return NULL;
  return g_strdup_printf ("%s, serial %s", h->model ? h->model : "?", h->serial);
}
