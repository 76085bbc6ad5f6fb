/* ds-sample.h: what a run tells its front end as it measures (a sample a
 * sink receives on the worker thread), below every layer that sends one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Samples go from the worker thread to the sink as they are measured. */
typedef enum {
  DS_SAMPLE_POINT,     /* a transfer-rate point: offset_bytes, value =
                        * bytes/s; error != 0 if it failed (value 0) */
  DS_SAMPLE_ACCESS,    /* one timed access: offset_bytes, bytes, elapsed_ns */
  DS_SAMPLE_ROW,       /* a table row is done: index, name, value (main
                        * figure: bytes/s or IOPS, as the kind defines) */
  DS_SAMPLE_PHASE,     /* a phase starts: name ("transfer", "access", ...) */
  DS_SAMPLE_PROGRESS,  /* nothing new but progress */
  DS_SAMPLE_INTERVAL,  /* workload, mark: an interval of the series is
                        * measured: index (the point's), elapsed_ns (its
                        * end), value (read + write bytes/s), interval.
                        * Provisional: the result's series is final (the
                        * last point is shortened to the run's end). */
  DS_SAMPLE_NOTICE,    /* the run waits for something outside it: name is
                        * a sentence for the user (valid during the sink
                        * call only), NULL once the wait is over */
} DsSampleKind;

typedef struct _DsIntervalPoint DsIntervalPoint;   /* ds-interval.h */
typedef struct _DsIntervalSum DsIntervalSum;       /* ds-interval.h */

typedef struct {
  DsSampleKind kind;
  gboolean     write;
  unsigned     index;
  const char  *name;          /* static string, or NULL */
  uint64_t     offset_bytes;
  uint64_t     bytes;
  uint64_t     elapsed_ns;
  double       value;
  int          error;         /* errno of a failed point/access, else 0 */
  double       progress;      /* 0..1 of the whole run, in every sample */
  /* Valid during the sink call only: */
  const DsIntervalPoint *interval; /* DS_SAMPLE_INTERVAL */
  const DsIntervalSum   *histogram; /* DS_SAMPLE_INTERVAL: the latencies of
                                     * every I/O of the run collected so far,
                                     * reads and writes together (a live
                                     * histogram; the result's is exact) */
  /* The kind's own figures of a PHASE or ROW, of the type its kind's
   * DsBenchOps.detail_copy takes (mark: a DsMarkStep at a step's PHASE,
   * its figures empty, and ROW; sweep: the DsSweepStep of a level done;
   * cache: the DsCacheSet of a working set done), or NULL. */
  gconstpointer          detail;
} DsSample;

/* Called on the worker thread.  Must be quick and must not call GTK. */
typedef void (*DsSinkFunc) (const DsSample *sample,
                            gpointer        user_data);

G_END_DECLS
