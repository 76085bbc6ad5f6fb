/* ds-bench-mark.h: a preset run as one result (kind "mark")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A DS_BENCH_MARK spec names a preset (ds-preset.h) and which of its steps
 * to run; the run opens the target once (a device, or a nameless test file
 * in a folder: io/ds-test-file.h) and runs the steps one after the other,
 * each as CrystalDiskMark does: an unmeasured warm-up, then `count`
 * measured runs of `duration`, keeping the highest throughput and the
 * lowest mean latency (and the full figures of the best run), then the
 * pause before the next step.
 *
 * Samples: for each step, DS_SAMPLE_PHASE (index = the step's position,
 * name = its row's label, write = a write step, step = its DsMarkStep, not
 * yet measured), DS_SAMPLE_INTERVAL for each interval of each measured
 * run (the series, live; its index starts again at 0 with each run; the
 * warm-up has none), DS_SAMPLE_PROGRESS, and DS_SAMPLE_ROW when the step
 * is done (value = its bytes/s, step = its figures).
 *
 * A run that stops (Stop, an error, a full filesystem) keeps every step it
 * finished (complete), and the one it was in (not complete, with what its
 * finished runs measured); the result is then not complete.
 *
 * JSON ("results"; ds-mark-json.c):
 *
 *   { "preset", "profile", "test_size_bytes", "count", "duration_s",
 *     "warmup_s", "pause_s", "interval_s", "mix_percent" (null: no +Mix),
 *     "comment", "os", "directory" (null on a device), "buffered",
 *     "filesystem": { "size_bytes", "free_bytes" } (null on a device),
 *     "steps_planned",
 *     "steps": [ { "id", "row", "label", "direction", "pattern",
 *                  "block_size_bytes", "queue_depth", "threads",
 *                  "read_percent", "complete",
 *                  "bytes_per_s", "iops", "lat_mean_s",
 *                  "runs": [ { "bytes_per_s", "iops", "lat_mean_s" }, … ],
 *                  "best_run",
 *                  "results": WORKLOAD or null }, … ] }
 *
 * where WORKLOAD is a workload result's "results" object
 * (ds-bench-workload.h), with its series and latency histograms.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench-workload.h"
#include "ds-preset.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* The mark's own options (DsBenchSpec.options of a mark spec): a preset
 * (ds-preset.h).  ds_preset_apply_defaults() sets the preset's own values;
 * the fields are then the user's to change. */
typedef struct {
  char     *preset;            /* "cdm-default" */
  char     *steps;             /* comma-separated row or step ids to run
                                * ("rnd4k-q1t1", "seq1m-q8t1-read");
                                * NULL: all */
  char     *rows;              /* custom rows ("randread,4k,qd32,t4;…",
                                * ds-preset.h); NULL: the preset's */
  uint64_t  test_size_bytes;   /* the region or test file; 0: the whole
                                * device (1 GiB in a folder) */
  unsigned  count;             /* measured runs per step, best kept */
  uint64_t  warmup_ns;         /* an unmeasured run first (CDM's 5 s) */
  uint64_t  pause_ns;          /* idle between steps (CDM's Interval) */
  int       mix_percent;       /* -1: no +Mix row; else its read percent */
  gboolean  reads_only;        /* only the steps that do not write */
  char     *comment;           /* into the result and the report */
} DsMarkOptions;

/* @spec's options; @spec must be a mark spec. */
DsMarkOptions       *ds_mark_options       (DsBenchSpec       *spec);
const DsMarkOptions *ds_mark_options_const (const DsBenchSpec *spec);

/* One measured run of a step. */
typedef struct {
  double bytes_per_s;          /* reads + writes */
  double iops;
  double lat_mean_s;           /* over every I/O of the run */
} DsMarkRun;

typedef struct _DsMarkStep DsMarkStep;
struct _DsMarkStep {
  char            *id;          /* "seq1m-q8t1-read" */
  char            *row_id;      /* "seq1m-q8t1" */
  char            *label;       /* "SEQ1M Q8T1" */
  unsigned         row;         /* the row's index in the preset */
  DsMarkDirection  direction;
  DsPattern        pattern;
  uint64_t         block_size_bytes;
  unsigned         queue_depth;
  unsigned         threads;
  unsigned         read_percent;
  gboolean         complete;    /* every run measured */
  GArray          *runs;        /* DsMarkRun, one per measured run */
  unsigned         best_run;    /* the run whose figures `result` holds */
  /* CrystalDiskMark's figures: the highest throughput of the runs (and its
   * IOPS), and the lowest mean latency of the runs. */
  double           bytes_per_s;
  double           iops;
  double           lat_mean_s;
  DsWorkloadData  *result;      /* the best run; NULL before one ended */
};

