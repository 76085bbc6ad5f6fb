/* ds-trace.h: block I/O traces: the capture file (docs/trace-format.md),
 * capturing a device's requests from the kernel's block tracepoints,
 * importing blktrace files and fio iologs, and the workload's profile
 *
 * A trace holds no data: only when, where, how much and which operation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>
#include <stdio.h>

G_BEGIN_DECLS

#define DS_TRACE_MAGIC        "DSTRACE"   /* 8 bytes with its NUL */
#define DS_TRACE_VERSION      1
#define DS_TRACE_HEADER_SIZE  128
#define DS_TRACE_RECORD_SIZE  48
#define DS_TRACE_PROCESS_SIZE 24
/* A time the source did not give (a completion not seen, a queue time). */
#define DS_TRACE_NO_TIME      UINT64_MAX

typedef enum {
  DS_TRACE_OP_READ = 0,
  DS_TRACE_OP_WRITE = 1,
  DS_TRACE_OP_FLUSH = 2,
  DS_TRACE_OP_DISCARD = 3,
  DS_TRACE_OP_OTHER = 4,      /* write zeroes, secure erase, zone ops... */
  DS_TRACE_N_OPS
} DsTraceOp;

enum {
  DS_TRACE_FLAG_FUA = 1 << 0,
  DS_TRACE_FLAG_SYNC = 1 << 1,
  DS_TRACE_FLAG_META = 1 << 2,
  DS_TRACE_FLAG_PREFLUSH = 1 << 3,
  DS_TRACE_FLAG_AHEAD = 1 << 4,
};

typedef enum {
  DS_TRACE_SOURCE_CAPTURE = 1,    /* diskscope-cli capture */
  DS_TRACE_SOURCE_BLKTRACE = 2,
  DS_TRACE_SOURCE_FIO_V2 = 3,
  DS_TRACE_SOURCE_FIO_V3 = 4,
} DsTraceSource;

/* Header flags. */
enum {
  DS_TRACE_HAS_COMPLETIONS = 1 << 0,  /* complete_ns is meaningful */
  DS_TRACE_HAS_TIMES = 1 << 1,        /* issue_ns is meaningful (fio v2: no) */
  DS_TRACE_LOST_ACCEPTED = 1 << 2,    /* the user kept a capture with lost events */
};

/* One request, in issue order.  Times are ns from the trace's start. */
typedef struct {
  uint64_t issue_ns;
  uint64_t complete_ns;     /* DS_TRACE_NO_TIME: not seen */
  uint64_t queue_ns;        /* when it reached the block layer; or NO_TIME */
  uint64_t offset;          /* bytes from the device's (partition's) start */
  uint32_t bytes;
  uint32_t pid;
  uint8_t  op;              /* DsTraceOp */
  uint8_t  flags;           /* DS_TRACE_FLAG_* */
  int16_t  error;           /* -errno from the completion, 0 */
} DsTraceRecord;

typedef struct {
  uint32_t version;
  uint32_t source;          /* DsTraceSource */
  uint32_t flags;
  uint64_t record_count;
  uint64_t lost_events;
  uint64_t start_unix_ns;   /* wall clock of time 0; 0 unknown */
  uint64_t duration_ns;     /* how long the capture ran; 0 unknown */
  uint64_t device_bytes;    /* 0 unknown */
  uint32_t dev_major, dev_minor;
  uint32_t process_count;
  char     device[40];      /* NUL-terminated */
} DsTraceHeader;

typedef struct {
  uint32_t pid;
  char     comm[16];        /* NUL-terminated */
} DsTraceProcess;

/* Operation names: "read", "write", "flush", "discard", "other". */
const char *ds_trace_op_name (unsigned op);

/* ---- ds-trace-file.c: the file ---- */
typedef struct _DsTraceWriter DsTraceWriter;

/* Creates @path (replacing it) and writes a provisional header (count
 * unknown: a file cut short is recognised as unfinished). */
DsTraceWriter *ds_trace_writer_new     (const char           *path,
                                        const DsTraceHeader  *header,
                                        GError              **error);
gboolean       ds_trace_writer_add     (DsTraceWriter        *writer,
                                        const DsTraceRecord  *record,
                                        GError              **error);
