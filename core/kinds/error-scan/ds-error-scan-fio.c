/* ds-error-scan-fio.c: why fio cannot run an Error Scan
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-error-scan.h"
#include "ds-fio-job.h"

gboolean
ds_error_scan_fio_job (const DsResult *result,
                       DsFioJobFile   *job,
                       GError        **error)
{
  (void) result;
  (void) job;
  return ds_fio_job_refuse (error, _("an Error Scan"),
                            _("fio stops at a read error (or skips it with continue_on_error) and reports neither each block's read time nor the bad ranges, which are what a scan finds"));
}
