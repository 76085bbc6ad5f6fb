/* ds-limits.h: the bounds every spec and every loaded file is held to, in
 * one place (the CLI, the app and the loader all read them from here)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

/* Accuracy: 1 (fast) .. 5 (slow); each step doubles the time per point. */
#define DS_LIMIT_ACCURACY_MIN        1u
#define DS_LIMIT_ACCURACY_MAX        5u

/* I/Os in flight per thread, and threads.  io_uring rings above 4096
 * entries need a kernel setting; 1024 threads is already far past what a
 * device needs to saturate (fio's OLTP sweeps stop at 256). */
#define DS_LIMIT_QUEUE_DEPTH_MAX     4096u
#define DS_LIMIT_THREADS_MAX         1024u

/* Transfer size: one logical block (checked against the device) .. 1 GiB. */
#define DS_LIMIT_BLOCK_SIZE_MAX      (UINT64_C (1) << 30)

/* Error scan: the block read and timed at once (MHDD and Victoria read 256
 * sectors of 512 bytes; HD Tune 64 KiB), and the most map cells and bad
 * ranges a result holds.  The map aggregates: a 20 TB disk in 16384 cells
 * is 1.2 GB a cell, 16 KiB of memory.  Bad ranges are merged; a disk past
 * DS_LIMIT_SCAN_BAD_RANGES_MAX separate ones is noted as truncated (the
 * error count stays exact). */
#define DS_ERROR_SCAN_DEFAULT_BLOCK  (UINT64_C (128) << 10)
#define DS_LIMIT_SCAN_BLOCK_MIN      (UINT64_C (4) << 10)
#define DS_LIMIT_SCAN_BLOCK_MAX      (UINT64_C (16) << 20)
#define DS_LIMIT_SCAN_MAP_CELLS      16384u
#define DS_LIMIT_SCAN_BAD_RANGES_MAX 100000u

/* Erase: one write of 4 MiB keeps a disk streaming; 64 KiB..64 MiB. */
#define DS_ERASE_DEFAULT_BLOCK       (UINT64_C (4) << 20)
#define DS_LIMIT_ERASE_BLOCK_MIN     (UINT64_C (64) << 10)
#define DS_LIMIT_ERASE_BLOCK_MAX     (UINT64_C (64) << 20)

/* smartctl: how long one call may take before it is killed (a drive that
 * spins up from standby takes seconds; a hung bus must not hang us). */
#define DS_SMARTCTL_TIMEOUT_NS       (UINT64_C (60) * 1000000000u)

/* Percent reads in a mixed workload. */
#define DS_LIMIT_READ_MIX_MAX        100u

/* A run time or a time per row: 10 ms (one timed row still holds hundreds
 * of I/Os on a disk) to a week (a long soak test; beyond that a typo). */
#define DS_LIMIT_DURATION_MIN_NS     (UINT64_C (10) * 1000000)
#define DS_LIMIT_DURATION_MAX_NS     (UINT64_C (7) * 24 * 3600 * 1000000000)

/* A --create test file: room for a few blocks of any kind's largest I/O
 * (the extra tests and random access need 1 MiB). */
#define DS_LIMIT_CREATE_MIN_BYTES    (UINT64_C (1) << 20)

/* The file benchmark's test file: its block size test reads 8 MiB blocks
 * and needs two of them. */
#define DS_LIMIT_FILE_SIZE_MIN_BYTES (UINT64_C (16) << 20)

/* How a run's I/O threads (and its caller's thread when a run of one
 * thread runs there) yield the CPU to the program's own threads.  Sixteen
 * threads that each always have an I/O to reap or submit leave a 2-core
 * machine no CPU for the app's main loop: at nice 0 the window stalled
 * 200 ms at a time (tests/bench/ui-latency, RND4K Q32T16 on zram).  At
 * nice 10 (nice 19 measured no better) the main loop still lost its CPU
 * for 2-4 ms at a time in the middle of a frame: with 33 runnable threads
 * of a tenth of its weight (16 I/O threads and the kernel's io_uring
 * workers, which inherit their class), the scheduler (EEVDF, Linux 6.6 on)
 * has the main loop wait its turn once a frame has used its share, and
 * each 200 ms sample made a 15-30 ms stall (perf sched, kernel 6.18).  In
 * the idle class (SCHED_IDLE) the threads run only when no normal thread
 * of the machine wants the CPU: the stalls went and the run's IOPS did not
 * change, since nothing else wants the CPU during a run.  The CLI runs
 * the same way, so its figures and the app's agree; each result's
 * environment says it (io_threads_nice, io_threads_policy).  On a machine busy with other work a run in the
 * idle class gets less CPU than it would at nice 10 (a benchmark there is
 * fooled either way). */
