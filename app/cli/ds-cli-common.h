/* ds-cli-common.h: what every diskscope-cli command shares (a leaf: it
 * includes no other command's header)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gi18n.h>

#include "ds-udisks.h"

G_BEGIN_DECLS

/* Exit statuses (README "Exit status"). */
enum {
  DS_CLI_OK = 0,
  DS_CLI_FAILED = 1,
  DS_CLI_USAGE = 2,
  DS_CLI_REFUSED = 3,
  DS_CLI_INTERRUPTED = 130,
};

/* The exit status for an error from the core or from option parsing. */
int      ds_cli_status_for_error (const GError *error);

/* Prints "diskscope-cli: MESSAGE" on stderr and returns the exit status
 * for @error. */
int      ds_cli_fail             (const GError *error);

/* Prints "diskscope-cli: " and the formatted message on stderr; returns
 * @status. */
int      ds_cli_complain         (int           status,
                                  const char   *format,
                                  ...) G_GNUC_PRINTF (2, 3);

/* A notice from a run (DS_SAMPLE_NOTICE: it waits for something outside
 * it): on a line of its own on stderr, with or without a progress line
 * (@progress_width: the progress line's width on a terminal, blanked
 * first; 0 if none is drawn).  NULL (the wait is over) prints nothing. */
void     ds_cli_notice           (const char   *text,
                                  int           progress_width);

/* Flushes stdout: when what was printed did not reach it (a full disk, a
 * closed stdout, a reader gone), says so and returns DS_CLI_FAILED;
 * otherwise @status. */
int      ds_cli_flush_stdout     (int           status);

/* How this command's runs may open a device (--no-udisks, or udisks2 with
 * a terminal's password prompt): set by ds_cli_parse_options(). */
const DsTargetAccess *ds_cli_target_access (void);

/* Parses @context; on failure prints the error and returns FALSE with the
 * usage status in *@ret_status. */
gboolean ds_cli_parse_options    (GOptionContext  *context,
                                  int             *argc,
                                  char          ***argv,
                                  int             *ret_status);

G_END_DECLS
