/* ds-bench-block-size.h: sequential speed per block size (command
 * "block-size"; also the File Benchmark's block size test)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-units.h"

G_BEGIN_DECLS

typedef struct _DsRun DsRun;

/* 0.5 KB, 1 KB, ... 8 MB: 2^9 .. 2^23, HD Tune's (and ATTO's) sizes. */
#define DS_BLOCK_SIZE_N_SIZES 15
#define DS_BLOCK_SIZE_MIN_BYTES 512
#define DS_BLOCK_SIZE_MAX_BYTES (8 * 1024 * 1024)
/* Samples: DS_SAMPLE_PHASE "block-size" when each direction starts,
 * DS_SAMPLE_ROW per size (index = size index, write, bytes = block size,
 * value = bytes/s, offset_bytes = where the size began). */

/* Time per size and direction when spec->duration_ns is 0. */
#define DS_BLOCK_SIZE_DEFAULT_ROW_NS (UINT64_C (1) * 1000000000)

typedef struct {
  uint64_t block_bytes;
  double   read_bytes_per_s;   /* < 0: not measured (JSON null) */
  double   write_bytes_per_s;  /* < 0: not measured (a read-only run, or a
                                * block smaller than the logical block) */
} DsBlockSizeRow;

typedef struct {
  uint64_t span_bytes;         /* the region read (from the start) */
  GArray  *rows;               /* DsBlockSizeRow, ascending block size */
} DsBlockSizeData;

/* Shared with the File Benchmark. */
/* Appends the 15 rows (figures -1) to @rows. */
void      ds_block_size_rows_init      (GArray   *rows);
/* Measures each size on run->target over @span_bytes, once through it from
 * offset 0, each size going on where the previous one stopped: first every
 * size read (when @read), then every size written (when @write), each for
 * @row_ns; fills @rows (as made by ds_block_size_rows_init) as it goes
 * and emits a DS_SAMPLE_ROW per figure.  Progress runs from @progress_from
 * to @progress_to.  Returns 0 or -errno with @error. */
int       ds_block_size_sweep          (DsRun    *run,
                                        GArray   *rows,
                                        uint64_t  span_bytes,
                                        gboolean  read,
                                        gboolean  write,
                                        uint64_t  row_ns,
                                        double    progress_from,
                                        double    progress_to,
                                        GError  **error);
JsonNode *ds_block_size_rows_to_json   (GArray   *rows);
/* Strict: exactly the 15 sizes in order. */
GArray   *ds_block_size_rows_from_json (JsonArray   *array,
                                        const char  *where,
                                        GError     **error);
/* The report's tables ("Block size  Read speed  Write speed"); when
 * @split, one table per direction, as HD Tune's File Benchmark. */
void      ds_block_size_rows_report    (GArray   *rows,
                                        gboolean  split,
                                        DsUnits   units,
                                        GString  *out);
/* "0.5 KiB", "4 KiB", "1 MiB": HD Tune's sizes (it writes 0.5 KB) in KiB. */
char     *ds_block_size_format         (uint64_t  block_bytes);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-block-size-compare.c) and fio job (ds-block-size-fio.c):
 * DsBenchOps hooks. */
void     ds_block_size_compare_rows   (const DsResult *result,
                                       DsFigures      *figures);
gboolean ds_block_size_fio_job        (const DsResult *result,
                                       DsFioJobFile   *job,
                                       GError        **error);

/* What the file benchmark shares: its block-size table as comparison
 * rows (keys @prefix "read." / "write." block bytes, sections
 * "@section_prefix, read speed"), and as fio sections (one per size from
 * @lbs to @span, reads then writes as asked). */
void     ds_block_size_compare_table (DsFigures    *figures,
                                      GArray       *rows,
                                      const char   *prefix,
                                      const char   *section_prefix);
void     ds_block_size_fio_sections  (DsFioJobFile *job,
                                      uint64_t      span,
                                      uint64_t      row_ns,
                                      gboolean      read,
                                      gboolean      write,
                                      uint64_t      lbs);

G_END_DECLS