#define DS_IO_NICE                   10
#define DS_IO_SCHED_IDLE             TRUE

/* ---- result files (the loader: ds-json-scan.c, ds-result-load.c) --------
 *
 * What a result file may hold.  They are checked while the bytes are
 * scanned, before json-glib builds a tree, so a hostile file is refused in
 * one pass over at most DS_JSON_MAX_FILE_BYTES, with nothing allocated per
 * value.  The largest real result, a random-access read + write run (5
 * rows x 20 000 kept accesses a direction), is 31 MB and 1.2 M values
 * when saved one object a point (as results were before the parallel
 * lists; 6 MB since).  Its lists of points are read straight into columns
 * (ds-json-pack.c), not into json-glib's tree: a 24 MB one opens in
 * 0.26 s and 47 MB (1.15 s and 198 MB as a whole tree).  A file built to
 * the bounds (1.5 M values) took 7 s and 315 MB as a tree (2 shared
 * cores, under load): the memory a result file can cost is bounded, and a
 * few times that of the largest real one. */

/* The whole file: checked with fstat() before reading, and again while
 * reading (a file that grows, or a /proc file that says 0). */
#define DS_JSON_MAX_FILE_BYTES       (UINT64_C (128) * 1024 * 1024)
/* Objects and lists inside each other: a result nests 6 deep; json-glib
 * recurses once per level. */
#define DS_JSON_MAX_DEPTH            32u
/* Every value in the file (numbers, strings, objects, lists, ...). */
#define DS_JSON_MAX_VALUES           1500000u
/* Members of one object (a result's widest object has about 20). */
#define DS_JSON_MAX_MEMBERS          256u
/* One string (a path, a model, a note, an error message). */
#define DS_JSON_MAX_STRING_BYTES     (64u * 1024)

/* The figures a loaded result may hold (each kind's reader checks its
 * own; a writer of figures from a file, fio's logs, checks them too). */
#define DS_JSON_MAX_BYTES_PER_S      1e15
#define DS_JSON_MAX_IOPS             1e12
#define DS_JSON_MAX_LATENCY_S        1e6

/* Entries of one list, by the member that holds it; any other list is held
 * to DS_JSON_MAX_LIST.  "points": transfer-rate points (200 a direction)
 * and random-access dots (5 rows x 20 000 a direction, one list per field:
 * "row", "offset_bytes", "transfer_bytes", "access_ns"); "access": the
 * Benchmark tab's access-time dots (250 << (accuracy - 1), 4000 at most);
 * "errors": failed points; "notes": the run's notes. */
#define DS_JSON_MAX_POINTS           100000u
#define DS_JSON_MAX_ACCESS           65536u
#define DS_JSON_MAX_ERRORS           DS_JSON_MAX_POINTS
#define DS_JSON_MAX_NOTES            1024u
#define DS_JSON_MAX_LIST             100000u
/* I/Os in flight in one run, queue depth × threads: CrystalDiskMark's own
 * largest setting (Q512 × T64).  And their buffers, queue depth × threads ×
 * block size: each in-flight I/O has one, allocated before the run. */
#define DS_LIMIT_IN_FLIGHT_MAX       32768u
#define DS_LIMIT_IN_FLIGHT_BYTES_MAX (UINT64_C (4) << 30)

/* A workload's series: one point per interval, 100 ms .. 1 h. */
#define DS_LIMIT_INTERVAL_MIN_NS     (UINT64_C (100) * 1000000)
#define DS_LIMIT_INTERVAL_MAX_NS     (UINT64_C (3600) * 1000000000)

