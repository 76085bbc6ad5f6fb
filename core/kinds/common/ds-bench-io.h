/* ds-bench-io.h: I/O patterns several kinds share, built on ds_run_io()
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-run.h"

G_BEGIN_DECLS

/* A row that records its completions runs in slices of at most this much
 * timed I/O: between two slices (outside every timed window) the recorded
 * completions go to the sink, so the window draws them live about ten times
 * a second while no lock, allocation or call out happens per I/O. */
#define DS_BENCH_SLICE_NS (100 * DS_NS_PER_MSEC)

/* The tested span: the target's size, or --capacity when smaller, in whole
 * logical blocks. */
uint64_t ds_bench_span_bytes (DsRun *run);

/* Adds @part (one ds_run_io() of a row run in pieces) to @sum, which
 * ds_io_stats_init() set up: I/O counts, bytes, latency statistics and
 * histograms, CPU time; the elapsed times add up (a row's time is the sum of
 * its pieces' timed windows, the gaps between them are not I/O time); the
 * first error wins. */
void ds_bench_io_stats_add (DsIoStats       *sum,
                            const DsIoStats *part);

/* A sequential segment, timed the way the Benchmark's points and the Extra
 * Tests' sequential zones are: an untimed read of the segment's first block
 * brings the heads (or an array's prefetch) there, then @plan's I/O (its
 * direction, block, depth, duration and on_complete, which also sees the
 * positioning read) runs from the next block on, never past the segment's
 * end.  A one-block segment times that block itself.  @offset_bytes and
 * @segment_bytes are multiples of plan->block_bytes.  @ret_stats holds the
 * timed part, plus the positioning read's CPU time. */
int  ds_bench_run_segment  (DsRun           *run,
                            const DsIoPlan  *plan,
                            uint64_t         offset_bytes,
                            uint64_t         segment_bytes,
                            DsIoStats       *ret_stats,
                            GError         **error);

/* A burst: one untimed pass over @plan's region (sequential, a wrapping
 * plan) fills the drive's cache, then @plan runs timed, so the figure is
 * what the cache delivers however long that first pass took. */
int  ds_bench_run_cached   (DsRun           *run,
                            const DsIoPlan  *plan,
                            DsIoStats       *ret_stats,
                            GError         **error);

/* Gets the completions recorded in one slice, in order of completion. */
typedef void (*DsBenchRecordsFunc) (gpointer    user,
                                    const DsIo *ios,
                                    guint       n_ios);

/* Runs @plan (limited by duration_ns and/or max_ios; no ramp, no
 * on_complete of its own) in slices of at most DS_BENCH_SLICE_NS, recording
 * the first @keep completions: the completion callback only stores the DsIo
 * in a buffer allocated (and touched) before the I/O starts.  After each
 * slice, @deliver gets what the slice recorded, also when the slice failed.
 * Once @keep are recorded the rest runs in one piece.  @ret_stats sums the
 * slices (ds_bench_io_stats_add()). */
int  ds_bench_run_recorded (DsRun               *run,
                            const DsIoPlan      *plan,
                            guint                keep,
                            DsBenchRecordsFunc   deliver,
                            gpointer             user,
                            DsIoStats           *ret_stats,
                            GError             **error);

G_END_DECLS
