/* ds-cli.h: diskscope-cli's commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-cli-common.h"

G_BEGIN_DECLS

int ds_cli_main   (int argc, char **argv);

/* --align's help, the same on every command with random offsets. */
#define DS_CLI_ALIGN_HELP N_("Random offsets: multiples of each I/O's block size (block, the " \
                             "default, as fio and CrystalDiskMark) or of SIZE (512: HD Tune's " \
                             "Random Access)")

/* Each command gets argv with argv[0] = the command's name, and returns the
 * exit status.  ds-cli.c's table lists them with their usage lines. */
int ds_cli_list   (int argc, char **argv);    /* ds-cli-device.c */
int ds_cli_info   (int argc, char **argv);    /* ds-cli-device.c */
int ds_cli_run    (int argc, char **argv);    /* ds-cli-run.c: every kind */
int ds_cli_report (int argc, char **argv);    /* ds-cli-report.c */
int ds_cli_health (int argc, char **argv);    /* ds-cli-health.c */
int ds_cli_scan   (int argc, char **argv);    /* ds-cli-scan.c */
int ds_cli_erase  (int argc, char **argv);    /* ds-cli-erase.c */
int ds_cli_monitor (int argc, char **argv);   /* ds-cli-monitor.c */
int ds_cli_mark   (int argc, char **argv);    /* ds-cli-mark.c */
int ds_cli_sweep  (int argc, char **argv);    /* ds-cli-sweep.c */
int ds_cli_sustain (int argc, char **argv);   /* ds-cli-sustain.c */
int ds_cli_cache  (int argc, char **argv);    /* ds-cli-cache.c */
/* workload: with --preset or --list-presets ds-cli-mark.c, else ds_cli_run. */
int ds_cli_workload (int argc, char **argv);  /* ds-cli-mark.c */
int ds_cli_results (int argc, char **argv);   /* ds-cli-results.c */
int ds_cli_compare (int argc, char **argv);   /* ds-cli-compare.c */
int ds_cli_export_fio (int argc, char **argv); /* ds-cli-fio.c */
int ds_cli_import_fio (int argc, char **argv); /* ds-cli-fio.c */
int ds_cli_capture (int argc, char **argv);   /* ds-cli-capture.c */
int ds_cli_profile (int argc, char **argv);   /* ds-cli-profile.c */
int ds_cli_import_trace (int argc, char **argv); /* ds-cli-profile.c */
int ds_cli_replay (int argc, char **argv);    /* ds-cli-replay.c */
int ds_cli_synthesize (int argc, char **argv); /* ds-cli-synth.c */

G_END_DECLS
