/* ds-udisks.h: a block device opened by udisks2 for a user without rights
 *
 * A desktop user may not open /dev/sdX (root:disk 0660), and a GTK app
 * must not run as root.  udisks2 may open it for them: Block.OpenDevice
 * asks polkit (which shows the desktop's password prompt, or answers from
 * its rules) and passes the open fd back over D-Bus.  ds_target_open()
 * asks here when its own open() was refused with EACCES or EPERM, unless
 * the caller's DsTargetAccess says not to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a front end says of the way a device may be opened for it, and
 * what the open says while it waits: per call, from the run (no state in
 * the core).  Zeroed (or NULL where taken): udisks2 may be asked, no agent,
 * nobody told. */
typedef void (*DsUdisksAgentHook) (gpointer user_data);
typedef void (*DsNoticeFunc)      (const char *message,
                                   gpointer    user_data);
typedef struct {
  const gint        *cancel;       /* non-zero: stop waiting for polkit */
  gboolean           no_udisks;    /* never ask udisks2 (--no-udisks) */
  /* A front end without a desktop's authentication agent (the CLI in a
   * terminal) may start one around the call that can wait for polkit:
   * @agent_begin right before Block.OpenDevice (it returns once the agent
   * is registered), @agent_end right after. */
  DsUdisksAgentHook  agent_begin;
  DsUdisksAgentHook  agent_end;
  gpointer           agent_data;
  /* Told, on the calling thread, when the open starts to wait for
   * polkit's answer (a sentence: a password prompt may be up) and when the
   * answer came (NULL, whatever it was). */
  DsNoticeFunc       notice;
  gpointer           notice_data;
} DsTargetAccess;

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
 *  - DS_ERROR_CANCELLED: *access->cancel became non-zero while it waited
 *    (checked every 100 ms; @access and its cancel may be NULL);
 *  - DS_ERROR_FAILED: anything else udisks2 said.
 * Blocks the calling thread: call it from a worker, never the main loop. */
int      ds_udisks_open_device (const char           *path,
                                gboolean              write,
                                const DsTargetAccess *access,
                                GError              **error);

G_END_DECLS
