/* ds-random-access-compare.c: Random Access' rows, for a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-bench-random-access.h"
#include "ds-figures.h"
#include "ds-result.h"

static void
random_access_dir (DsFigures               *f,
                   const DsRandomAccessDir *dir,
                   gboolean                 write)
{
  const char *section = write ? "Random Access, write" : "Random Access, read";

  if (!dir->present)
    return;

  for (guint i = 0; dir->rows != NULL && i < dir->rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      g_autofree char *title = ds_random_access_row_title (row);
      g_autofree char *id = row->transfer_bytes ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->transfer_bytes)
                                                : g_strdup ("random");
      const struct { const char *fig, *measure; DsCompareUnit unit; gboolean hib; double v; } figs[] = {
        { "iops", "IOPS", DS_COMPARE_IOPS, TRUE, row->iops },
        { "avg_access", "avg. access time", DS_COMPARE_TIME, FALSE, row->avg_access_s },
        { "p99_access", "p99 access time", DS_COMPARE_TIME, FALSE, row->p99_s },
        { "max_access", "max. access time", DS_COMPARE_TIME, FALSE, row->max_access_s },
        { "rate", "avg. speed", DS_COMPARE_RATE, TRUE, row->bytes_per_s },
      };

      for (guint k = 0; k < G_N_ELEMENTS (figs); k++)
        {
          g_autofree char *key = g_strdup_printf ("%s.%s.%s", write ? "write" : "read", id, figs[k].fig);

          ds_figures_add (f, key, section, title, figs[k].measure, figs[k].unit, figs[k].hib,
                          row->ios > 0 ? figs[k].v : NAN);
        }
    }
}

void
ds_random_access_compare_rows (const DsResult *result,
                               DsFigures      *figures)
{
  const DsRandomAccessData *data = result->data;

  random_access_dir (figures, &data->read, FALSE);
  random_access_dir (figures, &data->write, TRUE);
}
