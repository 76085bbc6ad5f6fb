/* ds-bench.c: benchmark specs and the table of kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench.h"
#include "ds-clock.h"

static const char *const pattern_names[] = {
  [DS_PATTERN_READ] = "read",
  [DS_PATTERN_WRITE] = "write",
  [DS_PATTERN_RANDREAD] = "randread",
  [DS_PATTERN_RANDWRITE] = "randwrite",
  [DS_PATTERN_RANDRW] = "randrw",
};

void
ds_bench_spec_init (DsBenchSpec *spec,
                    DsBenchKind  kind)
{
  *spec = (DsBenchSpec) {
    .kind = kind,
    .engine = g_strdup ("auto"),
    .block_size_bytes = kind == DS_BENCH_WORKLOAD ? 4096 : 64 * 1024,
    .accuracy = DS_BENCH_DEFAULT_ACCURACY,
    .pattern = DS_PATTERN_RANDREAD,
    .queue_depth = 1,
    .threads = 1,
    .read_mix_percent = 70,
    .duration_ns = kind == DS_BENCH_WORKLOAD ? 10 * DS_NS_PER_SEC : 0,
    .file_size_bytes = UINT64_C (1) << 30,
  };
}

void
ds_bench_spec_copy (DsBenchSpec       *dst,
                    const DsBenchSpec *src)
{
  *dst = *src;
  dst->target_path = g_strdup (src->target_path);
  dst->destroy_data = g_strdup (src->destroy_data);
  dst->engine = g_strdup (src->engine);
}

void
ds_bench_spec_clear (DsBenchSpec *spec)
{
  g_clear_pointer (&spec->target_path, g_free);
  g_clear_pointer (&spec->destroy_data, g_free);
  g_clear_pointer (&spec->engine, g_free);
}

const char *
ds_pattern_to_string (DsPattern pattern)
{
  if ((unsigned) pattern >= G_N_ELEMENTS (pattern_names))
    return "read";

  return pattern_names[pattern];
}

gboolean
ds_pattern_from_string (const char *name,
                        DsPattern  *ret_pattern)
{
  for (unsigned i = 0; name != NULL && i < G_N_ELEMENTS (pattern_names); i++)
    if (strcmp (name, pattern_names[i]) == 0)
      {
        *ret_pattern = (DsPattern) i;
        return TRUE;
      }

  return FALSE;
}

uint64_t
ds_bench_accuracy_point_ns (unsigned accuracy)
{
  accuracy = CLAMP (accuracy, 1, 5);

  /* 62.5 ms × 2^(accuracy - 1). */
  return (DS_NS_PER_SEC / 16) << (accuracy - 1);
}

static const DsBenchOps *const kinds[DS_BENCH_N_KINDS] = {
  [DS_BENCH_TRANSFER] = &ds_bench_transfer,
  [DS_BENCH_EXTRA] = &ds_bench_extra,
  [DS_BENCH_RANDOM_ACCESS] = &ds_bench_random_access,
  [DS_BENCH_BLOCK_SIZE] = &ds_bench_block_size,
  [DS_BENCH_FILE] = &ds_bench_file,
  [DS_BENCH_WORKLOAD] = &ds_bench_workload,
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
