/* ds-file-fio.c: the File Benchmark as a fio job on a file of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-fio-job.h"

gboolean
ds_file_fio_job (const DsResult *result,
                 DsFioJobFile   *job,
                 GError        **error)
{
  const DsBenchSpec *spec = &result->spec;
  const DsFileData *data = result->data;
  uint64_t size = data != NULL && data->file_bytes ? data->file_bytes :
                  ds_file_options_const (spec)->size_bytes;
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_FILE_DEFAULT_ROW_NS;
  /* The folder the file benchmark ran in: fio makes its own file. */
  g_autofree char *file = g_build_filename (job->filename, "diskscope-fio.tmp", NULL);

  ds_fio_job_header (job, result, file, DS_FIO_JOB_OWN_FILE);
  ds_fio_job_global (job, result, file, (DsFioEngine) { "io_uring", TRUE, FALSE });
  ds_fio_job_kv (job, "unlink", "1");
  ds_fio_job_kv (job, "iodepth", "1");

  ds_fio_job_row (job, "sequential_write", "write", DS_FILE_SEQUENTIAL_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_row (job, "sequential_read", "read", DS_FILE_SEQUENTIAL_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_row (job, "random_read", "randread", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_row (job, "random_write", "randwrite", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_row (job, "random_read_qd32", "randread", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_kv (job, "iodepth", "%d", DS_FILE_QUEUE_DEPTH);
  ds_fio_job_row (job, "random_write_qd32", "randwrite", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  ds_fio_job_kv (job, "iodepth", "%d", DS_FILE_QUEUE_DEPTH);
  ds_block_size_fio_sections (job, size, spec->duration_ns ? spec->duration_ns : DS_FILE_DEFAULT_BLOCK_ROW_NS,
                              TRUE, TRUE, 512);
  (void) error;
  return TRUE;
}
