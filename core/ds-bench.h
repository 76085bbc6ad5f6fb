/* ds-bench.h: benchmark kinds, their specs, samples and operation tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-units.h"

G_BEGIN_DECLS

/* In HD Tune's order: a session report lists its runs in this order. */
typedef enum {
  DS_BENCH_TRANSFER,       /* "benchmark": the Benchmark tab */
  DS_BENCH_EXTRA,          /* "extra" */
  DS_BENCH_RANDOM_ACCESS,  /* "random-access" */
  DS_BENCH_BLOCK_SIZE,     /* "block-size" */
  DS_BENCH_FILE,           /* "file" */
  DS_BENCH_WORKLOAD,       /* "workload" */
  DS_BENCH_HEALTH,         /* "health": SMART through smartctl */
  DS_BENCH_ERROR_SCAN,     /* "error-scan": HD Tune's Error Scan */
  DS_BENCH_ERASE,          /* "erase": a gated full overwrite or discard */
  DS_BENCH_N_KINDS
} DsBenchKind;

typedef enum {
  DS_PATTERN_READ,
  DS_PATTERN_WRITE,
  DS_PATTERN_RANDREAD,
  DS_PATTERN_RANDWRITE,
  DS_PATTERN_RANDRW,
} DsPattern;

/* How `erase` destroys the data (ds-bench-erase.h). */
typedef enum {
  DS_ERASE_ZEROS,          /* overwrite with zeros */
  DS_ERASE_RANDOM,         /* overwrite with pseudo-random data */
  DS_ERASE_DISCARD,        /* BLKDISCARD (files: punch a hole) */
  DS_ERASE_SECURE_DISCARD, /* BLKSECDISCARD */
} DsEraseMethod;

/* Everything that shapes a run.  Plain data: copy with ds_bench_spec_copy(). */
typedef struct {
  DsBenchKind kind;
  char       *target_path;       /* device or file; the folder for `file` */
  gboolean    write;             /* a write test (destroys data) */
  char       *destroy_data;      /* the confirmation: must name target_path */
  char       *engine;            /* "auto", "sync", "io_uring", "threads" */

  uint64_t    block_size_bytes;  /* transfer: 64 KiB; workload: 4 KiB;
                                  * error-scan: 128 KiB; erase: 4 MiB */
  uint64_t    capacity_bytes;    /* 0: full device; else the first N bytes */
  unsigned    accuracy;          /* 1..5; each step doubles the time per point */

  DsPattern   pattern;           /* workload */
  unsigned    queue_depth;       /* workload: 1; file: fixed by the kind */
  unsigned    threads;           /* workload: 1 */
  unsigned    read_mix_percent;  /* randrw: percent reads (70) */
  uint64_t    duration_ns;       /* workload: run time; other kinds: per row */
  uint64_t    ramp_ns;           /* workload: excluded from the results */
  uint64_t    offset_bytes;      /* workload, error-scan: start of the region */
  uint64_t    span_bytes;        /* workload, error-scan: 0 = to the end */

  uint64_t    file_size_bytes;   /* file: 1 GiB, clamped to free space */
  gboolean    buffered;          /* file: no O_DIRECT (reported) */

  uint64_t    seed;              /* random offsets and data; 0 = from time */

  gboolean    quick;             /* error-scan: sampled, not every block */
  DsEraseMethod erase_method;    /* erase */
  gboolean    verify;            /* erase: read every byte back */
} DsBenchSpec;

/* Defaults for @kind (what the CLI and the GUI start from). */
void        ds_bench_spec_init   (DsBenchSpec       *spec,
                                  DsBenchKind        kind);
void        ds_bench_spec_copy   (DsBenchSpec       *dst,
                                  const DsBenchSpec *src);
void        ds_bench_spec_clear  (DsBenchSpec       *spec);

/* Every rule a spec must meet before it runs (ranges from ds-limits.h,
 * names that must be known).  The CLI and the app call this before they
 * start, and ds_run() calls it again: a spec is refused with the same
 * DS_ERROR_INVALID message wherever it came from. */
gboolean    ds_bench_spec_validate (const DsBenchSpec *spec,
                                    GError           **error);
