/* ds-params.h: which settings a result's "params" carries
 *
 * A result writes only the settings that shaped its run (a benchmark has no
 * pattern, a workload no file size); loading puts the kind's defaults back
 * for the ones left out, so older files with every member load as before.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "ds-bench.h"

G_BEGIN_DECLS

/* The settings members of a result's "params" (DsBenchOps.params says
 * which a kind's result carries); every run also has target, write,
 * engine and seed. */
enum {
  DS_PARAM_BLOCK = 1 << 0, DS_PARAM_CAPACITY = 1 << 1, DS_PARAM_ACCURACY = 1 << 2,
  DS_PARAM_PATTERN = 1 << 3, DS_PARAM_QUEUE = 1 << 4, DS_PARAM_THREADS = 1 << 5,
  DS_PARAM_MIX = 1 << 6, DS_PARAM_DURATION = 1 << 7, DS_PARAM_RAMP = 1 << 8,
  DS_PARAM_OFFSET = 1 << 9, DS_PARAM_SPAN = 1 << 10,
  DS_PARAM_BUFFERED = 1 << 12, DS_PARAM_ALIGN = 1 << 13,
};
/* DS_PARAM_DURATION when a row time was given (0 is the kind's default,
 * which the accuracy sets). */
#define DS_PARAM_ROW_TIME(spec) ((spec)->duration_ns != 0 ? DS_PARAM_DURATION : 0u)

/* The params hook of the kinds that read across the device a time per
 * row (Extra Tests, Random Access, Block Size). */
unsigned    ds_params_rows (const DsBenchSpec *spec);

/* Removes from @params (written for @spec) the members that did not shape a
 * run of its kind.  Returns @params. */
JsonObject *ds_params_prune (JsonObject        *params,
                             const DsBenchSpec *spec);

/* Adds to @params (read from a file of @kind) each settings member it
 * lacks, with the kind's default.  Returns @params. */
JsonObject *ds_params_fill  (JsonObject        *params,
                             DsBenchKind        kind);

/* TRUE when @spec's run draws random offsets, so that its params carry
 * random_align_bytes.  A file of such a run without the member was written
 * before it existed, when random offsets were multiples of the logical
 * block: it loads as DS_PARAMS_OLD_RANDOM_ALIGN. */
gboolean    ds_params_random_offsets (const DsBenchSpec *spec);
#define DS_PARAMS_OLD_RANDOM_ALIGN 512

G_END_DECLS
