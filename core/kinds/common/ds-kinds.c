/* ds-kinds.c: the table of kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench.h"

/* Every kind, in DsBenchKind's order.  Adding a kind is a row here, its
 * folder, its page and its tests. */
static const DsBenchOps *const kinds[DS_BENCH_N_KINDS] = {
  [DS_BENCH_TRANSFER] = &ds_bench_transfer,
  [DS_BENCH_EXTRA] = &ds_bench_extra,
  [DS_BENCH_RANDOM_ACCESS] = &ds_bench_random_access,
  [DS_BENCH_BLOCK_SIZE] = &ds_bench_block_size,
  [DS_BENCH_FILE] = &ds_bench_file,
  [DS_BENCH_WORKLOAD] = &ds_bench_workload,
  [DS_BENCH_HEALTH] = &ds_bench_health,
  [DS_BENCH_ERROR_SCAN] = &ds_bench_error_scan,
  [DS_BENCH_ERASE] = &ds_bench_erase,
  [DS_BENCH_MARK] = &ds_bench_mark,
  [DS_BENCH_SWEEP] = &ds_bench_sweep,
  [DS_BENCH_SUSTAIN] = &ds_bench_sustain,
  [DS_BENCH_CACHE] = &ds_bench_cache,
  [DS_BENCH_REPLAY] = &ds_bench_replay,
};

const DsBenchOps *
ds_bench_get (DsBenchKind kind)
{
  if ((unsigned) kind >= DS_BENCH_N_KINDS)
    return NULL;

  return kinds[kind];
}

const DsBenchOps *
ds_bench_lookup (const char *name)
{
  for (unsigned i = 0; name != NULL && i < DS_BENCH_N_KINDS; i++)
    if (strcmp (kinds[i]->name, name) == 0)
      return kinds[i];

  return NULL;
}

gboolean
ds_bench_kind_has_folder (DsBenchKind kind)
{
  const DsBenchOps *ops = ds_bench_get (kind);

  return ops != NULL && (ops->spec_flags & DS_BENCH_SPEC_FOLDER) != 0;
}
