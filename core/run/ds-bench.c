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

static const char *const pattern_names[] = {
  [DS_PATTERN_READ] = "read",
  [DS_PATTERN_WRITE] = "write",
  [DS_PATTERN_RANDREAD] = "randread",
  [DS_PATTERN_RANDWRITE] = "randwrite",
  [DS_PATTERN_RANDRW] = "randrw",
  [DS_PATTERN_RW] = "rw",
};

/* @ops's options with their defaults, or NULL for a kind without. */
static gpointer
options_new (const DsBenchOps *ops)
{
  if (ops == NULL || ops->options_size == 0)
    return NULL;
  return ops->options_new != NULL ? ops->options_new () : g_malloc0 (ops->options_size);
}

void
ds_bench_spec_init (DsBenchSpec *spec,
                    DsBenchKind  kind)
{
  const DsBenchOps *ops = ds_bench_get (kind);

  *spec = (DsBenchSpec) {
    .kind = kind,
    .engine = g_strdup ("auto"),
    .block_size_bytes = ops != NULL && ops->default_block_bytes != 0 ?
                        ops->default_block_bytes : 64 * 1024,
    .accuracy = DS_BENCH_DEFAULT_ACCURACY,
    .pattern = DS_PATTERN_RANDREAD,
    .queue_depth = 1,
    .threads = 1,
    .read_mix_percent = 70,
    .duration_ns = ops != NULL ? ops->default_duration_ns : 0,
    .interval_ns = DS_NS_PER_SEC,
  };

  spec->options = options_new (ops);
  if (ops != NULL && ops->defaults != NULL)
    ops->defaults (spec);
}

gboolean
ds_bench_random_offsets_always (const DsBenchSpec *spec)
{
  (void) spec;
  return TRUE;
}

/* @src's fields into @dst, the strings copied; the options are the
 * caller's. */
static void
copy_fields (DsBenchSpec       *dst,
             const DsBenchSpec *src)
{
  *dst = *src;
  dst->target_path = g_strdup (src->target_path);
  dst->destroy_data = g_strdup (src->destroy_data);
  dst->engine = g_strdup (src->engine);
  dst->options = NULL;
}

void
ds_bench_spec_copy (DsBenchSpec       *dst,
                    const DsBenchSpec *src)
{
  copy_fields (dst, src);
  if (src->options != NULL)
    {
      const DsBenchOps *ops = ds_bench_get (src->kind);

      g_assert (ops != NULL && ops->options_size > 0);
      dst->options = ops->options_copy != NULL ? ops->options_copy (src->options) :
                                                 g_memdup2 (src->options, ops->options_size);
    }
}

void
ds_bench_spec_init_from (DsBenchSpec       *spec,
                         DsBenchKind        kind,
                         const DsBenchSpec *src)
{
  const DsBenchOps *ops = ds_bench_get (kind);

  copy_fields (spec, src);
  spec->kind = kind;
  spec->options = options_new (ops);
}

void
ds_bench_spec_clear (DsBenchSpec *spec)
{
  g_clear_pointer (&spec->target_path, g_free);
  g_clear_pointer (&spec->destroy_data, g_free);
  g_clear_pointer (&spec->engine, g_free);
  if (spec->options != NULL)
    {
      const DsBenchOps *ops = ds_bench_get (spec->kind);

      g_assert (ops != NULL && ops->options_size > 0);
      g_clear_pointer (&spec->options, ops->options_free != NULL ? ops->options_free : g_free);
    }
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
