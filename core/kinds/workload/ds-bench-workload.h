/* ds-bench-workload.h: fio / CrystalDiskMark style workloads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A workload result (kind "workload", and each step of a "mark") is a
 * DsWorkloadData.  Every figure is in base units; a result made elsewhere
 * (an fio JSON import) fills the same struct: what it cannot know stays 0,
 * NULL or FALSE as noted, and the JSON writer and the report cope.
 *
 * JSON ("results" of a workload; ds-workload-json.c):
 *
 *   { "runtime_s", "engine", "interval_s",
 *     "read":  DIR,        present when reads were counted
 *     "write": DIR,        present when writes were counted
 *     "cpu": { "user_s", "system_s" },
 *     "series": [ { "t_s", "read":  { "bytes_per_s", "iops", "p50_s", "p99_s" },
 *                          "write": { … the same … } }, … ],
 *     "series_dropped_ios",                  (only when not 0)
 *     "series_merged" }                      (only when over 1: intervals
 *                                             merged into each point)
 *
 *   DIR = { "io_bytes", "ios", "bytes_per_s", "iops",
 *           "latency_s": { "min", "mean", "max", "stddev",
 *                          "p50", "p90", "p99", "p99_9", "p99_99",
 *                          "percentiles": { "p1" … "p99_99" } },
 *           "latency_histogram": [ { "upper_s", "count" }, … ] }
 *
 * latency_histogram lists the non-empty buckets of the run's latency
 * histogram (ds-histogram.h: under 1 % wide), ascending: `count` I/Os took
 * less than `upper_s` and at least the previous entry's upper_s' bucket
 * bound (the bucket's lower bound is not written: a bucket is 1/64 of a
 * power of two wide, so it is upper_s × 63/64 or, below 64 ns, upper_s −
 * 1 ns).  The counts add up to `ios`.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-interval.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* The percentiles reported, as fio's default list. */
#define DS_WORKLOAD_N_PERCENTILES 17
extern const double ds_workload_percentiles[DS_WORKLOAD_N_PERCENTILES];

typedef struct {
  double   upper_s;        /* the bucket's upper bound (exclusive) */
  uint64_t count;
} DsLatencyBucket;

/* One direction's figures over the counted part of the run. */
typedef struct {
  gboolean present;        /* I/O of this direction was counted */
  uint64_t io_bytes;
  uint64_t ios;
  double   bytes_per_s;    /* io_bytes over the run's counted wall time */
  double   iops;
  double   lat_min_s;      /* per I/O, submission to completion */
  double   lat_mean_s;
  double   lat_max_s;
  double   lat_stddev_s;
  double   lat_percentile_s[DS_WORKLOAD_N_PERCENTILES];
  GArray  *histogram;      /* DsLatencyBucket, non-empty buckets in
                            * ascending order; NULL when not known */
} DsWorkloadDir;

typedef struct {
  double        runtime_s;       /* the counted wall time */
  char         *engine;          /* NULL when not known */
  DsWorkloadDir read;
  DsWorkloadDir write;
  double        cpu_user_s;
  double        cpu_system_s;
  double        interval_s;      /* the series' interval; 0 without one */
  GArray       *series;          /* DsIntervalPoint (ds-interval.h); NULL
                                  * when there is none */
  uint64_t      series_dropped_ios; /* counted, missing from the series */
  guint         series_merged;   /* measured intervals in one point of the
                                  * series (interval_s is theirs × this): 0
                                  * or 1 when none were merged, more for a
                                  * series longer than DS_LIMIT_SERIES_POINTS */
} DsWorkloadData;

DsWorkloadData *ds_workload_data_new   (void);
void            ds_workload_data_free  (DsWorkloadData *data);
/* Frees what @dir holds and zeroes it. */
void            ds_workload_dir_clear  (DsWorkloadDir  *dir);

/* The "results" object above, and its strict inverse (@where names the
 * object in error messages: "results", "results.steps[2].results"). */
/* A series of DsIntervalPoint as a result file holds it ("series": t_s,
 * and read and write bytes_per_s, iops, p50_s, p99_s), and its strict
 * reader (@where names the array in messages): the workload's, and the
 * replay kind's too. */
JsonNode       *ds_workload_series_to_json   (const GArray         *series);
GArray         *ds_workload_series_from_json (JsonArray            *array,
                                              const char           *where,
                                              GError              **error);
JsonNode       *ds_workload_data_to_json   (const DsWorkloadData *data);
DsWorkloadData *ds_workload_data_from_json (JsonObject           *object,
                                            const char           *where,
                                            GError              **error);

/* Runs @spec's workload (pattern, block size, queue depth, threads, read
 * mix, duration, ramp, interval, offset and span) on run->target, which the
 * caller opened, and fills @data with what was counted, failed or not.
 * Progress goes from @progress_from to @progress_to of the run.  Returns 0
 * or -errno with @error. */
int             ds_workload_measure   (DsRun                *run,
                                       const DsBenchSpec    *spec,
                                       DsWorkloadData       *data,
                                       double                progress_from,
                                       double                progress_to,
                                       GError              **error);

/* What a kind built on workloads (sweep, sustain) adds to one. */
typedef struct {
  /* Each interval of the series (DsIoPlan.on_interval): TRUE ends the
   * run there, and that is not an error. */
  gboolean (*on_interval) (gpointer               user,
                           const DsIntervalPoint *point,
                           unsigned               index);
  gpointer   user;
  /* One pass over the region even with a duration: stops at the region's
   * end or the duration, whichever comes first. */
  gboolean   one_pass;
} DsWorkloadHooks;

/* ds_workload_measure() with @hooks (may be NULL). */
int             ds_workload_measure_hooked (DsRun                 *run,
                                            const DsBenchSpec     *spec,
                                            const DsWorkloadHooks *hooks,
                                            DsWorkloadData        *data,
                                            double                 progress_from,
                                            double                 progress_to,
                                            GError               **error);

/* A direction's report lines (the mark report uses them too). */
void            ds_workload_dir_report (const DsWorkloadData *data,
                                        gboolean              write,
                                        DsUnits               units,
                                        GString              *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-workload-compare.c) and fio job (ds-workload-fio.c):
 * DsBenchOps hooks. */
void     ds_workload_compare_rows   (const DsResult *result,
                                     DsFigures      *figures);
gboolean ds_workload_fio_job        (const DsResult *result,
                                     DsFioJobFile   *job,
                                     GError        **error);

/* What the kinds built on workloads share for comparisons and fio jobs:
 * a direction's latency percentile (NAN when not measured); and one
 * workload as a fio section [@name]: @pattern, @block_bytes, the mix, the
 * alignment of @spec (no depth, region or time: the caller adds them,
 * ds_fio_job_depth()). */
double   ds_workload_dir_percentile (const DsWorkloadDir *dir,
                                     double               percent);
void     ds_workload_fio_section    (DsFioJobFile        *job,
                                     const char          *name,
                                     const DsBenchSpec   *spec,
                                     DsPattern            pattern,
                                     uint64_t             block_bytes,
                                     unsigned             read_percent,
                                     gboolean             stonewall);

G_END_DECLS
