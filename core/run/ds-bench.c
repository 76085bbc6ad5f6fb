/* ds-bench.c: benchmark specs and the table of kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-clock.h"
#include "ds-engine.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-target.h"
#include "ds-preset.h"
#include "ds-bench-sweep.h"
#include "ds-bench-sustain.h"

static const char *const pattern_names[] = {
  [DS_PATTERN_READ] = "read",
  [DS_PATTERN_WRITE] = "write",
  [DS_PATTERN_RANDREAD] = "randread",
  [DS_PATTERN_RANDWRITE] = "randwrite",
  [DS_PATTERN_RANDRW] = "randrw",
  [DS_PATTERN_RW] = "rw",
};

static const char *const erase_method_names[] = {
  [DS_ERASE_ZEROS] = "zeros",
  [DS_ERASE_RANDOM] = "random",
  [DS_ERASE_DISCARD] = "discard",
  [DS_ERASE_SECURE_DISCARD] = "secure-discard",
};

static uint64_t
default_block_size (DsBenchKind kind)
{
  switch (kind)
    {
    case DS_BENCH_WORKLOAD:
    case DS_BENCH_SWEEP:
    case DS_BENCH_CACHE:
      return 4096;
    case DS_BENCH_ERROR_SCAN:
      /* 256 sectors of 512 bytes: the block MHDD and Victoria time, so
       * their latency buckets mean the same here. */
      return DS_ERROR_SCAN_DEFAULT_BLOCK;
    case DS_BENCH_ERASE:
      return DS_ERASE_DEFAULT_BLOCK;
    case DS_BENCH_SUSTAIN:
      return UINT64_C (1) << 20;
    case DS_BENCH_TRANSFER:
    case DS_BENCH_EXTRA:
    case DS_BENCH_RANDOM_ACCESS:
    case DS_BENCH_BLOCK_SIZE:
    case DS_BENCH_FILE:
    case DS_BENCH_HEALTH:
    case DS_BENCH_N_KINDS:
    default:
      return 64 * 1024;
    }
}

void
ds_bench_spec_init (DsBenchSpec *spec,
                    DsBenchKind  kind)
{
  *spec = (DsBenchSpec) {
    .kind = kind,
    .engine = g_strdup ("auto"),
    .block_size_bytes = default_block_size (kind),
    /* Erase is a write test whatever else the spec says. */
    .write = kind == DS_BENCH_ERASE,
    .accuracy = DS_BENCH_DEFAULT_ACCURACY,
    .pattern = DS_PATTERN_RANDREAD,
    .queue_depth = 1,
    .threads = 1,
    .read_mix_percent = 70,
    .duration_ns = kind == DS_BENCH_WORKLOAD || kind == DS_BENCH_SWEEP ? 10 * DS_NS_PER_SEC :
                   kind == DS_BENCH_CACHE ? 5 * DS_NS_PER_SEC : 0,
    .file_size_bytes = UINT64_C (1) << 30,
    .interval_ns = DS_NS_PER_SEC,
    .count = 1,
    .mix_percent = -1,
    .sweep_from = 1,
    .sweep_to = 256,
  };

  if (kind == DS_BENCH_MARK)
    ds_preset_apply_defaults (spec, ds_preset_get (0));
  if (kind == DS_BENCH_SUSTAIN)
    {
      spec->pattern = DS_PATTERN_WRITE;
      spec->queue_depth = 32;
    }
}

void
ds_bench_spec_copy (DsBenchSpec       *dst,
                    const DsBenchSpec *src)
{
  *dst = *src;
  dst->target_path = g_strdup (src->target_path);
  dst->destroy_data = g_strdup (src->destroy_data);
  dst->engine = g_strdup (src->engine);
  dst->preset = g_strdup (src->preset);
  dst->steps = g_strdup (src->steps);
  dst->rows = g_strdup (src->rows);
  dst->comment = g_strdup (src->comment);
  dst->sweep_levels = g_strdup (src->sweep_levels);
}

void
ds_bench_spec_clear (DsBenchSpec *spec)
{
  g_clear_pointer (&spec->target_path, g_free);
  g_clear_pointer (&spec->destroy_data, g_free);
  g_clear_pointer (&spec->engine, g_free);
  g_clear_pointer (&spec->preset, g_free);
  g_clear_pointer (&spec->steps, g_free);
  g_clear_pointer (&spec->rows, g_free);
  g_clear_pointer (&spec->comment, g_free);
  g_clear_pointer (&spec->sweep_levels, g_free);
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

const char *
ds_erase_method_to_string (DsEraseMethod method)
{
  if ((unsigned) method >= G_N_ELEMENTS (erase_method_names))
    return "zeros";

  return erase_method_names[method];
}

gboolean
ds_erase_method_from_string (const char    *name,
                             DsEraseMethod *ret_method)
{
  for (unsigned i = 0; name != NULL && i < G_N_ELEMENTS (erase_method_names); i++)
    if (strcmp (name, erase_method_names[i]) == 0)
      {
        *ret_method = (DsEraseMethod) i;
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

/* The rules of the health, error-scan and erase kinds. */
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
