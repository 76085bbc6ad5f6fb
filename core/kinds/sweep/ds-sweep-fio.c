/* ds-sweep-fio.c: Saturation (sweep) as a fio job, one section per level,
 * one after another (stonewall)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-sweep.h"
#include "ds-bench-workload.h"
#include "ds-fio-job.h"

gboolean
ds_sweep_fio_job (const DsResult *result,
                  DsFioJobFile   *job,
                  GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  const DsSweepData *data = result->data;
  gboolean writes = spec->pattern != DS_PATTERN_READ && spec->pattern != DS_PATTERN_RANDREAD;
  uint64_t region = ds_fio_job_region (result, spec->block_size_bytes);
  uint64_t step_ns;
  uint64_t ramp_ns;
  guint n;

  if (data == NULL || data->levels == NULL || data->levels->len == 0)
    return ds_fio_job_refuse (error, "a Saturation result without levels",
                              "it holds no level to say what ran");
  step_ns = data->step_time_s > 0 ? (uint64_t) (data->step_time_s * 1e9) : spec->duration_ns;
  ramp_ns = data->ramp_s > 0 ? (uint64_t) (data->ramp_s * 1e9) : 0;
  /* The levels measured (a stopped run: only those), else as planned. */
  n = data->steps != NULL && data->steps->len > 0 ? data->steps->len : data->levels->len;

  ds_fio_job_header (job, result, job->filename, writes ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, ds_fio_job_engine (result, 2));
  ds_fio_job_comment (job, "%u levels of %s, each %" G_GUINT64_FORMAT " ms%s", n,
                      data->over_threads ? "threads" : "queue depth", step_ns / 1000000,
                      data->steady ? " at most (ours ended a level early once IOPS was steady)" : "");

  for (guint i = 0; i < n; i++)
    {
      unsigned level = data->steps != NULL && i < data->steps->len
                       ? (data->over_threads ? g_array_index (data->steps, DsSweepStep, i).threads
                                             : g_array_index (data->steps, DsSweepStep, i).queue_depth)
                       : g_array_index (data->levels, unsigned, i);
      unsigned depth = data->over_threads ? MAX (spec->queue_depth, 1u) : level;
      unsigned threads = data->over_threads ? level : MAX (spec->threads, 1u);
      DsFioEngine engine = ds_fio_job_engine (result, depth);
      g_autofree char *name = g_strdup_printf ("%s-%u", data->over_threads ? "threads" : "qd", level);

      ds_workload_fio_section (job, name, spec, spec->pattern, spec->block_size_bytes,
                               spec->read_mix_percent, TRUE);
      ds_fio_job_depth (job, engine, depth, threads);
      ds_fio_job_bytes (job, "offset", spec->offset_bytes);
      if (region > 0)
        ds_fio_job_bytes (job, "size", region);
      ds_fio_job_kv (job, "time_based", "1");
      ds_fio_job_time (job, "runtime", step_ns);
      if (ramp_ns > 0)
        ds_fio_job_time (job, "ramp_time", ramp_ns);
    }

  return TRUE;
}
