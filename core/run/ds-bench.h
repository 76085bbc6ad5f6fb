/* ds-bench.h: benchmark kinds, their specs, samples and operation tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-sample.h"
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
  DS_BENCH_MARK,           /* "mark": a preset, a list of workload steps */
  DS_BENCH_SWEEP,          /* "sweep": a workload at growing queue depths */
  DS_BENCH_SUSTAIN,        /* "sustain": a long write, its cliff and floor */
  DS_BENCH_CACHE,          /* "cache": random reads over growing sets */
  DS_BENCH_REPLAY,         /* "replay": a captured trace replayed */
  DS_BENCH_N_KINDS
} DsBenchKind;

typedef enum {
  DS_PATTERN_READ,
  DS_PATTERN_WRITE,
  DS_PATTERN_RANDREAD,
  DS_PATTERN_RANDWRITE,
  DS_PATTERN_RANDRW,
  DS_PATTERN_RW,           /* sequential, reads and writes mixed (fio's rw) */
} DsPattern;

/* Everything that shapes a run: what every kind shares, and the kind's
 * own options.  Copy with ds_bench_spec_copy(), free with
 * ds_bench_spec_clear(). */
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

  gboolean    buffered;          /* file, mark in a folder: no O_DIRECT
                                  * where it is refused (reported) */

  uint64_t    seed;              /* random offsets and data; 0 = from time */
  uint64_t    random_align_bytes; /* random offsets: multiples of this (512:
                                  * HD Tune's Random Access); 0: of each
                                  * I/O's block size (fio, CrystalDiskMark) */

  /* A test file of Diskscope's own (ds-safety.h): target_path is made as a
   * new file of create_bytes, filled with random data, and removed after
   * the run unless @keep.  It must not exist; it needs no confirmation. */
  uint64_t    create_bytes;      /* 0: test target_path as it is */
  gboolean    keep;
  /* Set by ds_run() in the result's copy when the safety gate accepted a
   * write to an existing target confirmed by destroy_data; FALSE for read
   * tests, refused runs and created files.  Callers never set it. */
  gboolean    write_confirmed;
  /* the kinds that record a series (DS_BENCH_SPEC_SERIES) */
  uint64_t    interval_ns;       /* one series point per interval (1 s) */

  /* The kind's own options (DsBenchOps.options_new): each kind's header
   * has typed accessors (ds_mark_options ()); NULL for a kind with none.
   * ds_bench_spec_copy() copies them and ds_bench_spec_clear() frees them,
   * so a spec is made for its kind by ds_bench_spec_init() and its kind
   * never changes after. */
  gpointer    options;
} DsBenchSpec;

/* Defaults for @kind (what the CLI and the GUI start from). */
void        ds_bench_spec_init   (DsBenchSpec       *spec,
                                  DsBenchKind        kind);
void        ds_bench_spec_copy   (DsBenchSpec       *dst,
                                  const DsBenchSpec *src);
void        ds_bench_spec_clear  (DsBenchSpec       *spec);
/* A spec of @kind with the common fields of @src, a spec of another kind
 * (a sweep's workload at one level): @kind's own options are its
 * defaults, and @src's are not looked at. */
void        ds_bench_spec_init_from (DsBenchSpec       *spec,
                                     DsBenchKind        kind,
                                     const DsBenchSpec *src);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsBenchSpec, ds_bench_spec_clear)

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
/* The accuracy rule alone (for a front end that has no spec yet). */
gboolean    ds_bench_check_accuracy    (int            accuracy,
                                        GError       **error);
/* Sets a duration the user gave (run time, or time per row).  The spec
 * keeps 0 for "the kind's default", so a duration typed as 0 cannot wait
 * for ds_bench_spec_validate(): it is refused here, with the message the
 * validator gives for any duration out of range. */
gboolean    ds_bench_spec_set_duration (DsBenchSpec   *spec,
                                        uint64_t       duration_ns,
                                        GError       **error);
/* The same for --create's size (0 in the spec is "no --create"). */
gboolean    ds_bench_spec_set_create   (DsBenchSpec   *spec,
                                        uint64_t       create_bytes,
                                        GError       **error);
/* TRUE if @spec is a write test (it overwrites the target, so the safety
 * gate wants a confirmation, or a --create file): the kind's
 * DsBenchOps.writes applied to @spec (--write, or a pattern that writes).
 * The CLI and the app ask this, and ds_run() sets spec.write from it. */