typedef struct {
  char      *preset;
  uint64_t   test_size_bytes;   /* the region or test file used */
  unsigned   count;
  double     duration_s;
  double     warmup_s;
  double     pause_s;
  double     interval_s;
  int        mix_percent;       /* -1: no +Mix column */
  char      *comment;
  char      *os;                /* "Debian GNU/Linux 12 (bookworm) [Linux …] (x86_64)" */
  char      *directory;         /* the folder; NULL on a device */
  gboolean   buffered;
  uint64_t   fs_size_bytes;     /* folder: the filesystem, and what was */
  uint64_t   fs_free_bytes;     /* free before the test file */
  unsigned   steps_planned;
  GPtrArray *steps;             /* DsMarkStep*, in the order they ran */
} DsMarkData;

DsMarkStep *ds_mark_step_new  (void);
void        ds_mark_step_free (DsMarkStep *step);
/* A deep copy (its runs and best run's result with series and histograms):
 * what a page keeps of a step a sample showed it. */
DsMarkStep *ds_mark_step_copy (const DsMarkStep *step);
DsMarkData *ds_mark_data_new  (void);
void        ds_mark_data_free (DsMarkData *data);

/* ds-mark-json.c */
JsonNode   *ds_mark_data_to_json   (const DsMarkData *data);
DsMarkData *ds_mark_data_from_json (JsonObject       *results,
                                    GError          **error);

/* ds-mark-text.c: CrystalDiskMark's layouts. */
typedef enum {
  DS_MARK_UNITS_MB_S,           /* 10^6 bytes/s, CrystalDiskMark's MB/s */
  DS_MARK_UNITS_GB_S,
  DS_MARK_UNITS_IOPS,
  DS_MARK_UNITS_US,             /* mean latency in µs */
} DsMarkUnits;

/* "MB", "MB/s", "GB", "GB/s", "IOPS", "us", "µs" (any case); NULL: MB/s. */
gboolean    ds_mark_units_from_string (const char   *text,
                                       DsMarkUnits  *ret_units,
                                       GError      **error);
/* One meter of the grid as CrystalDiskMark shows it ("1234.56"; "*" after
 * a step cut short). */
char       *ds_mark_meter_text (const DsMarkStep *step,
                                DsMarkUnits       units);
/* CrystalDiskMark's window: one line per row, a column per direction, the
 * figure in @units as its meters print it. */
char       *ds_mark_grid_text  (const DsResult *result,
                                DsMarkUnits     units);
/* CrystalDiskMark's "Copy" text: the [Read]/[Write]/[Mix] sections with
 * MB/s [IOPS] <µs> per row, and the Profile, Test, Mode, Time, Date, OS
 * and Comment lines. */
char       *ds_mark_cdm_text   (const DsResult *result);
/* "1 GiB", "16 MiB", "1.5 GiB": CrystalDiskMark's test sizes. */
char       *ds_mark_size_text  (uint64_t        bytes);
/* The report body (HD Tune layout) of a mark result. */
void        ds_mark_report     (const DsResult *result,
                                DsUnits         units,
                                GString        *out);

/* ds-mark-rules.c: the spec's defaults (the first preset's) and rules. */
void        ds_mark_spec_defaults (DsBenchSpec       *spec);
gboolean    ds_mark_spec_valid    (const DsBenchSpec *spec,
                                   GError           **error);

/* The caption's words for a mark's settings (DsBenchOps.settings). */
void        ds_mark_settings      (const DsBenchSpec *spec,
                                   const DsResult    *result,
                                   GPtrArray         *parts);

/* ds-mark-json.c: the preset and custom rows in a result's params. */
void        ds_mark_params_to_json   (const DsBenchSpec *spec,
                                      JsonObject        *params);
gboolean    ds_mark_params_from_json (JsonObject        *params,
                                      DsBenchSpec       *spec,
                                      GError           **error);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-mark-compare.c) and fio job (ds-mark-fio.c):
 * DsBenchOps hooks. */
void     ds_mark_compare_rows   (const DsResult *result,
                                 DsFigures      *figures);
gboolean ds_mark_fio_job        (const DsResult *result,
                                 DsFioJobFile   *job,
                                 GError        **error);

G_END_DECLS
