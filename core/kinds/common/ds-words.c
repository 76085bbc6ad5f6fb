/* ds-words.c: a run's settings in words, for the kinds' settings hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-words.h"
#include "ds-units.h"

void
ds_words_add_block (GPtrArray *parts,
                       uint64_t   block_bytes)
{
  g_autofree char *block = ds_format_size_iec (block_bytes);

  g_ptr_array_add (parts, g_strdup_printf (_("block %s"), block));
}

void
ds_words_add_queue (GPtrArray *parts,
                       unsigned   queue_depth)
{
  g_ptr_array_add (parts, g_strdup_printf (_("queue depth %u"), queue_depth));
}

void
ds_words_row_settings (const DsBenchSpec *spec,
                       const DsResult    *result,
                       GPtrArray         *parts)
{
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : ops != NULL ? ops->default_row_ns : 0;

  (void) result;
  g_ptr_array_add (parts, g_strdup_printf (_("accuracy %u (%g s a row)"), spec->accuracy,
                                           row_ns / 1e9));
}

char *
ds_words_capacity (uint64_t capacity_bytes)
{
  g_autofree char *size = NULL;

  if (capacity_bytes == 0)
    return g_strdup (_("whole device"));

  size = ds_format_size_both (capacity_bytes);
  /* Translators: short-stroking, "first 4 GiB (4.3 GB)" of the device */
  return g_strdup_printf (_("first %s"), size);
}
