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
#include "ds-preset.h"
#include "ds-bench-sweep.h"
#include "ds-bench-sustain.h"

static gboolean
validate_tabs (const DsBenchSpec  *spec,
               GError            **error)
{
  if (spec->kind == DS_BENCH_ERROR_SCAN &&
      (spec->block_size_bytes < DS_LIMIT_SCAN_BLOCK_MIN ||
       spec->block_size_bytes > DS_LIMIT_SCAN_BLOCK_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the error scan reads blocks of 4K to 16M, not %" PRIu64 " bytes"),
                   spec->block_size_bytes);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERROR_SCAN && spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the error scan only reads: it has no write mode"));
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERROR_SCAN &&
      spec->offset_bytes > G_MAXUINT64 - spec->span_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the scan range does not fit in 64 bits"));
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE && !spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("erase writes the whole device: its spec must be a write test"));
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE &&
      (unsigned) spec->erase_method > DS_ERASE_SECURE_DISCARD)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown erase method %u"),
                   (unsigned) spec->erase_method);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_ERASE &&
      (spec->block_size_bytes < DS_LIMIT_ERASE_BLOCK_MIN ||
       spec->block_size_bytes > DS_LIMIT_ERASE_BLOCK_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("erase writes blocks of 64K to 64M, not %" PRIu64 " bytes"),
                   spec->block_size_bytes);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_HEALTH && spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the health check only reads: it has no write mode"));
      return FALSE;
    }

  return TRUE;
}

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
static char *
describe_bytes (uint64_t bytes)
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
static gboolean
check_duration (const char  *what,
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

  given = describe_bytes (bytes);
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
static gboolean
in_flight_ok (unsigned   queue_depth,
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

/* A mark's comment goes into its result, its text and its report: one
 * line, and no longer than the result file holds (a string of over
 * DS_JSON_MAX_STRING_BYTES made a result that did not load again). */
static gboolean
comment_valid (const char  *comment,
               GError     **error)
{
  glong chars;

  if (comment == NULL)
    return TRUE;
  if (!g_utf8_validate (comment, -1, NULL))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the comment is not UTF-8 text"));
      return FALSE;
    }
  chars = g_utf8_strlen (comment, -1);
  if (chars > (glong) DS_LIMIT_COMMENT_CHARS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the comment is %ld characters long: at most %u"), chars, DS_LIMIT_COMMENT_CHARS);
      return FALSE;
    }
  for (const char *p = comment; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the comment is one line of text: no control characters (U+%04X)"), c);
          return FALSE;
        }
    }

  return TRUE;
}

/* The rules of a preset run (kinds/ds-preset.h). */
static gboolean
mark_valid (const DsBenchSpec  *spec,
            GError            **error)
{
  const DsPreset *preset = ds_preset_lookup (spec->preset);
  g_autoptr (GArray) steps = NULL;

  if (!comment_valid (spec->comment, error))
    return FALSE;

  if (spec->mix_percent > 100 || spec->mix_percent < -1)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the mix is a percentage of reads (0 to 100), not %d"), spec->mix_percent);
      return FALSE;
    }
  if (preset != NULL && spec->mix_percent >= 0 && !preset->mix_allowed)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s has no +Mix row%s"), preset->name,
                   preset->profile != NULL ? " (nor has CrystalDiskMark's Demo)" :
                   ": its own steps set their mix");
      return FALSE;
    }
  if (spec->count < 1 || spec->count > DS_LIMIT_COUNT_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the count (runs per test) must be 1 to %u, not %u"),
                   DS_LIMIT_COUNT_MAX, spec->count);
      return FALSE;
    }
  if (spec->test_size_bytes != 0 &&
      (spec->test_size_bytes < DS_LIMIT_TEST_SIZE_MIN || spec->test_size_bytes > DS_LIMIT_TEST_SIZE_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the test size must be 16M to 64G (CrystalDiskMark's range), not %"
                   PRIu64 " bytes"), spec->test_size_bytes);
      return FALSE;
    }
  if (spec->duration_ns == 0 || spec->duration_ns > DS_LIMIT_INTERVAL_MAX_NS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the time per test must be more than 0 and at most 1h"));
      return FALSE;
    }
  if (spec->pause_ns > DS_LIMIT_PAUSE_MAX_NS || spec->warmup_ns > DS_LIMIT_PAUSE_MAX_NS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the pause between tests and the warm-up are at most 10m"));
      return FALSE;
    }

  /* Unknown presets and step ids, and steps over the limits. */
  steps = ds_preset_steps (spec, error);
  if (steps == NULL)
    return FALSE;
  for (guint i = 0; i < steps->len; i++)
    {
      const DsPresetRow *row = g_array_index (steps, DsPresetStep, i).row;

      if (!in_flight_ok (row->queue_depth, row->threads, row->block_size_bytes, error))
        return FALSE;
    }

  return TRUE;
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
      g_autofree char *given = describe_bytes (spec->block_size_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the block size must be between one sector and 1 GiB, not %s"), given);
      return FALSE;
    }
  if (spec->random_align_bytes != 0 &&
      (spec->random_align_bytes < 512 || spec->random_align_bytes > DS_LIMIT_BLOCK_SIZE_MAX ||
       (spec->random_align_bytes & (spec->random_align_bytes - 1)) != 0))
    {
      g_autofree char *given = describe_bytes (spec->random_align_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("random offsets align to the block size, or to a power of two "
                   "from 512 bytes to 1 GiB, not %s"), given);
      return FALSE;
    }
  /* 0 is the kind's own time per row; a workload needs its run time. */
  if ((spec->duration_ns != 0 || spec->kind == DS_BENCH_WORKLOAD ||
       spec->kind == DS_BENCH_SWEEP || spec->kind == DS_BENCH_CACHE) &&
      !check_duration ("duration", spec->duration_ns, DS_LIMIT_DURATION_MIN_NS, error))
    return FALSE;
  if (!check_duration ("ramp", spec->ramp_ns, 0, error))
    return FALSE;
  if (spec->kind == DS_BENCH_FILE && spec->file_size_bytes < DS_LIMIT_FILE_SIZE_MIN_BYTES)
    {
      g_autofree char *given = describe_bytes (spec->file_size_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the test file must be at least 16 MiB (the block size test "
                   "reads two 8 MiB blocks), not %s"), given);
      return FALSE;
    }

  /* A file of Diskscope's own, or an existing target: one or the other. */
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
  if (!in_flight_ok (spec->queue_depth, spec->threads, spec->block_size_bytes, error))
    return FALSE;
  if ((spec->kind == DS_BENCH_WORKLOAD || spec->kind == DS_BENCH_MARK ||
       spec->kind == DS_BENCH_SWEEP || spec->kind == DS_BENCH_SUSTAIN ||
       spec->kind == DS_BENCH_CACHE) &&
      (spec->interval_ns < DS_LIMIT_INTERVAL_MIN_NS || spec->interval_ns > DS_LIMIT_INTERVAL_MAX_NS))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the series interval must be 100ms to 1h, not %g s"),
                   (double) spec->interval_ns / DS_NS_PER_SEC);
      return FALSE;
    }
  if (spec->kind == DS_BENCH_MARK)
    return mark_valid (spec, error);
  if (spec->kind == DS_BENCH_SWEEP)
    return ds_sweep_spec_valid (spec, error);
  if (spec->kind == DS_BENCH_SUSTAIN)
    return ds_sustain_spec_valid (spec, error);

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
      spec->kind != DS_BENCH_MARK &&
      accuracy >= DS_LIMIT_ACCURACY_MIN && accuracy < DS_BENCH_DEFAULT_ACCURACY)
    spec->duration_ns = (UINT64_C (250) * DS_NS_PER_MSEC) << (accuracy - 1);
}

