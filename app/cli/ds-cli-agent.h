/* ds-cli-agent.h: a polkit password prompt in the terminal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#include "ds-udisks.h"

/* Lets a run that asks udisks2 to open a device start pkttyagent in the
 * terminal for the call (only when stdin and stderr are a terminal and no
 * other agent serves the session): sets @access's agent hooks. */
void ds_cli_agent_install (DsTargetAccess *access);

G_END_DECLS
