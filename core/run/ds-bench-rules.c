/* ds-bench-rules.c: the rules of a spec: its limits, what each kind
 * accepts, which tests write, and how a spec meets its target.  The CLI
 * and the app both call these, so they cannot disagree.
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

/* A value the CLI read with G_OPTION_ARG_INT and stored unconverted: a
 * negative number typed by the user arrives as a large unsigned one.
 * Messages show it as it was typed. */
static long long
as_typed (unsigned value)
{
  return value > G_MAXINT ? (long long) (int) value : (long long) value;
}

/* "1 GiB (1073741824 bytes)": what was given, in the unit it was likely
 * typed in, and exactly. */
char *
ds_bench_describe_bytes (uint64_t bytes)
{
  static const struct { uint64_t unit; const char *name; } units[] = {
    { UINT64_C (1) << 40, "TiB" }, { UINT64_C (1) << 30, "GiB" },
    { UINT64_C (1) << 20, "MiB" }, { UINT64_C (1) << 10, "KiB" },
  };

  for (unsigned i = 0; bytes != 0 && i < G_N_ELEMENTS (units); i++)
    if (bytes % units[i].unit == 0)
      return g_strdup_printf ("%" G_GUINT64_FORMAT " %s (%" G_GUINT64_FORMAT " bytes)",
                              bytes / units[i].unit, units[i].name, bytes);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
}

static char *
describe_ns (uint64_t ns)
{
  static const struct { uint64_t unit; const char *name; } units[] = {
    { UINT64_C (3600) * DS_NS_PER_SEC, "h" }, { UINT64_C (60) * DS_NS_PER_SEC, "min" },
    { DS_NS_PER_SEC, "s" }, { DS_NS_PER_MSEC, "ms" }, { DS_NS_PER_USEC, "µs" },
  };

  if (ns == 0)
    return g_strdup ("0");
  for (unsigned i = 0; i < G_N_ELEMENTS (units); i++)
    if (ns % units[i].unit == 0)
      return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", ns / units[i].unit, units[i].name);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

/* A run time or time per row in [@min_ns, DS_LIMIT_DURATION_MAX_NS]. */
gboolean
ds_bench_check_duration (const char  *what,
                uint64_t     ns,
                uint64_t     min_ns,
                GError     **error)
{
  g_autofree char *given = NULL;
  g_autofree char *min_text = NULL;

  if (ns >= min_ns && ns <= DS_LIMIT_DURATION_MAX_NS)
    return TRUE;

  given = describe_ns (ns);
  min_text = min_ns != 0 ? describe_ns (min_ns) : g_strdup ("0");
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the %s must be %s to %" PRIu64 " days, not %s"), what, min_text,
               DS_LIMIT_DURATION_MAX_NS / (UINT64_C (24) * 3600 * DS_NS_PER_SEC), given);
  return FALSE;
}

static gboolean
check_create (uint64_t   bytes,
              GError   **error)
{
  g_autofree char *given = NULL;

  if (bytes >= DS_LIMIT_CREATE_MIN_BYTES)
    return TRUE;

  given = ds_bench_describe_bytes (bytes);
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("a --create test file must be at least 1 MiB, not %s"), given);
  return FALSE;
}

gboolean
ds_bench_check_accuracy (int      accuracy,
                         GError **error)
{
  if (accuracy >= (int) DS_LIMIT_ACCURACY_MIN && accuracy <= (int) DS_LIMIT_ACCURACY_MAX)
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the accuracy must be %u to %u, not %d"),
               DS_LIMIT_ACCURACY_MIN, DS_LIMIT_ACCURACY_MAX, accuracy);
  return FALSE;
}

/* Queue depth × threads I/Os in flight, each with a buffer of @block. */
gboolean
ds_bench_check_in_flight (unsigned   queue_depth,
              unsigned   threads,
              uint64_t   block_bytes,
              GError   **error)
{
  uint64_t ios = (uint64_t) queue_depth * threads;

  if (ios > DS_LIMIT_IN_FLIGHT_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("queue depth %u × %u threads is %" PRIu64 " I/Os in "
                   "flight, more than %u"), queue_depth, threads, ios,
                   DS_LIMIT_IN_FLIGHT_MAX);
      return FALSE;
    }
  if (ios * block_bytes > DS_LIMIT_IN_FLIGHT_BYTES_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("queue depth %u × %u threads × %" PRIu64 "-byte blocks "
                   "needs %" PRIu64 " MiB of buffers, more than %" PRIu64
                   " MiB"), queue_depth, threads, block_bytes, (ios * block_bytes) >> 20,
                   DS_LIMIT_IN_FLIGHT_BYTES_MAX >> 20);
      return FALSE;
    }

  return TRUE;
}

