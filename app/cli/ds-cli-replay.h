/* ds-cli-replay.h: `diskscope-cli replay`'s output, shared by the single
 * replay (ds-cli-replay.c) and the speed list and headroom search
 * (ds-cli-headroom.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "ds-trace.h"

G_BEGIN_DECLS

/* One replay's members (into an open object), with the trace's own
 * latency CDF beside the replay's when @trace has it. */
void ds_cli_replay_members (JsonBuilder               *builder,
                            const DsTraceReplayResult *result,
                            double                     speed,
                            const DsTraceLatency      *trace);
/* "5 ms", "480 µs". */
char *ds_cli_replay_ns     (uint64_t                   ns);

/* --speed's list (2 or more factors) or "search": the table, the search's
 * answer, and with @json all of it as JSON.  Returns the exit status. */
int  ds_cli_headroom       (const DsTraceReplaySpec   *spec,
                            const double              *factors,
                            guint                      n_factors,
                            gboolean                   search,
                            uint64_t                   p99_ns,
                            uint64_t                   step_ns,
                            gboolean                   json);

G_END_DECLS