/* The process's name, once per pid (the first name seen). */
void           ds_trace_writer_process (DsTraceWriter        *writer,
                                        uint32_t              pid,
                                        const char           *comm);
uint64_t       ds_trace_writer_count   (const DsTraceWriter  *writer);
/* Writes the process table and the final header (@header's count and
 * process count are the writer's), closes the file and frees @writer. */
gboolean       ds_trace_writer_finish  (DsTraceWriter        *writer,
                                        DsTraceHeader        *header,
                                        GError              **error);
/* Closes and removes the file (an error path). */
void           ds_trace_writer_abandon (DsTraceWriter        *writer);

typedef struct _DsTraceReader DsTraceReader;

/* Opens a capture file; checks its magic, version, sizes and that the
 * records the header counts are there. */
DsTraceReader *ds_trace_reader_open    (const char           *path,
                                        GError              **error);
const DsTraceHeader *ds_trace_reader_header (const DsTraceReader *reader);
/* The next record; FALSE at the end (@error NULL) or on a read error. */
gboolean       ds_trace_reader_next    (DsTraceReader        *reader,
                                        DsTraceRecord        *ret_record,
                                        GError              **error);
/* Back to the first record. */
gboolean       ds_trace_reader_rewind  (DsTraceReader        *reader,
                                        GError              **error);
/* The process table (read once, after the records). */
GArray        *ds_trace_reader_processes (DsTraceReader      *reader,
                                          GError            **error);
void           ds_trace_reader_free    (DsTraceReader        *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsTraceReader, ds_trace_reader_free)

/* Whether @path starts with the capture file's magic. */
gboolean       ds_trace_file_is_capture (const char          *path);

/* ---- ds-trace-match.c: events -> requests ---- */
typedef enum {
  DS_TRACE_EV_QUEUE,        /* block_bio_queue / blktrace Q */
  DS_TRACE_EV_INSERT,       /* block_rq_insert / blktrace I */
  DS_TRACE_EV_ISSUE,        /* block_rq_issue / blktrace D */
  DS_TRACE_EV_COMPLETE,     /* block_rq_complete / blktrace C */
} DsTraceEventKind;

typedef struct {
  uint64_t ts_ns;           /* on the source's clock */
  uint64_t sector;          /* 512-byte sectors */
  uint32_t bytes;
  uint32_t pid;
  int32_t  error;
  uint8_t  kind;            /* DsTraceEventKind */
  uint8_t  op;
  uint8_t  flags;
  char     comm[16];
} DsTraceEvent;

typedef struct _DsTraceMatcher DsTraceMatcher;

/* Events, in time order, become records in issue order, written to
 * @writer: times relative to @origin_ns, sectors shifted by
 * @first_sector and those outside [first, first + n_sectors) dropped
 * (n_sectors 0: all). */
DsTraceMatcher *ds_trace_matcher_new   (DsTraceWriter        *writer,
                                        uint64_t              origin_ns,
                                        uint64_t              first_sector,
                                        uint64_t              n_sectors);
gboolean        ds_trace_matcher_feed  (DsTraceMatcher       *matcher,
                                        const DsTraceEvent   *event,
                                        GError              **error);
/* Writes what is still in flight (complete_ns unknown). */
gboolean        ds_trace_matcher_flush (DsTraceMatcher       *matcher,
                                        GError              **error);
/* Completions without an issue seen (issued before the trace began). */
uint64_t        ds_trace_matcher_unmatched (const DsTraceMatcher *matcher);
uint64_t        ds_trace_matcher_in_flight (const DsTraceMatcher *matcher);
void            ds_trace_matcher_free  (DsTraceMatcher       *matcher);

/* Parses blktrace's rwbs ("FWFS", "R", "DS", "FN"...) into op and flags. */
void            ds_trace_parse_rwbs    (const char           *rwbs,
                                        uint8_t              *ret_op,
                                        uint8_t              *ret_flags);

