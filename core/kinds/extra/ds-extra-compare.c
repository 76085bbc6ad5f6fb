/* ds-extra-compare.c: Extra Tests' rows, for a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-extra.h"
#include "ds-figures.h"
#include "ds-result.h"

static void
extra_dir (DsFigures *f,
           GArray    *rows,
           gboolean   write)
{
  const char *section = write ? "Extra Tests, write" : "Extra Tests, read";
  const char *d = write ? "write" : "read";

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);
      const char *name = ds_extra_row_name (row->row);
      const char *title = ds_extra_row_title (row->row);
      g_autofree char *k_iops = g_strdup_printf ("%s.%s.iops", d, name);
      g_autofree char *k_time = g_strdup_printf ("%s.%s.access_time", d, name);
      g_autofree char *k_rate = g_strdup_printf ("%s.%s.rate", d, name);

      if (name == NULL)
        continue;
      ds_figures_add (f, k_iops, section, title, "IOPS", DS_COMPARE_IOPS, TRUE, row->iops);
      ds_figures_add (f, k_time, section, title, "access time", DS_COMPARE_TIME, FALSE, row->access_time_s);
      ds_figures_add (f, k_rate, section, title, "rate", DS_COMPARE_RATE, TRUE, row->bytes_per_s);
    }
}

void
ds_extra_compare_rows (const DsResult *result,
                       DsFigures      *figures)
{
  const DsExtraData *data = result->data;

  if (data->read_present)
    extra_dir (figures, data->read, FALSE);
  if (data->write_present)
    extra_dir (figures, data->write, TRUE);
}
