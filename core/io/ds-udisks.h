/* ds-udisks.h: a block device opened by udisks2 for a user without rights
 *
 * A desktop user may not open /dev/sdX (root:disk 0660), and a GTK app
 * must not run as root.  udisks2 may open it for them: Block.OpenDevice
 * asks polkit (which shows the desktop's password prompt, or answers from
 * its rules) and passes the open fd back over D-Bus.  ds_target_open()
 * asks here when its own open() was refused with EACCES or EPERM.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether ds_target_open() may ask udisks2 at all (default: yes).  A
 * process-wide choice the front end makes once at start-up, before any
 * run (diskscope-cli --no-udisks); not a per-run setting. */
void     ds_udisks_set_enabled (gboolean enabled);
gboolean ds_udisks_get_enabled (void);

/* A front end without a desktop's authentication agent (the CLI in a
 * terminal) may start one around the call that can wait for polkit:
 * @begin right before Block.OpenDevice (it returns once the agent is
 * registered), @end right after.  Set once at start-up, like the above;
 * NULL hooks: none. */
typedef void (*DsUdisksAgentHook) (gpointer user_data);
void     ds_udisks_set_agent   (DsUdisksAgentHook  begin,
                                DsUdisksAgentHook  end,
                                gpointer           user_data);

/* A front end that shows a status (the app) is told, on the calling
 * thread, when this thread starts to wait for polkit's answer to open
 * @path (@waiting TRUE: a password prompt may be up) and when the answer
 * came (@waiting FALSE, whatever it was).  Per thread: a worker sets it
 * around its run and clears it (NULL) after. */
typedef void (*DsUdisksWaitFunc) (const char *path,
                                  gboolean    waiting,
                                  gpointer    user_data);
void     ds_udisks_set_thread_wait_func (DsUdisksWaitFunc func,
                                         gpointer         user_data);

/* Opens the block device @path through udisks2 on the system bus:
 * Manager.ResolveDevice finds its object, Block.OpenDevice opens it with
 * mode "r" (or "rw" with O_EXCL when @write) and O_DIRECT, polkit allowing
 * (a password prompt may show; the call waits for the answer).  Returns
 * the fd (close-on-exec), or -1 with @error set:
 *  - DS_ERROR_PERMISSION: polkit said no; the message names the action
 *    (org.freedesktop.udisks2.open-device, or -system for a system disk)
 *    and udisks2's reason (NotAuthorizedCanObtain: a password would do,
 *    but no authentication agent answered);
 *  - DS_ERROR_BUSY: the device is mounted or opened exclusively;
 *  - DS_ERROR_UNSUPPORTED: no system bus, no udisks2, or udisks2 does not
 *    know @path (the caller then keeps its own permission error);
 *  - DS_ERROR_CANCELLED: *@cancel became non-zero while it waited (checked
 *    every 100 ms; @cancel may be NULL);
 *  - DS_ERROR_FAILED: anything else udisks2 said.
 * Blocks the calling thread: call it from a worker, never the main loop. */
int      ds_udisks_open_device (const char  *path,
                                gboolean     write,
                                const gint  *cancel,
                                GError     **error);

G_END_DECLS
