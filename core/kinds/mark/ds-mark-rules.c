/* ds-mark-rules.c: the mark kind's spec: its defaults and its rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench-mark.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-preset.h"

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

/* The rules of a preset run (ds-preset.h). */
gboolean
ds_mark_spec_valid (const DsBenchSpec  *spec,
            GError            **error)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const DsPreset *preset = ds_preset_lookup (o->preset);
  g_autoptr (GArray) steps = NULL;

  if (!comment_valid (o->comment, error))
    return FALSE;

  if (o->mix_percent > 100 || o->mix_percent < -1)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the mix is a percentage of reads (0 to 100), not %d"), o->mix_percent);
      return FALSE;
    }
  if (preset != NULL && o->mix_percent >= 0 && !preset->mix_allowed)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s has no +Mix row%s"), preset->name,
                   preset->profile != NULL ? " (nor has CrystalDiskMark's Demo)" :
                   ": its own steps set their mix");
      return FALSE;
    }
  if (o->count < 1 || o->count > DS_LIMIT_COUNT_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the count (runs per test) must be 1 to %u, not %u"),
                   DS_LIMIT_COUNT_MAX, o->count);
      return FALSE;
    }
  if (o->test_size_bytes != 0 &&
      (o->test_size_bytes < DS_LIMIT_TEST_SIZE_MIN || o->test_size_bytes > DS_LIMIT_TEST_SIZE_MAX))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the test size must be 16M to 64G (CrystalDiskMark's range), not %"
                   PRIu64 " bytes"), o->test_size_bytes);
      return FALSE;
    }
  if (spec->duration_ns == 0 || spec->duration_ns > DS_LIMIT_INTERVAL_MAX_NS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the time per test must be more than 0 and at most 1h"));
      return FALSE;
    }
  if (o->pause_ns > DS_LIMIT_PAUSE_MAX_NS || o->warmup_ns > DS_LIMIT_PAUSE_MAX_NS)
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

      if (!ds_bench_check_in_flight (row->queue_depth, row->threads, row->block_size_bytes, error))
        return FALSE;
    }

  return TRUE;
}

void
ds_mark_spec_defaults (DsBenchSpec *spec)
{
  ds_preset_apply_defaults (spec, ds_preset_get (0));
}
