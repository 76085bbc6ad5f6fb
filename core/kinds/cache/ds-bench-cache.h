/* ds-bench-cache.h: the cache probe (kind "cache")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Random reads over working sets growing geometrically from 16 MiB (at the
 * start of the device) to the device's size or spec->span_bytes (--max),
 * each set read once sequentially first (the prefill, not counted) so that
 * a read cache big enough holds all of it, then read at random for the
 * spec's duration.  Where IOPS fall, reads stop being served from cache.
 *
 * The estimate (ds_cache_estimate()): a set is fast when its IOPS are at
 * least DS_CACHE_FAST_FRACTION (50 %) of the first set's.  With a slow set
 * after a fast one (and the largest set slow), the cache holds at least the
 * last fast set.  Reads of a set S larger than a cache of C bytes (random,
 * uniform, least recently used out) hit with probability C / S: the first
 * slow set's mean latency L, between the hot latency (the first set's) and
 * the cold one (the slowest set's from there on), gives that share h = (cold − L) /
 * (cold − hot), and the estimate is max(last fast set, h × S).  Without a
 * fast set followed by slow ones there is no estimate (null): no cache was
 * seen up to the largest set, or every set was already slow.
 *
 * One slow set is not evidence enough (another program's burst of I/O
 * slows a set as much as a cache edge does): the edge is the first of the
 * slow sets that end the probe, and it stands when two sets are slow
 * there, or when the only one, the largest, is slow again measured a
 * second time (the run re-measures it: DsCacheSet.repeated).  Otherwise
 * the verdict says why there is none (DsCacheVerdict).  The cache lies
 * between the last fast set and the first slow one (largest_fast_bytes,
 * first_slow_bytes): the words say both beside the estimate (not for the
 * write variant: a set written a little past a write-back cache still
 * runs at more than half the pace, so its cache may lie below the bounds).
 *
 * The write variant (spec->write, --write; a write test, gated as every
 * one): per set, a flush (a write-back cache empties on it), then the set
 * written once at random offsets (counted: the set's IOPS and latency are
 * the writes'), then read at random for the spec's duration (the set's
 * read_latency_s, what the media gives without the cache).  A write-back
 * cache of C bytes takes the first C bytes (as the host sees them: more
 * while it drains) fast and the rest at the media's pace: the same rule
 * finds the edge (the writes of a set up to C stay fast), and the size is
 * C from the sets past it (ds_cache_estimate_writes()): a set of S takes
 * C × hot + (S − C) × cold, so the two largest give cold, and then C.
 *
 * JSON ("results"; ds-cache-json.c):
 *
 *   { "block_size_bytes", "queue_depth", "set_time_s",
 *     "sets": [ { "bytes", "iops", "bytes_per_s", "ios",
 *                 "latency_s": { "mean", "p99" }, "complete" }, … ],
 *     "cache_estimate_bytes" (null: none), "largest_fast_bytes" (null),
 *     "first_slow_bytes" (null), "drop_ratio" (null), "verdict" (the
 *     DsCacheVerdict's name: "cache", "too_few_sets", "no_edge",
 *     "slow_once", "noise"), "hot_latency_s", "cold_latency_s",
 *     "rule": { "fast_fraction" }, and per set "repeat": { "iops",
 *     "latency_s": { "mean", "p99" } } when it was measured twice,
 *     "write": true, and per set "read_latency_s": { "mean", "p99" }
 *     (only for the write variant: the sets' figures are the writes') }
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-units.h"

G_BEGIN_DECLS

#define DS_CACHE_FIRST_SET_BYTES (UINT64_C (16) << 20)
#define DS_CACHE_FAST_FRACTION   0.50
#define DS_CACHE_MAX_SETS        48u

typedef struct _DsCacheSet DsCacheSet;
struct _DsCacheSet {
  uint64_t bytes;              /* the working set, from offset 0 */
  gboolean complete;
  uint64_t ios;
  double   iops;
  double   bytes_per_s;
  double   lat_mean_s;
  double   lat_p99_s;
  double   read_lat_mean_s;    /* write variant: the reads after the writes */
  double   read_lat_p99_s;
  gboolean repeated;           /* measured a second time (the largest set,
                                * when it alone was slow) */
  double   repeat_iops;
  double   repeat_lat_mean_s;
  double   repeat_lat_p99_s;
};

/* Why there is an estimate, or why not. */
typedef enum {
  DS_CACHE_VERDICT_TOO_FEW,     /* fewer than two sets measured (0: an
                                 * estimate not yet made) */
  DS_CACHE_VERDICT_CACHE,       /* an edge, seen twice: the estimate */
  DS_CACHE_VERDICT_NO_EDGE,     /* the largest set is fast: no cache seen
                                 * up to it (or none as small as the first) */
  DS_CACHE_VERDICT_SLOW_ONCE,   /* only the largest set was slow, measured
                                 * once (not yet, or the run stopped) */
  DS_CACHE_VERDICT_NOISE,       /* only the largest set was slow, and fast
                                 * again measured a second time */
} DsCacheVerdict;

typedef struct {
  DsCacheVerdict verdict;
  gboolean found;              /* verdict == DS_CACHE_VERDICT_CACHE */
  double   estimate_bytes;
  uint64_t largest_fast_bytes; /* the edge's bounds: also for SLOW_ONCE */
  uint64_t first_slow_bytes;   /* and NOISE, the edge that was not one */
  double   drop_ratio;         /* the first slow set's IOPS / the last fast one's */
  double   hot_latency_s;      /* the first set's mean */
  double   cold_latency_s;     /* the largest set's mean; with an edge, the
                                * slowest mean past it */
} DsCacheEstimate;

typedef struct {
  gboolean         write;      /* the write variant: sets are writes */
  uint64_t         block_size_bytes;
  unsigned         queue_depth;
  double           set_time_s;
  GArray          *sets;       /* DsCacheSet */
  DsCacheEstimate  estimate;
} DsCacheData;

DsCacheData *ds_cache_data_new  (void);
void         ds_cache_data_free (DsCacheData *data);

/* The rule above on the complete sets of @sets (in order). */
void         ds_cache_estimate  (const GArray    *sets,
                                 DsCacheEstimate *ret);
/* The write variant's (above): the same edge, the size from the time the
 * sets past it took (cold_latency_s: the fitted pace past the cache). */
void         ds_cache_estimate_writes (const GArray    *sets,
                                       DsCacheEstimate *ret);
char        *ds_cache_words     (const DsCacheData *data);
/* "cache", "too_few_sets", "no_edge", "slow_once", "noise". */
const char  *ds_cache_verdict_name (DsCacheVerdict verdict);
/* TRUE when the run should measure its largest set a second time: it alone
 * was slow (DS_CACHE_VERDICT_SLOW_ONCE). */
gboolean     ds_cache_wants_repeat (const DsCacheEstimate *estimate);

JsonNode    *ds_cache_data_to_json   (const DsCacheData *data);
DsCacheData *ds_cache_data_from_json (JsonObject        *results,
                                      GError           **error);
void         ds_cache_report         (const DsResult    *result,
                                      DsUnits            units,
                                      GString           *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-cache-compare.c) and fio job (ds-cache-fio.c):
 * DsBenchOps hooks. */
void     ds_cache_compare_rows   (const DsResult *result,
                                  DsFigures      *figures);
void     ds_cache_compare_curves (const DsResult *result,
                                  DsCurves       *curves);
gboolean ds_cache_fio_job        (const DsResult *result,
                                  DsFioJobFile   *job,
                                  GError        **error);

G_END_DECLS
