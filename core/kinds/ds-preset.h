/* ds-preset.h: named workload presets (CrystalDiskMark's profiles, IOMeter's
 * database pattern, fio's OLTP sweep, sysbench's fileio tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A preset is a grid: rows (a pattern, block size, queue depth and threads)
 * by directions (Read, Write, Mix: the columns a row has).  A step is one
 * cell: one workload.  A page shows the rows and their cells, and runs one
 * row (spec->steps = the row's id), one cell (the step's id) or all of them
 * (spec->steps = NULL) as a DS_BENCH_MARK spec; the result holds a
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
 * the preset's order, limited to spec->steps and spec->reads_only, with
 * the Mix column when spec->mix_percent >= 0.  DsPresetStep array; NULL
 * with DS_ERROR_INVALID when the preset or a step id is unknown, or nothing
 * is left to run. */
GArray         *ds_preset_steps  (const DsBenchSpec *spec,
                                  GError           **error);

/* Fills @ret_spec (cleared by the caller) with the workload one step runs:
 * @spec's target, engine, duration, interval, seed, test size as span. */
void            ds_preset_step_spec (const DsBenchSpec  *spec,
                                     const DsPresetStep *step,
                                     DsBenchSpec        *ret_spec);

/* "SEQ 1MiB (Q=  8, T= 1)" as CrystalDiskMark's text names a row. */
char           *ds_preset_row_cdm_name (const DsPresetRow *row);

G_END_DECLS
