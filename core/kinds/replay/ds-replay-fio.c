/* ds-replay-fio.c: why fio cannot run a replay's result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio replays its own iolog (read_iolog), not a Diskscope capture file;
 * a job pointing at the capture would not run, and one made from the
 * result's figures would be another workload under the replay's name.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-replay.h"
#include "ds-fio-job.h"

gboolean
ds_replay_fio_job (const DsResult *result,
                   DsFioJobFile   *job,
                   GError        **error)
{
  (void) result;
  (void) job;
  return ds_fio_job_refuse (error, _("a Replay result"),
                            _("fio replays only its own iolog (read_iolog), not a Diskscope capture "
                              "file, and the result holds the replay's figures, not the trace's I/Os"));
}
