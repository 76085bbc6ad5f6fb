/* ds-words.h: a run's settings in words, for the kinds' settings hooks
 *
 * A saved picture's caption says what shaped the run ("block 64 KiB ·
 * queue depth 32"); each kind names its own settings (DsBenchOps.settings)
 * with these shared words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"

G_BEGIN_DECLS

/* "block 64 KiB" */
void   ds_words_add_block  (GPtrArray *parts,
                               uint64_t   block_bytes);
/* "queue depth 32" */
void   ds_words_add_queue  (GPtrArray *parts,
                               unsigned   queue_depth);
/* The settings hook of the kinds that spend a time per row ("accuracy 3
 * (3 s a row)"): the time given, or the kind's default_row_ns. */
void   ds_words_row_settings  (const DsBenchSpec *spec,
                               const DsResult    *result,
                               GPtrArray         *parts);
/* "whole device", or "first 4 GiB (4.3 GB)" */
char  *ds_words_capacity (uint64_t capacity_bytes);

G_END_DECLS
