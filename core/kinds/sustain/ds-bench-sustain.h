/* ds-bench-sustain.h: a sustained write with cliff detection (kind
 * "sustain")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes the region (the whole device, or --size) once, sequentially or at
 * random offsets, at the spec's block size and queue depth, until its end
 * or the duration; the per-interval series (ds-interval.h) is the record.
 * It is a workload run (ds_workload_measure_hooked(), one pass), analysed:
 *
 *   start rate  the rate over the intervals that wrote the first 10 % of
 *               the bytes;
 *   cliff       the first interval (not the first one) whose rate is below
 *               DS_SUSTAIN_CLIFF_FRACTION (50 %) of the start rate while
 *               most intervals from there to the end (their median) and
 *               their average rate are below it too, with at most a tenth
 *               of them back at 80 % of the start rate, so a dip (or a
 *               train of stalls) is not a cliff, and there are at
 *               least DS_SUSTAIN_CLIFF_MIN_REST (10) intervals and a tenth
 *               of the run from it to the end (a floor seen); the bytes
 *               written before it are the cliff, the write cache's (or SLC
 *               cache's) size as the host sees it.  Within that interval
 *               the drop is placed where the start rate and the floor
 *               give the interval's bytes (linear mix), so the estimate is
 *               finer than one interval;
 *   floor       the rate after the cliff interval (without a cliff: the
 *               whole run's);
 *   dips        after the cliff (or over the whole run), each run of
 *               intervals below DS_SUSTAIN_DIP_FRACTION (70 %) of the
 *               median rate: when it starts and its lowest rate over the
 *               median (seed 003's "IOPS drop while the cache flushes");
 *               their period is the mean spacing of their starts.
 *
 * With a pause (DsSustainOptions.pause_ns), the target then stays idle that long and
 * the start of the region is written again (the cliff's bytes, or 10 % of
 * the region without a cliff): the recovery's rate against the start rate
 * says how much of the cache drained while idle.
 *
 * JSON ("results"): a workload's "results" object (ds-bench-workload.h:
 * runtime_s, engine, interval_s, write, cpu, series) with, beside it,
 *
 *   "random", "region_bytes", "start_bytes_per_s",
 *   "cliff_bytes" (null: none), "cliff_t_s" (null: none),
 *   "floor_bytes_per_s",
 *   "dips": [ { "t_s", "depth_ratio" }, … ], "dip_period_s" (null: < 2),
 *   "rule": { "start_fraction", "cliff_fraction", "dip_fraction" },
 *   "recovery": null or { "pause_s", "bytes", "runtime_s", "bytes_per_s",
 *                         "ratio" }
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench-workload.h"
#include "ds-interval.h"

G_BEGIN_DECLS

/* The sustained write's own options (DsBenchSpec.options of a sustain
 * spec); the rest is the workload's I/O shape in the spec. */
typedef struct {
  /* The region as a percentage (0 < p <= 100) of the device past
   * offset_bytes, used when span_bytes is 0; 0: to the end. */
  double   span_percent;
  uint64_t pause_ns;      /* idle, then the recovery write; 0: none */
} DsSustainOptions;

/* @spec's options; @spec must be a sustain spec. */
DsSustainOptions       *ds_sustain_options       (DsBenchSpec       *spec);
const DsSustainOptions *ds_sustain_options_const (const DsBenchSpec *spec);

#define DS_SUSTAIN_START_FRACTION 0.10
#define DS_SUSTAIN_CLIFF_FRACTION 0.50
#define DS_SUSTAIN_DIP_FRACTION   0.70
#define DS_SUSTAIN_CLIFF_MIN_REST 10u
#define DS_SUSTAIN_MAX_DIPS       100000u

typedef struct {
  double t_s;                  /* the dip's first interval starts */
  double depth_ratio;          /* its lowest rate / the median */
} DsSustainDip;

typedef struct {
  double   start_bytes_per_s;
  gboolean cliff_found;
  double   cliff_bytes;
  double   cliff_t_s;
  double   floor_bytes_per_s;
  GArray  *dips;               /* DsSustainDip */
  double   dip_period_s;       /* 0: fewer than two dips */
} DsSustainAnalysis;

typedef struct {
  double   pause_s;
  uint64_t bytes;
  double   runtime_s;
  double   bytes_per_s;
} DsSustainRecovery;

typedef struct {
  DsWorkloadData    *run;      /* the write: totals and series */
  gboolean           random;
  uint64_t           region_bytes;
  DsSustainAnalysis  analysis;
  gboolean           has_recovery;
  DsSustainRecovery  recovery;
} DsSustainData;

DsSustainData *ds_sustain_data_new  (void);
void           ds_sustain_data_free (DsSustainData *data);

/* The analysis above of a write series (the write direction's rates). */
void     ds_sustain_analyse      (const DsIntervalPoint *points,
                                  unsigned               n_points,
                                  DsSustainAnalysis     *ret);
void     ds_sustain_analysis_clear (DsSustainAnalysis  *analysis);
/* "the rate fell below 50 % of the start rate after 73.2 MB" or why not. */
char    *ds_sustain_cliff_words  (const DsSustainData  *data);
gboolean ds_sustain_spec_valid   (const DsBenchSpec    *spec,
                                  GError              **error);

JsonNode      *ds_sustain_data_to_json   (const DsSustainData *data);
DsSustainData *ds_sustain_data_from_json (JsonObject          *results,
                                          GError             **error);
void           ds_sustain_report         (const DsResult      *result,
                                          DsUnits              units,
                                          GString             *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-sustain-compare.c) and fio job (ds-sustain-fio.c):
 * DsBenchOps hooks. */
void     ds_sustain_compare_rows   (const DsResult *result,
                                    DsFigures      *figures);
void     ds_sustain_compare_curves (const DsResult *result,
                                    DsCurves       *curves);
gboolean ds_sustain_fio_job        (const DsResult *result,
                                    DsFioJobFile   *job,
                                    GError        **error);

G_END_DECLS
