/* ds-fio-private.h: what the fio importer's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* The document an entry comes from. */
typedef struct {
  const char *source;
  const char *fio_version;
  char       *started_at;
  JsonObject *global_options;
} DsFioDoc;

/* Members of fio's JSON, NULL (NAN for numbers) when missing or of
 * another type. */
double       ds_fio_number (JsonObject *o,
                            const char *name);
JsonObject  *ds_fio_object (JsonObject *o,
                            const char *name);
const char  *ds_fio_string (JsonObject *o,
                            const char *name);
/* A job option (fio writes them all as strings): the job's own, else the
 * global one, else NULL. */
const char  *ds_fio_option (JsonObject *job_options,
                            JsonObject *global_options,
                            const char *name);

/* One entry of "jobs" or "client_stats" as a workload result labelled
 * @label (@host: the server it ran on, for client runs); DS_ERROR_CORRUPT
 * or DS_ERROR_INVALID saying why it cannot be. */
DsResult    *ds_fio_result_from_entry (const DsFioDoc *doc,
                                       JsonObject     *job,
                                       JsonObject     *job_options,
                                       const char     *label,
                                       const char     *host,
                                       GError        **error);

/* ---- what of a result goes into a job file (ds-fio-job-text.c) -------- */

/* Why fio could not be given @file safely as filename= (a line break, a
 * control character, one of ; # $ = [ ] \, a blank at an end, too long),
 * as words for a message; NULL when it is safe. */
char        *ds_fio_unsafe_in_filename (const char *file);
/* @job read as fio reads it holds only comments, our sections and our
 * options with values fio does not cut, expand or split. */
gboolean     ds_fio_job_check          (const char *job);
/* The job in @out (freed either way) once ds_fio_job_check() passes;
 * else NULL and DS_ERROR_FAILED (our bug: the job is not written). */
char        *ds_fio_job_checked        (GString    *out,
                                        GError    **error);

/* ---- fio's logs: one bucket per interval (ds-fio-log-agg.c) ----------- */

/* What completed in one interval, by direction ([0] reads, [1] writes);
 * for raw latency logs each I/O's latency (ns, as float: 24 bits keep a
 * latency to 6e-8 of itself). */
typedef struct {
  double  bytes[2];
  double  ios[2];
  GArray *lat[2];
} DsFioLogBucket;

typedef struct {
  GHashTable *buckets;      /* guint64 k -> DsFioLogBucket: interval k */
  uint64_t    window_ms;    /* fio's window (1000 ms for raw logs) */
  uint64_t    factor;       /* windows in one interval (merged past the cap) */
} DsFioLogAgg;

void            ds_fio_log_agg_init   (DsFioLogAgg *agg,
                                       uint64_t     window_ms);
void            ds_fio_log_agg_clear  (DsFioLogAgg *agg);
/* The bucket of window @k_window, made as needed; past
 * DS_LIMIT_SERIES_POINTS buckets, adjacent intervals are first merged two
 * by two (agg->factor doubles). */
DsFioLogBucket *ds_fio_log_agg_bucket (DsFioLogAgg *agg,
                                       uint64_t     k_window);
/* The buckets as DsFioLogPoint in time order: rates over each interval
 * (window_ms × factor), p50/p99 of the latencies kept; DS_ERROR_CORRUPT
 * for a rate over what a result file may hold (DS_JSON_MAX_*). */
GArray         *ds_fio_log_agg_points (DsFioLogAgg  *agg,
                                       GError      **error);

G_END_DECLS
