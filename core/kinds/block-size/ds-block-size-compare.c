/* ds-block-size-compare.c: the block-size table's rows, for a comparison
 * (also the File Benchmark's)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-block-size.h"
#include "ds-figures.h"
#include "ds-result.h"

void
ds_block_size_compare_table (DsFigures  *f,
                             GArray     *rows,
                             const char *prefix,
                             const char *section_prefix)
{
  for (int pass = 0; pass < 2; pass++)
    {
      gboolean write = pass == 1;
      g_autofree char *section = g_strdup_printf ("%s, %s speed", section_prefix,
                                                  write ? "write" : "read");

      for (guint i = 0; rows != NULL && i < rows->len; i++)
        {
          const DsBlockSizeRow *row = &g_array_index (rows, DsBlockSizeRow, i);
          double v = write ? row->write_bytes_per_s : row->read_bytes_per_s;
          g_autofree char *name = ds_block_size_format (row->block_bytes);
          g_autofree char *key = g_strdup_printf ("%s%s.%" G_GUINT64_FORMAT, prefix,
                                                  write ? "write" : "read", row->block_bytes);

          if (v < 0)
            continue;
          ds_figures_add (f, key, section, name, "", DS_COMPARE_RATE, TRUE, v);
        }
    }
}

void
ds_block_size_compare_rows (const DsResult *result,
                            DsFigures      *figures)
{
  const DsBlockSizeData *data = result->data;

  ds_block_size_compare_table (figures, data->rows, "", "Block Size");
}
