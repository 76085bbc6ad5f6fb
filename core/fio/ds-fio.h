/* ds-fio.h: speaking fio: results as fio job files, fio's JSON as results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* ---- export: DsResult -> fio job file ----------------------------------- */

/* A fio job file that reproduces @result's run on @filename (NULL: the
 * device or file it ran on): a workload as one job (rw, bs, iodepth,
 * numjobs, rwmixread, offset/size, runtime/ramp_time or one pass,
 * direct=1, refill_buffers, randseed, the engine that ran: io_uring with
 * registered buffers and file, or psync); the HD Tune kinds as one job per
 * point or row, run one after another (stonewall).  Write runs say in the
 * header that they destroy data.  DS_ERROR_INVALID when the result says
 * too little (no target). */
char     *ds_fio_job_from_result   (const DsResult *result,
                                    const char     *filename,
                                    GError        **error);
/* "fio --output-format=json --output=OUT JOB" (shell-quoted). */
char     *ds_fio_command_line      (const char     *job_path,
                                    const char     *output_path);

/* ---- import: fio --output-format=json -> DsResult ----------------------- */

typedef struct {
  DsResult *result;     /* kind workload */
  char     *name;       /* "rr", "127.0.0.1:8765 rr", "All clients" */
  char     *hostname;   /* client runs: the server's host; else NULL */
  int       port;       /* client runs: the server's port; else 0 */
  gboolean  aggregate;  /* fio's "All clients" sum */
} DsFioJob;

void      ds_fio_job_free          (DsFioJob *job);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsFioJob, ds_fio_job_free)

/* Reads fio's JSON output (fio 3.x: --output-format=json or json+,
 * including `fio --client` runs): one DsFioJob per job (or group, with
 * group_reporting) in "jobs", or per host and job in "client_stats" plus
 * fio's "All clients" aggregate.  Notes fio printed before the document
 * are skipped.  A job fio reported an error for comes back as a failed
 * result (its figures kept, its error set) and is named in *@ret_warnings
 * (char *, when not NULL).  DS_ERROR_CORRUPT saying what is wrong for a
 * file that is not fio JSON, is from fio 2.x (no nanosecond latencies), or
 * holds no jobs.  @source names the file in results' notes. */
GPtrArray *ds_fio_import_data      (const char     *data,
                                    gssize          length,
                                    const char     *source,
                                    GPtrArray     **ret_warnings,
                                    GError        **error);
/* The same from a file; errors name @path. */
GPtrArray *ds_fio_import_file      (const char     *path,
                                    GPtrArray     **ret_warnings,
                                    GError        **error);

/* ---- fio's logs -> a workload's time series ---------------------------- */

/* The shape of a workload's results.series entries. */
typedef struct {
  double bytes_per_s;
  double iops;
  double p50_s;          /* 0 when not known (averaged logs) or no I/O */
  double p99_s;
} DsFioLogDir;

typedef struct {
  double      t_s;       /* the end of the interval, s after logging began */
  DsFioLogDir read;
  DsFioLogDir write;
} DsFioLogPoint;

/* What ds_fio_logs_read() found besides the points. */
typedef struct {
  double   interval_s;   /* the points' interval: fio's log_avg_msec for
                          * averaged logs, 1 s for raw ones, times merged */
  gboolean percentiles;  /* p50/p99 known (raw latency logs) */
  guint    merged;       /* fio's intervals in one point: 1, or more when
                          * there were over DS_LIMIT_SERIES_POINTS */
  guint    backwards;    /* times that went back in a log (several jobs in
                          * one file: per_job_logs=0) */
} DsFioLogInfo;

/* Reads PREFIX_bw.N.log, PREFIX_iops.N.log and PREFIX_lat.N.log (else
 * PREFIX_clat.N.log) of job @job (1-based; 0: every job there is, summed,
 * as with group_reporting, or PREFIX_bw.log of per_job_logs=0) into
 * DsFioLogPoint, one per interval, in time order, at most
 * DS_LIMIT_SERIES_POINTS (adjacent intervals merged past that).  @host:
 * the copies `fio --client` keeps of a server's logs, PREFIX_bw.N.log.HOST
 * (NULL for a local run).  Logs are streamed through the bounded opener,
 * each at most DS_FIO_LOG_MAX_BYTES, DS_FIO_LOG_MAX_ENTRIES in all.
 * DS_ERROR_NOT_FOUND when there is no log; DS_ERROR_CORRUPT naming the
 * file and line for one that is not fio's (a FIFO or device, a line that
 * is not fio's, a negative time or one past a week, a window over an
 * hour). */
GArray   *ds_fio_logs_read         (const char     *prefix,
                                    const char     *host,
                                    guint           job,
                                    DsFioLogInfo   *ret_info,
                                    GError        **error);

/* How many jobs' logs there are: N for PREFIX_*.1.log .. PREFIX_*.N.log
 * (with @host as above). */
guint     ds_fio_logs_count        (const char     *prefix,
                                    const char     *host);

/* Fills results.series of the results in @jobs (DsFioJob, as
 * ds_fio_import_file() gives them) from fio's logs at @prefix.  fio numbers
 * its logs by job: the N-th entry of a host's jobs wrote PREFIX_bw.N.log
 * (PREFIX_bw.N.log.HOST in a `fio --client` run), and a host with one
 * entry (group_reporting) gets all its logs summed.  A job that gets no
 * series is named in @warnings (char *) with the reason (its host's logs
 * are missing, more or fewer logs than jobs, two servers on one host);
 * each series says in its result's notes which logs it came from and what
 * it lacks.  Returns how many results got a series; -1 with
 * DS_ERROR_NOT_FOUND when there is no log at PREFIX at all, or
 * DS_ERROR_CORRUPT naming a file that is not fio's (then no result is
 * changed). */
int       ds_fio_logs_attach       (GPtrArray      *jobs,
                                    const char     *prefix,
                                    GPtrArray      *warnings,
                                    GError        **error);

G_END_DECLS
