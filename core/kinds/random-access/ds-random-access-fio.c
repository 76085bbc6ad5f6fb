/* ds-random-access-fio.c: Random Access as a fio job, one section per row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-random-access.h"
#include "ds-fio-job.h"

gboolean
ds_random_access_fio_job (const DsResult *result,
                          DsFioJobFile   *job,
                          GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  uint64_t span = ds_fio_job_tested_span (result);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_RANDOM_ACCESS_DEFAULT_ROW_NS;
  const char *rnd = spec->write ? "randwrite" : "randread";

  ds_fio_job_header (job, result, job->filename, spec->write ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, ds_fio_job_engine (result, 1));
  ds_fio_job_kv (job, "iodepth", "1");
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      uint64_t bytes = ds_random_access_row_bytes (i);
      g_autofree char *name = bytes ? g_strdup_printf ("random-%" G_GUINT64_FORMAT, bytes)
                                    : g_strdup ("random-mixed");

      if (bytes != 0)
        ds_fio_job_row (job, name, rnd, MAX (bytes, lbs), 0, 0, span, row_ns, TRUE);
      else
        ds_fio_job_row (job, name, rnd, lbs, DS_RANDOM_ACCESS_MIXED_MAX_BYTES, 0, span, row_ns, TRUE);
    }
  (void) error;
  return TRUE;
}
