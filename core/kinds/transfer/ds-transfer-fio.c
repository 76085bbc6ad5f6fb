/* ds-transfer-fio.c: the Benchmark as a fio job, one section per point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-transfer.h"
#include "ds-fio-job.h"

gboolean
ds_transfer_fio_job (const DsResult *result,
                     DsFioJobFile   *job,
                     GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  const char *rw = spec->write ? "write" : "read";
  uint64_t block = spec->block_size_bytes;
  /* The span the run spread its points over: the capacity tested in
   * whole blocks, as ds_transfer_run() takes it. */
  uint64_t span = ds_fio_job_align_down (ds_fio_job_tested_span (result), block);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t point_ns = ds_bench_accuracy_point_ns (spec->accuracy);
  uint64_t segment = MAX (ds_fio_job_align_down (span / DS_BENCH_TRANSFER_POINTS, block), block);

  ds_fio_job_header (job, result, job->filename, spec->write ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, ds_fio_job_engine (result, 1));
  ds_fio_job_kv (job, "iodepth", "1");
  ds_fio_job_comment (job, "%d points across %" G_GUINT64_FORMAT " bytes: each reads its "
                      "segment sequentially for %" G_GUINT64_FORMAT " ms at most",
                      DS_BENCH_TRANSFER_POINTS, span, point_ns / 1000000);

  for (unsigned i = 0; i < DS_BENCH_TRANSFER_POINTS && span >= block; i++)
    {
      uint64_t offset = ds_fio_job_align_down ((span - segment) * i / (DS_BENCH_TRANSFER_POINTS - 1), block);
      g_autofree char *name = g_strdup_printf ("point-%03u", i);

      /* Ours reads one block first, untimed (positioning), then times the
       * rest of the segment. */
      ds_fio_job_row (job, name, rw, block, 0, offset + (segment > block ? block : 0),
                      segment > block ? segment - block : block, point_ns, FALSE);
    }

  ds_fio_job_row (job, "access-time", spec->write ? "randwrite" : "randread", lbs, 0, 0, span,
                  point_ns * DS_TRANSFER_ACCESS_BUDGET_POINTS, FALSE);
  ds_fio_job_kv (job, "number_ios", "%" G_GUINT64_FORMAT,
                 (uint64_t) DS_TRANSFER_ACCESS_IOS_BASE << (MAX (spec->accuracy, 1u) - 1));
  ds_fio_job_row (job, "burst-rate", rw, block, 0, 0, block,
                  point_ns * DS_TRANSFER_BURST_BUDGET_POINTS, TRUE);
  (void) error;
  return TRUE;
}
