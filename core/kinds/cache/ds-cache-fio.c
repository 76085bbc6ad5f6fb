/* ds-cache-fio.c: Cache Probe as a fio job, one section per working set
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As ours: each set is first read once sequentially (the prefill, which
 * fio counts as its own section: leave it out when comparing), then read
 * at random for the set's time; the write variant writes the set once at
 * random instead of the prefill.  Our flush of the page cache between
 * sets has no fio option: direct=1 keeps the page cache out anyway.
 */
#include "config.h"

#include "ds-bench-cache.h"
#include "ds-bench-workload.h"
#include "ds-fio-job.h"

#define PREFILL_BLOCK_BYTES (UINT64_C (1) << 20)
#define PREFILL_DEPTH       4u

gboolean
ds_cache_fio_job (const DsResult *result,
                  DsFioJobFile   *job,
                  GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  const DsCacheData *data = result->data;
  unsigned depth;
  DsFioEngine engine;
  uint64_t set_ns;

  if (data == NULL || data->sets == NULL || data->sets->len == 0)
    return ds_fio_job_refuse (error, "a Cache Probe result without working sets",
                              "it holds no set to say what ran");
  depth = MAX (data->queue_depth, 1u);
  engine = ds_fio_job_engine (result, MAX (depth, PREFILL_DEPTH));
  set_ns = data->set_time_s > 0 ? (uint64_t) (data->set_time_s * 1e9) : spec->duration_ns;

  ds_fio_job_header (job, result, job->filename, data->write ? DS_FIO_JOB_WRITES : DS_FIO_JOB_READS);
  ds_fio_job_global (job, result, job->filename, engine);
  /* The write variant's figures are its writes; its reads are each set's
   * read latency. */
  ds_fio_job_comment (job, data->write ? "%u working sets from byte 0; the random writes of fill-N are the "
                                         "figures, the reads of set-N each set's read latency"
                                       : "%u working sets from byte 0; the random reads of set-N are the figures",
                      data->sets->len);

  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *set = &g_array_index (data->sets, DsCacheSet, i);
      uint64_t bs = data->block_size_bytes > 0 ? data->block_size_bytes : spec->block_size_bytes;
      uint64_t size = ds_fio_job_align_down (set->bytes, bs);
      g_autofree char *fill = g_strdup_printf ("fill-%u", i);
      g_autofree char *name = g_strdup_printf ("set-%u", i);

      if (size == 0)
        continue;
      if (data->write)
        {
          ds_workload_fio_section (job, fill, spec, DS_PATTERN_RANDWRITE, bs, 0, TRUE);
          ds_fio_job_depth (job, engine, depth, 1);
        }
      else
        {
          ds_workload_fio_section (job, fill, spec, DS_PATTERN_READ, MIN (PREFILL_BLOCK_BYTES, size), 100, TRUE);
          ds_fio_job_depth (job, engine, engine.uring ? PREFILL_DEPTH : 1, 1);
        }
      ds_fio_job_bytes (job, "offset", 0);
      ds_fio_job_bytes (job, "size", size);

      ds_workload_fio_section (job, name, spec, DS_PATTERN_RANDREAD, bs, 100, TRUE);
      ds_fio_job_depth (job, engine, depth, 1);
      ds_fio_job_bytes (job, "offset", 0);
      ds_fio_job_bytes (job, "size", size);
      ds_fio_job_kv (job, "time_based", "1");
      ds_fio_job_time (job, "runtime", set_ns);
    }

  return TRUE;
}
