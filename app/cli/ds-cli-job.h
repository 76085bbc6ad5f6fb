/* ds-cli-job.h: running one spec from a command, with a progress line and
 * the result printed (the error-scan, erase and health commands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-bench.h"
#include "ds-result.h"
#include "ds-units.h"

G_BEGIN_DECLS

typedef struct {
  gboolean    json;          /* the result as JSON on stdout, else the report */
  const char *output;        /* also save the JSON here (NULL: no) */
  gboolean    progress;      /* a progress line on stderr (when a terminal) */
  DsUnits     units;
  /* The text printed instead of the report (NULL: ds_report_text ()). */
  char     *(*text)      (const DsResult *result,
                          gpointer        data);
  gpointer    text_data;
  gboolean    no_library;    /* do not save the run in the results library */
  const char *const *inputs; /* files the result is read from, which
                              * --output never replaces (NULL-terminated;
                              * NULL: none) */
} DsCliJobOptions;

/* The options every job command takes (--json, --output, --units,
 * --no-progress): ds_cli_job_args_add() adds them to a command's context,
 * ds_cli_job_args_finish() turns them into DsCliJobOptions (which point
 * into @args: clear it after the run). */
typedef struct {
  gboolean  json;
  char     *output;
  char     *units;
  gboolean  no_progress;
  gboolean  no_library;
} DsCliJobArgs;

void     ds_cli_job_args_add    (DsCliJobArgs     *args,
                                 GOptionContext   *context);
gboolean ds_cli_job_args_finish (DsCliJobArgs     *args,
                                 DsCliJobOptions  *ret_options,
                                 GError          **error);
void     ds_cli_job_args_clear  (DsCliJobArgs     *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsCliJobArgs, ds_cli_job_args_clear)

/* SIGINT, SIGTERM and SIGHUP set *@flag (a run's cancel flag) instead of
 * killing: the run stops and its partial result is printed and saved. */
void     ds_cli_catch_stop_signals   (gint        *flag);
void     ds_cli_release_stop_signals (void);

/* Checks --output before a run (ds_save_check_destination): FALSE with the
 * message printed and the exit status (1) in *@ret_status. */
gboolean ds_cli_check_output (const char *output,
                              const char *target,
                              int        *ret_status);

/* Validates and runs @spec (a stop signal stops it and the partial result
 * is still printed), prints the result and returns the exit status. */
int  ds_cli_job_run   (const DsBenchSpec     *spec,
                       const DsCliJobOptions *options);

/* Saves and prints @result as @options say ("-o -": the JSON on stdout);
 * returns the exit status its error (or none) calls for, and 1 when the
 * result could not be saved or printed. */
int  ds_cli_job_print (const DsResult        *result,
                       const DsCliJobOptions *options);

/* "2m05s", "1h02m", "14s". */
char *ds_cli_format_duration (double seconds);

G_END_DECLS
