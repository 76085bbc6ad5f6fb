/* ds-sustain-fio.c: Sustained Write as a fio job: one size-bounded (and
 * time-bounded, when the run was) write over the region, and the
 * recovery write after the pause
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio's write_bw_log gives the rate over time to find the cliff in: the
 * job says how to ask for it (it writes files where fio runs, so the job
 * does not do it by itself).
 */
#include "config.h"

#include "ds-bench-sustain.h"
#include "ds-bench-workload.h"
#include "ds-fio-job.h"

gboolean
ds_sustain_fio_job (const DsResult *result,
                    DsFioJobFile   *job,
                    GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  const DsSustainData *data = result->data;
  uint64_t pause_ns = ds_sustain_options_const (spec)->pause_ns;
  unsigned depth = MAX (spec->queue_depth, 1u);
  unsigned threads = MAX (spec->threads, 1u);
  DsFioEngine engine = ds_fio_job_engine (result, depth);
  DsPattern pattern = data != NULL && data->random ? DS_PATTERN_RANDWRITE : DS_PATTERN_WRITE;
  uint64_t region = data != NULL && data->region_bytes > 0 ? data->region_bytes
                                                           : ds_fio_job_region (result, spec->block_size_bytes);

  if (region == 0)
    return ds_fio_job_refuse (error, "a Sustained Write result without its region",
                              "it does not say how much it wrote");

  ds_fio_job_header (job, result, job->filename, DS_FIO_JOB_WRITES);
  ds_fio_job_global (job, result, job->filename, engine);
  ds_fio_job_comment (job, "one pass over %" G_GUINT64_FORMAT " bytes%s", region,
                      spec->duration_ns > 0 ? ", or the run's time if that ends first" : "");

  ds_workload_fio_section (job, "sustain", spec, pattern, spec->block_size_bytes, 100, FALSE);
  ds_fio_job_depth (job, engine, depth, threads);
  ds_fio_job_bytes (job, "offset", spec->offset_bytes);
  ds_fio_job_bytes (job, "size", ds_fio_job_align_down (region, spec->block_size_bytes));
  if (spec->duration_ns > 0)
    ds_fio_job_time (job, "runtime", spec->duration_ns);
  ds_fio_job_comment (job, "for the rate over time (the cliff), run fio with --write_bw_log=sustain "
                      "--log_avg_msec=1000 and import it with import-fio --logs");

  if (data != NULL && data->has_recovery && pause_ns > 0)
    {
      uint64_t bytes = MAX (ds_fio_job_align_down (data->recovery.bytes, spec->block_size_bytes),
                            spec->block_size_bytes);

      ds_workload_fio_section (job, "recovery", spec, DS_PATTERN_WRITE, spec->block_size_bytes, 100, TRUE);
      ds_fio_job_depth (job, engine, depth, threads);
      ds_fio_job_time (job, "startdelay", pause_ns);
      ds_fio_job_bytes (job, "offset", spec->offset_bytes);
      ds_fio_job_bytes (job, "size", bytes);
    }

  return TRUE;
}
