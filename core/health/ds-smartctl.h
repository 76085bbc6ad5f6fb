/* ds-smartctl.h: running smartctl (smartmontools) for health and
 * self-tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smartctl runs as a subprocess from an argument vector (never a shell),
 * with a timeout after which it is killed.  Every call blocks: run them on
 * a worker thread (a page) or in the CLI.  The program is
 * $DISKSCOPE_SMARTCTL when set (tests point it at a stand-in), else
 * smartctl from PATH, /usr/sbin or /sbin.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-health.h"

G_BEGIN_DECLS

typedef enum {
  DS_SELF_TEST_SHORT,
  DS_SELF_TEST_LONG,
} DsSelfTestKind;

/* The path of the smartctl to run; NULL with DS_ERROR_NOT_FOUND and how to
 * install it. */
char     *ds_smartctl_find            (GError           **error);

/* Runs smartctl with @args (without argv[0]) for at most @timeout_ns,
 * watching *@cancel (may be NULL) every 100 ms.  TRUE with its stdout and
 * exit status, or FALSE with DS_ERROR_NOT_FOUND (not installed),
 * DS_ERROR_FAILED (it timed out or crashed: the message says which) or
 * DS_ERROR_CANCELLED. */
gboolean  ds_smartctl_run             (const char *const *args,
                                       uint64_t           timeout_ns,
                                       const gint        *cancel,
                                       char             **ret_stdout,
                                       int               *ret_status,
                                       GError           **error);

/* `smartctl --json --xall DEVICE`, parsed and judged. */
DsHealth *ds_smartctl_read_health     (const char        *device,
                                       uint64_t           timeout_ns,
                                       const gint        *cancel,
                                       GError           **error);

/* `smartctl -t short|long DEVICE`: the drive runs the test in the
 * background; ds_smartctl_read_health() shows its progress
 * (self_test_running, self_test_remaining_percent) and, when done, the
 * log.  FALSE with smartctl's own message when the drive refuses. */
gboolean  ds_smartctl_start_self_test (const char        *device,
                                       DsSelfTestKind     kind,
                                       GError           **error);
/* `smartctl -X DEVICE`. */
gboolean  ds_smartctl_abort_self_test (const char        *device,
                                       GError           **error);

G_END_DECLS