/* Sets the accuracy and what it implies (for the table kinds, a shorter
 * time per row below the default accuracy). */
void        ds_bench_spec_set_accuracy (DsBenchSpec   *spec,
                                        unsigned       accuracy);

const char *ds_pattern_to_string (DsPattern          pattern);
gboolean    ds_pattern_from_string (const char      *name,
                                    DsPattern       *ret_pattern);
const char *ds_erase_method_to_string (DsEraseMethod method);
gboolean    ds_erase_method_from_string (const char    *name,
                                         DsEraseMethod *ret_method);

/* Time per transfer-rate point for an accuracy (1..5): 62.5 ms doubling per
 * step; the default (3) is 250 ms, 200 points in 50 s. */
uint64_t    ds_bench_accuracy_point_ns (unsigned accuracy);
#define DS_BENCH_DEFAULT_ACCURACY 3
#define DS_BENCH_TRANSFER_POINTS  200

/* Samples go from the worker thread to the sink as they are measured. */
typedef enum {
  DS_SAMPLE_POINT,     /* a transfer-rate point: offset_bytes, value =
                        * bytes/s; error != 0 if it failed (value 0) */
  DS_SAMPLE_ACCESS,    /* one timed access: offset_bytes, bytes, elapsed_ns */
  DS_SAMPLE_ROW,       /* a table row is done: index, name, value (main
                        * figure: bytes/s or IOPS, as the kind defines) */
  DS_SAMPLE_PHASE,     /* a phase starts: name ("transfer", "access", ...) */
  DS_SAMPLE_PROGRESS,  /* nothing new but progress */
} DsSampleKind;

typedef struct {
  DsSampleKind kind;
  gboolean     write;
  unsigned     index;
  const char  *name;          /* static string, or NULL */
  uint64_t     offset_bytes;
  uint64_t     bytes;
  uint64_t     elapsed_ns;
  double       value;
  int          error;         /* errno of a failed point/access, else 0 */
  double       progress;      /* 0..1 of the whole run, in every sample */
  /* A workload's DS_SAMPLE_PROGRESS also carries, since the previous one:
   * value = bytes/s, iops, p99_ns (0 when unknown), for a live line. */
  double       iops;
  uint64_t     p99_ns;
} DsSample;

/* Called on the worker thread.  Must be quick and must not call GTK. */
typedef void (*DsSinkFunc) (const DsSample *sample,
                            gpointer        user_data);

typedef struct _DsRun DsRun;
typedef struct _DsResult DsResult;

/* One table per kind, in its own ds-bench-*.c. */
typedef struct {
  DsBenchKind  kind;
  const char  *name;        /* CLI command and JSON "test" */
  const char  *title;       /* HD Tune's heading ("Extra Tests") */
  gboolean     opens_target; /* FALSE: the kind opens its own (file) */

  gpointer   (*data_new)  (void);
  void       (*data_free) (gpointer data);
  /* Runs on the worker thread; fills run->result->data as it goes, so a
   * failed run keeps what it measured.  Returns 0 or -errno with @error. */
  int        (*run)       (DsRun     *run,
                           GError   **error);
  /* The JSON "results" object, and its strict inverse (the loader has
   * checked that "results" is an object). */
  JsonNode  *(*to_json)   (const DsResult *result);
  gpointer   (*from_json) (JsonObject *results,
                           GError    **error);
  /* The report section's body (the common header is written by ds-report).
   * Rates in @units (ds_format_rate (bytes_per_s, units)). */
  void       (*report)    (const DsResult *result,
                           DsUnits         units,
                           GString        *out);
} DsBenchOps;

extern const DsBenchOps ds_bench_transfer;
extern const DsBenchOps ds_bench_extra;
extern const DsBenchOps ds_bench_random_access;
extern const DsBenchOps ds_bench_block_size;
extern const DsBenchOps ds_bench_file;
extern const DsBenchOps ds_bench_workload;
extern const DsBenchOps ds_bench_health;
extern const DsBenchOps ds_bench_error_scan;
extern const DsBenchOps ds_bench_erase;

const DsBenchOps *ds_bench_get    (DsBenchKind  kind);
const DsBenchOps *ds_bench_lookup (const char  *name);

G_END_DECLS
