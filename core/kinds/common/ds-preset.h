/* ds-preset.h: named workload presets (CrystalDiskMark's profiles, IOMeter's
 * database pattern, fio's OLTP sweep, sysbench's fileio tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A preset is a grid: rows (a pattern, block size, queue depth and threads)
 * by directions (Read, Write, Mix: the columns a row has).  A step is one
 * cell: one workload.  A page shows the rows and their cells, and runs one
 * row (DsMarkOptions.steps = the row's id), one cell (the step's id) or
 * all of them (steps = NULL) as a DS_BENCH_MARK spec; the result holds a
 * DsMarkStep per step run (ds-bench-mark.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"

G_BEGIN_DECLS

typedef enum {
  DS_MARK_READ,
  DS_MARK_WRITE,
  DS_MARK_MIX,
  DS_MARK_N_DIRECTIONS
} DsMarkDirection;

#define DS_MARK_COLUMN(d) (1u << (d))

typedef struct {
  const char *id;                /* "seq1m-q8t1": --steps and step ids */
  const char *label;             /* "SEQ1M Q8T1": the grid's row header */
  gboolean    random;
  uint32_t    block_size_bytes;
  unsigned    queue_depth;       /* per thread */
  unsigned    threads;
  unsigned    columns;           /* DS_MARK_COLUMN() of the directions */
  unsigned    mix_percent;       /* reads in the row's own Mix column */
  uint64_t    duration_ns;       /* custom rows: the row's own time per
                                  * run; 0: the spec's duration */
} DsPresetRow;

typedef enum {
  DS_PRESET_BY_DIRECTION,        /* CrystalDiskMark: every row's read, then
                                  * every write, then every mix */
  DS_PRESET_BY_ROW,              /* row after row */
} DsPresetOrder;

typedef struct {
  const char        *name;       /* "cdm-default" */
  const char        *title;      /* "CrystalDiskMark 8, Default profile" */
  const char        *profile;    /* CrystalDiskMark's "Profile:" (Default,
                                  * Peak, Real, Demo); NULL for the others */
  const char        *source;     /* where the parameters come from */
  DsPresetOrder      order;
  gboolean           mix_allowed; /* --mix adds a Mix column to every row */
  const DsPresetRow *rows;
  unsigned           n_rows;
  /* Defaults (ds_preset_apply_defaults()). */
  uint64_t           test_size_bytes; /* 0: the whole device */
  gboolean           size_from_ram;   /* a file set larger than RAM */
  unsigned           count;
  uint64_t           duration_ns;
  uint64_t           warmup_ns;
  uint64_t           pause_ns;
} DsPreset;

/* One cell of the grid, resolved for a spec. */
typedef struct {
  const DsPresetRow *row;
  unsigned           row_index;
  DsMarkDirection    direction;
  unsigned           read_percent;   /* 100, 0, or the mix */
  char               id[48];         /* "seq1m-q8t1-read" */
} DsPresetStep;

/* Every preset, in the order --list-presets shows them. */
const DsPreset *ds_preset_get    (unsigned          index);
unsigned        ds_preset_count  (void);
const DsPreset *ds_preset_lookup (const char       *name);
/* "cdm-default, cdm-nvme, …" for messages. */
char           *ds_preset_names  (void);

const char     *ds_mark_direction_to_string (DsMarkDirection direction);

/* Sets @spec's preset, and the preset's duration, count, warm-up, pause
 * and test size; also the spec's engine-independent workload defaults.
 * The test size of a preset "larger than RAM" is 1.25 × this machine's
 * RAM, at most DS_LIMIT_TEST_SIZE_MAX. */
void            ds_preset_apply_defaults (DsBenchSpec    *spec,
                                          const DsPreset *preset);

/* The steps @spec (a DS_BENCH_MARK spec) runs, in the order it runs them:
 * the preset's order, limited to its options' steps and reads_only, with
 * the Mix column when their mix_percent >= 0.  DsPresetStep array; NULL
 * with DS_ERROR_INVALID when the preset or a step id is unknown, or nothing
 * is left to run. */
GArray         *ds_preset_steps  (const DsBenchSpec *spec,
                                  GError           **error);

/* Fills @ret_spec (cleared by the caller) with the workload one step runs:
 * @spec's target, engine, duration, interval, seed, test size as span. */
void            ds_preset_step_spec (const DsBenchSpec  *spec,
                                     const DsPresetStep *step,
                                     DsBenchSpec        *ret_spec);

/* Custom rows (ds-preset-rows.c): the user's own grid, as CrystalDiskMark's
 * Settings dialog lets each row be changed.  DsMarkOptions.rows holds them
 * as text, one row per ";" (or line):
 *
 *   PATTERN,BLOCK[,qdN][,tN][,mixN][,TIME]
 *
 * PATTERN is read, write, randread, randwrite, randrw or rw (one column),
 * or seq or rnd (a Read and a Write column, as CrystalDiskMark's rows);
 * BLOCK a size ("4k", "1m", "512"); qdN the queue depth per thread (also
 * "qN", or "q32t4" with the threads), tN the threads, mixN the percentage
 * of reads of randrw and rw (70), TIME the row's own time per run ("10s").
 * A spec with rows runs the "custom" preset: its rows, row after row. */
#define DS_PRESET_CUSTOM      "custom"
#define DS_PRESET_ROWS_MAX    16u

/* Parses one row; @ret_row's id and label are NULL.  DS_ERROR_INVALID
 * naming what is wrong (the pattern, the block size not a multiple of 512,
 * the queue depth × threads over DS_LIMIT_IN_FLIGHT_MAX …). */
gboolean        ds_preset_row_parse     (const char        *text,
                                         DsPresetRow       *ret_row,
                                         GError           **error);
/* The row as ds_preset_row_parse() reads it, shortest form:
 * "randread,4k,qd32,t4", "randrw,8k,qd4,t1,mix70,10s". */
char           *ds_preset_row_to_string (const DsPresetRow *row);
/* The pattern word of a row ("randread", "seq"). */
const char     *ds_preset_row_pattern   (const DsPresetRow *row);
/* Parses a list of rows (";" or newlines between them) into its canonical
 * text (rows joined by ";"); errors say which row ("row 2 “…”: …"). */
char           *ds_preset_rows_normalize (const char       *text,
                                          GError          **error);
/* The preset @spec runs: its custom rows when its options have rows (made
 * once per distinct list and kept for the process, as interned strings
 * are), else the named preset; NULL with DS_ERROR_INVALID. */
const DsPreset *ds_preset_for_spec      (const DsBenchSpec *spec,
                                         GError           **error);
/* The time one measured run of @step lasts. */
uint64_t        ds_preset_step_duration (const DsBenchSpec  *spec,
                                         const DsPresetStep *step);

/* "SEQ 1MiB (Q=  8, T= 1)" as CrystalDiskMark's text names a row. */
char           *ds_preset_row_cdm_name (const DsPresetRow *row);

G_END_DECLS