/* ---- ds-trace-capture.c ---- */
typedef struct {
  uint64_t elapsed_ns;
  uint64_t events;          /* tracepoint events read */
  uint64_t records;         /* requests written */
  uint64_t bytes;           /* their bytes */
  uint64_t lost;            /* events the kernel's buffer dropped so far */
  double   iops, bytes_per_s;   /* over the last progress interval */
} DsTraceProgress;

typedef void (*DsTraceProgressFunc) (const DsTraceProgress *progress,
                                     gpointer               user_data);

typedef struct {
  const char *device;       /* a block device (a partition: its disk's requests in it) */
  const char *output;       /* the capture file */
  uint64_t    duration_ns;  /* 0: until *cancel */
  uint32_t    buffer_kib;   /* per CPU; 0: 8192 */
  gboolean    accept_lost;
  const gint *cancel;       /* stops the capture (not an error) */
  DsTraceProgressFunc progress;
  gpointer    progress_data;
} DsTraceCaptureSpec;

typedef struct {
  DsTraceHeader header;
  uint64_t events;
  uint64_t unmatched;       /* completions of requests issued before the start */
  uint64_t incomplete;      /* issued, not completed when it ended */
  char     instance[256];   /* the tracefs instance it used (removed) */
  gboolean text_pipe;       /* FALSE: trace_pipe_raw's binary pages */
} DsTraceCaptureResult;

/* Captures the device's requests until the duration or *cancel.  Lost
 * events fail it (DS_ERROR_FAILED, the file kept, the count said) unless
 * @accept_lost.  The tracefs instance is removed on every way out. */
gboolean ds_trace_capture (const DsTraceCaptureSpec *spec,
                           DsTraceCaptureResult     *ret_result,
                           GError                  **error);

/* The tracefs mount (mounted on /sys/kernel/tracing when none is). */
char    *ds_trace_tracefs_dir (GError **error);

/* ---- ds-trace-ring.c: tracefs's binary ring-buffer pages ---- */
typedef struct {
  char     name[32];
  uint16_t id;
  int      off_dev, off_sector, off_nr_sector, off_bytes, off_error, off_rwbs, off_comm, off_pid;
  int      size_rwbs, size_comm;
} DsTraceFormat;

/* Reads events/block/NAME/format under @events_dir. */
gboolean ds_trace_format_load (const char     *format_path,
                               DsTraceFormat  *ret_format,
                               GError        **error);

typedef void (*DsTraceRawFunc) (uint64_t       ts,
                                const uint8_t *data,
                                size_t         len,
                                gpointer       user_data);

/* Walks one page (@len bytes read from trace_pipe_raw), calling @func for
 * each data event with its absolute timestamp.  Returns FALSE for a page
 * that does not parse; *@ret_missed is set when the page says events
 * were lost before it. */
gboolean ds_trace_ring_page   (const uint8_t  *page,
                               size_t          len,
                               DsTraceRawFunc  func,
                               gpointer        user_data,
                               gboolean       *ret_missed);

/* Decodes one raw event by @format into @ret_event (kind set by caller). */
void     ds_trace_format_decode (const DsTraceFormat *format,
                                 const uint8_t       *data,
                                 size_t               len,
                                 DsTraceEvent        *ret_event,
                                 uint32_t            *ret_dev);

/* ---- ds-trace-import.c ---- */
typedef enum {
  DS_TRACE_FIO_UNITS_AUTO,  /* fio's own: v3 stamps in µs (fio 3.31..3.33 write usec) */
  DS_TRACE_FIO_UNITS_US,
  DS_TRACE_FIO_UNITS_NS,
} DsTraceFioUnits;

/* blktrace binary files (per-CPU, merged in time order), blkparse's input;
 * both byte orders. */
gboolean ds_trace_import_blktrace (const char *const *paths,
                                   const char        *output,
                                   DsTraceHeader     *ret_header,
                                   GError           **error);
/* A fio write_iolog file, version 2 or 3. */
gboolean ds_trace_import_fio_iolog (const char       *path,
                                    DsTraceFioUnits   units,
                                    const char       *output,
                                    DsTraceHeader    *ret_header,
                                    GError          **error);
/* Any of those (by content) into @output. */
gboolean ds_trace_import_any      (const char *const *paths,
                                   DsTraceFioUnits    units,
                                   const char        *output,
                                   DsTraceHeader     *ret_header,
                                   GError           **error);

