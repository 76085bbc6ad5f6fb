/* ds-bench-sweep.h: a saturation sweep (kind "sweep")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One workload (pattern, block size, read mix, region) run at growing
 * levels of load: queue depths 1, 2, 4 … (or threads), or the levels the
 * spec lists, each for the spec's duration (optionally ending a level early
 * once its IOPS is steady).  Each level is a workload run through
 * ds_workload_measure_hooked(); the sweep keeps its figures, checks them
 * against Little's law and finds the knee: where more outstanding I/O stops
 * buying IOPS and only buys latency.
 *
 * The knee rule (ds_sweep_find_knee()), on the finished levels in order:
 * the knee is the first level k, short of the last, such that
 *   - no later level has more than (1 + gain) × IOPS_k (gain = 10 %), and
 *   - the next level's p99 latency is more than (1 + growth) × p99_k
 *     (growth = 20 %): the extra load queues instead of being served.
 * With IOPS still growing at the last level, or latency not growing past
 * the plateau (a workload limited elsewhere), there is no knee (null).
 *
 * Steady (DsSweepOptions.steady): a level ends once the least-squares line through
 * the IOPS of its last DS_SWEEP_STEADY_WINDOW intervals changes by less
 * than DS_SWEEP_STEADY_SLOPE of their mean across that window (fio's
 * steady-state "iops_slope", over intervals).
 *
 * Little's law: in a steady state the I/Os in flight are IOPS × mean
 * latency.  A level where that differs from queue depth × threads by more
 * than 10 % did not run the load it was asked for (time lost between a
 * completion and the next submission, an engine that capped the depth, a
 * level too short for a steady state): it is flagged.
 *
 * Samples: DS_SAMPLE_PHASE as each level starts (index = its position,
 * name "level"), DS_SAMPLE_INTERVAL for its series (index from 0 per
 * level), DS_SAMPLE_PROGRESS, and DS_SAMPLE_ROW when it is done (index,
 * value = its IOPS, sweep_step = its figures).
 *
 * JSON ("results"; ds-sweep-json.c):
 *
 *   { "over": "qd"|"threads", "levels": [1, 2, 4, …],
 *     "step_time_s", "ramp_s", "interval_s", "steady": bool,
 *     "steady_rule": { "window", "slope" },
 *     "steps": [ { "outstanding", "queue_depth", "threads", "complete",
 *                  "runtime_s", "ios", "iops", "bytes_per_s",
 *                  "steady_at_s" (null: ran its full time),
 *                  "latency_s": { "mean", "p50", "p99", "p99_9" },
 *                  "little": { "outstanding", "ratio", "off" } }, … ],
 *     "knee": { "outstanding", "queue_depth", "threads", "iops", "p99_s",
 *               "rule", "iops_gain_per_step", "p99_growth_per_step" }
 *             or null,
 *     "knee_rule": { "gain", "growth" } }
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-units.h"

G_BEGIN_DECLS

#define DS_SWEEP_MAX_LEVELS      64u
/* The knee rule's parameters (see above). */
#define DS_SWEEP_KNEE_GAIN       0.10
#define DS_SWEEP_KNEE_GROWTH     0.20
/* Little's law: flagged past this relative difference. */
#define DS_SWEEP_LITTLE_TOLERANCE 0.10
/* Steady: the last 5 intervals' IOPS move by less than 5 % of their mean. */
#define DS_SWEEP_STEADY_WINDOW   5u
#define DS_SWEEP_STEADY_SLOPE    0.05

typedef struct _DsSweepStep DsSweepStep;
struct _DsSweepStep {
  unsigned outstanding;        /* queue_depth × threads */
  unsigned queue_depth;
  unsigned threads;
  gboolean complete;           /* ran to its time (or to steady) */
  double   runtime_s;          /* counted wall time */
  uint64_t ios;
  double   iops;               /* reads + writes, ios / runtime */
  double   bytes_per_s;        /* total bytes / runtime */
  double   steady_at_s;        /* < 0: ran its full time */
  double   lat_mean_s;         /* every I/O, both directions */
  double   lat_p50_s;
  double   lat_p99_s;
  double   lat_p99_9_s;
  double   little_outstanding; /* iops × lat_mean_s */
};

