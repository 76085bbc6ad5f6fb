/* ds-block-size-fio.c: the block-size table as a fio job, one section per
 * size (also the File Benchmark's)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-block-size.h"
#include "ds-fio-job.h"

void
ds_block_size_fio_sections (DsFioJobFile *job,
                            uint64_t      span,
                            uint64_t      row_ns,
                            gboolean      read,
                            gboolean      write,
                            uint64_t      lbs)
{
  for (int pass = 0; pass < 2; pass++)
    {
      if ((pass == 0 && !read) || (pass == 1 && !write))
        continue;
      for (uint64_t bs = DS_BLOCK_SIZE_MIN_BYTES; bs <= DS_BLOCK_SIZE_MAX_BYTES; bs *= 2)
        {
          g_autofree char *name = g_strdup_printf ("block-size-%s-%" G_GUINT64_FORMAT,
                                                   pass ? "write" : "read", bs);

          if (bs < lbs || bs > span)
            continue;
          ds_fio_job_row (job, name, pass ? "write" : "read", bs, 0, 0,
                          ds_fio_job_align_down (span, bs), row_ns, TRUE);
        }
    }
}

gboolean
ds_block_size_fio_job (const DsResult *result,
                       DsFioJobFile   *job,
                       GError        **error)
{
  const DsBenchSpec *spec = &result->spec;

  ds_fio_job_header (job, result, job->filename, spec->write ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, ds_fio_job_engine (result, 1));
  ds_fio_job_kv (job, "iodepth", "1");
  ds_block_size_fio_sections (job, ds_fio_job_tested_span (result),
                              spec->duration_ns ? spec->duration_ns : DS_BLOCK_SIZE_DEFAULT_ROW_NS,
                              TRUE, spec->write, MAX (result->target.logical_block_size, 512u));
  (void) error;
  return TRUE;
}