/* ---- ds-trace-profile.c ---- */
typedef struct _DsTraceProfile DsTraceProfile;

/* @process: only the requests of processes of that name (NULL: all). */
DsTraceProfile *ds_trace_profile_new  (const char      *path,
                                       uint64_t         interval_ns,
                                       const char      *process,
                                       GError         **error);
void            ds_trace_profile_free (DsTraceProfile  *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsTraceProfile, ds_trace_profile_free)
JsonNode       *ds_trace_profile_to_json (const DsTraceProfile *profile);
void            ds_trace_profile_print   (const DsTraceProfile *profile,
                                          FILE                 *out);

/* A few headline figures (for tests and the CLI). */
typedef struct {
  uint64_t ios, reads, writes, flushes, discards;
  double   duration_s, iops, read_share, bytes_per_s;
  uint32_t mode_bytes;          /* the most common size of reads and writes */
  double   sequential_share;
  double   mean_depth;
  uint64_t p50_ns, p99_ns, p999_ns;   /* 0 without completions */
} DsTraceSummary;

const DsTraceSummary *ds_trace_profile_summary (const DsTraceProfile *profile);

/* One interval of the profile, for a curve: its end in seconds from the
 * first request (as a replay counts its time), its reads and writes per
 * second (as the summary's IOPS; the first and last interval over the
 * part the requests span), its reads alone, their bytes per second and
 * its p99 latency (0: no completions in it).  FALSE for an interval
 * before the first request or after the last (a capture's idle ends). */
typedef struct {
  double   t_s;
  double   iops;
  double   read_iops;
  double   bytes_per_s;
  uint64_t p99_ns;
} DsTraceIntervalFigures;

guint           ds_trace_profile_n_intervals (const DsTraceProfile   *profile);
gboolean        ds_trace_profile_interval    (const DsTraceProfile   *profile,
                                              guint                   index,
                                              DsTraceIntervalFigures *ret_figures);

/* ---- ds-trace-replay.c: open- and closed-loop replay ---- */
typedef enum {
  DS_TRACE_LOOP_OPEN,       /* each I/O at its recorded time / speed */
  DS_TRACE_LOOP_CLOSED,     /* in trace order, the recorded depth kept */
} DsTraceLoop;

/* The percentiles of a replay's (and a trace's) latency CDF:
 * 1 5 10 25 50 75 90 95 99 99.9 99.99. */
#define DS_TRACE_N_CDF 11
extern const double ds_trace_cdf_points[DS_TRACE_N_CDF];

typedef struct _DsIntervalPoint DsIntervalPoint;
typedef void (*DsTraceReplayIntervalFunc) (const DsIntervalPoint *point,
                                           gpointer               user_data);

typedef struct {
  const char *trace;
  const char *target;
  const char *confirm;      /* --destroy-data: names @target (writes) */
  gboolean    reads_only;   /* replay the reads only (no confirmation) */
  double      speed;        /* open loop: 1 as recorded, 2 twice as fast */
  unsigned    max_in_flight;    /* 0: 256 */
  DsTraceLoop loop;
  /* Closed loop: keep this many in flight (0: the depth the trace had at
   * each I/O, from its issue and completion times, capped by
   * max_in_flight; a trace without completions needs a depth). */
  unsigned    depth;
  /* Only the trace's first @window_ns from its first replayed I/O (0: all). */
  uint64_t    window_ns;
  const gint *cancel;
  /* With @interval_ns, @interval_func gets each interval's completions
   * (IOPS, bytes/s, p50 and p99 of reads and writes; t_s its end, from
   * the first I/O), in the replayer's thread; the last one partial when
   * it is at least half an interval. */
  uint64_t    interval_ns;
  DsTraceReplayIntervalFunc interval_func;
  gpointer    interval_data;
} DsTraceReplaySpec;