gboolean
ds_bench_spec_set_duration (DsBenchSpec  *spec,
                            uint64_t      duration_ns,
                            GError      **error)
{
  if (!check_duration ("duration", duration_ns, DS_LIMIT_DURATION_MIN_NS, error))
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
ds_bench_spec_check_target (const DsBenchSpec  *spec,
                            const char         *path,
                            uint64_t            size_bytes,
                            uint32_t            logical_block_size,
                            GError            **error)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  g_autofree char *size_text = describe_bytes (size_bytes);
  uint64_t span = size_bytes;
  gboolean capped = FALSE;

  g_return_val_if_fail (ops != NULL, FALSE);

  if (ops->takes_capacity && spec->capacity_bytes != 0 && spec->capacity_bytes < size_bytes)
    {
      span = spec->capacity_bytes;
      capped = TRUE;
    }

  /* The kinds that read and write spec->block_size_bytes. */
  if (spec->kind == DS_BENCH_TRANSFER || spec->kind == DS_BENCH_WORKLOAD ||
      spec->kind == DS_BENCH_SWEEP || spec->kind == DS_BENCH_SUSTAIN ||
      spec->kind == DS_BENCH_CACHE)
    {
      g_autofree char *block = describe_bytes (spec->block_size_bytes);

      if (!ds_is_aligned (spec->block_size_bytes, logical_block_size))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the block size, %s, must be a multiple of %s's "
                       "logical block size (%u bytes)"), block, path, logical_block_size);
          return FALSE;
        }
      if (spec->kind == DS_BENCH_TRANSFER && span / spec->block_size_bytes < 2)
        {
          g_autofree char *capacity = describe_bytes (spec->capacity_bytes);

          if (capped)
            g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                         _("the test capacity given, %s, holds fewer than two "
                         "blocks of the block size, %s; %s has %s"),
                         capacity, block, path, size_text);
          else
            g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                         _("%s has %s: fewer than two blocks of the block size "
                         "given, %s; use a block size of at most half of %s's size"),
                         path, size_text, block, path);
          return FALSE;
        }
    }

  if (span < ops->min_span_bytes)
    {
      g_autofree char *need = describe_bytes (ops->min_span_bytes);
      g_autofree char *capacity = describe_bytes (spec->capacity_bytes);

      if (capped)
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

  if (spec->kind == DS_BENCH_WORKLOAD || spec->kind == DS_BENCH_SWEEP ||
      spec->kind == DS_BENCH_SUSTAIN)
    {
      g_autofree char *offset = describe_bytes (spec->offset_bytes);
      g_autofree char *block = describe_bytes (spec->block_size_bytes);
      uint64_t region;

      if (!ds_is_aligned (spec->offset_bytes, logical_block_size))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the offset, %s, must be a multiple of %s's logical "
                       "block size (%u bytes)"), offset, path, logical_block_size);
          return FALSE;
        }
      if (spec->offset_bytes >= size_bytes)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the offset given, %s, is past the end of %s, which has %s"),
                       offset, path, size_text);
          return FALSE;
        }
      region = size_bytes - spec->offset_bytes;
      if (spec->span_bytes != 0 && spec->span_bytes < region)
        region = spec->span_bytes;
      if (region < spec->block_size_bytes)
        {
          g_autofree char *region_text = describe_bytes (region);

          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the region tested (%s from offset %s of %s's %s) is "
                       "smaller than one block of %s"),
                       region_text, offset, path, size_text, block);
          return FALSE;
        }
    }

  return TRUE;
}
