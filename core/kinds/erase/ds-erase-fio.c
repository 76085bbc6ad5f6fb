/* ds-erase-fio.c: why fio cannot run an Erase
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-erase.h"
#include "ds-fio-job.h"

gboolean
ds_erase_fio_job (const DsResult *result,
                  DsFioJobFile   *job,
                  GError        **error)
{
  (void) result;
  (void) job;
  return ds_fio_job_refuse (error, _("an Erase"),
                            _("fio neither discards nor reads back to verify, and a job that overwrites a disk should be the erase itself (diskscope-cli erase), with its confirmation"));
}