/* The ranges every kind's spec is held to. */
static gboolean
validate_common (const DsBenchOps   *ops,
                 const DsBenchSpec  *spec,
                 GError            **error)
{
  if (spec->target_path == NULL || spec->target_path[0] == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("no device or file given"));
      return FALSE;
    }
  if (spec->engine != NULL && strcmp (spec->engine, "auto") != 0 &&
      ds_engine_lookup (spec->engine) == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("unknown engine “%s”: use auto, sync, io_uring or threads"),
                   spec->engine);
      return FALSE;
    }
  if (!ds_bench_check_accuracy ((int) spec->accuracy, error))
    return FALSE;
  if (spec->queue_depth < 1 || spec->queue_depth > DS_LIMIT_QUEUE_DEPTH_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the queue depth must be 1 to %u, not %lld"),
                   DS_LIMIT_QUEUE_DEPTH_MAX, as_typed (spec->queue_depth));
      return FALSE;
    }
  if (spec->threads < 1 || spec->threads > DS_LIMIT_THREADS_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the number of threads must be 1 to %u, not %lld"),
                   DS_LIMIT_THREADS_MAX, as_typed (spec->threads));
      return FALSE;
    }
  if (spec->read_mix_percent > DS_LIMIT_READ_MIX_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the read mix is a percentage (0 to %u), not %lld"),
                   DS_LIMIT_READ_MIX_MAX, as_typed (spec->read_mix_percent));
      return FALSE;
    }
  if (spec->block_size_bytes == 0 || spec->block_size_bytes > DS_LIMIT_BLOCK_SIZE_MAX)
    {
      g_autofree char *given = ds_bench_describe_bytes (spec->block_size_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the block size must be between one sector and 1 GiB, not %s"), given);
      return FALSE;
    }
  if (spec->random_align_bytes != 0 &&
      (spec->random_align_bytes < 512 || spec->random_align_bytes > DS_LIMIT_BLOCK_SIZE_MAX ||
       (spec->random_align_bytes & (spec->random_align_bytes - 1)) != 0))
    {
      g_autofree char *given = ds_bench_describe_bytes (spec->random_align_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("random offsets align to the block size, or to a power of two "
                   "from 512 bytes to 1 GiB, not %s"), given);
      return FALSE;
    }
  /* 0 is the kind's own time per row; a workload needs its run time. */
  if ((spec->duration_ns != 0 || ops->default_duration_ns != 0) &&
      !ds_bench_check_duration ("duration", spec->duration_ns, DS_LIMIT_DURATION_MIN_NS, error))
    return FALSE;
  if (!ds_bench_check_duration ("ramp", spec->ramp_ns, 0, error))
    return FALSE;

  return TRUE;
}

/* A file of Diskscope's own, or an existing target: one or the other. */
static gboolean
validate_create (const DsBenchOps   *ops,
                 const DsBenchSpec  *spec,
                 GError            **error)
{
  if (spec->create_bytes != 0 && !ops->opens_target)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the %s test makes its own test file: --create is for the "
                   "tests that take a device or file"), ops->name);
      return FALSE;
    }
  if (spec->create_bytes != 0 && !check_create (spec->create_bytes, error))
    return FALSE;
  if (spec->create_bytes != 0 && spec->destroy_data != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--create makes a new test file and --destroy-data confirms "
                   "writing over an existing one: give one of them"));
      return FALSE;
    }
  if (spec->keep && spec->create_bytes == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--keep keeps a --create test file: give --create SIZE too"));
      return FALSE;
    }

  return TRUE;
}

gboolean
ds_bench_check_interval (const DsBenchSpec  *spec,
                         GError            **error)
{
  if (spec->interval_ns >= DS_LIMIT_INTERVAL_MIN_NS && spec->interval_ns <= DS_LIMIT_INTERVAL_MAX_NS)
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the series interval must be 100ms to 1h, not %g s"),
               (double) spec->interval_ns / DS_NS_PER_SEC);
  return FALSE;
}

gboolean
ds_bench_spec_validate (const DsBenchSpec  *spec,
                        GError            **error)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);

  if (ops == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown kind of test (%d)"), spec->kind);
      return FALSE;
    }
  if (!validate_common (ops, spec, error) || !validate_create (ops, spec, error))
    return FALSE;
  if (!ds_bench_check_in_flight (spec->queue_depth, spec->threads, spec->block_size_bytes, error))
    return FALSE;
  if ((ops->spec_flags & DS_BENCH_SPEC_SERIES) && !ds_bench_check_interval (spec, error))
    return FALSE;

  return ops->validate == NULL || ops->validate (spec, error);
}

void
ds_bench_spec_set_accuracy (DsBenchSpec *spec,
                            unsigned     accuracy)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);

  spec->accuracy = accuracy;
  /* The table kinds spend a fixed time per row: a lower accuracy makes
   * their rows shorter, as it makes the transfer points shorter (the
   * kind's own default stands at the default accuracy and above). */
  if (ops != NULL && (ops->spec_flags & DS_BENCH_SPEC_ROWS_ACCURACY) &&
      accuracy >= DS_LIMIT_ACCURACY_MIN && accuracy < DS_BENCH_DEFAULT_ACCURACY)
    spec->duration_ns = (UINT64_C (250) * DS_NS_PER_MSEC) << (accuracy - 1);
}

