/* ds-mark-fio.c: Workloads (mark) as a fio job, one section per row and
 * direction, one after another (stonewall), as CrystalDiskMark runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each section runs its step for the run's time per measured run over the
 * test region, after the warm-up (ramp_time, not counted).  CrystalDiskMark
 * keeps the best of its `count` runs; fio runs each once, so compare with
 * a count of 1 (or expect ours to be the best of several).
 */
#include "config.h"

#include <math.h>

#include "ds-bench-mark.h"
#include "ds-bench-workload.h"
#include "ds-fio-job.h"
#include "ds-preset.h"

#define DEFAULT_STEP_NS (UINT64_C (5) * 1000000000)

static gboolean
any_writes (const DsMarkData *data)
{
  for (guint i = 0; data->steps != NULL && i < data->steps->len; i++)
    if (((const DsMarkStep *) data->steps->pdata[i])->direction != DS_MARK_READ)
      return TRUE;
  return FALSE;
}

/* A step's own time (custom rows have theirs): what its measured run
 * counted, to 100 ms; else the run's. */
static uint64_t
step_time_ns (const DsMarkStep *step,
              uint64_t          fallback_ns)
{
  double s;

  if (step->result == NULL || !(step->result->runtime_s > 0))
    return fallback_ns;
  s = floor (step->result->runtime_s * 10 + 0.5) / 10;
  return s > 0 ? (uint64_t) (s * 1e9) : fallback_ns;
}

gboolean
ds_mark_fio_job (const DsResult *result,
                 DsFioJobFile   *job,
                 GError        **error)
{
  const DsMarkData *data = result->data;
  uint64_t step_ns;
  uint64_t warmup_ns;
  uint64_t region;
  g_autofree char *own = NULL;
  const char *file = job->filename;

  if (data == NULL || data->steps == NULL || data->steps->len == 0)
    return ds_fio_job_refuse (error, "a Workloads result without rows",
                              "it holds no row to say what ran");

  step_ns = data->duration_s > 0 ? (uint64_t) (data->duration_s * 1e9) : DEFAULT_STEP_NS;
  warmup_ns = data->warmup_s > 0 ? (uint64_t) (data->warmup_s * 1e9) : 0;
  region = data->test_size_bytes;
  if (data->directory != NULL)
    {
      /* A folder: fio makes its own test file of the run's size there. */
      own = g_build_filename (job->filename, "diskscope-fio.tmp", NULL);
      file = own;
      ds_fio_job_header (job, result, file, DS_FIO_JOB_OWN_FILE);
    }
  else
    {
      ds_fio_job_header (job, result, file, any_writes (data) ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
    }
  ds_fio_job_global (job, result, file, ds_fio_job_engine (result, 2));
  if (own != NULL)
    ds_fio_job_kv (job, "unlink", "1");
  ds_fio_job_comment (job, "%u steps, each for its time after a %" G_GUINT64_FORMAT
                      " ms warm-up (ours keeps the best of %u runs)", data->steps->len,
                      warmup_ns / 1000000, MAX (data->count, 1u));

  for (guint i = 0; i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];
      unsigned depth = MAX (step->queue_depth, 1u);
      unsigned threads = MAX (step->threads, 1u);
      DsFioEngine engine = ds_fio_job_engine (result, depth);
      /* Named from numbers only: a step's id is the file's, anyone's. */
      g_autofree char *name = g_strdup_printf ("step-%02u-%s-%" G_GUINT64_FORMAT "-q%ut%u", i,
                                               ds_fio_job_rw (step->pattern), step->block_size_bytes,
                                               depth, threads);

      ds_workload_fio_section (job, name, &result->spec, step->pattern, step->block_size_bytes,
                               step->read_percent, TRUE);
      ds_fio_job_depth (job, engine, depth, threads);
      ds_fio_job_bytes (job, "offset", 0);
      if (region > 0)
        ds_fio_job_bytes (job, "size", ds_fio_job_align_down (region, step->block_size_bytes));
      ds_fio_job_kv (job, "time_based", "1");
      ds_fio_job_time (job, "runtime", step_time_ns (step, step_ns));
      if (warmup_ns > 0)
        ds_fio_job_time (job, "ramp_time", warmup_ns);
    }

  return TRUE;
}
