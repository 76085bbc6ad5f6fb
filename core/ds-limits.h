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