gboolean
ds_bench_spec_set_duration (DsBenchSpec  *spec,
                            uint64_t      duration_ns,
                            GError      **error)
{
  if (!ds_bench_check_duration ("duration", duration_ns, DS_LIMIT_DURATION_MIN_NS, error))
    return FALSE;

  spec->duration_ns = duration_ns;
  return TRUE;
}

gboolean
ds_bench_spec_set_create (DsBenchSpec  *spec,
                          uint64_t      create_bytes,
                          GError      **error)
{
  if (!check_create (create_bytes, error))
    return FALSE;

  spec->create_bytes = create_bytes;
  return TRUE;
}

gboolean
ds_bench_spec_is_write_test (const DsBenchSpec *spec)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);

  if (ops == NULL)
    return spec->write;

  switch (ops->writes)
    {
    case DS_BENCH_WRITES_OPTION:
      return spec->write;
    case DS_BENCH_WRITES_PATTERN:
      return spec->pattern != DS_PATTERN_READ && spec->pattern != DS_PATTERN_RANDREAD;
    case DS_BENCH_WRITES_ALWAYS:
    case DS_BENCH_WRITES_DESTROYS:
      return TRUE;
    case DS_BENCH_WRITES_OWN_FILE:
    case DS_BENCH_WRITES_NEVER:
    default:
      return FALSE;
    }
}

gboolean
ds_bench_check_block_aligned (const DsBenchSpec    *spec,
                              const DsTargetShape  *shape,
                              GError              **error)
{
  g_autofree char *block = NULL;

  if (ds_is_aligned (spec->block_size_bytes, shape->logical_block_size))
    return TRUE;

  block = ds_bench_describe_bytes (spec->block_size_bytes);
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the block size, %s, must be a multiple of %s's "
               "logical block size (%u bytes)"), block, shape->path, shape->logical_block_size);
  return FALSE;
}

gboolean
ds_bench_check_region (const DsBenchSpec    *spec,
                       const DsTargetShape  *shape,
                       GError              **error)
{
  g_autofree char *size_text = ds_bench_describe_bytes (shape->size_bytes);
  g_autofree char *offset = ds_bench_describe_bytes (spec->offset_bytes);
  g_autofree char *block = ds_bench_describe_bytes (spec->block_size_bytes);
  uint64_t region;

  if (!ds_is_aligned (spec->offset_bytes, shape->logical_block_size))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the offset, %s, must be a multiple of %s's logical "
                   "block size (%u bytes)"), offset, shape->path, shape->logical_block_size);
      return FALSE;
    }
  if (spec->offset_bytes >= shape->size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the offset given, %s, is past the end of %s, which has %s"),
                   offset, shape->path, size_text);
      return FALSE;
    }
  region = shape->size_bytes - spec->offset_bytes;
  if (spec->span_bytes != 0 && spec->span_bytes < region)
    region = spec->span_bytes;
  if (region < spec->block_size_bytes)
    {
      g_autofree char *region_text = ds_bench_describe_bytes (region);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the region tested (%s from offset %s of %s's %s) is "
                   "smaller than one block of %s"),
                   region_text, offset, shape->path, size_text, block);
      return FALSE;
    }

  return TRUE;
}

gboolean
ds_bench_spec_check_target (const DsBenchSpec  *spec,
                            const char         *path,
                            uint64_t            size_bytes,
                            uint32_t            logical_block_size,
                            GError            **error)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  DsTargetShape shape = {
    .path = path,
    .size_bytes = size_bytes,
    .logical_block_size = logical_block_size,
    .span_bytes = size_bytes,
  };

  g_return_val_if_fail (ops != NULL, FALSE);

  if (ops->takes_capacity && spec->capacity_bytes != 0 && spec->capacity_bytes < size_bytes)
    {
      shape.span_bytes = spec->capacity_bytes;
      shape.capped = TRUE;
    }

  if (shape.span_bytes < ops->min_span_bytes)
    {
      g_autofree char *size_text = ds_bench_describe_bytes (size_bytes);
      g_autofree char *need = ds_bench_describe_bytes (ops->min_span_bytes);
      g_autofree char *capacity = ds_bench_describe_bytes (spec->capacity_bytes);

      if (shape.capped)
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("the test capacity given, %s, is too small for the %s "
                     "test, which needs at least %s; %s has %s"),
                     capacity, ops->name, need, path, size_text);
      else
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("%s has %s: too small for the %s test, which needs at "
                     "least %s"), path, size_text, ops->name, need);
      return FALSE;
    }

  return ops->check_target == NULL || ops->check_target (spec, &shape, error);
}