typedef struct {
  uint64_t ios, reads, writes, flushes, skipped, wrapped, errors;
  uint64_t bytes;
  /* I/Os that found every slot in flight and were issued when one came
   * back: the target, not the replayer, set the pace (open loop). */
  uint64_t waited;
  unsigned max_in_flight;
  DsTraceLoop loop;
  double   recorded_iops;       /* the trace's, scaled by the speed (open loop) */
  double   achieved_iops;
  double   within_100us, within_1ms;  /* open loop: shares of I/Os issued so near their time */
  uint64_t late_p50_ns, late_p99_ns, late_max_ns;
  /* In flight on average over time: the replay's (first issue to last
   * completion) and the trace's over what was replayed (closed loop with
   * a depth: that depth). */
  double   mean_depth, recorded_mean_depth;
  unsigned max_depth;           /* the most in flight at once */
  uint64_t p50_ns, p99_ns, p999_ns;   /* issue to completion, reads and writes */
  uint64_t read_p50_ns, read_p99_ns, read_p999_ns;
  uint64_t write_p50_ns, write_p99_ns, write_p999_ns;
  uint64_t cdf_ns[DS_TRACE_N_CDF];    /* reads and writes, at ds_trace_cdf_points */
  uint64_t target_bytes, trace_span_bytes;
  double   duration_s;
  gboolean cancelled;
} DsTraceReplayResult;

/* Replays @spec->trace on @spec->target, O_DIRECT with incompressible
 * data; offsets past the target's end wrap (counted).  Open loop: each
 * I/O at its recorded time divided by the speed.  Closed loop: in the
 * trace's order, each I/O issued once fewer than its depth are in flight. */
gboolean ds_trace_replay (const DsTraceReplaySpec *spec,
                          DsTraceReplayResult     *ret_result,
                          GError                 **error);

/* ---- ds-trace-headroom.c: the trace's own depth and latency, the headroom search ---- */
/* The recorded in-flight depth: the completion times of the requests
 * issued so far and not yet complete (a min-heap), integrated over time. */
typedef struct {
  GArray  *heap;
  uint64_t now, start;
  double   area;
} DsTraceDepth;

void     ds_trace_depth_init   (DsTraceDepth        *depth);
/* Records in issue order.  Returns @record's depth: the requests in flight
 * when it was issued, itself among them (a request without a completion
 * time counts only at its own issue). */
unsigned ds_trace_depth_add    (DsTraceDepth        *depth,
                                const DsTraceRecord *record);
/* The mean depth over time, from the first issue to the last completion;
 * frees what @depth holds. */
double   ds_trace_depth_finish (DsTraceDepth        *depth);

typedef struct {
  gboolean has_latency;     /* FALSE: no completion times */
  uint64_t ios;             /* reads and writes with a completion */
  double   iops;            /* reads and writes, over n - 1 gaps */
  uint64_t p50_ns, p99_ns, p999_ns;
  uint64_t read_p99_ns, write_p99_ns;
  uint64_t cdf_ns[DS_TRACE_N_CDF];
} DsTraceLatency;

/* The latency the trace recorded (issue to completion, reads and writes)
 * over its first @window_ns from its first read or write (0: all);
 * @reads_only: the reads only. */
gboolean ds_trace_recorded_latency (const char     *path,
                                    uint64_t        window_ns,
                                    gboolean        reads_only,
                                    DsTraceLatency *ret_latency,
                                    GError        **error);

/* Whether a replay at some factor held: p99 within @p99_ns, the achieved
 * IOPS at least 95 % of the recorded x factor, and no I/O waited for a
 * slot (the target did not set the pace). */
gboolean ds_trace_replay_held     (const DsTraceReplayResult *result,
                                   uint64_t                   p99_ns);

typedef struct {
  double   factor;
  DsTraceReplayResult result;
  gboolean held;
} DsTraceHeadroomStep;

typedef void (*DsTraceHeadroomFunc) (const DsTraceHeadroomStep *step,
                                     gpointer                   user_data);

typedef struct {
  DsTraceReplaySpec replay;     /* open loop; its speed and window are the search's */
  uint64_t p99_ns;              /* the target p99 */
  uint64_t step_ns;             /* each step lasts at most this (the trace's first
                                   step_ns x factor); 0: the whole trace */
  unsigned bisect_steps;        /* after the bracket; 0: 3 */
  double   max_factor;          /* 0: 1000 */
  DsTraceHeadroomFunc step_func;
  gpointer step_data;
} DsTraceHeadroomSpec;

