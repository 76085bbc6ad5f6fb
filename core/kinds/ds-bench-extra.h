/* ds-bench-extra.h: HD Tune's Extra Tests (command "extra")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Time per row when spec->duration_ns is 0 (HD Tune spends a few seconds on
 * each row; 9 rows make about half a minute). */
#define DS_EXTRA_DEFAULT_ROW_NS (UINT64_C (3) * 1000000000)

/* Sequential outer/middle/inner read 64 KB blocks in a zone of 1/20 of the
 * span (so at most the first 5 %, the middle 5 % and the last 5 %), starting
 * over in the zone when the row's time is not up. */
#define DS_EXTRA_SEQUENTIAL_BYTES   (64 * 1024)
#define DS_EXTRA_ZONE_DIVISOR       20
/* Burst rate: 64 KB blocks over the first 1 MiB, again and again: after the
 * first pass every read is served by the drive's cache, so this is the
 * interface + cache rate, not the media's. */
#define DS_EXTRA_BURST_BYTES        (64 * 1024)
#define DS_EXTRA_BURST_REGION_BYTES (1024 * 1024)
/* Butterfly seek: pairs of reads at the outer and inner edge, each pair
 * 1/DS_EXTRA_BUTTERFLY_PAIRS of the half span closer to the middle; after
 * that many pairs it starts over at the edges. */
#define DS_EXTRA_BUTTERFLY_PAIRS    1000

/* Samples: DS_SAMPLE_PHASE at each row's start and DS_SAMPLE_ROW at its end
 * (index = DsExtraRowKind, name = the JSON name, value = IOPS). */

/* In HD Tune's order. */
typedef enum {
  DS_EXTRA_RANDOM_SEEK,       /* one logical block, random */
  DS_EXTRA_RANDOM_SEEK_4K,    /* 4 KB, random */
  DS_EXTRA_BUTTERFLY_SEEK,    /* one logical block, outer/inner alternating */
  DS_EXTRA_RANDOM_SEEK_64K,   /* random sizes up to 64 KB */
  DS_EXTRA_RANDOM_SEEK_8M,    /* random sizes up to 8 MB */
  DS_EXTRA_SEQUENTIAL_OUTER,
  DS_EXTRA_SEQUENTIAL_MIDDLE,
  DS_EXTRA_SEQUENTIAL_INNER,
  DS_EXTRA_BURST_RATE,
  DS_EXTRA_N_ROWS
} DsExtraRowKind;

typedef struct {
  DsExtraRowKind row;
  double         iops;
  double         access_time_s;  /* mean per I/O */
  double         bytes_per_s;    /* total bytes / total time */
  uint64_t       ios;
  uint64_t       bytes;
  /* Where the row's I/O went (first offset seen; lowest and highest end). */
  uint64_t       min_offset_bytes;
  uint64_t       max_end_bytes;
} DsExtraRow;

typedef struct {
  uint64_t span_bytes;      /* tested capacity */
  gboolean read_present;    /* this direction was run */
  gboolean write_present;
  GArray  *read;            /* DsExtraRow, in the order run */
  GArray  *write;
} DsExtraData;

/* "random_seek" (JSON) and "Random seek" (report); NULL if out of range. */
const char *ds_extra_row_name  (DsExtraRowKind row);
const char *ds_extra_row_title (DsExtraRowKind row);
gboolean    ds_extra_row_from_name (const char     *name,
                                    DsExtraRowKind *ret_row);

G_END_DECLS
