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
