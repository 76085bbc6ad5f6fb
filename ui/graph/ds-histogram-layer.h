/* ds-histogram-layer.h: latency histogram bars, with percentile marks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-bench-workload.h"
#include "ds-graph-layer.h"

G_BEGIN_DECLS

/* Bars are this many per power of two: the core's buckets (1/64 of a
 * power of two) summed eight by eight, so a bar holds enough I/Os to
 * read as a shape and the axis still resolves 9 % steps. */
#define DS_HISTOGRAM_BARS_PER_OCTAVE 8

/* At most this many marks (p50, p99, p99.9, …). */
#define DS_HISTOGRAM_MAX_MARKS 4

#define DS_TYPE_HISTOGRAM_LAYER (ds_histogram_layer_get_type ())
G_DECLARE_FINAL_TYPE (DsHistogramLayer, ds_histogram_layer, DS, HISTOGRAM_LAYER, DsGraphLayer)

DsGraphLayer *ds_histogram_layer_new         (void);
/* Fills @series with @buckets (DsLatencyBucket: upper bounds in seconds,
 * ascending; NULL or empty: no bars) as this layer draws them: one point
 * per bar, x = its upper bound in nanoseconds, y = the I/Os in it.  Use
 * it with a graph whose x axis is DS_GRAPH_AXIS_LATENCY_LOG. */
void          ds_histogram_series_set_buckets (DsSeries        *series,
                                               const GArray    *buckets);
/* Vertical marks at @latency_s (seconds), labelled (“p99”); 0 removes
 * them all.  At most DS_HISTOGRAM_MAX_MARKS; a latency of 0 is left out. */
void          ds_histogram_layer_set_marks   (DsHistogramLayer  *self,
                                              const double      *latency_s,
                                              const char *const *labels,
                                              guint              n_marks);

G_END_DECLS