typedef struct {
  GArray  *steps;               /* DsTraceHeadroomStep, in the order run */
  double   factor;              /* the highest that held; 0: none did */
  double   failed_factor;       /* the lowest that did not; 0: none failed */
  gboolean cancelled;
} DsTraceHeadroom;

/* Doubles the factor from 1 until a step does not hold (halves it from 1
 * down to 1/8 while it does not), then bisects between the last that held
 * and the first that did not. */
gboolean ds_trace_headroom_search (const DsTraceHeadroomSpec *spec,
                                   DsTraceHeadroom           *ret_headroom,
                                   GError                   **error);
void     ds_trace_headroom_clear  (DsTraceHeadroom           *headroom);

/* ---- ds-trace-synth.c, ds-trace-synth-out.c: a workload synthesized
 * from a trace (runnable without it: a fio job, custom rows, JSON) ---- */
#define DS_TRACE_SYNTH_SIZES      8u    /* block sizes kept per phase */
#define DS_TRACE_SYNTH_PHASES_MAX 64u

/* One phase: a stretch of the trace whose mix, size, randomness and rate
 * are alike.  Rates are over its duration; a phase without reads and
 * writes is idle. */
typedef struct {
  uint64_t start_ns, duration_ns;   /* from the first I/O kept */
  uint64_t reads, writes, flushes, discards, fua;
  double   read_iops, write_iops, flushes_per_s;
  double   read_share;              /* of reads and writes */
  double   sequential_share;        /* over n - 1 pairs */
  double   mean_depth;              /* in flight (Little); 0: unknown */
  uint32_t peak_depth;              /* most in flight at once; 0: unknown */
  uint32_t mode_bytes;
  unsigned n_sizes;                 /* the most common sizes, busiest first */
  uint32_t size_bytes[DS_TRACE_SYNTH_SIZES];
  double   size_share[DS_TRACE_SYNTH_SIZES];    /* of reads and writes */
  uint64_t offset_start, offset_end;            /* the region it touches */
} DsTraceSynthPhase;

typedef struct {
  DsTraceHeader header;
  char         *trace;              /* the path, for the outputs' comments */
  char         *process;            /* the --process filter, or NULL */
  uint64_t      interval_ns;
  GArray       *phases;             /* DsTraceSynthPhase */
} DsTraceSynth;

/* Cuts the trace (@process's requests only when not NULL) into phases
 * where its workload pauses or changes beyond chance, looked at in
 * intervals of @interval_ns (0: 1 s) from its first I/O; then merges the
 * most alike neighbours until at most @max_phases remain (0: 16).
 * DS_ERROR_INVALID for a trace without issue times or without reads and
 * writes (docs/trace-format.md "Synthesize"). */
DsTraceSynth *ds_trace_synth_new     (const char         *path,
                                      uint64_t            interval_ns,
                                      unsigned            max_phases,
                                      const char         *process,
                                      GError            **error);
void          ds_trace_synth_free    (DsTraceSynth       *synth);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsTraceSynth, ds_trace_synth_free)

/* "randrw", "write", "idle": the phase's pattern as rows and fio name it. */
const char   *ds_trace_synth_pattern (const DsTraceSynthPhase *phase);
/* A fio job file: one section per phase, run in order (stonewall);
 * @filename NULL: ${TARGET}, for the user to set. */
char         *ds_trace_synth_fio_job (const DsTraceSynth *synth,
                                      const char         *filename);
/* Custom rows (ds-preset.h: "randrw,8k,qd4,t1,mix70,10s"), ";" between
 * them; idle phases have none. */
char         *ds_trace_synth_rows    (const DsTraceSynth *synth);
/* What the rows and the fio job cannot express, one sentence per line. */
char         *ds_trace_synth_caveats (const DsTraceSynth *synth,
                                      gboolean            rows);
JsonNode     *ds_trace_synth_to_json (const DsTraceSynth *synth);
void          ds_trace_synth_print   (const DsTraceSynth *synth,
                                      FILE               *out);

G_END_DECLS
