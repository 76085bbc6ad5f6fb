/* ds-bench-file.h: HD Tune's File Benchmark (command "file")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-limits.h"

G_BEGIN_DECLS

/* The file benchmark's own options (DsBenchSpec.options of a file spec). */
typedef struct {
  uint64_t size_bytes;   /* the test file: 1 GiB, clamped to free space */
} DsFileOptions;

/* @spec's options; @spec must be a file spec. */
DsFileOptions       *ds_file_options       (DsBenchSpec       *spec);
const DsFileOptions *ds_file_options_const (const DsBenchSpec *spec);

/* Time per row (and per block size and direction in the block size test)
 * when spec->duration_ns is 0. */
#define DS_FILE_DEFAULT_ROW_NS (UINT64_C (3) * 1000000000)
#define DS_FILE_DEFAULT_BLOCK_ROW_NS (UINT64_C (1) * 1000000000)
/* Smallest test file (ds-limits.h): the block size test needs room for
 * 8 MB blocks. */
#define DS_FILE_MIN_BYTES DS_LIMIT_FILE_SIZE_MIN_BYTES
/* Sequential rows use this block size (the fill: ds_run_fill()'s). */
#define DS_FILE_SEQUENTIAL_BYTES (8 * 1024 * 1024)
#define DS_FILE_RANDOM_BYTES 4096
#define DS_FILE_QUEUE_DEPTH 32

/* Samples: DS_SAMPLE_PHASE "fill", then for each row DS_SAMPLE_PHASE and
 * DS_SAMPLE_ROW named "sequential_read", "sequential_write", "random_read",
 * "random_write", "random_read_qd32", "random_write_qd32" (value = bytes/s
 * for sequential rows, IOPS for random ones), then the block size test's
 * samples (ds-bench-block-size.h). */

typedef struct {
  char    *directory;           /* where the file was */
  uint64_t file_bytes;          /* the size tested (after clamping) */
  gboolean buffered;            /* ran through the page cache */
  gboolean tmpfile;             /* O_TMPFILE (else a hidden unlinked name) */
  double   sequential_read_bytes_per_s;   /* < 0: not measured */
  double   sequential_write_bytes_per_s;
  double   random_read_iops;
  double   random_write_iops;
  double   random_read_qd32_iops;
  double   random_write_qd32_iops;
  GArray  *block_size;          /* DsBlockSizeRow (ds-bench-block-size.h) */
} DsFileData;

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-file-compare.c) and fio job (ds-file-fio.c):
 * DsBenchOps hooks. */
void     ds_file_compare_rows   (const DsResult *result,
                                 DsFigures      *figures);
gboolean ds_file_fio_job        (const DsResult *result,
                                 DsFioJobFile   *job,
                                 GError        **error);

G_END_DECLS
