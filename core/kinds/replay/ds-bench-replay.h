/* ds-bench-replay.h: a trace replayed on a target (kind "replay")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture file (docs/trace-format.md) replayed open loop on the spec's
 * target by ds_trace_replay() (core/trace/): each I/O at its recorded
 * time divided by the speed, O_DIRECT, incompressible data; writes only
 * through the write gate (spec->destroy_data), or the reads alone
 * (reads_only).  The result keeps the replay's figures and, beside them,
 * the capture's own (the trace's profile: ds_trace_profile_summary()),
 * so that a replay compares against the production disk it was captured
 * on as well as against other replays.
 *
 * The run's samples are the replay's intervals (spec.interval_ns, 1 s
 * by default: IOPS and p99 of what completed in each), kept as the
 * result's series.
 *
 * Warnings in the result (beside the common ones of the environment):
 * "replay_behind" (fewer than DS_REPLAY_FIDELITY_MIN of the I/Os issued
 * within 100 µs of their time), "replay_wrapped" (the trace reaches past
 * the target's end: offsets wrapped), "replay_target_paced" (I/Os waited
 * for a free slot: the target's latency set the pace).
 *
 * JSON ("results"; ds-replay-json.c, docs/result-json.md):
 *
 *   { "speed", "reads_only", "ios", "reads", "writes", "flushes",
 *     "skipped", "wrapped", "errors", "bytes", "waited_for_slot",
 *     "max_in_flight", "duration_s", "recorded_iops", "achieved_iops",
 *     "fidelity": { "within_100us", "within_1ms",
 *                   "late_s": { "p50", "p99", "max" } },
 *     "latency_s": { "p50", "p99", "p99_9", "read_p50", "read_p99",
 *                    "write_p50", "write_p99" },
 *     "target_bytes", "trace_span_bytes",
 *     "capture": { "ios", "reads", "writes", "duration_s", "iops",
 *                  "latency_s": { "p50", "p99", "p99_9" } } or null,
 *     "loop": "open" or "closed", "mean_depth", "recorded_mean_depth",
 *     "series": [ interval points, as a workload's ] (optional) }
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-trace.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* Below this share of I/Os on time (within 100 µs), the replay did not
 * reproduce the trace's timing: said as a warning. */
#define DS_REPLAY_FIDELITY_MIN 0.99
#define DS_REPLAY_SPEED_MIN    0.001
#define DS_REPLAY_SPEED_MAX    1000.0

/* The kind's options (DsBenchSpec.options). */
typedef struct {
  char       *trace_path;   /* the capture file */
  double      speed;        /* open loop: 1 as recorded; 2 twice as fast */
  gboolean    reads_only;   /* the reads alone (no confirmation needed) */
  DsTraceLoop loop;         /* open (each I/O at its time) or closed */
  unsigned    depth;        /* closed loop: in flight (0: the trace's own) */
} DsReplayOptions;

DsReplayOptions       *ds_replay_options       (DsBenchSpec       *spec);
const DsReplayOptions *ds_replay_options_const (const DsBenchSpec *spec);

/* The capture's own figures (its profile), the replay's baseline. */
typedef struct {
  uint64_t ios, reads, writes;
  double   duration_s, iops;
  double   p50_s, p99_s, p999_s;   /* 0: the trace has no completions */
} DsReplayCapture;

typedef struct {
  double   speed;
  gboolean reads_only;
  uint64_t ios, reads, writes, flushes, skipped, wrapped, errors;
  uint64_t bytes;
  uint64_t waited;              /* I/Os that waited for a free slot */
  unsigned max_in_flight;
  double   duration_s;
  double   recorded_iops;       /* the trace's, scaled by the speed */
  double   achieved_iops;
  double   within_100us, within_1ms;
  double   late_p50_s, late_p99_s, late_max_s;
  double   p50_s, p99_s, p999_s;
  double   read_p50_s, read_p99_s, write_p50_s, write_p99_s;
  uint64_t target_bytes, trace_span_bytes;
  gboolean has_capture;
  DsReplayCapture capture;
  DsTraceLoop loop;
  double   mean_depth;          /* in flight on average: the replay's */
  double   recorded_mean_depth; /* and the trace's (0: unknown) */
  GArray  *series;              /* DsIntervalPoint of the replay, or NULL */
} DsReplayData;

DsReplayData *ds_replay_data_new  (void);
void          ds_replay_data_free (DsReplayData *data);

/* @data from what ds_trace_replay() gave, at @speed. */
void      ds_replay_data_take      (DsReplayData              *data,
                                    const DsTraceReplayResult *replay,
                                    double                     speed,
                                    gboolean                   reads_only);
/* The capture's figures of the trace at @trace_path (its profile), into
 * @data; FALSE with @error when the trace cannot be read. */
gboolean  ds_replay_data_capture   (DsReplayData              *data,
                                    const char                *trace_path,
                                    GError                   **error);
/* The replay's own warnings (above) for @data, appended to @warnings. */
void      ds_replay_warnings       (const DsReplayData        *data,
                                    GPtrArray                 *warnings);

/* A result of @spec (a replay spec) for a replay already made (the CLI's
 * `replay`, which runs ds_trace_replay() itself): where and when, the
 * environment and its common warnings, the target as it is, the replay's
 * figures, the capture's (the trace is profiled; a trace that cannot be
 * read leaves the capture out, with a note) and the replay's warnings. */
DsResult *ds_replay_result_new     (const DsBenchSpec         *spec,
                                    const DsTraceReplayResult *replay);

JsonNode     *ds_replay_data_to_json   (const DsReplayData *data);
DsReplayData *ds_replay_data_from_json (JsonObject         *results,
                                        GError            **error);
void          ds_replay_report         (const DsResult     *result,
                                        DsUnits             units,
                                        GString            *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-replay-compare.c) and fio job (ds-replay-fio.c). */
void     ds_replay_compare_rows (const DsResult *result,
                                 DsFigures      *figures);
gboolean ds_replay_fio_job      (const DsResult *result,
                                 DsFioJobFile   *job,
                                 GError        **error);

G_END_DECLS