gboolean    ds_bench_spec_is_write_test (const DsBenchSpec *spec);
/* The rules that need the target's size: the block size, --capacity,
 * --offset and --span against @size_bytes.  DS_ERROR_INVALID with a
 * message that says the numbers given and the target's size. */
gboolean    ds_bench_spec_check_target (const DsBenchSpec *spec,
                                        const char        *path,
                                        uint64_t           size_bytes,
                                        uint32_t           logical_block_size,
                                        GError           **error);

const char *ds_pattern_to_string (DsPattern          pattern);
gboolean    ds_pattern_from_string (const char      *name,
                                    DsPattern       *ret_pattern);

/* Time per transfer-rate point for an accuracy (1..5): 62.5 ms doubling per
 * step; the default (3) is 250 ms, 200 points in 50 s. */
uint64_t    ds_bench_accuracy_point_ns (unsigned accuracy);
#define DS_BENCH_DEFAULT_ACCURACY 3
#define DS_BENCH_TRANSFER_POINTS  200

typedef struct _DsRun DsRun;
typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;       /* results/ds-figures.h */
typedef struct _DsCurves DsCurves;         /* results/ds-figures.h */
typedef struct _DsFioJobFile DsFioJobFile; /* results/ds-fio-job.h */

/* What a kind may do to the target it is given. */
typedef enum {
  DS_BENCH_WRITES_OPTION,    /* a write test when spec->write (--write) */
  DS_BENCH_WRITES_PATTERN,   /* when spec->pattern writes (workload) */
  DS_BENCH_WRITES_OWN_FILE,  /* only a test file of its own (file) */
  DS_BENCH_WRITES_NEVER,     /* reads only */
  DS_BENCH_WRITES_ALWAYS,    /* always a write test (sustain) */
  DS_BENCH_WRITES_DESTROYS,  /* always a write whose point is destroying the
                              * data (erase): the gate's erase intent, which
                              * may take a disk image once named */
} DsBenchWrites;

/* What a kind's spec does beyond its own hooks. */
typedef enum {
  DS_BENCH_SPEC_SERIES        = 1 << 0, /* records a series: its interval
                                         * is checked */
  DS_BENCH_SPEC_ROWS_ACCURACY = 1 << 1, /* a lower accuracy shortens its
                                         * rows (ds_bench_spec_set_accuracy) */
  DS_BENCH_SPEC_NEEDS_DEVICE  = 1 << 2, /* the app asks for a device even
                                         * though ds_run() does not open it */
  DS_BENCH_SPEC_FOLDER        = 1 << 3, /* its target is a folder (a test
                                         * file of its own in it) */
  DS_BENCH_SPEC_BLOCK_SETTING = 1 << 4, /* its block size is the user's
                                         * preference (Benchmark's) */
  DS_BENCH_SPEC_NO_RATES      = 1 << 5, /* its report has no rates (so no
                                         * word on what "MB" means) */
  DS_BENCH_SPEC_OWN_IO        = 1 << 6, /* it reads or writes outside
                                         * ds_run_io(), so other I/O on
                                         * the disk is not judged */
} DsBenchSpecFlags;

/* The options of diskscope-cli's benchmark commands (app/cli/ds-cli-run.c)
 * a kind takes beyond those every kind takes.  The others follow the rest
 * of its table: --write, --destroy-data, --create and --keep its writes,
 * --capacity takes_capacity, --duration duration_help, --size file_size,
 * --align random_offsets. */
typedef enum {
  DS_BENCH_CLI_BLOCK_SIZE = 1 << 0, /* --block-size */
  DS_BENCH_CLI_ACCURACY   = 1 << 1, /* --accuracy */
  DS_BENCH_CLI_SHAPE      = 1 << 2, /* the I/O shape: --pattern (needed),
                                     * --queue-depth, --threads, --read-mix,
                                     * --ramp, --interval, --offset, --span */
  DS_BENCH_CLI_BUFFERED   = 1 << 3, /* --buffered */
} DsBenchCliOptions;

/* The target a spec meets (ds_bench_spec_check_target). */
typedef struct {
  const char *path;
  uint64_t    size_bytes;
  uint32_t    logical_block_size;
  uint64_t    span_bytes;       /* size_bytes, or the capacity given */
  gboolean    capped;           /* span_bytes is the capacity given */
} DsTargetShape;

