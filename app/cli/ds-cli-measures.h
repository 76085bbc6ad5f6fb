/* ds-cli-measures.h: what the sweep, sustain and cache commands share:
 * sizes, times and counts typed as options, each into its spec field, and
 * the way from parsed options to a printed result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-cli-job.h"

G_BEGIN_DECLS

typedef enum {
  DS_CLI_SIZE,        /* ds_parse_size(): 4K, 1G */
  DS_CLI_TIME,        /* ds_parse_duration(): 500ms, 10s */
  DS_CLI_COUNT,       /* a whole number; its range is the spec's rule */
  DS_CLI_ALIGN,       /* ds_parse_random_align(): block, 512, 4K */
} DsCliMeasureKind;

typedef struct {
  const char       *option;   /* without the dashes */
  const char       *text;     /* as typed; NULL: not given (left alone) */
  DsCliMeasureKind  kind;
  uint64_t         *field;    /* DS_CLI_SIZE, DS_CLI_TIME */
  unsigned         *count;    /* DS_CLI_COUNT */
} DsCliMeasure;

/* Parses each given option into its field; FALSE with DS_ERROR_INVALID
 * ("--step-time: …") at the first that does not parse. */
gboolean ds_cli_parse_measures (const DsCliMeasure *measures,
                                unsigned            n_measures,
                                GError            **error);

/* The end of every such command's spec: --engine (NULL: auto) and --seed
 * (NULL: from the clock) into @spec, then ds_bench_spec_validate(). */
gboolean ds_cli_finish_spec (DsBenchSpec  *spec,
                             const char   *engine,
                             const char   *seed,
                             GError      **error);

/* Fills @spec (initialised for the kind, target_path set) from the
 * command's options @data. */
typedef gboolean (*DsCliBuildFunc) (gpointer      data,
                                    DsBenchSpec  *spec,
                                    GError      **error);

/* Parses @argv with @context (which has @job's options added), wants one
 * TARGET, builds a @kind spec with @build and runs it as a job; returns
 * the exit status.  @name is the command's, for the usage message. */
int      ds_cli_run_one_target (GOptionContext *context,
                                DsCliJobArgs   *job,
                                const char     *name,
                                DsBenchKind     kind,
                                DsCliBuildFunc  build,
                                gpointer        data,
                                int             argc,
                                char          **argv);

G_END_DECLS