/* Presets: CrystalDiskMark's test sizes (16 MiB .. 64 GiB), counts (1 .. 9)
 * and longest interval between tests (10 min, also the longest warm-up). */
#define DS_LIMIT_TEST_SIZE_MIN       (UINT64_C (16) << 20)
#define DS_LIMIT_TEST_SIZE_MAX       (UINT64_C (64) << 30)
#define DS_LIMIT_COUNT_MAX           9u
#define DS_LIMIT_PAUSE_MAX_NS        (UINT64_C (600) * 1000000000)

/* A block device a write opens O_EXCL is refused (EBUSY) while another
 * program holds it exclusively.  Right after a write test closed it,
 * udev's watch rule probes it (blkid, a partition rescan that claims the
 * disk for a moment): a script's next test waits for that, this long at
 * most, trying again every DS_BUSY_POLL_NS, and says so once the wait
 * passes DS_BUSY_NOTICE_NS. */
#define DS_BUSY_WAIT_NS              (UINT64_C (10) * 1000000000u)
#define DS_BUSY_POLL_NS              (UINT64_C (20) * 1000000u)
#define DS_BUSY_NOTICE_NS            (UINT64_C (200) * 1000000u)

/* ---- other files the user names (io/ds-file-read.c opens them all) ------
 *
 * fio's JSON is scanned by the result loader's bounds (ds_json_check_bounds)
 * before it is parsed, so its size bound is the result file's.  smartctl's
 * JSON of one drive is 2 to 20 kB; its size bound leaves room for the
 * longest logs a drive keeps. */
#define DS_FIO_JSON_MAX_BYTES        DS_JSON_MAX_FILE_BYTES
#define DS_SMARTCTL_JSON_MAX_BYTES   (UINT64_C (16) * 1024 * 1024)

/* fio's logs (--write_bw_log, --write_lat_log ...) are read line by line,
 * never whole.  A line is "time, value, direction, block size, offset[,
 * priority]": under 100 bytes; DS_FIO_LOG_MAX_LINE_BYTES refuses a binary
 * or compressed file at its first "line".  A raw (per-I/O) log is 25 to 40
 * bytes an I/O: 1 GiB is about 30 million I/Os (five minutes at 100 000
 * IOPS); longer runs log with log_avg_msec.  The entries of one series,
 * over every log it sums, are held to DS_FIO_LOG_MAX_ENTRIES: each raw
 * entry keeps its latency (8 bytes) until its interval's percentiles are
 * taken, so this bounds the memory an import takes (256 MB).  Times are
 * milliseconds since the job started: past DS_LIMIT_DURATION_MAX_NS (a
 * week, the longest run Diskscope itself makes) a time is refused. */
#define DS_FIO_LOG_MAX_BYTES         (UINT64_C (1) << 30)
#define DS_FIO_LOG_MAX_LINE_BYTES    4096u
#define DS_FIO_LOG_MAX_ENTRIES       (UINT64_C (32) * 1024 * 1024)

/* A time series (a workload's results.series, one from fio's logs) holds
 * at most this many points in all, in one result: the loader's cap on one
 * list (DS_JSON_MAX_LIST), and 12 JSON values a point keeps a result with
 * a full series under DS_JSON_MAX_VALUES.  A longer series is merged,
 * adjacent intervals two by two, until it fits (ds-interval.h:
 * DsSeriesMerge); a result with several series (a mark's steps) shares the
 * bound among them. */
#define DS_LIMIT_SERIES_POINTS       100000u

/* A mark's steps (custom rows × directions; the presets have 2 to 9) and
 * the points their series share: what its result holds.  A step is at
 * most two full latency histograms (2 × 2240 buckets, 3 values each) and
 * its share of the series (12 values a point): 48 steps and 50 000 points
 * are 1.25 M values, under DS_JSON_MAX_VALUES. */
#define DS_LIMIT_MARK_STEPS          48u
#define DS_LIMIT_MARK_SERIES_POINTS  (DS_LIMIT_SERIES_POINTS / 2)

/* A mark's --comment (CrystalDiskMark's Comment field): one line, printed
 * in its text and report. */
#define DS_LIMIT_COMMENT_CHARS       4096u
