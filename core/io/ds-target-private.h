/* ds-target-private.h: what ds-target.c and ds-target-access.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-udisks.h"

G_BEGIN_DECLS

/* An open(2) of @path failed with @e: the DsError that says why and, for
 * EACCES/EPERM on a device, how to get access.  @direct: O_DIRECT was
 * asked (EINVAL then means the filesystem has none). */
void     _ds_target_set_open_error   (GError      **error,
                                      int           e,
                                      const char   *path,
                                      gboolean      direct);

/* An fd someone else opened (udisks2, a caller) must be what a run needs:
 * readable and writable for a write, O_DIRECT unless !@direct (set here
 * when it is missing), close-on-exec. */
gboolean _ds_target_adjust_fd_mode   (int           fd,
                                      const char   *path,
                                      gboolean      write,
                                      gboolean      direct,
                                      GError      **error);

/* Our own open() of the block device @path was refused with @e: asks
 * udisks2 to open it (polkit deciding; waits while *@cancel is 0).  The
 * fd, adjusted as above, or -1 with udisks2's refusal, or with our own
 * permission error when udisks2 is not there. */
int      _ds_target_open_via_udisks  (const char           *path,
                                      int                   e,
                                      gboolean              write,
                                      gboolean              direct,
                                      const DsTargetAccess *access,
                                      GError              **error);

G_END_DECLS
