/* ds-cli-replay-keep.h: a replay's result kept, as every run's is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-trace.h"

G_BEGIN_DECLS

/* The options every command that keeps its result takes: --output FILE
 * and --no-library (added to @context; freed by _clear). */
typedef struct {
  char     *output;
  gboolean  no_library;
} DsCliReplayKeep;

void ds_cli_replay_keep_add   (DsCliReplayKeep   *keep,
                               GOptionContext    *context);
void ds_cli_replay_keep_clear (DsCliReplayKeep   *keep);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsCliReplayKeep, ds_cli_replay_keep_clear)

/* Before the replay: --output can be written (not the trace, not the
 * target).  FALSE with the message printed and the status in *@ret_status. */
gboolean ds_cli_replay_keep_check (const DsCliReplayKeep   *keep,
                                   const DsTraceReplaySpec *spec,
                                   int                     *ret_status);
/* After it: the replay's result (kind "replay": ds_replay_result_new())
 * saved to --output and in the results library (unless --no-library).
 * Returns the exit status: @status, or 1 when --output could not be
 * written. */
int      ds_cli_replay_keep       (const DsCliReplayKeep     *keep,
                                   const DsTraceReplaySpec   *spec,
                                   const DsTraceReplayResult *replay,
                                   int                        status);

G_END_DECLS
