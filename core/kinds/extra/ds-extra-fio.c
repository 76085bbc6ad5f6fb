/* ds-extra-fio.c: Extra Tests as a fio job, one section per row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-extra.h"
#include "ds-fio-job.h"

gboolean
ds_extra_fio_job (const DsResult *result,
                  DsFioJobFile   *job,
                  GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  gboolean w = spec->write;
  uint64_t span = ds_fio_job_tested_span (result);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_EXTRA_DEFAULT_ROW_NS;
  uint64_t zone = MAX (ds_fio_job_align_down (span / DS_EXTRA_ZONE_DIVISOR, DS_EXTRA_SEQUENTIAL_BYTES),
                       (uint64_t) DS_EXTRA_SEQUENTIAL_BYTES);
  const char *seq = w ? "write" : "read";
  const char *rnd = w ? "randwrite" : "randread";

  ds_fio_job_header (job, result, job->filename, w ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, ds_fio_job_engine (result, 1));
  ds_fio_job_kv (job, "iodepth", "1");

  ds_fio_job_row (job, "random_seek", rnd, lbs, 0, 0, span, row_ns, TRUE);
  ds_fio_job_row (job, "random_seek_4k", rnd, MAX ((uint64_t) 4096, lbs), 0, 0, span, row_ns, TRUE);
  g_string_append (job->out, "\n; butterfly_seek (outer and inner edge alternately, closing in) has no "
                   "fio pattern: left out\n");
  ds_fio_job_row (job, "random_seek_64k", rnd, lbs, MAX ((uint64_t) 65536, lbs), 0, span, row_ns, TRUE);
  ds_fio_job_row (job, "random_seek_8m", rnd, lbs, MIN ((uint64_t) 8 << 20, span), 0, span, row_ns, TRUE);
  ds_fio_job_row (job, "sequential_outer", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0, 0, zone, row_ns, TRUE);
  ds_fio_job_row (job, "sequential_middle", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0,
                  ds_fio_job_align_down (span / 2 - zone / 2, lbs), zone, row_ns, TRUE);
  ds_fio_job_row (job, "sequential_inner", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0, span - zone, zone, row_ns, TRUE);
  ds_fio_job_row (job, "burst_rate", seq, DS_EXTRA_BURST_BYTES, 0, 0, DS_EXTRA_BURST_REGION_BYTES, row_ns, TRUE);
  (void) error;
  return TRUE;
}
