/* ds-bench.c: benchmark specs and the table of kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench.h"
#include "ds-clock.h"
#include "ds-engine.h"
#include "ds-error.h"
#include "ds-limits.h"

static const char *const pattern_names[] = {
  [DS_PATTERN_READ] = "read",
  [DS_PATTERN_WRITE] = "write",
  [DS_PATTERN_RANDREAD] = "randread",
  [DS_PATTERN_RANDWRITE] = "randwrite",
  [DS_PATTERN_RANDRW] = "randrw",
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
      return 4096;
    case DS_BENCH_ERROR_SCAN:
      /* 256 sectors of 512 bytes: the block MHDD and Victoria time, so
       * their latency buckets mean the same here. */
      return DS_ERROR_SCAN_DEFAULT_BLOCK;
    case DS_BENCH_ERASE:
      return DS_ERASE_DEFAULT_BLOCK;
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
static gboolean
validate_tabs (const DsBenchSpec  *spec,
               GError            **error)
{
  if (spec->kind == DS_BENCH_ERROR_SCAN &&
      (spec->block_size_bytes < DS_LIMIT_SCAN_BLOCK_MIN ||
       spec->block_size_bytes > DS_LIMIT_SCAN_BLOCK_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the error scan reads blocks of 4K to 16M, not %" G_GUINT64_FORMAT " bytes",
                   spec->block_size_bytes);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERROR_SCAN && spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the error scan only reads: it has no write mode");
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERROR_SCAN &&
      spec->offset_bytes > G_MAXUINT64 - spec->span_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "the scan range does not fit in 64 bits");
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE && !spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "erase writes the whole device: its spec must be a write test");
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE &&
      (unsigned) spec->erase_method >= G_N_ELEMENTS (erase_method_names))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "unknown erase method %u",
                   (unsigned) spec->erase_method);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE &&
      (spec->block_size_bytes < DS_LIMIT_ERASE_BLOCK_MIN ||
       spec->block_size_bytes > DS_LIMIT_ERASE_BLOCK_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "erase writes blocks of 64K to 64M, not %" G_GUINT64_FORMAT " bytes",
                   spec->block_size_bytes);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_HEALTH && spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the health check only reads: it has no write mode");
      return FALSE;
    }

  return TRUE;
}

gboolean
ds_bench_spec_validate (const DsBenchSpec  *spec,
                        GError            **error)
{
  if (spec->target_path == NULL || spec->target_path[0] == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "no device or file given");
      return FALSE;
    }
  if (spec->engine != NULL && strcmp (spec->engine, "auto") != 0 &&
      ds_engine_lookup (spec->engine) == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "unknown engine “%s”: use auto, sync, io_uring or threads",
                   spec->engine);
      return FALSE;
    }
  if (spec->accuracy < DS_LIMIT_ACCURACY_MIN || spec->accuracy > DS_LIMIT_ACCURACY_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "accuracy must be %u to %u, not %u",
                   DS_LIMIT_ACCURACY_MIN, DS_LIMIT_ACCURACY_MAX, spec->accuracy);
      return FALSE;
    }
  if (spec->queue_depth < 1 || spec->queue_depth > DS_LIMIT_QUEUE_DEPTH_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the queue depth must be 1 to %u, not %u",
                   DS_LIMIT_QUEUE_DEPTH_MAX, spec->queue_depth);
      return FALSE;
    }
  if (spec->threads < 1 || spec->threads > DS_LIMIT_THREADS_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the number of threads must be 1 to %u, not %u",
                   DS_LIMIT_THREADS_MAX, spec->threads);
      return FALSE;
    }
  if (spec->read_mix_percent > 100)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the read mix is a percentage (0 to 100), not %u",
                   spec->read_mix_percent);
      return FALSE;
    }
  if (spec->block_size_bytes == 0 || spec->block_size_bytes > DS_LIMIT_BLOCK_SIZE_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the block size must be between one sector and 1G");
      return FALSE;
    }

  return validate_tabs (spec, error);
}

void
ds_bench_spec_set_accuracy (DsBenchSpec *spec,
                            unsigned     accuracy)
{
  spec->accuracy = accuracy;
  /* The table kinds spend a fixed time per row: a lower accuracy makes
   * their rows shorter, as it makes the transfer points shorter (the
   * kind's own default stands at the default accuracy and above). */
  if (spec->kind != DS_BENCH_TRANSFER && spec->kind != DS_BENCH_WORKLOAD &&
      accuracy >= DS_LIMIT_ACCURACY_MIN && accuracy < DS_BENCH_DEFAULT_ACCURACY)
    spec->duration_ns = (UINT64_C (250) * DS_NS_PER_MSEC) << (accuracy - 1);
}

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
