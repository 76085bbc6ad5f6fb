/* ds-bench-random-access.h: HD Tune's Random Access (command "random-access")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Time per row when spec->duration_ns is 0. */
#define DS_RANDOM_ACCESS_DEFAULT_ROW_NS (UINT64_C (3) * 1000000000)
/* The "random" row: sizes mixed, each a random multiple of the logical
 * block size up to this. */
#define DS_RANDOM_ACCESS_MIXED_MAX_BYTES (1024 * 1024)
/* Points kept per row for the scatter plot (and sent as DS_SAMPLE_ACCESS):
 * a disk does a few hundred per row, an SSD can do 100 000; the row's
 * figures always count every I/O, the scatter keeps the first this many. */
#define DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW 20000

#define DS_RANDOM_ACCESS_N_ROWS 5

/* Samples: DS_SAMPLE_PHASE at each row's start, DS_SAMPLE_ACCESS for each
 * point kept (index = row, offset_bytes, bytes, elapsed_ns; value = access
 * time in s), DS_SAMPLE_ROW at the row's end (index = row, value = IOPS). */

typedef struct {
  uint64_t transfer_bytes;   /* 0 for the "random" row (mixed sizes) */
  double   iops;
  double   avg_access_s;
  double   max_access_s;
  double   p50_s;
  double   p99_s;
  double   p99_9_s;
  double   bytes_per_s;
  uint64_t ios;
  uint64_t bytes;
} DsRandomAccessRow;

typedef struct {
  uint64_t offset_bytes;
  uint32_t transfer_bytes;
  uint32_t row;              /* index of the row it belongs to */
  double   access_s;
} DsRandomAccessPoint;

typedef struct {
  gboolean present;          /* this direction was run */
  GArray  *rows;             /* DsRandomAccessRow, in order: 512 B, 4 KB,
                              * 64 KB, 1 MB, random */
  GArray  *points;           /* DsRandomAccessPoint, in order of completion */
} DsRandomAccessDir;

typedef struct {
  uint64_t          span_bytes;
  DsRandomAccessDir read;
  DsRandomAccessDir write;
} DsRandomAccessData;

/* The transfer size of row @index: 512, 4096, 65536, 1048576, 0 (random). */
uint64_t    ds_random_access_row_bytes (guint index);
/* "512 bytes", "4 KB", ..., "Random" (the report), "random" for JSON. */
char       *ds_random_access_row_title (const DsRandomAccessRow *row);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-random-access-compare.c) and fio job (ds-random-access-fio.c):
 * DsBenchOps hooks. */
void     ds_random_access_compare_rows   (const DsResult *result,
                                          DsFigures      *figures);
gboolean ds_random_access_fio_job        (const DsResult *result,
                                          DsFioJobFile   *job,
                                          GError        **error);

G_END_DECLS
