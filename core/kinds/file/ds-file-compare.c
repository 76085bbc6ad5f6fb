/* ds-file-compare.c: the File Benchmark's rows, for a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-figures.h"
#include "ds-result.h"

void
ds_file_compare_rows (const DsResult *result,
                      DsFigures      *f)
{
  const DsFileData *data = result->data;
  const char *section = "File Benchmark";

  ds_figures_add (f, "sequential_read", section, "Sequential read", "", DS_COMPARE_RATE, TRUE,
                  data->sequential_read_bytes_per_s);
  ds_figures_add (f, "sequential_write", section, "Sequential write", "", DS_COMPARE_RATE, TRUE,
                  data->sequential_write_bytes_per_s);
  ds_figures_add (f, "random_read", section, "Random read", "", DS_COMPARE_IOPS, TRUE, data->random_read_iops);
  ds_figures_add (f, "random_write", section, "Random write", "", DS_COMPARE_IOPS, TRUE, data->random_write_iops);
  ds_figures_add (f, "random_read_qd32", section, "Random read (queue depth = 32)", "", DS_COMPARE_IOPS, TRUE,
                  data->random_read_qd32_iops);
  ds_figures_add (f, "random_write_qd32", section, "Random write (queue depth = 32)", "", DS_COMPARE_IOPS, TRUE,
                  data->random_write_qd32_iops);
  ds_block_size_compare_table (f, data->block_size, "block_size.", "File Benchmark block size");
}
