/* ds-health-fio.c: why fio cannot run a Health result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-health.h"
#include "ds-fio-job.h"

gboolean
ds_health_fio_job (const DsResult *result,
                   DsFioJobFile   *job,
                   GError        **error)
{
  (void) result;
  (void) job;
  return ds_fio_job_refuse (error, _("a Health result"),
                            _("it is what the drive's SMART data said (smartctl), not a test that moves data"));
}
