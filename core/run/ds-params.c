/* ds-params.c: which settings a result's "params" carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-params.h"

static const struct {
  unsigned    bit;
  const char *member;
} members[] = {
  { DS_PARAM_BLOCK, "block_size_bytes" },
  { DS_PARAM_CAPACITY, "capacity_bytes" },
  { DS_PARAM_ACCURACY, "accuracy" },
  { DS_PARAM_PATTERN, "pattern" },
  { DS_PARAM_QUEUE, "queue_depth" },
  { DS_PARAM_THREADS, "threads" },
  { DS_PARAM_MIX, "read_mix_percent" },
  { DS_PARAM_DURATION, "duration_s" },
  { DS_PARAM_RAMP, "ramp_s" },
  { DS_PARAM_OFFSET, "offset_bytes" },
  { DS_PARAM_SPAN, "span_bytes" },
  { DS_PARAM_BUFFERED, "buffered" },
  { DS_PARAM_ALIGN, "random_align_bytes" },
};

gboolean
ds_params_random_offsets (const DsBenchSpec *spec)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);

  return ops != NULL && ops->random_offsets != NULL && ops->random_offsets (spec);
}

unsigned
ds_params_rows (const DsBenchSpec *spec)
{
  return DS_PARAM_CAPACITY | DS_PARAM_ACCURACY | DS_PARAM_ROW_TIME (spec);
}

static gboolean
is_own_member (const DsBenchOps *ops,
               const char       *member)
{
  for (const char *const *m = ops != NULL ? ops->params_members : NULL; m != NULL && *m != NULL; m++)
    if (strcmp (*m, member) == 0)
      return TRUE;

  return FALSE;
}

JsonObject *
ds_params_prune (JsonObject        *params,
                 const DsBenchSpec *spec)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  unsigned keep = (ops != NULL && ops->params != NULL ? ops->params (spec) : 0) |
                  (ds_params_random_offsets (spec) ? DS_PARAM_ALIGN : 0);

  for (unsigned i = 0; i < G_N_ELEMENTS (members); i++)
    if (!(keep & members[i].bit) && json_object_has_member (params, members[i].member))
      json_object_remove_member (params, members[i].member);

  /* The members of the other kinds' own options. */
  for (unsigned k = 0; k < DS_BENCH_N_KINDS; k++)
    {
      const DsBenchOps *other = ds_bench_get ((DsBenchKind) k);

      if (other == ops || other->params_members == NULL)
        continue;
      for (const char *const *m = other->params_members; *m != NULL; m++)
        if (!is_own_member (ops, *m) && json_object_has_member (params, *m))
          json_object_remove_member (params, *m);
    }

  return params;
}

JsonObject *
ds_params_fill (JsonObject  *params,
                DsBenchKind  kind)
{
  DsBenchSpec spec;

  ds_bench_spec_init (&spec, kind);

  if (!json_object_has_member (params, "block_size_bytes"))
    json_object_set_int_member (params, "block_size_bytes", (gint64) spec.block_size_bytes);
  if (!json_object_has_member (params, "capacity_bytes"))
    json_object_set_int_member (params, "capacity_bytes", (gint64) spec.capacity_bytes);
  if (!json_object_has_member (params, "accuracy"))
    json_object_set_int_member (params, "accuracy", spec.accuracy);
  if (!json_object_has_member (params, "pattern"))
    json_object_set_string_member (params, "pattern", ds_pattern_to_string (spec.pattern));
  if (!json_object_has_member (params, "queue_depth"))
    json_object_set_int_member (params, "queue_depth", spec.queue_depth);
  if (!json_object_has_member (params, "threads"))
    json_object_set_int_member (params, "threads", spec.threads);
  if (!json_object_has_member (params, "read_mix_percent"))
    json_object_set_int_member (params, "read_mix_percent", spec.read_mix_percent);
  if (!json_object_has_member (params, "duration_s"))
    json_object_set_double_member (params, "duration_s", (double) spec.duration_ns / 1e9);
  if (!json_object_has_member (params, "ramp_s"))
    json_object_set_double_member (params, "ramp_s", (double) spec.ramp_ns / 1e9);
  if (!json_object_has_member (params, "offset_bytes"))
    json_object_set_int_member (params, "offset_bytes", (gint64) spec.offset_bytes);
  if (!json_object_has_member (params, "span_bytes"))
    json_object_set_int_member (params, "span_bytes", (gint64) spec.span_bytes);
  if (!json_object_has_member (params, "buffered"))
    json_object_set_boolean_member (params, "buffered", spec.buffered);

  ds_bench_spec_clear (&spec);

  return params;
}
