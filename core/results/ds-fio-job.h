/* ds-fio-job.h: writing a kind's fio job file (DsBenchOps.fio_job)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * core/fio/ds-fio-export.c checks the file to run on and reads the job
 * back as fio would; the kind writes the sections with these helpers, in
 * fio's words (see ds-fio-export.c for what each of ours becomes).  Sizes
 * are written in bytes and times in milliseconds, so nothing is rounded by
 * a unit.  Nothing from the result but numbers goes into an option;
 * anything else goes into comments through ds_fio_job_comment_text().
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-result.h"

G_BEGIN_DECLS

struct _DsFioJobFile {
  GString    *out;
  const char *filename;   /* the device or file to run on, safe for fio
                           * (checked and ':' escaped by the exporter) */
};

/* What the header says the job does to the target. */
typedef enum {
  DS_FIO_JOB_READS,       /* "; reads only" */
  DS_FIO_JOB_WRITES,      /* a WARNING: it destroys the data */
  DS_FIO_JOB_OWN_FILE,    /* it writes only its own test file */
} DsFioJobWrites;

typedef struct {
  const char *fio_engine;  /* "io_uring", "psync" */
  gboolean    uring;
  gboolean    pool;        /* our threads engine: one synchronous job per
                            * slot in flight */
} DsFioEngine;

/* The comments at the top: what run it reproduces, whether it writes, how
 * to run it.  @file is where it runs (job->filename, or the file a folder
 * kind makes). */
void        ds_fio_job_header   (DsFioJobFile   *job,
                                 const DsResult *result,
                                 const char     *file,
                                 DsFioJobWrites  writes);
/* The engine that ran @result at @depth, in fio's words. */
DsFioEngine ds_fio_job_engine   (const DsResult *result,
                                 unsigned        depth);
/* [global]: filename=@file, direct=1, the engine, refill_buffers,
 * norandommap, randseed, lat_percentiles, the random alignment. */
void        ds_fio_job_global   (DsFioJobFile   *job,
                                 const DsResult *result,
                                 const char     *file,
                                 DsFioEngine     engine);
/* "key=value\n" */
void        ds_fio_job_kv       (DsFioJobFile   *job,
                                 const char     *key,
                                 const char     *format,
                                 ...) G_GNUC_PRINTF (3, 4);
void        ds_fio_job_bytes    (DsFioJobFile   *job,
                                 const char     *key,
                                 uint64_t        bytes);
/* fio takes "ms" on every time option; at least 1 ms. */
void        ds_fio_job_time     (DsFioJobFile   *job,
                                 const char     *key,
                                 uint64_t        ns);
/* A ";" comment line (printf-style; nothing from the result unescaped). */
void        ds_fio_job_comment  (DsFioJobFile   *job,
                                 const char     *format,
                                 ...) G_GNUC_PRINTF (2, 3);
/* One section run after the previous one (stonewall): @rw at @bs (a range
 * to @bs_max when larger), over [@offset, @offset + @size), for
 * @runtime_ns at most (0: one pass), looping over the region when
 * @loop_region (time_based). */
void        ds_fio_job_row      (DsFioJobFile   *job,
                                 const char     *name,
                                 const char     *rw,
                                 uint64_t        bs,
                                 uint64_t        bs_max,
                                 uint64_t        offset,
                                 uint64_t        size,
                                 uint64_t        runtime_ns,
                                 gboolean        loop_region);
/* The depth and jobs of a section, as ds-fio-export.c tells: iodepth=Q
 * numjobs=T for io_uring, T×Q synchronous jobs for our thread pool. */
void        ds_fio_job_depth    (DsFioJobFile   *job,
                                 DsFioEngine     engine,
                                 unsigned        depth,
                                 unsigned        threads);
/* fio's rw= for @pattern. */
const char *ds_fio_job_rw       (DsPattern       pattern);
/* The capacity tested (--capacity or the device), in whole sectors. */
uint64_t    ds_fio_job_tested_span (const DsResult *result);
/* The region of a workload-like run: from offset_bytes to the end, or
 * span_bytes, in whole @block_bytes. */
uint64_t    ds_fio_job_region   (const DsResult *result,
                                 uint64_t        block_bytes);
uint64_t    ds_fio_job_align_down (uint64_t      v,
                                   uint64_t      a);
/* @text (from a result file: anyone's) for a comment line: one line,
 * short; "?" for NULL. */
char       *ds_fio_job_comment_text (const char *text);

/* The refusal of a kind fio cannot run: DS_ERROR_UNSUPPORTED, "@what
 * cannot be expressed as a fio job, because @because". */
gboolean    ds_fio_job_refuse   (GError        **error,
                                 const char     *what,
                                 const char     *because);

G_END_DECLS