typedef struct {
  gboolean found;
  unsigned index;              /* into the steps */
  unsigned outstanding;
  unsigned queue_depth;
  unsigned threads;
  double   iops;
  double   p99_s;
  /* Past the knee, to the last level, per level (geometric means): */
  double   iops_gain_per_step; /* 0.03 = +3 % */
  double   p99_growth_per_step;/* 1.9 = ×1.9 */
} DsSweepKnee;

/* The sweep's own options (DsBenchSpec.options of a sweep spec); the
 * workload it repeats is the spec's I/O shape (pattern, block size, read
 * mix, region), duration_ns a level. */
typedef struct {
  gboolean  over_threads;   /* vary the threads, else the queue depth */
  unsigned  from;           /* first level (1) */
  unsigned  to;             /* last level (256); doubling from `from` */
  char     *levels;         /* "1,2,3,4": these levels instead; NULL */
  gboolean  steady;         /* a level ends early once IOPS is steady */
} DsSweepOptions;

/* @spec's options; @spec must be a sweep spec. */
DsSweepOptions       *ds_sweep_options       (DsBenchSpec       *spec);
const DsSweepOptions *ds_sweep_options_const (const DsBenchSpec *spec);

typedef struct {
  gboolean     over_threads;   /* levels are thread counts, else depths */
  GArray      *levels;         /* unsigned, as planned */
  double       step_time_s;
  double       ramp_s;
  double       interval_s;
  gboolean     steady;
  GArray      *steps;          /* DsSweepStep, the levels measured */
  DsSweepKnee  knee;
} DsSweepData;

DsSweepData *ds_sweep_data_new  (void);
void         ds_sweep_data_free (DsSweepData *data);

/* The levels of @spec: its list, or from `from` doubling up to `to` (and
 * `to` itself as the last).  NULL with DS_ERROR_INVALID when the list does
 * not parse, is not increasing, or is longer than DS_SWEEP_MAX_LEVELS. */
GArray      *ds_sweep_levels    (const DsBenchSpec *spec,
                                 GError           **error);
/* The spec rules of a sweep (ds_bench_spec_validate() calls it). */
gboolean     ds_sweep_spec_valid (const DsBenchSpec *spec,
                                  GError           **error);

/* The knee of @n_steps levels in order (only complete levels count; the
 * caller passes those).  FALSE when there is none. */
gboolean     ds_sweep_find_knee (const DsSweepStep *steps,
                                 unsigned           n_steps,
                                 DsSweepKnee       *ret_knee);
/* Sets data->knee from the complete steps (index: into all the steps). */
void         ds_sweep_update_knee (DsSweepData      *data);
/* TRUE when @step's Little's-law check is off by more than 10 %. */
gboolean     ds_sweep_little_off (const DsSweepStep *step);
/* "saturates at QD 16: 41 200 IOPS; past it p99 latency grows 1.9× per
 * step for +3 % IOPS", or why there is no knee. */
char        *ds_sweep_knee_words (const DsSweepData *data);
/* The steady rule on @n IOPS values (the last DS_SWEEP_STEADY_WINDOW). */
gboolean     ds_sweep_is_steady (const double      *iops,
                                 unsigned           n);

JsonNode    *ds_sweep_data_to_json   (const DsSweepData *data);
DsSweepData *ds_sweep_data_from_json (JsonObject        *results,
                                      GError           **error);
void         ds_sweep_report         (const DsResult    *result,
                                      DsUnits            units,
                                      GString           *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-sweep-compare.c) and fio job (ds-sweep-fio.c):
 * DsBenchOps hooks. */
void     ds_sweep_compare_rows   (const DsResult *result,
                                  DsFigures      *figures);
void     ds_sweep_compare_curves (const DsResult *result,
                                  DsCurves       *curves);
gboolean ds_sweep_fio_job        (const DsResult *result,
                                  DsFioJobFile   *job,
                                  GError        **error);

G_END_DECLS
