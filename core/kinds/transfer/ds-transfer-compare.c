/* ds-transfer-compare.c: the Benchmark's figures and curves, for a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-bench-transfer.h"
#include "ds-figures.h"
#include "ds-result.h"

/* The mean rate of the points (that did not fail) in each slice of the
 * tested capacity: what lets two disks of different sizes be compared
 * along their surface (outer tracks first on a disk). */
static void
transfer_bands (const DsTransferDir *dir,
                uint64_t             span_bytes,
                double               ret_mean[DS_TRANSFER_COMPARE_BANDS])
{
  double sum[DS_TRANSFER_COMPARE_BANDS] = { 0 };
  unsigned n[DS_TRANSFER_COMPARE_BANDS] = { 0 };

  for (guint i = 0; dir->points != NULL && i < dir->points->len && span_bytes > 0; i++)
    {
      const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);
      double f = (double) p->offset_bytes / (double) span_bytes;
      int band = (int) (f * DS_TRANSFER_COMPARE_BANDS);

      if (p->error != 0)
        continue;
      band = CLAMP (band, 0, DS_TRANSFER_COMPARE_BANDS - 1);
      sum[band] += p->bytes_per_s;
      n[band]++;
    }

  for (int b = 0; b < DS_TRANSFER_COMPARE_BANDS; b++)
    ret_mean[b] = n[b] > 0 ? sum[b] / n[b] : NAN;
}

static void
transfer_dir (DsFigures           *f,
              const DsTransferDir *dir,
              uint64_t             span_bytes,
              gboolean             write)
{
  const char *d = write ? "write" : "read";
  const char *section = write ? "Write transfer rate" : "Read transfer rate";
  double band[DS_TRANSFER_COMPARE_BANDS];
  char key[64];

  if (!dir->present)
    return;

#define KEY(fig) (g_snprintf (key, sizeof key, "%s.%s", d, fig), key)
  ds_figures_add (f, KEY ("transfer_min"), section, "Transfer Rate Minimum", "", DS_COMPARE_RATE, TRUE, dir->min_bytes_per_s);
  ds_figures_add (f, KEY ("transfer_max"), section, "Transfer Rate Maximum", "", DS_COMPARE_RATE, TRUE, dir->max_bytes_per_s);
  ds_figures_add (f, KEY ("transfer_avg"), section, "Transfer Rate Average", "", DS_COMPARE_RATE, TRUE, dir->avg_bytes_per_s);
  ds_figures_add (f, KEY ("access_time"), section, "Access Time", "", DS_COMPARE_TIME, FALSE, dir->access_time_s);
  ds_figures_add (f, KEY ("burst_rate"), section, "Burst Rate", "", DS_COMPARE_RATE, TRUE, dir->burst_bytes_per_s);
  ds_figures_add (f, KEY ("cpu_usage"), section, "CPU Usage", "", DS_COMPARE_PERCENT, FALSE, dir->cpu_percent);

  transfer_bands (dir, span_bytes, band);
  for (int i = 0; i < DS_TRANSFER_COMPARE_BANDS; i++)
    {
      unsigned from = (unsigned) (100 * i / DS_TRANSFER_COMPARE_BANDS);
      unsigned to = (unsigned) (100 * (i + 1) / DS_TRANSFER_COMPARE_BANDS);
      g_autofree char *fig = g_strdup_printf ("band_%u_%u", from, to);
      g_autofree char *name = g_strdup_printf ("Transfer Rate at %u–%u %%", from, to);

      ds_figures_add (f, KEY (fig), section, name, "", DS_COMPARE_RATE, TRUE, band[i]);
    }
#undef KEY
}

/* What the scan covered (its span, else the capacity asked). */
uint64_t
ds_transfer_compare_span (const DsResult *result)
{
  const DsTransferData *data = result->data;

  if (data != NULL && data->span_bytes > 0)
    return data->span_bytes;
  return ds_figures_tested_span (result);
}

void
ds_transfer_compare_rows (const DsResult *result,
                          DsFigures      *figures)
{
  const DsTransferData *data = result->data;

  transfer_dir (figures, &data->read, data->span_bytes, FALSE);
  transfer_dir (figures, &data->write, data->span_bytes, TRUE);
}

/* The curves as HD Tune draws them: the rate at each point's offset, and
 * the access-time dots, x in bytes from the start (the comparison turns x
 * into a fraction of each capacity when the capacities differ). */
void
ds_transfer_compare_curves (const DsResult *result,
                            DsCurves       *curves)
{
  const DsTransferData *data = result->data;

  for (int write = 0; write < 2; write++)
    {
      const DsTransferDir *dir = write ? &data->write : &data->read;
      DsCurveAxes rate = {
        .key = write ? "write" : "read", .title = write ? "Write transfer rate" : "Read transfer rate",
        .x_name = "position", .x_unit = DS_COMPARE_BYTES, .y_name = "transfer rate",
        .y_unit = DS_COMPARE_RATE,
      };
      DsCurveAxes access = {
        .key = write ? "write.access" : "read.access", .title = "Access time",
        .x_name = "position", .x_unit = DS_COMPARE_BYTES, .y_name = "access time",
        .y_unit = DS_COMPARE_TIME, .dots = TRUE,
      };
      g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));
      g_autoptr (GArray) dots = g_array_new (FALSE, FALSE, sizeof (DsCurveXY));

      if (!dir->present)
        continue;
      for (guint i = 0; dir->points != NULL && i < dir->points->len; i++)
        {
          const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);
          DsCurveXY xy = { (double) p->offset_bytes, p->error != 0 ? NAN : p->bytes_per_s };

          g_array_append_val (points, xy);
        }
      for (guint i = 0; dir->access != NULL && i < dir->access->len; i++)
        {
          const DsAccessPoint *a = &g_array_index (dir->access, DsAccessPoint, i);
          DsCurveXY xy = { (double) a->offset_bytes, (double) a->access_ns / 1e9 };

          g_array_append_val (dots, xy);
        }
      ds_curves_add (curves, &rate, (const DsCurveXY *) points->data, points->len, NAN, NULL);
      ds_curves_add (curves, &access, (const DsCurveXY *) dots->data, dots->len, NAN, NULL);
    }
}