/* One table per kind, in its own ds-bench-*.c. */
typedef struct {
  DsBenchKind  kind;
  const char  *name;        /* CLI command and JSON "test" */
  const char  *title;       /* HD Tune's heading ("Extra Tests") */
  gboolean     opens_target; /* FALSE: the kind opens its own (file) */

  gpointer   (*data_new)  (void);
  void       (*data_free) (gpointer data);
  /* Runs on the worker thread; fills run->result->data as it goes, so a
   * failed run keeps what it measured.  FALSE with @error when it failed
   * (ds_run_ok() turns the -errno of the layers below into one). */
  gboolean   (*run)       (DsRun     *run,
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
  /* TRUE when the data of a run that did not finish holds anything
   * measured (ds_result_has_measurements()).  NULL: the kind measures
   * only through the I/O loop, which names its engine in the result. */
  gboolean   (*measured)  (const DsResult *result);

  /* What the CLI offers and the gate checks (ds_bench_spec_is_write_test,
   * ds_bench_spec_check_target): */
  DsBenchWrites writes;
  gboolean      takes_capacity;  /* --capacity: only the first N bytes */
  DsBenchCliOptions cli_options; /* what else the CLI offers (ds-cli-run.c) */
  uint64_t      min_span_bytes;  /* the least span (capacity) it can test */

  /* The kind's spec, from its defaults to its rules (ds-bench-rules.c
   * applies the common ones, then these).  Any may be NULL/0. */
  uint64_t      default_block_bytes;    /* 0: 64 KiB */
  uint64_t      default_duration_ns;    /* a run time the kind always needs;
                                         * 0: none (time per row, or none) */
  uint64_t      default_row_ns;         /* the time per row its duration 0
                                         * stands for (table kinds), 0: none */
  DsBenchSpecFlags spec_flags;
  /* The kind's own options (DsBenchSpec.options): the size of its
   * struct (0: none), made zeroed, copied byte for byte and freed with
   * g_free() unless the kind gives its own hooks: options_new for
   * defaults other than zero, options_copy and options_free for a struct
   * that owns strings. */
  gsize        options_size;
  gpointer   (*options_new)  (void);
  gpointer   (*options_copy) (gconstpointer      options);
  void       (*options_free) (gpointer           options);
  /* Sets what the kind starts from beyond the fields above. */
  void       (*defaults)     (DsBenchSpec       *spec);
  /* The kind's own rules, after the common ones passed. */
  gboolean   (*validate)     (const DsBenchSpec *spec,
                              GError           **error);
  /* The kind's rules against its target, after the common ones passed. */
  gboolean   (*check_target) (const DsBenchSpec *spec,
                              const DsTargetShape *shape,
                              GError           **error);
  /* The DS_PARAM_* bits (ds-params.h) a result of @spec carries beyond
   * target, write, engine and seed. */
  unsigned   (*params)       (const DsBenchSpec *spec);
  /* TRUE when a run of @spec draws random offsets. */
  gboolean   (*random_offsets) (const DsBenchSpec *spec);
  /* The kind's own members of a result's "params" (beyond DS_PARAM_*),
   * and their strict inverse (the loader's; both may be NULL). */
  void       (*params_to_json)   (const DsBenchSpec *spec,
                                  JsonObject        *params);
  gboolean   (*params_from_json) (JsonObject        *params,
                                  DsBenchSpec       *spec,
                                  GError           **error);
  /* The members params_to_json writes, NULL-terminated (NULL: none):
   * another kind's result drops them (ds_params_prune(); older files
   * have every member). */
  const char *const *params_members;
  /* Where the kind keeps the size of the test file it makes (the CLI's
   * --size, the app's file-size preference); NULL: it makes none. */
  uint64_t  *(*file_size)        (DsBenchSpec       *spec);
  /* A copy of a sample's detail (DsSample.detail) that outlives the sink
   * call, and its free; NULL: the kind's samples carry none. */
  gpointer   (*detail_copy)      (gconstpointer      detail);
  void       (*detail_free)      (gpointer           detail);
  /* One line for a list of results: what was run ("randread 4K, QD 32,
   * 1 thread"); NULL: "read" or "write". */
  char      *(*describe)         (const DsResult    *result);
  /* What the write does to the target, for its confirmation ("overwritten
   * with zeros"), translated; NULL: the confirmation's own words. */
  const char *(*confirm_words)   (const DsBenchSpec *spec);
  /* What the CLI's --duration means for the kind, with its default
   * (NULL: the kind has no --duration). */
  char      *(*duration_help)    (void);
  /* What shaped the run, in words and in the order a user sets it (a
   * caption's test line: "randread · block 4 KiB · queue depth 32"):
   * parts appended to @parts (strings it owns).  The caption adds the
   * direction and capacity of a takes_capacity kind and the run's state.
   * @result is NULL before the run. */
  void       (*settings)     (const DsBenchSpec *spec,
                              const DsResult    *result,
                              GPtrArray         *parts);

  /* ---- comparison and fio export (kinds/<kind>/ds-<kind>-compare.c and
   * ds-<kind>-fio.c) ---- */
  /* The result's figures, in its report's order, to @figures
   * (ds-figures.h); called only for a result with data.  NULL: the kind
   * has no figures to compare. */
  void       (*compare_rows)   (const DsResult *result,
                                DsFigures      *figures);
  /* The comparison keys of the kind's headline figure, in order of
   * preference, NULL-terminated: the first the result has is what a
   * device's history follows (Health: reallocated sectors, an SSD's
   * media errors, a SCSI disk's grown defects).  NULL: the first average
   * rate, else the first rate, else the first figure. */
  const char *const *headline_keys;
  /* Its curves to @curves (ds-figures.h), each with its axes; NULL: the
   * kind has none (its figures are drawn as bars). */
  void       (*compare_curves) (const DsResult *result,
                                DsCurves       *curves);
  /* The bytes the run tested, for a kind whose figures depend on where on
   * the disk they were measured (HD Tune's): a comparison of different
   * spans says so, and draws curves against the position on % of each
   * span (ds_figures_tested_span() for most).  NULL: the place does not
   * matter (a workload, a file, a preset). */
  uint64_t   (*compare_span)   (const DsResult *result);
  /* What the result measured, as one string ("serial WD-WCC4E1234567"):
   * results with the same are the same drive over time, and the
   * comparison says so (and says when they differ).  NULL, or NULL
   * returned: not known. */
  char      *(*compare_identity) (const DsResult *result);
  /* The job file that reproduces the run (ds-fio-job.h), header included;
   * FALSE with DS_ERROR_UNSUPPORTED ("… cannot be expressed as a fio job,
   * because …", ds_fio_job_refuse()) where fio cannot run it, or another
   * error.  NULL: the same refusal in general words. */
  gboolean   (*fio_job)        (const DsResult *result,
                                DsFioJobFile   *job,
                                GError        **error);

  /* Another program's output that the kind reads as a result of its own
   * (Health: a saved `smartctl --json`), for a file that is not a
   * Diskscope result and was opened with DS_RESULT_LOAD_FOREIGN
   * (ds-result-json.h): @data is the file's @length bytes, @path its
   * name for the messages.  DS_ERROR_CORRUPT when it is not that
   * program's output either; NULL hook: the kind reads no other's. */
  DsResult  *(*from_foreign)   (const char     *path,
                                const char     *data,
                                gsize           length,
                                GError        **error);
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
extern const DsBenchOps ds_bench_mark;
extern const DsBenchOps ds_bench_sweep;
extern const DsBenchOps ds_bench_sustain;
extern const DsBenchOps ds_bench_cache;
extern const DsBenchOps ds_bench_replay;

/* The common checks, for the kinds' hooks (ds-bench-rules.c).  Each sets
 * DS_ERROR_INVALID with a message that says what was given. */
gboolean    ds_bench_check_duration  (const char        *what,
                                      uint64_t           ns,
                                      uint64_t           min_ns,
                                      GError           **error);
gboolean    ds_bench_check_in_flight (unsigned           queue_depth,
                                      unsigned           threads,
                                      uint64_t           block_bytes,
                                      GError           **error);
/* The series interval (DS_BENCH_SPEC_SERIES kinds). */
gboolean    ds_bench_check_interval  (const DsBenchSpec *spec,
                                      GError           **error);
/* The block size a multiple of the target's logical block. */
gboolean    ds_bench_check_block_aligned (const DsBenchSpec   *spec,
                                          const DsTargetShape *shape,
                                          GError             **error);
/* --offset and --span inside the target, aligned, holding a block. */
gboolean    ds_bench_check_region    (const DsBenchSpec   *spec,
                                      const DsTargetShape *shape,
                                      GError             **error);
/* "1 GiB (1073741824 bytes)": exactly, in the unit it was likely typed in. */
char       *ds_bench_describe_bytes  (uint64_t           bytes);
/* TRUE when @kind's target is a folder (DS_BENCH_SPEC_FOLDER). */
gboolean    ds_bench_kind_has_folder (DsBenchKind kind);
/* A random_offsets hook for the kinds that always draw random offsets. */
gboolean    ds_bench_random_offsets_always (const DsBenchSpec *spec);

const DsBenchOps *ds_bench_get    (DsBenchKind  kind);
const DsBenchOps *ds_bench_lookup (const char  *name);

G_END_DECLS
