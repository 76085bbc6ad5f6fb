/* ds-engine.h: submit and reap I/O
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

/* One I/O.  The run loop owns an array of @depth of them; the engine never
 * allocates one.  Times are CLOCK_MONOTONIC ns: @start_ns is taken by the
 * engine right before the I/O is handed to the kernel, @end_ns when its
 * completion is seen. */
typedef struct {
  uint64_t  offset_bytes;
  uint32_t  len_bytes;
  bool      write;
  unsigned  slot;        /* index of the buffer (registered for io_uring) */
  uint8_t  *buf;
  uint64_t  start_ns;
  uint64_t  end_ns;
  int64_t   result;      /* bytes transferred, or -errno */
} DsIo;

typedef struct _DsEngine DsEngine;

typedef struct {
  const char *name;
  /* Largest queue depth one engine instance handles. */
  unsigned    max_depth;
  /* When the run asks for more than max_depth: true, the run loop starts
   * depth / max_depth threads with one instance each (the `threads`
   * engine); false, the run is refused with DS_ERROR_INVALID. */
  bool        fan_out;
  int   (*init)      (DsEngine *engine);
  /* Queues @io; it is handed to the kernel by commit() (sync engines may do
   * the I/O right here). */
  int   (*queue)     (DsEngine *engine,
                      DsIo     *io);
  int   (*commit)    (DsEngine *engine);
  /* Waits for at least @min completions (or @timeout_ns, for cancellation
   * checks); stores up to @max completed I/Os in @ret_ios; returns how many,
   * or -errno. */
  int   (*getevents) (DsEngine *engine,
                      unsigned  min,
                      unsigned  max,
                      uint64_t  timeout_ns,
                      DsIo    **ret_ios);
  void  (*cleanup)   (DsEngine *engine);
} DsEngineOps;

struct _DsEngine {
  const DsEngineOps *ops;
  int                fd;
  unsigned           depth;
  uint8_t           *buffers;      /* depth × buffer_bytes, mem-aligned */
  size_t             buffer_bytes;
  void              *priv;
};

extern const DsEngineOps ds_engine_sync;
extern const DsEngineOps ds_engine_uring;
extern const DsEngineOps ds_engine_threads;

/* "sync", "io_uring", "threads"; NULL if unknown ("auto" is resolved by the
 * run: io_uring when depth > 1 and the kernel allows it, else sync). */
const DsEngineOps *ds_engine_lookup (const char *name);

/* TRUE if io_uring works here (a ring can be set up); @ret_errno gets why not. */
gboolean ds_engine_uring_available (int *ret_errno);

G_END_DECLS
