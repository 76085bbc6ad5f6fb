/* ds-workload-fio.c: a workload as a fio job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-workload.h"
#include "ds-fio-job.h"

static gboolean
pattern_writes (DsPattern pattern)
{
  return pattern != DS_PATTERN_READ && pattern != DS_PATTERN_RANDREAD;
}

static gboolean
pattern_random (DsPattern pattern)
{
  return pattern != DS_PATTERN_READ && pattern != DS_PATTERN_WRITE && pattern != DS_PATTERN_RW;
}

void
ds_workload_fio_section (DsFioJobFile      *job,
                         const char        *name,
                         const DsBenchSpec *spec,
                         DsPattern          pattern,
                         uint64_t           block_bytes,
                         unsigned           read_percent,
                         gboolean           stonewall)
{
  g_string_append_printf (job->out, "\n[%s]\n", name);
  if (stonewall)
    ds_fio_job_kv (job, "stonewall", "1");
  ds_fio_job_kv (job, "rw", "%s", ds_fio_job_rw (pattern));
  if (pattern == DS_PATTERN_RANDRW || pattern == DS_PATTERN_RW)
    ds_fio_job_kv (job, "rwmixread", "%u", read_percent);
  ds_fio_job_bytes (job, "bs", block_bytes);
  if (spec->random_align_bytes == 0 && pattern_random (pattern))
    ds_fio_job_bytes (job, "blockalign", block_bytes);
}

gboolean
ds_workload_fio_job (const DsResult *result,
                     DsFioJobFile   *job,
                     GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  unsigned depth = MAX (spec->queue_depth, 1u);
  unsigned threads = MAX (spec->threads, 1u);
  DsFioEngine engine = ds_fio_job_engine (result, depth);
  uint64_t span = ds_fio_job_region (result, spec->block_size_bytes);
  g_autofree char *name = g_strdup_printf ("diskscope-%s", ds_pattern_to_string (spec->pattern));

  ds_fio_job_header (job, result, job->filename,
                     spec->write || pattern_writes (spec->pattern) ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, engine);

  ds_workload_fio_section (job, name, spec, spec->pattern, spec->block_size_bytes,
                           spec->read_mix_percent, FALSE);
  ds_fio_job_depth (job, engine, depth, threads);
  ds_fio_job_bytes (job, "offset", spec->offset_bytes);
  if (span > 0)
    ds_fio_job_bytes (job, "size", span);
  if (spec->duration_ns > 0)
    {
      ds_fio_job_kv (job, "time_based", "1");
      ds_fio_job_time (job, "runtime", spec->duration_ns);
    }
  if (spec->ramp_ns > 0)
    ds_fio_job_time (job, "ramp_time", spec->ramp_ns);
  (void) error;
  return TRUE;
}
