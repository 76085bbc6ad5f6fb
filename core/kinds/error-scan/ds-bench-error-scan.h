/* ds-bench-error-scan.h: HD Tune's Error Scan (kind "error-scan")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The scan reads a range of the device block by block (O_DIRECT, one
 * block in flight, each read timed) and keeps:
 *   - a block map of at most DS_LIMIT_SCAN_MAP_CELLS cells, each holding
 *     the worst DsScanCell of the blocks it covers (memory is bounded
 *     whatever the size of the disk);
 *   - the exact bad ranges: a block whose read fails is read again in
 *     smaller pieces down to the logical sector, so every range is a run
 *     of sectors that failed, merged and sorted;
 *   - per latency bucket the number of blocks (MHDD's and WHDD's buckets).
 * A read error never stops the scan; a vanished device or a Stop does,
 * and the map so far is kept.
 *
 * A page drives it through ds_run() and the sink (worker thread):
 *   DS_SAMPLE_PHASE "scan": index = number of map cells, offset_bytes =
 *       start of the range, bytes = bytes per cell (ds_scan_geometry()
 *       gives the same before the run);
 *   DS_SAMPLE_POINT per finished cell: index = cell, offset_bytes = its
 *       start, bytes = bytes read in it, elapsed_ns = its slowest block,
 *       value = its read rate (bytes/s), error = errno if a block failed,
 *       name = "ok", "slow" or "error" (ds_scan_cell_name()); the cell's
 *       state is ds_scan_cell_for (elapsed_ns, error != 0);
 *   DS_SAMPLE_ROW "blocks" after a cell, for each count that changed in
 *       it: index = the DsScanCell bucket (LT_5MS .. GE_500MS, or ERROR
 *       for the damaged blocks), value = blocks in it so far (the counts
 *       the result's buckets and errors hold, not cells);
 *   DS_SAMPLE_ACCESS per bad sector found: offset_bytes, bytes (one
 *       logical sector), error = its errno (the result's bad ranges are
 *       these, merged);
 *   DS_SAMPLE_PROGRESS about ten times a second: offset_bytes = position.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-ranges.h"

G_BEGIN_DECLS

/* The scan's own options (DsBenchSpec.options of an error-scan spec). */
typedef struct {
  gboolean quick;      /* sampled, one block a map cell, not every block */
} DsErrorScanOptions;

/* @spec's options; @spec must be an error-scan spec. */
DsErrorScanOptions       *ds_error_scan_options       (DsBenchSpec       *spec);
const DsErrorScanOptions *ds_error_scan_options_const (const DsBenchSpec *spec);

/* A block's (and a map cell's) state: its latency bucket, or an error.
 * Ordered by how bad it is, so a cell keeps the maximum. */
typedef enum {
  DS_SCAN_UNREAD = 0,
  DS_SCAN_LT_5MS,      /* < 5 ms */
  DS_SCAN_LT_20MS,     /* < 20 ms */
  DS_SCAN_LT_50MS,     /* < 50 ms */
  DS_SCAN_LT_150MS,    /* < 150 ms */
  DS_SCAN_LT_500MS,    /* < 500 ms: slow */
  DS_SCAN_GE_500MS,    /* >= 500 ms: slow */
  DS_SCAN_ERROR,       /* a sector could not be read */
} DsScanCell;

#define DS_SCAN_N_BUCKETS 6   /* the latency buckets, LT_5MS .. GE_500MS */

/* A block at or above this latency is "slow" (HD Tune marks it, MHDD and
 * Victoria colour it as a warning from 150 ms on). */
#define DS_SCAN_SLOW_NS (UINT64_C (150) * 1000000u)

/* Upper bound of bucket @i (0-based, LT_5MS = 0) in ns; 0 for the last. */
uint64_t    ds_scan_bucket_upper_ns (guint       i);
DsScanCell  ds_scan_cell_for        (uint64_t    latency_ns,
                                     gboolean    failed);
/* "unread", "ok", "slow" or "error". */
const char *ds_scan_cell_name       (DsScanCell  cell);

/* How a range is cut into blocks and cells.  A quick scan reads one block
 * per cell, at the cell's start: n_cells evenly spaced samples, and its
 * cells hold at least DS_SCAN_QUICK_MIN_CELL_BLOCKS blocks, so that it
 * reads at most one block in that many (on a range small enough for a
 * cell per block, one block a cell read every block: the full scan). */
#define DS_SCAN_QUICK_MIN_CELL_BLOCKS 16u

typedef struct {
  uint64_t start_bytes;
  uint64_t span_bytes;
  uint64_t block_bytes;
  gboolean quick;
  uint64_t n_blocks;     /* blocks in the range (the last may be short) */
  uint64_t n_reads;      /* blocks the scan reads: n_blocks, or n_cells */
  guint    n_cells;
  uint64_t cell_blocks;  /* blocks per cell (the last cell may have fewer) */
  uint64_t cell_bytes;
} DsScanGeometry;

void ds_scan_geometry (uint64_t        start_bytes,
                       uint64_t        span_bytes,
                       uint64_t        block_bytes,
                       gboolean        quick,
                       DsScanGeometry *ret_geometry);
/* The same with @cell_blocks blocks a cell (a saved quick scan's own, from
 * before the minimum); FALSE when that many cells would pass
 * DS_LIMIT_SCAN_MAP_CELLS or @cell_blocks is 0. */
gboolean ds_scan_geometry_cells (uint64_t        start_bytes,
                                 uint64_t        span_bytes,
                                 uint64_t        block_bytes,
                                 gboolean        quick,
                                 uint64_t        cell_blocks,
                                 DsScanGeometry *ret_geometry);

typedef struct {
  DsScanGeometry geometry;
  guint8        *cells;            /* n_cells DsScanCell */
  uint64_t       blocks_read;      /* read, with or without an error */
  uint64_t       bytes_read;       /* without error */
  uint64_t       buckets[DS_SCAN_N_BUCKETS];
  uint64_t       error_blocks;     /* blocks with at least one bad sector */
  DsRangeList    bad;              /* exact bad sectors, merged */
  uint64_t       elapsed_ns;       /* of the timed block reads */
  uint64_t       max_latency_ns;
  uint32_t       sector_bytes;     /* granularity of the bad ranges */
} DsScanData;

/* Records one block of the scan: its bucket (or error) in the counts and
 * in its cell.  @offset_bytes is the block's start. */
void ds_scan_data_record (DsScanData *data,
                          uint64_t    offset_bytes,
                          uint64_t    latency_ns,
                          gboolean    failed);

/* The "results" object of the kind, its strict inverse (@data as from
 * data_new), and the report's body. */
JsonNode *ds_scan_data_to_json   (const DsScanData *data);
gboolean  ds_scan_data_from_json (DsScanData       *data,
                                  JsonObject       *results,
                                  GError          **error);
void      ds_scan_data_report    (const DsScanData *data,
                                  GString          *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-error-scan-compare.c) and fio job (ds-error-scan-fio.c):
 * DsBenchOps hooks. */
void     ds_error_scan_compare_rows   (const DsResult *result,
                                       DsFigures      *figures);
gboolean ds_error_scan_fio_job        (const DsResult *result,
                                       DsFioJobFile   *job,
                                       GError        **error);

G_END_DECLS
