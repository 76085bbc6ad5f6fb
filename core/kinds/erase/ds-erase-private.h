/* ds-erase-private.h: what the erase kind's files share (ds-bench-erase.c,
 * ds-erase-io.c, ds-erase-discard.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench-erase.h"
#include "ds-run.h"

G_BEGIN_DECLS

#define DS_ERASE_PROGRESS_EVERY_NS (100 * DS_NS_PER_MSEC)
/* Discard in pieces of this size, so a Stop and the progress line work on
 * a device that takes minutes to trim. */
#define DS_ERASE_DISCARD_PIECE (UINT64_C (1) << 30)
/* A discard's sample: the first 4 KiB (or one alignment unit) of each
 * piece, hashed; at most 2^20 hashes (8 MiB) whatever the size. */
#define DS_ERASE_SAMPLE_BYTES 4096u
#define DS_ERASE_MAX_SAMPLES (UINT64_C (1) << 20)

typedef struct {
  DsRun       *run;
  DsEraseData *data;
  int          fd;
  gboolean     is_file;
  uint32_t     align;           /* O_DIRECT offset and length unit */
  uint64_t     direct_end;      /* [0, direct_end): O_DIRECT; then the tail */
  uint64_t     n_pieces;
  uint64_t     sample_stride;   /* discard: every k-th piece is sampled */
  uint64_t    *samples;         /* discard: hash per sampled piece, 0 = zeros */
  uint64_t     phase_start_ns;
  uint64_t     last_emit_ns;
  double       progress_base;   /* of the whole run, where the phase starts */
  double       progress_share;  /* of the whole run, this phase */
} Erase;

/* ds-erase-io.c */
gboolean _ds_erase_media_error    (int          e);
/* The piece that starts at @offset: a block, or the tail; its number. */
uint64_t _ds_erase_piece_len      (const Erase *e,
                                   uint64_t     offset);
uint64_t _ds_erase_piece_index    (const Erase *e,
                                   uint64_t     offset);
int      _ds_erase_write_piece    (Erase       *e,
                                   void        *buf,
                                   uint64_t     len,
                                   uint64_t     offset);
int      _ds_erase_read_piece     (Erase       *e,
                                   void        *buf,
                                   uint64_t     len,
                                   uint64_t     offset);
void     _ds_erase_phase_begin    (Erase       *e,
                                   const char  *name,
                                   double       base,
                                   double       share);
void     _ds_erase_phase_progress (Erase       *e,
                                   uint64_t     position,
                                   uint64_t     bytes,
                                   gboolean     force);
/* Sets @error for a failure that ends the run and returns @r. */
int      _ds_erase_fail           (Erase       *e,
                                   int          r,
                                   uint64_t     offset,
                                   GError     **error);
int      _ds_erase_flush          (Erase       *e);

/* ds-erase-discard.c */
int      _ds_erase_discard        (Erase       *e,
                                   void        *buf,
                                   GError     **error);
/* Whether the piece at @offset, read into @buf, still holds the old data. */
gboolean _ds_erase_survived       (const Erase *e,
                                   const void  *buf,
                                   uint64_t     offset);

G_END_DECLS
