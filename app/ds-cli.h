/* ds-cli.h: diskscope-cli commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit statuses. */
enum {
  DS_CLI_OK = 0,
  DS_CLI_FAILED = 1,
  DS_CLI_USAGE = 2,
  DS_CLI_REFUSED = 3,
  DS_CLI_INTERRUPTED = 130,
};

int ds_cli_main  (int argc, char **argv);

/* Each command gets argv with argv[0] = the command's name. */
int ds_cli_list  (int argc, char **argv);    /* ds-cli-device.c */
int ds_cli_info  (int argc, char **argv);    /* ds-cli-device.c */
int ds_cli_run   (int argc, char **argv);    /* ds-cli-run.c: every kind */

/* The exit status for an error from the core. */
int ds_cli_status_for_error (const GError *error);

G_END_DECLS
