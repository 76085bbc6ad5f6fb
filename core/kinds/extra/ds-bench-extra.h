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

/* Every row's pattern must give the same figure whatever the device's speed
 * and the row's time, so no pattern may depend on how many I/Os fit in the
 * row: each covers its whole region (or whole walks of it) in any case.
 *
 * Random seeks (one block, 4 KB, sizes up to 64 KB or 8 MB): independent
 * uniform offsets over the span, so any number of them samples the same
 * distribution.
 *
 * Sequential outer/middle/inner: 64 KB reads in a zone of 1/20 of the span
 * (the first 5 %, the middle 5 % and the last 5 %).  The zone is read in
 * DS_EXTRA_ZONE_PIECES pieces spread evenly over it (the first at its
 * start, the last ending at its end), each given an equal share of the
 * row's time: an untimed read of the piece's first block, then sequential
 * reads from there, never past the piece's end.  A slow disk reads the start
 * of each piece, a fast one whole pieces (and finishes early): either way
 * the figure is the zone's, and nothing is read twice (a zone read over and
 * over would come from the drive's cache). */
#define DS_EXTRA_SEQUENTIAL_BYTES   (64 * 1024)
#define DS_EXTRA_ZONE_DIVISOR       20
#define DS_EXTRA_ZONE_PIECES        8
/* Burst rate: 64 KB blocks over the first 1 MiB, again and again.  One
 * untimed pass over the region comes first, so every timed read is served
 * by the drive's cache however long that pass took: this is the interface +
 * cache rate, not the media's. */
#define DS_EXTRA_BURST_BYTES        (64 * 1024)
#define DS_EXTRA_BURST_REGION_BYTES (1024 * 1024)
/* Butterfly seek: one-block reads in pairs, one walking in from the outer
 * edge, the other from the inner edge, each pair one step closer to the
 * middle.  A walk of N pairs goes from the edges to the middle: its seek
 * distances fall evenly from the whole span to nothing (mean: half the
 * span; the seek from the middle back to the edges, between walks, is half
 * the span too).  The row runs whole walks only, since a walk cut short
 * would keep only its outer, longest seeks:
 *   N = random-seek IOPS x row time / (2 x DS_EXTRA_BUTTERFLY_WALKS),
 * from the random-seek row just measured, so that at that pace
 * DS_EXTRA_BUTTERFLY_WALKS walks would fill the row (butterfly seeks are
 * longer than random ones on a disk, so fewer do); at least
 * DS_EXTRA_BUTTERFLY_MIN_PAIRS, at most one step per logical block.  Then the
 * row runs the whole number of walks nearest to its time, at least one.  A
 * walk still running after DS_EXTRA_BUTTERFLY_MAX_WALK_ROWS row times is
 * cut, and the result says so.  The figure is the mean over whole walks on
 * any device, for any row time. */
#define DS_EXTRA_BUTTERFLY_WALKS          4
#define DS_EXTRA_BUTTERFLY_MIN_PAIRS      8
#define DS_EXTRA_BUTTERFLY_MAX_WALK_ROWS  4

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
  /* The butterfly's walk: pairs per walk and whole walks run (0 for the
   * other rows, and in files older than these fields). */
  uint64_t       walk_pairs;
  uint64_t       walks;
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

typedef struct _DsRun DsRun;

/* The kind's run() (ds-bench-extra-run.c); callers use ds_run(). */
gboolean    ds_extra_run (DsRun   *run,
                          GError **error);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-extra-compare.c) and fio job (ds-extra-fio.c):
 * DsBenchOps hooks. */
void     ds_extra_compare_rows   (const DsResult *result,
                                  DsFigures      *figures);
gboolean ds_extra_fio_job        (const DsResult *result,
                                  DsFioJobFile   *job,
                                  GError        **error);

G_END_DECLS
